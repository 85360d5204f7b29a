/* test_agents.c: the agents against their definitions: the registry and its specs, the
 * random agent's draw, legal and reproducible choices on many variants and on every position
 * of the rule vectors, alpha-beta against a plain minimax written here, exact end scores
 * against pos_award, each evaluation term, greedy's immediate result (extra moves valued by
 * their best follow-up), MCTS's playout keys, a won position that every searching agent must
 * find and a position where alpha-beta must avoid a one-move loss; a stop request that makes
 * every search give up at once and changes nothing after it. */
#include "test_util.h"
#include "test_weights.h"

#include <math.h>

#include "agent.h"
#include "eval.h"

/* Variants with every rule switch and board sizes where endless moves are common. */
static const char *const variants[] = {
    "",
    "variant=yit-nuri",
    "variant=yit-jani",
    "holes=5 seeds=4",
    "holes=3 seeds=3",
    "holes=4 seeds=3 final_four=lottery",
    "holes=6 seeds=2 final_four=first-final",
    "holes=5 seeds=3 extra_turn=no",
    "holes=5 seeds=4 skip_origin=yes",
    "holes=6 seeds=3 capture=3",
};
#define VARIANTS_NB ((int)(sizeof variants / sizeof variants[0]))

/* A position of variant v after k random plies of game g (the start if they end the game). */
static void random_position(const Variant *v, int g, int k, Position *p)
{
    Rng r;
    rng_seed(&r, 77, 0, (uint64_t)g);
    pos_start(v, p);
    for (int i = 0; i < k; i++) {
        Position next;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, pos_random_move(p, &r), &next, &info, NULL);
        if (ev == EV_ENDLESS || pos_over(v, &next))
            return;
        *p = next;
    }
}

/* An agent from a spec that must be valid. */
static void make_agent(Agent *a, const char *spec)
{
    Error e;
    if (agent_create(a, spec, &e) != 0)
        fail_msg("spec '%s': %s", spec, e.msg);
}

/* The weights part of an agent's full spec: from "w.store=" to the end. */
static const char *described_weights(const char *spec, char *full, size_t len)
{
    Agent a;
    make_agent(&a, spec);
    agent_describe(&a, full, len);
    agent_free(&a);
    const char *w = strstr(full, "w.store=");
    assert_non_null(w);
    return w;
}

/* alphabeta's default weights by depth (weights=auto): the plain set below EVAL_TUNED_FROM,
 * the tuned set (with its fade) from it; weights=plain and weights=tuned choose one at any
 * depth; a weight or fade given in the spec overrides the set's; the full spec reads back
 * as the same weights. */
static void test_weight_sets(void **state)
{
    (void)state;
    static const char plain[] = "w.store=1,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,"
                                "w.opp_empty=0,w.mobility=0,w.final=0,fade=0";
    static const char tuned[] = "w.store=1,w.seeds=-0.16,w.threes=3.79,w.opp_threes=-1,"
                                "w.empty=-0.89,w.opp_empty=0.65,w.mobility=0,w.final=0.41,"
                                "fade=0.25";
    static const struct {
        const char *spec, *weights;
    } cases[] = {
        { "alphabeta:depth=1", plain },
        { "alphabeta:depth=3", plain },
        { "alphabeta:depth=4", tuned },
        { "alphabeta:depth=10,nodes=5000", tuned },
        { "alphabeta:depth=8,weights=plain", plain },
        { "alphabeta:depth=2,weights=tuned", tuned },
        { "alphabeta:depth=6,w.seeds=0.3,fade=0",
          "w.store=1,w.seeds=0.3,w.threes=3.79,w.opp_threes=-1,w.empty=-0.89,"
          "w.opp_empty=0.65,w.mobility=0,w.final=0.41,fade=0" },
        { "alphabeta:depth=2,w.threes=1,fade=0.5",
          "w.store=1,w.seeds=0.1,w.threes=1,w.opp_threes=0,w.empty=0,w.opp_empty=0,"
          "w.mobility=0,w.final=0,fade=0.5" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char full[1024], again[1024];
        const char *w = described_weights(cases[i].spec, full, sizeof full);
        if (strcmp(w, cases[i].weights) != 0)
            fail_msg("%s: weights %s, expected %s", cases[i].spec, w, cases[i].weights);
        assert_string_equal(described_weights(full, again, sizeof again), w);
    }
    /* The full spec names every weight, so a described shallow agent forced to the other
     * set keeps what it was told. */
    char full[1024];
    assert_string_equal(described_weights("alphabeta:depth=2,weights=tuned,w.seeds=0.1", full,
                                          sizeof full),
                        "w.store=1,w.seeds=0.1,w.threes=3.79,w.opp_threes=-1,w.empty=-0.89,"
                        "w.opp_empty=0.65,w.mobility=0,w.final=0.41,fade=0.25");
}

/* Every agent of the registry builds with its defaults, and its full spec reads back as
 * the same agent. */
static void test_registry(void **state)
{
    (void)state;
    int n = 0;
    for (const AgentKind *k; (k = agent_kind(n)); n++) {
        Agent a, b;
        char full[1024], again[1024];
        make_agent(&a, k->example ? k->example : k->name);   /* its process is not started */
        assert_string_equal(a.name, k->name);
        agent_describe(&a, full, sizeof full);
        make_agent(&b, full);
        agent_describe(&b, again, sizeof again);
        assert_string_equal(full, again);
        agent_free(&a);
        agent_free(&b);
    }
    assert_int_equal(n, 6);
    assert_null(agent_kind(-1));

    Agent a;
    char full[1024];
    make_agent(&a, "alphabeta:w.seeds=0.25,depth=3,ties=first");
    agent_describe(&a, full, sizeof full);
    assert_string_equal(full, "alphabeta:depth=3,nodes=0,tt=16,ties=first,margin=0,temperature=0,"
                              "choice_moves=0,quiesce=0,weights=auto,w.store=1,w.seeds=0.25,w.threes=0,w.opp_threes=0,w.empty=0,"
                              "w.opp_empty=0,w.mobility=0,w.final=0,fade=0");
    agent_free(&a);

    /* The issue's own examples, and every key of MCTS. */
    static const char *const good[] = {
        "random", "greedy", "alphabeta:depth=6", "alphabeta:depth=4,w.store=1,w.threes=-0.4",
        "mcts:playouts=2000,c=1.2", "mcts:policy=greedy,horizon=0,w.final=2,reward=margin",
        "alphabeta:w.opp_threes=0.5,w.empty=-1,w.opp_empty=1,w.mobility=0.5,w.final=3",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        make_agent(&a, good[i]);
        agent_free(&a);
    }
    make_agent(&a, "mcts:policy=greedy,horizon=7,w.threes=-0.4");
    agent_describe(&a, full, sizeof full);
    assert_string_equal(full, "mcts:playouts=1000,c=0.35,reward=win,horizon=7,policy=greedy,"
                              "epsilon=0,tries=0,temperature=0,choice_moves=0,solver=1,minimax=0,"
                              "squash=0,weights=store,expand=one,reuse=0,"
                              "w.store=1,w.seeds=0,w.threes=-0.4,w.opp_threes=0,"
                              "w.empty=0,w.opp_empty=0,w.mobility=0,w.final=0,fade=0");
    agent_free(&a);
}

/* Bad specs: -1 and a one-line message naming the problem. */
static void test_spec_errors(void **state)
{
    (void)state;
    static const struct { const char *spec, *want; } bad[] = {
        { "minimax", "agent 'minimax': unknown (expected random, greedy, alphabeta, strong, mcts or external)" },
        { "random:depth=3", "takes no options" },
        { "alphabeta:deep=3", "unknown option 'deep'" },
        { "alphabeta:depth", "'depth' is not key=value" },
        { "alphabeta:depth=0", "depth=0 is out of range (1 to 64)" },
        { "alphabeta:depth=2.5", "not a whole number" },
        { "alphabeta:depth=x", "depth=x is not a number" },
        { "alphabeta:ties=best", "ties=best is not one of random or first" },
        { "alphabeta:w.luck=1", "unknown option 'w.luck'" },
        { "alphabeta:w.ready=1", "unknown option 'w.ready' (expected depth, nodes, tt, ties, "
                                 "margin, temperature, choice_moves, quiesce, tables, weights, learned, net, w.store, w.seeds, "
                                 "w.threes, w.opp_threes, w.empty, "
                                 "w.opp_empty, w.mobility, w.final or fade)" },
        { "alphabeta:w.threes=-0.4x", "w.threes=-0.4x is not a number" },
        { "alphabeta:fade=1.5", "fade=1.5 is out of range (0 to 1)" },
        { "mcts:plies=20", "unknown option 'plies'" },
        { "mcts:horizon=-1", "horizon=-1 is out of range" },
        { "mcts:policy=smart", "policy=smart is not one of random, greedy, capture or none" },
        { "mcts:solver=2", "agent 'mcts': solver=2 is out of range (0 to 1)" },
        { "mcts:epsilon=1.5", "agent 'mcts': epsilon=1.5 is out of range (0 to 1)" },
        { "mcts:tries=65", "agent 'mcts': tries=65 is out of range (0 to 64)" },
        { "mcts:tables=/nonexistent/k8.tables",
          "agent 'mcts': tables=/nonexistent/k8.tables: cannot open" },
        { "mcts:w.final=2000", "w.final=2000 is out of range" },
        { "greedy:depth=1", "takes no options" },
        { "alphabeta:w.store=1e9", "out of range" },
        { "mcts:playouts=0", "playouts=0 is out of range" },
        { "mcts:c=inf", "is not a number" },
        { "alphabeta:depth=0x4", "agent 'alphabeta': depth=0x4 is not a number (decimal, as "
                                 "12, -0.5 or 1e6)" },
        { "alphabeta:w.store= 1", "agent 'alphabeta': w.store= 1 is not a number" },
        { "alphabeta:w.store=1 ", "agent 'alphabeta': w.store=1  is not a number" },
        { "mcts:c=nan", "agent 'mcts': c=nan is not a number" },
        { "alphabeta:depth=3,depth=5", "agent 'alphabeta': depth is given twice (each option "
                                       "once)" },
        { "alphabeta:w.store=1,w.seeds=2,w.store=1", "w.store is given twice" },
        { "alphabeta:w.store=1e-400", "agent 'alphabeta': w.store=1e-400 is out of range (a "
                                      "number other than 0 must be at least 2.22507e-308 in "
                                      "size)" },
        { "alphabeta:w.store=1e400", "agent 'alphabeta': w.store=1e400 is out of range (" },
        { "alphabeta:depth=1e99", "depth=1e99 is out of range (1 to 64)" },
        { "mcts:reward=score", "not one of win or margin" },
        { "alphabeta:margin=-1", "agent 'alphabeta': margin=-1 is out of range (0 to 1000)" },
        { "alphabeta:margin=two", "agent 'alphabeta': margin=two is not a number" },
        { "alphabeta:temperature=1e4", "agent 'alphabeta': temperature=1e4 is out of range (0 "
                                       "to 1000)" },
        { "mcts:temperature=-0.5", "agent 'mcts': temperature=-0.5 is out of range (0 to "
                                   "1000)" },
        { "mcts:margin=1", "agent 'mcts': unknown option 'margin'" },
        { "alphabeta:choice_moves=2.5", "agent 'alphabeta': choice_moves=2.5 is not a whole "
                                        "number" },
        { "mcts:choice_moves=-1", "agent 'mcts': choice_moves=-1 is out of range (0 to 1e+09)" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Agent a;
        Error e;
        e.msg[0] = '\0';
        if (agent_create(&a, bad[i].spec, &e) != -1)
            fail_msg("spec '%s' was accepted", bad[i].spec);
        if (!strstr(e.msg, bad[i].want) || strchr(e.msg, '\n'))
            fail_msg("spec '%s': message '%s' lacks '%s'", bad[i].spec, e.msg, bad[i].want);
    }
}

/* The random agent draws exactly as pos_random_move does, draw for draw. */
static void test_random_same_draw(void **state)
{
    (void)state;
    Agent a;
    make_agent(&a, "random");
    for (int vi = 0; vi < VARIANTS_NB; vi++) {
        Variant v;
        Position p;
        tu_variant(variants[vi], &v);
        Rng r1, r2;
        rng_seed(&r1, 3, (uint64_t)vi, 0);
        r2 = r1;
        pos_start(&v, &p);
        for (int ply = 0; ply < 300 && !pos_over(&v, &p); ply++) {
            AgentStats st = { 0, 0, 0, 0 };
            int m = a.choose(&a, &v, &p, &r1, &st);
            assert_int_equal(m, pos_random_move(&p, &r2));
            assert_true(r1.ctr == r2.ctr);
            MoveInfo info;
            if (pos_play(&v, &p, m, &p, &info, NULL) == EV_ENDLESS)
                break;
        }
    }
    agent_free(&a);
}

/* Small budgets of every agent, for the legality and reproducibility checks. */
static const char *const quick_specs[] = {
    "random", "greedy", "alphabeta:depth=3", "alphabeta:depth=4,tt=0,ties=first",
    "alphabeta:depth=6,nodes=300,w.seeds=0.3,w.threes=0.5,w.mobility=0.2,w.final=1",
    "mcts:playouts=60", "mcts:playouts=40,reward=margin,c=0",
    "mcts:playouts=30,policy=greedy,horizon=10,w.opp_threes=1",
    "mcts:playouts=20,horizon=0", "mcts:playouts=30,policy=capture,tries=3",
};
#define QUICK_NB ((int)(sizeof quick_specs / sizeof quick_specs[0]))

/* Every agent chooses a legal move, and the same move with the same work again from the
 * same stream, whatever it searched in between. */
static void test_legal_and_reproducible(void **state)
{
    (void)state;
    for (int s = 0; s < QUICK_NB; s++) {
        Agent a;
        make_agent(&a, quick_specs[s]);
        for (int vi = 0; vi < VARIANTS_NB; vi++) {
            Variant v;
            tu_variant(variants[vi], &v);
            agent_new_game(&a);
            for (int g = 0; g < 6; g++) {
                Position p, other;
                random_position(&v, g, 3 * g, &p);
                random_position(&v, g + 100, 5, &other);
                Rng r, again, spare;
                rng_seed(&r, 11, (uint64_t)s, (uint64_t)g);
                again = r;
                spare = r;
                AgentStats st1 = { 0, 0, 0, 0 }, st2 = { 0, 0, 0, 0 }, st3 = { 0, 0, 0, 0 };
                int m1 = a.choose(&a, &v, &p, &r, &st1);
                if (!pos_move_ok(&v, &p, m1, NULL))
                    fail_msg("%s on '%s': illegal move %d in %s", quick_specs[s], variants[vi],
                             m1, tu_apn(&v, &p));
                if (!pos_over(&v, &other))
                    a.choose(&a, &v, &other, &spare, &st3);
                int m2 = a.choose(&a, &v, &p, &again, &st2);
                assert_int_equal(m1, m2);
                assert_true(st1.nodes == st2.nodes && st1.playouts == st2.playouts);
                assert_true(st1.value == st2.value && st1.depth == st2.depth);
                assert_true(r.ctr == again.ctr);
            }
        }
        agent_free(&a);
    }
}

/* Plain negamax, no pruning: the depth-limited value of p (not over) for its side to move,
 * from the definitions alone (a child's value is negated only when the side changes). At
 * the horizon, a child reached by a final-seed capture (an extra move) is searched one ply
 * more while `quiesce` extension plies are left (alphabeta's quiesce option), unless the
 * mover's row is then empty: the opponent moves after the pass, so there is no extra move to
 * search (and the child's value is the opponent's, to negate like any other). */
static int32_t reference_value_q(const Variant *v, const Evaluator *ev, const Position *p,
                                 int depth, int quiesce)
{
    int32_t best = INT32_MIN;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        Position c;
        MoveInfo info;
        MoveEvent e = pos_play(v, p, __builtin_ctzll(m), &c, &info, NULL);
        int32_t val;
        if (e == EV_OVER || e == EV_ENDLESS)
            val = eval_final(v, &c, e);
        else if (depth == 1 && e == EV_EXTRA && c.side == p->side && quiesce > 0)
            val = reference_value_q(v, ev, &c, 1, quiesce - 1);
        else if (depth == 1)
            val = eval_position(ev, v, &c) * (c.side == p->side ? 1 : -1);
        else
            val = reference_value_q(v, ev, &c, depth - 1, quiesce) * (c.side == p->side ? 1 : -1);
        if (val > best)
            best = val;
    }
    return best;
}

/* The plain depth-limited value, no extension. */
static int32_t reference_value(const Variant *v, const Evaluator *ev, const Position *p,
                               int depth)
{
    return reference_value_q(v, ev, p, depth, 0);
}

/* The reference value of one move: its child's value for p's side to move. */
static int32_t reference_move_value(const Variant *v, const Evaluator *ev, const Position *p,
                                    int move, int depth)
{
    Position c;
    MoveInfo info;
    MoveEvent e = pos_play(v, p, move, &c, &info, NULL);
    if (e == EV_OVER || e == EV_ENDLESS)
        return eval_final(v, &c, e);
    int32_t val = depth == 1 ? eval_position(ev, v, &c) : reference_value(v, ev, &c, depth - 1);
    return c.side == p->side ? val : -val;
}

/* Alpha-beta (PVS, table, history, sorting) returns exactly the minimax value at every
 * depth, with and without its table and with every evaluation term, and picks a move
 * of that value. */
static void test_alphabeta_is_minimax(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "alphabeta:tt=16," TW_EVERY_TERM,
        "alphabeta:tt=0,ties=first",
        "alphabeta:tt=4",   /* a tiny table: many collisions of slots, none of keys */
    };
    int checked = 0;
    for (int s = 0; s < 3; s++) {
        for (int vi = 0; vi < VARIANTS_NB; vi++) {
            Variant v;
            tu_variant(variants[vi], &v);
            const int max_depth = v.holes >= 12 ? 3 : v.holes >= 7 ? 4 : 6;
            for (int depth = 1; depth <= max_depth; depth++) {
                char spec[200];
                snprintf(spec, sizeof spec, "%s,depth=%d", specs[s], depth);
                Agent a;
                make_agent(&a, spec);
                EvalWeights w;
                Evaluator ev;
                tw_auto(depth, &w);
                if (s == 0)
                    tw_every_term(&w);
                eval_prepare(&w, &ev);
                for (int g = 0; g < 5; g++) {
                    Position p;
                    random_position(&v, g + 10 * depth, 2 * g + 1, &p);
                    if (__builtin_popcountll(pos_legal_mask(&v, &p)) < 2)
                        continue;
                    Rng r;
                    rng_seed(&r, 5, (uint64_t)depth, (uint64_t)g);
                    AgentStats st = { 0, 0, 0, 0 };
                    int m = a.choose(&a, &v, &p, &r, &st);
                    int32_t want = reference_value(&v, &ev, &p, depth);
                    int32_t got = (int32_t)(st.value * EVAL_SCALE + (st.value < 0 ? -0.5 : 0.5));
                    if (got != want || st.depth != depth)
                        fail_msg("%s on '%s' at %s: value %d depth %d, minimax %d", spec,
                                 variants[vi], tu_apn(&v, &p), got, st.depth, want);
                    assert_int_equal(reference_move_value(&v, &ev, &p, m, depth), want);
                    checked++;
                }
                agent_free(&a);
            }
        }
    }
    assert_true(checked > 500);
}

/* With quiesce, alpha-beta returns exactly the extended minimax value (extra moves at the
 * horizon searched on, within the budget) at every depth, with and without its table, and
 * picks a move of that value; quiesce=0 is the plain search. */
static void test_alphabeta_quiesce_is_extended_minimax(void **state)
{
    (void)state;
    /* Weights that value threes highly (the depth-4 tuning's), in the agents and the
     * reference alike: with them a final-seed capture that empties the mover's row (the
     * mover then passes) decides values here, which store and seeds alone rarely do. */
#define QUIESCE_WEIGHTS \
    "w.store=1,w.seeds=-0.16,w.threes=3.79,w.opp_threes=-1,w.empty=-0.89,w.opp_empty=0.65," \
    "w.mobility=0,w.final=0.41"
    /* Unfaded, as the reference evaluates (the tuned set's fade is its default from depth 4). */
    static const char *const specs[] = { "alphabeta:tt=16,fade=0," QUIESCE_WEIGHTS,
                                         "alphabeta:tt=0,ties=first,fade=0," QUIESCE_WEIGHTS };
    static const int budgets[] = { 0, 1, 3, 24 };
    int checked = 0, extended = 0;
    for (int s = 0; s < 2; s++) {
        for (int vi = 0; vi < VARIANTS_NB; vi++) {
            Variant v;
            tu_variant(variants[vi], &v);
            const int max_depth = v.holes >= 12 ? 3 : 4;
            for (int q = 0; q < 4; q++) {
                for (int depth = 1; depth <= max_depth; depth++) {
                    char spec[200];
                    snprintf(spec, sizeof spec, "%s,depth=%d,quiesce=%d", specs[s], depth,
                             budgets[q]);
                    Agent a;
                    make_agent(&a, spec);
                    EvalWeights w;
                    Evaluator ev;
                    eval_default_with(QUIESCE_WEIGHTS, &w);
                    eval_prepare(&w, &ev);
                    for (int g = 0; g < 6; g++) {
                        Position p;
                        random_position(&v, g + 10 * depth, 2 * g + 3, &p);
                        if (__builtin_popcountll(pos_legal_mask(&v, &p)) < 2)
                            continue;
                        Rng r;
                        rng_seed(&r, 6, (uint64_t)depth, (uint64_t)g);
                        AgentStats st = { 0, 0, 0, 0 };
                        int m = a.choose(&a, &v, &p, &r, &st);
                        int32_t want = reference_value_q(&v, &ev, &p, depth, budgets[q]);
                        int32_t got =
                            (int32_t)(st.value * EVAL_SCALE + (st.value < 0 ? -0.5 : 0.5));
                        if (got != want)
                            fail_msg("%s on '%s' at %s: value %d, extended minimax %d", spec,
                                     variants[vi], tu_apn(&v, &p), got, want);
                        Position c;
                        MoveInfo info;
                        MoveEvent e = pos_play(&v, &p, m, &c, &info, NULL);
                        int32_t mv = e == EV_OVER || e == EV_ENDLESS ? eval_final(&v, &c, e)
                                     : depth == 1 && e == EV_EXTRA && c.side == p.side &&
                                               budgets[q] > 0
                                         ? reference_value_q(&v, &ev, &c, 1, budgets[q] - 1)
                                     : depth == 1
                                         ? eval_position(&ev, &v, &c) *
                                               (c.side == p.side ? 1 : -1)
                                         : reference_value_q(&v, &ev, &c, depth - 1,
                                                             budgets[q]) *
                                               (c.side == p.side ? 1 : -1);
                        assert_int_equal(mv, want);
                        extended += want != reference_value(&v, &ev, &p, depth);
                        checked++;
                    }
                    agent_free(&a);
                }
            }
        }
    }
    assert_true(checked > 300);
    assert_true(extended > 20);   /* the extension changed many values: the check has teeth */
    printf("quiesce: %d searches checked, %d values changed by the extension\n", checked,
           extended);
}

/* A node budget stops deepening: the first ply is always done, the result is legal and the
 * work stays near the budget. */
static void test_alphabeta_budget(void **state)
{
    (void)state;
    Variant v;
    Position p;
    Agent a;
    tu_variant("", &v);
    random_position(&v, 4, 9, &p);
    make_agent(&a, "alphabeta:depth=30,nodes=2000");
    Rng r;
    rng_seed(&r, 1, 1, 1);
    AgentStats st = { 0, 0, 0, 0 };
    int m = a.choose(&a, &v, &p, &r, &st);
    assert_true(pos_move_ok(&v, &p, m, NULL));
    assert_true(st.depth >= 1 && st.depth < 30);
    assert_true(st.nodes >= 2000 && st.nodes < 2000 + 200);
    agent_free(&a);
}

/* A stop request (agent_stop_all) makes every search give up at once, whatever its budget,
 * and changes nothing once cleared: the next search chooses what a fresh agent does. */
static void test_stop_request(void **state)
{
    (void)state;
    static const char *const huge[] = {
        "alphabeta:depth=64,tt=12", "mcts:playouts=100000000",
        "alphabeta:depth=64,tt=12,margin=2", "alphabeta:depth=64,temperature=1",
        "mcts:playouts=100000000,temperature=1",
    };
    static const char *const small[] = {
        "alphabeta:depth=6", "mcts:playouts=3000", "alphabeta:depth=6,margin=2",
        "alphabeta:depth=5,temperature=1", "mcts:playouts=3000,temperature=1",
    };
    Variant v;
    Position p;
    tu_variant("", &v);
    random_position(&v, 4, 9, &p);
    for (int i = 0; i < (int)(sizeof huge / sizeof huge[0]); i++) {
        Agent a, b;
        Rng r;
        AgentStats st = { 0, 0, 0, 0 };
        agent_stop_all();
        assert_true(agent_stop_requested());
        make_agent(&a, huge[i]);
        rng_seed(&r, 1, 1, 1);
        assert_int_equal(a.choose(&a, &v, &p, &r, &st), AGENT_STOPPED);
        assert_true(st.nodes < 100000);
        agent_free(&a);

        make_agent(&a, small[i]);
        make_agent(&b, small[i]);
        rng_seed(&r, 1, 1, 1);
        assert_int_equal(a.choose(&a, &v, &p, &r, &st), AGENT_STOPPED);
        agent_stop_clear();
        assert_false(agent_stop_requested());
        AgentStats sa = { 0, 0, 0, 0 }, sb = { 0, 0, 0, 0 };
        Rng ra, rb;
        rng_seed(&ra, 1, 1, 2);
        rng_seed(&rb, 1, 1, 2);
        int ma = a.choose(&a, &v, &p, &ra, &sa), mb = b.choose(&b, &v, &p, &rb, &sb);
        assert_true(pos_move_ok(&v, &p, ma, NULL));
        assert_int_equal(ma, mb);
        assert_int_equal(sa.nodes, sb.nodes);
        assert_int_equal(sa.playouts, sb.playouts);
        assert_true(sa.value == sb.value);
        agent_free(&a);
        agent_free(&b);
    }
}

/* The exact score of an end agrees with pos_award: under penultimate and first-final the
 * margin after the award; under the lottery the mean of the coin's two outcomes; after an
 * endless move the stores. */
static void test_end_scores(void **state)
{
    (void)state;
    int ends = 0, endless = 0;
    for (int vi = 0; vi < VARIANTS_NB; vi++) {
        Variant v;
        tu_variant(variants[vi], &v);
        for (int g = 0; g < 40; g++) {
            Rng r, coin;
            rng_seed(&r, 21, (uint64_t)vi, (uint64_t)g);
            coin = r;
            Position p;
            MoveEvent ev = EV_NEXT;
            pos_start(&v, &p);
            while (!pos_over(&v, &p)) {
                MoveInfo info;
                ev = pos_play(&v, &p, pos_random_move(&p, &r), &p, &info, NULL);
                if (ev == EV_ENDLESS)
                    break;
            }
            int32_t got = eval_final(&v, &p, ev);
            int sign = p.side == SOUTH ? 1 : -1;
            if (ev == EV_ENDLESS) {
                endless++;
                assert_int_equal(got, sign * (p.store[SOUTH] - p.store[NORTH]) * EVAL_SCALE);
                continue;
            }
            ends++;
            Award a;
            pos_award(&v, &p, &coin, &a);
            int margin = a.score[SOUTH] - a.score[NORTH];
            if (v.final_four == FF_LOTTERY) {
                /* The other outcome of the coin moves `left` seeds across. */
                int other = a.recipient == SOUTH ? margin - 2 * a.left : margin + 2 * a.left;
                assert_int_equal(2 * got, sign * (margin + other) * EVAL_SCALE);
            } else {
                assert_int_equal(got, sign * margin * EVAL_SCALE);
            }
        }
    }
    assert_true(ends > 300 && endless > 0);
}

/* Each evaluation term, counted hole by hole here, against the evaluation's fast counting
 * (four holes a word), one term at a time, on boards of every row length 2 to 32: both the
 * weighted evaluation and eval_term, the value `anywoli fit` regresses on. */
static void test_eval_terms(void **state)
{
    (void)state;
    for (int holes = 2; holes <= 32; holes++) {
        char opts[64];
        Variant v;
        snprintf(opts, sizeof opts, "holes=%d seeds=%d", holes, holes < 20 ? 4 : 2);
        tu_variant(opts, &v);
        for (int g = 0; g < 8; g++) {
            Position p;
            random_position(&v, g, 1 + g, &p);
            if (pos_over(&v, &p))
                continue;
            int s = p.side, o = !s, rows[2][4] = { { 0 } };   /* seeds, threes, non-empty, empty */
            for (int i = 0; i < v.pits; i++) {
                int *r = rows[variant_owner(&v, i)];
                r[0] += p.pit[i];
                r[1] += p.pit[i] == v.capture - 1;
                r[2] += p.pit[i] != 0;
                r[3] += p.pit[i] == 0;
            }
            const int want[EVAL_NB] = {
                [EVAL_STORE] = p.store[s] - p.store[o],
                [EVAL_SEEDS] = rows[s][0] - rows[o][0],
                [EVAL_THREES] = rows[s][1],
                [EVAL_OPP_THREES] = rows[o][1],
                [EVAL_EMPTY] = rows[s][3],
                [EVAL_OPP_EMPTY] = rows[o][3],
                [EVAL_MOBILITY] = rows[s][2] - rows[o][2],
                [EVAL_FINAL] = p.last_capturer == s ? 1 : p.last_capturer == o ? -1 : 0,
            };
            for (int t = 0; t < EVAL_NB; t++) {
                EvalWeights w = { { 0 }, 0, 0 };   /* fade off: each term as it is */
                Evaluator ev;
                w.w[t] = 1;
                eval_prepare(&w, &ev);
                assert_int_equal(eval_position(&ev, &v, &p), want[t] * EVAL_SCALE);
                assert_int_equal(eval_term(&v, &p, (EvalTerm)t), want[t]);   /* fit's view */
            }
        }
    }
}

/* The fade f: once the seeds on the board fall below f of all the seeds (rounded up), every
 * term but the store is scaled by the seeds on the board over that many (truncated towards
 * zero); 0 leaves the terms as they are, and the store term never fades. A pit diagram
 * first: South to move with two threes and 20 of 48 seeds on the board, threes and store
 * weighing 1 (in EVAL_SCALE units, store 200 and threes 200): f = 0.25 fades from 12 seeds,
 * so not yet (400); f = 0.5 from 24 (200 + 200 * 20 / 24 = 366); f = 1 from 48 (200 +
 * 200 * 20 / 48 = 283). Then many positions of every variant. */
static void test_eval_fade(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("holes=6 seeds=4", "3,3,0,2,0,1/4,0,2,1,4,0 15/13 S - -", &v, &p);
    EvalWeights w = { { 0 }, 0, 0 };
    Evaluator ev;
    w.w[EVAL_STORE] = 1;
    w.w[EVAL_THREES] = 1;
    static const double fades[4] = { 0, 0.25, 0.5, 1 };
    static const int32_t want[4] = { 400, 400, 366, 283 };
    for (int f = 0; f < 4; f++) {
        w.fade = fades[f];
        eval_prepare(&w, &ev);
        assert_int_equal(eval_position(&ev, &v, &p), want[f]);
    }
    int faded = 0;
    for (int vi = 0; vi < VARIANTS_NB; vi++) {
        tu_variant(variants[vi], &v);
        for (int g = 0; g < 200; g++) {
            random_position(&v, g, g % 60, &p);
            EvalWeights x = { { 1, 0.25, 3.79, -1, -0.89, 0.65, 0.3, 0.41 }, 0, 0 };
            Evaluator e0, e1;
            eval_prepare(&x, &e0);
            x.fade = 0.3;
            eval_prepare(&x, &e1);
            int32_t store = e0.w[EVAL_STORE] * eval_term(&v, &p, EVAL_STORE);
            int32_t rest = eval_position(&e0, &v, &p) - store;
            int all = p.left + p.store[SOUTH] + p.store[NORTH];
            int from = (3 * all + 9) / 10;   /* 0.3 of all, rounded up */
            assert_int_equal(eval_position(&e1, &v, &p),
                             p.left < from ? store + rest * p.left / from : store + rest);
            faded += p.left < from && rest != 0;
        }
    }
    assert_true(faded > 20);   /* the fading case is met, not only the open one */
}

/* The final-four term under each convention, for each state of the two award fields: +1
 * when the side to move stands to receive the seeds left, -1 when the opponent does, 0 under
 * the lottery or before any capture. */
static void test_eval_final_term(void **state)
{
    (void)state;
    static const char *const fields[] = { "- -", "S -", "N -", "S S", "S N", "N S", "N N" };
    static const char *const conventions[] = { "penultimate", "first-final", "lottery" };
    EvalWeights w = { { 0 }, 0, 0 };   /* fade off: each term as it is */
    Evaluator ev;
    w.w[EVAL_FINAL] = 2.5;
    eval_prepare(&w, &ev);
    for (int c = 0; c < 3; c++) {
        for (int f = 0; f < 7; f++) {
            for (int side = 0; side < 2; side++) {
                char opts[64], apn[64];
                Variant v;
                Position p;
                snprintf(opts, sizeof opts, "holes=4 seeds=3 final_four=%s", conventions[c]);
                snprintf(apn, sizeof apn, "1,1,0,0/1,2,2,1 8/8 %c %s", side ? 'N' : 'S', fields[f]);
                tu_position(opts, apn, &v, &p);
                char last = fields[f][0], first = fields[f][2];
                char who = c == 2 ? '-' : c == 1 && first != '-' ? first : last;
                int want = who == '-' ? 0 : (who == 'N') == (side == 1) ? 1 : -1;
                assert_int_equal(eval_term(&v, &p, EVAL_FINAL), want);
                if (eval_position(&ev, &v, &p) != want * 250)
                    fail_msg("%s, %s: final term %d, want %d", conventions[c], apn,
                             eval_position(&ev, &v, &p), want * 250);
            }
        }
    }
}

/* Greedy's result of a move, written plainly from the issue: the seeds the mover gains on
 * the opponent during the move (the award too when it ends the game), plus, after an extra
 * move, the best follow-up's result (at most 8 extra moves deep). */
static int32_t greedy_reference(const Variant *v, const Position *p, int move, int chain)
{
    Position c;
    MoveInfo info;
    MoveEvent e = pos_play(v, p, move, &c, &info, NULL);
    int s = p->side;
    int32_t before = (p->store[s] - p->store[!s]) * EVAL_SCALE;
    if (e == EV_OVER || e == EV_ENDLESS)
        return eval_final(v, &c, e) - before;
    int32_t gain = (c.store[s] - c.store[!s]) * EVAL_SCALE - before;
    if (e == EV_EXTRA && c.side == s && chain < 8) {
        int32_t best = INT32_MIN;
        for (uint64_t m = pos_legal_mask(v, &c); m; m &= m - 1) {
            int32_t g = greedy_reference(v, &c, __builtin_ctzll(m), chain + 1);
            best = g > best ? g : best;
        }
        gain += best;
    }
    return gain;
}

/* Greedy takes a move of the best immediate result, and over many streams each such move. */
static void test_greedy(void **state)
{
    (void)state;
    Agent a;
    make_agent(&a, "greedy");
    for (int vi = 0; vi < VARIANTS_NB; vi++) {
        Variant v;
        tu_variant(variants[vi], &v);
        for (int g = 0; g < 30; g++) {
            Position p;
            random_position(&v, g, g % 7 + 3 * vi, &p);
            int32_t best = INT32_MIN, result[MAX_PITS];
            uint64_t best_set = 0, chosen = 0;
            for (uint64_t m = pos_legal_mask(&v, &p); m; m &= m - 1) {
                int mv = __builtin_ctzll(m);
                result[mv] = greedy_reference(&v, &p, mv, 0);
                if (result[mv] > best) {
                    best = result[mv];
                    best_set = 0;
                }
                if (result[mv] == best)
                    best_set |= 1ULL << mv;
            }
            for (int k = 0; k < 200; k++) {
                Rng r;
                rng_seed(&r, 8, (uint64_t)g, (uint64_t)k);
                AgentStats st = { 0, 0, 0, 0 };
                int mv = a.choose(&a, &v, &p, &r, &st);
                assert_int_equal(result[mv], best);
                assert_true(st.value * EVAL_SCALE == best);
                chosen |= 1ULL << mv;
            }
            assert_true(chosen == best_set);
        }
    }
    agent_free(&a);
}

/* Hand-built positions of 5 holes (2 seeds each at the start), North to move. */
static const struct {
    const char *apn;
    int move;            /* greedy's only choice */
    int value;           /* its result, in seeds */
    int plain_move;      /* the best move counting only the move itself (no follow-up) */
    int plain_value;
} greedy_cases[] = {
    /* Hole 5 is the best single move (8 seeds); hole 8 takes less by itself but earns an
     * extra move, and with its best follow-up it gains 16. */
    { "0,2,1,1,3/3,0,3,3,0 4/0 N S S", 8, 16, 5, 8 },
    /* Stores not level: the result counts what the move captures, not the whole margin
     * (North is 4 behind before the move). */
    { "0,2,1,1,3/3,0,3,3,0 0/4 N S S", 8, 16, 5, 8 },
};

/* Greedy on hand-built positions: an extra move is worth its best follow-up (so greedy's
 * choice differs from the best single move), and the value is what the move gains. */
static void test_greedy_hand_built(void **state)
{
    (void)state;
    Agent a;
    make_agent(&a, "greedy");
    for (size_t i = 0; i < sizeof greedy_cases / sizeof greedy_cases[0]; i++) {
        Variant v;
        Position p;
        tu_position("holes=5", greedy_cases[i].apn, &v, &p);
        /* The best single move, with no follow-up: plain_move, uniquely. */
        int plain = -1, n_plain = 0;
        int32_t plain_best = INT32_MIN;
        for (uint64_t m = pos_legal_mask(&v, &p); m; m &= m - 1) {
            int mv = __builtin_ctzll(m);
            Position c;
            MoveInfo info;
            MoveEvent e = pos_play(&v, &p, mv, &c, &info, NULL);
            int s = p.side;
            int32_t g = e >= EV_OVER ? eval_final(&v, &c, e) / EVAL_SCALE - (p.store[s] - p.store[!s])
                                     : (c.store[s] - c.store[!s]) - (p.store[s] - p.store[!s]);
            if (g > plain_best) {
                plain_best = g;
                plain = mv;
                n_plain = 0;
            }
            n_plain += g == plain_best;
        }
        assert_int_equal(plain, greedy_cases[i].plain_move);
        assert_int_equal(plain_best, greedy_cases[i].plain_value);
        assert_int_equal(n_plain, 1);
        for (int k = 0; k < 16; k++) {
            Rng r;
            rng_seed(&r, 4, i, (uint64_t)k);
            AgentStats st = { 0, 0, 0, 0 };
            assert_int_equal(a.choose(&a, &v, &p, &r, &st), greedy_cases[i].move);
            assert_true(st.value == greedy_cases[i].value);
        }
        assert_int_equal(greedy_reference(&v, &p, greedy_cases[i].move, 0),
                         greedy_cases[i].value * EVAL_SCALE);
    }
    agent_free(&a);
}

/* Small budgets of every agent for the rule vectors' positions. */
static const char *const vector_specs[] = {
    "random", "greedy", "alphabeta:depth=2", "alphabeta:depth=3,tt=0,ties=first",
    "mcts:playouts=12,horizon=20", "mcts:playouts=8,policy=greedy,horizon=4",
    "mcts:playouts=10,policy=capture,tries=4",
};

/* Every agent returns a legal move for every "before" position of the single-move vectors
 * (read under the preset the file names), and the same move again from the same stream. */
static void test_vector_positions(void **state)
{
    (void)state;
    static const char *const presets[] = { "anywoli", "yit-nuri", "yit-jani" };
    const int n_specs = (int)(sizeof vector_specs / sizeof vector_specs[0]);
    Agent agent[sizeof vector_specs / sizeof vector_specs[0]];
    for (int s = 0; s < n_specs; s++)
        make_agent(&agent[s], vector_specs[s]);
    int checked = 0;
    for (int f = 0; f < 3; f++) {
        char rel[64], path[512], opts[64];
        snprintf(rel, sizeof rel, "vectors/moves-%s.txt", presets[f]);
        snprintf(opts, sizeof opts, "variant=%s", presets[f]);
        Lines l = tu_read_lines(tu_data_path(rel, path, sizeof path));
        for (int i = 0; i < l.n; i++) {
            char *field[4];
            if (tu_split(l.line[i], '|', field, 4) != 4)
                fail_msg("%s line %d: not 4 fields", rel, i + 1);
            Variant v;
            Position p;
            tu_position(opts, field[0], &v, &p);
            for (int s = 0; s < n_specs; s++) {
                Rng r, again;
                rng_seed(&r, 31, (uint64_t)s, (uint64_t)(f * 10000 + i));
                again = r;
                AgentStats st1 = { 0, 0, 0, 0 }, st2 = { 0, 0, 0, 0 };
                agent_new_game(&agent[s]);
                int m1 = agent[s].choose(&agent[s], &v, &p, &r, &st1);
                if (!pos_move_ok(&v, &p, m1, NULL))
                    fail_msg("%s on %s line %d: illegal move %d", vector_specs[s], rel, i + 1, m1);
                agent_new_game(&agent[s]);
                int m2 = agent[s].choose(&agent[s], &v, &p, &again, &st2);
                assert_int_equal(m1, m2);
                assert_true(st1.nodes == st2.nodes && st1.value == st2.value);
                checked++;
            }
        }
        tu_free_lines(&l);
    }
    for (int s = 0; s < n_specs; s++)
        agent_free(&agent[s]);
    assert_int_equal(checked, 5000 * n_specs);
}

/* Positions of 4 holes and 3 seeds where exactly one move wins and every other move loses
 * with best play (checked here by minimax deep enough that every line ends). */
static const struct { const char *apn; int win; } won[] = {
    { "1,1,0,0/1,2,2,1 8/8 N S S", 6 },
    { "1,2,0,2/1,0,1,1 8/8 S N S", 0 },
    { "0,1,1,1/0,1,1,3 8/8 S S S", 2 },
};

/* Each searching agent finds the one winning move. */
static void test_finds_the_win(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "alphabeta:depth=10", "alphabeta:depth=10,tt=0,w.mobility=1", "mcts:playouts=3000",
        "mcts:playouts=3000,reward=margin",
    };
    for (size_t i = 0; i < sizeof won / sizeof won[0]; i++) {
        Variant v;
        Position p;
        tu_position("holes=4 seeds=3", won[i].apn, &v, &p);
        EvalWeights w;
        Evaluator ev;
        eval_default(&w);
        eval_prepare(&w, &ev);
        for (uint64_t m = pos_legal_mask(&v, &p); m; m &= m - 1) {
            int mv = __builtin_ctzll(m);
            int32_t val = reference_move_value(&v, &ev, &p, mv, 12);
            assert_true(mv == won[i].win ? val > 0 : val < 0);
        }
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
            Agent a;
            Rng r;
            make_agent(&a, specs[s]);
            rng_seed(&r, 2, 0, i);
            AgentStats st = { 0, 0, 0, 0 };
            int mv = a.choose(&a, &v, &p, &r, &st);
            if (mv != won[i].win)
                fail_msg("%s at %s: chose %d, the win is %d", specs[s], won[i].apn, mv,
                         won[i].win);
            agent_free(&a);
        }
    }
}

/* Whether `move` loses at once for p's side to move: it ends the game lost, or the turn
 * passes and the opponent has a move that ends the game won. */
static bool loses_at_once(const Variant *v, const Position *p, int move)
{
    Position c;
    MoveInfo info;
    MoveEvent e = pos_play(v, p, move, &c, &info, NULL);
    if (e == EV_OVER)
        return eval_final(v, &c, e) < 0;
    if (e == EV_ENDLESS || c.side == p->side)
        return false;
    for (uint64_t m = pos_legal_mask(v, &c); m; m &= m - 1) {
        Position d;
        MoveEvent e2 = pos_play(v, &c, __builtin_ctzll(m), &d, &info, NULL);
        if (e2 == EV_OVER && eval_final(v, &d, e2) > 0)
            return true;
    }
    return false;
}

/* A position of 6 holes and 3 seeds where every move but hole 1 loses at once, and one of
 * the losing moves captures more right away (the trap greedy falls into): alpha-beta at
 * every depth from 2, and MCTS, take hole 1. */
static void test_avoids_one_move_loss(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "alphabeta:depth=2", "alphabeta:depth=3,tt=0", "alphabeta:depth=4", "alphabeta",
        "alphabeta:depth=8,w.seeds=0", "mcts:playouts=2000",
    };
    Variant v;
    Position p;
    tu_position("holes=6 seeds=3", "3,3,0,1,1,1/0,1,0,0,3,3 12/8 S S S", &v, &p);
    int safe = 0, losing = 0;
    for (uint64_t m = pos_legal_mask(&v, &p); m; m &= m - 1) {
        int mv = __builtin_ctzll(m);
        if (loses_at_once(&v, &p, mv))
            losing++;
        else
            safe = mv;
    }
    assert_int_equal(safe, 1);
    assert_int_equal(losing, 4);
    Agent a;
    make_agent(&a, "greedy");
    Rng r;
    rng_seed(&r, 3, 3, 3);
    AgentStats st = { 0, 0, 0, 0 };
    assert_true(loses_at_once(&v, &p, a.choose(&a, &v, &p, &r, &st)));
    agent_free(&a);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        make_agent(&a, specs[s]);
        for (int k = 0; k < 4; k++) {
            rng_seed(&r, 3, s, (uint64_t)k);
            int mv = a.choose(&a, &v, &p, &r, &st);
            if (mv != 1)
                fail_msg("%s chose %d, which loses at once (hole 1 does not)", specs[s], mv);
        }
        agent_free(&a);
    }
}

/* Explicitly off (margin=0, temperature=0), the choice among near-best moves changes
 * nothing: the same move, value, nodes and stream use as the default agent, whose games
 * the bench's signatures pin down. */
static void test_choice_off_is_plain(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        { "alphabeta:depth=4", "alphabeta:depth=4,margin=0,temperature=0" },
        { "alphabeta:depth=3,ties=first", "alphabeta:depth=3,ties=first,margin=0" },
        { "mcts:playouts=300", "mcts:playouts=300,temperature=0" },
    };
    for (size_t s = 0; s < sizeof pairs / sizeof pairs[0]; s++) {
        for (int vi = 0; vi < VARIANTS_NB; vi++) {
            Variant v;
            tu_variant(variants[vi], &v);
            Agent a, b;
            make_agent(&a, pairs[s][0]);
            make_agent(&b, pairs[s][1]);
            for (int g = 0; g < 6; g++) {
                Position p;
                random_position(&v, g, 2 * g, &p);
                Rng ra, rb;
                rng_seed(&ra, 8, s, (uint64_t)g);
                rb = ra;
                AgentStats sa = { 0, 0, 0, 0 }, sb = { 0, 0, 0, 0 };
                assert_int_equal(a.choose(&a, &v, &p, &ra, &sa), b.choose(&b, &v, &p, &rb, &sb));
                assert_int_equal(sa.nodes, sb.nodes);
                assert_true(sa.value == sb.value && sa.depth == sb.depth);
                assert_int_equal(ra.ctr, rb.ctr);
            }
            agent_free(&a);
            agent_free(&b);
        }
    }
}

/* The streams a choice among near-best moves is drawn from in the tests below. */
#define CHOICE_STREAMS 240

/* With a margin, alpha-beta's move is one whose exact value (by the plain negamax of each
 * root move) lies within the margin of the best, its reported value is that move's value,
 * the same stream gives the same move, and over many streams the choice covers every move
 * within the margin and no other. The choice draws from a stream of its own: with
 * ties=first the agent's stream is untouched, with ties=random moved as the plain agent's. */
static void test_alphabeta_margin(void **state)
{
    (void)state;
    static const double margins[] = { 0.5, 1, 2, 3.5 };
    static const char *const extra[] = { "", ",ties=first", ",tt=0", ",tt=4,w.seeds=0.3" };
    int positions = 0, several = 0;
    for (int vi = 0; vi < VARIANTS_NB; vi++) {
        Variant v;
        tu_variant(variants[vi], &v);
        EvalWeights w;
        Evaluator ev;
        for (int k = 0; k < 4; k++) {
            const int depth = v.holes >= 12 ? 2 + k % 2 : 2 + k;
            char spec[200], plain[200];
            snprintf(spec, sizeof spec, "alphabeta:depth=%d,margin=%g%s", depth, margins[k],
                     extra[k]);
            snprintf(plain, sizeof plain, "alphabeta:depth=%d%s", depth, extra[k]);
            tw_auto(depth, &w);
            if (k == 3)
                w.w[EVAL_SEEDS] = 0.3;
            eval_prepare(&w, &ev);
            Position p;
            random_position(&v, 3 * vi + k, 3 + k, &p);
            if (__builtin_popcountll(pos_legal_mask(&v, &p)) < 2)
                continue;
            Agent a, b;
            make_agent(&a, spec);
            make_agent(&b, plain);
            const int32_t width = (int32_t)(margins[k] * EVAL_SCALE);
            int32_t best = reference_value(&v, &ev, &p, depth);
            uint64_t within = 0, chosen = 0;
            for (uint64_t m = pos_legal_mask(&v, &p); m; m &= m - 1)
                if (reference_move_value(&v, &ev, &p, __builtin_ctzll(m), depth) >=
                    best - width)
                    within |= 1ULL << __builtin_ctzll(m);
            for (int r = 0; r < CHOICE_STREAMS; r++) {
                Rng ra, rb, again;
                rng_seed(&ra, 21, (uint64_t)k, (uint64_t)r);
                rb = again = ra;
                AgentStats st = { 0, 0, 0, 0 }, sb = { 0, 0, 0, 0 };
                int mv = a.choose(&a, &v, &p, &ra, &st);
                int32_t val = reference_move_value(&v, &ev, &p, mv, depth);
                int32_t got = (int32_t)lround(st.value * EVAL_SCALE);
                if (!(within >> mv & 1) || got != val || st.depth != depth)
                    fail_msg("%s on '%s' at %s: chose %d (value %d, said %d, depth %d), best "
                             "%d", spec, variants[vi], tu_apn(&v, &p), mv, val, got, st.depth,
                             best);
                chosen |= 1ULL << mv;
                b.choose(&b, &v, &p, &rb, &sb);
                assert_int_equal(ra.ctr, rb.ctr);
                if (k == 1)
                    assert_int_equal(ra.ctr, 0);
                st = (AgentStats){ 0, 0, 0, 0 };
                assert_int_equal(a.choose(&a, &v, &p, &again, &st), mv);
            }
            if (chosen != within)
                fail_msg("%s on '%s' at %s: chose moves %#llx over %d streams, within the "
                         "margin %#llx", spec, variants[vi], tu_apn(&v, &p),
                         (unsigned long long)chosen, CHOICE_STREAMS,
                         (unsigned long long)within);
            positions++;
            several += __builtin_popcountll(within) > 1;
            agent_free(&a);
            agent_free(&b);
        }
    }
    assert_true(positions >= 30 && several >= 10);
}

/* With a temperature alone, every root move is valued exactly and drawn with the softmax
 * probability of its value in seeds over the temperature: the frequencies over many streams
 * match it. A tiny temperature plays the best move; a margin with it bounds the candidates. */
static void test_alphabeta_temperature(void **state)
{
    (void)state;
    Variant v;
    Position p;
    EvalWeights w;
    Evaluator ev;
    tu_variant("holes=5 seeds=4", &v);
    eval_default(&w);
    eval_prepare(&w, &ev);
    random_position(&v, 6, 3, &p);
    const int depth = 3, draws = 4000;
    uint8_t moves[MAX_PITS];
    int n = pos_legal_moves(&v, &p, moves);
    assert_true(n >= 3);
    double want[MAX_PITS], z = 0;
    int32_t val[MAX_PITS], best = reference_value(&v, &ev, &p, depth);
    for (int i = 0; i < n; i++) {
        val[i] = reference_move_value(&v, &ev, &p, moves[i], depth);
        want[i] = exp((double)(val[i] - best) / EVAL_SCALE / 2.0);
        z += want[i];
    }
    Agent a, cold, bounded;
    make_agent(&a, "alphabeta:depth=3,temperature=2");
    make_agent(&cold, "alphabeta:depth=3,temperature=0.001,ties=first");
    make_agent(&bounded, "alphabeta:depth=3,temperature=50,margin=1");
    int count[MAX_PITS] = { 0 };
    for (int r = 0; r < draws; r++) {
        Rng rng;
        rng_seed(&rng, 4, 4, (uint64_t)r);
        AgentStats st = { 0, 0, 0, 0 };
        int mv = a.choose(&a, &v, &p, &rng, &st);
        int i = 0;
        while (moves[i] != mv)
            i++;
        count[i]++;
        rng_seed(&rng, 4, 4, (uint64_t)r);
        mv = cold.choose(&cold, &v, &p, &rng, &st);
        assert_int_equal(reference_move_value(&v, &ev, &p, mv, depth), best);
        rng_seed(&rng, 4, 4, (uint64_t)r);
        mv = bounded.choose(&bounded, &v, &p, &rng, &st);
        assert_true(reference_move_value(&v, &ev, &p, mv, depth) >= best - EVAL_SCALE);
    }
    for (int i = 0; i < n; i++) {
        double q = want[i] / z, sd = sqrt(q * (1 - q) / draws);
        if (fabs((double)count[i] / draws - q) > 5 * sd + 1e-9)
            fail_msg("move %d (value %d, best %d): drawn %d of %d, softmax %.4f", moves[i],
                     val[i], best, count[i], draws, q);
    }
    agent_free(&a);
    agent_free(&cold);
    agent_free(&bounded);
}

/* Under a node budget, the choice is made from the last depth completed, as the plain move:
 * within the margin at that depth. */
static void test_alphabeta_margin_budget(void **state)
{
    (void)state;
    Variant v;
    EvalWeights w;
    Evaluator ev;
    tu_variant("", &v);
    eval_default(&w);
    eval_prepare(&w, &ev);
    Agent a;
    make_agent(&a, "alphabeta:depth=30,nodes=3000,tt=0,margin=1.5");
    for (int g = 0; g < 8; g++) {
        Position p;
        random_position(&v, g, 2 * g, &p);
        Rng r;
        rng_seed(&r, 9, 9, (uint64_t)g);
        AgentStats st = { 0, 0, 0, 0 };
        int mv = a.choose(&a, &v, &p, &r, &st);
        if (__builtin_popcountll(pos_legal_mask(&v, &p)) < 2)
            continue;
        assert_true(st.depth >= 1 && st.depth < 30);
        assert_true(st.nodes >= 3000);
        int32_t best = reference_value(&v, &ev, &p, st.depth);
        assert_true(reference_move_value(&v, &ev, &p, mv, st.depth) >= best - 150);
    }
    agent_free(&a);
}

/* MCTS with a temperature: a tiny one plays the most visited move (the plain agent's, whose
 * search draws the same), a huge one nearly uniformly among the root's children, and the
 * same stream gives the same move. */
static void test_mcts_temperature(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_variant("", &v);
    pos_start(&v, &p);
    Agent plain, cold, hot;
    make_agent(&plain, "mcts:playouts=400");
    make_agent(&cold, "mcts:playouts=400,temperature=0.001");
    make_agent(&hot, "mcts:playouts=400,temperature=1000");
    uint64_t hot_moves = 0;
    int same = 0;
    for (int r = 0; r < CHOICE_STREAMS; r++) {
        Rng r0, r1, r2, r3;
        rng_seed(&r0, 5, 5, (uint64_t)r);
        r1 = r2 = r3 = r0;
        AgentStats st = { 0, 0, 0, 0 };
        int want = plain.choose(&plain, &v, &p, &r0, &st);
        same += cold.choose(&cold, &v, &p, &r1, &st) == want;
        assert_int_equal(r0.ctr, r1.ctr);
        int mv = hot.choose(&hot, &v, &p, &r2, &st);
        assert_true(pos_move_ok(&v, &p, mv, NULL));
        assert_true(st.value >= 0 && st.value <= 1);
        assert_int_equal(hot.choose(&hot, &v, &p, &r3, &st), mv);
        hot_moves |= 1ULL << mv;
    }
    assert_true(same >= CHOICE_STREAMS * 9 / 10);
    assert_true(hot_moves == pos_legal_mask(&v, &p));
    agent_free(&plain);
    agent_free(&cold);
    agent_free(&hot);
}

/* With choice_moves=N the choice among near-best moves is made in the agent's first N
 * moves of a game only: the next move is the plain agent's (from the same stream), and a
 * new game counts afresh. */
static void test_choice_moves(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        { "alphabeta:depth=3,margin=4,choice_moves=2", "alphabeta:depth=3" },
        /* The old defaults (c=0.7, random playouts): there the plain agent's move from the
         * start varies little with the stream, so the temperature's spread shows against it;
         * at the new defaults it varies about as much over 60 streams. */
        { "mcts:playouts=300,c=0.7,policy=random,temperature=1000,choice_moves=2",
          "mcts:playouts=300,c=0.7,policy=random" },
    };
    Variant v;
    Position p;
    tu_variant("", &v);
    pos_start(&v, &p);
    for (int s = 0; s < 2; s++) {
        Agent a, plain;
        make_agent(&a, pairs[s][0]);
        make_agent(&plain, pairs[s][1]);
        uint64_t first = 0, third = 0;
        for (int r = 0; r < 60; r++) {
            Rng ra, rp;
            rng_seed(&ra, 6, (uint64_t)s, (uint64_t)r);
            AgentStats st = { 0, 0, 0, 0 };
            agent_new_game(&a);
            int m1 = a.choose(&a, &v, &p, &ra, &st);
            a.choose(&a, &v, &p, &ra, &st);
            rp = ra;
            int m3 = a.choose(&a, &v, &p, &ra, &st);
            assert_int_equal(m3, plain.choose(&plain, &v, &p, &rp, &st));
            agent_new_game(&a);
            rng_seed(&ra, 6, (uint64_t)s, (uint64_t)r);
            assert_int_equal(a.choose(&a, &v, &p, &ra, &st), m1);
            first |= 1ULL << m1;
            third |= 1ULL << m3;
        }
        assert_true(__builtin_popcountll(first) > __builtin_popcountll(third));
        agent_free(&a);
        agent_free(&plain);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_weight_sets),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_random_same_draw),
        cmocka_unit_test(test_legal_and_reproducible),
        cmocka_unit_test(test_alphabeta_is_minimax),
        cmocka_unit_test(test_alphabeta_quiesce_is_extended_minimax),
        cmocka_unit_test(test_alphabeta_budget),
        cmocka_unit_test(test_stop_request),
        cmocka_unit_test(test_end_scores),
        cmocka_unit_test(test_eval_terms),
        cmocka_unit_test(test_eval_final_term),
        cmocka_unit_test(test_eval_fade),
        cmocka_unit_test(test_greedy),
        cmocka_unit_test(test_greedy_hand_built),
        cmocka_unit_test(test_vector_positions),
        cmocka_unit_test(test_avoids_one_move_loss),
        cmocka_unit_test(test_finds_the_win),
        cmocka_unit_test(test_choice_off_is_plain),
        cmocka_unit_test(test_alphabeta_margin),
        cmocka_unit_test(test_alphabeta_temperature),
        cmocka_unit_test(test_alphabeta_margin_budget),
        cmocka_unit_test(test_mcts_temperature),
        cmocka_unit_test(test_choice_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
