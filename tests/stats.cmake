# The statistics library (analysis/): each statistic (the pair statistics and distinct games
# in test_stats_pairs) against values computed with scipy and
# numpy (embedded in the C tests; stats_reference.py recomputes them and checks they match),
# the ratings fit, and the coverage of the 95% intervals on simulated games. All `fast`.
anywoli_test_program(test_stats analysis)
anywoli_test_program(test_stats_ratings analysis)
anywoli_test_program(test_stats_coverage analysis variants)
anywoli_test_program(test_stats_pairs analysis)
anywoli_test_program(test_root analysis)
anywoli_test_program(test_root_race analysis)

add_test(NAME stats COMMAND test_stats)
add_test(NAME stats_ratings COMMAND test_stats_ratings)
add_test(NAME stats_coverage COMMAND test_stats_coverage)
add_test(NAME stats_pairs COMMAND test_stats_pairs)
# The root design (analysis/root.h) on hand-built line trees.
add_test(NAME stats_root COMMAND test_root)
# The coverage of its intervals for South's best line by simulation: `root_coverage study`
# prints docs/analyze.md's tables (about 2 minutes, the adaptive design's races most of it);
# the test fails when the interval is too narrow (and shows it can tell).
add_executable(root_coverage root_coverage.c)
target_link_libraries(root_coverage PRIVATE analysis)
add_test(NAME stats_root_coverage COMMAND root_coverage check)
# The adaptive root design (analysis/root_race.h) on hand-built line trees.
add_test(NAME stats_root_race COMMAND test_root_race)
set_tests_properties(stats stats_ratings stats_coverage stats_pairs stats_root stats_root_coverage
                     stats_root_race PROPERTIES LABELS fast TIMEOUT 300)

# The reference values need scipy, which Debian's own python3 has (python3-scipy): prefer
# /usr/bin/python3 over one on PATH that may lack it. Without scipy the test is skipped (77).
if(EXISTS /usr/bin/python3)
  set(ANYWOLI_STATS_PYTHON /usr/bin/python3)
else()
  find_package(Python3 COMPONENTS Interpreter)
  set(ANYWOLI_STATS_PYTHON ${Python3_EXECUTABLE})
endif()
if(ANYWOLI_STATS_PYTHON)
  add_test(NAME stats_reference
           COMMAND ${ANYWOLI_STATS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/stats_reference.py
                   ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(stats_reference PROPERTIES LABELS fast TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
