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

/* What other reports (the tuning's) share. A gnuplot to write a script to (NULL with a
 * message if it cannot run), and its end: -1 when drawing dir/name.png failed. */
FILE *report_gnuplot_open(Error *e);
int report_gnuplot_close(FILE *gp, const char *dir, const char *name, Error *e);

/* Text with HTML's special characters escaped. */
void report_html_text(FILE *out, const char *s, size_t len);

/* A figure: dir/name.png embedded (base64) with its caption and a link to the file; -1 if
 * the file cannot be read. */
int report_html_figure(FILE *out, const char *dir, const char *name, const char *caption);

#endif
