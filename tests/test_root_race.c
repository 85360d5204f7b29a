/* test_root_race.c: the adaptive root design's racing (analysis/root_race.h) on hand-built
 * line trees: a dominated line goes out and the next round's pairs go to the lines in; a near
 * tie keeps both; North's node puts out the reply worst for it (for South); the half-width
 * rule stops where it says; a pair off the schedule is refused; the rule's text. Worked
 * numbers: with K lines at round r the intervals are at 1 - 0.05 / (K (r + 1) (r + 2)); n
 * pairs all alike at v give [v - p (v + 1), v + p (1 - v)], p = 1 - (delta / 2)^(1 / n). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "root_race.h"

/* A line of the given plies and movers (0 South, 1 North). */
static RootLine line_of(int n, const int *moves, const int *movers)
{
    RootLine l;
    memset(&l, 0, sizeof l);
    l.n_moves = n;
    for (int k = 0; k < n; k++) {
        l.moves[k] = moves[k];
        l.mover[k] = (int8_t)movers[k];
    }
    return l;
}

/* Play the race's current round: each pair of line i gets value[i] when its count within the
 * line is even, alt[i] when odd. */
static void play_round(RootRace *r, const double *value, const double *alt)
{
    int round = r->round;
    int64_t end = r->round_end;
    int *seen = calloc((size_t)r->nlines, sizeof *seen);
    assert_non_null(seen);
    while (r->next_pair < end && !r->stop && r->round == round) {
        int64_t p = r->next_pair;
        int line = root_race_line(r, p);
        assert_true(line >= 0);
        double x = seen[line]++ % 2 ? alt[line] : value[line];
        assert_int_equal(root_race_pair(r, p, line, true, x), 0);
    }
    free(seen);
}

static const RootRule rule20 = { 20, 1.0, 0.95 };

/* South's three first moves: +1 every pair, -1 every pair, 1 and 0 alternately. After round
 * 0 (20 pairs each, delta 0.05 / 6): line 0 [0.52, 1], line 1 [-1, -0.52], line 2 0.5 with
 * t(19) 3.0 x 0.115: [0.16, 0.84]. Line 1 is out (its U below the root's L, 0.52), line 2 in;
 * round 1 plays lines 0 and 2 in turn. */
static void test_dominated_out(void **state)
{
    (void)state;
    int s[1] = { 0 };
    RootLine l[3];
    for (int i = 0; i < 3; i++) {
        int m[1] = { i };
        l[i] = line_of(1, m, s);
    }
    RootRace r;
    assert_int_equal(root_race_init(&r, &rule20, l, 3), 0);
    assert_int_equal(r.round_end, 60);
    assert_int_equal(root_race_line(&r, 0), 0);
    assert_int_equal(root_race_line(&r, 4), 1);
    double v[3] = { 1, -1, 1 }, alt[3] = { 1, -1, 0 };
    play_round(&r, v, alt);
    assert_int_equal(r.round, 1);
    assert_int_equal(r.out_round[1], 0);
    assert_int_equal(r.out_round[0], -1);
    assert_int_equal(r.out_round[2], -1);
    assert_true(r.ci[1].hi < r.ci[0].lo);
    assert_true(r.ci[2].hi > r.ci[0].lo);
    assert_int_equal(r.best, 0);
    assert_int_equal(r.nin, 2);
    assert_int_equal(r.round_first[1], 60);
    assert_int_equal(r.round_end, 100);
    assert_int_equal(root_race_line(&r, 60), 0);
    assert_int_equal(root_race_line(&r, 61), 2);
    assert_int_equal(root_race_line(&r, 62), 0);
    assert_int_equal(root_race_line(&r, 100), -1);
    /* a pair off the schedule, or out of order, is refused and counts nothing */
    assert_int_equal(root_race_pair(&r, 60, 1, true, 1.0), ROOT_RACE_MISMATCH);
    assert_int_equal(root_race_pair(&r, 61, 2, true, 1.0), ROOT_RACE_MISMATCH);
    assert_int_equal(r.next_pair, 60);
    /* a copy goes on as the original */
    RootRace c;
    assert_int_equal(root_race_copy(&c, &r), 0);
    play_round(&r, v, alt);
    play_round(&c, v, alt);
    assert_int_equal(c.round, r.round);
    assert_int_equal(c.next_pair, r.next_pair);
    assert_memory_equal(c.out_round, r.out_round, 3 * sizeof *r.out_round);
    assert_true(c.root.lo == r.root.lo && c.root.hi == r.root.hi);
    root_race_free(&c);
    root_race_free(&r);
}

/* Two lines alike (1 and 0 alternately): neither can be put out, round after round. */
static void test_near_tie(void **state)
{
    (void)state;
    int s[1] = { 0 }, m0[1] = { 3 }, m1[1] = { 7 };
    RootLine l[2] = { line_of(1, m0, s), line_of(1, m1, s) };
    RootRace r;
    assert_int_equal(root_race_init(&r, &rule20, l, 2), 0);
    double v[2] = { 1, 1 }, alt[2] = { 0, 0.25 };
    for (int k = 0; k < 3; k++)
        play_round(&r, v, alt);
    assert_int_equal(r.round, 3);
    assert_int_equal(r.out_round[0], -1);
    assert_int_equal(r.out_round[1], -1);
    assert_int_equal(r.nin, 2);
    assert_int_equal(r.stop, ROOT_RACING);
    root_race_free(&r);
}

/* all:2 with North's replies: S0 then N0 (+1 every pair) or N1 (-1 every pair); S1 then N0
 * (1 and 0 alternately). North's node under S0 puts out N0 (its L 0.52 above the node's U,
 * -0.52); S0 is then worth [-1, -0.52], below S1's L (0.16): out too. Only S1 N0 is in. */
static void test_north_node(void **state)
{
    (void)state;
    int sn[2] = { 0, 1 };
    int a[2] = { 0, 0 }, b[2] = { 0, 1 }, c[2] = { 1, 0 };
    RootLine l[3] = { line_of(2, a, sn), line_of(2, b, sn), line_of(2, c, sn) };
    RootRace r;
    assert_int_equal(root_race_init(&r, &rule20, l, 3), 0);
    double v[3] = { 1, -1, 1 }, alt[3] = { 1, -1, 0 };
    play_round(&r, v, alt);
    assert_int_equal(r.out_round[0], 0);
    assert_int_equal(r.out_round[1], 0);
    assert_int_equal(r.out_round[2], -1);
    assert_int_equal(r.nin, 1);
    assert_int_equal(r.best, 2);
    assert_true(r.root.lo == r.ci[2].lo && r.root.hi == r.ci[2].hi);
    root_race_free(&r);
}

/* One line, every pair +0.5, rule 4 pairs a round and a half-width of 50 points: after round
 * 0 (n 4, delta 0.025) p = 1 - 0.0125^(1/4) = 0.666: [-0.50, 0.83], half-width 66.6, on;
 * after round 1 (n 8, delta 0.05 / 6) p = 1 - (0.05 / 12)^(1/8) = 0.496: half-width 49.6,
 * stop at pair 8. */
static void test_halfwidth_stop(void **state)
{
    (void)state;
    int s[1] = { 0 }, m[1] = { 2 };
    RootLine l = line_of(1, m, s);
    RootRule rule = { 4, 50.0, 0.95 };
    RootRace r;
    assert_int_equal(root_race_init(&r, &rule, &l, 1), 0);
    double v[1] = { 0.5 };
    play_round(&r, v, v);
    assert_int_equal(r.stop, ROOT_RACING);
    assert_int_equal(r.round, 1);
    assert_true(fabs((r.root.hi - r.root.lo) / 2 - (1 - pow(0.0125, 0.25))) < 1e-9);
    play_round(&r, v, v);
    assert_int_equal(r.stop, ROOT_STOP_HALFWIDTH);
    assert_int_equal(r.round, 1);
    assert_int_equal(r.next_pair, 8);
    assert_true(fabs((r.root.hi - r.root.lo) / 2 - (1 - pow(0.05 / 12, 0.125))) < 1e-9);
    assert_int_equal(root_race_line(&r, 8), -1);
    assert_int_equal(root_race_pair(&r, 8, 0, true, 0.5), ROOT_RACE_MISMATCH);
    root_race_free(&r);
}

/* A pair left out (an unfinished game) keeps its place in the schedule and counts nothing. */
static void test_left_out(void **state)
{
    (void)state;
    int s[1] = { 0 }, m[1] = { 2 };
    RootLine l = line_of(1, m, s);
    RootRule rule = { 2, 1.0, 0.95 };
    RootRace r;
    assert_int_equal(root_race_init(&r, &rule, &l, 1), 0);
    assert_int_equal(root_race_pair(&r, 0, 0, false, 0.0), 0);
    assert_int_equal(root_race_pair(&r, 1, 0, true, 1.0), 0);
    assert_int_equal(r.round, 1);
    assert_int_equal(r.sum[0].n, 1);
    root_race_free(&r);
}

static void test_rule_text(void **state)
{
    (void)state;
    RootRule r;
    char why[200], text[64];
    assert_int_equal(root_rule_parse("4,10", &r, why, sizeof why), 0);
    assert_int_equal(r.round_pairs, 4);
    assert_true(r.halfwidth == 10.0 && r.confidence == 0.95);
    root_rule_text(&r, text, sizeof text);
    assert_string_equal(text, "4,10,0.95");
    assert_int_equal(root_rule_parse("8, 12.5, 0.9", &r, why, sizeof why), 0);
    assert_true(r.halfwidth == 12.5 && r.confidence == 0.9);
    assert_int_equal(root_rule_parse("1,10", &r, why, sizeof why), -1);
    assert_int_equal(root_rule_parse("4,0", &r, why, sizeof why), -1);
    assert_int_equal(root_rule_parse("4,10,1", &r, why, sizeof why), -1);
    assert_int_equal(root_rule_parse("4,10,0.9,3", &r, why, sizeof why), -1);
    assert_int_equal(root_rule_parse("4", &r, why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dominated_out),  cmocka_unit_test(test_near_tie),
        cmocka_unit_test(test_north_node),     cmocka_unit_test(test_halfwidth_stop),
        cmocka_unit_test(test_left_out),       cmocka_unit_test(test_rule_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
