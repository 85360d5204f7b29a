/* stats.c: proportions, exact binomial tails and tests, and multinomial differences, with
 * GSL's normal quantile, regulated gamma function and Brent root finder.
 *
 * Binomial tails are sums of binomial probabilities rather than GSL's incomplete beta
 * (gsl_cdf_binomial_P, gsl_cdf_beta_P and _Pinv): with GSL 2.7.1 those return NaN or fail to
 * converge for parameters of about a million and more (gsl_cdf_beta_P(0.5, 5e6, 5e6 + 1) is
 * NaN; gsl_cdf_beta_Pinv(0.025, 1e6, 1e6) does not return), and a job holds ten million games.
 * Each sum starts at the tail's inner end, from a probability computed by Loader's method
 * (binomial_log_pmf), and walks outwards by the ratio of successive probabilities until the
 * rest, bounded by a geometric series, cannot change the sum: about 10 standard deviations
 * of terms, some 16,000 at 10^7 games. Clopper-Pearson limits are roots of these tails. */
#include "stats.h"

#include <float.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_log.h>
#include <math.h>
#include <stdbool.h>

/* Largest n the binomial functions take: counts up to it are exact as doubles. */
#define BINOMIAL_MAX_N (1ULL << 53)

/* scipy.stats.binomtest's tolerance: outcomes within this relative distance of the observed
 * one's probability count as equally likely. */
#define BINOMIAL_TEST_RERR 1e-7

Interval wilson_interval_real(double p, double n, double confidence)
{
    Interval ci = { 0.0, 1.0 };
    if (!(n > 0))
        return ci;
    double z = gsl_cdf_ugaussian_Qinv((1.0 - confidence) / 2.0), z2 = z * z;
    double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = z / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    /* At p = 0 (p = 1) the lower (upper) end is exactly 0 (1); computed, it can round to
     * either side (1 - 1e-16 at 60 of 60), which an Elo mapping would turn into 6261. */
    ci.lo = p <= 0.0 ? 0.0 : fmax(0.0, centre - half);
    ci.hi = p >= 1.0 ? 1.0 : fmin(1.0, centre + half);
    return ci;
}

Interval wilson_interval(uint64_t k, uint64_t n, double confidence)
{
    if (n == 0)
        return (Interval){ 0.0, 1.0 };
    return wilson_interval_real((double)k / (double)n, (double)n, confidence);
}

Estimate wilson_estimate(uint64_t k, uint64_t n, double confidence)
{
    Estimate e = { n ? (double)k / (double)n : NAN, wilson_interval(k, n, confidence) };
    return e;
}

/* Loader's deviance term bd0(x, m) = x log(x / m) + m - x >= 0, without cancellation when x
 * is near m: there it is m ((1 + t) (log(1 + t) - t) + t^2) with t = (x - m) / m, from GSL's
 * log(1 + t) - t. */
static double bd0(double x, double m)
{
    double t = (x - m) / m;
    if (fabs(t) < 0.5)
        return m * ((1 + t) * gsl_sf_log_1plusx_mx(t) + t * t);
    return x * log(x / m) + m - x;
}

/* Stirling's error log(n!) - log(sqrt(2 pi n) (n / e)^n), which is log Gamma*(n): GSL's
 * regulated gamma function. */
static double stirling_error(double n)
{
    return log(gsl_sf_gammastar(n));
}

/* log P(X = k) for X ~ Binomial(n, p), k <= n, by Loader's saddle-point form (Loader 2000,
 * "Fast and accurate computation of binomial probabilities"; R's dbinom):
 * log P = stirlerr(n) - stirlerr(k) - stirlerr(n-k) - bd0(k, np) - bd0(n-k, nq)
 *         - log(2 pi k (n - k) / n) / 2.
 * lnchoose's difference of log-factorials (about 1.5e8 at 10^7 trials) loses 8 digits. */
static double binomial_log_pmf(uint64_t k, uint64_t n, double p)
{
    if (p <= 0.0)
        return k == 0 ? 0.0 : -INFINITY;
    if (p >= 1.0)
        return k == n ? 0.0 : -INFINITY;
    double nn = (double)n, kk = (double)k, q = 1.0 - p;
    if (k == 0)
        return nn * log1p(-p);
    if (k == n)
        return nn * log(p);
    double lc = stirling_error(nn) - stirling_error(kk) - stirling_error(nn - kk)
                - bd0(kk, nn * p) - bd0(nn - kk, nn * q);
    return lc - 0.5 * (log(2 * M_PI * kk) + log1p(-kk / nn));
}

/* P(X <= k), for k below the mode (k < (n + 1) p): terms shrink from k downwards. */
static double sum_down(uint64_t k, uint64_t n, double p)
{
    double term = exp(binomial_log_pmf(k, n, p)), sum = 0.0, odds = (1.0 - p) / p;
    for (uint64_t i = k; term > 0.0; i--) {
        sum += term;
        if (i == 0)
            break;
        double r = (double)i / (double)(n - i + 1) * odds;   /* P(i - 1) / P(i) */
        term *= r;
        if (r < 1.0 && term / (1.0 - r) <= sum * (DBL_EPSILON / 4)) {
            sum += term;
            break;
        }
    }
    return sum;
}

/* P(X >= k), for k above the mode (k > (n + 1) p - 1): terms shrink from k upwards. */
static double sum_up(uint64_t k, uint64_t n, double p)
{
    double term = exp(binomial_log_pmf(k, n, p)), sum = 0.0, odds = p / (1.0 - p);
    for (uint64_t i = k; term > 0.0; i++) {
        sum += term;
        if (i == n)
            break;
        double r = (double)(n - i) / (double)(i + 1) * odds; /* P(i + 1) / P(i) */
        term *= r;
        if (r < 1.0 && term / (1.0 - r) <= sum * (DBL_EPSILON / 4)) {
            sum += term;
            break;
        }
    }
    return sum;
}

double binomial_lower_tail(uint64_t k, uint64_t n, double p)
{
    if (n > BINOMIAL_MAX_N || !(p >= 0.0 && p <= 1.0))
        return NAN;
    if (k >= n || p <= 0.0)
        return 1.0;
    if (p >= 1.0)
        return 0.0;
    if ((double)k <= (double)n * p)
        return sum_down(k, n, p);
    return 1.0 - sum_up(k + 1, n, p);
}

double binomial_upper_tail(uint64_t k, uint64_t n, double p)
{
    if (n > BINOMIAL_MAX_N || !(p >= 0.0 && p <= 1.0))
        return NAN;
    if (k == 0 || p >= 1.0)
        return k <= n ? 1.0 : 0.0;
    if (k > n || p <= 0.0)
        return 0.0;
    if ((double)k > (double)n * p)
        return sum_up(k, n, p);
    return 1.0 - sum_down(k - 1, n, p);
}

/* What a Clopper-Pearson limit solves: a binomial tail minus its target. */
typedef struct TailEquation {
    uint64_t k, n;
    int upper;        /* 1: P(X >= k | p), 0: P(X <= k | p) */
    double target;
} TailEquation;

/* The tail of a TailEquation at p, minus its target. */
static double tail_minus_target(double p, void *params)
{
    const TailEquation *t = params;
    double tail = t->upper ? binomial_upper_tail(t->k, t->n, p)
                           : binomial_lower_tail(t->k, t->n, p);
    return tail - t->target;
}

/* The root of f in [lo, hi], where f changes sign, by GSL's Brent solver to 1e-14 relative;
 * NaN if the solver fails. */
static double brent_root(gsl_function *f, double lo, double hi)
{
    /* GSL's default error handler aborts on ends that do not straddle a root: check first. */
    double flo = GSL_FN_EVAL(f, lo), fhi = GSL_FN_EVAL(f, hi);
    if (flo == 0.0 || fhi == 0.0)
        return flo == 0.0 ? lo : hi;
    if (!isfinite(flo) || !isfinite(fhi) || (flo > 0) == (fhi > 0))
        return NAN;
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
        return NAN;
    double root = NAN;
    if (gsl_root_fsolver_set(s, f, lo, hi) == GSL_SUCCESS) {
        for (int iter = 0; iter < 300; iter++) {
            if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
                break;
            root = gsl_root_fsolver_root(s);
            double a = gsl_root_fsolver_x_lower(s), b = gsl_root_fsolver_x_upper(s);
            if (gsl_root_test_interval(a, b, 0.0, 1e-14) == GSL_SUCCESS)
                break;
        }
    }
    gsl_root_fsolver_free(s);
    return root;
}

/* The p in (0, 1) at which P(X >= k | p) (upper = 1) or P(X <= k | p) (upper = 0) equals
 * target, 0 < k < n for the first, k < n for the second. */
static double tail_root(uint64_t k, uint64_t n, int upper, double target)
{
    TailEquation t = { k, n, upper, target };
    gsl_function f = { tail_minus_target, &t };
    double phat = (double)k / (double)n;
    /* P(X >= k | p) rises from 0 at p = 0 to at least 1/2 at p = k / n; P(X <= k | p) falls
     * from at least 1/2 at p = k / n to 0 at p = 1. */
    return upper ? brent_root(&f, 0.0, phat) : brent_root(&f, phat, 1.0);
}

Interval clopper_pearson_interval(uint64_t k, uint64_t n, double confidence)
{
    Interval ci = { 0.0, 1.0 };
    if (n == 0 || k > n)
        return ci;
    if (n > BINOMIAL_MAX_N)
        return (Interval){ NAN, NAN };
    double a = (1.0 - confidence) / 2.0;
    /* Each limit is solved on the side where it is small, by the symmetry X -> n - X, so a
     * limit near 1 keeps the relative precision of its distance from 1. */
    bool low_half = 2 * k <= n;
    if (k > 0)
        ci.lo = low_half ? tail_root(k, n, 1, a) : 1.0 - tail_root(n - k, n, 0, a);
    if (k < n)
        ci.hi = low_half ? tail_root(k, n, 0, a) : 1.0 - tail_root(n - k, n, 1, a);
    return ci;
}

/* The first i in [lo, hi] with log P(X = i) <= bound, where log P(X = i) falls with i over
 * [lo, hi]; hi + 1 if none. */
static uint64_t first_at_most(uint64_t lo, uint64_t hi, uint64_t n, double p, double bound)
{
    uint64_t a = lo, b = hi + 1;    /* the answer lies in [a, b] */
    while (a < b) {
        uint64_t mid = a + (b - a) / 2;
        if (binomial_log_pmf(mid, n, p) <= bound)
            b = mid;
        else
            a = mid + 1;
    }
    return a;
}

/* The last i in [lo, hi] with log P(X = i) <= bound, where log P(X = i) rises with i over
 * [lo, hi]; -1 if none. */
static int64_t last_at_most(uint64_t lo, uint64_t hi, uint64_t n, double p, double bound)
{
    int64_t a = (int64_t)lo - 1, b = (int64_t)hi;   /* the answer lies in [a, b] */
    while (a < b) {
        int64_t mid = b - (b - a) / 2;
        if (binomial_log_pmf((uint64_t)mid, n, p) <= bound)
            a = mid;
        else
            b = mid - 1;
    }
    return a;
}

double binomial_test(uint64_t k, uint64_t n, double p0)
{
    if (n > BINOMIAL_MAX_N || k > n || !(p0 >= 0.0 && p0 <= 1.0))
        return NAN;
    double mean = (double)n * p0;
    if (n == 0 || (double)k == mean)
        return 1.0;
    if (p0 <= 0.0 || p0 >= 1.0)
        return 0.0;     /* k is impossible under p0 (k == mean was handled above) */
    double bound = binomial_log_pmf(k, n, p0) + log1p(BINOMIAL_TEST_RERR);
    double p;
    if ((double)k < mean) {
        /* The other tail: probabilities fall from ceil(mean) to n. */
        uint64_t from = (uint64_t)ceil(mean);
        uint64_t j = first_at_most(from, n, n, p0, bound);
        p = binomial_lower_tail(k, n, p0);
        if (j <= n)
            p += binomial_upper_tail(j, n, p0);
    } else {
        /* The other tail: probabilities rise from 0 to floor(mean). */
        int64_t j = last_at_most(0, (uint64_t)floor(mean), n, p0, bound);
        p = binomial_upper_tail(k, n, p0);
        if (j >= 0)
            p += binomial_lower_tail((uint64_t)j, n, p0);
    }
    return fmin(1.0, p);
}

double mcnemar_exact_test(uint64_t b, uint64_t c)
{
    return binomial_test(b, b + c, 0.5);
}

/* Tango's score equation at a trial difference d for discordant counts x1, x2 of n. */
typedef struct TangoEquation {
    double x1, x2, n;
    double zsign;       /* -z for the lower limit, +z for the upper */
} TangoEquation;

/* The null variance of (x1 - x2) / sqrt(n) at difference d: 2 q + d (1 - d), with q the
 * maximum-likelihood p2 given p1 - p2 = d, the positive root of 2n q^2 + B q + C = 0,
 * B = -(x1 + x2) + (2n - x1 + x2) d, C = -x2 d (1 - d) (Tango 1998, eq. 4). */
static double tango_variance(const TangoEquation *t, double d)
{
    double a = 2 * t->n, b = -(t->x1 + t->x2) + (2 * t->n - t->x1 + t->x2) * d;
    double c = -t->x2 * d * (1 - d);
    double q = (sqrt(fmax(0.0, b * b - 4 * a * c)) - b) / (2 * a);
    return fmax(0.0, 2 * q + d * (1 - d));
}

/* (x1 - x2)/n - d + zsign sqrt(V(d)/n): zero where Tango's score statistic is -+z. */
static double tango_score_gap(double d, void *params)
{
    const TangoEquation *t = params;
    return (t->x1 - t->x2) / t->n - d + t->zsign * sqrt(tango_variance(t, d) / t->n);
}

Estimate multinomial_difference(uint64_t x1, uint64_t x2, uint64_t n, double confidence)
{
    Estimate e = { NAN, { -1.0, 1.0 } };
    if (n == 0 || x1 + x2 > n)
        return e;
    double z = gsl_cdf_ugaussian_Qinv((1.0 - confidence) / 2.0), z2 = z * z, nn = (double)n;
    e.value = ((double)x1 - (double)x2) / nn;
    /* Where the variance vanishes at the estimate (no discordant pair, or all in one cell)
     * the score equation has closed-form roots. */
    if (x1 + x2 == 0) {
        e.ci = (Interval){ -z2 / (nn + z2), z2 / (nn + z2) };
        return e;
    }
    if (x1 == n || x2 == n) {
        double inner = (nn - z2) / (nn + z2);
        e.ci = x1 == n ? (Interval){ inner, 1.0 } : (Interval){ -1.0, -inner };
        return e;
    }
    /* Otherwise the gap is strictly signed at the estimate and at -1 and +1. */
    TangoEquation lo = { (double)x1, (double)x2, nn, -z }, hi = { (double)x1, (double)x2, nn, z };
    gsl_function flo = { tango_score_gap, &lo }, fhi = { tango_score_gap, &hi };
    e.ci.lo = brent_root(&flo, -1.0, e.value);
    e.ci.hi = brent_root(&fhi, e.value, 1.0);
    return e;
}

double all_equal_share_bound(uint64_t n, double confidence)
{
    if (n == 0)
        return 1.0;
    /* 1 - (alpha / 2)^(1 / n), without cancellation when it is small (n large). */
    return -expm1(log((1.0 - confidence) / 2.0) / (double)n);
}

Interval all_equal_mean_interval(double v, uint64_t n, double lo, double hi,
                                 double confidence)
{
    double p = all_equal_share_bound(n, confidence);
    return (Interval){ v - p * (v - lo), v + p * (hi - v) };
}

Estimate mover_average(Estimate a, Estimate b)
{
    Estimate e;
    e.value = (a.value + b.value) / 2;
    e.ci.lo = e.value - hypot(a.value - a.ci.lo, b.value - b.ci.lo) / 2;
    e.ci.hi = e.value + hypot(a.ci.hi - a.value, b.ci.hi - b.value) / 2;
    return e;
}
