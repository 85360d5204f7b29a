/* stats.h: proportions and their intervals: Wilson and Clopper-Pearson intervals, exact
 * binomial tails and tests, McNemar's exact test, and the difference of two cells of one
 * multinomial sample (P(South wins) - P(North wins) over the same games).
 *
 * Units: every probability, proportion and interval end is a plain probability in [0, 1]
 * (a difference of two lies in [-1, 1]); counts are numbers of games. `confidence` is the
 * two-sided coverage asked for, 0.95 for the 95% intervals that every published rate carries.
 * Binomial functions take n up to 2^53 (counts exact as doubles) and return NaN above. */
#ifndef ANYWOLI_STATS_H
#define ANYWOLI_STATS_H

#include <stdint.h>

/* A two-sided confidence interval. */
typedef struct Interval {
    double lo, hi;
} Interval;

/* A point estimate with its two-sided confidence interval. */
typedef struct Estimate {
    double value;
    Interval ci;
} Estimate;

/* The Wilson score interval for k successes in n trials at the given confidence (0.95);
 * [0, 1] when n is 0. */
Interval wilson_interval(uint64_t k, uint64_t n, double confidence);

/* The same for a proportion p out of n trials that need not be whole numbers (an effective
 * number of games, elo.h's score_interval); [0, 1] when n is not positive. */
Interval wilson_interval_real(double p, double n, double confidence);

/* The proportion k / n with its Wilson interval; value NaN and interval [0, 1] when n is 0. */
Estimate wilson_estimate(uint64_t k, uint64_t n, double confidence);

/* The Clopper-Pearson "exact" interval: the p with P(X >= k | p) = (1 - confidence) / 2 and
 * P(X <= k | p) = (1 - confidence) / 2 (0 when k = 0, 1 when k = n); [0, 1] when n is 0. */
Interval clopper_pearson_interval(uint64_t k, uint64_t n, double confidence);

/* P(X <= k) for X ~ Binomial(n, p). */
double binomial_lower_tail(uint64_t k, uint64_t n, double p);

/* P(X >= k) for X ~ Binomial(n, p). */
double binomial_upper_tail(uint64_t k, uint64_t n, double p);

/* The exact two-sided binomial test of "success probability = p0" for k successes in n
 * trials: the total probability of the outcomes no more likely than k, as scipy.stats.binomtest
 * (outcomes within a relative 1e-7 of k's probability count as equally likely); 1 when n is 0. */
double binomial_test(uint64_t k, uint64_t n, double p0);

/* McNemar's exact test for paired binary outcomes with discordant pairs b (yes/no) and
 * c (no/yes): the two-sided exact binomial test of b successes in b + c trials at p0 = 1/2;
 * 1 when b + c = 0. */
double mcnemar_exact_test(uint64_t b, uint64_t c);

/* p1 - p2 for two cells, with counts x1 and x2, of one multinomial sample of n (x1 + x2 <= n),
 * such as P(South wins) - P(North wins) over the same finished games, and its score interval:
 * Tango's asymptotic score interval for a difference of paired proportions (Tango 1998, Stat
 * Med 17:891; recommended by Fagerland, Lydersen and Laake 2014, Stat Med 33:2850), which is
 * this problem with the discordant cells x1, x2. Value NaN and interval [-1, 1] when n is 0
 * (or x1 + x2 > n). */
Estimate multinomial_difference(uint64_t x1, uint64_t x2, uint64_t n, double confidence);

/* The Clopper-Pearson upper limit at 0 successes of n: 1 - ((1 - confidence) / 2)^(1 / n),
 * the share of the population that could differ from a sample of n units that were all
 * alike (at 95% and n = 30: 0.1157); 1 when n is 0. */
double all_equal_share_bound(uint64_t n, double confidence);

/* The interval of a mean over n units that all had the same value v, where a unit's value
 * lies in [lo, hi]: a t (or CR1) interval there has no width, yet the sample does not make
 * the mean certain. A share of units below p = all_equal_share_bound(n, confidence) may
 * differ from v, each by at most v - lo downwards or hi - v upwards, so the mean lies in
 * [v - p (v - lo), v + p (hi - v)]: were a larger share to differ, n alike units would have
 * had a chance below (1 - confidence) / 2 (Clopper-Pearson's exact bound, so conservative).
 * Also for n = 1, where there is no variance at all. */
Interval all_equal_mean_interval(double v, uint64_t n, double lo, double hi,
                                 double confidence);

/* The average (a + b) / 2 of two independent estimates with the MOVER interval built from
 * theirs (method of variance estimates recovery: Zou and Donner 2008, Stat Med 27:1693;
 * Newcombe 1998): for instance the first-player advantage with each agent as South. */
Estimate mover_average(Estimate a, Estimate b);

#endif
