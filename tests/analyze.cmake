# `anywoli analyze` (analysis/analyze*.c, json.c, report.c; sim/results_read.c,
# sim/cli/cmd_analyze.c): a hand-made results file analysed in process, the JSON writer; end to end,
# a small experiment analysed as tables, JSON and a report that must agree (analyze_check.py)
# and every bad input with its one-line error; the variant atlas checked against the file.
anywoli_test_program(test_analyze analyze)
add_test(NAME analyze COMMAND test_analyze)

# The end-to-end script needs h5py for the other-version and damaged files (Debian's
# python3-h5py: the system interpreter first); without it those checks are skipped.
find_program(ANYWOLI_ANALYZE_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ANYWOLI_ANALYZE_PYTHON)
  find_program(ANYWOLI_ANALYZE_PYTHON python3)
endif()
if(ANYWOLI_ANALYZE_PYTHON)
  add_test(NAME analyze_cli
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/analyze_test.sh $<TARGET_FILE:anywoli>
                   ${CMAKE_CURRENT_SOURCE_DIR} ${ANYWOLI_ANALYZE_PYTHON})
  set_tests_properties(analyze_cli PROPERTIES LABELS fast TIMEOUT 300)
  # The variant atlas (tests/data/atlas/atlas.cfg) against a recomputation from the file with
  # h5py (atlas_check.py): cells, exact values, the check, the fairest, text, heat maps.
  add_test(NAME analyze_atlas
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/analyze_atlas_test.sh $<TARGET_FILE:anywoli>
                   ${CMAKE_CURRENT_SOURCE_DIR} ${ANYWOLI_ANALYZE_PYTHON})
  set_tests_properties(analyze_atlas PROPERTIES LABELS fast TIMEOUT 120)
  # Every shipped config (configs/*.cfg) at a small size, analysed, its JSON and report page
  # checked for what would mislead (about a minute on 2 cores).
  add_test(NAME configs_report
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/configs_report_test.sh $<TARGET_FILE:anywoli>
                   ${PROJECT_SOURCE_DIR}/configs ${ANYWOLI_ANALYZE_PYTHON})
  set_tests_properties(configs_report PROPERTIES LABELS slow TIMEOUT 600 ENVIRONMENT "${ANYWOLI_LSAN}")
endif()
set_tests_properties(analyze PROPERTIES LABELS fast TIMEOUT 300)
