# The engine's fast and general paths against each other, and the playout loop against agents.
anywoli_test_program(test_engine sim)
add_test(NAME engine_paths COMMAND test_engine)
set_tests_properties(engine_paths PROPERTIES LABELS fast TIMEOUT 300)
# A job's openings: the specs and their messages, all:N against perft, book files, plies:N
# as a pure function of (seed, job, pair); random games from openings by the playout as by
# the game loop.
anywoli_test_program(test_openings sim)
add_test(NAME openings COMMAND test_openings)
set_tests_properties(openings PROPERTIES LABELS fast TIMEOUT 300)
# A balanced book (sim/book.c): values against a plain negamax, the window and --max, the
# same book for 1 and 2 threads, the book read back by openings_load.
anywoli_test_program(test_book sim)
add_test(NAME book COMMAND test_book)
set_tests_properties(book PROPERTIES LABELS fast TIMEOUT 300)
