# The agents: unit tests against their definitions (fast), the `agents`, `play` and search
# bench command lines (fast, and the bench's thread check slow), and strength matches (slow).
anywoli_test_program(test_agents agents)
anywoli_test_program(test_agents_strength sim analysis)
anywoli_test_program(test_agents_cli agents)

add_test(NAME agents COMMAND test_agents)
add_test(NAME agents_cli COMMAND test_agents_cli $<TARGET_FILE:anywoli> fast)
add_test(NAME agents_bench COMMAND test_agents_cli $<TARGET_FILE:anywoli> slow)
add_test(NAME agents_strength COMMAND test_agents_strength)

set_tests_properties(agents agents_cli PROPERTIES LABELS fast TIMEOUT 300)
set_tests_properties(agents_bench agents_strength PROPERTIES LABELS slow TIMEOUT 600)
