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

/* Game lengths with games stopped at the cap (max_plies) still going are right-censored:
 * their length is only known to be at least the cap. Such a sample is a histogram of every
 * game by its length, counts[0 .. len-1], of which the last `censored` games of the last bin
 * (len - 1, the cap) are censored and the rest ended there. */

/* The Kaplan-Meier (product-limit) estimate of the survival S(t) = P(length > t) for
 * t = 0 .. len-1, into survival[0 .. len-1]: S(t) = prod over u <= t of (1 - d_u / n_u), d_u
 * the games that ended at u and n_u those still going before u (a censored game counts as
 * still going at its own length, the usual convention for ties). All NaN when empty. */
void km_survival(const uint64_t *counts, size_t len, uint64_t censored, double *survival);

/* The summary of a censored sample from its Kaplan-Meier estimate, restricted to the cap tau
 * = len - 1: n the games; mean and sd those of min(length, tau), the mean being the
 * restricted mean sum over t < tau of S(t); min and max the shortest and longest values
 * present; each q-quantile the smallest t with S(t) <= 1 - q (the left end where S is flat
 * at exactly 1 - q; uncensored jobs' quantiles, hist_summary's, interpolate instead),
 * +infinity where the estimate never falls that far (more than 1 - q of the games were still
 * going at the cap). With censored = 0 use hist_summary. */
HistSummary km_summary(const uint64_t *counts, size_t len, uint64_t censored);

/* The mean with its t interval, mean +- t(n-1) sd / sqrt(n), at the given confidence;
 * the interval is NaN when n < 2. */
Estimate hist_mean_interval(const HistSummary *s, double confidence);

#endif
