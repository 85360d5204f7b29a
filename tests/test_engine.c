/* test_engine.c: the engine's two paths agree. Moves are played by a fast path (no capture, few
 * laps) and by a general one (captures, long relays, cycle checks, traces); a traced move always
 * takes the general path, so playing every move both ways on many random games checks one
 * against the other. Also: an endless move gives back exactly the position before it, and the
 * random playout loop plays the same games as two `random` agents; adjudicated games end where
 * a store first holds more than half the seeds, with the full game's winner. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "agent.h"
#include "game.h"
#include "position.h"
#include "variant.h"

/* The variants played: the presets, boards where long relays and endless moves are common,
 * and each rule switch. */
static const char *const variants[][2] = {
    { "holes", "12" }, { "holes", "7" }, { "holes", "13" }, { "holes", "5" }, { "holes", "6" },
    { "holes", "4" }, { "holes", "3" }, { "skip_origin", "yes" }, { "extra_turn", "no" },
    { "capture", "3" }, { "seeds", "6" }, { "seeds", "2" },
};
#define VARIANTS_NB ((int)(sizeof variants / sizeof variants[0]))

/* Variant i of the table above, finished. */
static Variant variant_number(int i)
{
    Variant v;
    variant_default(&v);
    assert_int_equal(variant_set(&v, variants[i][0], variants[i][1], NULL), 0);
    if (i == 5 || i == 6)   /* small boards: 2 seeds a hole keeps them lively */
        assert_int_equal(variant_set(&v, "seeds", "3", NULL), 0);
    assert_int_equal(variant_finish(&v, NULL), 0);
    return v;
}

/* Play random games; play every move untraced in place, traced into a copy, and copy-made into
 * a third position, and require the same event, counts and position from all three. */
static void test_fast_and_general_paths_agree(void **state)
{
    (void)state;
    long endless = 0, moves = 0;
    for (int i = 0; i < VARIANTS_NB; i++) {
        Variant v = variant_number(i);
        uint64_t games = (i == 3 || i == 4) ? 2000 : 150;   /* endless moves live on small boards */
        for (uint64_t g = 0; g < games; g++) {
            Rng r;
            rng_seed(&r, 7, (uint64_t)i, g);
            Position p;
            pos_start(&v, &p);
            for (int ply = 0; ply < 20000 && !pos_over(&v, &p); ply++) {
                int move = pos_random_move(&p, &r);
                Position before = p, traced, copied;
                MoveInfo a, b, c;
                MoveTrace trace;
                MoveEvent eb = pos_play(&v, &before, move, &traced, &b, &trace);
                MoveEvent ec = pos_play(&v, &before, move, &copied, &c, NULL);
                MoveEvent ea = pos_play(&v, &p, move, &p, &a, NULL);
                moves++;
                assert_int_equal(ea, eb);
                assert_int_equal(ea, ec);
                assert_memory_equal(&p, &traced, sizeof p);
                assert_memory_equal(&p, &copied, sizeof p);
                assert_memory_equal(&a, &b, sizeof a);
                assert_memory_equal(&a, &c, sizeof a);
                assert_int_equal(trace.n, (int)(b.mid_captures + b.final_capture));
                assert_true(pos_ok(&v, &p));
                if (ea == EV_ENDLESS) {
                    /* The move never happened: the position is exactly as before it. */
                    assert_memory_equal(&p, &before, sizeof p);
                    endless++;
                    break;
                }
            }
        }
    }
    /* The table must reach the cycle check, or this test would not test it. */
    assert_true(endless >= 40);
    print_message("%ld moves, %ld endless\n", moves, endless);
}

/* game_play_random plays, move for move, the game of two `random` agents. */
static void test_playout_equals_random_agents(void **state)
{
    (void)state;
    Agent south, north;
    assert_int_equal(agent_create(&south, "random", NULL), 0);
    assert_int_equal(agent_create(&north, "random", NULL), 0);
    for (int i = 0; i < VARIANTS_NB; i++) {
        Variant v = variant_number(i);
        v.max_plies = (i == 3) ? 40 : v.max_plies;   /* some games stop unfinished */
        for (uint64_t g = 0; g < 100; g++) {
            Rng r;
            rng_seed(&r, 11, (uint64_t)i, g);
            GameRecord a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            game_play(&v, &south, &north, &r, &a);
            game_play_random(&v, &r, NULL, &b, NULL);
            assert_memory_equal(&a, &b, sizeof a);
        }
    }
    agent_free(&south);
    agent_free(&north);
}

/* The first ply (plies made) of a game's moves from v's start after which a store holds more
 * than half the seeds and the game is not over, and that position; -1 when there is none (the
 * game ended as it became decided, or was never decided). */
static int first_decided_ply(const Variant *v, const MoveList *l, Position *at)
{
    Position p;
    pos_start(v, &p);
    for (uint32_t k = 0;; k++) {
        if (pos_over(v, &p))
            return -1;
        if (game_decided(v, &p) != NOBODY) {
            *at = p;
            return (int)k;
        }
        if (k == l->n)
            return -1;
        MoveInfo info;
        pos_play(v, &p, l->move[k], &p, &info, NULL);
    }
}

/* Adjudication (GameOptions.adjudicate): a game ends at the first ply where a store holds
 * more than half the seeds, its moves up to there the full game's, its outcome the full
 * game's winner, its stores those of that ply; a game never decided before its end is the
 * full game. Two `random` agents and the playout loop agree on it, as they do without it. */
static void test_adjudication(void **state)
{
    (void)state;
    const char *specs[][2] = { { "greedy", "random" }, { "random", "random" },
                               { "alphabeta:depth=2", "greedy" } };
    int cut = 0, whole = 0;
    for (int s = 0; s < 3; s++) {
        Agent a, b;
        assert_int_equal(agent_create(&a, specs[s][0], NULL), 0);
        assert_int_equal(agent_create(&b, specs[s][1], NULL), 0);
        for (int i = 0; i < 2; i++) {
            Variant v = variant_number(i);
            for (uint64_t g = 0; g < 30; g++) {
                MoveList full_moves = { 0 }, cut_moves = { 0 };
                GameOptions full = { .moves = &full_moves };
                GameOptions adj = { .moves = &cut_moves, .adjudicate = true };
                GameRecord rf, ra;
                memset(&rf, 0, sizeof rf);
                memset(&ra, 0, sizeof ra);
                assert_int_equal(game_play_indexed(&v, 5, (uint64_t)s, g, NULL, -1, &a, &b,
                                                   &full, &rf, NULL), 0);
                assert_int_equal(game_play_indexed(&v, 5, (uint64_t)s, g, NULL, -1, &a, &b,
                                                   &adj, &ra, NULL), 0);
                Position at;
                int k = first_decided_ply(&v, &full_moves, &at);
                if (k < 0) {
                    assert_memory_equal(&ra, &rf, sizeof ra);   /* the game played whole */
                    whole++;
                } else {
                    cut++;
                    assert_int_equal(ra.plies, k);
                    assert_memory_equal(cut_moves.move, full_moves.move, (size_t)k);
                    assert_true(rf.outcome == OUT_SOUTH || rf.outcome == OUT_NORTH);
                    assert_int_equal(ra.outcome, rf.outcome);
                    assert_int_equal(ra.outcome, game_decided(&v, &at) == SOUTH ? OUT_SOUTH
                                                                                : OUT_NORTH);
                    assert_int_equal(ra.south, at.store[SOUTH]);
                    assert_int_equal(ra.north, at.store[NORTH]);
                    assert_int_equal(ra.left, at.left);
                    assert_true(record_adjudicated(&v, &ra));
                }
                if (s == 1) {   /* the playout loop's game, adjudicated likewise */
                    GameRecord rp;
                    memset(&rp, 0, sizeof rp);
                    GameOptions fast = { .adjudicate = true };
                    game_play_indexed(&v, 5, (uint64_t)s, g, NULL, -1, NULL, NULL, &fast, &rp,
                                      NULL);
                    assert_memory_equal(&rp, &ra, sizeof rp);
                }
                move_list_free(&full_moves);
                move_list_free(&cut_moves);
            }
        }
        agent_free(&a);
        agent_free(&b);
    }
    assert_true(cut > 100 && whole > 0);   /* both kinds of game were seen */
}

/* The moves of a game as the game loop makes them (a GameObserver). */
typedef struct Moves {
    int n;
    int move[64];
} Moves;

static void keep_move(void *ctx, const GameMove *m)
{
    Moves *ms = ctx;
    if (ms->n < 64)
        ms->move[ms->n++] = m->move;
}

/* line_hash of the fast path about the line's end: games capped before it, at it and after
 * it, and uncapped, from the start and after 3, 10 and 11 given moves (an opening), each the
 * game of two `random` agents in the game loop field for field, and the FNV-1a of its first
 * LINE_PLIES moves (of all, in a shorter game). */
static void test_playout_line_hash(void **state)
{
    (void)state;
    static const int64_t caps[] = { LINE_PLIES - 2, LINE_PLIES - 1, LINE_PLIES,
                                    LINE_PLIES + 1, LINE_PLIES + 2, 0 };
    static const uint32_t givens[] = { 0, 3, LINE_PLIES, LINE_PLIES + 1 };
    Agent south, north;
    assert_int_equal(agent_create(&south, "random", NULL), 0);
    assert_int_equal(agent_create(&north, "random", NULL), 0);
    Variant v = variant_number(0);
    /* A line of LINE_PLIES + 1 legal moves from the start, for the given moves. */
    int line[LINE_PLIES + 1];
    Position p;
    Rng pick;
    rng_seed(&pick, 3, 0, 0);
    pos_start(&v, &p);
    for (int i = 0; i <= LINE_PLIES; i++) {
        MoveInfo info;
        line[i] = pos_random_move(&p, &pick);
        assert_int_not_equal(pos_play(&v, &p, line[i], &p, &info, NULL), EV_ENDLESS);
        assert_false(pos_over(&v, &p));
    }
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++)
        for (size_t k = 0; k < sizeof givens / sizeof givens[0]; k++)
            for (uint64_t g = 0; g < 20; g++) {
                Rng r;
                rng_seed(&r, 12, c * 8 + k, g);
                Moves ms = { 0, { 0 } };
                GameOptions loop = { .start = { .moves = line, .n_moves = givens[k] },
                                     .max_plies = caps[c], .observe = keep_move,
                                     .observer_ctx = &ms };
                GameOptions fast = loop;
                fast.observe = NULL;
                fast.observer_ctx = NULL;
                GameRecord a, b;
                memset(&a, 0, sizeof a);
                memset(&b, 0, sizeof b);
                assert_int_equal(game_play_from(&v, &south, &north, &r, &loop, &a, NULL), 0);
                game_play_random(&v, &r, &fast, &b, NULL);
                assert_memory_equal(&a, &b, sizeof a);
                int n = a.plies < LINE_PLIES ? (int)a.plies : LINE_PLIES;
                uint64_t h = 0xcbf29ce484222325ULL;
                for (int i = 0; i < n; i++)
                    h = (h ^ (uint64_t)ms.move[i]) * 0x100000001b3ULL;
                assert_true(a.line_hash == h);
                assert_true(a.plies <= LINE_PLIES ? a.line_hash == a.moves_hash
                                                  : a.line_hash != a.moves_hash);
            }
    agent_free(&south);
    agent_free(&north);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_and_general_paths_agree),
        cmocka_unit_test(test_playout_equals_random_agents),
        cmocka_unit_test(test_playout_line_hash),
        cmocka_unit_test(test_adjudication),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
