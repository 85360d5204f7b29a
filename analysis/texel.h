/* texel.h: Texel's method, the fit behind `anywoli fit`: a logistic regression of game results
 * (1, 1/2, 0 for the side to move) on the evaluation terms of the positions, by maximum
 * likelihood with GSL. The model is P(result) = 1 / (1 + exp(-x . beta)) with no intercept
 * (the evaluation has none); column 0 of x is the base term (the store difference plus any
 * terms held at fixed weights), whose coefficient is the scale K, so that the evaluation's
 * weights are beta_i / K with the store's weight 1. */
#ifndef ANYWOLI_TEXEL_H
#define ANYWOLI_TEXEL_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* A table of positions: n rows of k columns (row-major), each with its label in [0, 1], and
 * each with its cluster (the game it comes from; rows of a cluster are consecutive), or NULL
 * when every row is a cluster of its own. */
typedef struct TexelTable {
    size_t n, k;
    const double *x;
    const double *y;
    const uint64_t *cluster;
} TexelTable;

/* The fitted model: beta (k), its covariance (k x k: the cluster-robust sandwich H^-1 M H^-1,
 * H the information, M the sum over clusters of the outer products of their score sums; it
 * holds when the positions of a game are correlated and when labels are draws, where H^-1
 * alone does not), and the mean log-loss of the rows it was fitted on. */
typedef struct TexelFit {
    size_t k;
    double *beta, *cov;
    double log_loss;
    size_t iterations;
} TexelFit;

/* Fit t (k at most 32) by maximum likelihood (GSL's BFGS on the mean log-loss, from beta = 0);
 * -1 with a one-line message when it does not converge or the information is singular (a term
 * constant or collinear with others over the rows). */
int texel_fit(const TexelTable *t, TexelFit *fit, Error *e);

/* Free the fit's arrays. */
void texel_fit_free(TexelFit *fit);

/* The mean log-loss of beta on the rows of t (natural logarithm). */
double texel_log_loss(const TexelTable *t, const double *beta);

/* The evaluation's weights and their standard errors (delta method) from a fit: w[0] = K and
 * se[0] its error; w[i] = beta_i / K for i >= 1. */
void texel_weights(const TexelFit *fit, double *w, double *se);

#endif
