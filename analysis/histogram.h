/* histogram.h: summaries of integer data stored as counts by value (game lengths in plies,
 * score margins in seeds), in one or two passes over the bins however many games they hold.
 *
 * A histogram is counts[0 .. len-1], counts[i] being the number of observations of the value
 * origin + i (origin 0 for lengths; negative for margins). Results are in the data's unit. */
#ifndef ANYWOLI_HISTOGRAM_H
#define ANYWOLI_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* The summary of a histogram. With n = 0 every field but n is NaN; sd needs n >= 2. */
typedef struct HistSummary {
    uint64_t n;                      /* observations */
    double mean, sd;                 /* sd with the n - 1 divisor (numpy's ddof=1) */
    double min, max;
    double p5, p25, median, p75, p95, p99;
} HistSummary;

/* The q-quantile (0 <= q <= 1) by Hyndman and Fan's definition 7, the default of numpy's
 * percentile, R's quantile and GSL's gsl_stats_quantile_from_sorted_data: with the
 * observations sorted x[0] <= ... <= x[n-1] and h = (n - 1) q, x[floor h] + (h - floor h)
 * (x[floor h + 1] - x[floor h]); so the median of an even count is the mean of the middle two.
 * NaN when the histogram is empty. */
double hist_quantile(const uint64_t *counts, size_t len, int64_t origin, double q);

/* The mean, sd, extremes and the quantiles 5, 25, 50, 75, 95, 99% of a histogram. */
HistSummary hist_summary(const uint64_t *counts, size_t len, int64_t origin);

/* The mean with its t interval, mean +- t(n-1) sd / sqrt(n), at the given confidence;
 * the interval is NaN when n < 2. */
Estimate hist_mean_interval(const HistSummary *s, double confidence);

#endif
