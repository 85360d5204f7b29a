/* report.h: an Analysis as a self-contained HTML page, DIR/index.html, with its plots drawn by
 * gnuplot (pngcairo, or png) through popen: the game-length distribution of each job, the
 * first-player advantage with intervals per job and per convention (re-scored only where both
 * agents are convention-blind), the score-margin distribution, and for sweeps the advantage
 * over the swept parameter, one line per series (heat maps for two, one panel per series).
 * Each plot is written as DIR/NAME.png and embedded in the page as a base64 data URI. Plots
 * and page are drawn in a private folder inside DIR (ReportStage) and renamed into place, so
 * that no link at one of their names is ever written through. */
#ifndef ANYWOLI_REPORT_H
#define ANYWOLI_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analyze.h"
#include "error.h"

/* Write the report into dir (checked by report_check_dir first); -1 with a one-line message
 * when gnuplot fails or a file cannot be written. An existing dir/index.html is replaced only
 * with force, and only once the new page is whole. */
int report_write(const Analysis *a, const char *dir, bool force, Error *e);

/* Whether dir can take a report, before anything is drawn: created if missing, a folder, one
 * that a file can be written in, and without an index.html unless force (never one that is
 * not a regular file). -1 with a one-line message otherwise. */
int report_check_dir(const char *dir, bool force, Error *e);

/* Whether gnuplot can be run (found on PATH). */
int report_gnuplot_available(void);

/* Where gnuplot draws: a private folder made inside the report folder (mkdtemp: new, and
 * only this user's, so no link can wait in it at a plot's name). A plot drawn there is moved
 * into the report folder by a rename, which replaces a name and never writes through it. */
typedef struct ReportStage {
    char dir[4200];          /* REPORT/.anywoli-plots-XXXXXX: gnuplot's `set output` folder */
    const char *final;       /* REPORT */
} ReportStage;
int report_stage_open(ReportStage *s, const char *dir, Error *e);
/* Remove the folder and whatever is left in it (after a failure). */
void report_stage_close(ReportStage *s);

/* What other reports (the tuning's) share. A gnuplot to write a script to (g->in), its
 * messages kept apart from the terminal (-1 with a message if it cannot run), and its end:
 * the script's plot stage->dir/name.png moved to stage->final/name.png; -1 when drawing
 * failed, with the line of gnuplot's messages that says why, or when the move failed. */
typedef struct Gnuplot {
    FILE *in;                /* the script goes here */
    FILE *errors;            /* gnuplot's stderr */
} Gnuplot;
int report_gnuplot_open(Gnuplot *g, Error *e);
int report_gnuplot_close(Gnuplot *g, const ReportStage *stage, const char *name, Error *e);

/* The page, written whole in the stage (stage->dir/index.html, a new file: new_file_stream;
 * NULL with a message if it cannot be made), then report_page_commit closes it and, when rc
 * is 0, puts it in place as stage->final/index.html (replacing one only with force; without,
 * one that appeared meanwhile is left alone, an error). report_stage_close removes what is
 * left. */
FILE *report_page_open(const ReportStage *stage, Error *e);
int report_page_commit(FILE *out, const ReportStage *stage, bool force, int rc, Error *e);

/* Text with HTML's special characters escaped. */
void report_html_text(FILE *out, const char *s, size_t len);

/* A figure: dir/name.png embedded (base64) with its caption and a link to the file; -1 if
 * the file cannot be read. */
int report_html_figure(FILE *out, const char *dir, const char *name, const char *caption);

#endif
