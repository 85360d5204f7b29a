# The exact solver: against a plain exhaustive search and its own consistency on small
# variants, composed puzzles and the state cap (fast).
anywoli_test_program(test_solver agents)
add_test(NAME solver COMMAND test_solver)
set_tests_properties(solver PROPERTIES LABELS fast TIMEOUT 300)
# `solve --tables auto`: the values without tables under each convention, the cache, the
# choice of K and --table-seeds' refusals (fast).
add_test(NAME solve_auto COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/solve_auto_test.sh
         $<TARGET_FILE:anywoli>)
set_tests_properties(solve_auto PROPERTIES LABELS fast TIMEOUT 120)
# The table of exact start values: its cheap rows solved again, one row a board and
# convention, the lookup (fast).
anywoli_test_program(test_start_values agents)
add_test(NAME start_values COMMAND test_start_values)
set_tests_properties(start_values PROPERTIES LABELS fast TIMEOUT 120)
