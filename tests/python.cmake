# The Python package python/anywoli (docs/python.md): its unittest tests, run by Debian's
# interpreter (python3-h5py, python3-numpy, python3-pandas) against fresh files of this
# build's anywoli: the reader against h5py (every column), score_a, moves against replay, old
# files, and docs/python.md's example against analyze --json. scripts/setup.sh installs
# python3-pandas, so no test is skipped.
find_program(ANYWOLI_PACKAGE_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(ANYWOLI_PACKAGE_PYTHON)
  add_test(NAME python_package
           COMMAND ${ANYWOLI_PACKAGE_PYTHON} -m unittest discover -v
                   -s ${CMAKE_SOURCE_DIR}/python/tests -t ${CMAKE_SOURCE_DIR}/python/tests)
  set_tests_properties(python_package PROPERTIES
    LABELS fast TIMEOUT 300
    ENVIRONMENT "ANYWOLI_BIN=$<TARGET_FILE:anywoli>;PYTHONPATH=${CMAKE_SOURCE_DIR}/python:${CMAKE_SOURCE_DIR}/python/tests")
endif()

# The README's install lines, offline: a venv with the system's packages, pip install -e.
if(ANYWOLI_PACKAGE_PYTHON)
  add_test(NAME python_install
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/python_install.sh ${CMAKE_SOURCE_DIR}
                   ${ANYWOLI_PACKAGE_PYTHON})
  set_tests_properties(python_install PROPERTIES LABELS slow TIMEOUT 300)
endif()
