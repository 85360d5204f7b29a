/* test_stats.c: proportions, binomial and McNemar tests, multinomial differences, z,
 * chi-square and Mann-Whitney tests, Holm, histogram summaries and game metrics (analysis/).
 *
 * Every table marked "ref:NAME" holds inputs and the expected outputs computed independently
 * with scipy and numpy by tests/stats_reference.py, which CTest runs to check that the
 * numbers here are the ones scipy gives (`stats_reference.py --write tests` regenerates them). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "stats_test_util.h"

#include <math.h>
#include <stdio.h>

#include "histogram.h"
#include "hypothesis.h"
#include "metrics.h"
#include "stats.h"


/* ref:wilson (k, n, confidence, lo, hi): scipy binomtest(k, n).proportion_ci(method="wilson") */
static const struct { uint64_t k, n; double conf, lo, hi; } wilson_cases[] = {
    { 5, 10, 0.95, 0.236593090512564, 0.7634069094874361 },
    { 0, 10, 0.95, 0.0, 0.27753279986288926 },
    { 10, 10, 0.95, 0.7224672001371109, 1.0 },
    { 81, 263, 0.95, 0.2552885198782742, 0.36620957698280004 },
    { 1, 1000, 0.99, 0.00011741635361832165, 0.008460566219981695 },
    { 500, 1000, 0.9, 0.4740276914784201, 0.5259723085215798 },
    { 3, 7, 0.95, 0.1582198552514697, 0.7495416354723428 },
    { 4990000, 10000000, 0.95, 0.49869010354731164, 0.4993098972209798 },
    { 123, 10000000, 0.95, 1.0309907610072313e-05, 1.4674228674444034e-05 },
};

/* Wilson intervals, including ten-million-game samples. */
static void test_wilson(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(wilson_cases); i++) {
        Interval ci = wilson_interval(wilson_cases[i].k, wilson_cases[i].n, wilson_cases[i].conf);
        check_close("wilson lo", i, ci.lo, wilson_cases[i].lo, 1e-10, 1e-14);
        check_close("wilson hi", i, ci.hi, wilson_cases[i].hi, 1e-10, 1e-14);
    }
    /* All or none: the end at 1 (0) is exact, not 1 - 1e-16 as the formula rounds it. */
    for (uint64_t n = 1; n <= 200; n++) {
        assert_true(wilson_interval(n, n, 0.95).hi == 1.0);
        assert_true(wilson_interval(0, n, 0.95).lo == 0.0);
    }
    Estimate e = wilson_estimate(3, 12, 0.95);
    assert_true(e.value == 0.25 && e.ci.lo < 0.25 && 0.25 < e.ci.hi);
    e = wilson_estimate(0, 0, 0.95);
    assert_true(isnan(e.value) && e.ci.lo == 0.0 && e.ci.hi == 1.0);
}

/* ref:clopper_pearson (k, n, confidence, lo, hi): scipy beta.ppf(a, k, n - k + 1) and
 * beta.isf(a, k + 1, n - k), a = (1 - confidence) / 2, checked there against binom's tails */
static const struct { uint64_t k, n; double conf, lo, hi; } cp_cases[] = {
    { 5, 10, 0.95, 0.18708602844739855, 0.8129139715526015 },
    { 0, 10, 0.95, 0.0, 0.3084971078187608 },
    { 10, 10, 0.95, 0.6915028921812392, 1.0 },
    { 1, 1000, 0.99, 5.01252926077751e-06, 0.007406286938352937 },
    { 81, 263, 0.95, 0.2527367455852713, 0.36762192260135146 },
    { 3, 7, 0.9, 0.12875639280424267, 0.7746784159675523 },
    { 0, 1, 0.95, 0.0, 0.975 },
    { 1, 1, 0.95, 0.025000000000000022, 1.0 },
    { 5000000, 10000000, 0.95, 0.4996900525213711, 0.5003099474786289 },
    { 123, 10000000, 0.95, 1.0222512656598232e-05, 1.4675624549240012e-05 },
    { 9999990, 10000000, 0.95, 0.9999981609651672, 0.9999995204610296 },
    { 250000, 1000000, 0.99, 0.2488853248581658, 0.251117054921662 },
};

/* Clopper-Pearson intervals, from tiny samples to ten million games. */
static void test_clopper_pearson(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(cp_cases); i++) {
        Interval ci = clopper_pearson_interval(cp_cases[i].k, cp_cases[i].n, cp_cases[i].conf);
        check_close("clopper-pearson lo", i, ci.lo, cp_cases[i].lo, 1e-11, 1e-16);
        check_close("clopper-pearson hi", i, ci.hi, cp_cases[i].hi, 1e-11, 1e-16);
        double phat = (double)cp_cases[i].k / (double)cp_cases[i].n;
        assert_true(ci.lo <= phat && phat <= ci.hi);
    }
    Interval none = clopper_pearson_interval(0, 0, 0.95);
    assert_true(none.lo == 0.0 && none.hi == 1.0);
}

/* ref:binomial_tails (k, n, p, P(X <= k), P(X >= k)): scipy binom.cdf(k), binom.sf(k - 1) */
static const struct { uint64_t k, n; double p, lower, upper; } tail_cases[] = {
    { 3, 10, 0.5, 0.171875, 0.9453125 },
    { 7, 10, 0.5, 0.9453125, 0.171875 },
    { 0, 10, 0.3, 0.028247524900000005, 1.0 },
    { 10, 10, 0.3, 1.0, 5.9048999999999975e-06 },
    { 45, 100, 0.5, 0.18410080866334788, 0.8643734879630823 },
    { 55, 100, 0.5, 0.8643734879630823, 0.18410080866334788 },
    { 12, 100, 0.1, 0.8018211126404325, 0.29696689971124607 },
    { 5, 100, 0.1, 0.05757688648703396, 0.9762889173365231 },
    { 17, 40, 0.37, 0.8124979927052689, 0.2857546116933162 },
    { 4990000, 10000000, 0.5, 1.2724002455775383e-10, 0.99999999987328 },
    { 5005000, 10000000, 0.5, 0.9992181491198627, 0.0007835509528474492 },
    { 200, 1000000, 0.0002, 0.5187943097726961, 0.5094062381085604 },
    { 1, 1000000, 0.0002, 2.727087447080537e-85, 1.0 },
    { 0, 1000, 0.01, 4.3171247410658195e-05, 1.0 },
};

/* Binomial tails, both directions, near and far from the mean. */
static void test_binomial_tails(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(tail_cases); i++) {
        double lo = binomial_lower_tail(tail_cases[i].k, tail_cases[i].n, tail_cases[i].p);
        double up = binomial_upper_tail(tail_cases[i].k, tail_cases[i].n, tail_cases[i].p);
        check_close("P(X <= k)", i, lo, tail_cases[i].lower, 1e-10, 1e-300);
        check_close("P(X >= k)", i, up, tail_cases[i].upper, 1e-10, 1e-300);
    }
    /* The two tails overlap in P(X = k): they add to 1 + P(X = k) >= 1. */
    double lo = binomial_lower_tail(40, 100, 0.37), up = binomial_upper_tail(41, 100, 0.37);
    check_close("tails add to 1", 0, lo + up, 1.0, 1e-14, 0);
    assert_true(isnan(binomial_lower_tail(1, (1ULL << 53) + 1, 0.5)));
    assert_true(binomial_upper_tail(0, 10, 0.2) == 1.0 && binomial_lower_tail(10, 10, 0.2) == 1.0);
}

/* ref:binomial_test (k, n, p0, p-value): scipy binomtest(k, n, p0).pvalue */
static const struct { uint64_t k, n; double p0, p; } btest_cases[] = {
    { 3, 10, 0.5, 0.34375 },
    { 0, 10, 0.5, 0.001953125 },
    { 5, 10, 0.5, 1.0 },
    { 7, 20, 0.3, 0.6294979666766769 },
    { 2, 20, 0.3, 0.05262794872972706 },
    { 12, 20, 0.3, 0.005936084198097523 },
    { 45, 100, 0.5, 0.36820161732669576 },
    { 60, 100, 0.5, 0.05688793364098088 },
    { 1, 1000, 0.0005, 0.39354517715993853 },
    { 5, 30, 0.1666, 1.0 },
    { 3, 4, 0.9, 0.34389999999999993 },
    { 501000, 1000000, 0.5, 0.045608299865389515 },
    { 4995000, 10000000, 0.5, 0.0015671019056948984 },
    { 2000, 10000, 0.21, 0.01407680754919879 },
};

/* The exact two-sided binomial test, symmetric and skewed null proportions. */
static void test_binomial_test(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(btest_cases); i++) {
        double p = binomial_test(btest_cases[i].k, btest_cases[i].n, btest_cases[i].p0);
        check_close("binomial test", i, p, btest_cases[i].p, 1e-10, 1e-300);
    }
    assert_true(binomial_test(0, 0, 0.5) == 1.0);
}

/* ref:mcnemar (b, c, p-value): scipy binomtest(b, b + c, 0.5).pvalue (1 when b + c = 0) */
static const struct { uint64_t b, c; double p; } mcnemar_cases[] = {
    { 3, 10, 0.09228515625 },
    { 10, 3, 0.09228515625 },
    { 0, 0, 1.0 },
    { 0, 7, 0.015625 },
    { 25, 40, 0.08168153394154003 },
    { 1200, 1100, 0.03896685268382056 },
    { 50, 50, 1.0 },
    { 6, 0, 0.03125 },
};

/* McNemar's exact test on discordant pairs. */
static void test_mcnemar(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(mcnemar_cases); i++) {
        double p = mcnemar_exact_test(mcnemar_cases[i].b, mcnemar_cases[i].c);
        check_close("mcnemar", i, p, mcnemar_cases[i].p, 1e-10, 1e-300);
        assert_true(p == mcnemar_exact_test(mcnemar_cases[i].c, mcnemar_cases[i].b));
    }
}

/* ref:multinomial_difference (x1, x2, n, confidence, value, lo, hi): Tango's score interval,
 * the constrained maximum likelihood found numerically with scipy (not the closed form) */
static const struct { uint64_t x1, x2, n; double conf, value, lo, hi; } diff_cases[] = {
    { 40, 30, 100, 0.95, 0.1, -0.0640213572683012, 0.2581463836313159 },
    { 30, 40, 100, 0.95, -0.1, -0.25814638363131587, 0.06402135726830116 },
    { 0, 0, 20, 0.95, 0.0, -0.16112515805281938, 0.16112515805281938 },
    { 20, 0, 20, 0.95, 1.0, 0.6777496838943612, 1.0 },
    { 0, 20, 20, 0.95, -1.0, -1.0, -0.6777496838943613 },
    { 12, 0, 20, 0.95, 0.6, 0.342199747115489, 0.781193467627183 },
    { 5, 3, 10, 0.9, 0.2, -0.2539866759852765, 0.5770783035921575 },
    { 3, 1, 4, 0.95, 0.5, -0.3987163148351962, 0.9088254783805989 },
    { 1, 0, 1, 0.95, 1.0, -0.5869013712455251, 1.0 },
    { 4680, 4410, 10000, 0.95, 0.027, 0.00831428150504622, 0.04566602091304955 },
    { 2513452, 2301011, 5000000, 0.95, 0.0424882, 0.04162886888091673, 0.04334746709281614 },
    { 0, 3, 1000, 0.99, -0.003, -0.011793516682924918, 0.003610938398117049 },
};

/* P(South) - P(North) over the same games, with Tango's interval. */
static void test_multinomial_difference(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(diff_cases); i++) {
        Estimate e = multinomial_difference(diff_cases[i].x1, diff_cases[i].x2, diff_cases[i].n,
                                            diff_cases[i].conf);
        check_close("difference", i, e.value, diff_cases[i].value, 1e-14, 1e-15);
        check_close("difference lo", i, e.ci.lo, diff_cases[i].lo, 1e-11, 1e-13);
        check_close("difference hi", i, e.ci.hi, diff_cases[i].hi, 1e-11, 1e-13);
        assert_true(e.ci.lo <= e.value && e.value <= e.ci.hi);
    }
    /* Swapping the cells mirrors the interval. */
    Estimate a = multinomial_difference(37, 21, 80, 0.95);
    Estimate b = multinomial_difference(21, 37, 80, 0.95);
    check_close("mirror lo", 0, a.ci.lo, -b.ci.hi, 1e-12, 1e-14);
    check_close("mirror hi", 0, a.ci.hi, -b.ci.lo, 1e-12, 1e-14);
    Estimate none = multinomial_difference(0, 0, 0, 0.95);
    assert_true(none.ci.lo == -1.0 && none.ci.hi == 1.0);
}

/* ref:colour_balanced (A as South: S, N, D; B as South: S, N, D; confidence; value, lo, hi):
 * the MOVER average of the two Tango intervals, recomputed with scipy */
static const struct { Outcomes a, b; double conf, value, lo, hi; } balanced_cases[] = {
    { { 60, 30, 10, 0, 0 }, { 45, 45, 10, 0, 0 }, 0.95, 0.15, 0.02019736990800075,
      0.27260933857604297 },
    { { 5, 3, 2, 0, 0 }, { 4, 5, 1, 0, 0 }, 0.95, 0.05, -0.3069491640412759, 0.3915148385913258 },
    { { 5200, 4300, 500, 0, 0 }, { 4900, 4600, 500, 0, 0 }, 0.95, 0.06, 0.046510502411547625,
      0.0734578073251376 },
};

/* The first-player advantage with agent strength taken out. */
static void test_colour_balanced(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(balanced_cases); i++) {
        Estimate e = colour_balanced_advantage(&balanced_cases[i].a, &balanced_cases[i].b,
                                               balanced_cases[i].conf);
        check_close("balanced", i, e.value, balanced_cases[i].value, 1e-14, 1e-15);
        check_close("balanced lo", i, e.ci.lo, balanced_cases[i].lo, 1e-11, 1e-13);
        check_close("balanced hi", i, e.ci.hi, balanced_cases[i].hi, 1e-11, 1e-13);
    }
}

/* ref:two_proportion (k1, n1, k2, n2, z, p): z = sign * sqrt(chi2) and p of scipy
 * chi2_contingency(correction=False) on the 2 x 2 table; z = 0, p = 1 for a pooled 0 or 1 */
static const struct { uint64_t k1, n1, k2, n2; double z, p; } zprop_cases[] = {
    { 45, 100, 30, 100, 2.1908902300206643, 0.028459736916310638 },
    { 10, 50, 10, 50, 0.0, 1.0 },
    { 0, 20, 0, 30, 0.0, 1.0 },
    { 480000, 1000000, 475000, 1000000, 7.078238159830506, 1.4599866317386115e-12 },
    { 3, 10, 8, 12, -1.7126976771553504, 0.08676817270387548 },
};

/* The two-proportion z test. */
static void test_two_proportion(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(zprop_cases); i++) {
        TestResult r = two_proportion_z_test(zprop_cases[i].k1, zprop_cases[i].n1,
                                             zprop_cases[i].k2, zprop_cases[i].n2);
        check_close("z", i, r.statistic, zprop_cases[i].z, 1e-10, 1e-14);
        check_close("z test p", i, r.p_value, zprop_cases[i].p, 1e-9, 1e-300);
    }
    assert_true(isnan(two_proportion_z_test(1, 0, 3, 10).p_value));
}

/* ref:chi_square (rows, cols, table row-major, statistic, df, p): scipy
 * chi2_contingency(correction=False) on the table without its empty rows and columns;
 * statistic 0, df 0, p 1 when fewer than two of either remain */
static const struct { size_t rows, cols; uint64_t table[30]; double stat, df, p; } chi_cases[] = {
    { 2, 3, { 40, 30, 10, 30, 45, 5 }, 6.095238095238096, 2.0, 0.047471818078844374 },
    { 3, 5, { 40, 30, 10, 0, 2, 30, 45, 5, 0, 1, 50, 20, 20, 0, 0 }, 26.102267676115915, 6.0,
      0.0002130843113757759 },
    { 2, 2, { 10, 20, 30, 40 }, 0.7936507936507936, 1.0, 0.37299848361348686 },
    { 2, 3, { 5, 5, 5, 0, 0, 0 }, 0.0, 0.0, 1.0 },
    { 2, 3, { 4000000, 3500000, 500000, 3900000, 3600000, 500000 }, 2674.2734890354786, 2.0, 0.0 },
};

/* Chi-square tests of independence, empty rows and columns left out. */
static void test_chi_square(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(chi_cases); i++) {
        TestResult r = chi_square_independence(chi_cases[i].table, chi_cases[i].rows,
                                               chi_cases[i].cols);
        check_close("chi-square", i, r.statistic, chi_cases[i].stat, 1e-10, 1e-12);
        check_close("chi-square df", i, r.df, chi_cases[i].df, 0, 0);
        check_close("chi-square p", i, r.p_value, chi_cases[i].p, 1e-9, 1e-300);
    }
}

/* ref:mann_whitney (x length, x counts by value, y length, y counts, U, z, p, effect): scipy
 * mannwhitneyu(x, y, method="asymptotic") on the expanded samples for U and p; z from p
 * (norm.isf(p / 2), signed); effect = U / (n1 n2); when every value ties, z = 0 and p = 1 */
static const struct {
    size_t x_len; uint64_t x[12]; size_t y_len; uint64_t y[12]; double u, z, p, effect;
} mw_cases[] = {
    { 6, { 0, 3, 5, 2, 0, 1 }, 5, { 1, 2, 2, 4, 3 }, 52.0, -0.8555277382080454,
      0.39225905515822823, 0.3939393939393939 },
    { 3, { 0, 0, 4 }, 3, { 0, 0, 6 }, 12.0, 0.0, 1.0, 0.5 },
    { 4, { 1, 1, 1, 1 }, 4, { 1, 1, 1, 1 }, 8.0, 0.0, 1.0, 0.5 },
    { 5, { 1000, 20000, 50000, 30000, 5000 }, 6, { 1200, 21000, 49000, 29500, 5300, 10 },
      5664850000.0, 3.527053936621849, 0.0004202111523884965, 0.5041220746351803 },
    { 2, { 3, 0 }, 9, { 0, 0, 0, 0, 0, 0, 0, 0, 2 }, 0.0, -1.6666666666666672, 0.0955807045456294,
      0.0 },
};

/* Mann-Whitney U from histograms, with ties and unequal lengths. */
static void test_mann_whitney(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(mw_cases); i++) {
        MannWhitney m = mann_whitney_hist(mw_cases[i].x, mw_cases[i].x_len, mw_cases[i].y,
                                          mw_cases[i].y_len);
        check_close("U", i, m.u, mw_cases[i].u, 1e-14, 0);
        check_close("U z", i, m.z, mw_cases[i].z, 1e-8, 1e-12);
        check_close("U p", i, m.p_value, mw_cases[i].p, 1e-9, 1e-300);
        check_close("U effect", i, m.effect, mw_cases[i].effect, 1e-14, 0);
        /* Swapping the samples: U' = n1 n2 - U, the same p. */
        MannWhitney s = mann_whitney_hist(mw_cases[i].y, mw_cases[i].y_len, mw_cases[i].x,
                                          mw_cases[i].x_len);
        check_close("swapped p", i, s.p_value, m.p_value, 1e-12, 1e-300);
        check_close("swapped effect", i, s.effect, 1 - m.effect, 1e-12, 1e-15);
    }
    uint64_t none[3] = { 0, 0, 0 }, some[2] = { 1, 2 };
    assert_true(isnan(mann_whitney_hist(none, 3, some, 2).p_value));
}

/* ref:holm (m, p-values, adjusted p-values): Holm's step-down formula, recomputed in Python */
static const struct { size_t m; double p[8], adjusted[8]; } holm_cases[] = {
    { 5, { 0.01, 0.04, 0.03, 0.005, 0.2 }, { 0.04, 0.09, 0.09, 0.025, 0.2, 0.0, 0.0, 0.0 } },
    { 3, { 0.5, 0.5, 0.01 }, { 1.0, 1.0, 0.03, 0.0, 0.0, 0.0, 0.0, 0.0 } },
    { 1, { 0.3 }, { 0.3, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 } },
    { 4, { 0.02, 0.02, 0.02, 0.9 }, { 0.08, 0.08, 0.08, 0.9, 0.0, 0.0, 0.0, 0.0 } },
    { 6, { 0.9, 0.0001, 0.3, 0.95, 0.04, 0.011 }, { 1.0, 0.0006000000000000001, 0.8999999999999999,
      1.0, 0.16, 0.05499999999999999, 0.0, 0.0 } },
};

/* Holm's adjusted p-values, in place and not. */
static void test_holm(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(holm_cases); i++) {
        double adj[8], inplace[8];
        size_t m = holm_cases[i].m;
        assert_int_equal(holm_adjust(holm_cases[i].p, m, adj), 0);
        for (size_t j = 0; j < m; j++) {
            check_close("holm", i, adj[j], holm_cases[i].adjusted[j], 1e-15, 1e-17);
            inplace[j] = holm_cases[i].p[j];
        }
        assert_int_equal(holm_adjust(inplace, m, inplace), 0);
        for (size_t j = 0; j < m; j++)
            assert_true(inplace[j] == adj[j]);
    }
    assert_int_equal(holm_adjust(NULL, 0, NULL), 0);
}

/* ref:histogram (origin, length, counts, n, mean, sd, min, max, p5, p25, median, p75, p95,
 * p99): numpy mean, std(ddof=1), min, max and percentile (the default, linear) of the
 * expanded sample */
static const struct {
    int64_t origin; size_t len; uint64_t counts[16]; uint64_t n;
    double mean, sd, min, max, p5, p25, median, p75, p95, p99;
} hist_cases[] = {
    { 0, 7, { 0, 0, 3, 5, 2, 0, 1 }, 11, 3.1818181818181817, 1.1677484162422844, 2.0, 6.0, 2.0,
      2.5, 3.0, 3.5, 5.0, 5.800000000000001 },
    { -5, 11, { 1, 0, 2, 4, 6, 3, 0, 1, 0, 0, 2 }, 19, -0.6842105263157895, 2.4732486863086547,
      -5.0, 5.0, -3.2, -2.0, -1.0, 0.0, 5.0, 5.0 },
    { 0, 3, { 0, 0, 7 }, 7, 2.0, 0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0 },
    { 0, 2, { 1, 1 }, 2, 0.5, 0.7071067811865476, 0.0, 1.0, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99 },
    { 100, 8, { 1000000, 2500000, 3000000, 2000000, 900000, 400000, 150000, 50000 }, 10000000,
      102.135, 1.3844765045595895, 100.0, 107.0, 100.0, 101.0, 102.0, 103.0, 105.0, 106.0 },
};

/* Histogram summaries: lengths, margins (negative origin), a single value, millions. */
static void test_histogram(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(hist_cases); i++) {
        HistSummary s = hist_summary(hist_cases[i].counts, hist_cases[i].len, hist_cases[i].origin);
        assert_true(s.n == hist_cases[i].n);
        check_close("mean", i, s.mean, hist_cases[i].mean, 1e-13, 1e-13);
        check_close("sd", i, s.sd, hist_cases[i].sd, 1e-12, 1e-13);
        check_close("min", i, s.min, hist_cases[i].min, 0, 0);
        check_close("max", i, s.max, hist_cases[i].max, 0, 0);
        check_close("p5", i, s.p5, hist_cases[i].p5, 1e-13, 1e-12);
        check_close("p25", i, s.p25, hist_cases[i].p25, 1e-13, 1e-12);
        check_close("median", i, s.median, hist_cases[i].median, 1e-13, 1e-12);
        check_close("p75", i, s.p75, hist_cases[i].p75, 1e-13, 1e-12);
        check_close("p95", i, s.p95, hist_cases[i].p95, 1e-13, 1e-12);
        check_close("p99", i, s.p99, hist_cases[i].p99, 1e-13, 1e-12);
    }
    /* One observation: no sd; none: nothing. */
    uint64_t one[4] = { 0, 0, 0, 1 }, none[2] = { 0, 0 };
    HistSummary s = hist_summary(one, 4, 10);
    assert_true(s.n == 1 && s.mean == 13 && s.median == 13 && s.max == 13 && isnan(s.sd));
    assert_true(isnan(hist_mean_interval(&s, 0.95).ci.lo));
    s = hist_summary(none, 2, 0);
    assert_true(s.n == 0 && isnan(s.mean) && isnan(s.median) && isnan(s.max));
}

/* ref:quantile (origin, length, counts, q, quantile): numpy quantile (linear) */
static const struct {
    int64_t origin; size_t len; uint64_t counts[16]; double q, value;
} quant_cases[] = {
    { 0, 7, { 0, 0, 3, 5, 2, 0, 1 }, 0.0, 2.0 },
    { 0, 7, { 0, 0, 3, 5, 2, 0, 1 }, 1.0, 6.0 },
    { 0, 7, { 0, 0, 3, 5, 2, 0, 1 }, 0.5, 3.0 },
    { 0, 7, { 0, 0, 3, 5, 2, 0, 1 }, 0.37, 3.0 },
    { 0, 2, { 1, 1 }, 0.5, 0.5 },
    { -3, 4, { 1, 0, 0, 1 }, 0.25, -2.25 },
    { 10, 3, { 2, 0, 2 }, 0.9, 12.0 },
};

/* The quantile rule (Hyndman and Fan's 7) at and between order statistics. */
static void test_quantile(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(quant_cases); i++) {
        double v = hist_quantile(quant_cases[i].counts, quant_cases[i].len, quant_cases[i].origin,
                                 quant_cases[i].q);
        check_close("quantile", i, v, quant_cases[i].value, 1e-13, 1e-12);
    }
}

/* ref:mean_interval (length, counts, confidence, mean, lo, hi): scipy
 * stats.t.interval(confidence, n - 1, mean, sem) of the expanded sample */
static const struct { size_t len; uint64_t counts[16]; double conf, mean, lo, hi; } mean_cases[] = {
    { 7, { 0, 0, 3, 5, 2, 0, 1 }, 0.95, 3.1818181818181817, 2.3973141212092797,
      3.9663222424270836 },
    { 4, { 0, 10, 10, 10 }, 0.99, 2.0, 1.5820778478158104, 2.4179221521841896 },
    { 8, { 1000000, 2500000, 3000000, 2000000, 900000, 400000, 150000, 50000 }, 0.95, 2.135,
      2.134141908236271, 2.1358580917637284 },
};

/* The t interval of a histogram's mean. */
static void test_mean_interval(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(mean_cases); i++) {
        HistSummary s = hist_summary(mean_cases[i].counts, mean_cases[i].len, 0);
        Estimate e = hist_mean_interval(&s, mean_cases[i].conf);
        check_close("mean", i, e.value, mean_cases[i].mean, 1e-13, 0);
        check_close("mean lo", i, e.ci.lo, mean_cases[i].lo, 1e-10, 1e-12);
        check_close("mean hi", i, e.ci.hi, mean_cases[i].hi, 1e-10, 1e-12);
    }
}

/* ref:metrics (South, North, draws, endless, unfinished wins; length histogram; confidence;
 * then value, lo, hi of advantage, balance, completion, drawishness, timeouts, duration; and
 * the duration's sd): Wilson from scipy's binomtest, balance from the scipy Tango interval,
 * duration from scipy's t interval */
static const struct {
    Outcomes o; size_t len; uint64_t lengths[16]; double conf;
    double adv[3], bal[3], comp[3], draw[3], timeout[3], dur[3], sd;
} metric_cases[] = {
    { { 450, 400, 100, 30, 20 }, 8, { 0, 0, 100, 300, 400, 150, 40, 10 }, 0.95,
      { 0.47368421052631576, 0.44210326999178046, 0.5054771171494759 }, { 0.9473684210526316,
      0.8876177970946967, 1.0 }, { 0.85, 0.8265313415731996, 0.8707899274869118 }, { 0.1,
      0.08290944359309571, 0.1201519631953484 }, { 0.05, 0.03813026239274881,
      0.06531382024425081 }, { 3.76, 3.696611709855539, 3.8233882901444605 }, 1.0214907945955478 },
    { { 5100000, 4700000, 150000, 50000, 0 }, 6, { 0, 1000000, 4000000, 3000000, 1500000, 500000 },
      0.95, { 0.5125628140703518, 0.5122522321823392, 0.5128733862579594 }, { 0.9597989949748744,
      0.9591828675941908, 0.9604151531589022 }, { 0.98, 0.9799130441262761, 0.9800865870938188 },
      { 0.015, 0.014924848485261806, 0.015075524136100664 }, { 0.005, 0.0049564733225762655,
      0.0050439069817008915 }, { 2.65, 2.649371740476518, 2.650628259523482 },
      1.0136567973185007 },
    { { 3, 0, 0, 0, 0 }, 3, { 0, 1, 2 }, 0.9, { 1.0, 0.5258044258424872, 1.0 }, { 0.0, 0.0,
      0.9483911483150258 }, { 1.0, 0.5258044258424872, 1.0 }, { 0.0, 0.0, 0.4741955741575128 },
      { 0.0, 0.0, 0.4741955741575128 }, { 1.6666666666666667, 0.6933381398814942,
      2.639995193451839 }, 0.5773502691896257 },
};

/* Check an estimate against {value, lo, hi}. */
static void check_estimate(const char *what, size_t row, Estimate e, const double want[3])
{
    check_close(what, row, e.value, want[0], 1e-12, 1e-14);
    check_close(what, row, e.ci.lo, want[1], 1e-10, 1e-12);
    check_close(what, row, e.ci.hi, want[2], 1e-10, 1e-12);
}

/* The Ludii-style metrics of a job. */
static void test_metrics(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(metric_cases); i++) {
        GameMetrics m = game_metrics(&metric_cases[i].o, metric_cases[i].lengths,
                                     metric_cases[i].len, metric_cases[i].conf);
        assert_true(m.games == outcomes_total(&metric_cases[i].o));
        assert_true(m.finished == outcomes_finished(&metric_cases[i].o));
        check_estimate("south win rate", i, m.south_win_rate, metric_cases[i].adv);
        check_estimate("balance", i, m.balance, metric_cases[i].bal);
        check_estimate("completion", i, m.completion, metric_cases[i].comp);
        check_estimate("drawishness", i, m.drawishness, metric_cases[i].draw);
        check_estimate("timeouts", i, m.timeouts, metric_cases[i].timeout);
        check_estimate("duration", i, m.duration, metric_cases[i].dur);
        check_close("duration sd", i, m.duration_sd, metric_cases[i].sd, 1e-12, 1e-13);
    }
    /* No finished game: the rates over finished games are undefined. */
    Outcomes none = { 0, 0, 0, 5, 0 };
    uint64_t len[3] = { 0, 0, 5 };
    GameMetrics m = game_metrics(&none, len, 3, 0.95);
    assert_true(isnan(m.south_win_rate.value) && isnan(m.balance.value) && m.timeouts.value == 1.0);
}

/* ref:kaplan_meier (length, counts by plies from 0, censored in the last bin, S(t) for t = 0
 * .. 11 (0 past the length), n, mean, sd, min, max, p5, p25, median, p75, p95, p99): the
 * product-limit estimate computed by hand with numpy over the expanded games (risk sets by
 * comparison, each event time's factor), its integral to the cap for the restricted mean
 * (checked against numpy's mean of min(length, cap)), numpy's std(ddof=1) of min(length,
 * cap), each quantile the first t with S(t) <= 1 - q, or infinity */
static const struct {
    size_t len; uint64_t counts[12]; uint64_t censored; double surv[12]; uint64_t n;
    double mean, sd, min, max, p5, p25, median, p75, p95, p99;
} km_cases[] = {
    { 6, { 0, 2, 3, 1, 0, 4 }, 3, { 1.0, 0.8, 0.5, 0.4, 0.4, 0.30000000000000004, 0.0, 0.0, 0.0,
      0.0, 0.0, 0.0 }, 10, 3.0999999999999996, 1.728840330651992, 1.0, 5.0, 1.0, 2.0, 2.0,
      INFINITY, INFINITY, INFINITY },
    { 4, { 0, 0, 0, 5 }, 5, { 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }, 5, 3.0,
      0.0, 3.0, 3.0, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY },
    { 8, { 0, 100, 2000, 5000, 3000, 1200, 400, 9000 }, 8500, { 1.0, 0.9951690821256038,
      0.8985507246376812, 0.6570048309178744, 0.5120772946859904, 0.4541062801932368,
      0.4347826086956523, 0.4106280193236716, 0.0, 0.0, 0.0, 0.0 }, 20700, 4.951690821256038,
      1.9530170528042459, 1.0, 7.0, 2.0, 3.0, 5.0, INFINITY, INFINITY, INFINITY },
    { 3, { 1, 1, 2 }, 1, { 0.75, 0.5, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }, 4, 1.25,
      0.9574271077563381, 0.0, 2.0, 0.0, 0.0, 1.0, 2.0, INFINITY, INFINITY },
    { 5, { 0, 1, 1, 1, 1 }, 1, { 1.0, 0.75, 0.5, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
      4, 2.5, 1.2909944487358056, 1.0, 4.0, 1.0, 1.0, 2.0, 3.0, INFINITY, INFINITY },
};

/* The Kaplan-Meier estimate of censored lengths and its summary: quantiles not reached are
 * infinite, the mean is restricted to the cap. */
static void test_kaplan_meier(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(km_cases); i++) {
        double surv[12];
        km_survival(km_cases[i].counts, km_cases[i].len, km_cases[i].censored, surv);
        for (size_t t = 0; t < km_cases[i].len; t++)
            check_close("S(t)", i, surv[t], km_cases[i].surv[t], 1e-13, 1e-15);
        HistSummary s = km_summary(km_cases[i].counts, km_cases[i].len, km_cases[i].censored);
        assert_true(s.n == km_cases[i].n);
        check_close("km mean", i, s.mean, km_cases[i].mean, 1e-13, 1e-13);
        check_close("km sd", i, s.sd, km_cases[i].sd, 1e-12, 1e-13);
        check_close("km min", i, s.min, km_cases[i].min, 0, 0);
        check_close("km max", i, s.max, km_cases[i].max, 0, 0);
        check_close("km p5", i, s.p5, km_cases[i].p5, 0, 0);
        check_close("km p25", i, s.p25, km_cases[i].p25, 0, 0);
        check_close("km median", i, s.median, km_cases[i].median, 0, 0);
        check_close("km p75", i, s.p75, km_cases[i].p75, 0, 0);
        check_close("km p95", i, s.p95, km_cases[i].p95, 0, 0);
        check_close("km p99", i, s.p99, km_cases[i].p99, 0, 0);
    }
    /* Nothing censored: the survival is the empirical one, and the restricted mean and sd
     * are the histogram's (where a game reached the cap, as here). */
    uint64_t c[6] = { 0, 2, 3, 1, 0, 4 };
    double surv[6];
    km_survival(c, 6, 0, surv);
    check_close("S(1)", 0, surv[1], 0.8, 1e-15, 0);
    assert_true(surv[5] == 0.0);
    HistSummary k = km_summary(c, 6, 0), h = hist_summary(c, 6, 0);
    check_close("mean", 0, k.mean, h.mean, 1e-14, 0);
    check_close("sd", 0, k.sd, h.sd, 1e-13, 0);
    uint64_t none[2] = { 0, 0 };
    assert_true(km_summary(none, 2, 0).n == 0 && isnan(km_summary(none, 2, 0).mean));
}

/* ref:log_rank (x length, x counts, x censored in its last bin, y length, y counts, y censored,
 * observed, expected, variance, statistic, p): x's events and their expectation and
 * hypergeometric variance at each event time, by hand with numpy over the expanded games
 * (risk sets by comparison), and scipy's chi2.sf on 1 df; V = 0 gives 0 and p 1 */
static const struct {
    size_t x_len; uint64_t x[12]; uint64_t x_cens; size_t y_len; uint64_t y[12];
    uint64_t y_cens; double observed, expected, variance, statistic, p;
} lr_cases[] = {
    { 6, { 0, 2, 3, 1, 0, 4 }, 3, 5, { 0, 1, 2, 4, 3 }, 2, 7.0, 7.507703081232493,
      2.623565231984528, 0.09824890784133071, 0.7539412191650591 },
    { 4, { 0, 0, 0, 5 }, 5, 4, { 0, 0, 0, 5 }, 5, 0.0, 0.0, 0.0, 0.0, 1.0 },
    { 8, { 0, 3, 5, 7, 2, 1, 0, 9 }, 6, 12, { 0, 1, 2, 3, 4, 5, 4, 3, 2, 1, 1, 6 }, 4, 21.0,
      16.452284943721164, 8.509493374063414, 2.430428149358718, 0.11900039206124828 },
    { 6, { 0, 200, 3000, 1000, 50, 4000 }, 3500, 6, { 0, 210, 2900, 1100, 40, 3990 }, 3600, 4750.0,
      4691.210330841135, 1670.5208367222383, 2.0689506672603453, 0.1503249193118092 },
    { 5, { 0, 1, 2, 4, 3 }, 2, 5, { 0, 1, 2, 4, 3 }, 2, 8.0, 8.0, 2.620290545367945, 0.0, 1.0 },
};

/* The log-rank test of two censored length histograms, both ways round. */
static void test_log_rank(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(lr_cases); i++) {
        LogRank r = log_rank_hist(lr_cases[i].x, lr_cases[i].x_len, lr_cases[i].x_cens,
                                  lr_cases[i].y, lr_cases[i].y_len, lr_cases[i].y_cens);
        check_close("LR observed", i, r.observed, lr_cases[i].observed, 1e-14, 0);
        check_close("LR expected", i, r.expected, lr_cases[i].expected, 1e-12, 1e-12);
        check_close("LR variance", i, r.variance, lr_cases[i].variance, 1e-12, 1e-12);
        check_close("LR statistic", i, r.chi.statistic, lr_cases[i].statistic, 1e-10, 1e-12);
        check_close("LR p", i, r.chi.p_value, lr_cases[i].p, 1e-10, 1e-300);
        LogRank s = log_rank_hist(lr_cases[i].y, lr_cases[i].y_len, lr_cases[i].y_cens,
                                  lr_cases[i].x, lr_cases[i].x_len, lr_cases[i].x_cens);
        check_close("LR swapped statistic", i, s.chi.statistic, r.chi.statistic, 1e-10, 1e-12);
        check_close("LR swapped variance", i, s.variance, r.variance, 1e-12, 1e-12);
    }
    uint64_t none[1] = { 0 }, some[3] = { 0, 1, 1 };
    assert_true(isnan(log_rank_hist(none, 1, 0, some, 3, 0).chi.p_value));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_clopper_pearson),
        cmocka_unit_test(test_binomial_tails),
        cmocka_unit_test(test_binomial_test),
        cmocka_unit_test(test_mcnemar),
        cmocka_unit_test(test_multinomial_difference),
        cmocka_unit_test(test_colour_balanced),
        cmocka_unit_test(test_two_proportion),
        cmocka_unit_test(test_chi_square),
        cmocka_unit_test(test_mann_whitney),
        cmocka_unit_test(test_holm),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_quantile),
        cmocka_unit_test(test_mean_interval),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_kaplan_meier),
        cmocka_unit_test(test_log_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
