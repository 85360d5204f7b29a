/* texel.c: the logistic fit of Texel's method (maximum likelihood with GSL's BFGS). */
#include "texel.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TEXEL_MAX_TERMS 32
#define TEXEL_MAX_ITERATIONS 2000

/* log(1 + exp(z)) without overflow. */
static double softplus(double z)
{
    return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* Row i's linear predictor x_i . beta. */
static double predictor(const TexelTable *t, size_t i, const double *beta)
{
    double z = 0;
    for (size_t j = 0; j < t->k; j++)
        z += t->x[i * t->k + j] * beta[j];
    return z;
}

double texel_log_loss(const TexelTable *t, const double *beta)
{
    double sum = 0;
    for (size_t i = 0; i < t->n; i++) {
        double z = predictor(t, i, beta), y = t->y[i];
        sum += y * softplus(-z) + (1 - y) * softplus(z);   /* -y log p - (1-y) log(1-p) */
    }
    return t->n ? sum / (double)t->n : 0;
}

/* The mean log-loss and its gradient X'(p - y) / n, for GSL. */
static void loss_fdf(const gsl_vector *b, void *params, double *f, gsl_vector *g)
{
    const TexelTable *t = params;
    const double *beta = gsl_vector_const_ptr(b, 0);
    double sum = 0, grad[TEXEL_MAX_TERMS] = { 0 };
    for (size_t i = 0; i < t->n; i++) {
        double z = predictor(t, i, beta), y = t->y[i];
        sum += y * softplus(-z) + (1 - y) * softplus(z);
        double r = 1 / (1 + exp(-z)) - y;
        for (size_t j = 0; j < t->k; j++)
            grad[j] += r * t->x[i * t->k + j];
    }
    double n = t->n ? (double)t->n : 1;
    if (f)
        *f = sum / n;
    if (g)
        for (size_t j = 0; j < t->k; j++)
            gsl_vector_set(g, j, grad[j] / n);
}

static double loss_f(const gsl_vector *b, void *params)
{
    double f;
    loss_fdf(b, params, &f, NULL);
    return f;
}

static void loss_df(const gsl_vector *b, void *params, gsl_vector *g)
{
    loss_fdf(b, params, NULL, g);
}

/* The information sum p(1-p) x x' (lower triangle) and the clusters' score outer products
 * sum g g', g the sum over a cluster's rows of (p - y) x, into h and m (k x k, zeroed). */
static void information_and_scores(const TexelTable *t, const double *beta, gsl_matrix *h,
                                   gsl_matrix *m)
{
    size_t k = t->k;
    double g[TEXEL_MAX_TERMS] = { 0 };
    for (size_t i = 0; i < t->n; i++) {
        double p = 1 / (1 + exp(-predictor(t, i, beta))), w = p * (1 - p), r = p - t->y[i];
        const double *x = t->x + i * k;
        for (size_t a = 0; a < k; a++) {
            g[a] += r * x[a];
            for (size_t b = 0; b <= a; b++)
                *gsl_matrix_ptr(h, a, b) += w * x[a] * x[b];
        }
        bool last = i + 1 == t->n || !t->cluster || t->cluster[i + 1] != t->cluster[i];
        if (!last)
            continue;
        for (size_t a = 0; a < k; a++)
            for (size_t b = 0; b < k; b++)
                *gsl_matrix_ptr(m, a, b) += g[a] * g[b];
        memset(g, 0, sizeof g);
    }
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < a; b++)
            gsl_matrix_set(h, b, a, gsl_matrix_get(h, a, b));
}

/* The covariance of beta, the sandwich H^-1 M H^-1 (H inverted by Cholesky); -1 when H is not
 * positive definite. */
static int sandwich_covariance(const TexelTable *t, const double *beta, double *cov)
{
    size_t k = t->k;
    gsl_matrix *h = gsl_matrix_calloc(k, k), *m = gsl_matrix_calloc(k, k);
    gsl_matrix *hm = gsl_matrix_calloc(k, k), *c = gsl_matrix_calloc(k, k);
    information_and_scores(t, beta, h, m);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int status = gsl_linalg_cholesky_decomp1(h);
    if (status == GSL_SUCCESS)
        status = gsl_linalg_cholesky_invert(h);
    gsl_set_error_handler(old);
    if (status == GSL_SUCCESS) {
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, h, m, 0.0, hm);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, hm, h, 0.0, c);
        for (size_t a = 0; a < k; a++)
            for (size_t b = 0; b < k; b++)
                cov[a * k + b] = gsl_matrix_get(c, a, b);
    }
    gsl_matrix_free(h);
    gsl_matrix_free(m);
    gsl_matrix_free(hm);
    gsl_matrix_free(c);
    return status == GSL_SUCCESS ? 0 : -1;
}

int texel_fit(const TexelTable *t, TexelFit *fit, Error *e)
{
    size_t k = t->k;
    memset(fit, 0, sizeof *fit);
    if (k == 0 || k > TEXEL_MAX_TERMS)
        return error_set(e, "the fit takes 1 to %d terms, not %zu", TEXEL_MAX_TERMS, k);
    if (t->n <= k)
        return error_set(e, "%zu positions are too few to fit %zu terms", t->n, k);
    fit->k = k;
    fit->beta = calloc(k, sizeof *fit->beta);
    fit->cov = calloc(k * k, sizeof *fit->cov);
    if (!fit->beta || !fit->cov) {
        texel_fit_free(fit);
        return error_set(e, "out of memory for a fit of %zu terms", k);
    }
    gsl_multimin_function_fdf fn = { .n = k, .f = loss_f, .df = loss_df, .fdf = loss_fdf,
                                     .params = (void *)t };
    gsl_vector *start = gsl_vector_calloc(k);
    gsl_multimin_fdfminimizer *m =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, k);
    gsl_multimin_fdfminimizer_set(m, &fn, start, 0.01, 0.1);
    int status = GSL_CONTINUE;
    size_t it = 0;
    /* The loss is convex, so BFGS goes to its one minimum; stop when the gradient is nil to
     * well below what any standard error could resolve. */
    while (status == GSL_CONTINUE && it < TEXEL_MAX_ITERATIONS) {
        it++;
        if (gsl_multimin_fdfminimizer_iterate(m) != GSL_SUCCESS)
            break;   /* no further progress: the minimum, to the precision of the loss */
        status = gsl_multimin_test_gradient(m->gradient, 1e-10);
    }
    for (size_t j = 0; j < k; j++)
        fit->beta[j] = gsl_vector_get(m->x, j);
    fit->iterations = it;
    gsl_multimin_fdfminimizer_free(m);
    gsl_vector_free(start);
    fit->log_loss = texel_log_loss(t, fit->beta);
    if (it == TEXEL_MAX_ITERATIONS) {
        texel_fit_free(fit);
        return error_set(e, "the fit did not converge in %d iterations", TEXEL_MAX_ITERATIONS);
    }
    if (sandwich_covariance(t, fit->beta, fit->cov) != 0) {
        texel_fit_free(fit);
        return error_set(e, "the terms are collinear or constant over the positions (the "
                            "information matrix is singular): fit fewer terms");
    }
    return 0;
}

void texel_fit_free(TexelFit *fit)
{
    free(fit->beta);
    free(fit->cov);
    fit->beta = fit->cov = NULL;
}

void texel_weights(const TexelFit *fit, double *w, double *se)
{
    size_t k = fit->k;
    double K = fit->beta[0], vk = fit->cov[0];
    w[0] = K;
    se[0] = sqrt(vk);
    for (size_t i = 1; i < k; i++) {
        /* w_i = beta_i / K: gradient (1/K for beta_i, -w_i/K for K). */
        double wi = fit->beta[i] / K;
        double var = (fit->cov[i * k + i] - 2 * wi * fit->cov[i * k] + wi * wi * vk) / (K * K);
        w[i] = wi;
        se[i] = sqrt(var > 0 ? var : 0);
    }
}
