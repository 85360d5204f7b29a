/* test_strong.c: the strong player (agents/alphabeta.c, strong_kind) on bench's positions:
 * its moves are legal and a pure function of (position, stream) within its node budget; a
 * new game leaves nothing of the last one (a fresh agent plays the same); its table kept
 * through a game saves work when a position comes again; the late move reductions search
 * fewer nodes to a depth and reach deeper within a budget; weights=learned plays; a budget
 * that ends inside a depth plays a move that exact values at both depths stand by. Its values
 * with the techniques that keep them are checked against a plain search in test_search.c. */
#include <math.h>

#include "test_util.h"

#include "agent.h"
#include "alphabeta.h"
#include "bench_positions.h"
#include "eval.h"

/* A strong spec without tables, so that no test depends on the cache folder. */
#define STRONG "strong:tables=,ties=first"

/* One search of bench position i by a fresh agent of spec, or by `a` when given. */
static int search(Agent *given, const char *spec, int i, AgentStats *st)
{
    Variant v;
    Position p;
    tu_position("", bench_positions[i], &v, &p);
    Agent own, *a = given ? given : &own;
    Error e;
    if (!given && agent_create(a, spec, &e) != 0)
        fail_msg("spec '%s': %s", spec, e.msg);
    Rng r;
    rng_seed(&r, 9, 0, (uint64_t)i);
    memset(st, 0, sizeof *st);
    if (!given)
        agent_new_game(a);
    int m = a->choose(a, &v, &p, &r, st);
    assert_true(m >= 0 && (pos_legal_mask(&v, &p) >> m & 1));
    if (!given)
        agent_free(a);
    return m;
}

/* Legal, the same twice, within the budget (a node's children are played before the budget
 * is looked at again, so it is passed by at most a few rows of them). */
static void test_budget_and_repeat(void **state)
{
    (void)state;
    for (int i = 0; i < BENCH_POSITIONS; i += 3) {
        AgentStats a, b;
        int m1 = search(NULL, STRONG ",nodes=20000", i, &a);
        int m2 = search(NULL, STRONG ",nodes=20000", i, &b);
        assert_int_equal(m1, m2);
        assert_true(a.nodes == b.nodes && a.depth == b.depth && a.value == b.value);
        assert_true(a.nodes <= 20000 + 64 * MAX_PITS);
        assert_true(a.depth >= 4);
    }
}

/* A game played before, then agent_new_game: the search is a fresh agent's. */
static void test_new_game_forgets(void **state)
{
    (void)state;
    Agent a;
    Error e;
    if (agent_create(&a, STRONG ",nodes=30000", &e) != 0)
        fail_msg("%s", e.msg);
    agent_new_game(&a);
    AgentStats st, fresh;
    for (int i = 0; i < 6; i++)
        search(&a, NULL, i, &st);
    agent_new_game(&a);
    int m = search(&a, NULL, 7, &st);
    agent_free(&a);
    assert_int_equal(m, search(NULL, STRONG ",nodes=30000", 7, &fresh));
    assert_true(st.nodes == fresh.nodes && st.value == fresh.value);
}

/* Within a game the table is kept: the same position searched again to the same depth
 * costs fewer nodes than the first time. */
static void test_table_kept_in_a_game(void **state)
{
    (void)state;
    for (int i = 0; i < BENCH_POSITIONS; i += 8) {
        Agent a;
        Error e;
        if (agent_create(&a, STRONG ",nodes=0,depth=8", &e) != 0)
            fail_msg("%s", e.msg);
        agent_new_game(&a);
        AgentStats first, again;
        search(&a, NULL, i, &first);
        search(&a, NULL, i, &again);
        agent_free(&a);
        assert_true(again.nodes < first.nodes);
    }
}

/* Late move reductions: fewer nodes to depth 8, and deeper within 50,000 nodes, summed over
 * the positions. */
static void test_reductions_pay(void **state)
{
    (void)state;
    uint64_t with = 0, without = 0;
    long deep_with = 0, deep_without = 0;
    for (int i = 0; i < BENCH_POSITIONS; i += 4) {
        AgentStats st;
        search(NULL, STRONG ",nodes=0,depth=8,lmr=1", i, &st);
        with += st.nodes;
        search(NULL, STRONG ",nodes=0,depth=8,lmr=0", i, &st);
        without += st.nodes;
        search(NULL, STRONG ",nodes=50000,lmr=1", i, &st);
        deep_with += st.depth;
        search(NULL, STRONG ",nodes=50000,lmr=0", i, &st);
        deep_without += st.depth;
    }
    assert_true(with < without);
    assert_true(deep_with > deep_without);
}

/* The learned evaluation plays (legal moves within the budget). */
static void test_learned_plays(void **state)
{
    (void)state;
    for (int i = 0; i < BENCH_POSITIONS; i += 8) {
        AgentStats st;
        search(NULL, STRONG ",nodes=20000,weights=learned", i, &st);
        assert_true(st.nodes > 0 && st.nodes <= 20000 + 64 * MAX_PITS);
    }
}

/* Every root move's exact value at `depth` from bench position i, with the plain weights
 * (an analysis of all of them). */
static void exact_values(int i, int depth, int32_t *val)
{
    Variant v;
    Position p;
    tu_position("", bench_positions[i], &v, &p);
    Agent a;
    Error e;
    if (agent_create(&a, "alphabeta:ties=first,weights=plain", &e) != 0 ||
        alphabeta_analysis_begin(&a, &v, &p, &e) != 0)
        fail_msg("%s", e.msg);
    AlphabetaIteration it;
    assert_true(alphabeta_analysis_depth(&a, &p, depth, MAX_PITS, 0, &it));
    memcpy(val, it.move_value, sizeof it.move_value);
    agent_free(&a);
}

/* A budget that ends inside a depth plays a move the search can stand by: the best of the
 * last depth completed, or one that the unfinished depth searched to the end and found at
 * least as good as that best; and it reports the last completed depth's value. Checked with the techniques that keep values exact (no table,
 * no reductions, no seed bound: the aspiration windows alone), against exact values at both
 * depths, at every 700 nodes from 1,000 to 40,000 on every bench position, so that budgets
 * run out in searches again after a window failed, low or high. (A search that failed low
 * once moved an arbitrary move to the front: bench position 5 at 19,900 nodes played a move
 * worse at both depths.) */
static void test_budget_cut_plays_a_searched_move(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < BENCH_POSITIONS; i += 1) {
        /* Exact values by depth, each computed once for the position's many budgets. */
        static int32_t exact[ALPHABETA_MAX_DEPTH + 2][MAX_PITS];
        bool have[ALPHABETA_MAX_DEPTH + 2] = { false };
        for (int budget = 1000; budget <= 40000; budget += 700) {
            char spec[160];
            snprintf(spec, sizeof spec, STRONG ",tt=0,lmr=0,seed_bound=0,weights=plain,"
                     "nodes=%d", budget);
            AgentStats st;
            int m = search(NULL, spec, i, &st);
            assert_true(st.depth >= 1 && st.depth < ALPHABETA_MAX_DEPTH);
            for (int d = st.depth; d <= st.depth + 1; d++)
                if (!have[d]) {
                    exact_values(i, d, exact[d]);
                    have[d] = true;
                }
            const int32_t *at = exact[st.depth], *next = exact[st.depth + 1];
            int32_t best = ALPHABETA_NOT_EXACT, floor = INT32_MAX;
            for (int k = 0; k < MAX_PITS; k++)
                best = at[k] > best ? at[k] : best;
            for (int k = 0; k < MAX_PITS; k++)
                if (at[k] == best && at[k] != ALPHABETA_NOT_EXACT && next[k] < floor)
                    floor = next[k];
            /* The value it reports is the last completed depth's. */
            if (lround(st.value * EVAL_SCALE) != best)
                fail_msg("bench position %d, %d nodes: value %.2f at depth %d, exact %d",
                         i, budget, st.value, st.depth, best);
            if (at[m] != best && next[m] < floor)
                fail_msg("bench position %d, %d nodes: played hole %d, %d at depth %d (best "
                         "%d) and %d at depth %d (the best's %d)", i, budget, m, at[m],
                         st.depth, best, next[m], st.depth + 1, floor);
            checked++;
        }
    }
    assert_true(checked == BENCH_POSITIONS * 56);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_and_repeat),
        cmocka_unit_test(test_new_game_forgets),
        cmocka_unit_test(test_table_kept_in_a_game),
        cmocka_unit_test(test_reductions_pay),
        cmocka_unit_test(test_learned_plays),
        cmocka_unit_test(test_budget_cut_plays_a_searched_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
