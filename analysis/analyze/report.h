/* report.h: an Analysis as a self-contained HTML page, DIR/index.html, with its plots drawn by
 * gnuplot (pngcairo, or png) through popen: the game-length distribution of each job, the
 * first-player advantage with intervals per self-play job and per convention (re-scored only
 * where both agents are convention-blind), the score-margin distribution, for sweeps the
 * advantage over the swept parameter, one line per series over a number (points over a
 * category; heat maps for two, one panel per series), and where matches rate 3+ agents their
 * ratings, with the crosstable as an HTML table; where the file has a variant atlas
 * (analyze_atlas.h), its heat maps and tables (report_atlas.h) after the answers.
 * Each plot is written as DIR/NAME.png and embedded in the page as a base64 data URI, through
 * report_page.h. */
#ifndef ANYWOLI_REPORT_H
#define ANYWOLI_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analyze.h"
#include "error.h"
#include "report_page.h"

/* Write the report into dir (checked by report_check_dir first, report_page.h); -1 with a
 * one-line message when gnuplot fails or a file cannot be written. An existing
 * dir/index.html is replaced only with force, and only once the new page is whole. */
int report_write(const Analysis *a, const char *dir, bool force, Error *e);

#endif
