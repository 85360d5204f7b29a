# Boards for people: the SVG drawing of a position (sim/board_svg.c) on hand-built positions,
# and `replay --html`'s stepping page read in headless Chromium step by step against the
# positions `replay` prints (board_page_test.py). Chromium is a test dependency that
# scripts/setup.sh installs: the page test fails, not skips, without it.
anywoli_test_program(test_board_svg sim)
add_test(NAME board_svg COMMAND test_board_svg)
set_tests_properties(board_svg PROPERTIES LABELS fast TIMEOUT 60)

find_program(ANYWOLI_BOARD_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ANYWOLI_BOARD_PYTHON)
  find_program(ANYWOLI_BOARD_PYTHON python3)
endif()
add_test(NAME board_page
         COMMAND ${ANYWOLI_BOARD_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/board_page_test.py
                 $<TARGET_FILE:anywoli>)
set_tests_properties(board_page PROPERTIES LABELS "fast;browser" TIMEOUT 300)

# The report's boards (analysis/analyze/report_boards.c): a root design's report holds the
# start and each line's position, as `anywoli move` plays the line, embedded in its page.
add_test(NAME report_boards
         COMMAND ${ANYWOLI_BOARD_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/report_boards_test.py
                 $<TARGET_FILE:anywoli>)
set_tests_properties(report_boards PROPERTIES LABELS fast TIMEOUT 300)
