/* test_solver.c: the exact solver against a plain exhaustive search written here (every
 * reachable position of small variants whose game tree is small), against the cycle rule
 * solved another way (threshold Büchi games on every reachable position), the consistency
 * of its values (each is the best over the moves of the child's value, negated when the side
 * to move changes), composed puzzles (a forced win, a winning sacrifice, a convention that
 * decides the winner), and the state cap. */
#include "test_util.h"

#include <limits.h>

#include "solver.h"
#include "margin.h"

/* Small variants: every convention, with and without extra moves. */
static const char *const small[] = {
    "holes=2 seeds=2",
    "holes=2 seeds=2 final_four=first-final",
    "holes=2 seeds=2 final_four=lottery",
    "holes=3 seeds=1",
    "holes=3 seeds=1 final_four=lottery",
    "holes=3 seeds=2",
    "holes=3 seeds=2 final_four=first-final",
    "holes=3 seeds=2 final_four=lottery",
    "holes=3 seeds=2 extra_turn=no",
    "holes=2 seeds=3 skip_origin=yes",
};
#define SMALL_NB ((int)(sizeof small / sizeof small[0]))

/* Room for the reachable positions of the small variants. */
#define MAX_REACH 200000

/* Whether two positions are the same in every field that matters. */
static bool same(const Variant *v, const Position *a, const Position *b)
{
    for (int i = 0; i < v->pits; i++)
        if (a->pit[i] != b->pit[i])
            return false;
    return a->store[0] == b->store[0] && a->store[1] == b->store[1] && a->side == b->side
           && a->last_capturer == b->last_capturer && a->first_final == b->first_final;
}

/* The final margin of an ended game for its last mover, written plainly from the rules. */
static int plain_final(const Variant *v, const Position *p)
{
    int score[2] = { p->store[SOUTH], p->store[NORTH] };
    int to = p->last_capturer;
    if (v->final_four == FF_FIRST_FINAL && p->first_final != NOBODY)
        to = p->first_final;
    if (v->final_four == FF_LOTTERY)
        score[SOUTH] += 0;          /* half each way: the expectation is the store difference */
    else
        score[to] += p->left;
    return score[p->side] - score[!p->side];
}

/* A plain negamax to the end of the game, in which a position repeated on the path ends the
 * game at its store difference (the cycle rule, played as a first-cycle game, whose value is
 * that of the game played forever); *rep says one was met, *budget runs down with the nodes. */
static int plain(const Variant *v, const Position *p, Position *path, int depth, bool *rep,
                 long *budget)
{
    if (pos_over(v, p))
        return plain_final(v, p);
    for (int i = 0; i < depth; i++) {
        if (same(v, &path[i], p)) {
            *rep = true;
            return p->store[p->side] - p->store[!p->side];
        }
    }
    if (--*budget < 0 || depth >= 200)
        return 0;
    path[depth] = *p;
    int best = INT_MIN;
    for (int m = 0; m < v->pits; m++) {
        if (!(pos_legal_mask(v, p) >> m & 1))
            continue;
        Position c;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, m, &c, &info, NULL);
        int x = ev == EV_ENDLESS ? p->store[p->side] - p->store[!p->side]
                                 : plain(v, &c, path, depth + 1, rep, budget);
        if (ev != EV_ENDLESS && c.side != p->side)
            x = -x;
        if (x > best)
            best = x;
    }
    return best;
}

/* Every position reachable from the start of v (not over), into out; returns how many. */
static int reachable(const Variant *v, Position *out)
{
    int n = 1;
    pos_start(v, &out[0]);
    for (int i = 0; i < n; i++) {
        for (uint64_t m = pos_legal_mask(v, &out[i]); m; m &= m - 1) {
            Position c;
            MoveInfo info;
            if (pos_play(v, &out[i], __builtin_ctzll(m), &c, &info, NULL) == EV_ENDLESS
                || pos_over(v, &c))
                continue;
            int j = 0;
            while (j < n && !same(v, &out[j], &c))
                j++;
            if (j == n) {
                assert_true(n < MAX_REACH);
                out[n++] = c;
            }
        }
    }
    return n;
}

/* The solver's value of p, which must be solvable. */
static int solve(const Variant *v, const Position *p, SolveResult *r)
{
    assert_int_equal(solver_solve(v, p, 1000000, r), SOLVE_OK);
    return r->value;
}

/* The solver agrees with the plain search on every reachable position without repetitions. */
static void test_plain_search(void **state)
{
    (void)state;
    Position *pos = malloc(MAX_REACH * sizeof *pos), path[200];
    assert_non_null(pos);
    int compared = 0, cyclic = 0, skipped = 0;
    for (int k = 0; k < SMALL_NB; k++) {
        Variant v;
        tu_variant(small[k], &v);
        int n = reachable(&v, pos);
        for (int i = 0; i < n; i++) {
            bool rep = false;
            long budget = 2000;
            int x = plain(&v, &pos[i], path, 0, &rep, &budget);
            if (budget < 0) {
                skipped++;
                continue;
            }
            cyclic += rep;
            SolveResult r;
            if (solve(&v, &pos[i], &r) != x)
                fail_msg("%s: %s: solver %d, plain search %d", small[k], tu_apn(&v, &pos[i]),
                         r.value, x);
            compared++;
        }
    }
    print_message("plain search: %d positions compared (%d with repetitions), %d too large\n",
                  compared, cyclic, skipped);
    assert_true(compared > 60);
    free(pos);
}

/* The value of move m of p, from the value of what it leads to. */
static int move_value(const Variant *v, const Position *p, int m)
{
    Position c;
    MoveInfo info;
    SolveResult r;
    MoveEvent ev = pos_play(v, p, m, &c, &info, NULL);
    if (ev == EV_ENDLESS)
        return margin_stores(p);
    int x = ev == EV_OVER ? plain_final(v, &c) : solve(v, &c, &r);
    return c.side == p->side ? x : -x;
}

/* value(p) is the best of its moves' values, and each move's reported value is right. */
static void test_consistency(void **state)
{
    (void)state;
    Position *pos = malloc(MAX_REACH * sizeof *pos);
    assert_non_null(pos);
    for (int k = 0; k < SMALL_NB; k++) {
        Variant v;
        tu_variant(small[k], &v);
        int n = reachable(&v, pos);
        for (int i = 0; i < n; i++) {
            SolveResult r;
            int value = solve(&v, &pos[i], &r), best = INT_MIN;
            for (int j = 0; j < r.n_moves; j++) {
                int x = move_value(&v, &pos[i], r.moves[j].move);
                if (x != r.moves[j].value)
                    fail_msg("%s: %s move %d: %d, its child says %d", small[k],
                             tu_apn(&v, &pos[i]), r.moves[j].move, r.moves[j].value, x);
                assert_true(j == 0 || r.moves[j - 1].value >= x);
                best = x > best ? x : best;
            }
            assert_int_equal(r.n_moves, __builtin_popcountll(pos_legal_mask(&v, &pos[i])));
            assert_int_equal(value, best);
        }
    }
    free(pos);
}

/* The moves of every reachable position, for the Büchi check: a child's index, or -1 and
 * the exit's value for South (a move that ends the game, or an endless one). */
typedef struct Moves {
    int n;
    int child[MAX_PITS];
    int exit_south[MAX_PITS];
} Moves;

/* South's store difference of p. */
static int south_stores(const Position *p)
{
    return p->store[SOUTH] - p->store[NORTH];
}

/* The moves of pos[i] among the n reachable positions. */
static void list_moves(const Variant *v, const Position *pos, int n, int i, Moves *mv)
{
    mv->n = 0;
    for (uint64_t m = pos_legal_mask(v, &pos[i]); m; m &= m - 1, mv->n++) {
        Position c;
        MoveInfo info;
        MoveEvent ev = pos_play(v, &pos[i], __builtin_ctzll(m), &c, &info, NULL);
        mv->child[mv->n] = -1;
        if (ev == EV_ENDLESS) {
            mv->exit_south[mv->n] = south_stores(&pos[i]);
        } else if (ev == EV_OVER) {
            int x = plain_final(v, &c);
            mv->exit_south[mv->n] = c.side == SOUTH ? x : -x;
        } else {
            int j = 0;
            while (j < n && !same(v, &pos[j], &c))
                j++;
            assert_true(j < n);
            mv->child[mv->n] = j;
        }
    }
}

/* One round of an attractor for `who` within the nodes not `out`: adds to set[] every node
 * whose owner can (or whose opponent must) move into set[] or to an exit good for `who`
 * (for South: worth at least t; for North: less); moves into out[] count as bad for South
 * and good for North. Returns whether it added any. */
static bool attract_round(const Position *pos, const Moves *mv, int n, int who, int t,
                          const bool *out, bool *set)
{
    bool added = false;
    for (int i = 0; i < n; i++) {
        if (out[i] || set[i])
            continue;
        int good = 0;
        for (int k = 0; k < mv[i].n; k++) {
            int c = mv[i].child[k];
            bool g = c < 0 ? (mv[i].exit_south[k] >= t) == (who == SOUTH)
                           : set[c] || (out[c] && who == NORTH);
            good += g;
        }
        if (pos[i].side == who ? good > 0 : good == mv[i].n) {
            set[i] = true;
            added = true;
        }
    }
    return added;
}

/* Whether South can force a final margin of at least t from each position, as a Büchi game
 * (a play that never ends stays, in the end, at one store difference, so "at least t
 * forever after" is "positions with store difference >= t infinitely often"), solved by the
 * classical algorithm: remove North's attractor of what cannot reach those positions until
 * nothing is removed. win[] receives South's winning set. */
static void buchi(const Position *pos, const Moves *mv, int n, int t, bool *win)
{
    bool *lost = calloc((size_t)n, 1), *set = calloc((size_t)n, 1);
    assert_true(lost && set);
    for (bool more = true; more;) {
        for (int i = 0; i < n; i++)
            set[i] = !lost[i] && south_stores(&pos[i]) >= t;
        while (attract_round(pos, mv, n, SOUTH, t, lost, set))
            ;
        bool any = false;
        for (int i = 0; i < n; i++) {
            set[i] = !lost[i] && !set[i];   /* South cannot reach the good positions */
            any |= set[i];
        }
        while (attract_round(pos, mv, n, NORTH, t, lost, set))
            ;
        for (int i = 0; i < n; i++)
            lost[i] |= set[i];
        more = any;
    }
    for (int i = 0; i < n; i++)
        win[i] = !lost[i];
    free(lost);
    free(set);
}

/* The solver agrees with the Büchi games' thresholds on every reachable position. */
static void test_buchi(void **state)
{
    (void)state;
    Position *pos = malloc(MAX_REACH * sizeof *pos);
    assert_non_null(pos);
    for (int k = 0; k < SMALL_NB; k++) {
        Variant v;
        tu_variant(small[k], &v);
        int n = reachable(&v, pos);
        Moves *mv = malloc((size_t)n * sizeof *mv);
        int *value = malloc((size_t)n * sizeof *value);
        bool *win = malloc((size_t)n);
        assert_true(mv && value && win);
        for (int i = 0; i < n; i++) {
            list_moves(&v, pos, n, i, &mv[i]);
            value[i] = -v.total - 1;
        }
        for (int t = -v.total; t <= v.total; t++) {
            buchi(pos, mv, n, t, win);
            for (int i = 0; i < n; i++)
                if (win[i])
                    value[i] = t;
        }
        for (int i = 0; i < n; i++) {
            SolveResult r;
            int x = solve(&v, &pos[i], &r);
            if ((pos[i].side == SOUTH ? x : -x) != value[i])
                fail_msg("%s: %s: solver %d, Buchi games %d (for South)", small[k],
                         tu_apn(&v, &pos[i]), x, value[i]);
        }
        free(mv);
        free(value);
        free(win);
    }
    free(pos);
}

/* The plain search's value of a composed position, which must stay within its budget. */
static int plain_value(const Variant *v, const Position *p)
{
    Position path[200];
    bool rep = false;
    long budget = 1000000;
    int x = plain(v, p, path, 0, &rep, &budget);
    assert_true(budget >= 0);
    return x;
}

/* A forced win for South in a few moves: only hole 1 wins (by 12 seeds, every one of them);
 * hole 2 loses by 4. */
static void test_puzzle_forced_win(void **state)
{
    (void)state;
    Variant v;
    Position p;
    SolveResult r;
    tu_position("holes=3", "0,2,2/0,2,2 4/0 S S -", &v, &p);
    assert_int_equal(solve(&v, &p, &r), 12);
    assert_int_equal(plain_value(&v, &p), 12);
    assert_int_equal(r.n_moves, 2);
    assert_int_equal(r.moves[0].move, 1);
    assert_int_equal(r.moves[1].move, 2);
    assert_int_equal(r.moves[1].value, -4);
    assert_true(r.states >= 4);   /* not a one-move win */
}

/* The plain search with alpha-beta pruning: the same first-cycle game and the same value
 * (pruning changes no minimax value of a finite tree), for puzzles too deep to search whole.
 * An extra move or a pass keeps the window, as it keeps the sign. */
static int plain_pruned(const Variant *v, const Position *p, Position *path, int depth,
                        int alpha, int beta, long *budget)
{
    if (pos_over(v, p))
        return plain_final(v, p);
    for (int i = 0; i < depth; i++)
        if (same(v, &path[i], p))
            return p->store[p->side] - p->store[!p->side];
    if (--*budget < 0 || depth >= 200)
        return 0;
    path[depth] = *p;
    int best = INT_MIN;
    for (uint64_t m = pos_legal_mask(v, p); m && best < beta; m &= m - 1) {
        Position c;
        MoveInfo info;
        int a = best > alpha ? best : alpha, x;
        MoveEvent ev = pos_play(v, p, __builtin_ctzll(m), &c, &info, NULL);
        if (ev == EV_ENDLESS)
            x = p->store[p->side] - p->store[!p->side];
        else if (c.side == p->side)
            x = plain_pruned(v, &c, path, depth + 1, a, beta, budget);
        else
            x = -plain_pruned(v, &c, path, depth + 1, -beta, -a, budget);
        if (x > best)
            best = x;
    }
    return best;
}

/* The only winning move sacrifices seeds: from the start of 4 holes x 3 seeds, South wins by
 * 8 only with hole 3, whose sowing captures four for South but fills two of North's holes to
 * four, eight seeds for North; every other first move draws. */
static void test_puzzle_sacrifice(void **state)
{
    (void)state;
    Variant v;
    Position p, after, path[200];
    SolveResult r;
    MoveInfo info;
    tu_position("holes=4 seeds=3", "3,3,3,3/3,3,3,3 0/0 S - -", &v, &p);
    assert_int_equal(solve(&v, &p, &r), 8);
    assert_int_equal(r.moves[0].move, 3);
    for (int i = 1; i < r.n_moves; i++)
        assert_int_equal(r.moves[i].value, 0);
    pos_play(&v, &p, 3, &after, &info, NULL);
    assert_int_equal(after.store[SOUTH], 4);
    assert_int_equal(after.store[NORTH], 8);
    long budget = 20000000;
    assert_int_equal(plain_pruned(&v, &p, path, 0, -1000, 1000, &budget), 8);
    assert_true(budget >= 0);
}

/* The convention decides the winner: North's best move (3) captures four and ends the game
 * with four left, which go to North, the last capturer, under penultimate (North wins by 4)
 * and to South, who made the first final-seed capture, under first-final (South by 4). */
static void test_puzzle_convention(void **state)
{
    (void)state;
    const char *apn = "1,0,1/3,3,0 4/0 N S S";
    static const struct { const char *opts; int value; } cases[] = {
        { "holes=3 final_four=penultimate", 4 },
        { "holes=3 final_four=first-final", -4 },
    };
    for (int i = 0; i < 2; i++) {
        Variant v;
        Position p;
        SolveResult r;
        tu_position(cases[i].opts, apn, &v, &p);
        assert_int_equal(solve(&v, &p, &r), cases[i].value);
        assert_int_equal(plain_value(&v, &p), cases[i].value);
    }
}

/* A finished position is worth its final margin; the state cap says too large. */
static void test_over_and_cap(void **state)
{
    (void)state;
    Variant v;
    Position p;
    SolveResult r;
    tu_position("", "0,0,0,1/0,1,1,1 12/16 S N S", &v, &p);   /* over: North gets the 3 */
    assert_int_equal(solver_solve(&v, &p, 10, &r), SOLVE_OK);
    assert_int_equal(r.value, 12 - 20);
    tu_variant("", &v);
    pos_start(&v, &p);
    assert_int_equal(solver_solve(&v, &p, 1000, &r), SOLVE_TOO_LARGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_search),
        cmocka_unit_test(test_consistency),
        cmocka_unit_test(test_buchi),
        cmocka_unit_test(test_puzzle_forced_win),
        cmocka_unit_test(test_puzzle_sacrifice),
        cmocka_unit_test(test_puzzle_convention),
        cmocka_unit_test(test_over_and_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
