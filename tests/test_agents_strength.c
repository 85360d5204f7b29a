/* test_agents_strength.c: colour-swapped matches between agents on the standard board, with
 * fixed seeds. Each asserts only an ordering that holds with a wide margin (the lower end of
 * the 95% Wilson interval of the stronger agent's share of decisive games), and prints every
 * figure, so the run doubles as a report. */
#include "test_util.h"

#include <omp.h>

#include "agent.h"
#include "game.h"
#include "openings.h"
#include "pairs.h"
#include "stats.h"

#define MATCH_SEED 20261130ULL

/* What a match gave, from agent A's side. */
typedef struct Match {
    int wins, draws, losses, other;   /* other: endless or unfinished */
    uint64_t plies;
    double seconds;
} Match;

/* Play n games of a against b on v (job `job`): a is South in the even games, North in the
 * odd ones; each game's streams come from (MATCH_SEED, job, game), so any thread may play it. */
static Match play_match(const Variant *v, const char *a_spec, const char *b_spec, int job, int n)
{
    int wins = 0, draws = 0, losses = 0, other = 0;
    uint64_t plies = 0;
    double t0 = omp_get_wtime();
    #pragma omp parallel reduction(+ : wins, draws, losses, other, plies)
    {
        Agent a, b;
        Error e;
        if (agent_create(&a, a_spec, &e) != 0 || agent_create(&b, b_spec, &e) != 0) {
            fprintf(stderr, "%s\n", e.msg);   /* a bad spec here is a bug of the test */
            abort();
        }
        #pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < n; i++) {
            Rng g;
            GameRecord r;
            int a_south = i % 2 == 0;
            rng_seed(&g, MATCH_SEED, (uint64_t)job, (uint64_t)i);
            game_play(v, a_south ? &a : &b, a_south ? &b : &a, &g, &r);
            plies += r.plies;
            if (r.outcome == OUT_DRAW)
                draws++;
            else if (r.outcome != OUT_SOUTH && r.outcome != OUT_NORTH)
                other++;
            else if ((r.outcome == OUT_SOUTH) == a_south)
                wins++;
            else
                losses++;
        }
        agent_free(&a);
        agent_free(&b);
    }
    Match m = { wins, draws, losses, other, plies, omp_get_wtime() - t0 };
    return m;
}

/* Play a match, print its figures, and check that A takes more than `floor` of the decisive
 * games at the lower end of the 95% Wilson interval. */
static void expect_stronger(const char *a_spec, const char *b_spec, int job, int n, double floor)
{
    Variant v;
    tu_variant("", &v);
    Match m = play_match(&v, a_spec, b_spec, job, n);
    int decisive = m.wins + m.losses;
    Interval ci = wilson_interval((uint64_t)m.wins, (uint64_t)decisive, 0.95);
    printf("%s vs %s: %d games, +%d =%d -%d (other %d), score %.3f, wins of decisive %.3f "
           "[%.3f, %.3f], %.0f plies/game, %.1f s\n",
           a_spec, b_spec, n, m.wins, m.draws, m.losses, m.other,
           (m.wins + 0.5 * m.draws) / n, decisive ? (double)m.wins / decisive : 0.0, ci.lo, ci.hi,
           (double)m.plies / n, m.seconds);
    fflush(stdout);
    if (decisive < n / 2 || ci.lo <= floor)
        fail_msg("%s is not clearly stronger than %s", a_spec, b_spec);
}

/* The one-ply greedy player beats uniform random play. */
static void test_greedy_beats_random(void **state)
{
    (void)state;
    expect_stronger("greedy", "random", 1, 400, 0.8);
}

/* Alpha-beta at depth 4 beats greedy. */
static void test_alphabeta_beats_greedy(void **state)
{
    (void)state;
    expect_stronger("alphabeta:depth=4", "greedy", 2, 200, 0.85);
}

/* Searching deeper wins: depth 6 against depth 4. */
static void test_deeper_beats_shallower(void **state)
{
    (void)state;
    expect_stronger("alphabeta:depth=6", "alphabeta:depth=4", 3, 200, 0.85);
}

/* MCTS beats random play. (Against greedy, whose extra moves count their follow-ups, 1000
 * playouts are about even: 9 of 20 games, not a wide-margin ordering.) */
static void test_mcts_beats_random(void **state)
{
    (void)state;
    expect_stronger("mcts:playouts=1000", "random", 4, 100, 0.85);
}

/* MCTS with greedy playouts beats random play. */
static void test_mcts_greedy_policy(void **state)
{
    (void)state;
    expect_stronger("mcts:playouts=200,policy=greedy", "random", 7, 40, 0.85);
}

/* The default evaluation beats store difference alone (every other weight 0) at depth 4. */
static void test_default_weights_beat_store_alone(void **state)
{
    (void)state;
    expect_stronger("alphabeta:depth=4",
                    "alphabeta:depth=4,w.seeds=0,w.threes=0,w.opp_threes=0,w.empty=0,"
                    "w.opp_empty=0,w.mobility=0,w.final=0",
                    8, 400, 0.85);
}

/* At these budgets alpha-beta (depth 4) beats MCTS (1000 playouts). */
static void test_alphabeta_beats_mcts(void **state)
{
    (void)state;
    expect_stronger("alphabeta:depth=4", "mcts:playouts=1000", 6, 100, 0.6);
}

/* The balanced book of the strong-play study (configs/strong-play-book.txt): 335 openings
 * a deep search values near level, so that a pair's two games test the players rather than
 * the opening. */
#define LADDER_BOOK "file:" TEST_DATA_DIR "/../../configs/strong-play-book.txt"

/* A's half-points (0 .. 4) over each pair of games from the book's openings, a pair per
 * opening (the first `lines` of them; 0: all): games 2k (A South) and 2k + 1 (B South) of job
 * `job`, as a run plays them, into counts[] by half-points; *unfinished counts the games that
 * reached v's max_plies, which `how` judges. Returns the pairs played. */
static uint64_t play_book_pairs(const Variant *v, const char *a_spec, const char *b_spec,
                                uint64_t job, int64_t lines, UnfinishedJudgement how,
                                uint64_t counts[PENTA_NB], int *unfinished)
{
    OpeningSet book;
    Error e;
    if (openings_load(&book, LADDER_BOOK, v, &e) != 0)
        fail_msg("%s", e.msg);
    uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    int cut = 0;
    const int64_t n = lines > 0 && lines < book.count ? lines : book.count;
    #pragma omp parallel reduction(+ : c0, c1, c2, c3, c4, cut)
    {
        Agent a, b;
        if (agent_create(&a, a_spec, &e) != 0 || agent_create(&b, b_spec, &e) != 0)
            abort();   /* a bad spec here is a bug of the test */
        #pragma omp for schedule(dynamic, 1)
        for (int64_t k = 0; k < n; k++) {
            Opening o;
            int32_t index = (int32_t)openings_pair(&book, v, MATCH_SEED, job, (uint64_t)k, &o);
            GameOptions opt = { .unfinished = how };
            int half = 0;
            for (int colour = 0; colour < 2; colour++) {
                GameRecord r;
                if (game_play_indexed(v, MATCH_SEED, job, 2 * (uint64_t)k + (uint64_t)colour,
                                      &o, index, &a, &b, &opt, &r, NULL) != 0)
                    abort();   /* no search here can run out of memory or be stopped */
                cut += r.plies >= v->max_plies;
                int a_side = colour ? NORTH : SOUTH;
                half += r.outcome == OUT_SOUTH   ? (a_side == SOUTH ? 2 : 0)
                        : r.outcome == OUT_NORTH ? (a_side == NORTH ? 2 : 0)
                                                 : 1;
            }
            c0 += half == 0;
            c1 += half == 1;
            c2 += half == 2;
            c3 += half == 3;
            c4 += half == 4;
        }
        agent_free(&a);
        agent_free(&b);
    }
    openings_free(&book);
    counts[0] = c0, counts[1] = c1, counts[2] = c2, counts[3] = c3, counts[4] = c4;
    if (unfinished)
        *unfinished = cut;
    return (uint64_t)n;
}

/* Play a against b in colour-swapped pairs from the balanced book, print the pentanomial
 * counts and score, and check that the lower end of the score's 95% interval lies above
 * 1/2: the ladder's criterion. */
static void expect_rung(const char *a_spec, const char *b_spec, uint64_t job)
{
    Variant v;
    tu_variant("", &v);
    uint64_t counts[PENTA_NB];
    double t0 = omp_get_wtime();
    uint64_t pairs = play_book_pairs(&v, a_spec, b_spec, job, 0, UNFINISHED_BY_STORES, counts, NULL);
    PairEstimate est = pentanomial_estimate(counts, 0.95);
    printf("%s vs %s: %llu pairs from the book, pentanomial %llu %llu %llu %llu %llu, score "
           "%.3f [%.3f, %.3f], %.1f s\n",
           a_spec, b_spec, (unsigned long long)pairs, (unsigned long long)counts[0],
           (unsigned long long)counts[1], (unsigned long long)counts[2],
           (unsigned long long)counts[3], (unsigned long long)counts[4], est.score,
           est.score_ci.lo, est.score_ci.hi, omp_get_wtime() - t0);
    fflush(stdout);
    if (!(est.score_ci.lo > 0.5))
        fail_msg("%s does not beat %s from the book", a_spec, b_spec);
}

/* The ladder of the default evaluation from openings: each depth beats the one below. (From
 * random 4-ply openings most pairs split one game each, as the opening favours one colour:
 * depth 6 scores 0.537 [0.517, 0.558] against depth 4 over 200 pairs, a thin margin; the
 * book's is wide.) */
static void test_ladder_from_openings(void **state)
{
    (void)state;
    expect_rung("alphabeta:depth=4", "alphabeta:depth=2", 10);
    expect_rung("alphabeta:depth=6", "alphabeta:depth=4", 11);
}

/* The games of a against b from the first `lines` lines of the book, in both colour
 * orders, that reach `max_plies` plies without ending. */
static int book_unfinished(const char *a_spec, const char *b_spec, uint64_t job, int lines,
                           int64_t max_plies)
{
    Variant v;
    tu_variant("", &v);
    v.max_plies = max_plies;
    uint64_t counts[PENTA_NB];
    int unfinished;
    play_book_pairs(&v, a_spec, b_spec, job, lines, UNFINISHED_KEPT, counts, &unfinished);
    printf("%s vs %s: %d of %d games from the book unfinished at %lld plies\n", a_spec, b_spec,
           unfinished, 2 * lines, (long long)max_plies);
    fflush(stdout);
    return unfinished;
}

/* The default weights (weights=auto) beat the plain set from depth 4, where they are the
 * tuned set, and every game of theirs ends at every depth: below depth 4 the tuned set keeps
 * its row's holes filled once few seeds are left, so no four is made and about three games in
 * four against greedy never end (docs/strong-play.md, "Better default weights"). */
static void test_default_weights_by_depth(void **state)
{
    (void)state;
    expect_rung("alphabeta:depth=4", "alphabeta:depth=4,weights=plain", 12);
    expect_rung("alphabeta:depth=6", "alphabeta:depth=6,weights=plain", 13);
    for (int depth = 1; depth <= 4; depth++) {
        char spec[64];
        snprintf(spec, sizeof spec, "alphabeta:depth=%d", depth);
        assert_int_equal(book_unfinished(spec, "greedy", 14, 100, 5000), 0);
        assert_int_equal(book_unfinished(spec, "random", 15, 100, 5000), 0);
    }
    /* The check can fail: the tuned set at depth 2 leaves most games unfinished. */
    assert_true(book_unfinished("alphabeta:depth=2,weights=tuned", "greedy", 14, 20, 5000) > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_beats_random),
        cmocka_unit_test(test_alphabeta_beats_greedy),
        cmocka_unit_test(test_deeper_beats_shallower),
        cmocka_unit_test(test_mcts_beats_random),
        cmocka_unit_test(test_mcts_greedy_policy),
        cmocka_unit_test(test_alphabeta_beats_mcts),
        cmocka_unit_test(test_default_weights_beat_store_alone),
        cmocka_unit_test(test_ladder_from_openings),
        cmocka_unit_test(test_default_weights_by_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
