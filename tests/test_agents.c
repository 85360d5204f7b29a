/* test_agents.c: the agents against their definitions: the registry and its specs, the
 * random agent's draw, legal and reproducible choices on many variants, alpha-beta against a
 * plain minimax written here, exact end scores against pos_award, greedy's one-ply choice,
 * and a won position that every searching agent must find. */
#include "test_util.h"

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

/* Every agent of the registry builds with its defaults, and its full spec reads back as
 * the same agent. */
static void test_registry(void **state)
{
    (void)state;
    int n = 0;
    for (const AgentKind *k; (k = agent_kind(n)); n++) {
        Agent a, b;
        char full[1024], again[1024];
        make_agent(&a, k->name);
        assert_string_equal(a.name, k->name);
        agent_describe(&a, full, sizeof full);
        make_agent(&b, full);
        agent_describe(&b, again, sizeof again);
        assert_string_equal(full, again);
        agent_free(&a);
        agent_free(&b);
    }
    assert_int_equal(n, 4);
    assert_null(agent_kind(-1));

    Agent a;
    char full[1024];
    make_agent(&a, "alphabeta:w.seeds=0.25,depth=3,ties=first");
    agent_describe(&a, full, sizeof full);
    assert_string_equal(full, "alphabeta:depth=3,nodes=0,tt=16,ties=first,w.store=1,w.seeds=0.25,"
                              "w.ready=0,w.mobility=0");
    agent_free(&a);
}

/* Bad specs: -1 and a one-line message naming the problem. */
static void test_spec_errors(void **state)
{
    (void)state;
    static const struct { const char *spec, *want; } bad[] = {
        { "minimax", "agent 'minimax': unknown (expected random, greedy, alphabeta or mcts)" },
        { "random:depth=3", "takes no options" },
        { "alphabeta:deep=3", "unknown option 'deep'" },
        { "alphabeta:depth", "'depth' is not key=value" },
        { "alphabeta:depth=0", "depth=0 is out of range (1 to 64)" },
        { "alphabeta:depth=2.5", "not a whole number" },
        { "alphabeta:depth=x", "depth=x is not a number" },
        { "alphabeta:ties=best", "ties=best is not one of random or first" },
        { "alphabeta:w.luck=1", "unknown option 'w.luck'" },
        { "alphabeta:w.store=1e9", "out of range" },
        { "mcts:playouts=0", "playouts=0 is out of range" },
        { "mcts:c=inf", "is not a number" },
        { "mcts:reward=score", "not one of win or margin" },
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
    "alphabeta:depth=6,nodes=300,w.seeds=0.3,w.ready=0.5,w.mobility=0.2",
    "mcts:playouts=60", "mcts:playouts=40,reward=margin,c=0",
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
 * from the definitions alone (a child's value is negated only when the side changes). */
static int32_t reference_value(const Variant *v, const Evaluator *ev, const Position *p,
                               int depth)
{
    int32_t best = INT32_MIN;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        Position c;
        MoveInfo info;
        MoveEvent e = pos_play(v, p, __builtin_ctzll(m), &c, &info, NULL);
        int32_t val;
        if (e == EV_OVER || e == EV_ENDLESS)
            val = eval_final(v, &c, e);
        else if (depth == 1)
            val = eval_position(ev, v, &c) * (c.side == p->side ? 1 : -1);
        else
            val = reference_value(v, ev, &c, depth - 1) * (c.side == p->side ? 1 : -1);
        if (val > best)
            best = val;
    }
    return best;
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
        "alphabeta:tt=16,w.seeds=0.25,w.ready=0.5,w.mobility=0.1",
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
                eval_default(&w);
                if (s == 0) {
                    w.w[EVAL_SEEDS] = 0.25;
                    w.w[EVAL_READY] = 0.5;
                    w.w[EVAL_MOBILITY] = 0.1;
                }
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
 * (four holes a word), one term at a time, on boards of every row length 2 to 32. */
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
            int s = p.side, o = !s, rows[2][3] = { { 0 } };   /* seeds, ready, non-empty */
            for (int i = 0; i < v.pits; i++) {
                int *r = rows[variant_owner(&v, i)];
                r[0] += p.pit[i];
                r[1] += p.pit[i] == v.capture - 1;
                r[2] += p.pit[i] != 0;
            }
            const int want[EVAL_NB] = {
                [EVAL_STORE] = p.store[s] - p.store[o],
                [EVAL_SEEDS] = rows[s][0] - rows[o][0],
                [EVAL_READY] = rows[s][1] - rows[o][1],
                [EVAL_MOBILITY] = rows[s][2] - rows[o][2],
            };
            for (int t = 0; t < EVAL_NB; t++) {
                EvalWeights w = { { 0 } };
                Evaluator ev;
                w.w[t] = 1;
                eval_prepare(&w, &ev);
                assert_int_equal(eval_position(&ev, &v, &p), want[t] * EVAL_SCALE);
            }
        }
    }
}

/* Greedy takes a move of the best immediate margin, and over many streams each such move. */
static void test_greedy(void **state)
{
    (void)state;
    Variant v;
    Agent a;
    tu_variant("holes=6 seeds=3", &v);
    make_agent(&a, "greedy");
    for (int g = 0; g < 30; g++) {
        Position p;
        random_position(&v, g, g % 7, &p);
        int32_t best = INT32_MIN, margin[MAX_PITS];
        uint64_t best_set = 0, chosen = 0;
        for (uint64_t m = pos_legal_mask(&v, &p); m; m &= m - 1) {
            int mv = __builtin_ctzll(m);
            Position c;
            MoveInfo info;
            MoveEvent ev = pos_play(&v, &p, mv, &c, &info, NULL);
            margin[mv] = ev >= EV_OVER ? eval_final(&v, &c, ev)
                                       : (c.store[p.side] - c.store[!p.side]) * EVAL_SCALE;
            if (margin[mv] > best) {
                best = margin[mv];
                best_set = 0;
            }
            if (margin[mv] == best)
                best_set |= 1ULL << mv;
        }
        for (int k = 0; k < 64; k++) {
            Rng r;
            rng_seed(&r, 8, (uint64_t)g, (uint64_t)k);
            AgentStats st = { 0, 0, 0, 0 };
            int mv = a.choose(&a, &v, &p, &r, &st);
            assert_int_equal(margin[mv], best);
            chosen |= 1ULL << mv;
        }
        assert_true(chosen == best_set);
    }
    agent_free(&a);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_random_same_draw),
        cmocka_unit_test(test_legal_and_reproducible),
        cmocka_unit_test(test_alphabeta_is_minimax),
        cmocka_unit_test(test_alphabeta_budget),
        cmocka_unit_test(test_end_scores),
        cmocka_unit_test(test_eval_terms),
        cmocka_unit_test(test_greedy),
        cmocka_unit_test(test_finds_the_win),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
