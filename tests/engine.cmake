# The engine's fast and general paths against each other, and the playout loop against agents.
anywoli_test_program(test_engine sim)
add_test(NAME engine_paths COMMAND test_engine)
set_tests_properties(engine_paths PROPERTIES LABELS fast TIMEOUT 300)
