# The protocol's text (agents/protocol.c): lines read back as written, bad lines refused.
anywoli_test_program(test_protocol agents)
add_test(NAME protocol COMMAND test_protocol)
set_tests_properties(protocol PROPERTIES LABELS fast TIMEOUT 60 ENVIRONMENT "${ANYWOLI_LSAN}")

# Programs that play over the line protocol (docs/protocol.md): `anywoli engine` behind the
# external agent plays the in-process agent's games, game for game; the example programs (C,
# Python, anywoli.serve) in real matches; every fault a one-line stop that keeps the finished
# games, --resume once mended; kill -9 and --resume; play (tests/protocol_test.sh).
find_program(ANYWOLI_PROTOCOL_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(ANYWOLI_PROTOCOL_PYTHON)
  add_test(NAME protocol_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/protocol_test.sh
                                     $<TARGET_FILE:anywoli> $<TARGET_FILE:first_move>
                                     ${CMAKE_SOURCE_DIR})
  set_tests_properties(protocol_cli PROPERTIES LABELS fast TIMEOUT 300
                       ENVIRONMENT "${ANYWOLI_LSAN}")
endif()

# The external agent's processes, faults and strict lines: the program's process group ends
# at every end, a fault says how the program ended, a NUL byte or an answer written ahead is a
# fault, a program that will not start or fails its handshake is refused before any game
# (tests/external_test.sh).
if(ANYWOLI_PROTOCOL_PYTHON)
  add_test(NAME protocol_external COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/external_test.sh
                                          $<TARGET_FILE:anywoli> ${CMAKE_SOURCE_DIR})
  set_tests_properties(protocol_external PROPERTIES LABELS fast TIMEOUT 120
                       ENVIRONMENT "${ANYWOLI_LSAN}")
endif()
