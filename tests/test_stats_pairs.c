/* test_stats_pairs.c: statistics of colour-swapped pairs of games (analysis/pairs.h: the
 * pentanomial score, Elo and GSPRT, the pair-unit first-player advantage) and the count of
 * distinct games (analysis/distinct.h).
 *
 * Tables marked "ref:NAME" hold expected values computed independently with scipy and numpy
 * by tests/stats_reference.py, which CTest runs to check them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "stats_test_util.h"

#include <math.h>

#include "distinct.h"
#include "pairs.h"

/* ref:pentanomial (pairs at 0, 1/2, 1, 3/2, 2 points; confidence; score, se, lo, hi, Elo, lo,
 * hi): numpy mean and variance of the expanded pair scores, Wilson's interval over the
 * effective games by root finding; the last rows all lost, all 1-1, all won, then 30 pairs
 * all won and all lost (an Elo interval once ending at 6261 for a score interval ending at 1) */
static const struct {
    uint64_t c[5]; double conf, score, se, lo, hi, elo, elo_lo, elo_hi;
} penta_cases[] = {
    { { 10, 40, 150, 60, 15 }, 0.95, 0.5272727272727272, 0.012750863614481233, 0.502244485785985,
      0.552164635716006, 18.9698599712552, 1.559638942582995, 36.38008099992745 },
    { { 3, 25, 251, 18, 3 }, 0.95, 0.49416666666666664, 0.006812807927121669, 0.48082272545449756,
      0.5075189236915738, -4.0535990843979945, -13.332275363952723, 5.225077195156757 },
    { { 1200, 5000, 9000, 5600, 1400 }, 0.9, 0.5112612612612613, 0.0016301606290226867,
      0.5085796001754406, 0.5139422743094944, 7.826449337837266, 5.962302043369061,
      9.690596632305496 },
    { { 0, 1, 2, 3, 30 }, 0.95, 0.9305555555555556, 0.02881921203238133, 0.8515551679692285,
      0.9690414602138013, 450.8419193459231, 303.4590825304597, 598.2247561613873 },
    { { 20, 0, 0, 0, 0 }, 0.95, 0.0, 0.0, 0.0, 0.08762160119728664, -INFINITY, -INFINITY,
      -407.0255237150759 },
    { { 0, 0, 50, 0, 0 }, 0.95, 0.5, 0.0, 0.4038315303659956, 0.5961684696340044, -0.0,
      -67.66751136062327, 67.66751136062322 },
    { { 0, 0, 0, 0, 7 }, 0.95, 1.0, 0.0, 0.7846891972623642, 1.0, INFINITY, 224.65274145518617,
      INFINITY },
    { { 0, 0, 0, 0, 30 }, 0.95, 1.0, 0.0, 0.9398281478579101, 1.0, INFINITY, 477.4620273373483,
      INFINITY },
    { { 30, 0, 0, 0, 0 }, 0.95, 0.0, 0.0, 0.0, 0.06017185214208986, -INFINITY, -INFINITY,
      -477.46202733734845 },
};

/* The pentanomial score, its standard error, interval and Elo. */
static void test_pentanomial(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(penta_cases); i++) {
        PairEstimate e = pentanomial_estimate(penta_cases[i].c, penta_cases[i].conf);
        check_close("score", i, e.score, penta_cases[i].score, 1e-14, 1e-15);
        check_close("se", i, e.se, penta_cases[i].se, 1e-12, 1e-15);
        check_close("lo", i, e.score_ci.lo, penta_cases[i].lo, 1e-12, 1e-14);
        check_close("hi", i, e.score_ci.hi, penta_cases[i].hi, 1e-12, 1e-14);
        check_close("elo", i, e.elo, penta_cases[i].elo, 1e-12, 1e-10);
        check_close("elo lo", i, e.elo_ci.lo, penta_cases[i].elo_lo, 1e-10, 1e-9);
        check_close("elo hi", i, e.elo_ci.hi, penta_cases[i].elo_hi, 1e-10, 1e-9);
        /* The interval never collapses, even when every pair scored the same. */
        assert_true(e.score_ci.hi > e.score_ci.lo);
    }
    const uint64_t none[5] = { 0 };
    PairEstimate e = pentanomial_estimate(none, 0.95);
    assert_true(e.pairs == 0 && isnan(e.score) && isnan(e.score_ci.lo) && isnan(e.elo));
}

/* ref:sprt_pentanomial (pair counts, elo0, elo1, alpha, beta, LLR, lower, upper, decision):
 * fishtest's LLR_alt2 formula on the regularised pair pdf, checked there against the exact
 * generalised likelihood ratio maximised by scipy */
static const struct {
    uint64_t c[5]; double elo0, elo1, alpha, beta, llr, lower, upper; int decision;
} penta_sprt_cases[] = {
    { { 10, 40, 150, 60, 15 }, 0.0, 10.0, 0.05, 0.05, 1.7768125199681477, -2.9444389791664403,
      2.9444389791664403, 0 },
    { { 300, 1500, 3000, 1700, 350 }, 0.0, 5.0, 0.05, 0.05, 6.862173965869473, -2.9444389791664403,
      2.9444389791664403, 1 },
    { { 40, 100, 150, 60, 10 }, 0.0, 10.0, 0.05, 0.05, -6.882028673902399, -2.9444389791664403,
      2.9444389791664403, -1 },
    { { 0, 0, 251, 0, 0 }, -5.0, 5.0, 0.05, 0.05, -8.052434995973426e-11, -2.9444389791664403,
      2.9444389791664403, 0 },
    { { 2, 25, 200, 60, 6 }, 0.0, 20.0, 0.05, 0.1, 7.961146046446565, -2.251291798606495,
      2.8903717578961645, 1 },
};

/* The pentanomial GSPRT's log-likelihood ratio, bounds and decision. */
static void test_sprt_pentanomial(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(penta_sprt_cases); i++) {
        Sprt t = sprt_pentanomial(penta_sprt_cases[i].c, penta_sprt_cases[i].elo0,
                                  penta_sprt_cases[i].elo1, penta_sprt_cases[i].alpha,
                                  penta_sprt_cases[i].beta);
        check_close("llr", i, t.llr, penta_sprt_cases[i].llr, 1e-11, 1e-12);
        check_close("lower", i, t.lower, penta_sprt_cases[i].lower, 1e-14, 0);
        check_close("upper", i, t.upper, penta_sprt_cases[i].upper, 1e-14, 0);
        assert_int_equal((int)t.decision, penta_sprt_cases[i].decision);
    }
}

/* ref:pair_advantage (pairs by South's minus North's points -2 .. 2; confidence; advantage,
 * lo, hi, sd, degenerate): scipy's t interval and numpy's sd (ddof 1) on the expanded
 * per-pair values; where every pair is alike (the last rows: 9 pairs won by South twice, 30
 * pairs split 1-1 as a stronger agent makes them, one pair), the bound from scipy's
 * Clopper-Pearson limit at 0 of n (the Beta(1, n) quantile) on the share that could differ */
static const struct {
    uint64_t c[5]; double conf, value, lo, hi, sd; int degenerate;
} pair_adv_cases[] = {
    { { 5, 20, 251, 18, 6 }, 0.95, 0.0, -0.029750226897188568, 0.029750226897188568,
      0.26184322200450216, 0 },
    { { 2, 10, 40, 80, 68 }, 0.95, 0.505, 0.44132723806951635, 0.5686727619304837,
      0.45663726078770495, 0 },
    { { 1000, 4000, 9000, 7000, 3000 }, 0.99, 0.14583333333333334, 0.13735467328279896,
      0.15431199338386772, 0.5098955500396333, 0 },
    { { 0, 1, 0, 0, 1 }, 0.95, 0.25, -1.0, 1.0, 1.0606601717798212, 0 },
    { { 0, 0, 0, 0, 9 }, 0.95, 1.0, 0.32746576624011436, 1.0, 0.0, 1 },
    { { 0, 0, 30, 0, 0 }, 0.95, 0.0, -0.11570330822202779, 0.11570330822202779, 0.0, 1 },
    { { 0, 0, 0, 12, 0 }, 0.9, 0.5, 0.1686167120816663, 0.6104610959727779, 0.0, 1 },
    { { 0, 0, 0, 0, 1 }, 0.95, 1.0, -0.95, 1.0, NAN, 1 },
};

/* The first-player advantage with the pair as its unit. */
static void test_pair_advantage(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(pair_adv_cases); i++) {
        PairAdvantage a = pair_advantage(pair_adv_cases[i].c, pair_adv_cases[i].conf);
        check_close("advantage", i, a.advantage.value, pair_adv_cases[i].value, 1e-14, 1e-15);
        check_close("lo", i, a.advantage.ci.lo, pair_adv_cases[i].lo, 1e-12, 1e-14);
        check_close("hi", i, a.advantage.ci.hi, pair_adv_cases[i].hi, 1e-12, 1e-14);
        check_close("sd", i, a.sd, pair_adv_cases[i].sd, 1e-12, 1e-15);
        assert_int_equal((int)a.degenerate, pair_adv_cases[i].degenerate);
        /* An interval of an advantage that is not certain has a width. */
        assert_true(a.advantage.ci.hi > a.advantage.ci.lo);
    }
    const uint64_t none[5] = { 0 };
    PairAdvantage a = pair_advantage(none, 0.95);
    assert_true(a.pairs == 0 && isnan(a.advantage.value) && !a.degenerate);
    assert_true(a.advantage.ci.lo == -1.0 && a.advantage.ci.hi == 1.0);
}

/* Two jobs' advantages compared, each with its own unit: Welch's t interval and p, from
 * scipy.stats.ttest_ind(x, y, equal_var=False) over the pairs' d / 2 (and its
 * Welch-Satterthwaite df and t quantile for the interval). */
static const struct {
    uint64_t x[PENTA_NB], y[PENTA_NB];
    double diff, lo, hi, p, df;
} difference_cases[] = {
    { { 3, 10, 20, 12, 5 }, { 8, 14, 18, 7, 3 }, 0.23, 0.017371078236517956,
      0.44262892176348206, 0.0342948991521895, 97.72755122359679 },
    { { 0, 5, 30, 40, 10 }, { 1, 1, 2, 1, 0 }, 0.5235294117647059, -0.17944778061485456,
      1.2265066041442663, 0.1090439866857254, 4.215627487962604 },
};

static void test_advantage_difference(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(difference_cases); i++) {
        PairAdvantage x = pair_advantage(difference_cases[i].x, 0.95);
        PairAdvantage y = pair_advantage(difference_cases[i].y, 0.95);
        AdvantageDifference d = advantage_difference(&x, &y, 0.95);
        check_close("difference", i, d.difference.value, difference_cases[i].diff, 1e-13, 1e-15);
        check_close("lo", i, d.difference.ci.lo, difference_cases[i].lo, 1e-9, 1e-12);
        check_close("hi", i, d.difference.ci.hi, difference_cases[i].hi, 1e-9, 1e-12);
        check_close("p", i, d.p_value, difference_cases[i].p, 1e-9, 1e-12);
        check_close("df", i, d.df, difference_cases[i].df, 1e-9, 1e-12);
    }
    /* A job whose pairs were all alike has no standard error to compare: no test. */
    const uint64_t alike[PENTA_NB] = { 0, 0, 30, 0, 0 }, some[PENTA_NB] = { 3, 4, 5, 6, 7 };
    PairAdvantage x = pair_advantage(alike, 0.95), y = pair_advantage(some, 0.95);
    AdvantageDifference d = advantage_difference(&x, &y, 0.95);
    assert_true(isnan(d.p_value) && d.difference.ci.lo == -2.0 && d.difference.ci.hi == 2.0);
}

/* The all-alike bound: the share is Clopper-Pearson's upper limit at 0 successes (solved by
 * root finding there), and the interval spans it towards each end of the range. */
static void test_all_equal_interval(void **state)
{
    (void)state;
    const uint64_t ns[] = { 1, 2, 30, 1000, 10000000 };
    for (size_t i = 0; i < N_ELEMS(ns); i++) {
        double p = all_equal_share_bound(ns[i], 0.95);
        check_close("share", i, p, clopper_pearson_interval(0, ns[i], 0.95).hi, 1e-12, 1e-15);
        Interval ci = all_equal_mean_interval(0.5, ns[i], -1.0, 1.0, 0.95);
        check_close("lo", i, ci.lo, 0.5 - 1.5 * p, 1e-15, 1e-15);
        check_close("hi", i, ci.hi, 0.5 + 0.5 * p, 1e-15, 1e-15);
    }
    /* At an end of the range the interval reaches in from it only. */
    Interval ci = all_equal_mean_interval(1.0, 9, -1.0, 1.0, 0.95);
    assert_true(ci.hi == 1.0 && ci.lo < 1.0);
}

/* ref:clustered_pairs (pairs; each pair's opening, -1 for none; A's half-points 0 .. 4;
 * South's minus North's points + 2; confidence; unit (0 pair, 1 opening), units, score, se,
 * lo, hi, advantage, lo, hi): with repeated openings, numpy's sandwich (X'X)^-1 X'ee'X
 * (X'X)^-1 summed over the clusters with the factor G / (G - 1), scipy's t interval on G - 1
 * degrees of freedom, Wilson by root finding over s (1 - s) / V effective games; without,
 * the pair-unit references above */
static const struct {
    size_t n; int64_t o[12]; uint8_t a[12], d[12]; double conf;
    int unit; uint64_t units; double score, se, lo, hi, adv, adv_lo, adv_hi; int degenerate;
} clustered_cases[] = {
    { 12, { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 }, { 2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 2, 2 }, { 4, 4,
      4, 4, 2, 2, 2, 2, 3, 3, 1, 2 }, 0.95, 1, 3, 0.45833333333333337, 0.1102396379610246,
      0.26658850536309936, 0.6632681559225838, 0.375, -0.9785131559706599, 1.0, 0 },
    { 12, { 5, 0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 4 }, { 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 2, 2 }, { 3, 3,
      1, 2, 4, 0, 2, 2, 3, 1, 2, 4 }, 0.9, 1, 6, 0.5, 0.08539125638299665, 0.36477788883024675,
      0.6352221111697532, 0.125, -0.09069804170163348, 0.34069804170163337, 0 },
    { 10, { 3, 3, -1, -1, 7, 7, 7, -1, 2, 2 }, { 2, 2, 1, 3, 0, 0, 4, 2, 2, 1 }, { 2, 3, 2, 1, 4,
      4, 3, 2, 2, 0 }, 0.95, 1, 6, 0.42500000000000004, 0.05477225575051662, 0.3234167277458976,
      0.5333384917986429, 0.15, -0.5623805353648715, 0.8623805353648716, 0 },
    { 8, { 0, 0, 1, 1, 2, 2, 3, 3 }, { 2, 2, 2, 2, 2, 2, 2, 2 }, { 3, 3, 3, 3, 3, 3, 3, 3 }, 0.95,
      1, 4, 0.5, 0.0, 0.21521606221387754, 0.7847839377861224, 0.5, -0.4035469534247118,
      0.8011823178082373, 1 },
    { 12, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, { 2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 2, 2 }, { 4, 4,
      4, 4, 2, 2, 2, 2, 3, 3, 1, 2 }, 0.95, 0, 12, 0.4583333333333333, 0.049593252975992014,
      0.3644460557202612, 0.5552757122759462, 0.375, 0.03975045472204841, 0.7102495452779516, 0 },
    { 6, { -1, -1, -1, -1, -1, -1 }, { 0, 1, 2, 3, 4, 2 }, { 0, 1, 2, 3, 4, 3 }, 0.95, 0, 6, 0.5,
      0.13176156917368248, 0.270549868044664, 0.7294501319553359, 0.08333333333333333,
      -0.6890303849742365, 0.8556970516409033, 0 },
    { 4, { 0, 0, 1, 1 }, { 2, 2, 2, 2 }, { 3, 1, 3, 1 }, 0.95, 1, 2, 0.5, 0.0, 0.1500389891521495,
      0.8499610108478505, 0.0, -0.841886116991581, 0.841886116991581, 1 },
    { 6, { 0, 0, 1, 1, 2, 2 }, { 4, 4, 4, 4, 4, 4 }, { 4, 4, 4, 4, 4, 4 }, 0.95, 1, 3, 1.0, 0.0,
      0.6096657120978347, 1.0, 1.0, -0.4151964523574265, 1.0, 1 },
};

/* The pairs of a clustered case, in the order given. */
static size_t clustered_pairs(size_t i, PairResult *p)
{
    for (size_t k = 0; k < clustered_cases[i].n; k++)
        p[k] = (PairResult){ clustered_cases[i].o[k], clustered_cases[i].a[k],
                             clustered_cases[i].d[k], { 0 }, { 0 } };
    return clustered_cases[i].n;
}

/* The score and the advantage from the pairs themselves: the opening as unit where pairs
 * repeat an opening (a cluster-robust interval), else the pair-unit figures of the counts,
 * to the bit. */
static void test_clustered_pairs(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(clustered_cases); i++) {
        PairResult p[12];
        size_t n = clustered_pairs(i, p);
        PairEstimate e = pentanomial_estimate_pairs(p, n, clustered_cases[i].conf);
        n = clustered_pairs(i, p);
        PairAdvantage a = pair_advantage_pairs(p, n, clustered_cases[i].conf);
        assert_int_equal((int)e.units.unit, clustered_cases[i].unit);
        assert_int_equal((int)a.units.unit, clustered_cases[i].unit);
        assert_true(e.units.units == clustered_cases[i].units);
        assert_true(a.units.units == clustered_cases[i].units);
        check_close("score", i, e.score, clustered_cases[i].score, 1e-14, 1e-15);
        check_close("se", i, e.se, clustered_cases[i].se, 1e-12, 1e-15);
        check_close("lo", i, e.score_ci.lo, clustered_cases[i].lo, 1e-11, 1e-14);
        check_close("hi", i, e.score_ci.hi, clustered_cases[i].hi, 1e-11, 1e-14);
        check_close("advantage", i, a.advantage.value, clustered_cases[i].adv, 1e-14, 1e-15);
        /* GSL's t quantile on few degrees of freedom agrees with scipy's to about 1e-10. */
        check_close("adv lo", i, a.advantage.ci.lo, clustered_cases[i].adv_lo, 1e-9, 1e-14);
        check_close("adv hi", i, a.advantage.ci.hi, clustered_cases[i].adv_hi, 1e-9, 1e-14);
        assert_int_equal((int)a.degenerate, clustered_cases[i].degenerate);
        assert_true(a.advantage.ci.hi > a.advantage.ci.lo);
        if (e.units.unit == PAIR_UNIT_PAIR) {
            /* The same figures as the counts give, to the bit. */
            uint64_t ca[5] = { 0 }, cd[5] = { 0 };
            for (size_t k = 0; k < n; k++) {
                ca[clustered_cases[i].a[k]]++;
                cd[clustered_cases[i].d[k]]++;
            }
            PairEstimate ec = pentanomial_estimate(ca, clustered_cases[i].conf);
            PairAdvantage ac = pair_advantage(cd, clustered_cases[i].conf);
            assert_true(ec.se == e.se && ec.score_ci.lo == e.score_ci.lo &&
                        ec.score_ci.hi == e.score_ci.hi && ec.elo_ci.lo == e.elo_ci.lo);
            assert_true(ac.advantage.ci.lo == a.advantage.ci.lo &&
                        ac.advantage.ci.hi == a.advantage.ci.hi);
        }
    }
    /* One opening played by every pair: no variance; the score has no interval, the
     * advantage the all-alike bound over one unit. */
    PairResult one[4] = { { 3, 2, 3, { 0 }, { 0 } }, { 3, 4, 4, { 0 }, { 0 } }, { 3, 0, 2, { 0 }, { 0 } },
                          { 3, 2, 3, { 0 }, { 0 } } };
    PairEstimate e = pentanomial_estimate_pairs(one, 4, 0.95);
    PairAdvantage a = pair_advantage_pairs(one, 4, 0.95);
    assert_true(e.units.unit == PAIR_UNIT_OPENING && e.units.units == 1 && e.units.most == 4);
    assert_true(isnan(e.se) && e.score_ci.lo == 0.0 && e.score_ci.hi == 1.0);
    Interval bound = all_equal_mean_interval(0.5, 1, -1.0, 1.0, 0.95);
    assert_true(a.advantage.value == 0.5 && a.degenerate);
    assert_true(a.advantage.ci.lo == bound.lo && a.advantage.ci.hi == bound.hi);
}

/* pair_units: pairs per opening, a pair without one its own unit. */
static void test_pair_units(void **state)
{
    (void)state;
    PairResult p[6] = { { .opening = 4 }, { .opening = -1 }, { .opening = 4 }, { .opening = 9 },
                        { .opening = -1 }, { .opening = 4 } };
    PairUnits u = pair_units(p, 6);
    assert_true(u.unit == PAIR_UNIT_OPENING && u.units == 4 && u.fewest == 1 && u.most == 3);
    PairResult q[3] = { { .opening = 2 }, { .opening = -1 }, { .opening = 0 } };
    u = pair_units(q, 3);
    assert_true(u.unit == PAIR_UNIT_PAIR && u.units == 3 && u.fewest == 1 && u.most == 1);
    u = pair_units(NULL, 0);
    assert_true(u.unit == PAIR_UNIT_PAIR && u.units == 0);
}

/* ref:distinct (n, hashes, distinct, most repeated, effective games): numpy's unique with its
 * counts, N^2 / sum m^2 */
static const struct {
    size_t n; uint64_t h[12]; uint64_t distinct, most; double effective;
} distinct_cases[] = {
    { 12, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, 12, 1, 12.0 },
    { 12, { 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7 }, 1, 12, 1.0 },
    { 10, { 9223372036854775807, 5, 5, 0, 9223372036854775807, 5, 3, 3, 5, 1 }, 5, 4,
      3.8461538461538463 },
    { 1, { 42 }, 1, 1, 1.0 },
};

/* Distinct hashes, the largest repeat and Kish's effective sample size; the warning's rule. */
static void test_distinct(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(distinct_cases); i++) {
        uint64_t h[12];
        for (size_t k = 0; k < distinct_cases[i].n; k++)
            h[k] = distinct_cases[i].h[k];
        DistinctGames d = distinct_games(h, distinct_cases[i].n);
        assert_true(d.games == distinct_cases[i].n);
        assert_true(d.distinct == distinct_cases[i].distinct);
        assert_true(d.most_repeated == distinct_cases[i].most);
        check_close("effective", i, d.effective, distinct_cases[i].effective, 1e-14, 0);
    }
    /* 95 distinct of 100 is enough; 94 is not; no games, no warning. */
    DistinctGames d = { 100, 95, 2, 90.0 };
    assert_false(distinct_games_few(&d));
    d.distinct = 94;
    assert_true(distinct_games_few(&d));
    d = distinct_games(NULL, 0);
    assert_true(d.games == 0 && d.distinct == 0 && !distinct_games_few(&d));
}

/* The share of the most common line, and the few-lines warning's rule: half the games on one
 * line is a warning, fewer is not; no games, no share and no warning. */
static void test_distinct_lines(void **state)
{
    (void)state;
    uint64_t h[10] = { 4, 4, 9, 4, 1, 4, 2, 4, 3, 5 };
    DistinctGames d = distinct_games(h, 10);
    assert_true(d.distinct == 6 && d.most_repeated == 5);
    assert_true(distinct_top_share(&d) == 0.5);
    assert_true(distinct_lines_few(&d));
    d.most_repeated = 4;
    assert_true(distinct_top_share(&d) == 0.4);
    assert_false(distinct_lines_few(&d));
    d = distinct_games(NULL, 0);
    assert_true(isnan(distinct_top_share(&d)) && !distinct_lines_few(&d));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pentanomial),
        cmocka_unit_test(test_sprt_pentanomial),
        cmocka_unit_test(test_pair_advantage),
        cmocka_unit_test(test_all_equal_interval),
        cmocka_unit_test(test_advantage_difference),
        cmocka_unit_test(test_clustered_pairs),
        cmocka_unit_test(test_pair_units),
        cmocka_unit_test(test_distinct),
        cmocka_unit_test(test_distinct_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
