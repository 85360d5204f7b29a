# The exact solver: against a plain exhaustive search and its own consistency on small
# variants, composed puzzles and the state cap (fast).
anywoli_test_program(test_solver agents)
add_test(NAME solver COMMAND test_solver)
set_tests_properties(solver PROPERTIES LABELS fast TIMEOUT 300)
