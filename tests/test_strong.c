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

/* One search of bench position i by a fresh agent of spec, or by `a` when given, from the
 * stream of `seed`. */
static int search_seeded(Agent *given, const char *spec, int i, uint64_t seed, AgentStats *st)
{
    Variant v;
    Position p;
    tu_position("", bench_positions[i], &v, &p);
    Agent own, *a = given ? given : &own;
    Error e;
    if (!given && agent_create(a, spec, &e) != 0)
        fail_msg("spec '%s': %s", spec, e.msg);
    Rng r;
    rng_seed(&r, 9, seed, (uint64_t)i);
    memset(st, 0, sizeof *st);
    if (!given)
        agent_new_game(a);
    int m = a->choose(a, &v, &p, &r, st);
    assert_true(m >= 0 && (pos_legal_mask(&v, &p) >> m & 1));
    if (!given)
        agent_free(a);
    return m;
}

/* One search of bench position i by a fresh agent of spec, or by `a` when given. */
static int search(Agent *given, const char *spec, int i, AgentStats *st)
{
    return search_seeded(given, spec, i, 0, st);
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

/* The streams the choice among near-best moves is drawn from in the tests below. */
#define CHOICE_SEEDS 40

/* The moves of root position p whose value val[move] lies within width of the best. */
static uint64_t moves_within(const Variant *v, const Position *p, const int32_t *val,
                             int32_t width, int32_t *best)
{
    *best = ALPHABETA_NOT_EXACT;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1)
        if (val[__builtin_ctzll(m)] > *best)
            *best = val[__builtin_ctzll(m)];
    uint64_t within = 0;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1)
        if (val[__builtin_ctzll(m)] != ALPHABETA_NOT_EXACT &&
            (int64_t)val[__builtin_ctzll(m)] >= (int64_t)*best - width)
            within |= 1ULL << __builtin_ctzll(m);
    return within;
}

/* Explicitly off (margin=0, temperature=0, any choice_moves), the options change nothing:
 * through a game's searches (the table kept from one to the next) the same moves, values,
 * depths, nodes and use of the stream as the plain agent, whose play bench's StrongSearch
 * signature pins down. */
static void test_choice_off_is_plain(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        { STRONG ",nodes=20000", STRONG ",nodes=20000,margin=0,temperature=0,choice_moves=3" },
        { "strong:tables=,nodes=20000", "strong:tables=,nodes=20000,margin=0" },
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        Agent a, b;
        Error e;
        if (agent_create(&a, pairs[k][0], &e) != 0 || agent_create(&b, pairs[k][1], &e) != 0)
            fail_msg("%s", e.msg);
        agent_new_game(&a);
        agent_new_game(&b);
        for (int i = 0; i < BENCH_POSITIONS; i += 2) {
            Variant v;
            Position p;
            tu_position("", bench_positions[i], &v, &p);
            Rng ra, rb;
            rng_seed(&ra, 8, k, (uint64_t)i);
            rb = ra;
            AgentStats sa = { 0, 0, 0, 0 }, sb = { 0, 0, 0, 0 };
            assert_int_equal(a.choose(&a, &v, &p, &ra, &sa), b.choose(&b, &v, &p, &rb, &sb));
            assert_true(sa.nodes == sb.nodes && sa.depth == sb.depth && sa.value == sb.value);
            assert_int_equal(ra.ctr, rb.ctr);
        }
        agent_free(&a);
        agent_free(&b);
    }
}

/* With a margin under a node budget, the choice is made from the last depth completed.
 * With the techniques that keep values exact (no table, no reductions, no seed bound; the
 * root without aspiration windows while it chooses), checked against exact values at that
 * depth: the move lies within the margin of the best, its reported value is its exact
 * value, the search is the same for every stream (ties=first), and over the streams every
 * move within the margin is chosen and no other. */
static void test_margin_exact_values(void **state)
{
    (void)state;
    static const double margins[] = { 1, 2.5, 4 };
    int several = 0;
    for (int i = 0; i < BENCH_POSITIONS; i += 2) {
        const double margin = margins[i / 2 % 3];
        const int32_t width = (int32_t)floor(margin * EVAL_SCALE + 1e-9);
        char spec[160];
        snprintf(spec, sizeof spec, STRONG ",tt=0,lmr=0,seed_bound=0,weights=plain,"
                 "nodes=15000,margin=%g", margin);
        Variant v;
        Position p;
        tu_position("", bench_positions[i], &v, &p);
        int depth = -1;
        int32_t at[MAX_PITS], best = 0;
        uint64_t within = 0, chosen = 0;
        for (uint64_t seed = 0; seed < CHOICE_SEEDS; seed++) {
            AgentStats st;
            int m = search_seeded(NULL, spec, i, seed, &st);
            if (depth < 0) {
                depth = st.depth;
                exact_values(i, depth, at);
                within = moves_within(&v, &p, at, width, &best);
            }
            assert_int_equal(st.depth, depth);
            if (!(within >> m & 1) || lround(st.value * EVAL_SCALE) != at[m])
                fail_msg("%s on bench position %d: hole %d, exact %d at depth %d (said %.2f), "
                         "best %d", spec, i, m, at[m], depth, st.value, best);
            chosen |= 1ULL << m;
        }
        if (chosen != within)
            fail_msg("%s on bench position %d: chose %#llx over %d streams, within the margin "
                     "at depth %d %#llx", spec, i, (unsigned long long)chosen, CHOICE_SEEDS,
                     depth, (unsigned long long)within);
        several += __builtin_popcountll(within) > 1;
    }
    assert_true(several >= 6);
}

/* With every technique (the table, reductions, seed bound, the learned evaluation) the
 * values are the search's own. The same spec with a temperature too cold for any but the
 * best is the very same search (the margin, and so the root's windows, unchanged) and
 * reports the best value; every stream's move lies within the margin of it, the same
 * stream gives the same move, and different streams give different moves. */
static void test_margin_own_values(void **state)
{
    (void)state;
    const char *spec = STRONG ",nodes=20000,margin=1",
               *cold_spec = STRONG ",nodes=20000,margin=1,temperature=1e-6";
    int several = 0;
    for (int i = 0; i < BENCH_POSITIONS; i += 2) {
        AgentStats cold;
        search_seeded(NULL, cold_spec, i, 0, &cold);
        const long best = lround(cold.value * EVAL_SCALE);
        uint64_t chosen = 0;
        for (uint64_t seed = 0; seed < CHOICE_SEEDS / 2; seed++) {
            AgentStats st, again;
            int m = search_seeded(NULL, spec, i, seed, &st);
            assert_true(st.nodes == cold.nodes && st.depth == cold.depth);
            if (lround(st.value * EVAL_SCALE) < best - EVAL_SCALE ||
                lround(st.value * EVAL_SCALE) > best)
                fail_msg("%s on bench position %d, stream %d: hole %d valued %.2f, the best "
                         "%.2f", spec, i, (int)seed, m, st.value, cold.value);
            assert_int_equal(search_seeded(NULL, spec, i, seed, &again), m);
            assert_true(again.value == st.value && again.nodes == st.nodes);
            chosen |= 1ULL << m;
        }
        several += __builtin_popcountll(chosen) > 1;
    }
    assert_true(several >= 4);
}

/* With choice_moves=N the choice is made in the agent's first N moves of a game only: the
 * next move is the plain agent's from the same stream (no table, so that nothing else
 * carries over between searches), and a new game counts afresh. */
static void test_choice_moves(void **state)
{
    (void)state;
    Agent a, plain;
    Error e;
    if (agent_create(&a, "strong:tables=,tt=0,nodes=5000,margin=4,choice_moves=2", &e) != 0 ||
        agent_create(&plain, "strong:tables=,tt=0,nodes=5000", &e) != 0)
        fail_msg("%s", e.msg);
    int first = 0, third = 0;
    for (int i = 0; i < BENCH_POSITIONS; i += 4) {
        Variant v;
        Position p;
        tu_position("", bench_positions[i], &v, &p);
        uint64_t first_moves = 0, third_moves = 0;
        for (int r = 0; r < CHOICE_SEEDS; r++) {
            Rng ra, rp;
            rng_seed(&ra, 6, (uint64_t)i, (uint64_t)r);
            AgentStats st = { 0, 0, 0, 0 };
            agent_new_game(&a);
            int m1 = a.choose(&a, &v, &p, &ra, &st);
            a.choose(&a, &v, &p, &ra, &st);
            rp = ra;
            int m3 = a.choose(&a, &v, &p, &ra, &st);
            assert_int_equal(m3, plain.choose(&plain, &v, &p, &rp, &st));
            assert_int_equal(ra.ctr, rp.ctr);
            agent_new_game(&a);
            rng_seed(&ra, 6, (uint64_t)i, (uint64_t)r);
            assert_int_equal(a.choose(&a, &v, &p, &ra, &st), m1);
            first_moves |= 1ULL << m1;
            third_moves |= 1ULL << m3;
        }
        first += __builtin_popcountll(first_moves);
        third += __builtin_popcountll(third_moves);
    }
    assert_true(first > third);
    agent_free(&a);
    agent_free(&plain);
}

/* The choices are the same whatever the number of threads searching at once: each agent
 * and stream is its own, and nothing is shared between them. */
static void test_choice_any_threads(void **state)
{
    (void)state;
    enum { POSITIONS = BENCH_POSITIONS / 4, SEEDS = 6, N = POSITIONS * SEEDS };
    static int moves[3][N];
    static double values[3][N];
    Variant v;
    Position pos[POSITIONS];
    for (int i = 0; i < POSITIONS; i++)
        tu_position("", bench_positions[4 * i], &v, &pos[i]);
    for (int t = 1; t <= 3; t++) {
#pragma omp parallel for num_threads(t) schedule(dynamic)
        for (int k = 0; k < N; k++) {
            Agent a;
            Error e;
            Rng r;
            AgentStats st = { 0, 0, 0, 0 };
            moves[t - 1][k] = -1;
            if (agent_create(&a, "strong:tables=,nodes=8000,margin=1,choice_moves=20", &e) != 0)
                continue;
            agent_new_game(&a);
            rng_seed(&r, 3, 0, (uint64_t)(k % SEEDS));
            moves[t - 1][k] = a.choose(&a, &v, &pos[k / SEEDS], &r, &st);
            values[t - 1][k] = st.value;
            agent_free(&a);
        }
    }
    for (int k = 0; k < N; k++) {
        assert_true(moves[0][k] >= 0);
        for (int t = 1; t < 3; t++)
            assert_true(moves[t][k] == moves[0][k] && values[t][k] == values[0][k]);
    }
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
        cmocka_unit_test(test_choice_off_is_plain),
        cmocka_unit_test(test_margin_exact_values),
        cmocka_unit_test(test_margin_own_values),
        cmocka_unit_test(test_choice_moves),
        cmocka_unit_test(test_choice_any_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
