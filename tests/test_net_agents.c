/* test_net_agents.c: the network evaluation in the search agents (weights=net in alphabeta,
 * strong and mcts; agents/net.h). A depth-1 search values each root move at exactly the
 * network's value of its child; the searches that keep the first layer's sums along their path
 * and update them move by move equal the same searches computing every evaluation's sums
 * afresh, value for value and node for node (alphabeta_net_full); mcts with expand=all values
 * each new child by the network; complete games are legal and the same for the same seed,
 * for any number of threads; net= without weights=net, a file that is not a network and a
 * network of another board are refused with one line naming the agent. */
#include <math.h>
#include <time.h>

#include "test_util.h"

#define TEST_TMP_NAME "net-agents"
#include "test_tmp.h"

#include "agent.h"
#include "agents_internal.h"
#include "alphabeta.h"
#include "bench_positions.h"
#include "eval.h"
#include "net.h"

static void make_agent(Agent *a, const char *spec)
{
    Error e;
    if (agent_create(a, spec, &e) != 0)
        fail_msg("spec '%s': %s", spec, e.msg);
    agent_new_game(a);
}

/* The network's value of c (not over) for its side to move, from sums computed in full. */
static int32_t net_value(const Net *n, const Variant *v, const Position *c)
{
    NetAcc a;
    net_acc_full(n, v, c, &a);
    return net_eval(n, v, c, &a);
}

/* The compiled-in network prepared for v (the standard board). */
static Net *builtin_net(const Variant *v)
{
    Net *n;
    Error e;
    if (net_prepare(net_builtin(), v, &n, &e) != 0)
        fail_msg("%s", e.msg);
    return n;
}

/* Depth 1, every root move valued: a move that does not end the game is worth its child's
 * network value for the side that moved (negated when the turn passes), as computed here
 * from the network alone; a move that ends it, the exact final score. */
static void test_depth_one_is_the_network(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < BENCH_POSITIONS; i++) {
        Variant v;
        Position p;
        tu_position("", bench_positions[i], &v, &p);
        Net *n = builtin_net(&v);
        Agent a;
        Error e;
        make_agent(&a, "alphabeta:ties=first,weights=net");
        if (alphabeta_analysis_begin(&a, &v, &p, &e) != 0)
            fail_msg("%s", e.msg);
        AlphabetaIteration it;
        assert_true(alphabeta_analysis_depth(&a, &p, 1, MAX_PITS, 0, &it));
        for (uint64_t m = pos_legal_mask(&v, &p); m; m &= m - 1) {
            int move = __builtin_ctzll(m);
            Position c;
            MoveInfo info;
            MoveEvent ev = pos_play(&v, &p, move, &c, &info, NULL);
            int32_t want = ev >= EV_OVER ? eval_final(&v, &c, ev)
                           : c.side == p.side ? net_value(n, &v, &c) : -net_value(n, &v, &c);
            if (it.move_value[move] != want)
                fail_msg("%s: move %d: the search's %d, the network's %d", tu_apn(&v, &p), move,
                         it.move_value[move], want);
            checked++;
        }
        agent_free(&a);
        net_free(n);
    }
    assert_true(checked > 5 * BENCH_POSITIONS);
}

/* One game's searches by two agents of spec, one updating its sums along the path and one
 * computing them afresh for every evaluation: from bench position i, both search each
 * position and must agree on the move, the nodes, the depth and the value; the move is then
 * played, up to `moves` of them. Returns the searches compared. */
static int compare_game(const char *spec, int i, int moves)
{
    Variant v;
    Position p;
    tu_position("", bench_positions[i], &v, &p);
    Agent inc, full;
    make_agent(&inc, spec);
    make_agent(&full, spec);
    assert_true(alphabeta_net_full(&full, true));
    int searches = 0;
    for (int k = 0; k < moves && !pos_over(&v, &p); k++) {
        AgentStats a = { 0 }, b = { 0 };
        Rng r1, r2;
        rng_seed(&r1, 11, (uint64_t)i, (uint64_t)k);
        r2 = r1;
        int m1 = inc.choose(&inc, &v, &p, &r1, &a);
        int m2 = full.choose(&full, &v, &p, &r2, &b);
        if (m1 != m2 || a.nodes != b.nodes || a.depth != b.depth || a.value != b.value)
            fail_msg("%s at %s: updated sums move %d, %llu nodes, depth %d, value %g; afresh "
                     "move %d, %llu nodes, depth %d, value %g", spec, tu_apn(&v, &p), m1,
                     (unsigned long long)a.nodes, a.depth, a.value, m2,
                     (unsigned long long)b.nodes, b.depth, b.value);
        assert_true(m1 >= 0 && (pos_legal_mask(&v, &p) >> m1 & 1));
        MoveInfo info;
        pos_play(&v, &p, m1, &p, &info, NULL);
        searches++;
    }
    agent_free(&inc);
    agent_free(&full);
    return searches;
}

/* The sums updated along the path are those computed afresh: the same searches, for the
 * exact search (quiescence extensions too, and the choice among near-best moves, which
 * values every candidate), the strong player (its table kept through the game, reductions,
 * reverse futility, which evaluates a node itself, and transposition cut-offs). */
static void test_updated_sums_are_full_sums(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "alphabeta:ties=first,weights=net,depth=6",
        "alphabeta:ties=first,weights=net,depth=5,quiesce=6",
        "alphabeta:weights=net,depth=4,margin=1",
        "strong:tables=,ties=first,weights=net,nodes=15000,rfp=30,etc=1",
        "strong:tables=,weights=net,nodes=8000,quiesce=4",
    };
    int searches = 0;
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
        for (int i = (int)s; i < BENCH_POSITIONS; i += 7)
            searches += compare_game(specs[s], i, 6);
    assert_true(searches > 100);
}

/* The analysis too (alphabeta_analysis_depth): every root move's value and the principal
 * variation at each depth, with sums updated or afresh. */
static void test_analysis_updated_is_full(void **state)
{
    (void)state;
    for (int i = 0; i < BENCH_POSITIONS; i += 5) {
        Variant v;
        Position p;
        tu_position("", bench_positions[i], &v, &p);
        Agent inc, full;
        Error e;
        make_agent(&inc, "alphabeta:weights=net,quiesce=2");
        make_agent(&full, "alphabeta:weights=net,quiesce=2");
        assert_true(alphabeta_net_full(&full, true));
        if (alphabeta_analysis_begin(&inc, &v, &p, &e) != 0 ||
            alphabeta_analysis_begin(&full, &v, &p, &e) != 0)
            fail_msg("%s", e.msg);
        for (int d = 1; d <= 6; d++) {
            AlphabetaIteration a, b;
            assert_true(alphabeta_analysis_depth(&inc, &p, d, MAX_PITS, 0, &a));
            assert_true(alphabeta_analysis_depth(&full, &p, d, MAX_PITS, 0, &b));
            assert_true(a.value == b.value && a.nodes == b.nodes && a.pv_len == b.pv_len);
            assert_memory_equal(a.move_value, b.move_value, sizeof a.move_value);
            assert_memory_equal(a.pv, b.pv, (size_t)a.pv_len * sizeof a.pv[0]);
        }
        agent_free(&inc);
        agent_free(&full);
    }
}

/* A position reached from the start by `plies` moves drawn from (game, 0): false if the
 * game ended first. */
static bool random_position(const Variant *v, uint64_t game, int plies, Position *p)
{
    Rng r;
    rng_seed(&r, 5, game, 0);
    pos_start(v, p);
    for (int k = 0; k < plies; k++) {
        MoveInfo info;
        if (pos_play(v, p, pos_random_move(p, &r), p, &info, NULL) >= EV_OVER)
            return false;
    }
    return true;
}

/* mcts with expand=all and no playout: after one expansion each root child's minimax value
 * is the network's value of its position (sums updated from the root's), scaled as a margin
 * for the side that moved into it. */
static void test_mcts_children_are_the_network(void **state)
{
    (void)state;
    Variant v;
    tu_variant("", &v);
    Net *n = builtin_net(&v);
    Agent a;
    make_agent(&a, "mcts:playouts=1,policy=none,expand=all,minimax=1,reward=margin,"
                   "weights=net");
    enum { MAX_TREE = 4 * MAX_PITS * MAX_PITS };
    MctsTreeNode t[MAX_TREE];
    int checked = 0;
    for (uint64_t g = 0; g < 12; g++) {
        Position p;
        if (!random_position(&v, g, 10 + 3 * (int)g, &p) || !(p.legal & (p.legal - 1)))
            continue;
        Rng r;
        rng_seed(&r, g, 0, 0);
        AgentStats st = { 0 };
        agent_new_game(&a);
        a.choose(&a, &v, &p, &r, &st);
        uint32_t count = mcts_tree(&a, t, MAX_TREE);
        for (uint32_t i = 1; i < count; i++) {
            Position c;
            MoveInfo info;
            bool leaf = true;   /* the iteration's own descent may have expanded a child */
            for (uint32_t j = i + 1; j < count; j++)
                leaf &= t[j].parent != (int32_t)i;
            if (t[i].parent != 0 || !leaf ||
                pos_play(&v, &p, t[i].move, &c, &info, NULL) >= EV_OVER)
                continue;
            int32_t x = net_value(n, &v, &c);
            double south = 0.5 + (double)(c.side == SOUTH ? x : -x) / EVAL_SCALE / (2.0 * v.total);
            south = south < 0 ? 0 : south > 1 ? 1 : south;
            double want = t[i].mover == SOUTH ? south : 1 - south;
            if (fabs(t[i].tau - want) > 1e-6)
                fail_msg("%s: move %d: tau %.7f, the network's %.7f", tu_apn(&v, &p),
                         t[i].move, t[i].tau, want);
            checked++;
        }
    }
    assert_true(checked > 30);
    agent_free(&a);
    net_free(n);
}

/* The specs whose games are played, one of each kind (mcts both ways of expanding). */
static const char *const game_specs[] = {
    "alphabeta:depth=3,weights=net",
    "strong:tables=,nodes=3000,weights=net",
    "mcts:playouts=150,weights=net",
    "mcts:playouts=150,weights=net,expand=all,policy=none,minimax=1",
};
/* Whether each spec's games must end within MAX_GAME moves: MCTS's at 150 playouts a move
 * may shuffle a decided endgame's few seeds for thousands of moves (as with the learned
 * set), so theirs are held to legality and repeatability alone. */
static const bool game_must_end[] = { true, true, false, false };
enum { GAME_SPECS = sizeof game_specs / sizeof game_specs[0], MAX_GAME = 400 };

/* A game of spec against itself from the start, its stream from seed: its moves into
 * moves[] (at most MAX_GAME), -1 after the last; how it ended (pos_over, or the plies ran
 * out). Every move is legal. */
static int self_play(const char *spec, uint64_t seed, int *moves)
{
    Variant v;
    tu_variant("", &v);
    Position p;
    pos_start(&v, &p);
    Agent a;
    Error e;
    if (agent_create(&a, spec, &e) != 0 || agent_check_variant(&a, &v, &e) != 0)
        return -2;
    agent_new_game(&a);
    Rng r;
    rng_seed(&r, 17, seed, 0);
    int k = 0;
    MoveEvent ev = EV_NEXT;
    for (; k < MAX_GAME && ev < EV_OVER; k++) {
        AgentStats st = { 0 };
        int m = a.choose(&a, &v, &p, &r, &st);
        if (m < 0 || !(pos_legal_mask(&v, &p) >> m & 1))
            return -3;
        moves[k] = m;
        MoveInfo info;
        ev = pos_play(&v, &p, m, &p, &info, NULL);
    }
    if (k < MAX_GAME)
        moves[k] = -1;
    agent_free(&a);
    return ev >= EV_OVER ? 1 : 0;
}

/* Complete games, legal, the same for the same seed whether played by 1, 2 or 3 threads
 * (each game's agent its own, the compiled-in network shared). */
static void test_games_legal_and_repeatable(void **state)
{
    (void)state;
    enum { SEEDS = 2, N = GAME_SPECS * SEEDS };
    static int moves[3][N][MAX_GAME];
    static int ended[3][N];
    for (int t = 1; t <= 3; t++) {
#pragma omp parallel for num_threads(t) schedule(dynamic)
        for (int k = 0; k < N; k++)
            ended[t - 1][k] = self_play(game_specs[k / SEEDS], (uint64_t)(k % SEEDS),
                                        moves[t - 1][k]);
    }
    for (int k = 0; k < N; k++) {
        if (ended[0][k] < 0 || (ended[0][k] == 0 && game_must_end[k / SEEDS]))
            fail_msg("%s, seed %d: %s", game_specs[k / SEEDS], k % SEEDS,
                     ended[0][k] == 0 ? "not over after MAX_GAME moves" : "refused or illegal");
        for (int t = 1; t < 3; t++) {
            assert_int_equal(ended[t][k], ended[0][k]);
            assert_memory_equal(moves[t][k], moves[0][k], sizeof moves[0][k]);
        }
    }
}

/* A 6-hole network written to a file: its layer weights from a fixed formula. */
static const char *six_hole_net(void)
{
    const char *path = tmp_path("six.net");
    NetFile *f = net_file_new(6, 4, 2, 8, 4, 0);
    assert_non_null(f);
    snprintf(f->name, sizeof f->name, "six");
    snprintf(f->about, sizeof f->about, "a test network");
    for (int i = 0; i < f->inputs * f->h1; i++)
        f->w1[i] = (float)((i * 7 % 13) - 6) / 20;
    for (int i = 0; i < f->h2 * 2 * f->h1; i++)
        f->w2[i] = (float)((i * 5 % 11) - 5) / 10;
    for (int i = 0; i < f->h2; i++)
        f->w3[i] = (float)(i + 1) / 2;
    FILE *out = fopen(path, "w");
    Error e;
    assert_non_null(out);
    if (net_file_write(f, out, &e) != 0)
        fail_msg("%s", e.msg);
    fclose(out);
    net_file_free(f);
    return path;
}

/* One spec refused by agent_create, its message holding `want`. */
static void refused_spec(const char *spec, const char *want)
{
    Agent a;
    Error e;
    if (agent_create(&a, spec, &e) == 0)
        fail_msg("spec '%s' was accepted", spec);
    if (!strstr(e.msg, want) || strchr(e.msg, '\n'))
        fail_msg("spec '%s': '%s' does not say '%s' on one line", spec, e.msg, want);
}

/* One agent refused on a board, its message naming the agent and weights=net. */
static void refused_board(const char *spec, const char *board)
{
    Variant v;
    tu_variant(board, &v);
    Agent a;
    Error e;
    make_agent(&a, spec);
    if (agent_check_variant(&a, &v, &e) == 0)
        fail_msg("spec '%s' accepted the board '%s'", spec, board);
    char name[64];
    snprintf(name, sizeof name, "agent '%.*s'", (int)strcspn(spec, ":"), spec);
    if (!strstr(e.msg, name) || !strstr(e.msg, "weights=net") || strchr(e.msg, '\n'))
        fail_msg("spec '%s' on '%s': '%s'", spec, board, e.msg);
    agent_free(&a);
}

/* net= without weights=net, a file that is not a network, and a network of another board
 * are refused, each with one line; a network file of the board played plays. */
static void test_refusals(void **state)
{
    (void)state;
    static const char *const kinds[] = { "alphabeta", "strong:tables=", "mcts" };
    const char *six = six_hole_net();
    const char *text = tmp_path("not-a-net.txt");
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("anywoli-learned 1\nname x\n", f);
    fclose(f);
    for (int k = 0; k < 3; k++) {
        char spec[512];
        const char *sep = strchr(kinds[k], ':') ? "," : ":";
        snprintf(spec, sizeof spec, "%s%snet=%s", kinds[k], sep, six);
        refused_spec(spec, "needs weights=net");
        snprintf(spec, sizeof spec, "%s%sweights=learned,net=%s", kinds[k], sep, six);
        refused_spec(spec, "needs weights=net");
        snprintf(spec, sizeof spec, "%s%sweights=net,net=%s", kinds[k], sep, text);
        refused_spec(spec, text);
        snprintf(spec, sizeof spec, "%s%sweights=net", kinds[k], sep);
        refused_board(spec, "holes=6");              /* the compiled-in net: 12 holes */
        refused_board(spec, "capture=3");
        snprintf(spec, sizeof spec, "%s%sweights=net,net=%s", kinds[k], sep, six);
        refused_board(spec, "");                     /* a 6-hole network, 12 holes */
        /* ... which plays its own board. */
        Variant v;
        tu_variant("holes=6", &v);
        Agent a;
        Error e;
        Position p;
        pos_start(&v, &p);
        make_agent(&a, spec);
        if (agent_check_variant(&a, &v, &e) != 0)
            fail_msg("%s: %s", spec, e.msg);
        Rng r;
        rng_seed(&r, 1, 2, 3);
        AgentStats st = { 0 };
        int m = a.choose(&a, &v, &p, &r, &st);
        assert_true(m >= 0 && (pos_legal_mask(&v, &p) >> m & 1));
        agent_free(&a);
    }
}

/* The cost of the evaluations in a search (with the arguments `bench [DEPTH [K]]`, K 0 to 2
 * for one of the three alone): alphabeta to DEPTH (8) from every bench position, with the learned evaluation, the network with its sums updated
 * along the path, and the network with every evaluation's sums computed afresh; the nodes,
 * seconds and nodes a second of each, on one thread, the seconds the searches' own: each
 * agent's second search of its position (the first prepared its evaluation; nothing else
 * carries over), timed by the thread's processor time, so that neither the agents' making
 * nor other programs on a shared machine count. */
static void bench(int depth, int only)
{
    static const char *const specs[] = { "weights=learned", "weights=net",
                                         "weights=net (sums afresh)" };
    for (int k = 0; k < 3; k++) {
        if (only >= 0 && k != only)
            continue;
        char spec[128];
        snprintf(spec, sizeof spec, "alphabeta:ties=first,depth=%d,%.*s", depth,
                 (int)strcspn(specs[k], " "), specs[k]);
        uint64_t nodes = 0;
        double sec = 0;
        for (int i = 0; i < BENCH_POSITIONS; i++) {
            Variant v;
            Position p;
            tu_position("", bench_positions[i], &v, &p);
            Agent a;
            make_agent(&a, spec);
            if (k == 2)
                alphabeta_net_full(&a, true);
            Rng r;
            rng_seed(&r, 1, 0, (uint64_t)i);
            AgentStats st = { 0 };
            a.choose(&a, &v, &p, &r, &st);   /* the evaluation prepared: not timed */
            rng_seed(&r, 1, 0, (uint64_t)i);
            st = (AgentStats){ 0 };
            struct timespec t0, t1;
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
            a.choose(&a, &v, &p, &r, &st);
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
            sec += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
            nodes += st.nodes;
            agent_free(&a);
        }
        printf("depth %d %-26s %10llu nodes %7.3f s %10.0f nodes/s\n", depth, specs[k],
               (unsigned long long)nodes, sec, nodes / sec);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "bench") == 0) {
        bench(argc > 2 ? atoi(argv[2]) : 8, argc > 3 ? atoi(argv[3]) : -1);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_one_is_the_network),
        cmocka_unit_test(test_updated_sums_are_full_sums),
        cmocka_unit_test(test_analysis_updated_is_full),
        cmocka_unit_test(test_mcts_children_are_the_network),
        cmocka_unit_test(test_games_legal_and_repeatable),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
