/* report_atlas.h: the analysis report's variant atlas (analyze_atlas.h): for each atlas (a
 * rung) one heat map per convention, South's advantage by holes and seeds with each cell's
 * interval and the start's exact value where known, drawn by gnuplot into the report's
 * private stage as DIR/atlas_N_CONVENTION.png and put in place with the other plots
 * (report_page.h); in the page, the maps with their captions, the fairest variants and the
 * check against the exact values as tables. */
#ifndef ANYWOLI_REPORT_ATLAS_H
#define ANYWOLI_REPORT_ATLAS_H

#include <stdio.h>

#include "analyze.h"
#include "error.h"
#include "report_page.h"

/* Draw every atlas's heat maps into the stage; -1 with a message when gnuplot fails. */
int report_atlas_draw(const Analysis *a, const ReportStage *stage, Error *e);

/* The page's atlas section (nothing without an atlas), embedding the maps drawn in dir (the
 * stage); -1 if one cannot be read. */
int report_atlas_section(FILE *out, const Analysis *a, const char *dir);

#endif
