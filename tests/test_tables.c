/* test_tables.c: endgame tables. The ranking of placements is a bijection; on small
 * variants (every convention, with and without extra moves, skipping the origin) the tables
 * agree on every stored position with the graph solver and, where its tree is small, with a
 * plain exhaustive search written here, seen from either side and with either last
 * capturer; every value is the best of its moves (the consistency property), on the
 * standard board too; the build is the same for 1 and 2 threads; files go and come back
 * whole, and damaged or mismatched ones are refused with a clear message; the solver with
 * tables and the prover agree with the solver without them, move by move; alpha-beta with
 * tables plays perfectly on every covered position sampled.
 *
 * `test_tables fast` runs the quick sizes (seconds under the sanitizers), `test_tables slow`
 * larger ones. */
#include "test_util.h"

#include <limits.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "prover.h"
#include "solver.h"
#include "tables.h"
#include "margin.h"

static bool slow;

/* Small variants, each with the K its tables are built to. */
typedef struct Case {
    const char *opts;
    int k;
} Case;

static const Case fast_cases[] = {
    { "holes=2 seeds=2", 8 },
    { "holes=2 seeds=3 final_four=first-final", 8 },
    { "holes=2 seeds=3 final_four=lottery", 8 },
    { "holes=3 seeds=2", 6 },
    { "holes=3 seeds=2 final_four=first-final", 6 },
    { "holes=3 seeds=2 final_four=lottery", 6 },
    { "holes=3 seeds=2 extra_turn=no", 6 },
    { "holes=2 seeds=3 skip_origin=yes", 9 },
    { "holes=3 seeds=3 capture=3", 5 },
};

static const Case slow_cases[] = {
    { "holes=2 seeds=3 final_four=first-final", 12 },
    { "holes=2 seeds=3 final_four=lottery", 12 },
    { "holes=3 seeds=2", 12 },
    { "holes=3 seeds=2 final_four=first-final", 12 },
    { "holes=3 seeds=2 final_four=lottery", 12 },
    { "holes=3 seeds=2 extra_turn=no", 12 },
    { "holes=3 seeds=3", 12 },
    { "holes=3 seeds=3 capture=3", 10 },
    { "holes=4 seeds=2", 8 },
    { "holes=4 seeds=2 final_four=first-final skip_origin=yes", 7 },
};

#define N_ELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Build the tables of a case; fails the test on error. */
static Tables *build(const char *opts, int k, Variant *v)
{
    Tables *t;
    Error e;
    tu_variant(opts, v);
    if (tables_build(v, k, NULL, NULL, &t, &e) != 0)
        fail_msg("%s K=%d: %s", opts, k, e.msg);
    return t;
}

/* The position of a placement (own row first) with `side` to move, convention state cs,
 * and the captured seeds split between the stores (`north_store` of them North's). */
static bool make_position(const Variant *v, const uint16_t *board, int L, int side, int cs,
                          int last, int north_store, Position *p)
{
    memset(p, 0, sizeof *p);
    int turn = side == SOUTH ? 0 : v->holes;
    for (int i = 0; i < v->pits; i++)
        p->pit[(i + turn) % v->pits] = board[i];
    int captured = v->total - L;
    if (north_store > captured)
        north_store = captured;
    p->left = (uint16_t)L;
    p->store[NORTH] = (uint16_t)north_store;
    p->store[SOUTH] = (uint16_t)(captured - north_store);
    p->side = (int8_t)side;
    p->last_capturer = (int8_t)(captured ? last : NOBODY);
    int ff = cs == 0 ? NOBODY : cs == 1 ? side : !side;
    if (ff != NOBODY && !captured)
        return false;   /* no capture yet: nobody made a final one */
    p->first_final = (int8_t)ff;
    pos_set_masks(v, p);
    return !pos_over(v, p) && (p->legal != 0) && pos_ok(v, p);
}

/* Call f on every position the tables store (each placement whose side to move has seeds,
 * each convention state), seen from South and from North, with either last capturer. */
typedef void (*Visit)(const Variant *v, const Tables *t, const Position *p, void *ctx);
static long each_position(const Variant *v, const Tables *t, int stride, Visit f, void *ctx)
{
    Ranking r;
    assert_int_equal(ranking_init(&r, v->pits, tables_max_seeds(t)), 0);
    long n = 0;
    for (int L = tables_first_level(t); L <= tables_max_seeds(t); L++) {
        uint16_t board[MAX_PITS];
        ranking_unrank(&r, 0, L, board);
        uint64_t k = 0;
        do {
            for (int cs = 0; cs < tables_conv_states(t); cs++) {
                for (int side = 0; side < 2; side++) {
                    int last = (int)((k + (uint64_t)side) % 2);
                    Position p;
                    if ((k + (uint64_t)cs) % (uint64_t)stride == 0
                        && make_position(v, board, L, side, cs, last, (int)(k % 5), &p)) {
                        f(v, t, &p, ctx);
                        n++;
                    }
                }
            }
            k++;
        } while (ranking_next(&r, board));
    }
    ranking_free(&r);
    return n;
}

/* Ranking: every rank unranks to a placement of s seeds that ranks back to it, in order
 * (next gives the following rank), and the counts are binomial coefficients. */
static void test_ranking(void **state)
{
    (void)state;
    static const int sizes[][2] = { { 1, 5 }, { 2, 0 }, { 4, 6 }, { 6, 7 }, { 8, 5 }, { 24, 4 } };
    for (int c = 0; c < N_ELEMS(sizes); c++) {
        int n = sizes[c][0];
        Ranking r;
        assert_int_equal(ranking_init(&r, n, 8), 0);
        for (int s = 0; s <= sizes[c][1]; s++) {
            uint64_t count = ranking_count(&r, s);
            uint16_t a[MAX_PITS], b[MAX_PITS];
            ranking_unrank(&r, 0, s, a);
            for (uint64_t k = 0; k < count; k++) {
                ranking_unrank(&r, k, s, b);
                assert_memory_equal(a, b, (size_t)n * sizeof a[0]);
                int sum = 0;
                for (int i = 0; i < n; i++)
                    sum += b[i];
                assert_int_equal(sum, s);
                assert_int_equal(ranking_rank(&r, b, s), k);
                assert_int_equal(ranking_next(&r, a), k + 1 < count);
            }
        }
        ranking_free(&r);
    }
    Ranking r;
    assert_int_equal(ranking_init(&r, 24, 12), 0);
    assert_int_equal(ranking_count(&r, 8), 7888725);       /* C(31, 8) */
    assert_int_equal(ranking_count(&r, 12), 834451800);    /* C(35, 12) */
    ranking_free(&r);
}

/* A hash of a board, to compare positions on the path quickly. */
static uint64_t board_hash(const Variant *v, const Position *p)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)p->side ^ (uint64_t)p->store[0] << 8
                 ^ (uint64_t)(p->first_final + 1) << 24;
    for (int i = 0; i < v->pits; i++)
        h = (h ^ p->pit[i]) * 0x100000001b3ULL;
    return h;
}

/* A plain negamax to the end of the game with alpha-beta pruning (which changes no value of
 * a finite tree), a position repeated on the path ending the game at its store difference
 * (the cycle rule as a first-cycle game); *budget runs down. An extra move or a pass keeps
 * the window, as it keeps the sign. */
static int plain(const Variant *v, const Position *p, Position *path, uint64_t *hash,
                 int depth, int alpha, int beta, long *budget)
{
    if (pos_over(v, p))
        return margin_final(v, p);
    uint64_t h = board_hash(v, p);
    for (int i = 0; i < depth; i++)
        if (hash[i] == h && memcmp(path[i].pit, p->pit, sizeof p->pit) == 0
            && path[i].side == p->side && path[i].store[0] == p->store[0]
            && path[i].first_final == p->first_final)
            return margin_stores(p);
    if (--*budget < 0 || depth >= 100)
        return 0;
    path[depth] = *p;
    hash[depth] = h;
    int best = INT_MIN;
    for (uint64_t m = pos_legal_mask(v, p); m && best < beta; m &= m - 1) {
        Position c;
        MoveInfo info;
        int a = best > alpha ? best : alpha, x;
        MoveEvent ev = pos_play(v, p, __builtin_ctzll(m), &c, &info, NULL);
        if (ev == EV_ENDLESS)
            x = margin_stores(p);
        else if (c.side == p->side)
            x = plain(v, &c, path, hash, depth + 1, a, beta, budget);
        else
            x = -plain(v, &c, path, hash, depth + 1, -beta, -a, budget);
        best = x > best ? x : best;
    }
    return best;
}

/* What the comparisons counted. */
typedef struct Tally {
    const char *opts;
    long solver, plain;
} Tally;

/* One position: the tables against the graph solver, and the plain search if small. */
static void compare_one(const Variant *v, const Tables *t, const Position *p, void *ctx)
{
    Tally *tally = ctx;
    SolveResult r;
    assert_int_equal(solver_solve(v, p, 2000000, &r), SOLVE_OK);
    int x = tables_value(t, p);
    if (x != r.value)
        fail_msg("%s: %s: tables %d, solver %d", tally->opts, tu_apn(v, p), x, r.value);
    tally->solver++;
    if (!slow && tally->solver % 3 != 0)
        return;   /* the plain search on every third position only (fast) */
    Position path[100];
    uint64_t hash[100];
    long budget = slow ? 10000 : 3000;   /* nodes: positions past it are not compared */
    int y = plain(v, p, path, hash, 0, -1000, 1000, &budget);
    if (budget >= 0) {
        if (x != y)
            fail_msg("%s: %s: tables %d, plain search %d", tally->opts, tu_apn(v, p), x, y);
        tally->plain++;
    }
}

/* Every stored position of the small variants: tables = solver = plain search. */
static void test_against_search(void **state)
{
    (void)state;
    const Case *cases = slow ? slow_cases : fast_cases;
    int n = slow ? N_ELEMS(slow_cases) : N_ELEMS(fast_cases);
    for (int c = 0; c < n; c++) {
        Variant v;
        Tables *t = build(cases[c].opts, cases[c].k, &v);
        Tally tally = { cases[c].opts, 0, 0 };
        long visited = each_position(&v, t, 1, compare_one, &tally);
        print_message("%s K=%d: %ld positions, all against the solver, %ld against the plain "
                      "search\n", cases[c].opts, cases[c].k, tally.solver, tally.plain);
        assert_true(visited > 100 && tally.plain > visited / (slow ? 100 : 60));
        tables_free(t);
    }
}

/* The value of move m of p for its side to move, from what the tables say of its child. */
static int move_value(const Variant *v, const Tables *t, const Position *p, int m)
{
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(v, p, m, &c, &info, NULL);
    if (ev == EV_ENDLESS)
        return margin_stores(p);
    if (ev == EV_OVER)
        return margin_final(v, &c);   /* for c.side, the mover */
    return c.side == p->side ? tables_value(t, &c) : -tables_value(t, &c);
}

/* One position: its value is the best over its moves of what the move leads to. */
static void consistent_one(const Variant *v, const Tables *t, const Position *p, void *ctx)
{
    (void)ctx;
    int best = INT_MIN;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int x = move_value(v, t, p, __builtin_ctzll(m));
        best = x > best ? x : best;
    }
    if (tables_value(t, p) != best)
        fail_msg("%s: tables %d, best move %d", tu_apn(v, p), tables_value(t, p), best);
}

/* The consistency property on small variants and the standard board. */
static void test_consistency(void **state)
{
    (void)state;
    static const Case fast[] = {
        { "", 5 },
        { "final_four=first-final", 5 },
        { "variant=yit-nuri final_four=lottery", 6 },
        { "holes=3 seeds=3 extra_turn=no", 10 },
    };
    static const Case more[] = {
        { "", 7 },
        { "final_four=first-final", 6 },
        { "variant=yit-jani final_four=lottery", 7 },
        { "holes=5 seeds=3 skip_origin=yes", 10 },
    };
    const Case *cases = slow ? more : fast;
    for (int c = 0; c < 4; c++) {
        Variant v;
        Tables *t = build(cases[c].opts, cases[c].k, &v);
        long n = each_position(&v, t, c < 3 ? (slow ? 3 : 11) : 1, consistent_one, NULL);
        print_message("consistency %s K=%d: %ld positions\n", cases[c].opts, cases[c].k, n);
        tables_free(t);
    }
}

/* tables_move_value, what `tables agree` judges moves by. A hand-checked position (holes=3
 * seeds=3, South to move, stores 6/6): hole 1 sows into 2 and 3, whose fourth seed is the
 * lap's last, a final-seed capture; 2 seeds are left, to South, the last capturer: +6. Hole
 * 0 sows into 1 (3 seeds: a relay), then 2, 3 (4 seeds, not the last: North's mid-sow
 * capture) and 4 (empty: the turn passes); 2 seeds are left, to North: -6. Then, on every
 * stored position of two variants, each move's value is the independent move_value above. */
static void move_value_one(const Variant *v, const Tables *t, const Position *p, void *ctx)
{
    (void)ctx;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        if (tables_move_value(t, p, k) != move_value(v, t, p, k))
            fail_msg("%s: move %d: tables_move_value %d, expected %d", tu_apn(v, p), k,
                     tables_move_value(t, p, k), move_value(v, t, p, k));
    }
}

static void test_move_value(void **state)
{
    (void)state;
    Variant v, w;
    Tables *t = build("holes=3 seeds=3", 9, &v);
    Position p;
    tu_position("holes=3 seeds=3", "1,2,0/3,0,0 6/6 S - -", &w, &p);
    assert_true(tables_covers(t, &p));
    assert_int_equal(tables_value(t, &p), 6);
    assert_int_equal(tables_move_value(t, &p, 1), 6);
    assert_int_equal(tables_move_value(t, &p, 0), -6);
    tu_position("holes=3 seeds=3", "3,0,0/1,2,0 6/6 N - -", &w, &p);   /* North's mirror */
    assert_int_equal(tables_move_value(t, &p, 4), 6);
    assert_int_equal(tables_move_value(t, &p, 3), -6);
    assert_true(each_position(&v, t, 7, move_value_one, NULL) > 1000);
    tables_free(t);
    t = build("holes=2 seeds=3 final_four=first-final", 8, &v);
    assert_true(each_position(&v, t, 1, move_value_one, NULL) > 1000);
    tables_free(t);
}

/* Build the tables of a case with build options o; fails the test on error. */
static Tables *build_with(const char *opts, int k, const TablesBuildOptions *o, Variant *v)
{
    Tables *t;
    Error e;
    tu_variant(opts, v);
    if (tables_build_with(v, k, TABLES_ALL_LEVELS, o, NULL, NULL, &t, &e) != 0)
        fail_msg("%s K=%d: %s", opts, k, e.msg);
    return t;
}

/* The same values, byte for byte, as a. */
static void expect_same_tables(const Tables *a, const Tables *b)
{
    assert_int_equal(tables_positions(a), tables_positions(b));
    assert_int_equal(tables_checksum(a), tables_checksum(b));
}

/* The same tables for 1, 2 and 3 threads, the last with tiny work files (many buckets, a
 * window of one list: the lists read again and again). */
static void test_threads(void **state)
{
    (void)state;
    Variant v;
    const char *opts = "variant=yit-nuri final_four=first-final";
    const TablesBuildOptions tiny = { .bucket_size = 1000, .window_bytes = 1 };
    omp_set_num_threads(1);   /* level 7 (3 x 77520 positions) is large enough for threads */
    Tables *a = build(opts, 7, &v);
    omp_set_num_threads(2);
    Tables *b = build(opts, 7, &v);
    expect_same_tables(a, b);
    tables_free(b);
    omp_set_num_threads(3);
    b = build_with(opts, 7, &tiny, &v);
    expect_same_tables(a, b);
    tables_free(b);
    omp_set_num_threads(2);
    tables_free(a);
}

/* Bucket sizes and windows, from the smallest up, give the same values as the defaults, on
 * variants whose levels have lists of many lengths (first-final: three values a placement). */
static void test_work_files(void **state)
{
    (void)state;
    static const TablesBuildOptions knobs[] = {
        { .bucket_size = 1, .window_bytes = 1 },
        { .bucket_size = 7, .window_bytes = 1024 },
        { .bucket_size = 64, .window_bytes = 4096 },
        { .bucket_size = 1 << 24, .window_bytes = 1 << 20 },
    };
    for (int c = 0; c < N_ELEMS(fast_cases); c++) {
        Variant v;
        Tables *a = build(fast_cases[c].opts, fast_cases[c].k, &v);
        for (int k = 0; k < N_ELEMS(knobs); k++) {
            Tables *b = build_with(fast_cases[c].opts, fast_cases[c].k, &knobs[k], &v);
            expect_same_tables(a, b);
            tables_free(b);
        }
        tables_free(a);
    }
}

/* A work directory that cannot hold files: TABLES_IO_ERROR, a message naming it. */
static void test_work_dir_error(void **state)
{
    (void)state;
    Variant v;
    tu_variant("holes=2 seeds=2", &v);
    const TablesBuildOptions o = { .work_dir = "/nonexistent/anywoli-work" };
    Tables *t = NULL;
    Error e;
    assert_int_equal(tables_build_with(&v, 8, TABLES_ALL_LEVELS, &o, NULL, NULL, &t, &e),
                     TABLES_IO_ERROR);
    assert_null(t);
    assert_string_equal(e.msg, "/nonexistent/anywoli-work: cannot create a work file (No such "
                               "file or directory)");
}

/* The two claims that let a level be solved over placements, every convention state at
 * once (tables_build.c): what a move does to the board, the stores, the side to move and
 * the event is the same whoever made the first final-seed capture, the move only recording
 * the first if none is yet; and a move that stays on the level (captures nothing) keeps who
 * made it. */
static void state_claims_one(const Variant *v, const Tables *t, const Position *p, void *ctx)
{
    (void)t;
    long *inner = ctx;
    Position q = *p;
    q.first_final = NOBODY;
    for (uint64_t m = p->legal; m; m &= m - 1) {
        Position c, d;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, __builtin_ctzll(m), &c, &info, NULL);
        assert_int_equal(pos_play(v, &q, __builtin_ctzll(m), &d, &info, NULL), ev);
        if (p->first_final != NOBODY) {
            assert_int_equal(c.first_final, p->first_final);
            d.first_final = p->first_final;
        }
        assert_memory_equal(c.pit, d.pit, sizeof c.pit);
        assert_memory_equal(c.store, d.store, sizeof c.store);
        assert_int_equal(c.side, d.side);
        assert_int_equal(c.left, d.left);
        assert_int_equal(c.first_final, d.first_final);
        if (ev == EV_ENDLESS || ev == EV_OVER || c.left != p->left)
            continue;
        assert_int_equal(c.first_final, p->first_final);
        ++*inner;
    }
}

static void test_state_claims(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "holes=3 seeds=2 final_four=first-final",
        "holes=2 seeds=3 final_four=first-final extra_turn=no",
        "holes=3 seeds=2 final_four=first-final skip_origin=yes",
    };
    for (int c = 0; c < N_ELEMS(variants); c++) {
        Variant v;
        Tables *t = build(variants[c], 8, &v);
        long inner = 0;
        assert_true(each_position(&v, t, 1, state_claims_one, &inner) > 1000);
        assert_true(inner > 1000);
        tables_free(t);
    }
}

/* Tables of several conventions of one board built together (tables_build_set): each the
 * same, byte for byte, as its own build, in any order of the conventions, for every level
 * or the reachable ones, for 1 and 2 threads. */
static void test_build_set(void **state)
{
    (void)state;
    static const Case boards[] = {
        { "holes=2 seeds=3", 8 },
        { "holes=3 seeds=2", 8 },
        { "holes=3 seeds=2 extra_turn=no", 8 },
        { "holes=2 seeds=3 skip_origin=yes", 9 },
        { "holes=3 seeds=3 capture=3", 6 },
        { "variant=yit-nuri", 8 },
    };
    static const FinalFour orders[][FF_NB] = {
        { FF_PENULTIMATE, FF_FIRST_FINAL, FF_LOTTERY },
        { FF_LOTTERY, FF_FIRST_FINAL, FF_PENULTIMATE },
        { FF_FIRST_FINAL, FF_PENULTIMATE, FF_LOTTERY },
    };
    for (int c = 0; c < N_ELEMS(boards); c++) {
        for (int which = 0; which < 2; which++) {
            TablesLevels levels = which ? TABLES_REACHABLE_LEVELS : TABLES_ALL_LEVELS;
            Variant v;
            tu_variant(boards[c].opts, &v);
            Tables *alone[FF_NB];
            Error e;
            for (int f = 0; f < FF_NB; f++) {
                Variant vf = v;
                vf.final_four = (FinalFour)f;
                int rc = tables_build_with(&vf, boards[c].k, levels, NULL, NULL, NULL,
                                           &alone[f], &e);
                if (rc != 0)
                    fail_msg("%s: %s", boards[c].opts, e.msg);
            }
            for (int o = 0; o < N_ELEMS(orders); o++) {
                int n = o == 0 ? FF_NB : 2 + o % 2;
                omp_set_num_threads(1 + o % 2);
                Tables *set[FF_NB];
                assert_int_equal(tables_build_set(&v, orders[o], n, boards[c].k, levels, NULL,
                                                  NULL, NULL, set, &e), 0);
                for (int k = 0; k < n; k++) {
                    assert_int_equal(tables_variant(set[k])->final_four, orders[o][k]);
                    expect_same_tables(alone[orders[o][k]], set[k]);
                    tables_free(set[k]);
                }
            }
            omp_set_num_threads(2);
            for (int f = 0; f < FF_NB; f++)
                tables_free(alone[f]);
        }
    }
    Variant v;
    tu_variant("holes=2 seeds=2", &v);
    static const FinalFour twice[] = { FF_LOTTERY, FF_PENULTIMATE, FF_LOTTERY };
    Tables *set[FF_NB];
    Error e;
    assert_int_equal(tables_build_set(&v, twice, 3, 8, TABLES_ALL_LEVELS, NULL, NULL, NULL, set,
                                      &e), -1);
    assert_string_equal(e.msg, "the convention lottery is asked for twice");
    assert_int_equal(tables_build_set(&v, twice, 0, 8, TABLES_ALL_LEVELS, NULL, NULL, NULL, set,
                                      &e), -1);
}

/* The largest in-degree a level's lists meet, from the progress reports. */
static void note_indegree(const TablesLevelReport *r, void *ctx)
{
    int *most = ctx;
    *most = r->max_indegree > *most ? r->max_indegree : *most;
}

/* A placement with more moves into it than the build can count is an error naming the
 * level and the count, and no tables (reached here with a lower limit: on real boards the
 * most seen is 42, on K = 12's level 12, of the 255 a byte holds); at the limit itself the
 * build goes through. */
static void test_indegree_limit(void **state)
{
    (void)state;
    Variant v;
    tu_variant("variant=yit-nuri", &v);
    int most = 0;
    Tables *t = NULL;
    Error e;
    assert_int_equal(tables_build_with(&v, 8, TABLES_ALL_LEVELS, NULL, note_indegree, &most, &t,
                                       &e), 0);
    assert_true(most > 2);
    uint64_t sum = tables_checksum(t);
    tables_free(t);
    TablesBuildOptions at = { .max_indegree = (unsigned)most };
    assert_int_equal(tables_build_with(&v, 8, TABLES_ALL_LEVELS, &at, NULL, NULL, &t, &e), 0);
    assert_int_equal(tables_checksum(t), sum);
    tables_free(t);
    TablesBuildOptions below = { .max_indegree = (unsigned)most - 1 };
    t = NULL;
    assert_int_equal(tables_build_with(&v, 8, TABLES_ALL_LEVELS, &below, NULL, NULL, &t, &e), -1);
    assert_null(t);
    char want[160];
    snprintf(want, sizeof want, "moves into it from its level, more than the %d the build can "
             "hold", most - 1);
    if (!strstr(e.msg, want) || strncmp(e.msg, "level ", 6) != 0)
        fail_msg("unexpected message: %s", e.msg);
}

/* Open path, expecting failure with a message containing `want`. */
static void expect_refused(const char *path, const char *want)
{
    Tables *t;
    Error e;
    assert_int_equal(tables_open(path, &t, &e), -1);
    if (!strstr(e.msg, want) || !strstr(e.msg, path) || strchr(e.msg, '\n'))
        fail_msg("%s: message '%s' lacks '%s'", path, e.msg, want);
}

/* Copy file a to b with the byte at `at` xored with 1 (at < 0: none) and cut at `len`. */
static void copy_damaged(const char *a, const char *b, long at, long len)
{
    FILE *in = fopen(a, "rb"), *out = fopen(b, "wb");
    assert_non_null(in);
    assert_non_null(out);
    int ch;
    for (long i = 0; (ch = fgetc(in)) != EOF && i < len; i++)
        fputc(i == at ? ch ^ 1 : ch, out);
    fclose(in);
    fclose(out);
}

/* The checksum of docs/tables.md, written from its text (not the program's copy), so that a
 * test can forge a file whose checksums hold. */
static uint64_t doc_checksum(const uint8_t *x, uint64_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint64_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        for (uint64_t b = 0; b < 8 && i + b < n; b++)
            w |= (uint64_t)x[i + b] << (8 * b);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 32;
    }
    uint64_t z = h ^ n;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Store x little-endian at p. */
static void put_le64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}

/* The whole of file a (*size bytes), malloc'd. */
static uint8_t *read_file(const char *a, long *size)
{
    FILE *in = fopen(a, "rb");
    assert_non_null(in);
    assert_int_equal(fseek(in, 0, SEEK_END), 0);
    *size = ftell(in);
    rewind(in);
    uint8_t *buf = malloc((size_t)*size);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)*size, in), (size_t)*size);
    fclose(in);
    return buf;
}

/* Write size bytes of buf as file b, and free buf. */
static void write_file(const char *b, uint8_t *buf, long size)
{
    FILE *out = fopen(b, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(buf, 1, (size_t)size, out), (size_t)size);
    fclose(out);
    free(buf);
}

/* Copy tables file a to b with value `at` set to `value`, both checksums made to hold. */
static void copy_forged_value(const char *a, const char *b, long at, int value)
{
    long size;
    uint8_t *buf = read_file(a, &size);
    buf[4096 + at] = (uint8_t)(int8_t)value;
    put_le64(buf + 80, doc_checksum(buf + 4096, (uint64_t)size - 4096));
    put_le64(buf + 4088, doc_checksum(buf, 4088));
    write_file(b, buf, size);
}

/* Values beyond |value| <= L with valid checksums are refused, naming level and position;
 * FIFOs, folders and devices are refused at once, never waited on. */
static void test_file_untrusted(void **state)
{
    (void)state;
    char dir[] = "/tmp/anywoli-tables-XXXXXX", path[128], bad[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.tb", dir);
    snprintf(bad, sizeof bad, "%s/bad.tb", dir);
    Variant v;
    Tables *t = build("holes=3 seeds=2 final_four=first-final", 8, &v), *u;
    Error e;
    assert_int_equal(tables_save(t, path, &e), 0);
    tables_free(t);
    /* The forgery itself is sound: a legal value with both checksums redone opens. */
    copy_forged_value(path, bad, 100, 0);
    assert_int_equal(tables_open(bad, &u, &e), 0);
    tables_free(u);
    /* Level 5 (capture 4 + 1) holds 3 x 252 values: index 100 is on it. */
    copy_forged_value(path, bad, 100, 127);
    expect_refused(bad, "damaged values (level 5, position 100: 127, expected -5 to 5)");
    copy_forged_value(path, bad, 100, -128);
    expect_refused(bad, "damaged values (level 5, position 100: -128, expected -5 to 5)");
    copy_forged_value(path, bad, 100, 6);
    expect_refused(bad, "level 5, position 100: 6");
    unlink(bad);
    char fifo[160];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect_refused(fifo, "not a regular file (a FIFO)");
    expect_refused(dir, "not a regular file (a folder)");
    expect_refused("/dev/null", "not a regular file (a character device)");
    unlink(fifo);
    unlink(path);
    rmdir(dir);
}

/* A file comes back whole; damaged, truncated, foreign or mismatched files are refused. */
static void test_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/anywoli-tables-XXXXXX", path[128], bad[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.tb", dir);
    snprintf(bad, sizeof bad, "%s/bad.tb", dir);
    Variant v;
    Tables *t = build("holes=3 seeds=2 final_four=first-final", 8, &v), *u;
    Error e;
    assert_int_equal(tables_save(t, path, &e), 0);
    char partial[160];
    snprintf(partial, sizeof partial, "%s.partial", path);
    assert_int_equal(access(partial, F_OK), -1);
    assert_int_equal(tables_open(path, &u, &e), 0);
    assert_int_equal(tables_checksum(u), tables_checksum(t));
    assert_int_equal(tables_positions(u), tables_positions(t));
    assert_int_equal(tables_max_seeds(u), 8);
    assert_int_equal(tables_check_variant(u, &v, path, &e), 0);
    /* The same values through the file. */
    Position p;
    tu_position("holes=3 seeds=2 final_four=first-final", "1,0,2/0,3,1 4/1 N S N", &v, &p);
    assert_int_equal(tables_value(u, &p), tables_value(t, &p));
    /* Another variant. */
    Variant w;
    tu_variant("holes=3 seeds=2", &w);
    assert_int_equal(tables_check_variant(u, &w, path, &e), -1);
    assert_non_null(strstr(e.msg, "final_four=first-final"));
    assert_non_null(strstr(e.msg, "not holes=3"));
    tu_variant("holes=3 seeds=2 final_four=first-final max_plies=50", &w);
    assert_int_equal(tables_check_variant(u, &w, path, &e), 0);
    tables_free(u);
    long size = 4096 + (long)tables_positions(t);
    copy_damaged(path, bad, 4096 + 100, size);
    expect_refused(bad, "damaged values");
    copy_damaged(path, bad, 30, size);
    expect_refused(bad, "damaged header");
    copy_damaged(path, bad, -1, size - 1);
    expect_refused(bad, "expected");
    copy_damaged(path, bad, 3, size);
    expect_refused(bad, "not an Anywoli tables file");
    copy_damaged(path, bad, -1, 10);
    expect_refused(bad, "not an Anywoli tables file");
    snprintf(bad, sizeof bad, "%s/missing.tb", dir);
    expect_refused(bad, "cannot open");
    /* An unwritable place leaves nothing behind. */
    snprintf(bad, sizeof bad, "%s/no/such/dir.tb", dir);
    assert_int_equal(tables_save(t, bad, &e), -1);
    assert_non_null(strstr(e.msg, "cannot create"));
    /* A link at the name is never written through: the file it names keeps its bytes. */
    snprintf(bad, sizeof bad, "%s/link.tb", dir);
    assert_int_equal(symlink(path, bad), 0);
    assert_int_equal(tables_save(t, bad, &e), -1);
    assert_non_null(strstr(e.msg, "link.tb: cannot create: File exists"));
    assert_int_equal(tables_open(path, &u, &e), 0);
    tables_free(u);
    unlink(bad);
    tables_free(t);
    unlink(path);
    snprintf(bad, sizeof bad, "%s/bad.tb", dir);
    unlink(bad);
    rmdir(dir);
}

/* Bad K is refused. */
static void test_bad_k(void **state)
{
    (void)state;
    Variant v;
    Tables *t;
    Error e;
    tu_variant("holes=2 seeds=2", &v);
    assert_int_equal(tables_build(&v, 4, NULL, NULL, &t, &e), -1);
    assert_non_null(strstr(e.msg, "out of range"));
    assert_int_equal(tables_build(&v, 9, NULL, NULL, &t, &e), -1);
}

/* The solver with tables: the same value and move values as without, on every position
 * reachable from the start (seen from the start's graph, sampled). */
static void test_solver_with_tables(void **state)
{
    (void)state;
    static const Case cases[] = {
        { "holes=4 seeds=2", 8 },
        { "holes=3 seeds=3 final_four=first-final", 9 },
        { "holes=4 seeds=2 final_four=lottery", 6 },
    };
    for (int c = 0; c < N_ELEMS(cases); c++) {
        Variant v;
        Tables *t = build(cases[c].opts, cases[c].k, &v);
        Position p;
        pos_start(&v, &p);
        Rng rng;
        rng_seed(&rng, 7, (uint64_t)c, 0);
        int compared = 0;
        for (int game = 0; game < (slow ? 40 : 6); game++) {
            pos_start(&v, &p);
            while (!pos_over(&v, &p)) {
                SolveResult a, b;
                assert_int_equal(solver_solve(&v, &p, 2000000, &a), SOLVE_OK);
                assert_int_equal(solver_solve_tables(&v, &p, 2000000, t, &b), SOLVE_OK);
                assert_int_equal(a.value, b.value);
                assert_int_equal(a.n_moves, b.n_moves);
                for (int i = 0; i < a.n_moves; i++) {
                    assert_int_equal(a.moves[i].value, b.moves[i].value);
                    assert_int_equal(a.moves[i].move, b.moves[i].move);
                }
                assert_true(b.states <= a.states);
                compared++;
                Position q;
                MoveInfo info;
                if (pos_play(&v, &p, pos_random_move(&p, &rng), &q, &info, NULL) == EV_ENDLESS)
                    break;
                p = q;
            }
        }
        print_message("solver with tables %s K=%d: %d positions\n", cases[c].opts,
                      cases[c].k, compared);
        tables_free(t);
    }
}

/* One position: the agent's move is one of the best by the tables. */
static void agent_one(const Variant *v, const Tables *t, const Position *p, void *ctx)
{
    Agent *a = ctx;
    Rng rng;
    AgentStats st = { 0 };
    rng_seed(&rng, 11, 0, p->pit[0]);
    int best = INT_MIN, m = a->choose(a, v, p, &rng, &st);
    for (uint64_t k = pos_legal_mask(v, p); k; k &= k - 1) {
        int x = move_value(v, t, p, __builtin_ctzll(k));
        best = x > best ? x : best;
    }
    assert_true(pos_legal_mask(v, p) >> m & 1);
    if (move_value(v, t, p, m) != best)
        fail_msg("%s: alphabeta played %d worth %d, the best is worth %d", tu_apn(v, p), m,
                 move_value(v, t, p, m), best);
    assert_true(st.value == best);
}

/* alphabeta with tables=FILE plays every position the tables cover perfectly, even at depth
 * 1; it refuses a missing file and another variant with a clear message. */
static void test_alphabeta(void **state)
{
    (void)state;
    char dir[] = "/tmp/anywoli-tables-XXXXXX", path[128], spec[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/n.tb", dir);
    Variant v;
    Error e;
    Tables *t = build("variant=yit-nuri final_four=first-final", 7, &v);
    assert_int_equal(tables_save(t, path, &e), 0);
    static const char *const opts[] = { "depth=1", "depth=3,ties=first", "depth=2,tt=0" };
    Agent a[3];
    for (int i = 0; i < 3; i++) {
        snprintf(spec, sizeof spec, "alphabeta:%s,tables=%s", opts[i], path);
        if (agent_create(&a[i], spec, &e) != 0)
            fail_msg("%s: %s", spec, e.msg);
        assert_int_equal(agent_check_variant(&a[i], &v, &e), 0);
        char full[1024];
        agent_describe(&a[i], full, sizeof full);
        assert_non_null(strstr(full, path));
    }
    for (int i = 0; i < 3; i++) {
        long n = each_position(&v, t, 37, agent_one, &a[i]);
        assert_true(n > 1000);
    }
    Variant w;
    tu_variant("variant=yit-nuri", &w);
    assert_int_equal(agent_check_variant(&a[0], &w, &e), -1);
    if (!strstr(e.msg, "agent 'alphabeta': tables=") || !strstr(e.msg, "the tables are for"))
        fail_msg("message: %s", e.msg);
    for (int i = 0; i < 3; i++)
        agent_free(&a[i]);
    Agent b;
    snprintf(spec, sizeof spec, "alphabeta:tables=%s/missing.tb", dir);
    assert_int_equal(agent_create(&b, spec, &e), -1);
    if (!strstr(e.msg, "agent 'alphabeta': tables=") || !strstr(e.msg, "cannot open"))
        fail_msg("message: %s", e.msg);
    tables_free(t);
    unlink(path);
    rmdir(dir);
}

/* The prover agrees with the graph solver, value and every move's value, on every position of
 * random games: without tables on small variants (cycles included), with tables on larger
 * boards. */
static void test_prover(void **state)
{
    (void)state;
    static const Case cases[] = {
        { "holes=2 seeds=2", 0 },
        { "holes=2 seeds=3 final_four=first-final", 0 },
        { "holes=3 seeds=2", 0 },
        { "holes=3 seeds=2 final_four=lottery", 0 },
        { "holes=3 seeds=2 extra_turn=no", 0 },
        { "holes=2 seeds=3 skip_origin=yes", 0 },
        { "holes=3 seeds=3 final_four=first-final", 9 },
        { "holes=4 seeds=2", 8 },
        { "holes=4 seeds=3", 10 },   /* slow only */
    };
    for (int c = 0; c < N_ELEMS(cases) - !slow; c++) {
        Variant v;
        Tables *t = NULL;
        if (cases[c].k)
            t = build(cases[c].opts, cases[c].k, &v);
        else
            tu_variant(cases[c].opts, &v);
        Rng rng;
        rng_seed(&rng, 5, (uint64_t)c, 0);
        int compared = 0;
        for (int game = 0; game < (slow ? 200 : 12); game++) {
            Position p;
            pos_start(&v, &p);
            while (!pos_over(&v, &p)) {
                SolveResult a, b;
                assert_int_equal(solver_solve(&v, &p, 3000000, &a), SOLVE_OK);
                assert_int_equal(prover_solve(&v, &p, 5000000, t, &b), SOLVE_OK);
                if (a.value != b.value)
                    fail_msg("%s: %s: solver %d, prover %d", cases[c].opts, tu_apn(&v, &p),
                             a.value, b.value);
                assert_int_equal(a.n_moves, b.n_moves);
                for (int i = 0; i < a.n_moves; i++) {
                    assert_int_equal(a.moves[i].value, b.moves[i].value);
                    assert_int_equal(a.moves[i].move, b.moves[i].move);
                }
                compared++;
                Position q;
                MoveInfo info;
                if (pos_play(&v, &p, pos_random_move(&p, &rng), &q, &info, NULL) == EV_ENDLESS)
                    break;
                p = q;
            }
        }
        print_message("prover %s K=%d: %d positions\n", cases[c].opts, cases[c].k, compared);
        tables_free(t);
    }
}

/* ---- Reachable levels ---- */

/* Build the tables of a case, its reachable levels only; fails the test on error. */
static Tables *build_reachable(const char *opts, int k, Variant *v)
{
    Tables *t;
    Error e;
    tu_variant(opts, v);
    if (tables_build_levels(v, k, TABLES_REACHABLE_LEVELS, NULL, NULL, &t, &e) != 0)
        fail_msg("%s K=%d reachable: %s", opts, k, e.msg);
    return t;
}

/* What one position of the all-levels tables checks in the reachable-only ones. */
typedef struct ReachCheck {
    const Tables *reach;
    long same, missing;
} ReachCheck;

/* A position of the all-levels tables: the same value in the reachable ones where they hold
 * its level, and its own level named missing where they do not. */
static void reach_one(const Variant *v, const Tables *all, const Position *p, void *ctx)
{
    ReachCheck *rc = ctx;
    bool congruent = (v->total - p->left) % v->capture == 0;
    assert_int_equal(tables_covers(rc->reach, p), congruent);
    if (congruent) {
        if (tables_value(rc->reach, p) != tables_value(all, p))
            fail_msg("%s: %d with the reachable levels, %d with all", tu_apn(v, p),
                     tables_value(rc->reach, p), tables_value(all, p));
        assert_int_equal(tables_missing_level(rc->reach, p), 0);
        rc->same++;
    } else {
        assert_int_equal(tables_missing_level(rc->reach, p), p->left);
        rc->missing++;
    }
    assert_int_equal(tables_missing_level(all, p), 0);
}

/* Random games from the start: every position with at most K seeds on the board is on a
 * level the reachable-only tables hold. */
static void expect_games_covered(const Variant *v, const Tables *reach, int games)
{
    Rng rng;
    rng_seed(&rng, 5, 0, 0);
    for (int g = 0; g < games; g++) {
        Position p;
        pos_start(v, &p);
        while (!pos_over(v, &p)) {
            if (p.left <= tables_max_seeds(reach) && !tables_covers(reach, &p))
                fail_msg("game %d: %s is not covered", g, tu_apn(v, &p));
            Position q;
            MoveInfo info;
            if (pos_play(v, &p, pos_random_move(&p, &rng), &q, &info, NULL) == EV_ENDLESS)
                break;
            p = q;
        }
    }
}

/* The reachable-only build holds exactly the levels congruent to the total modulo capture
 * (derived from each variant: capture 3 and 4, totals of every residue), and on every
 * position of them the values of the all-levels build: a reachable level never needs an
 * unreachable one. Positions elsewhere are not covered and name their level as missing;
 * games from the start meet only held levels; the solver with them agrees from the start. */
static void test_reachable_levels(void **state)
{
    (void)state;
    static const Case cases[] = {
        { "holes=2 seeds=3 final_four=first-final", 12 },   /* levels 8, 12 */
        { "holes=3 seeds=2 final_four=lottery", 8 },
        { "holes=3 seeds=3", 9 },
        { "holes=3 seeds=2 capture=3", 10 },                 /* levels 6, 9 */
        { "holes=3 seeds=3 capture=3 final_four=first-final", 9 },   /* 6, 9 */
        { "holes=2 seeds=3 skip_origin=yes extra_turn=no", 12 },
    };
    int levels_held = 0;
    for (int c = 0; c < N_ELEMS(cases); c++) {
        Variant v;
        Tables *all = build(cases[c].opts, cases[c].k, &v);
        Tables *reach = build_reachable(cases[c].opts, cases[c].k, &v);
        int held = 0;
        for (int L = tables_first_level(all); L <= cases[c].k; L++) {
            bool congruent = (v.total - L) % v.capture == 0;
            assert_true(tables_holds_level(all, L));
            assert_int_equal(tables_holds_level(reach, L), congruent);
            assert_int_equal(tables_level_reachable(&v, L), congruent);
            assert_int_equal(tables_level_positions(reach, L),
                             congruent ? tables_level_positions(all, L) : 0);
            held += congruent;
        }
        assert_true(held > 0 && tables_positions(reach) < tables_positions(all));
        levels_held += held;
        ReachCheck rc = { .reach = reach };
        each_position(&v, all, 1, reach_one, &rc);
        assert_true(rc.same > 0 && rc.missing > 0);
        expect_games_covered(&v, reach, 50);
        Position p;
        pos_start(&v, &p);
        SolveResult a, b;
        assert_int_equal(solver_solve(&v, &p, 2000000, &a), SOLVE_OK);
        assert_int_equal(solver_solve_tables(&v, &p, 2000000, reach, &b), SOLVE_OK);
        assert_int_equal(a.value, b.value);
        print_message("reachable %s K=%d: %d levels, %ld positions the same, %ld not held\n",
                      cases[c].opts, cases[c].k, held, rc.same, rc.missing);
        tables_free(reach);
        tables_free(all);
    }
    assert_true(levels_held > N_ELEMS(cases));   /* some case solves a level on another */
}

/* Copy tables file a to b with the header's u32 at `at` set to x (and the header checksum
 * made to hold). */
static void copy_forged_header(const char *a, const char *b, long at, uint32_t x)
{
    long size;
    uint8_t *buf = read_file(a, &size);
    for (int i = 0; i < 4; i++)
        buf[at + i] = (uint8_t)(x >> (8 * i));
    put_le64(buf + 4088, doc_checksum(buf, 4088));
    write_file(b, buf, size);
}

/* The file records the levels it holds (format 2: a level's count of values is 0 when it is
 * not held); a reachable-only file comes back with them; a format-1 file (every level) is
 * still read; a count that is neither 0 nor the level's size is refused. */
static void test_file_levels(void **state)
{
    (void)state;
    char dir[] = "/tmp/anywoli-tables-XXXXXX", path[128], bad[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.tb", dir);
    snprintf(bad, sizeof bad, "%s/bad.tb", dir);
    Variant v;
    Error e;
    Tables *t = build_reachable("holes=3 seeds=3", 9, &v), *u;   /* total 18: level 6 */
    assert_int_equal(tables_save(t, path, &e), 0);
    assert_int_equal(tables_open(path, &u, &e), 0);
    assert_int_equal(tables_format(u), 2);
    for (int L = 5; L <= 9; L++)
        assert_int_equal(tables_holds_level(u, L), L == 6);
    assert_int_equal(tables_checksum(u), tables_checksum(t));
    char levels[64];
    tables_describe_levels(u, levels, sizeof levels);
    assert_string_equal(levels, "6");
    Position p;
    tu_position("holes=3 seeds=3", "1,2,0/3,0,0 6/6 S - -", &v, &p);
    assert_int_equal(tables_value(u, &p), 6);
    tu_position("holes=3 seeds=3", "1,2,1/3,0,0 4/7 S - -", &v, &p);
    assert_false(tables_covers(u, &p));
    assert_int_equal(tables_missing_level(u, &p), 7);
    tu_position("holes=3 seeds=3", "1,2,1/3,3,1 4/3 S - -", &v, &p);   /* 11: reaches 7 */
    assert_int_equal(tables_missing_level(u, &p), 7);
    tu_position("holes=3 seeds=3", "1,2,1/3,2,1 4/4 S - -", &v, &p);   /* 10: reaches 6 */
    assert_int_equal(tables_missing_level(u, &p), 0);
    tables_free(u);
    /* Level 6's count (at 88 + 8 x 6) forged: refused. */
    copy_forged_header(path, bad, 88 + 8 * 6, 5);
    expect_refused(bad, "bad header: level 6 holds 5 values, expected 0 or 462");
    tables_free(t);
    /* Format 1 holds every level. */
    t = build("holes=3 seeds=3", 9, &v);
    unlink(path);   /* tables_save makes a new file, never one over another */
    assert_int_equal(tables_save(t, path, &e), 0);
    copy_forged_header(path, bad, 16, 1);
    assert_int_equal(tables_open(bad, &u, &e), 0);
    assert_int_equal(tables_format(u), 1);
    for (int L = 5; L <= 9; L++)
        assert_true(tables_holds_level(u, L));
    assert_int_equal(tables_checksum(u), tables_checksum(t));
    tables_free(u);
    copy_forged_header(path, bad, 16, 3);
    expect_refused(bad, "tables format 3, this program reads formats 1 to 2");
    tables_free(t);
    unlink(bad);
    unlink(path);
    rmdir(dir);
}

/* ---- Conventions compared ---- */

/* The relative value of p under convention ff, by the graph solver (no tables). */
static int solved_relative(const char *opts, FinalFour ff, const Position *p)
{
    Variant v;
    tu_variant(opts, &v);
    v.final_four = ff;
    SolveResult r;
    assert_int_equal(solver_solve(&v, p, 2000000, &r), SOLVE_OK);
    return r.value - margin_stores(p);
}

/* The full value of p under convention ff, by the graph solver (no tables). */
static int solved_value(const char *opts, FinalFour ff, const Position *p)
{
    return solved_relative(opts, ff, p) + margin_stores(p);
}

/* tables_compare_level's figures for one pair (tables ta and tb), level and state,
 * recomputed from the graph solver on every stride-th placement with South to move (stores
 * split as the examples': North half the captured seeds, rounded down), stride 1 giving every
 * figure exactly, the count of each difference and its first position included. */
static void expect_compare(const char *opts, const Tables *ta, const Tables *tb, int L, int cs,
                           int stride, const TablesDiff *d)
{
    Variant v;
    tu_variant(opts, &v);
    FinalFour fa = tables_variant(ta)->final_four, fb = tables_variant(tb)->final_four;
    Ranking r;
    assert_int_equal(ranking_init(&r, v.pits, tables_max_seeds(ta)), 0);
    uint16_t board[MAX_PITS];
    ranking_unrank(&r, 0, L, board);
    static TablesDiff want;
    memset(&want, 0, sizeof want);
    uint64_t k = 0;
    do {
        Position p;
        int captured = v.total - L;
        if (k % (uint64_t)stride == 0
            && make_position(&v, board, L, SOUTH, cs, SOUTH, captured / 2, &p)) {
            int a = solved_relative(opts, fa, &p), b = solved_relative(opts, fb, &p);
            int diff = abs(a - b);
            want.positions++;
            want.value_differs += a != b;
            want.result_differs += (a > 0) - (a < 0) != (b > 0) - (b < 0);
            want.largest = diff > want.largest ? diff : want.largest;
            if (want.by_diff[diff]++ == 0)
                want.first_rank[diff] = k;
        }
        k++;
    } while (ranking_next(&r, board));
    ranking_free(&r);
    assert_int_equal(d->level, L);
    if (stride == 1) {
        assert_int_equal(d->positions, want.positions);
        assert_int_equal(d->value_differs, want.value_differs);
        assert_int_equal(d->result_differs, want.result_differs);
        assert_int_equal(d->largest, want.largest);
        for (int x = 0; x <= TABLES_MAX_DIFF; x++) {
            assert_int_equal(d->by_diff[x], want.by_diff[x]);
            if (want.by_diff[x])
                assert_int_equal(d->first_rank[x], want.first_rank[x]);
        }
    } else {
        assert_true(d->largest >= want.largest);
    }
    uint64_t differing = 0;
    for (int x = 1; x <= d->largest; x++) {   /* each example: its values by the solver */
        differing += d->by_diff[x];
        if (!d->by_diff[x])
            continue;
        Position p;
        tables_diff_example(ta, d, x, &p);
        assert_true(pos_ok(&v, &p));
        int a = solved_value(opts, fa, &p), b = solved_value(opts, fb, &p);
        assert_int_equal(tables_value(ta, &p), a);
        assert_int_equal(tables_value(tb, &p), b);
        assert_int_equal(abs(a - b), x);
    }
    assert_int_equal(differing, d->value_differs);
    assert_int_equal(d->by_diff[0] + differing, d->positions);
}

/* Every pair of conventions on every level of small variants, and every convention state:
 * positions, values and results that differ and the largest difference, each against the
 * graph solver under each convention on every position (on a sample of one in 5 of the
 * larger board, where only the largest difference is checked as a bound); mismatched files
 * are refused. */
static void test_compare(void **state)
{
    (void)state;
    static const Case cases[] = { { "holes=2 seeds=3", 8 }, { "holes=3 seeds=2", 7 } };
    static const FinalFour conv[] = { FF_PENULTIMATE, FF_FIRST_FINAL, FF_LOTTERY };
    for (int c = 0; c < N_ELEMS(cases); c++) {
        Tables *t[3];
        Variant v;
        for (int i = 0; i < 3; i++) {
            char opts[128];
            snprintf(opts, sizeof opts, "%s final_four=%s", cases[c].opts,
                     final_four_name(conv[i]));
            t[i] = build(opts, cases[c].k, &v);
        }
        Error e;
        uint64_t differs = 0;
        for (int a = 0; a < 3; a++) {
            for (int b = a + 1; b < 3; b++) {
                assert_int_equal(tables_check_comparable(t[a], "a.tb", t[b], "b.tb", &e), 0);
                int states = conv[a] == FF_FIRST_FINAL || conv[b] == FF_FIRST_FINAL ? 3 : 1;
                for (int L = tables_first_level(t[a]); L <= cases[c].k; L++) {
                    static TablesDiff d, all;
                    memset(&all, 0, sizeof all);
                    for (int cs = 0; cs < states; cs++) {
                        tables_compare_level(t[a], t[b], L, cs, &d);
                        expect_compare(cases[c].opts, t[a], t[b], L, cs, c == 0 ? 1 : 5, &d);
                        tables_diff_add(&all, &d);
                        differs += d.value_differs;
                    }
                    /* The states' sum: the first of each difference from the first state
                     * that has one. */
                    uint64_t n = 0;
                    for (int x = 0; x <= TABLES_MAX_DIFF; x++) {
                        n += all.by_diff[x];
                        if (all.by_diff[x]) {
                            Position p;
                            tables_diff_example(t[a], &all, x, &p);
                            assert_int_equal(abs(tables_value(t[a], &p) - tables_value(t[b], &p)),
                                             x);
                        }
                    }
                    assert_int_equal(n, all.positions);
                }
            }
        }
        assert_true(differs > 0);
        assert_int_equal(tables_check_comparable(t[0], "a.tb", t[0], "a2.tb", &e), -1);
        assert_non_null(strstr(e.msg, "a2.tb: final_four penultimate, as a.tb"));
        for (int i = 0; i < 3; i++)
            tables_free(t[i]);
    }
    /* Another board, another K, other levels. */
    Variant v;
    Tables *a = build("holes=3 seeds=2", 8, &v);
    Tables *b = build("holes=3 seeds=3 final_four=lottery", 8, &v);
    Error e;
    assert_int_equal(tables_check_comparable(a, "a.tb", b, "b.tb", &e), -1);
    assert_non_null(strstr(e.msg, "b.tb: the tables are for holes=3 seeds=3"));
    tables_free(b);
    b = build("holes=3 seeds=2 final_four=lottery", 6, &v);
    assert_int_equal(tables_check_comparable(a, "a.tb", b, "b.tb", &e), -1);
    assert_non_null(strstr(e.msg, "b.tb: max_seeds 6, a.tb has 8"));
    tables_free(b);
    b = build_reachable("holes=3 seeds=2 final_four=lottery", 8, &v);   /* 12 seeds: 8 */
    assert_int_equal(tables_check_comparable(a, "a.tb", b, "b.tb", &e), -1);
    assert_non_null(strstr(e.msg, "b.tb: levels 8, a.tb holds 5, 6, 7, 8"));
    tables_free(b);
    /* No level of 5 to 7 is reachable with 12 seeds: refused. */
    assert_int_equal(tables_build_levels(&v, 7, TABLES_REACHABLE_LEVELS, NULL, NULL, &b, &e), -1);
    assert_non_null(strstr(e.msg, "--max-seeds 7: no level from 5 to 7 occurs in a game from "
                            "the start (the seeds on the board stay congruent to 12 modulo 4; "
                            "the first level above is 8)"));
    tables_free(a);
}

/* Run one test with its time on stderr, to keep the fast ones fast. */
#define TIMED(f) static void timed_##f(void **state) { double t0 = omp_get_wtime(); f(state); \
    print_message("%s: %.1f s\n", #f, omp_get_wtime() - t0); }
TIMED(test_against_search)
TIMED(test_consistency)
TIMED(test_solver_with_tables)
TIMED(test_ranking)
TIMED(test_threads)
TIMED(test_work_files)
TIMED(test_alphabeta)
TIMED(test_prover)
TIMED(test_reachable_levels)
TIMED(test_compare)
TIMED(test_build_set)

int main(int argc, char **argv)
{
    slow = argc > 1 && strcmp(argv[1], "slow") == 0;
    const struct CMUnitTest fast_tests[] = {
        cmocka_unit_test(timed_test_ranking),
        cmocka_unit_test(timed_test_against_search),
        cmocka_unit_test(timed_test_consistency),
        cmocka_unit_test(timed_test_threads),
        cmocka_unit_test(timed_test_work_files),
        cmocka_unit_test(test_work_dir_error),
        cmocka_unit_test(test_state_claims),
        cmocka_unit_test(timed_test_build_set),
        cmocka_unit_test(test_indegree_limit),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_file_untrusted),
        cmocka_unit_test(test_bad_k),
        cmocka_unit_test(test_move_value),
        cmocka_unit_test(timed_test_solver_with_tables),
        cmocka_unit_test(timed_test_alphabeta),
        cmocka_unit_test(timed_test_prover),
        cmocka_unit_test(timed_test_reachable_levels),
        cmocka_unit_test(test_file_levels),
        cmocka_unit_test(timed_test_compare),
    };
    const struct CMUnitTest slow_tests[] = {
        cmocka_unit_test(timed_test_against_search),
        cmocka_unit_test(timed_test_consistency),
        cmocka_unit_test(timed_test_solver_with_tables),
        cmocka_unit_test(timed_test_prover),
    };
    if (slow)
        return cmocka_run_group_tests(slow_tests, NULL, NULL);
    return cmocka_run_group_tests(fast_tests, NULL, NULL);
}
