/* report.h: an Analysis as a self-contained HTML page, DIR/index.html, with its plots drawn by
 * gnuplot (pngcairo, or png) through popen: the game-length distribution of each job, the
 * first-player advantage with intervals per job and per convention, the score-margin
 * distribution, and for sweeps the advantage over the swept parameter (a heat map for two).
 * Each plot is written as DIR/NAME.png and embedded in the page as a base64 data URI. */
#ifndef ANYWOLI_REPORT_H
#define ANYWOLI_REPORT_H

#include "analyze.h"
#include "error.h"

/* Write the report into dir (created if missing); -1 with a one-line message when gnuplot is
 * missing or a file cannot be written. */
int report_write(const Analysis *a, const char *dir, Error *e);

/* Whether gnuplot can be run (found on PATH). */
int report_gnuplot_available(void);

#endif
