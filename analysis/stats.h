/* stats.h: the interval estimates every published rate carries. */
#ifndef ANYWOLI_STATS_H
#define ANYWOLI_STATS_H

#include <stdint.h>

/* A two-sided confidence interval. */
typedef struct Interval {
    double lo, hi;
} Interval;

/* The Wilson score interval for k successes in n trials at the given confidence (0.95);
 * [0, 1] when n is 0. */
Interval wilson_interval(uint64_t k, uint64_t n, double confidence);

#endif
