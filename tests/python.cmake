# The Python package python/anywoli (docs/python.md): its unittest tests, run by Debian's
# interpreter (python3-h5py, python3-numpy, python3-pandas) against fresh files of this
# build's anywoli: the reader against h5py (every column), score_a, moves against replay, old
# files, and docs/python.md's examples (against analyze --json); and anywoli.Game and
# anywoli.env on this build's libanywoli_game.so: the rule vectors (those test_vectors reads),
# random games against `anywoli move` and `anywoli run`, every argument checked into its C
# type; and anywoli.serve, through pipes and in a match of this build's anywoli.
# scripts/setup.sh installs python3-pandas, so no test is skipped.
find_program(ANYWOLI_PACKAGE_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(ANYWOLI_PACKAGE_PYTHON)
  add_test(NAME python_package
           COMMAND ${ANYWOLI_PACKAGE_PYTHON} -m unittest discover -v
                   -s ${CMAKE_SOURCE_DIR}/python/tests -t ${CMAKE_SOURCE_DIR}/python/tests)
  set(python_env "ANYWOLI_BIN=$<TARGET_FILE:anywoli>"
                 "ANYWOLI_LIB=$<TARGET_FILE:anywoli_game>"
                 "ANYWOLI_VECTORS=${ANYWOLI_TEST_DATA}/vectors"
                 "PYTHONPATH=${CMAKE_SOURCE_DIR}/python:${CMAKE_SOURCE_DIR}/python/tests")
  set(python_sanitize_env "")
  if(ANYWOLI_SANITIZE)
    # A sanitized library loads into an interpreter that is not: ASan's runtime must come
    # first, and the interpreter's own allocations left at exit are not leaks of ours
    # (test_game_api checks the library's).
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(python_sanitize_env "LD_PRELOAD=${asan_runtime}" "ASAN_OPTIONS=detect_leaks=0")
    list(APPEND python_env ${python_sanitize_env})
  endif()
  set_tests_properties(python_package PROPERTIES
    LABELS fast TIMEOUT 300 ENVIRONMENT "${python_env}")
endif()

# The README's install lines, offline: a venv with the system's packages, pip install -e; the
# installed package finds libanywoli_game.so beside the anywoli binary.
if(ANYWOLI_PACKAGE_PYTHON)
  add_test(NAME python_install
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/python_install.sh ${CMAKE_SOURCE_DIR}
                   ${ANYWOLI_PACKAGE_PYTHON} $<TARGET_FILE:anywoli>)
  set_tests_properties(python_install PROPERTIES LABELS slow TIMEOUT 300)
  if(python_sanitize_env)
    set_tests_properties(python_install PROPERTIES ENVIRONMENT "${python_sanitize_env}")
  endif()
endif()
