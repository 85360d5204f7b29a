/* report_page.h: the plumbing of a self-contained HTML report with plots drawn by gnuplot
 * (pngcairo, or png) through popen, for every report the lab writes (the analysis's,
 * report.h, and the tuning's, tune_print.h): the report folder checked, a private stage in it
 * where gnuplot draws, each plot and the page renamed into place (so that no link at one of
 * their names is ever written through), plots embedded in the page as base64 data URIs. It
 * knows nothing of what is plotted. Every file is put in place only when the whole report is
 * drawn, and only if none of their names is in the way, so a refused report changes nothing. */
#ifndef ANYWOLI_REPORT_PAGE_H
#define ANYWOLI_REPORT_PAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "board_svg.h"   /* markup_text, the escaper of every page */

#include "error.h"

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

/* A gnuplot to write a script to (g->in), its messages kept apart from the terminal (-1 with
 * a message if it cannot run), and its end: the script's plot stays in the stage,
 * stage->dir/name.png, until the page is committed; -1 when drawing failed, with the line of
 * gnuplot's messages that says why. */
typedef struct Gnuplot {
    FILE *in;                /* the script goes here */
    FILE *errors;            /* gnuplot's stderr */
} Gnuplot;
int report_gnuplot_open(Gnuplot *g, Error *e);
int report_gnuplot_close(Gnuplot *g, const ReportStage *stage, const char *name, Error *e);

/* The page, written whole in the stage (stage->dir/index.html, a new file: door_create_stream;
 * NULL with a message if it cannot be made), then report_page_commit closes it and, when rc
 * is 0, puts every file of the stage in place, the plots then the page, once none of their
 * names is in the way (replacing a file only with force; without, one that appeared
 * meanwhile is left alone, an error). report_stage_close removes what is left. */
FILE *report_page_open(const ReportStage *stage, Error *e);
int report_page_commit(FILE *out, const ReportStage *stage, bool force, int rc, Error *e);

/* What report_page_commit (and so report_write and tune_report) returns when a file of the
 * report is in the way (one there without force, one that is not a regular file, one that
 * this process reads): a refusal, not a failure of the machine; nothing was put in place. */
#define REPORT_REFUSED 2

/* A figure: dir/name.png embedded (base64) with its caption and a link to the file; -1 if
 * the file cannot be read. */
int report_html_figure(FILE *out, const char *dir, const char *name, const char *caption);

/* A drawing: dir/name.svg embedded (base64) with its caption and a link to the file, shown
 * `width` pixels wide, side by side with the drawings around it; -1 if the file cannot be
 * read. */
int report_html_svg(FILE *out, const char *dir, const char *name, const char *caption,
                    int width);

#endif
