# The driver's tests: configs, the parallel run and its results file, the journal and
# resume, the command line end to end, the file format through h5py, and the fuzz targets.
# libconfig 1.5 leaks in its lexer on malformed input (Debian 12's libconfig 1.5): suppressed for LSan.
# The suppressions match function names, so LSan needs llvm-symbolizer (Debian: llvm-14), named
# here: the sanitizers' own search looks only for `llvm-symbolizer` on PATH, which llvm-14 lacks.
find_program(ANYWOLI_SYMBOLIZER NAMES llvm-symbolizer llvm-symbolizer-14 PATHS /usr/lib/llvm-14/bin)
set(ANYWOLI_LSAN "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/lsan.supp")
if(ANYWOLI_SYMBOLIZER)
  list(APPEND ANYWOLI_LSAN "ASAN_SYMBOLIZER_PATH=${ANYWOLI_SYMBOLIZER}")
endif()

# Malformed configs with their one-line errors; sweeps, defaults, overrides, the quick form.
anywoli_test_program(test_driver_config sim)
add_test(NAME driver_config COMMAND test_driver_config)
# Identical tables for 1, 2, 3 threads and two batch sizes; the journal; resume; refusals.
anywoli_test_program(test_driver sim)
add_test(NAME driver COMMAND test_driver)
set_tests_properties(driver_config driver PROPERTIES LABELS fast TIMEOUT 1500
                     ENVIRONMENT "${ANYWOLI_LSAN}")

# End to end: kill -9 and --resume, SIGINT/SIGTERM, full disk, refusals, progress, replay.
add_test(NAME driver_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/driver_test.sh
                                 $<TARGET_FILE:anywoli> ${PROJECT_SOURCE_DIR}/configs)
set_tests_properties(driver_cli PROPERTIES LABELS slow TIMEOUT 600
                     ENVIRONMENT "${ANYWOLI_LSAN}")

# A run that grows and slices merged: run --extend (also after kill -9), --first-game, merge,
# each equal game for game to one run of the whole (tests/same_games.py, h5py); refusals.
find_program(ANYWOLI_GROW_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(ANYWOLI_GROW_PYTHON)
  add_test(NAME grow_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/grow_test.sh
                                 $<TARGET_FILE:anywoli> ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(grow_cli PROPERTIES LABELS fast TIMEOUT 300
                       ENVIRONMENT "${ANYWOLI_LSAN}")
endif()

# Every input that makes a game is in the experiment, and nothing else: weights files (and
# network files) changed between slices, before --extend or before --resume are refused;
# weights files cut short or edited are refused; the external agent's timeout may change on --resume and --extend.
if(ANYWOLI_GROW_PYTHON)
  add_test(NAME fingerprint_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fingerprint_test.sh
                                        $<TARGET_FILE:anywoli>)
  set_tests_properties(fingerprint_cli PROPERTIES LABELS fast TIMEOUT 300
                       ENVIRONMENT "${ANYWOLI_LSAN}")
endif()

# The network's agents (weights=net) on the command line: the same games with 1 and 2
# threads, a network file's hash in the results file, the refusals of net=.
if(ANYWOLI_GROW_PYTHON)
  add_test(NAME net_agents_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/net_agents_test.sh
                                       $<TARGET_FILE:anywoli> ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(net_agents_cli PROPERTIES LABELS fast TIMEOUT 300
                       ENVIRONMENT "${ANYWOLI_LSAN}")
endif()

# Tournaments of the quick form (--gauntlet, --round-robin) and a shuffled book
# (--openings-order): their jobs, a config's equal, the refusals (about 5 s).
find_program(ANYWOLI_TOURNAMENT_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(ANYWOLI_TOURNAMENT_PYTHON)
  add_test(NAME tournament_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tournament_test.sh
                                       $<TARGET_FILE:anywoli> ${ANYWOLI_TOURNAMENT_PYTHON})
  set_tests_properties(tournament_cli PROPERTIES LABELS fast TIMEOUT 300
                       ENVIRONMENT "${ANYWOLI_LSAN}")
endif()

# Results-file format 1 read by Debian's h5py (python3-h5py: the system interpreter).
find_program(ANYWOLI_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ANYWOLI_SYSTEM_PYTHON)
  find_program(ANYWOLI_SYSTEM_PYTHON python3)
endif()
if(ANYWOLI_SYSTEM_PYTHON)
  add_test(NAME results_format
           COMMAND ${ANYWOLI_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/test_results_format.py
                   $<TARGET_FILE:anywoli>)
  set_tests_properties(results_format PROPERTIES LABELS fast TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${ANYWOLI_LSAN}")
  # A run's sequential stop (sprt): the stop pair against an independent LLR, the same for
  # any threads and batch and after kill -9; analyze's report; the progress JSON lines.
  add_test(NAME sprt_cli
           COMMAND ${ANYWOLI_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/sprt_test.py
                   $<TARGET_FILE:anywoli>)
  set_tests_properties(sprt_cli PROPERTIES LABELS fast TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${ANYWOLI_LSAN}")
  # --progress json: a start record, progress records, an end record with the outcome (complete,
  # stopped early by its SPRT, interrupted by SIGTERM), the keys docs/commands.md lists.
  add_test(NAME progress_cli
           COMMAND ${ANYWOLI_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/progress_test.py
                   $<TARGET_FILE:anywoli> ${PROJECT_SOURCE_DIR}/docs)
  set_tests_properties(progress_cli PROPERTIES LABELS fast TIMEOUT 300
                       ENVIRONMENT "${ANYWOLI_LSAN}")
  # The adaptive root design (root_design): exact small boards, the schedule checked from
  # the games, the same games and stop for any threads and batch and after kill -9; analyze.
  add_test(NAME root_design_cli
           COMMAND ${ANYWOLI_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/root_design_test.py
                   $<TARGET_FILE:anywoli>)
  set_tests_properties(root_design_cli PROPERTIES LABELS fast TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${ANYWOLI_LSAN}")
  # The readers (analyze, export, replay and the Python package) against damaged and hostile
  # files (tests/hostile_files.py): one line and status 2, or ResultsError; never a crash.
  add_test(NAME hostile_files
           COMMAND ${ANYWOLI_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/hostile_test.py
                   $<TARGET_FILE:anywoli> ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(hostile_files PROPERTIES LABELS fast TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${ANYWOLI_LSAN}")
  # Every file argument of every command, from the commands' table (`anywoli
  # --file-arguments`), against links, FIFOs, folders, devices, an input named as an output,
  # a full disk, SIGTERM, stray partial files and a lost standard output.
  add_test(NAME door_matrix
           COMMAND ${ANYWOLI_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/door_matrix_test.py
                   $<TARGET_FILE:anywoli>)
  set_tests_properties(door_matrix PROPERTIES LABELS fast TIMEOUT 600
                       ENVIRONMENT "${ANYWOLI_LSAN}")
endif()

# The libFuzzer targets (fuzz/, built with clang apart from this build), a fixed number of
# inputs each from a fixed seed; first a canary of deliberate findings that must fail.
add_test(NAME fuzz COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_test.sh ${PROJECT_SOURCE_DIR}
                           ${CMAKE_BINARY_DIR}/fuzz)
set_tests_properties(fuzz PROPERTIES LABELS slow TIMEOUT 600 SKIP_RETURN_CODE 77)

# A live job's output untouchable by a second process; files that appear meanwhile never
# replaced; only regular files replaced; stops after the final rename finished by --resume
# (run, tune and tables build).
add_test(NAME output_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/output_test.sh
                                 $<TARGET_FILE:anywoli>)
set_tests_properties(output_cli PROPERTIES LABELS slow TIMEOUT 600
                     ENVIRONMENT "${ANYWOLI_LSAN}")
# Files made afresh, never through a link (a link at OUT.partial, at a journal on --resume,
# at a report's plot, at a --dump); a killed writer's OUT.partial cleared at the next start;
# one wording for an output that exists; one tables file named twice refused; a book's header
# kept to one line; a lost write to standard output (/dev/full) an error for every command;
# a config that is a FIFO or a folder, or @includes one, refused at once; a full disk (a
# small tmpfs, when it can be mounted) one line without HDF5's error stack.
add_test(NAME writes_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/writes_test.sh
                                 $<TARGET_FILE:anywoli>)
set_tests_properties(writes_cli PROPERTIES LABELS fast TIMEOUT 120
                     ENVIRONMENT "${ANYWOLI_LSAN}")

# docs/config.md documents exactly the keys of the run and tuning config loaders' tables.
add_executable(config_keys_dump config_keys_dump.c)
target_link_libraries(config_keys_dump PRIVATE sim)
add_test(NAME config_doc COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/config_doc_test.py
                                 $<TARGET_FILE:config_keys_dump> ${PROJECT_SOURCE_DIR}/docs/config.md)
set_tests_properties(config_doc PROPERTIES LABELS fast TIMEOUT 60)

# The table of variant parameters (variant_params): every consumer visits every entry (the
# option, the results file, analyze's text, JSON and sweeps, export, the Python package, a
# tables file's header and match), and the Python package's copy equals it.
add_executable(variant_params_dump variant_params_dump.c)
target_link_libraries(variant_params_dump PRIVATE sim)
find_program(ANYWOLI_PARAMS_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(ANYWOLI_PARAMS_PYTHON)
  add_test(NAME variant_params
           COMMAND ${ANYWOLI_PARAMS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/variant_params_test.py
                   $<TARGET_FILE:anywoli> $<TARGET_FILE:variant_params_dump>
                   ${PROJECT_SOURCE_DIR}/python)
  set_tests_properties(variant_params PROPERTIES LABELS fast TIMEOUT 300)
endif()
