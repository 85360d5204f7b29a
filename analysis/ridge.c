/* ridge.c: ridge regression from normal equations, solved by GSL (ridge.h says how). */
#include "ridge.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Eigenvalues of the standardised X'X below this share of the largest are taken as 0: the
 * directions no row tells apart (collinear features), which the ridge then leaves at 0. */
#define RIDGE_RANK_TOLERANCE 1e-12

struct RidgeFit {
    size_t k, m;                 /* columns, and those fitted (ever non-zero) */
    size_t *col;                 /* the fitted columns' indices (m) */
    double *scale;               /* their root mean squares over the rows (m) */
    gsl_matrix *r;               /* the compressed system (m x m) */
    gsl_vector *z, *c;
    gsl_multifit_linear_workspace *work;
    double smax, smin;           /* the largest and smallest non-zero singular values */
};

int ridge_sums_init(RidgeSums *s, size_t k)
{
    memset(s, 0, sizeof *s);
    s->k = k;
    s->xtx = calloc(k * k, sizeof *s->xtx);
    s->xty = calloc(k, sizeof *s->xty);
    if (!s->xtx || !s->xty) {
        ridge_sums_free(s);
        return -1;
    }
    return 0;
}

void ridge_sums_free(RidgeSums *s)
{
    free(s->xtx);
    free(s->xty);
    memset(s, 0, sizeof *s);
}

void ridge_sums_add(RidgeSums *s, const uint32_t *col, const double *x, int nnz, double y)
{
    for (int a = 0; a < nnz; a++) {
        double *row = s->xtx + (size_t)col[a] * s->k;
        for (int b = a; b < nnz; b++)
            row[col[b]] += x[a] * x[b];
        s->xty[col[a]] += x[a] * y;
    }
    s->yy += y * y;
    s->n++;
}

double ridge_mse(const RidgeSums *s, const double *w)
{
    if (s->n == 0)
        return 0;
    double quad = 0, lin = 0;
    for (size_t i = 0; i < s->k; i++) {
        if (w[i] == 0)
            continue;
        const double *row = s->xtx + i * s->k;
        double sum = row[i] * w[i];
        for (size_t j = i + 1; j < s->k; j++)
            sum += 2 * row[j] * w[j];
        quad += w[i] * sum;
        lin += w[i] * s->xty[i];
    }
    double mse = (quad - 2 * lin + s->yy) / (double)s->n;
    return mse > 0 ? mse : 0;   /* rounding may leave a perfect fit a hair below 0 */
}

void ridge_free(RidgeFit *f)
{
    if (!f)
        return;
    free(f->col);
    free(f->scale);
    if (f->r)
        gsl_matrix_free(f->r);
    if (f->z)
        gsl_vector_free(f->z);
    if (f->c)
        gsl_vector_free(f->c);
    if (f->work)
        gsl_multifit_linear_free(f->work);
    free(f);
}

/* The standardised X'X of the fitted columns (symmetric, m x m) and X'y (m). */
static void standardise(const RidgeSums *s, const RidgeFit *f, gsl_matrix *a, gsl_vector *b)
{
    for (size_t i = 0; i < f->m; i++) {
        size_t ci = f->col[i];
        for (size_t j = i; j < f->m; j++) {
            size_t cj = f->col[j];
            double x = s->xtx[ci * s->k + cj] / (f->scale[i] * f->scale[j]);
            gsl_matrix_set(a, i, j, x);
            gsl_matrix_set(a, j, i, x);
        }
        gsl_vector_set(b, i, s->xty[ci] / f->scale[i]);
    }
}

/* R = D^(1/2) V' and z = D^(-1/2) V' b from A = V D V' (directions of D below the tolerance
 * left out as 0). */
static void compress(RidgeFit *f, const gsl_vector *eval, const gsl_matrix *evec,
                     const gsl_vector *b)
{
    double top = 0;
    for (size_t i = 0; i < f->m; i++)
        top = fmax(top, gsl_vector_get(eval, i));
    f->smax = sqrt(top);
    f->smin = f->smax;
    for (size_t i = 0; i < f->m; i++) {
        double d = gsl_vector_get(eval, i);
        bool kept = d > top * RIDGE_RANK_TOLERANCE;
        double root = kept ? sqrt(d) : 0, vb = 0;
        for (size_t j = 0; j < f->m; j++) {
            double v = gsl_matrix_get(evec, j, i);
            gsl_matrix_set(f->r, i, j, root * v);
            vb += v * gsl_vector_get(b, j);
        }
        gsl_vector_set(f->z, i, kept ? vb / root : 0);
        if (kept)
            f->smin = fmin(f->smin, root);
    }
}

int ridge_prepare(const RidgeSums *s, RidgeFit **out, Error *e)
{
    *out = NULL;
    if (s->n == 0)
        return error_set(e, "no rows to fit");
    RidgeFit *f = calloc(1, sizeof *f);
    if (!f)
        return error_set(e, "out of memory");
    f->k = s->k;
    f->col = malloc(s->k * sizeof *f->col);
    f->scale = malloc(s->k * sizeof *f->scale);
    if (!f->col || !f->scale) {
        ridge_free(f);
        return error_set(e, "out of memory");
    }
    for (size_t j = 0; j < s->k; j++) {
        double sq = s->xtx[j * s->k + j];
        if (sq > 0) {
            f->scale[f->m] = sqrt(sq / (double)s->n);
            f->col[f->m++] = j;
        }
    }
    if (f->m == 0) {
        ridge_free(f);
        return error_set(e, "no column is ever non-zero");
    }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    gsl_matrix *a = gsl_matrix_alloc(f->m, f->m), *evec = gsl_matrix_alloc(f->m, f->m);
    gsl_vector *b = gsl_vector_alloc(f->m), *eval = gsl_vector_alloc(f->m);
    gsl_eigen_symmv_workspace *ew = gsl_eigen_symmv_alloc(f->m);
    f->r = gsl_matrix_alloc(f->m, f->m);
    f->z = gsl_vector_alloc(f->m);
    f->c = gsl_vector_alloc(f->m);
    f->work = gsl_multifit_linear_alloc(f->m, f->m);
    int rc = a && evec && b && eval && ew && f->r && f->z && f->c && f->work
                 ? 0 : error_set(e, "out of memory for %zu columns", f->m);
    if (rc == 0) {
        standardise(s, f, a, b);
        if (gsl_eigen_symmv(a, eval, evec, ew) != GSL_SUCCESS)
            rc = error_set(e, "GSL's eigendecomposition of X'X failed");
    }
    if (rc == 0) {
        compress(f, eval, evec, b);
        if (gsl_multifit_linear_svd(f->r, f->work) != GSL_SUCCESS)
            rc = error_set(e, "GSL's singular value decomposition failed");
    }
    gsl_set_error_handler(old);
    if (a)
        gsl_matrix_free(a);
    if (evec)
        gsl_matrix_free(evec);
    if (b)
        gsl_vector_free(b);
    if (eval)
        gsl_vector_free(eval);
    if (ew)
        gsl_eigen_symmv_free(ew);
    if (rc != 0) {
        ridge_free(f);
        return -1;
    }
    *out = f;
    return 0;
}

size_t ridge_columns(const RidgeFit *f)
{
    return f->m;
}

void ridge_singular_range(const RidgeFit *f, double *smax, double *smin)
{
    *smax = f->smax;
    *smin = f->smin;
}

int ridge_solve(RidgeFit *f, double lambda, double *w, Error *e)
{
    double rnorm, snorm;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int status = gsl_multifit_linear_solve(lambda, f->r, f->z, f->c, &rnorm, &snorm, f->work);
    gsl_set_error_handler(old);
    if (status != GSL_SUCCESS)
        return error_set(e, "GSL's regularised solve failed at lambda %g: %s", lambda,
                         gsl_strerror(status));
    memset(w, 0, f->k * sizeof *w);
    for (size_t i = 0; i < f->m; i++)
        w[f->col[i]] = gsl_vector_get(f->c, i) / f->scale[i];
    return 0;
}

void ridge_lambdas(const RidgeFit *f, size_t n, double *lambda)
{
    gsl_vector *g = gsl_vector_alloc(n);
    if (!g) {
        for (size_t i = 0; i < n; i++)
            lambda[i] = f->smax * pow(1e-6, (double)i / (double)(n - 1));
        return;
    }
    /* GSL's own spacing of regularisation parameters (largest first). */
    gsl_multifit_linear_lreg(f->smax * 1e-6, f->smax, g);
    for (size_t i = 0; i < n; i++)
        lambda[i] = gsl_vector_get(g, i);
    gsl_vector_free(g);
}
