/* test_search_analysis.c: alpha-beta's search depth by depth (alphabeta.h, `anywoli
 * search`). On small boards under each final_four convention, once the depth reaches every
 * end of the game, its value and every root move's value equal the solver's exact ones; at
 * every depth, on those boards and the standard one, the value and the root moves' values
 * (the best alone, the best three, all) equal a plain alpha-beta's (plain_search.h); the
 * principal variation is legal when replayed, starts with a best move and is no longer than
 * the depth; and the same analysis twice gives the same values, nodes and line. */
#include "test_util.h"

#include "agent.h"
#include "alphabeta.h"
#include "eval.h"
#include "plain_search.h"
#include "solver.h"
#include "test_weights.h"

/* Boards small enough to solve and to play out to every end, under each convention; a small
 * `capture` makes captures frequent, so that from many positions no line repeats. */
static const char *const small[] = {
    "holes=2 seeds=2 capture=2",
    "holes=2 seeds=2 capture=2 final_four=first-final",
    "holes=2 seeds=2 capture=2 final_four=lottery",
    "holes=3 seeds=1 capture=2",
    "holes=3 seeds=1 capture=2 final_four=first-final",
    "holes=3 seeds=1 capture=2 final_four=lottery",
    "holes=3 seeds=2 capture=2",
    "holes=3 seeds=2 capture=2 final_four=first-final",
    "holes=3 seeds=2 capture=2 final_four=lottery",
    "holes=3 seeds=2 capture=3",
    "holes=3 seeds=2 capture=3 final_four=first-final",
    "holes=3 seeds=2 capture=3 final_four=lottery",
    "holes=4 seeds=1 capture=2",
    "holes=4 seeds=1 capture=2 final_four=first-final",
    "holes=4 seeds=1 capture=2 final_four=lottery",
    "holes=4 seeds=2 capture=2",
    "holes=4 seeds=2 capture=2 final_four=first-final",
    "holes=4 seeds=2 capture=2 final_four=lottery",
    "holes=4 seeds=2 capture=3",
    "holes=4 seeds=2 capture=3 final_four=first-final",
    "holes=4 seeds=2 capture=3 final_four=lottery",
};
#define SMALL_NB ((int)(sizeof small / sizeof small[0]))

/* The agents analysed: the command's default, every evaluation term with a tiny table
 * (slots shared everywhere: the values must not change, the line may be cut short). */
static const char *const specs[] = {
    "alphabeta:weights=plain",
    "alphabeta:weights=plain,tt=4," TW_EVERY_TERM,
};
#define SPECS_NB ((int)(sizeof specs / sizeof specs[0]))

/* Positions per small board (board_position): from many of them, a line can repeat a
 * position (seeds go round without a capture), and those are passed over. */
#define GAMES 200

/* The evaluation specs[s] plays, written out independently of the spec parser. */
static void spec_evaluator(int s, Evaluator *ev)
{
    EvalWeights w;
    eval_default(&w);
    if (s == 1)
        tw_every_term(&w);
    eval_prepare(&w, ev);
}

/* Whether two positions are the same in every field a value depends on. */
static bool same(const Variant *v, const Position *a, const Position *b)
{
    for (int i = 0; i < v->pits; i++)
        if (a->pit[i] != b->pit[i])
            return false;
    return a->store[0] == b->store[0] && a->store[1] == b->store[1] && a->side == b->side &&
           a->last_capturer == b->last_capturer && a->first_final == b->first_final;
}

/* The most plies a line from p (not over) takes to the game's end (a move that ends it or
 * is endless), or -1 if a line repeats a position (its play may never end), passes
 * ALPHABETA_MAX_DEPTH plies, or the nodes run past *budget. path[0..depth) holds the
 * positions before p. */
static int longest_line(const Variant *v, const Position *p, Position *path, int depth,
                        long *budget)
{
    if (--*budget < 0 || depth >= ALPHABETA_MAX_DEPTH)
        return -1;
    for (int i = 0; i < depth; i++)
        if (same(v, &path[i], p))
            return -1;
    path[depth] = *p;
    int most = 0;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        Position c;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, __builtin_ctzll(m), &c, &info, NULL);
        int len = 1;
        if (ev < EV_OVER) {
            int rest = longest_line(v, &c, path, depth + 1, budget);
            if (rest < 0)
                return -1;
            len += rest;
        }
        if (len > most)
            most = len;
    }
    return most;
}

/* The principal variation: at least one move and at most the depth, each legal where it is
 * played, none after the game's end, and its first move has the best value. */
static void check_pv(const Variant *v, const Position *p, const AlphabetaIteration *it,
                     const char *where)
{
    if (it->pv_len < 1 || it->pv_len > it->depth)
        fail_msg("%s, depth %d: pv of %d moves", where, it->depth, it->pv_len);
    if (it->move_value[it->pv[0]] != it->value)
        fail_msg("%s, depth %d: pv starts with %d worth %d, not the best %d", where, it->depth,
                 it->pv[0], it->move_value[it->pv[0]], it->value);
    Position c = *p;
    for (int i = 0; i < it->pv_len; i++) {
        if (pos_over(v, &c) || !(pos_legal_mask(v, &c) >> it->pv[i] & 1))
            fail_msg("%s, depth %d: pv move %d (%d) is not legal at %s", where, it->depth, i,
                     it->pv[i], tu_apn(v, &c));
        MoveInfo info;
        MoveEvent ev = pos_play(v, &c, it->pv[i], &c, &info, NULL);
        if (ev == EV_ENDLESS && i + 1 < it->pv_len)
            fail_msg("%s, depth %d: pv goes on after an endless move", where, it->depth);
    }
}

/* The root values of `exact` moves against the plain search's at it->depth: the best value,
 * each move valued exactly, and with exact > 1 every move at least as good as the exact-th
 * best valued (so the best `exact` can be listed). */
static void check_plain(const Variant *v, const Evaluator *ev, const Position *p, int exact,
                        const AlphabetaIteration *it, const char *where)
{
    int32_t want = plain_value(v, ev, p, it->depth, -PLAIN_INF, PLAIN_INF);
    if (it->value != want)
        fail_msg("%s, depth %d, %d exact: value %d, plain %d", where, it->depth, exact,
                 it->value, want);
    int32_t plain[MAX_PITS], sorted[MAX_PITS];
    int n = 0;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int move = __builtin_ctzll(m), j = n++;
        plain[move] = plain_move_value(v, ev, p, move, it->depth, -PLAIN_INF, PLAIN_INF);
        for (; j > 0 && sorted[j - 1] < plain[move]; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = plain[move];
    }
    int32_t kth = sorted[(exact < n ? exact : n) - 1];
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int move = __builtin_ctzll(m);
        int32_t got = it->move_value[move];
        if (got != ALPHABETA_NOT_EXACT && got != plain[move])
            fail_msg("%s, depth %d, %d exact: move %d worth %d, plain %d", where, it->depth,
                     exact, move, got, plain[move]);
        if (exact > 1 && got == ALPHABETA_NOT_EXACT && plain[move] >= kth)
            fail_msg("%s, depth %d, %d exact: move %d (plain %d, %d-th best %d) not valued",
                     where, it->depth, exact, move, plain[move], exact, kth);
    }
}

/* Analyse p with specs[s] from depth 1 to `depth`, `exact` root moves valued exactly: each
 * depth checked against the plain search up to plain_depth, and its line; *last receives the
 * deepest iteration. */
static void analyse(const Variant *v, const Position *p, int s, int exact, int depth,
                    int plain_depth, AlphabetaIteration *last, const char *where)
{
    Agent a;
    Error e;
    Evaluator ev;
    spec_evaluator(s, &ev);
    if (agent_create(&a, specs[s], &e) != 0)
        fail_msg("spec '%s': %s", specs[s], e.msg);
    if (alphabeta_analysis_begin(&a, v, p, &e) != 0)
        fail_msg("%s: %s", where, e.msg);
    for (int d = 1; d <= depth; d++) {
        if (!alphabeta_analysis_depth(&a, p, d, exact, 0, last))
            fail_msg("%s: depth %d stopped without a budget", where, d);
        if (last->depth != d)
            fail_msg("%s: depth %d reported as %d", where, d, last->depth);
        check_pv(v, p, last, where);
        if (d <= plain_depth)
            check_plain(v, &ev, p, exact, last, where);
    }
    agent_free(&a);
}

/* At a depth that reaches every end: the value and every move's value are the solver's. */
static void check_solved(const Variant *v, const Position *p, int s, int depth,
                         const char *where)
{
    SolveResult r;
    if (solver_solve(v, p, 1000000, &r) != SOLVE_OK)
        fail_msg("%s: the solver failed", where);
    AlphabetaIteration it;
    analyse(v, p, s, MAX_PITS, depth, depth <= 8 ? depth : 8, &it, where);
    if (it.value != r.value * EVAL_SCALE)
        fail_msg("%s (%s), depth %d: value %d, solver %d seeds", where, specs[s], depth,
                 it.value, r.value);
    for (int i = 0; i < r.n_moves; i++)
        if (it.move_value[r.moves[i].move] != r.moves[i].value * EVAL_SCALE)
            fail_msg("%s (%s), depth %d: move %d worth %d, solver %d seeds", where, specs[s],
                     depth, r.moves[i].move, it.move_value[r.moves[i].move], r.moves[i].value);
    /* The best move alone, as the command prints it without --all-moves. */
    analyse(v, p, s, 1, depth, 0, &it, where);
    if (it.value != r.value * EVAL_SCALE)
        fail_msg("%s (%s), depth %d, best alone: value %d, solver %d seeds", where, specs[s],
                 depth, it.value, r.value);
}

/* Position g of board b: the end of a random playout of g % 13 plies (0: the start), each
 * g its own stream. False if the playout ended the game first. */
static bool board_position(const Variant *v, int b, int g, Position *p)
{
    Rng r;
    rng_seed(&r, 41, (uint64_t)b, (uint64_t)g);
    pos_start(v, p);
    for (int i = 0; i < g % 13; i++) {
        MoveInfo info;
        MoveEvent e = pos_play(v, p, pos_random_move(p, &r), p, &info, NULL);
        if (e == EV_ENDLESS || pos_over(v, p))
            return false;
    }
    return true;
}

/* Small boards: exact at the depth of the longest line, where every line ends. */
static void test_small_boards_exact(void **state)
{
    (void)state;
    int solved[3] = { 0, 0, 0 };   /* by convention */
    for (int b = 0; b < SMALL_NB; b++) {
        Variant v;
        tu_variant(small[b], &v);
        for (int g = 0; g < GAMES; g++) {
            Position p, path[ALPHABETA_MAX_DEPTH + 1];
            if (!board_position(&v, b, g, &p))
                continue;
            long budget = 2000000;
            int depth = longest_line(&v, &p, path, 0, &budget);
            if (depth < 1)
                continue;   /* a line may repeat: no depth reaches every end */
            char where[600];
            snprintf(where, sizeof where, "'%s' %s", small[b], tu_apn(&v, &p));
            for (int s = 0; s < SPECS_NB; s++)
                check_solved(&v, &p, s, depth, where);
            solved[v.final_four]++;
        }
    }
    for (int c = 0; c < 3; c++)
        if (solved[c] < 40)
            fail_msg("final_four %d: only %d positions solved", c, solved[c]);
}

/* Every depth to 5 on the standard board: the best alone, the best three and every move. */
static void test_standard_board(void **state)
{
    (void)state;
    static const char *const conventions[] = { "", "final_four=first-final",
                                               "final_four=lottery" };
    for (int c = 0; c < 3; c++) {
        Variant v;
        tu_variant(conventions[c], &v);
        for (int g = 0; g < 4; g++) {
            Position p;
            if (!board_position(&v, 100 + c, g, &p))
                continue;
            char where[600];
            snprintf(where, sizeof where, "'%s' %s", conventions[c], tu_apn(&v, &p));
            static const int exact[] = { 1, 3, MAX_PITS };
            AlphabetaIteration it;
            for (int s = 0; s < SPECS_NB; s++)
                for (int k = 0; k < 3; k++)
                    analyse(&v, &p, s, exact[k], 5, 5, &it, where);
        }
    }
}

/* The same analysis twice: the same values, nodes and line at every depth; and a node
 * budget completes exactly the depths whose cumulative count stays within it. */
static void test_deterministic_and_budget(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_variant("", &v);
    pos_start(&v, &p);
    AlphabetaIteration it[2][9];
    uint64_t total = 0;
    for (int run = 0; run < 2; run++) {
        Agent a;
        Error e;
        assert_int_equal(agent_create(&a, specs[0], &e), 0);
        assert_int_equal(alphabeta_analysis_begin(&a, &v, &p, &e), 0);
        for (int d = 1; d <= 8; d++)
            assert_true(alphabeta_analysis_depth(&a, &p, d, 3, 0, &it[run][d]));
        agent_free(&a);
    }
    for (int d = 1; d <= 8; d++) {
        assert_int_equal(it[0][d].value, it[1][d].value);
        assert_int_equal(it[0][d].nodes, it[1][d].nodes);
        assert_int_equal(it[0][d].pv_len, it[1][d].pv_len);
        assert_memory_equal(it[0][d].pv, it[1][d].pv, (size_t)it[0][d].pv_len * sizeof(int));
        assert_memory_equal(it[0][d].move_value, it[1][d].move_value,
                            sizeof it[0][d].move_value);
        if (d <= 6)
            total += it[0][d].nodes;
    }
    /* A budget of exactly depths 1-6: those complete, depth 7 does not. */
    Agent a;
    Error e;
    AlphabetaIteration x;
    assert_int_equal(agent_create(&a, specs[0], &e), 0);
    assert_int_equal(alphabeta_analysis_begin(&a, &v, &p, &e), 0);
    for (int d = 1; d <= 6; d++) {
        assert_true(alphabeta_analysis_depth(&a, &p, d, 3, total, &x));
        assert_int_equal(x.nodes, it[0][d].nodes);
    }
    assert_false(alphabeta_analysis_depth(&a, &p, 7, 3, total, &x));
    agent_free(&a);
}

/* Not an alpha-beta agent, or a game already over: refused with a message. */
static void test_refusals(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_variant("", &v);
    pos_start(&v, &p);
    Agent a;
    Error e;
    assert_int_equal(agent_create(&a, "greedy", &e), 0);
    assert_int_equal(alphabeta_analysis_begin(&a, &v, &p, &e), -1);
    assert_non_null(strstr(e.msg, "not alphabeta"));
    agent_free(&a);
    tu_position("holes=2", "0,0/0,1 4/3 S S -", &v, &p);
    assert_int_equal(agent_create(&a, specs[0], &e), 0);
    assert_int_equal(alphabeta_analysis_begin(&a, &v, &p, &e), -1);
    assert_non_null(strstr(e.msg, "over"));
    agent_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_boards_exact),
        cmocka_unit_test(test_standard_board),
        cmocka_unit_test(test_deterministic_and_budget),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
