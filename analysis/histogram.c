/* histogram.c: moments and quantiles of counts by value.
 *
 * GSL's weighted statistics (gsl_stats_wvariance) treat weights as reliability weights, whose
 * variance divisor differs from the n - 1 that frequency counts need, and its quantile
 * function wants the sorted observations themselves; so both are computed here from the bins:
 * the mean and the sum of squared deviations in two passes (no cancellation), and each
 * quantile from the order statistics it interpolates, found by walking the cumulative counts. */
#include "histogram.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

/* The observations in a histogram. */
static uint64_t hist_total(const uint64_t *counts, size_t len)
{
    uint64_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += counts[i];
    return n;
}

/* The value of order statistic r (0-based) of a histogram with more than r observations. */
static double order_statistic(const uint64_t *counts, size_t len, int64_t origin, uint64_t r)
{
    uint64_t below = 0;
    for (size_t i = 0; i < len; i++) {
        below += counts[i];
        if (r < below)
            return (double)(origin + (int64_t)i);
    }
    return NAN;
}

double hist_quantile(const uint64_t *counts, size_t len, int64_t origin, double q)
{
    uint64_t n = hist_total(counts, len);
    if (n == 0 || !(q >= 0.0 && q <= 1.0))
        return NAN;
    double h = (double)(n - 1) * q, lower = floor(h);
    uint64_t r = (uint64_t)lower;
    double xr = order_statistic(counts, len, origin, r);
    if (r + 1 >= n || h == lower)
        return xr;
    double xr1 = order_statistic(counts, len, origin, r + 1);
    return xr + (h - lower) * (xr1 - xr);
}

HistSummary hist_summary(const uint64_t *counts, size_t len, int64_t origin)
{
    HistSummary s = { 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
    s.n = hist_total(counts, len);
    if (s.n == 0)
        return s;
    /* Step 1. The mean and the extremes. */
    double sum = 0;
    size_t first = len, last = 0;
    for (size_t i = 0; i < len; i++) {
        if (!counts[i])
            continue;
        sum += (double)counts[i] * (double)(origin + (int64_t)i);
        if (first == len)
            first = i;
        last = i;
    }
    s.mean = sum / (double)s.n;
    s.min = (double)(origin + (int64_t)first);
    s.max = (double)(origin + (int64_t)last);
    /* Step 2. The sum of squared deviations from the mean. */
    if (s.n >= 2) {
        double ss = 0;
        for (size_t i = first; i <= last; i++) {
            double d = (double)(origin + (int64_t)i) - s.mean;
            ss += (double)counts[i] * d * d;
        }
        s.sd = sqrt(ss / (double)(s.n - 1));
    }
    /* Step 3. The quantiles. */
    s.p5 = hist_quantile(counts, len, origin, 0.05);
    s.p25 = hist_quantile(counts, len, origin, 0.25);
    s.median = hist_quantile(counts, len, origin, 0.5);
    s.p75 = hist_quantile(counts, len, origin, 0.75);
    s.p95 = hist_quantile(counts, len, origin, 0.95);
    s.p99 = hist_quantile(counts, len, origin, 0.99);
    return s;
}

Estimate hist_mean_interval(const HistSummary *s, double confidence)
{
    Estimate e = { s->mean, { NAN, NAN } };
    if (s->n < 2)
        return e;
    double t = gsl_cdf_tdist_Qinv((1.0 - confidence) / 2.0, (double)(s->n - 1));
    double half = t * s->sd / sqrt((double)s->n);
    e.ci = (Interval){ s->mean - half, s->mean + half };
    return e;
}
