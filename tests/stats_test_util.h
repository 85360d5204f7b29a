/* stats_test_util.h: what the statistics tests share: comparing a computed value with a
 * reference value within a tolerance. Static inline, so each test takes what it uses. */
#ifndef ANYWOLI_STATS_TEST_UTIL_H
#define ANYWOLI_STATS_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Fail unless |got - want| <= atol + rtol |want| (infinities must match exactly). */
static inline void check_close(const char *what, size_t row, double got, double want,
                               double rtol, double atol)
{
    if (got == want || (isnan(got) && isnan(want)))   /* NaN expected: "no figure" */
        return;
    if (isinf(want))   /* the tolerance below would be infinite too, passing any value */
        fail_msg("%s, row %zu: got %.17g, expected %.17g", what, row, got, want);
    if (!(fabs(got - want) <= atol + rtol * fabs(want)))
        fail_msg("%s, row %zu: got %.17g, expected %.17g (rtol %g, atol %g)", what, row, got,
                 want, rtol, atol);
}

#endif
