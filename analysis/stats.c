/* stats.c: interval estimates, with GSL's normal quantile. */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

Interval wilson_interval(uint64_t k, uint64_t n, double confidence)
{
    Interval ci = { 0.0, 1.0 };
    if (n == 0)
        return ci;
    double z = gsl_cdf_ugaussian_Qinv((1.0 - confidence) / 2.0);
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double half = z / (1 + z2 / nn) * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
    ci.lo = fmax(0.0, centre - half);
    ci.hi = fmin(1.0, centre + half);
    return ci;
}
