/* learn_fit.h: the fit of the learned evaluation to labelled positions (learn_data.h): every
 * row's features against its label, summed into the normal equations of its split of games,
 * and the ridge fit (analysis/ridge.h) at the lambda that does best on the games held out to
 * choose it. `anywoli learn fit` prints what it finds; learned=auto (learn_auto.h) keeps the
 * weights. A pure function of the rows: the same weights on every machine and thread count.
 *
 * Splits, by a row's game: index 3 mod 5 chooses lambda, 4 mod 5 tests, the others are
 * fitted. */
#ifndef ANYWOLI_LEARN_FIT_H
#define ANYWOLI_LEARN_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "learn_data.h"
#include "learn_features.h"
#include "ridge.h"

enum { LEARN_SPLIT_FIT = 0, LEARN_SPLIT_CHOOSE, LEARN_SPLIT_TEST, LEARN_SPLIT_NB };

/* The lambdas tried by default (GSL's log spacing). */
#define LEARN_DEFAULT_LAMBDAS 40

/* A row's split (LEARN_SPLIT_*), by its game. */
int learn_split_of(const LearnRow *r);

/* A row's target for its side to move, less its store difference, in seeds: its label, or
 * with `mean` the mean of its labels at depth and depth - 1. */
double learn_target_of(const LearnRow *r, bool mean);

/* The columns of a position: each feature at the two knots around its phase (those of
 * weight 0 left out), ascending, into col and x (room for 2 x FEATURE_MAX_ACTIVE). Returns
 * how many. */
int learn_row_columns(const FeatureLayout *l, const Variant *v, const Position *p, uint32_t *col,
                      double *x);

/* Sums of a one-column fit t -> y (the tuned evaluation scaled): sum t^2, t y, y^2, n. */
typedef struct LearnScaleSums {
    double tt, ty, yy;
    uint64_t n;
} LearnScaleSums;

/* The root mean squared error of y ~ a t on s. */
double learn_scale_rms(const LearnScaleSums *s, double a);

/* What to fit. */
typedef struct LearnFitSpec {
    unsigned without;     /* feature groups left out (a mask of 1 << FeatureGroup) */
    bool mean;            /* the target: the mean of the labels at depth and depth - 1 */
    int lambdas;          /* the grid's size (>= 2) */
    bool fixed_lambda;    /* lambda below instead of the grid's best */
    double lambda;
} LearnFitSpec;

/* A fit and what it was fitted from. */
typedef struct LearnFit {
    FeatureLayout layout;                  /* the board's, less the groups left out */
    size_t k;                              /* layout.n x FEATURE_KNOTS columns */
    RidgeSums sums[LEARN_SPLIT_NB];        /* each split's normal equations */
    LearnScaleSums tuned[LEARN_SPLIT_NB];  /* the whole value ~ a x the tuned evaluation */
    LearnScaleSums positional[LEARN_SPLIT_NB];   /* the value less the store ~ a x tuned's */
    uint64_t tabled[LEARN_SPLIT_NB];       /* rows labelled by the tables */
    double a_tuned, a_pos;                 /* the tuned scales, fitted on the fitted split */
    RidgeFit *fit;
    double lambda;                         /* the lambda chosen (or given) */
    double *w;                             /* its weights, k */
} LearnFit;

/* Fit the rows of n data files (one board: the first's) as spec says into *f (freed by
 * learn_fit_free). -2 with a message when a split has no rows (too few games), -1 with one
 * when the machine fails (memory, GSL). */
int learn_fit(const LearnData *files, int n, const LearnFitSpec *spec, LearnFit *f, Error *e);
void learn_fit_free(LearnFit *f);

/* The root mean squared error of the fitted weights on a split, and the tuned evaluation's
 * (scaled), in seeds. */
double learn_fit_rms(const LearnFit *f, int split);
double learn_fit_tuned_rms(const LearnFit *f, int split);

#endif
