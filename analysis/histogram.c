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
#include <stdlib.h>

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

void km_survival(const uint64_t *counts, size_t len, uint64_t censored, double *survival)
{
    uint64_t at_risk = hist_total(counts, len);
    double s = at_risk ? 1.0 : NAN;
    for (size_t t = 0; t < len; t++) {
        uint64_t ended = counts[t] - (t + 1 == len ? censored : 0);
        if (at_risk > 0)
            s *= 1.0 - (double)ended / (double)at_risk;
        survival[t] = s;
        at_risk -= counts[t];
    }
}

/* The Kaplan-Meier q-quantile from the survival: the smallest t with S(t) <= 1 - q, with a
 * little slack for the rounding of the product; +infinity when not reached. */
static double km_quantile(const double *survival, size_t len, double q)
{
    for (size_t t = 0; t < len; t++)
        if (survival[t] <= 1.0 - q + 1e-12)
            return (double)t;
    return INFINITY;
}

HistSummary km_summary(const uint64_t *counts, size_t len, uint64_t censored)
{
    HistSummary s = { 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
    s.n = hist_total(counts, len);
    double *surv = s.n ? malloc(len * sizeof *surv) : NULL;
    if (!surv)
        return s;
    km_survival(counts, len, censored, surv);
    /* Step 1. The restricted mean and sd: min(length, tau) takes the value t < tau with
     * probability S(t-1) - S(t), and tau with probability S(tau - 1). */
    double tau = (double)(len - 1), mean = 0, ss = 0, prev = 1.0;
    for (size_t t = 0; t + 1 < len; t++)
        mean += surv[t];
    for (size_t t = 0; t < len; t++) {
        double mass = t + 1 < len ? prev - surv[t] : prev, d = (double)t - mean;
        ss += mass * d * d;
        prev = surv[t];
    }
    s.mean = mean;
    if (s.n >= 2)
        s.sd = sqrt(ss * (double)s.n / (double)(s.n - 1));
    /* Step 2. The extremes present, and the quantiles. */
    size_t first = 0;
    while (first < len && !counts[first])
        first++;
    s.min = (double)first;
    s.max = tau;
    s.p5 = km_quantile(surv, len, 0.05);
    s.p25 = km_quantile(surv, len, 0.25);
    s.median = km_quantile(surv, len, 0.5);
    s.p75 = km_quantile(surv, len, 0.75);
    s.p95 = km_quantile(surv, len, 0.95);
    s.p99 = km_quantile(surv, len, 0.99);
    free(surv);
    return s;
}
