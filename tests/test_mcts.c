/* test_mcts.c: MCTS-Solver against exact values: a one-move win played at once from a proof,
 * proven scores equal to the exact solver's on small variants, endgame tables as proven
 * leaves, and the same choice for the same stream. (That solver=0 plays as before the solver,
 * bit for bit, is checked on whole games by test_agents_cli.) */
#include <math.h>

#include "test_util.h"

#define TEST_TMP_NAME "mcts"
#include "test_tmp.h"

#include "agent.h"
#include "agents_internal.h"
#include "eval.h"
#include "learned.h"
#include "margin.h"
#include "solver.h"
#include "tables.h"

/* An agent from a spec that must be valid. */
static void make_agent(Agent *a, const char *spec)
{
    Error e;
    if (agent_create(a, spec, &e) != 0)
        fail_msg("spec '%s': %s", spec, e.msg);
}

/* One search of a fresh agent from p on the stream of `seed`: the move, with its stats. */
static int search(const char *spec, const Variant *v, const Position *p, uint64_t seed,
                  AgentStats *st)
{
    Agent a;
    Rng r;
    make_agent(&a, spec);
    rng_seed(&r, seed, 0, 0);
    memset(st, 0, sizeof *st);
    agent_new_game(&a);
    int m = a.choose(&a, v, p, &r, st);
    agent_free(&a);
    return m;
}

/* The game score in quarters (4 a win, 2 a draw, 0 a loss) of an exact margin. */
static int quarters_of(int margin)
{
    return margin > 0 ? 4 : margin == 0 ? 2 : 0;
}

/* South to move with two moves: hole 2 (one seed) makes North's hole 3 four, a final-seed
 * capture that leaves 2 seeds, so the game ends and South (the last capturer) takes them:
 * 16 to 14. Hole 0 relays through hole 2 and makes hole 3 four in mid-sow, North's capture,
 * and the game ends 10 to 20. The solver proves the win on the playout that first expands
 * hole 2 and plays it at once, whatever the budget. */
static void test_solver_plays_a_proven_win_at_once(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("holes=3", "2,0,1/3,0,0 10/14 S - -", &v, &p);
    for (uint64_t seed = 0; seed < 20; seed++) {
        AgentStats st;
        assert_int_equal(search("mcts:playouts=5000", &v, &p, seed, &st), 2);
        assert_true(st.playouts <= 2);        /* stopped when the root was proven */
        assert_true(st.value == 1.0);         /* the proven score, not a mean */
    }
    /* Without the solver a hot temperature still draws among both moves, as it always has:
     * a won end is no reason to skip the draw there. */
    int losing = 0;
    for (uint64_t seed = 0; seed < 20; seed++) {
        AgentStats st;
        losing += search("mcts:playouts=100,solver=0,temperature=1000", &v, &p, seed, &st) == 0;
    }
    assert_true(losing > 0);
}

/* The small variants whose positions the solver values quickly. */
static const char *const small_variants[] = {
    "holes=3 seeds=2",
    "holes=3 seeds=3",
    "holes=4 seeds=2 final_four=first-final",
    "holes=4 seeds=2 extra_turn=no",
    "holes=3 seeds=2 capture=3",
};

/* A position of v after k random plies of game g; false if the game ended first. */
static bool random_position(const Variant *v, uint64_t g, int k, Position *p)
{
    Rng r;
    rng_seed(&r, 515, 1, g);
    pos_start(v, p);
    for (int i = 0; i < k; i++) {
        Position next;
        MoveInfo info;
        if (pos_play(v, p, pos_random_move(p, &r), &next, &info, NULL) >= EV_OVER)
            return false;
        *p = next;
    }
    return true;
}

/* Where a search proves its root (it stops before its budget), the proven score is the
 * exact solver's, and the move played forces it. Enough roots are proven that the check
 * means something. */
static void test_solver_agrees_with_exact_values(void **state)
{
    (void)state;
    const int budget = 20000;
    int proven = 0, tried = 0;
    for (size_t i = 0; i < sizeof small_variants / sizeof small_variants[0]; i++) {
        Variant v;
        tu_variant(small_variants[i], &v);
        for (uint64_t g = 0; g < 24; g++) {
            Position p;
            if (!random_position(&v, g, (int)(g % 6), &p))
                continue;
            SolveResult exact;
            assert_int_equal(solver_solve(&v, &p, SOLVER_MAX_STATES_DEFAULT, &exact), SOLVE_OK);
            if (exact.n_moves < 2)
                continue;   /* a single move is played without a search */
            AgentStats st;
            int m = search("mcts:playouts=20000", &v, &p, g, &st);
            tried++;
            if (st.playouts >= (uint64_t)budget)
                continue;
            proven++;
            int want = quarters_of(exact.value);
            if ((int)(st.value * 4) != want)
                fail_msg("%s %s: proven %g, exact value %d", small_variants[i], tu_apn(&v, &p),
                         st.value, exact.value);
            for (int j = 0; j < exact.n_moves; j++)
                if (exact.moves[j].move == m)
                    assert_int_equal(quarters_of(exact.moves[j].value), want);
        }
    }
    assert_true(tried >= 40);
    assert_true(proven >= tried / 2);
}

/* With tables, a root they cover is proven from its children alone (each a covered leaf
 * or an end), in at most one playout a move; the score is the tables' and the move a best
 * one by them. Tables of another variant are refused by name. */
static void test_solver_with_tables(void **state)
{
    (void)state;
    Variant v;
    tu_variant("holes=4 seeds=2", &v);
    Tables *t;
    Error e;
    assert_int_equal(tables_build(&v, 8, NULL, NULL, &t, &e), 0);
    const char *path = tmp_path("k8.tables");
    assert_int_equal(tables_save(t, path, &e), 0);
    char spec[512];
    snprintf(spec, sizeof spec, "mcts:playouts=3000,tables=%s", path);
    int covered = 0;
    for (uint64_t g = 0; g < 2000 && covered < 20; g++) {
        Position p;
        if (!random_position(&v, g, 12 + (int)(g % 30), &p) || !tables_covers(t, &p))
            continue;
        uint64_t legal = p.legal;
        if (!(legal & (legal - 1)))
            continue;
        covered++;
        AgentStats st;
        int m = search(spec, &v, &p, g, &st);
        assert_true(st.playouts <= (uint64_t)__builtin_popcountll(legal));
        int best = tables_value(t, &p);
        assert_int_equal((int)(st.value * 4), quarters_of(best));
        assert_int_equal(quarters_of(tables_move_value(t, &p, m)), quarters_of(best));
    }
    assert_true(covered >= 10);

    Agent a;
    Variant other;
    tu_variant("holes=5 seeds=2", &other);
    make_agent(&a, spec);
    assert_int_equal(agent_check_variant(&a, &other, &e), -1);
    assert_non_null(strstr(e.msg, "agent 'mcts': tables="));
    agent_free(&a);
    tables_free(t);
}

/* The same stream gives the same search: move, playouts, depth and value, with the solver,
 * with tables of no use here (the start is not covered), with epsilon-greedy playouts, with
 * capture playouts, and with implicit minimax backups (one child a playout or all at once,
 * with playouts or none). */
static void test_solver_is_deterministic(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "mcts:playouts=2000",
        "mcts:playouts=700,policy=greedy,epsilon=0.3",
        "mcts:playouts=800,policy=capture",
        "mcts:playouts=800,policy=capture,tries=2",
        "mcts:playouts=900,reward=margin,temperature=1",
        "mcts:playouts=900,minimax=0.4,weights=tuned,squash=6",
        "mcts:playouts=900,policy=none,minimax=1,expand=all,reward=margin,c=0.02",
        "mcts:playouts=700,policy=capture,horizon=2,minimax=0.6,expand=all,temperature=1",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        for (uint64_t g = 0; g < 6; g++) {
            Variant v;
            Position p;
            tu_variant(g % 2 ? "holes=5 seeds=3" : "", &v);
            if (!random_position(&v, g, 3 * (int)g, &p))
                continue;
            AgentStats s1, s2;
            int m1 = search(specs[i], &v, &p, g, &s1), m2 = search(specs[i], &v, &p, g, &s2);
            assert_int_equal(m1, m2);
            assert_int_equal(s1.playouts, s2.playouts);
            assert_int_equal(s1.nodes, s2.nodes);
            assert_int_equal(s1.depth, s2.depth);
            assert_true(s1.value == s2.value);
        }
    }
}

/* The capture policy plays the one move that wins seeds whatever its stream, where it is the
 * lowest hole (0: a final-seed capture of 4 and an extra move; hole 1 hands North 4 in
 * mid-sow, hole 3 captures nothing) and where it is the highest (hole 2 captures and ends the
 * game; hole 0's relay gives North the capture). With tries=1 it is one random move, so the
 * others are played too. */
static void test_capture_policy_plays_a_capture(void **state)
{
    (void)state;
    static const struct {
        const char *opts, *apn;
        int capture;
        MoveEvent ev;
    } cases[] = {
        { "holes=4", "1,3,0,2/1,0,2,3 10/10 S - -", 0, EV_EXTRA },
        { "holes=3", "2,0,1/3,0,0 10/14 S - -", 2, EV_OVER },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Variant v;
        Position p, out;
        MoveEvent ev;
        tu_position(cases[i].opts, cases[i].apn, &v, &p);
        int other = 0;
        for (uint64_t seed = 0; seed < 40; seed++) {
            Rng r;
            rng_seed(&r, seed, 0, 0);
            assert_int_equal(capture_playout_move(&v, &p, 0, &r, &out, &ev), cases[i].capture);
            assert_int_equal(ev, cases[i].ev);
            assert_true(out.store[SOUTH] > p.store[SOUTH]);
            rng_seed(&r, seed, 0, 0);
            other += capture_playout_move(&v, &p, 1, &r, &out, &ev) != cases[i].capture;
        }
        assert_true(other > 0);
    }
}


/* Searches pinned as they were before implicit minimax backups (minimax=0, the default, must
 * search exactly as before): spec, variant, the position after `plies` random plies of
 * random_position's game g (also the search's stream), and what the search returned. */
typedef struct PinnedSearch {
    const char *spec, *variant;
    int g, plies;
    int move;
    uint64_t playouts, nodes;
    int depth;
    double value;
} PinnedSearch;

static const PinnedSearch pinned[] = {
    { "mcts:playouts=3000", "", 1, 0, 6, 3000, 12354, 7, 0.52635706384999248 },
    { "mcts:playouts=3000", "", 2, 14, 11, 3000, 11384, 5, 0.99895066905946694 },
    { "mcts:playouts=3000", "", 3, 40, 3, 3000, 13918, 7, 0.079924278170895147 },
    { "mcts:playouts=2000,policy=random,c=0.7", "", 4, 20, 16, 2000, 7769, 5, 0.99535838793198383 },
    { "mcts:playouts=1500,reward=margin,horizon=4", "", 5, 30, 16, 1500, 5213, 4, 0.53298611111111094 },
    { "mcts:playouts=500,policy=greedy,horizon=6", "", 6, 10, 1, 500, 1809, 6, 0.24348155679773056 },
    { "mcts:playouts=2000,solver=0,w.seeds=0.1,w.threes=0.5", "", 7, 24, 18, 2000, 7505, 5, 0.98786808921064317 },
    { "mcts:playouts=2500", "holes=5 seeds=3", 8, 6, 0, 2500, 17883, 10, 0.99855848596226948 },
    { "mcts:playouts=2500,temperature=1", "holes=6 seeds=3", 9, 2, 10, 2500, 18792, 10, 0.00015077341865768083 },
    { "mcts:playouts=1200,policy=random,horizon=0,c=0.5", "holes=6 seeds=4", 10, 1, 9, 1200, 6719, 10, 0.8642943305186972 },
};

/* Each pinned search gives what it gave before minimax backups existed, with the option left
 * out and with minimax=0 given; the same move, playouts, tree nodes (every ply the
 * selection walked, so every visit), depth and value, bit for bit. */
static void test_minimax_off_is_unchanged(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        const PinnedSearch *ps = &pinned[i];
        Variant v;
        Position p;
        tu_variant(ps->variant, &v);
        assert_true(random_position(&v, (uint64_t)ps->g, ps->plies, &p));
        for (int given = 0; given < 2; given++) {
            char spec[256];
            snprintf(spec, sizeof spec, "%s%s", ps->spec, given ? ",minimax=0" : "");
            AgentStats st;
            int m = search(spec, &v, &p, (uint64_t)ps->g, &st);
            if (m != ps->move || st.playouts != ps->playouts || st.nodes != ps->nodes ||
                st.depth != ps->depth || st.value != ps->value)
                fail_msg("%s: move %d playouts %llu nodes %llu depth %d value %.17g", spec, m,
                         (unsigned long long)st.playouts, (unsigned long long)st.nodes,
                         st.depth, st.value);
        }
    }
}

/* The reward scale of a spec's tree, as the test computes it on its own: reward=margin or
 * win, the squash (0: a 24th of the seeds in play) and the evaluation. */
typedef struct TauModel {
    bool margin;
    double squash;
    Evaluator ev;
} TauModel;

/* South's reward for South's final margins m (the lottery's two coins), exactly. */
static double model_exact_south(const Variant *v, const TauModel *tm, const int m[2])
{
    if (tm->margin)
        return 0.5 + (m[SOUTH] + m[NORTH]) / (4.0 * v->total);
    return quarters_of(m[SOUTH]) / 8.0 + quarters_of(m[NORTH]) / 8.0;
}

/* South's reward for the evaluation of q (not over), squashed. */
static double model_eval_south(const Variant *v, const TauModel *tm, const Position *q)
{
    int32_t x = eval_position(&tm->ev, v, q);
    double seeds = (q->side == SOUTH ? x : -x) / (double)EVAL_SCALE;
    if (tm->margin) {
        double r = 0.5 + seeds / (2.0 * v->total);
        return r < 0 ? 0 : r > 1 ? 1 : r;
    }
    double scale = tm->squash > 0 ? tm->squash : v->total / 24.0;
    return 1 / (1 + exp(-seeds / scale));
}

/* What node i of the tree t (n nodes) is worth to its mover by the definition of the
 * implicit minimax value, from the positions alone: a leaf its evaluation when it was added
 * (exact at an end), an inner node the best of its children's values for the side to move
 * at it (their mover), turned to its own mover. pos[i] is node i's position, ev[i] the event
 * of the move into it; *turns counts inner nodes whose mover is also the side to move there
 * (an extra move or a pass). */
static double model_tau(const Variant *v, const TauModel *tm, const MctsTreeNode *t, uint32_t n,
                        const Position *pos, const MoveEvent *ev, uint32_t i, int *turns)
{
    const int mover = i == 0 ? t[0].mover : pos[t[i].parent].side;   /* the root's: the tree's */
    double best = -1;
    bool inner = false;
    for (uint32_t c = i + 1; c < n; c++)
        if (t[c].parent == (int32_t)i) {
            double x = model_tau(v, tm, t, n, pos, ev, c, turns);
            best = x > best ? x : best;
            inner = true;
        }
    if (inner) {
        *turns += pos[i].side == mover;
        return pos[i].side == mover ? best : 1 - best;
    }
    double south;
    if (i > 0 && ev[i] >= EV_OVER) {
        int m[2];
        margin_south(v, &pos[i], ev[i], m);
        south = model_exact_south(v, tm, m);
    } else {
        south = model_eval_south(v, tm, &pos[i]);
    }
    return mover == SOUTH ? south : 1 - south;
}

/* The implicit minimax value of every node of a search tree is the minimax of its subtree's
 * evaluations, seen by the side to move at each node, on small boards where extra moves and
 * passes are common: with one child added per playout or all at once, win or margin
 * rewards, the store alone or the tuned set, a fitted squash, and with the solver. Each
 * node's position is replayed from the root by the test, so the side to move is the rules',
 * not the tree's own record of it. */
static void test_minimax_values_are_the_tree_minimax(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        bool margin;
        double squash;
        bool tuned;
    } specs[] = {
        { "mcts:playouts=400,policy=none,minimax=1,expand=all,solver=0", false, 0, false },
        { "mcts:playouts=400,policy=random,minimax=0.5,solver=0", false, 0, false },
        { "mcts:playouts=400,minimax=0.3,reward=margin,weights=tuned", true, 0, true },
        { "mcts:playouts=400,policy=none,minimax=0.6,expand=all,squash=7", false, 7, false },
        { "mcts:playouts=400,policy=capture,horizon=3,minimax=0.8,expand=all,reward=margin,"
          "weights=tuned", true, 0, true },
    };
    enum { MAX_TREE = 400 * MAX_PITS + 1 };
    MctsTreeNode *t = malloc(MAX_TREE * sizeof *t);
    Position *pos = malloc(MAX_TREE * sizeof *pos);
    MoveEvent *ev = malloc(MAX_TREE * sizeof *ev);
    assert_true(t && pos && ev);
    int turns = 0, ends = 0;
    uint32_t checked = 0;
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        TauModel tm = { specs[k].margin, specs[k].squash, { { 0 }, 0 } };
        EvalWeights w;
        eval_default_with("w.store=1,w.seeds=0,w.threes=0,w.opp_threes=0,w.empty=0,"
                          "w.opp_empty=0,w.mobility=0,w.final=0", &w);
        if (specs[k].tuned)
            eval_use_tuned(&w);
        eval_prepare(&w, &tm.ev);
        for (uint64_t g = 0; g < 8; g++) {
            Variant v;
            tu_variant(g % 2 ? "holes=4 seeds=2" : "holes=5 seeds=2", &v);
            if (!random_position(&v, g, (int)(g % 5), &pos[0]))
                continue;
            if (!(pos[0].legal & (pos[0].legal - 1)))
                continue;   /* one legal move: no search, no tree */
            Agent a;
            Rng r;
            AgentStats st = { 0, 0, 0, 0 };
            make_agent(&a, specs[k].spec);
            rng_seed(&r, g, 0, 0);
            agent_new_game(&a);
            a.choose(&a, &v, &pos[0], &r, &st);
            uint32_t n = mcts_tree(&a, t, MAX_TREE);
            assert_true(n >= 1 && n <= MAX_TREE);   /* a proven root may stop at once */
            checked += n;
            for (uint32_t i = 1; i < n; i++) {
                MoveInfo info;
                assert_true(t[i].parent >= 0 && (uint32_t)t[i].parent < i);
                ev[i] = pos_play(&v, &pos[t[i].parent], t[i].move, &pos[i], &info, NULL);
                assert_int_equal(t[i].mover, pos[t[i].parent].side);
                ends += ev[i] >= EV_OVER;
            }
            for (uint32_t i = 0; i < n; i++) {
                int unused = 0;
                double want = model_tau(&v, &tm, t, n, pos, ev, i, i ? &unused : &turns);
                if (fabs(t[i].tau - want) > 1e-5)
                    fail_msg("%s, %s: node %u (move %d, %u visits): tau %.7f, the tree's "
                             "minimax %.7f", specs[k].spec, tu_apn(&v, &pos[0]), i,
                             t[i].move, t[i].visits, t[i].tau, want);
            }
            agent_free(&a);
        }
    }
    assert_true(checked > 2000);
    assert_true(turns > 20);   /* extra moves and passes were in the trees */
    assert_true(ends > 20);    /* and exact ends */
    free(t);
    free(pos);
    free(ev);
}

/* reuse=1: through a game of one agent against itself (it meets every position its last
 * tree holds), each search starts from the last tree's subtree (its root keeps the visits
 * it had there, and more than the budget adds), every node's implicit minimax value is
 * still its subtree's minimax, and the game is the same when played again. Without
 * expand=all reuse is refused. */
static void test_reuse_keeps_the_subtree(void **state)
{
    (void)state;
    const char *spec = "mcts:playouts=300,policy=none,minimax=1,expand=all,reuse=1,solver=0";
    enum { MAX_TREE = 300 * 40 * MAX_PITS + 1 };
    MctsTreeNode *t = malloc(MAX_TREE * sizeof *t);
    Position *pos = malloc(MAX_TREE * sizeof *pos);
    MoveEvent *ev = malloc(MAX_TREE * sizeof *ev);
    assert_true(t && pos && ev);
    TauModel tm = { false, 0, { { 0 }, 0 } };
    EvalWeights w;
    eval_default_with("w.store=1,w.seeds=0,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,"
                      "w.mobility=0,w.final=0", &w);
    eval_prepare(&w, &tm.ev);
    Variant v;
    tu_variant("holes=5 seeds=2", &v);
    int moves[2][200], n_moves[2] = { 0, 0 }, reused = 0;
    for (int run = 0; run < 2; run++) {
        Agent a;
        Rng r;
        make_agent(&a, spec);
        rng_seed(&r, 77, 0, 0);
        agent_new_game(&a);
        Position p;
        pos_start(&v, &p);
        for (int ply = 0; ply < 200; ply++) {
            AgentStats st = { 0, 0, 0, 0 };
            int m = a.choose(&a, &v, &p, &r, &st);
            moves[run][n_moves[run]++] = m;
            if (p.legal & (p.legal - 1)) {
                uint32_t n = mcts_tree(&a, t, MAX_TREE);
                assert_true(n <= MAX_TREE);
                reused += t[0].visits > 300;
                assert_true(t[0].visits >= 300);
                pos[0] = p;
                for (uint32_t i = 1; i < n; i++) {
                    MoveInfo info;
                    assert_true(t[i].parent >= 0 && (uint32_t)t[i].parent < i);
                    ev[i] = pos_play(&v, &pos[t[i].parent], t[i].move, &pos[i], &info, NULL);
                }
                for (uint32_t i = 0; i < n; i += 7) {   /* a sample: each is a subtree walk */
                    int turns = 0;
                    double want = model_tau(&v, &tm, t, n, pos, ev, i, &turns);
                    if (fabs(t[i].tau - want) > 1e-5)
                        fail_msg("ply %d node %u: tau %.7f, minimax %.7f", ply, i, t[i].tau,
                                 want);
                }
            }
            MoveInfo info;
            if (pos_play(&v, &p, m, &p, &info, NULL) >= EV_OVER)
                break;
        }
        agent_free(&a);
    }
    assert_int_equal(n_moves[0], n_moves[1]);
    assert_memory_equal(moves[0], moves[1], (size_t)n_moves[0] * sizeof moves[0][0]);
    assert_true(reused > n_moves[0] / 3);
    free(t);
    free(pos);
    free(ev);

    Agent a;
    Error e;
    assert_int_equal(agent_create(&a, "mcts:reuse=1", &e), -1);
    assert_non_null(strstr(e.msg, "reuse=1 needs expand=all"));
}

/* A capture found through extra moves on the standard board: South's hole 8 sows two laps
 * and captures North's hole 13 with its last seed, an extra move, and the captures go on
 * (a depth-10 search of the store difference: +16 seeds, the next move +8). Plain UCT with
 * the evaluation at its leaves averages the replies it has tried and plays hole 1 on every
 * stream at 300 playouts (and 8 of 10 streams miss it); with implicit minimax backups
 * alone (minimax=1), whose values follow the side to move through each extra move, it plays
 * hole 8 on every stream, with a child per playout or every move at once. (Blends such as
 * minimax=0.5 find it on most streams, not all.) */
static void test_minimax_finds_a_capture_chain(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("", "0,1,3,1,2,10,1,9,3,0,9,1/2,3,1,1,9,0,1,1,0,0,10,0 12/16 S N N", &v, &p);
    int plain_misses = 0;
    for (uint64_t seed = 0; seed < 10; seed++) {
        AgentStats st;
        assert_int_equal(search("mcts:playouts=300,policy=none,minimax=1,solver=0", &v, &p,
                                seed, &st), 8);
        assert_int_equal(search("mcts:playouts=100,policy=none,minimax=1,expand=all,"
                                "reward=margin,c=0.02", &v, &p, seed, &st), 8);
        plain_misses += search("mcts:playouts=300,policy=none,minimax=0,solver=0", &v, &p,
                               seed, &st) != 8;
    }
    assert_true(plain_misses >= 8);   /* the backups make the difference */
}

/* A shallow trap (holes=6 seeds=3): South's hole 0 captures four at once and a two-ply
 * search prefers it (+4 against -4), but it loses the game by 4; hole 3 wins it by 4, the
 * only winning move (`anywoli solve --holes 6 --seeds 3` on the position: 3 +4, 0 -4, 5 -12,
 * from 891,575 states, too slow to solve here). With minimax backups the search plays
 * hole 3 on every stream. */
static void test_minimax_avoids_a_shallow_trap(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("holes=6 seeds=3", "3,0,0,1,0,3/0,0,1,1,0,3 12/12 S S S", &v, &p);
    static const char *const specs[] = {
        "mcts:playouts=100,policy=none,minimax=1,solver=0",
        "mcts:playouts=200,minimax=0.5,solver=0",
        "mcts:playouts=100,policy=none,minimax=0.6,expand=all,solver=0",
        "mcts:playouts=100,policy=none,minimax=1,expand=all,reward=margin,c=0.02,solver=0",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        for (uint64_t seed = 0; seed < 10; seed++) {
            AgentStats st;
            assert_int_equal(search(specs[i], &v, &p, seed, &st), 3);
        }
}

/* weights=learned: the evaluation is the compiled-in learned one. After a single expansion
 * (expand=all, no playout, reward=margin) each root child's minimax value is its learned
 * evaluation scaled as a margin, for the side that moved into it; on a board that is not the
 * set's the agent's check asks for a set fitted on first use, which a program without the fit
 * (this one: learned_auto_install is the anywoli command's) refuses. */
static void test_learned_weights(void **state)
{
    (void)state;
    Variant v, small;
    tu_variant("", &v);
    tu_variant("holes=7", &small);
    Learned *L;
    Error e;
    if (learned_prepare(learned_builtin("learned"), &v, &L, &e) != 0)
        fail_msg("%s", e.msg);
    Agent a;
    make_agent(&a, "mcts:playouts=1,policy=none,expand=all,minimax=1,reward=margin,"
                   "weights=learned");
    assert_int_equal(agent_check_variant(&a, &v, &e), 0);
    assert_int_equal(agent_check_variant(&a, &small, &e), -1);
    assert_non_null(strstr(e.msg, "weights=learned"));
    enum { MAX_TREE = 4 * MAX_PITS * MAX_PITS };
    MctsTreeNode t[MAX_TREE];
    int checked = 0;
    for (uint64_t g = 0; g < 12; g++) {
        Position p;
        if (!random_position(&v, g, 10 + 3 * (int)g, &p) || !(p.legal & (p.legal - 1)))
            continue;
        Rng r;
        rng_seed(&r, g, 0, 0);
        AgentStats st = { 0, 0, 0, 0 };
        agent_new_game(&a);
        a.choose(&a, &v, &p, &r, &st);
        uint32_t n = mcts_tree(&a, t, MAX_TREE);
        for (uint32_t i = 1; i < n; i++) {
            Position c;
            MoveInfo info;
            bool leaf = true;   /* the playout's own descent may have expanded a child */
            for (uint32_t j = i + 1; j < n; j++)
                leaf &= t[j].parent != (int32_t)i;
            if (t[i].parent != 0 || !leaf ||
                pos_play(&v, &p, t[i].move, &c, &info, NULL) >= EV_OVER)
                continue;
            int32_t x = learned_eval(L, &v, &c);
            double south = 0.5 + (double)(c.side == SOUTH ? x : -x) / EVAL_SCALE / (2.0 * v.total);
            south = south < 0 ? 0 : south > 1 ? 1 : south;
            double want = t[i].mover == SOUTH ? south : 1 - south;
            if (fabs(t[i].tau - want) > 1e-5)
                fail_msg("%s: move %d: tau %.7f, learned %.7f", tu_apn(&v, &p), t[i].move,
                         t[i].tau, want);
            checked++;
        }
    }
    assert_true(checked > 30);
    agent_free(&a);
    learned_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver_plays_a_proven_win_at_once),
        cmocka_unit_test(test_solver_agrees_with_exact_values),
        cmocka_unit_test(test_solver_with_tables),
        cmocka_unit_test(test_solver_is_deterministic),
        cmocka_unit_test(test_capture_policy_plays_a_capture),
        cmocka_unit_test(test_minimax_off_is_unchanged),
        cmocka_unit_test(test_minimax_values_are_the_tree_minimax),
        cmocka_unit_test(test_reuse_keeps_the_subtree),
        cmocka_unit_test(test_minimax_finds_a_capture_chain),
        cmocka_unit_test(test_minimax_avoids_a_shallow_trap),
        cmocka_unit_test(test_learned_weights),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
