/* test_search.c: the alpha-beta agent's value at every depth equals a plain alpha-beta
 * (plain_search.h: no table, no ordering, no pruning beyond the window), on bench's positions
 * and on positions of random playouts on the standard board and the presets, under every
 * final_four convention, and the move it picks has that value. Whatever the search does to
 * visit fewer nodes, it must keep these values.
 *   test_search fast   depths 1 to 5, a sample of the positions
 *   test_search slow   depths 1 to 8, all of them */
#include "test_util.h"
#include "test_weights.h"

#include "agent.h"
#include "bench_positions.h"
#include "eval.h"
#include "plain_search.h"

static int max_depth;        /* 5 (fast) or 8 (slow) */
static int bench_stride;     /* every how many of bench's positions are checked */
static int random_games;     /* random playouts per variant */

/* The boards, each under the three conventions. */
static const char *const boards[] = { "", "variant=yit-nuri", "variant=yit-jani" };
static const char *const conventions[] = { "final_four=penultimate", "final_four=first-final",
                                           "final_four=lottery" };

/* Agents whose values are checked: bench's own settings, every evaluation term at once, a
 * tiny table (collisions of slots everywhere), and the strong player with the two techniques
 * that keep the root's value: aspiration windows (a value on the window's edge is searched
 * again) and the seed bound (with bench's weights every value lies within the seeds left of
 * the store difference, as the true margin does, so a cut-off by it is a true bound). */
#define PLAIN_BENCH_WEIGHTS                                                                     \
    "w.store=1,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,"    \
    "w.final=0,fade=0"
static const char *const specs[] = {
    "alphabeta:tt=16,ties=first," PLAIN_BENCH_WEIGHTS,
    "alphabeta:tt=16,ties=random," TW_EVERY_TERM,
    "alphabeta:tt=4,ties=first",
    "strong:nodes=0,tt=0,lmr=0,aspiration=1,seed_bound=1,tables=,ties=first,weights=plain,"
    PLAIN_BENCH_WEIGHTS,
};
#define SPECS_NB ((int)(sizeof specs / sizeof specs[0]))

/* The weights of specs[s] at `depth` (weights=auto: the tuned set from EVAL_TUNED_FROM), for
 * the plain search. */
static void spec_weights(int s, int depth, Evaluator *ev)
{
    EvalWeights w;
    tw_auto(depth, &w);
    if (s == 0 || s == 3) {
        w.w[EVAL_STORE] = 1;
        w.w[EVAL_SEEDS] = 0.1;
        for (int i = EVAL_THREES; i < EVAL_NB; i++)
            w.w[i] = 0;
        w.fade = 0;
    } else if (s == 1) {
        tw_every_term(&w);
    }
    eval_prepare(&w, ev);
}

/* Check every agent at every depth on p: its value is the plain one, its move has it. */
static int check_position(const Variant *v, const Position *p, const char *where)
{
    if (pos_over(v, p) || __builtin_popcountll(pos_legal_mask(v, p)) < 2)
        return 0;
    for (int s = 0; s < SPECS_NB; s++) {
        for (int depth = 1; depth <= max_depth; depth++) {
            Evaluator ev;
            spec_weights(s, depth, &ev);
            char spec[300];
            snprintf(spec, sizeof spec, "%s,depth=%d", specs[s], depth);
            Agent a;
            Error e;
            if (agent_create(&a, spec, &e) != 0)
                fail_msg("spec '%s': %s", spec, e.msg);
            Rng r;
            rng_seed(&r, 3, (uint64_t)depth, (uint64_t)s);
            AgentStats st = { 0, 0, 0, 0 };
            agent_new_game(&a);
            int m = a.choose(&a, v, p, &r, &st);
            agent_free(&a);
            int32_t want = plain_value(v, &ev, p, depth, -PLAIN_INF, PLAIN_INF);
            int32_t got = (int32_t)(st.value * EVAL_SCALE + (st.value < 0 ? -0.5 : 0.5));
            int32_t of_move = plain_move_value(v, &ev, p, m, depth, -PLAIN_INF, PLAIN_INF);
            if (got != want || of_move != want || st.depth != depth)
                fail_msg("%s, %s at %s: depth %d (done %d): value %d, move %d worth %d; "
                         "plain alpha-beta %d", specs[s], where, tu_apn(v, p), depth, st.depth,
                         got, m, of_move, want);
        }
    }
    return 1;
}

/* Bench's positions, read under each convention (their capture fields decide the award). */
static void test_bench_positions(void **state)
{
    (void)state;
    int checked = 0;
    for (int c = 0; c < 3; c++) {
        for (int i = 0; i < BENCH_POSITIONS; i += bench_stride) {
            Variant v;
            Position p;
            tu_position(conventions[c], bench_positions[i], &v, &p);
            char where[64];
            snprintf(where, sizeof where, "bench position %d, %s", i, conventions[c]);
            checked += check_position(&v, &p, where);
        }
    }
    assert_true(checked >= 3 * (BENCH_POSITIONS / bench_stride));
}

/* Positions of random playouts at every stage of the game, from the opening to the last
 * seeds, on every board under every convention. */
static void test_random_positions(void **state)
{
    (void)state;
    int checked = 0;
    for (int b = 0; b < 3; b++) {
        for (int c = 0; c < 3; c++) {
            char opts[80];
            snprintf(opts, sizeof opts, "%s%s%s", boards[b], boards[b][0] ? " " : "",
                     conventions[c]);
            Variant v;
            tu_variant(opts, &v);
            for (int g = 0; g < random_games; g++) {
                Rng r;
                rng_seed(&r, 15, (uint64_t)(3 * b + c), (uint64_t)g);
                Position p;
                pos_start(&v, &p);
                /* Stop at a stage of its own for each game: some seeds captured, most, or
                 * nearly all. */
                const int keep = v.capture + 1 + (g * 7919) % (2 * v.holes * v.seeds);
                while (p.left > keep) {
                    Position next;
                    MoveInfo info;
                    MoveEvent e = pos_play(&v, &p, pos_random_move(&p, &r), &next, &info, NULL);
                    if (e == EV_ENDLESS || pos_over(&v, &next))
                        break;
                    p = next;
                }
                char where[120];
                snprintf(where, sizeof where, "'%s' game %d", opts, g);
                checked += check_position(&v, &p, where);
            }
        }
    }
    assert_true(checked >= 9 * random_games / 2);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "fast") != 0 && strcmp(argv[1], "slow") != 0)) {
        fprintf(stderr, "usage: test_search fast|slow\n");
        return 2;
    }
    const bool slow = strcmp(argv[1], "slow") == 0;
    max_depth = slow ? 8 : 5;
    bench_stride = slow ? 1 : 4;
    random_games = slow ? 24 : 6;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_positions),
        cmocka_unit_test(test_random_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
