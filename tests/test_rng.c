/* test_rng.c: the counter-based streams (variants/rng.h) and the Wilson interval
 * (analysis/stats.h). */
#include "test_util.h"

#include <math.h>

#include "rng.h"
#include "stats.h"

/* rng_below(n) is always below n, for small, odd and huge n. */
static void test_below_range(void **state)
{
    (void)state;
    static const uint32_t ns[] = { 1, 2, 3, 7, 10, 12, 1000, 65537, 0x80000001u, 0xfffffffeu,
                                   0xffffffffu };
    Rng r;
    rng_seed(&r, 1, 2, 3);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint32_t max = 0;
        for (int k = 0; k < 20000; k++) {
            uint32_t x = rng_below(&r, ns[i]);
            if (x >= ns[i])
                fail_msg("rng_below(%u) gave %u", ns[i], x);
            if (x > max)
                max = x;
        }
        /* Huge ranges reach their upper half. */
        if (ns[i] > 1)
            assert_true(max >= ns[i] / 2);
    }
    for (int k = 0; k < 100000; k++) {
        double u = rng_unit(&r);
        assert_true(u >= 0.0 && u < 1.0);
    }
}

/* Chi-square of `draws` values of rng_below(n) against the uniform law. */
static double chi_square(Rng *r, uint32_t n, long draws)
{
    long *count = calloc(n, sizeof *count);
    assert_non_null(count);
    for (long k = 0; k < draws; k++)
        count[rng_below(r, n)]++;
    double expect = (double)draws / n, chi = 0;
    for (uint32_t i = 0; i < n; i++)
        chi += (count[i] - expect) * (count[i] - expect) / expect;
    free(count);
    return chi;
}

/* Roughly uniform: chi-square within mean + 8 sd (mean n - 1, sd sqrt(2(n - 1))). The bounds
 * are wide, so they fail only for a real bias (a missing value, a skewed reduction). */
static void test_below_uniform(void **state)
{
    (void)state;
    static const uint32_t ns[] = { 2, 6, 10, 12, 97, 1000 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        Rng r;
        rng_seed(&r, 2026, 0, i);
        double dof = ns[i] - 1.0;
        double chi = chi_square(&r, ns[i], 200000);
        if (chi > dof + 8 * sqrt(2 * dof) + 10)
            fail_msg("rng_below(%u): chi-square %.1f for %g degrees of freedom", ns[i], chi,
                     dof);
    }
    /* The low bit of a stream and of its successive 64-bit words is balanced. */
    Rng r;
    rng_seed(&r, 5, 5, 5);
    long ones = 0;
    for (int k = 0; k < 100000; k++)
        ones += (long)(rng_next(&r) & 1);
    assert_in_range(ones, 48500, 51500);
}

/* The same (seed, job, game) gives the same stream; another game, job or seed another one. */
static void test_streams(void **state)
{
    (void)state;
    Rng a, b, c, d, e;
    rng_seed(&a, 42, 1, 7);
    rng_seed(&b, 42, 1, 7);
    rng_seed(&c, 42, 1, 8);
    rng_seed(&d, 42, 2, 7);
    rng_seed(&e, 43, 1, 7);
    int same_c = 0, same_d = 0, same_e = 0;
    for (int k = 0; k < 1000; k++) {
        uint64_t x = rng_next(&a);
        assert_int_equal(x, rng_next(&b));
        same_c += x == rng_next(&c);
        same_d += x == rng_next(&d);
        same_e += x == rng_next(&e);
    }
    assert_int_equal(same_c, 0);
    assert_int_equal(same_d, 0);
    assert_int_equal(same_e, 0);
    assert_int_equal(a.ctr, 1000);

    /* Neighbouring game indices give unrelated first words (about half the bits differ). */
    long bits = 0;
    for (uint64_t g = 0; g < 1000; g++) {
        Rng x, y;
        rng_seed(&x, 1, 0, g);
        rng_seed(&y, 1, 0, g + 1);
        bits += __builtin_popcountll(rng_next(&x) ^ rng_next(&y));
    }
    assert_in_range(bits, 1000 * 28, 1000 * 36);

    /* Sub-streams depend on the key, not the counter, and differ by identifier. */
    Rng g, drawn;
    rng_seed(&g, 9, 9, 9);
    drawn = g;
    for (int k = 0; k < 17; k++)
        rng_next(&drawn);
    Rng s1 = rng_substream(&g, RNG_SUB_LOTTERY), s1b = rng_substream(&drawn, RNG_SUB_LOTTERY);
    Rng s2 = rng_substream(&g, RNG_SUB_AGENT_SOUTH), s3 = rng_substream(&g, RNG_SUB_AGENT_NORTH);
    assert_int_equal(s1.key, s1b.key);
    assert_int_equal(s1.ctr, 0);
    assert_true(s1.key != s2.key && s2.key != s3.key && s1.key != s3.key && s1.key != g.key);
    uint64_t w1 = rng_next(&s1), w2 = rng_next(&s2), w3 = rng_next(&s3);
    assert_true(w1 != w2 && w2 != w3 && w1 != w3);
    assert_int_equal(w1, rng_next(&s1b));
}

/* Wilson intervals against values computed by hand (Python: NormalDist().inv_cdf and the
 * formula (p + z^2/2n)/(1 + z^2/n) +- z/(1 + z^2/n) sqrt(p(1-p)/n + z^2/4n^2)). */
static void test_wilson(void **state)
{
    (void)state;
    static const struct { uint64_t k, n; double conf, lo, hi; } cases[] = {
        { 5, 10, 0.95, 0.236593090512564, 0.763406909487436 },
        { 0, 10, 0.95, 0.0, 0.277532799862889 },
        { 10, 10, 0.95, 0.722467200137111, 1.0 },
        { 81, 263, 0.95, 0.255288519878274, 0.366209576982800 },
        { 1, 1000, 0.99, 0.000117416353618, 0.008460566219982 },
        { 500, 1000, 0.90, 0.474027691478420, 0.525972308521580 },
        { 3, 7, 0.95, 0.158219855251470, 0.749541635472343 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Interval ci = wilson_interval(cases[i].k, cases[i].n, cases[i].conf);
        if (fabs(ci.lo - cases[i].lo) > 1e-9 || fabs(ci.hi - cases[i].hi) > 1e-9)
            fail_msg("wilson(%llu, %llu, %g) = [%.12f, %.12f], expected [%.12f, %.12f]",
                     (unsigned long long)cases[i].k, (unsigned long long)cases[i].n,
                     cases[i].conf, ci.lo, ci.hi, cases[i].lo, cases[i].hi);
    }
    /* No trials: the whole of [0, 1]. */
    Interval none = wilson_interval(0, 0, 0.95);
    assert_true(none.lo == 0.0 && none.hi == 1.0);
    /* Wider at higher confidence, always containing k/n. */
    Interval a = wilson_interval(30, 100, 0.90), b = wilson_interval(30, 100, 0.99);
    assert_true(b.lo < a.lo && a.hi < b.hi && a.lo < 0.3 && 0.3 < a.hi);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_below_range),
        cmocka_unit_test(test_below_uniform),
        cmocka_unit_test(test_streams),
        cmocka_unit_test(test_wilson),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
