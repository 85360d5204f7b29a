/* test_root.c: the root design's estimates (analysis/root.h) on hand-built line trees:
 * the minimax with South maximising and North minimising by the movers the lines carry (an
 * extra move of South's included), each line's t interval, the naive choice, the held-out
 * choice made on one half and valued on the other, lines without pairs, and the
 * simultaneous bounds on the minimax of the lines' true values. Expected values
 * are worked by hand in the comments; the t quantiles are scipy's t.ppf(0.975, df). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "root.h"

#define EPS 1e-9

/* |got - want| <= eps, NaN never (cmocka 1.1 has no double comparison). */
#define assert_double_equal(got, want, eps) assert_true(fabs((got) - (want)) <= (eps))

/* A line of the given plies and movers (0 South, 1 North). */
static RootLine line_of(int64_t opening, int n, const int *moves, const int *movers)
{
    RootLine l;
    memset(&l, 0, sizeof l);
    l.opening = opening;
    l.n_moves = n;
    for (int k = 0; k < n; k++) {
        l.moves[k] = moves[k];
        l.mover[k] = (int8_t)movers[k];
    }
    return l;
}

/* Pairs of per-game advantage x into half f of line l, count times. */
static void add_pairs(RootLine *l, int f, double x, int count)
{
    for (int i = 0; i < count; i++)
        root_add(l, f, x);
}

/* A design of lines, owned by the RootAnalysis (root_free frees them). */
static RootAnalysis design_of(const RootLine *lines, int n)
{
    RootAnalysis r;
    memset(&r, 0, sizeof r);
    r.lines = malloc((size_t)n * sizeof *lines);
    assert_non_null(r.lines);
    memcpy(r.lines, lines, (size_t)n * sizeof *lines);
    r.nlines = n;
    return r;
}

/* all:1: South picks the largest line; the held-out halves disagree where the lines are
 * close and the value is the average of each choice on the other half. */
static void test_first_moves(void **state)
{
    (void)state;
    RootLine l[3];
    for (int i = 0; i < 3; i++)
        l[i] = line_of(i, 1, (int[]){ 10 - i }, (int[]){ 0 });   /* moves 10, 9, 8 */
    /* Line 0 (move 10): half 0 mean 0.5 (0.25, 0.75), half 1 mean 0 (-0.5, 0.5).
     * Line 1 (move 9):  half 0 mean 0 (0, 0), half 1 mean 0.5 (0.5, 0.5).
     * Line 2 (move 8):  every pair -1. */
    add_pairs(&l[0], 0, 0.25, 1);
    add_pairs(&l[0], 0, 0.75, 1);
    add_pairs(&l[0], 1, -0.5, 1);
    add_pairs(&l[0], 1, 0.5, 1);
    add_pairs(&l[1], 0, 0.0, 2);
    add_pairs(&l[1], 1, 0.5, 2);
    add_pairs(&l[2], 0, -1.0, 2);
    add_pairs(&l[2], 1, -1.0, 2);
    RootAnalysis r = design_of(l, 3);
    assert_int_equal(root_estimate(&r, 0.95), 0);
    /* Means over all pairs: line 0 0.25, line 1 0.25, line 2 -1. Equal best: the first in
     * the tree's order (ascending moves), line 1 (move 9) before line 0 (move 10). */
    assert_int_equal(r.naive_line, 1);
    assert_double_equal(r.naive.value, 0.25, EPS);
    /* Line 0's interval: values 0.25, 0.75, -0.5, 0.5, mean 0.25, sample sd
     * sqrt(((0)^2 + 0.5^2 + 0.75^2 + 0.25^2) / 3) = sqrt(0.875 / 3); t(3) = 3.182446305284263. */
    double half = 3.182446305284263 * sqrt(0.875 / 3 / 4);
    assert_double_equal(r.lines[0].advantage.ci.lo, 0.25 - half, 1e-9);
    assert_double_equal(r.lines[0].advantage.ci.hi, fmin(1.0, 0.25 + half), 1e-9);
    assert_false(r.lines[0].degenerate);
    /* Line 2: every pair alike, the all-alike bound. */
    assert_true(r.lines[2].degenerate);
    assert_double_equal(r.lines[2].advantage.value, -1.0, EPS);
    /* Half 0 chooses line 0 (0.5 > 0), valued on half 1: 0. Half 1 chooses line 1 (0.5 >
     * 0), valued on half 0: 0. Held out: 0, below the naive 0.25. */
    assert_int_equal(r.held_line[0], 0);
    assert_int_equal(r.held_line[1], 1);
    assert_false(r.same_choice);
    assert_double_equal(r.held_out.value, 0.0, EPS);
    /* Its se: (var(half 1 of line 0) / 2 + var(half 0 of line 1) / 2) / 4 = (0.5 / 2 + 0) /
     * 4, var of (-0.5, 0.5) being 0.5. */
    assert_double_equal(r.held_out_se, sqrt(0.5 / 2 / 4), 1e-12);
    assert_true(r.held_out.ci.lo < 0 && r.held_out.ci.hi > 0);
    /* The first moves, ascending, each its line. */
    assert_int_equal(r.nfirst, 3);
    assert_int_equal(r.first[0].move, 8);
    assert_int_equal(r.first[2].move, 10);
    assert_int_equal(r.first[2].line, 0);
    root_free(&r);
}

/* all:2: North minimises below South's first move; where South's first move was a capture
 * by the final seed, South moves again and maximises. */
static void test_two_plies(void **state)
{
    (void)state;
    RootLine l[5];
    /* After move 1, North replies 13 or 14; after move 2 (an extra move), South plays
     * again, 3 or 4. */
    l[0] = line_of(0, 2, (int[]){ 1, 13 }, (int[]){ 0, 1 });
    l[1] = line_of(1, 2, (int[]){ 1, 14 }, (int[]){ 0, 1 });
    l[2] = line_of(2, 2, (int[]){ 2, 3 }, (int[]){ 0, 0 });
    l[3] = line_of(3, 2, (int[]){ 2, 4 }, (int[]){ 0, 0 });
    /* Means: 1-13 +0.75, 1-14 +0.25: North takes 14, node 1 is worth 0.25.
     *        2-3 -0.5, 2-4 0.0: South takes 4, node 2 is worth 0. Root: move 1, 0.25. */
    add_pairs(&l[0], 0, 0.75, 2);
    add_pairs(&l[0], 1, 0.75, 2);
    add_pairs(&l[1], 0, 0.25, 2);
    add_pairs(&l[1], 1, 0.25, 2);
    add_pairs(&l[2], 0, -0.5, 2);
    add_pairs(&l[2], 1, -0.5, 2);
    add_pairs(&l[3], 0, 0.0, 2);
    add_pairs(&l[3], 1, 0.0, 2);
    /* A line without a pair takes no part (it would be North's best reply, -1). */
    l[4] = line_of(4, 2, (int[]){ 1, 15 }, (int[]){ 0, 1 });
    RootAnalysis r = design_of(l, 5);
    assert_int_equal(root_estimate(&r, 0.95), 0);
    assert_int_equal(r.naive_line, 1);
    assert_double_equal(r.naive.value, 0.25, EPS);
    assert_true(isnan(r.lines[4].advantage.value));
    assert_int_equal(r.nfirst, 2);
    assert_int_equal(r.first[0].move, 1);
    assert_int_equal(r.first[0].line, 1);
    assert_int_equal(r.first[1].move, 2);
    assert_int_equal(r.first[1].line, 3);
    /* Every half alike: both choose line 1, valued 0.25, every pair alike (degenerate). */
    assert_true(r.same_choice);
    assert_int_equal(r.held_line[0], 1);
    assert_double_equal(r.held_out.value, 0.25, EPS);
    assert_true(r.held_out_degenerate);
    assert_true(r.held_out.ci.lo < 0.25 && r.held_out.ci.hi > 0.25);
    root_free(&r);
}

/* The winner's curse: many equal lines of noisy pairs; the naive maximum lies above their
 * common mean, the held-out value near it. Pairs drawn from a fixed generator (an LCG) so
 * the test is exact. */
static void test_bias(void **state)
{
    (void)state;
    enum { LINES = 12, PAIRS = 20, DESIGNS = 200 };
    uint64_t x = 12345;
    double naive = 0, held = 0;
    for (int d = 0; d < DESIGNS; d++) {
        RootLine l[LINES];
        for (int i = 0; i < LINES; i++) {
            l[i] = line_of(i, 1, (int[]){ i }, (int[]){ 0 });
            for (int k = 0; k < PAIRS; k++) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                /* a pair's advantage: -1, -0.5, 0, 0.5 or 1, mean 0 */
                root_add(&l[i], k % 2, ((int)((x >> 33) % 5) - 2) / 2.0);
            }
        }
        RootAnalysis r = design_of(l, LINES);
        assert_int_equal(root_estimate(&r, 0.95), 0);
        naive += r.naive.value / DESIGNS;
        held += r.held_out.value / DESIGNS;
        root_free(&r);
    }
    /* The maximum of 12 means of 20 values of sd 0.707: about 1.63 sd / sqrt(20) = 0.26. */
    assert_true(naive > 0.15);
    assert_true(fabs(held) < 0.05);
}

/* The simultaneous bounds on the minimax of the true values (root.h), against scipy
 * (tests/root_check.py's formulas, run by hand): each line's one-sided bound at Sidak's
 * level a = 1 - 0.975^(1/k), Student's t (t.ppf(1 - a, n - 1) * sd / sqrt(n)) or, where
 * the pairs are alike, the all-alike bound (p = 1 - a^(1/n)), then their minimax. */
static void test_simultaneous(void **state)
{
    (void)state;
    /* One ply, three first moves: k is 3 for the lower bounds (South free, every line),
     * 1 for the upper ones (South's best line alone). */
    static const double x[3][4] = { { 0.5, 0.0, 1.0, 0.5 },
                                    { 0.25, 0.75, 0.25, 0.75 },
                                    { -1.0, -1.0, -1.0, -1.0 } };
    RootLine l[5];
    for (int i = 0; i < 3; i++) {
        l[i] = line_of(i, 1, (int[]){ i }, (int[]){ 0 });
        for (int k = 0; k < 4; k++)
            root_add(&l[i], k % 2, x[i][k]);
    }
    RootAnalysis r = design_of(l, 3);
    assert_int_equal(root_estimate(&r, 0.95), 0);
    assert_int_equal(r.minimax_lines[0], 3);
    assert_int_equal(r.minimax_lines[1], 1);
    assert_double_equal(r.minimax_level[0], 0.9915962413403874, 1e-12);
    assert_double_equal(r.minimax_level[1], 0.975, 1e-12);
    /* Lower bounds -0.48831, -0.19884, -1: line 1's; upper 1 (clamped), 0.95935, 0.20473. */
    assert_int_equal(r.minimax_line[0], 1);
    assert_double_equal(r.minimax.lo, -0.19883781592934002, 1e-9);
    assert_int_equal(r.minimax_line[1], 0);
    assert_double_equal(r.minimax.hi, 1.0, EPS);
    root_free(&r);

    /* Two plies as test_two_plies: after move 1 North replies 13, 14 or 15 (15 without a
     * pair: bounds -1 and 1); after move 2 South plays 3 or 4. North fixed: move 1 leaves
     * one line open, move 2 two: k = 3; South fixed: move 1 leaves three (North free),
     * move 2 one: k = 3. Every line's 4 pairs alike: p = 1 - a^(1/4). */
    l[0] = line_of(0, 2, (int[]){ 1, 13 }, (int[]){ 0, 1 });
    l[1] = line_of(1, 2, (int[]){ 1, 14 }, (int[]){ 0, 1 });
    l[2] = line_of(2, 2, (int[]){ 2, 3 }, (int[]){ 0, 0 });
    l[3] = line_of(3, 2, (int[]){ 2, 4 }, (int[]){ 0, 0 });
    l[4] = line_of(4, 2, (int[]){ 1, 15 }, (int[]){ 0, 1 });
    add_pairs(&l[0], 0, 0.75, 2);
    add_pairs(&l[0], 1, 0.75, 2);
    add_pairs(&l[1], 0, 0.25, 2);
    add_pairs(&l[1], 1, 0.25, 2);
    add_pairs(&l[2], 0, -0.5, 2);
    add_pairs(&l[2], 1, -0.5, 2);
    add_pairs(&l[3], 0, 0.0, 2);
    add_pairs(&l[3], 1, 0.0, 2);
    r = design_of(l, 5);
    assert_int_equal(root_estimate(&r, 0.95), 0);
    assert_int_equal(r.minimax_lines[0], 3);
    assert_int_equal(r.minimax_lines[1], 3);
    /* Lower: move 1 min(-0.47015, -0.62153, -1) = -1, move 2 max(-0.84861, -0.69723):
     * -0.69723 (line 3). Upper: move 1 min(0.92431, 0.77292, 1) = 0.77292 (line 1), move 2
     * max(0.54584, 0.69723): 0.77292. */
    assert_int_equal(r.minimax_line[0], 3);
    assert_double_equal(r.minimax.lo, -0.69722612930589389, 1e-9);
    assert_int_equal(r.minimax_line[1], 1);
    assert_double_equal(r.minimax.hi, 0.77291959697942048, 1e-9);
    root_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_moves),
        cmocka_unit_test(test_two_plies),
        cmocka_unit_test(test_bias),
        cmocka_unit_test(test_simultaneous),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
