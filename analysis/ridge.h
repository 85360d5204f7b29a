/* ridge.h: least squares with ridge (Tikhonov) regularisation by GSL, for many rows of few
 * non-zero columns: the fit behind `anywoli learn fit`.
 *
 * Rows are never kept: each split of the data (the rows fitted, those that choose lambda,
 * those that test) is summed into its normal equations (X'X, X'y, y'y, n), from which both
 * the fit and any weights' mean squared error on that split follow exactly. The fit
 * standardises the columns (each to unit root mean square over the rows fitted, so that one
 * lambda penalises every feature alike, whatever its unit), compresses the rows into a square
 * system R, z with R'R = X'X and R'z = X'y (an eigendecomposition of X'X: the same
 * least-squares problem up to a constant, k rows instead of n), and solves it with GSL's
 * gsl_multifit_linear_svd and gsl_multifit_linear_solve, which minimise
 * |z - R c|^2 + lambda^2 |c|^2. */
#ifndef ANYWOLI_RIDGE_H
#define ANYWOLI_RIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The normal equations of a split: X'X (k x k, the upper triangle summed), X'y, y'y, n. */
typedef struct RidgeSums {
    size_t k;
    double *xtx, *xty;
    double yy;
    uint64_t n;
} RidgeSums;

/* Zeroed sums of k columns; -1 when out of memory. */
int ridge_sums_init(RidgeSums *s, size_t k);
void ridge_sums_free(RidgeSums *s);

/* Add a row with label y whose non-zero columns are col[0..nnz) (each once, ascending) with
 * values x[0..nnz). */
void ridge_sums_add(RidgeSums *s, const uint32_t *col, const double *x, int nnz, double y);

/* The mean squared error of weights w (k) on the rows summed in s: (w'X'Xw - 2 w'X'y +
 * y'y) / n, and 0 for no rows. */
double ridge_mse(const RidgeSums *s, const double *w);

/* A fit prepared from the rows fitted: the standardised, compressed system and GSL's SVD of
 * it. */
typedef struct RidgeFit RidgeFit;

/* Prepare the fit of the rows summed in s: -1 with a message when there are no rows, no
 * column is ever non-zero, or GSL fails. Columns never non-zero get weight 0. */
int ridge_prepare(const RidgeSums *s, RidgeFit **out, Error *e);
void ridge_free(RidgeFit *f);

/* The columns that are ever non-zero (those fitted), and the largest and smallest singular
 * values of the standardised system (the range lambdas are taken from). */
size_t ridge_columns(const RidgeFit *f);
void ridge_singular_range(const RidgeFit *f, double *smax, double *smin);

/* The weights (k, in the columns' own units: not standardised) at lambda >= 0. -1 with a
 * message when GSL fails. */
int ridge_solve(RidgeFit *f, double lambda, double *w, Error *e);

/* n lambdas (n >= 2) spaced evenly on a log scale from the largest singular value down to
 * its 1e-6 (GSL's gsl_multifit_linear_lreg over that range), largest first. */
void ridge_lambdas(const RidgeFit *f, size_t n, double *lambda);

#endif
