# `anywoli export` (sim/cli/cmd_export.c, through sim/results_read.c): a small experiment
# exported as CSV and checked against the file read by Debian's h5py (export_check.py: row
# counts, every column, the moves), and every bad input with its one-line error.
find_program(ANYWOLI_EXPORT_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ANYWOLI_EXPORT_PYTHON)
  find_program(ANYWOLI_EXPORT_PYTHON python3)
endif()
if(ANYWOLI_EXPORT_PYTHON)
  add_test(NAME export_cli
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/export_test.sh $<TARGET_FILE:anywoli>
                   ${CMAKE_CURRENT_SOURCE_DIR} ${ANYWOLI_EXPORT_PYTHON})
  set_tests_properties(export_cli PROPERTIES LABELS fast TIMEOUT 300)
endif()
