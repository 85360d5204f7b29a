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

# The search keeps its values: alpha-beta against a plain alpha-beta at every depth, on
# bench's positions (linked from the command's folder) and random ones; depths 1-5 (fast),
# 1-8 (slow).
add_executable(test_search test_search.c ${PROJECT_SOURCE_DIR}/sim/cli/bench_positions.c)
target_compile_definitions(test_search PRIVATE TEST_DATA_DIR="${ANYWOLI_TEST_DATA}")
target_include_directories(test_search PRIVATE ${PROJECT_SOURCE_DIR}/sim/cli)
target_link_libraries(test_search PRIVATE PkgConfig::CMOCKA agents)
add_test(NAME search_fast COMMAND test_search fast)
add_test(NAME search_slow COMMAND test_search slow)
set_tests_properties(search_fast PROPERTIES LABELS fast TIMEOUT 300)
set_tests_properties(search_slow PROPERTIES LABELS slow TIMEOUT 900)

# The strong player: legal, repeatable moves within its budget, a new game forgets the last,
# its table kept through a game, the late move reductions paying, the learned evaluation.
add_executable(test_strong test_strong.c ${PROJECT_SOURCE_DIR}/sim/cli/bench_positions.c)
target_compile_definitions(test_strong PRIVATE TEST_DATA_DIR="${ANYWOLI_TEST_DATA}")
target_include_directories(test_strong PRIVATE ${PROJECT_SOURCE_DIR}/sim/cli)
target_link_libraries(test_strong PRIVATE PkgConfig::CMOCKA agents)
add_test(NAME strong COMMAND test_strong)
set_tests_properties(strong PROPERTIES LABELS fast TIMEOUT 300)

# MCTS-Solver against exact values (the solver's, the tables'), and determinism (fast).
anywoli_test_program(test_mcts agents)
add_test(NAME mcts_solver COMMAND test_mcts)
set_tests_properties(mcts_solver PROPERTIES LABELS fast TIMEOUT 300)

# The search depth by depth (`anywoli search`): exact on small boards once every end is in
# reach (the solver's values), the plain alpha-beta's values at every depth, a legal line,
# the same twice, and the node budget (fast).
anywoli_test_program(test_search_analysis agents)
add_test(NAME search_analysis COMMAND test_search_analysis)
set_tests_properties(search_analysis PROPERTIES LABELS fast TIMEOUT 300)

# `anywoli search` end to end: the line format, JSON lines (parsed by Python), --multipv,
# --all-moves, --nodes, tables, determinism and the bad inputs (fast).
find_program(ANYWOLI_SEARCH_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ANYWOLI_SEARCH_PYTHON)
  find_program(ANYWOLI_SEARCH_PYTHON python3)
endif()
if(ANYWOLI_SEARCH_PYTHON)
  add_test(NAME search_cli
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/search_test.sh $<TARGET_FILE:anywoli>
                   ${CMAKE_CURRENT_SOURCE_DIR} ${ANYWOLI_SEARCH_PYTHON})
  set_tests_properties(search_cli PROPERTIES LABELS fast TIMEOUT 300)
endif()

# The learned evaluation (agents/learn_features.c, learned.c) and its ridge fit
# (analysis/ridge.c): each feature on hand-built positions, symmetry, the fixed point,
# weights files, the compiled-in set, alpha-beta with weights=learned, synthetic fits (fast).
anywoli_test_program(test_learned agents analysis)
add_test(NAME learned COMMAND test_learned)
set_tests_properties(learned PROPERTIES LABELS fast TIMEOUT 300)

# The network evaluation (agents/net.c): its inputs, the first layer's sums updated move by
# move equal to a recomputation after every move of random games, the integers within the
# stated bound of the floats, network files and their faults, the compiled-in network (fast).
# `test_net bench` prints the cost of an evaluation.
anywoli_test_program(test_net agents)
add_test(NAME net COMMAND test_net)
set_tests_properties(net PROPERTIES LABELS fast TIMEOUT 300)
