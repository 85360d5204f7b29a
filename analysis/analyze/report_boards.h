/* report_boards.h: the analysis report's boards (sim/board_svg.h): the start of each board
 * its jobs play, and for each job of a root design (all:N, root.h) the position after each
 * of its lines, with the line's name (S5 N5) and its advantage. Each board is a file of the
 * report, DIR/board_*.svg, drawn into the report's private stage and put in place with its
 * plots and page (report_page.h); the page embeds them. */
#ifndef ANYWOLI_REPORT_BOARDS_H
#define ANYWOLI_REPORT_BOARDS_H

#include <stdio.h>

#include "analyze.h"
#include "error.h"
#include "report_page.h"

/* Draw every board of the analysis into the stage (stage->dir/board_*.svg, new files through
 * the door); -1 with a message when one cannot be written. */
int report_boards_draw(const Analysis *a, const ReportStage *stage, Error *e);

/* The page's section of boards, embedding those drawn in dir (the stage); -1 if one cannot
 * be read. */
int report_boards_section(FILE *out, const Analysis *a, const char *dir);

#endif
