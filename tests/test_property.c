/* test_property.c: invariants over many seeded random games on several variants.
 *
 *   test_property GAMES_PER_VARIANT
 *
 * Each game is played twice: by a hand loop here, which checks every move, and by game_play
 * (sim/game.c) with the same agents and streams; the two records must agree. */
#include "test_util.h"

#include <inttypes.h>

#include "agent.h"
#include "game.h"

static long games_per_variant;   /* argv[1] */

/* What the hand loop saw in one game. */
typedef struct Seen {
    uint32_t plies, passes, mid, fin;
    Outcome stopped;     /* OUT_ENDLESS, OUT_UNFINISHED, or OUT_DRAW for a finished game */
    Position end;
} Seen;

/* Check one move's result against the position before it; `where` names the game. */
static void check_move(const Variant *v, const Position *b, int move, MoveEvent ev,
                       const MoveInfo *info, const Position *a, const char *where)
{
    if (ev == EV_ENDLESS) {
        /* Reported as the position before the move. */
        if (memcmp(a, b, sizeof *a) != 0)
            fail_msg("%s: endless move %d changed the position", where, move);
        return;
    }
    if (!pos_ok(v, a))
        fail_msg("%s: pos_ok fails after move %d: %s", where, move, tu_apn(v, a));
    unsigned on_board = 0;
    for (int i = 0; i < v->pits; i++)
        on_board += a->pit[i];
    if (on_board + a->store[SOUTH] + a->store[NORTH] != (unsigned)v->total)
        fail_msg("%s: seeds do not add up after move %d", where, move);
    /* Stores only grow, by whole captures; `left` falls by what was captured. */
    unsigned caps = info->mid_captures + info->final_capture;
    assert_true(a->store[SOUTH] >= b->store[SOUTH] && a->store[NORTH] >= b->store[NORTH]);
    assert_int_equal(b->left - a->left, caps * (unsigned)v->capture);
    assert_int_equal((a->store[SOUTH] - b->store[SOUTH]) % v->capture, 0);
    assert_true(info->laps >= 1);
    /* The capturer fields: the last capture's store, the first final capture kept. */
    if (caps == 0)
        assert_int_equal(a->last_capturer, b->last_capturer);
    else
        assert_true(a->last_capturer == SOUTH || a->last_capturer == NORTH);
    if (info->final_capture)
        assert_int_equal(a->last_capturer, b->side);
    if (b->first_final != NOBODY)
        assert_int_equal(a->first_final, b->first_final);
    else
        assert_int_equal(a->first_final, info->final_capture ? b->side : NOBODY);
    /* The event and who moves next. */
    if (ev == EV_OVER) {
        assert_true(pos_over(v, a));
        assert_int_equal(a->side, b->side);
        assert_int_equal(info->passed, 0);
        return;
    }
    assert_false(pos_over(v, a));
    bool extra = info->final_capture && v->extra_turn;
    assert_int_equal(ev, extra ? EV_EXTRA : EV_NEXT);
    int due = extra ? b->side : !b->side;
    assert_int_equal(a->side, info->passed ? !due : due);
    if (info->passed)
        assert_int_equal(a->nonempty & v->row[due], 0);
}

/* Play one game by hand with the agents' moves, checking every move. */
static void hand_game(const Variant *v, Agent *ag[2], const Rng *g, Seen *s, const char *where)
{
    Rng stream[2] = { rng_substream(g, RNG_SUB_AGENT_SOUTH),
                      rng_substream(g, RNG_SUB_AGENT_NORTH) };
    Position p;
    Error e;
    memset(s, 0, sizeof *s);
    s->stopped = OUT_DRAW;
    agent_new_game(ag[0]);
    agent_new_game(ag[1]);
    pos_start(v, &p);
    while (!pos_over(v, &p)) {
        if (s->plies >= v->max_plies) {
            s->stopped = OUT_UNFINISHED;
            break;
        }
        AgentStats st = { 0 };
        int side = p.side;
        int move = ag[side]->choose(ag[side], v, &p, &stream[side], &st);
        if (!pos_move_ok(v, &p, move, &e))
            fail_msg("%s: agent chose an illegal move: %s", where, e.msg);
        Position q;
        MoveInfo info;
        MoveEvent ev = pos_play(v, &p, move, &q, &info, NULL);
        s->plies++;
        check_move(v, &p, move, ev, &info, &q, where);
        if (ev == EV_ENDLESS) {
            s->stopped = OUT_ENDLESS;
            break;
        }
        s->passes += info.passed;
        s->mid += info.mid_captures;
        s->fin += info.final_capture;
        p = q;
    }
    s->end = p;
}

/* Totals of one variant's games, for the checks that the run met every ending. */
typedef struct Tally {
    long games, finished, endless, unfinished, draws;
    uint64_t plies;
} Tally;

/* Play n games of one variant; returns what they did. */
static Tally run_variant(const char *opts, uint64_t job, long n)
{
    Variant v;
    Agent south, north;
    Error e;
    Tally t = { 0 };
    char where[160];
    tu_variant(opts, &v);
    if (agent_create(&south, "random", &e) != 0 || agent_create(&north, "random", &e) != 0)
        fail_msg("%s", e.msg);
    Agent *ag[2] = { &south, &north };
    for (long i = 0; i < n; i++) {
        Rng g;
        Seen s;
        GameRecord r;
        snprintf(where, sizeof where, "[%s] game %ld", opts, i);
        rng_seed(&g, 20261129, job, (uint64_t)i);
        hand_game(&v, ag, &g, &s, where);
        game_play(&v, &south, &north, &g, &r);
        /* game_play saw the same game. */
        if (r.plies != s.plies || r.passes != s.passes || r.mid_captures != s.mid
            || r.final_captures != s.fin)
            fail_msg("%s: game_play plies/passes/captures %u/%u/%u/%u, hand loop %u/%u/%u/%u",
                     where, r.plies, r.passes, r.mid_captures, r.final_captures, s.plies,
                     s.passes, s.mid, s.fin);
        assert_true(r.plies <= (uint64_t)v.max_plies);
        assert_true(r.passes <= r.plies);
        assert_int_equal(r.left, s.end.left);
        assert_int_equal(r.last_capturer, s.end.last_capturer);
        assert_int_equal(r.first_final, s.end.first_final);
        Award a;
        pos_award(&v, &s.end, &g, &a);
        assert_int_equal(r.lottery, a.lottery);
        if (s.stopped == OUT_DRAW) {
            /* Finished: the award takes every seed left; scores sum to the total. */
            assert_true(pos_over(&v, &s.end));
            assert_int_equal(r.south + r.north, v.total);
            assert_int_equal(r.south, a.score[SOUTH]);
            assert_int_equal(r.north, a.score[NORTH]);
            assert_int_equal(r.outcome, game_outcome(r.south, r.north));
            assert_int_equal(a.recipient, award_recipient(v.final_four, s.end.last_capturer,
                                                           s.end.first_final, a.lottery));
            assert_true(a.recipient == SOUTH || a.recipient == NORTH);
            t.finished++;
            t.draws += r.outcome == OUT_DRAW;
        } else {
            /* Stopped: no award, the stores as they stood. */
            assert_int_equal(r.outcome, s.stopped);
            assert_int_equal(r.south, s.end.store[SOUTH]);
            assert_int_equal(r.north, s.end.store[NORTH]);
            if (s.stopped == OUT_UNFINISHED)
                assert_int_equal(r.plies, (uint32_t)v.max_plies);
            t.endless += s.stopped == OUT_ENDLESS;
            t.unfinished += s.stopped == OUT_UNFINISHED;
        }
        t.games++;
        t.plies += r.plies;
    }
    agent_free(&south);
    agent_free(&north);
    return t;
}

/* A variant to play, and which endings its games must show. */
typedef struct PropVariant {
    const char *opts;
    bool want_endless, want_unfinished;
} PropVariant;

static const PropVariant prop_variants[] = {
    { "variant=anywoli", false, false },
    { "variant=yit-nuri", false, false },
    { "variant=yit-jani", false, false },
    { "holes=5 seeds=4", true, false },                     /* endless in about 2% */
    { "holes=3 seeds=2 capture=3", false, false },
    { "holes=3 seeds=3", true, false },                     /* 18 seeds; endless in 10% */
    { "holes=6 seeds=3 skip_origin=yes", false, false },
    { "holes=3 seeds=3 skip_origin=yes", true, false },     /* endless in 10% */
    { "variant=yit-nuri extra_turn=no", false, false },
    { "variant=anywoli final_four=lottery", false, false },
    { "variant=yit-jani final_four=first-final", false, false },
    { "holes=6 seeds=4 capture=5", false, false },          /* 48 seeds, capture 5 */
    { "variant=yit-nuri max_plies=120", false, true },      /* some games stop unfinished */
};

static void test_random_games(void **state)
{
    (void)state;
    long total = 0;
    int nv = (int)(sizeof prop_variants / sizeof prop_variants[0]);
    for (int k = 0; k < nv; k++) {
        Tally t = run_variant(prop_variants[k].opts, (uint64_t)k, games_per_variant);
        print_message("%-42s games %ld finished %ld draws %ld endless %ld unfinished %ld "
                      "plies %" PRIu64 "\n", prop_variants[k].opts, t.games, t.finished,
                      t.draws, t.endless, t.unfinished, t.plies);
        assert_int_equal(t.games, games_per_variant);
        assert_int_equal(t.finished + t.endless + t.unfinished, t.games);
        assert_true(t.finished > 0);
        if (prop_variants[k].want_endless)
            assert_true(t.endless > 0);
        if (prop_variants[k].want_unfinished)
            assert_true(t.unfinished > 0);
        else
            assert_int_equal(t.unfinished, 0);
        total += t.games;
    }
    assert_int_equal(total, games_per_variant * nv);
}

/* Same game stream, same game: game_play is a pure function of (variant, agents, stream). */
static void test_replay(void **state)
{
    (void)state;
    Variant v;
    Agent a, b;
    Error e;
    tu_variant("variant=yit-nuri", &v);
    assert_int_equal(agent_create(&a, "random", &e), 0);
    assert_int_equal(agent_create(&b, "random", &e), 0);
    int differ = 0;
    for (uint64_t i = 0; i < 50; i++) {
        Rng g, h;
        GameRecord r1, r2, r3;
        rng_seed(&g, 11, 0, i);
        rng_seed(&h, 11, 0, i + 1000);
        game_play(&v, &a, &b, &g, &r1);
        game_play(&v, &a, &b, &g, &r2);
        game_play(&v, &a, &b, &h, &r3);
        assert_int_equal(r1.moves_hash, r2.moves_hash);
        assert_int_equal(r1.plies, r2.plies);
        assert_int_equal(r1.south, r2.south);
        differ += r1.moves_hash != r3.moves_hash;
    }
    /* Other streams give other games. */
    assert_true(differ >= 45);
    agent_free(&a);
    agent_free(&b);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (games_per_variant = atol(argv[1])) < 1) {
        fprintf(stderr, "usage: test_property GAMES_PER_VARIANT\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
