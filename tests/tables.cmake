# Endgame tables: ranking, every stored position of small variants against the graph solver
# and a plain search, consistency (the standard board too), threads, files and their errors,
# the solver with tables, alpha-beta with tables, the prover against the graph solver (fast);
# larger variants (slow).
anywoli_test_program(test_tables agents)
add_test(NAME tables_fast COMMAND test_tables fast)
add_test(NAME tables_slow COMMAND test_tables slow)
set_tests_properties(tables_fast PROPERTIES LABELS fast TIMEOUT 300)
set_tests_properties(tables_slow PROPERTIES LABELS slow TIMEOUT 1500)
add_test(NAME tables_auto COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tables_auto_test.sh
         $<TARGET_FILE:anywoli>)
set_tests_properties(tables_auto PROPERTIES LABELS fast TIMEOUT 300)
