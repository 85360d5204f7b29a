/* hypothesis.c: z, chi-square and Mann-Whitney tests and Holm's correction, with GSL's normal
 * and chi-square distributions and its index sort. */
#include "hypothesis.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>

TestResult two_proportion_z_test(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2)
{
    TestResult r = { 0.0, 0.0, NAN };
    if (n1 == 0 || n2 == 0 || k1 > n1 || k2 > n2)
        return r;
    double a = (double)n1, b = (double)n2;
    double pooled = ((double)k1 + (double)k2) / (a + b);
    double se = sqrt(pooled * (1 - pooled) * (1 / a + 1 / b));
    if (!(se > 0)) {
        r.p_value = 1.0;
        return r;
    }
    r.statistic = ((double)k1 / a - (double)k2 / b) / se;
    r.p_value = fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(r.statistic)));
    return r;
}

/* The sum of a table's row (stride 1) or column (stride cols). */
static double line_total(const uint64_t *first, size_t len, size_t stride)
{
    double t = 0;
    for (size_t i = 0; i < len; i++)
        t += (double)first[i * stride];
    return t;
}

TestResult chi_square_independence(const uint64_t *table, size_t rows, size_t cols)
{
    TestResult r = { 0.0, 0.0, 1.0 };
    size_t used_rows = 0, used_cols = 0;
    double total = 0;
    for (size_t i = 0; i < rows; i++) {
        double t = line_total(table + i * cols, cols, 1);
        used_rows += t > 0;
        total += t;
    }
    for (size_t j = 0; j < cols; j++)
        used_cols += line_total(table + j, rows, cols) > 0;
    if (used_rows < 2 || used_cols < 2)
        return r;
    /* Step 1. Pearson's statistic over the cells of non-empty rows and columns. */
    double x2 = 0;
    for (size_t i = 0; i < rows; i++) {
        double ri = line_total(table + i * cols, cols, 1);
        if (ri == 0)
            continue;
        for (size_t j = 0; j < cols; j++) {
            double cj = line_total(table + j, rows, cols);
            if (cj == 0)
                continue;
            double expected = ri * cj / total, d = (double)table[i * cols + j] - expected;
            x2 += d * d / expected;
        }
    }
    /* Step 2. Its upper tail on (r' - 1)(c' - 1) degrees of freedom. */
    r.statistic = x2;
    r.df = (double)((used_rows - 1) * (used_cols - 1));
    r.p_value = gsl_cdf_chisq_Q(x2, r.df);
    return r;
}

/* Count v of a histogram of len bins, 0 beyond its end. */
static double bin(const uint64_t *h, size_t len, size_t v)
{
    return v < len ? (double)h[v] : 0.0;
}

MannWhitney mann_whitney_hist(const uint64_t *x, size_t x_len, const uint64_t *y, size_t y_len)
{
    MannWhitney m = { 0.0, 0.0, NAN, NAN };
    size_t len = x_len > y_len ? x_len : y_len;
    double n1 = 0, n2 = 0, ties = 0;
    /* Step 1. U = sum over x of the y below it plus half the y equal to it, in one pass;
     * the tie term sum (t^3 - t) over the values' total counts t. */
    for (size_t v = 0; v < len; v++) {
        double cx = bin(x, x_len, v), cy = bin(y, y_len, v), t = cx + cy;
        m.u += cx * (n2 + cy / 2);
        n1 += cx;
        n2 += cy;
        ties += (t - 1) * t * (t + 1);
    }
    if (n1 == 0 || n2 == 0) {
        m.u = 0.0;
        return m;
    }
    m.effect = m.u / (n1 * n2);
    /* Step 2. The normal approximation with the tie-corrected variance
     * n1 n2 / 12 ((N + 1) - sum (t^3 - t) / (N (N - 1))). */
    double n = n1 + n2, mu = n1 * n2 / 2;
    double var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
    if (!(var > 0)) {
        m.p_value = 1.0;
        return m;
    }
    double sigma = sqrt(var), d = m.u - mu, corrected = (fabs(d) - 0.5) / sigma;
    m.z = corrected > 0 ? copysign(corrected, d) : 0.0;
    m.p_value = fmin(1.0, 2 * gsl_cdf_ugaussian_Q(corrected));
    return m;
}

/* The games of a censored histogram that ended at v (the censored ones of the last bin left
 * out). */
static double ended(const uint64_t *c, size_t len, uint64_t censored, size_t v)
{
    return bin(c, len, v) - (v + 1 == len ? (double)censored : 0.0);
}

/* The total of a histogram. */
static double total(const uint64_t *c, size_t len)
{
    double n = 0;
    for (size_t v = 0; v < len; v++)
        n += (double)c[v];
    return n;
}

LogRank log_rank_hist(const uint64_t *x, size_t x_len, uint64_t x_censored, const uint64_t *y,
                      size_t y_len, uint64_t y_censored)
{
    LogRank r = { 0.0, 0.0, 0.0, { 0.0, 1.0, NAN } };
    double n1 = total(x, x_len), n2 = total(y, y_len);
    if (n1 == 0 || n2 == 0)
        return r;
    size_t len = x_len > y_len ? x_len : y_len;
    for (size_t v = 0; v < len && n1 + n2 > 0; v++) {
        double d1 = ended(x, x_len, x_censored, v), d = d1 + ended(y, y_len, y_censored, v);
        double n = n1 + n2;
        r.observed += d1;
        r.expected += d * n1 / n;
        if (n > 1)
            r.variance += d * (n1 / n) * (n2 / n) * (n - d) / (n - 1);
        n1 -= bin(x, x_len, v);
        n2 -= bin(y, y_len, v);
    }
    if (!(r.variance > 0)) {
        r.chi.p_value = 1.0;
        return r;
    }
    double diff = r.observed - r.expected;
    r.chi.statistic = diff * diff / r.variance;
    r.chi.p_value = gsl_cdf_chisq_Q(r.chi.statistic, 1.0);
    return r;
}

int holm_adjust(const double *p, size_t m, double *adjusted)
{
    if (m == 0)
        return 0;
    size_t *order = malloc(m * sizeof *order);
    double *sorted = malloc(m * sizeof *sorted);
    if (!order || !sorted) {
        free(order);
        free(sorted);
        return -1;
    }
    gsl_sort_index(order, p, 1, m);
    double running = 0;
    for (size_t j = 0; j < m; j++) {
        double a = fmin(1.0, (double)(m - j) * p[order[j]]);
        running = fmax(running, a);
        sorted[j] = running;
    }
    for (size_t j = 0; j < m; j++)
        adjusted[order[j]] = sorted[j];
    free(order);
    free(sorted);
    return 0;
}
