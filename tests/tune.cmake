# The tuning (`anywoli tune`): SPSA on a noise-free quadratic, matches that split and add up,
# the same trajectory for 1, 2 and 3 threads, resume (past a torn journal) equal to an
# uninterrupted tuning, a verification's stop on its SPRT, bad configs; end to end, kill -9
# and --resume, SIGINT and analyze (about 5 s under the sanitizers on an idle machine).
anywoli_test_program(test_tune sim)
add_test(NAME tune COMMAND test_tune)
set_tests_properties(tune PROPERTIES LABELS fast TIMEOUT 300 ENVIRONMENT "${ANYWOLI_LSAN}")

add_test(NAME tune_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tune_test.sh
                               $<TARGET_FILE:anywoli> ${PROJECT_SOURCE_DIR}/configs)
set_tests_properties(tune_cli PROPERTIES LABELS fast TIMEOUT 300 ENVIRONMENT "${ANYWOLI_LSAN}")

# `anywoli fit` (Texel's method): against an independent scipy fit of the rows it dumps,
# labels from tables, bad input (about 15 s; about 60 s of CPU under the sanitizers).
if(EXISTS /usr/bin/python3)
  set(ANYWOLI_FIT_PYTHON /usr/bin/python3)
else()
  set(ANYWOLI_FIT_PYTHON python3)
endif()
add_test(NAME fit_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fit_test.sh $<TARGET_FILE:anywoli>
                              ${ANYWOLI_FIT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(fit_cli PROPERTIES LABELS fast TIMEOUT 300 ENVIRONMENT "${ANYWOLI_LSAN}")

# `anywoli learn` (the learned evaluation's data and fit): rows the same for any threads and
# slices, exact labels from tables, the fit's report and its weights played, bad input
# (about 10 s).
add_test(NAME learn_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/learn_test.sh $<TARGET_FILE:anywoli>
                                ${ANYWOLI_FIT_PYTHON})
set_tests_properties(learn_cli PROPERTIES LABELS fast TIMEOUT 300 ENVIRONMENT "${ANYWOLI_LSAN}")

# weights=learned on a board the compiled-in set is not for (learned=auto): fitted on first
# use into the cache, read again, the same file for any threads, its hash in the fingerprint,
# a cached file of another variant refused, the standard board's compiled-in set unchanged.
add_test(NAME learned_auto COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/learned_auto_test.sh
                                   $<TARGET_FILE:anywoli> ${ANYWOLI_FIT_PYTHON})
set_tests_properties(learned_auto PROPERTIES LABELS fast TIMEOUT 300 ENVIRONMENT "${ANYWOLI_LSAN}")

# scripts/net_train.py (the network evaluation's training, docs/learned.md): a tiny network
# of a small sampling trained twice into the same bytes, its file read back on its own (the
# encoding, the checksum, the printed error), `learn net-error`'s float error the same,
# bad input (about 30 s). Skipped (77) without python3-torch.
add_test(NAME net_train COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/net_train_test.sh
                                $<TARGET_FILE:anywoli> ${ANYWOLI_FIT_PYTHON} ${PROJECT_SOURCE_DIR})
set_tests_properties(net_train PROPERTIES LABELS fast TIMEOUT 300 SKIP_RETURN_CODE 77
                     ENVIRONMENT "${ANYWOLI_LSAN}")
