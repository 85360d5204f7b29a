/* tune_print.h: a tuning read from a results file as tables, JSON and an HTML report with
 * gnuplot plots (the tuning part of `anywoli analyze`). */
#ifndef ANYWOLI_TUNE_PRINT_H
#define ANYWOLI_TUNE_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "tune.h"

/* One verification match as two lines: its games, score and Elo with the pentanomial
 * interval over its pairs; its SPRT's bounds beside the decision. The one form both `tune`'s
 * summary and `analyze` print. */
void tune_verify_print(const TuneVerify *v, const char *name, FILE *out);

/* The weights, the trajectory (sampled when long) and the verification matches. */
void tune_print(const TuneData *d, FILE *out);

/* The same as one JSON document (every iteration; keys: docs/analyze.md). */
void tune_json(const TuneData *d, const char *path, FILE *out);

/* DIR/index.html with DIR/tuning_weights.png and DIR/tuning_matches.png (gnuplot); an
 * existing DIR/index.html is replaced only with force (see report_check_dir). */
int tune_report(const TuneData *d, const char *path, const char *dir, bool force, Error *e);

#endif
