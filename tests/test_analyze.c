/* test_analyze.c: the analysis of a hand-made results file, whose every figure is worked out
 * by hand: the three conventions re-scored from the scores, `left` and the recipients, the
 * paired McNemar counts, agent A's results, the games as pairs, lengths and margins; the
 * reader's refusals; and the JSON writer's escapes and non-finite numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "config.h"
#include "json.h"
#include "results.h"
#include "results_read.h"

static char path[64];

/* Four games of a 6-hole board (48 seeds) under `penultimate`, A = random, B = greedy, with
 * captures that account for every seed (11 of 4 when 4 are left, 10 in the endless game):
 *   0: S 30 N 18, left 4 to S (last capture S; first-final N; lottery N): S under all three
 *   1: S 24 N 24, left 4 to S (no first-final: as penultimate; lottery N): D, D, N
 *   2: S 22 N 26, left 4 to N (first-final S; lottery S): N, S, S
 *   3: endless after 5000 plies. */
static const GameRecord games[] = {
    { .game = 0, .a_south = 1, .outcome = OUT_SOUTH, .south = 30, .north = 18, .left = 4,
      .last_capturer = 0, .first_final = 1, .lottery = 1, .plies = 100, .mid_captures = 10,
      .final_captures = 1, .opening = -1, .moves_hash = 7, .line_hash = 5 },
    { .game = 1, .a_south = 0, .outcome = OUT_DRAW, .south = 24, .north = 24, .left = 4,
      .last_capturer = 0, .first_final = -1, .lottery = 1, .plies = 120, .mid_captures = 11,
      .opening = -1, .moves_hash = 8, .line_hash = 5 },
    { .game = 2, .a_south = 1, .outcome = OUT_NORTH, .south = 22, .north = 26, .left = 4,
      .last_capturer = 1, .first_final = 0, .lottery = 0, .plies = 140, .mid_captures = 10,
      .final_captures = 1, .opening = -1, .moves_hash = 9, .line_hash = 5 },
    { .game = 3, .a_south = 0, .outcome = OUT_ENDLESS, .south = 20, .north = 20, .left = 8,
      .last_capturer = 1, .first_final = -1, .lottery = 0, .plies = 5000, .mid_captures = 10,
      .opening = -1, .moves_hash = 9, .line_hash = 6 },
};

/* Write the hand-made file (one job "j") at path. */
static void write_file(void)
{
    static const char text[] = "seed = 1;\noutput = \"x.h5\";\njobs = ({ name = \"j\"; "
                               "holes = 6; agent_a = \"random\"; agent_b = \"greedy\"; games = 4; "
                               "});\n";
    Experiment x;
    Error e;
    assert_int_equal(experiment_parse(&x, text, "test", NULL, &e), 0);
    Results *r = results_create(path, &x, "2024-01-01T00:00:00Z", (const int64_t[]){ 1 }, &e);
    assert_non_null(r);
    unsigned char rows[4 * ROW_BYTES];
    JobStats st = { 0 };
    for (int i = 0; i < 4; i++) {
        row_pack(&games[i], rows + i * ROW_BYTES);
        assert_true(stats_add(&st, &games[i]) >= 0);
    }
    assert_int_equal(results_append(r, &x.jobs[0], 0, 4, rows, NULL, &e), 0);
    assert_int_equal(results_end_job(r, &x.jobs[0], &st, &e), 0);
    assert_int_equal(results_end(r, "2024-01-01T00:00:01Z", &e), 0);
    assert_int_equal(results_close(r, &e), 0);
    stats_free(&st);
    experiment_free(&x);
}

/* Outcome counts equal to the expected ones. */
static void assert_outcomes(const Outcomes *o, uint64_t s, uint64_t n, uint64_t d, uint64_t end)
{
    assert_int_equal(o->south, s);
    assert_int_equal(o->north, n);
    assert_int_equal(o->draw, d);
    assert_int_equal(o->endless, end);
    assert_int_equal(o->unfinished, 0);
}

/* The conventions re-scored, the paired counts, agent A, lengths and margins. */
static void test_hand_made_file(void **state)
{
    (void)state;
    Analysis a;
    Error e;
    AnalyzeOptions opt = { 0 };
    assert_int_equal(analyze_file(path, &opt, &a, &e), 0);
    assert_int_equal(a.njobs, 1);
    const JobAnalysis *j = &a.jobs[0];
    assert_true(j->two_agents && j->blind_a && !j->blind_b && j->stored_histogram);
    assert_int_equal(j->inconsistent, 0);
    assert_outcomes(&j->all, 1, 1, 1, 1);
    assert_outcomes(&j->conv[FF_PENULTIMATE], 1, 1, 1, 1);
    assert_outcomes(&j->conv[FF_FIRST_FINAL], 2, 0, 1, 1);
    assert_outcomes(&j->conv[FF_LOTTERY], 2, 1, 0, 1);
    /* (penultimate, first-final): South won only under first-final in game 2; North won
     * only under penultimate in game 2. (first-final, lottery): game 1 D vs N. */
    assert_int_equal(j->mc_south[0].only_first, 0);
    assert_int_equal(j->mc_south[0].only_second, 1);
    assert_int_equal(j->mc_north[0].only_first, 1);
    assert_int_equal(j->mc_north[2].only_second, 1);
    assert_int_equal(j->mc_north[2].only_first, 0);
    assert_int_equal(j->a_wins, 1);
    assert_int_equal(j->a_draws, 1);
    assert_int_equal(j->a_losses, 1);
    assert_int_equal(j->length.n, 4);
    assert_true(j->length.max == 5000 && j->length.min == 100);
    assert_int_equal(j->margin.n, 3);
    assert_true(j->margin.min == -4 && j->margin.max == 12 && j->margin.median == 0);
    assert_true(fabs(j->advantage.value) < 1e-12);
    /* Pairs (0, 1) and (2, 3): A won as South and drew as North, 3 half-points, South one
     * point ahead; A lost as South and the endless game counts 1/2 to each, 1 half-point,
     * South one point behind. A's pair score (3 + 1) / 8 = 1/2; advantage 0. */
    const uint64_t penta[PENTA_NB] = { 0, 1, 0, 1, 0 };
    assert_memory_equal(j->tally.penta, penta, sizeof penta);
    assert_memory_equal(j->tally.sn, penta, sizeof penta);
    assert_true(j->pairs.pairs == 2 && j->tally.unfinished == 0 && !j->unpaired_game);
    assert_true(fabs(j->pairs.score - 0.5) < 1e-15 && fabs(j->pairs.se - 0.25 / sqrt(2)) < 1e-15);
    assert_true(j->pair_advantage.pairs == 2 && fabs(j->pair_advantage.advantage.value) < 1e-15);
    /* The lab's writer stores moves_hash: games 2 and 3 share one here, so 3 of 4 are
     * distinct; no game has an opening. */
    assert_true(j->has_distinct);
    assert_true(j->distinct.games == 4 && j->distinct.distinct == 3 &&
                j->distinct.most_repeated == 2);
    /* and line_hash: three of the four games follow one line. */
    assert_true(j->has_lines);
    assert_true(j->lines.games == 4 && j->lines.distinct == 2 && j->lines.most_repeated == 3);
    assert_true(distinct_lines_few(&j->lines));
    assert_true(j->has_openings && j->openings.games == 0);
    /* Repeated games on few lines: the tests that count games do not hold. */
    assert_false(j->games_independent);
    /* The pairs re-scored under the job's own convention are its pairs. */
    const PairAdvantage *own = &j->conv_pair_advantage[j->variant.final_four];
    assert_true(own->pairs == 2 && own->advantage.value == j->pair_advantage.advantage.value);
    analysis_free(&a);
}

/* An unknown job and a file that is not HDF5 are refused with one line. */
static void test_refusals(void **state)
{
    (void)state;
    Analysis a;
    Error e;
    AnalyzeOptions opt = { .job = "nope" };
    assert_int_equal(analyze_file(path, &opt, &a, &e), -1);
    assert_non_null(strstr(e.msg, "no job 'nope'"));
    analysis_free(&a);
    char text[80];
    snprintf(text, sizeof text, "%s.txt", path);
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("hello\n", f);
    fclose(f);
    assert_null(rf_open(text, &e));
    assert_non_null(strstr(e.msg, "not an anywoli results file"));
    assert_null(strchr(e.msg, '\n'));
    unlink(text);
}

/* The JSON writer: escapes, null for non-finite numbers, nesting. */
static void test_json(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    Json j;
    json_init(&j, out);
    json_object_begin(&j);
    json_kv_string(&j, "s", "a\"b\\c\n\x01");
    json_kv_double(&j, "nan", NAN);
    json_kv_double(&j, "inf", -INFINITY);
    json_kv_double(&j, "x", 0.25);
    json_key(&j, "list");
    json_array_begin(&j);
    json_uint(&j, 1);
    json_int(&j, -2);
    json_array_end(&j);
    json_key(&j, "empty");
    json_object_begin(&j);
    json_object_end(&j);
    json_object_end(&j);
    json_finish(&j);
    fclose(out);
    assert_string_equal(buf, "{\n  \"s\": \"a\\\"b\\\\c\\n\\u0001\",\n  \"nan\": null,\n"
                             "  \"inf\": null,\n  \"x\": 0.25,\n  \"list\": [\n    1,\n"
                             "    -2\n  ],\n  \"empty\": {}\n}\n");
    free(buf);
}

/* JSON numbers: the shortest decimal that reads back as the same double. */
static void test_json_numbers(void **state)
{
    (void)state;
    static const struct { double x; const char *text; } cases[] = {
        { 0.95, "0.95" },
        { 0.1 + 0.2, "0.30000000000000004" },   /* 17 digits needed */
        { 1e-300, "1e-300" },
        { 3.0, "3" },
        { -42.0, "-42" },
        { 0.0, "0" },
        { 1e21, "1e+21" },
        { 2.0 / 3.0, "0.6666666666666666" },     /* 16 digits suffice */
        { 123456789012345.0, "123456789012345" },
        { 5e-324, "4.94065645841247e-324" },     /* the smallest subnormal */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        assert_non_null(out);
        Json j;
        json_init(&j, out);
        json_double(&j, cases[i].x);
        fclose(out);
        assert_string_equal(buf, cases[i].text);
        assert_true(strtod(buf, NULL) == cases[i].x);
        free(buf);
    }
}

/* Which agents look at the convention. */
/* A player is named by the spec as given and the weight set its played spec holds; a file
 * without the played spec says so. */
static void test_player_labels(void **state)
{
    (void)state;
    static const struct {
        const char *given, *played, *label;
    } cases[] = {
        { "alphabeta:depth=4",
          "alphabeta:depth=4,nodes=0,tt=16,ties=random,margin=0,temperature=0,choice_moves=0,"
          "quiesce=0,weights=auto,w.store=1,w.seeds=-0.16,w.threes=3.79,w.opp_threes=-1,"
          "w.empty=-0.89,w.opp_empty=0.65,w.mobility=0,w.final=0.41,fade=0.25",
          "alphabeta:depth=4 [tuned weights]" },
        { "alphabeta:depth=2",
          "alphabeta:depth=2,nodes=0,tt=16,ties=random,margin=0,temperature=0,choice_moves=0,"
          "quiesce=0,weights=auto,w.store=1,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,"
          "w.opp_empty=0,w.mobility=0,w.final=0,fade=0",
          "alphabeta:depth=2 [plain weights]" },
        { "alphabeta:depth=2,w.store=2",
          "alphabeta:depth=2,nodes=0,tt=16,ties=random,margin=0,temperature=0,choice_moves=0,"
          "quiesce=0,weights=auto,w.store=2,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,"
          "w.opp_empty=0,w.mobility=0,w.final=0,fade=0",
          "alphabeta:depth=2,w.store=2" },
        { "strong:nodes=4000",
          "strong:nodes=4000,depth=64,tt=20,ties=random,margin=0,temperature=0,choice_moves=0,"
          "quiesce=0,tables=auto,lmr=1,aspiration=1,seed_bound=1,rfp=0,etc=0,weights=learned,"
          "learned=,w.store=1,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,"
          "w.mobility=0,w.final=0,fade=0",
          "strong:nodes=4000 [learned weights]" },
        { "alphabeta:depth=6,weights=learned,learned=w.txt",
          "alphabeta:depth=6,nodes=0,tt=16,ties=random,margin=0,temperature=0,choice_moves=0,"
          "quiesce=0,weights=learned,learned=w.txt,w.store=1,w.seeds=-0.16,w.threes=3.79,"
          "w.opp_threes=-1,w.empty=-0.89,w.opp_empty=0.65,w.mobility=0,w.final=0.41,fade=0.25",
          "alphabeta:depth=6,weights=learned,learned=w.txt [learned weights: w.txt]" },
        { "alphabeta:depth=2,weights=net",
          "alphabeta:depth=2,nodes=0,tt=16,ties=random,margin=0,temperature=0,choice_moves=0,"
          "quiesce=0,weights=net,w.store=1,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,"
          "w.opp_empty=0,w.mobility=0,w.final=0,fade=0",
          "alphabeta:depth=2,weights=net [network]" },
        { "mcts:weights=net,net=n.net",
          "mcts:playouts=1000,weights=net,net=n.net,w.store=1,w.seeds=0,w.threes=0,"
          "w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,w.final=0,fade=0",
          "mcts:weights=net,net=n.net [network: n.net]" },
        { "random", "random", "random" },
        { "alphabeta:depth=4", NULL, "alphabeta:depth=4 [played spec unknown]" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char label[AGENT_LABEL_MAX];
        analyze_agent_label(cases[i].given, cases[i].played, label, sizeof label);
        assert_string_equal(label, cases[i].label);
    }
}

static void test_blindness(void **state)
{
    (void)state;
    assert_true(agent_is_convention_blind("random"));
    assert_true(agent_is_convention_blind("random:"));
    assert_false(agent_is_convention_blind("greedy"));
    assert_false(agent_is_convention_blind("alphabeta:depth=4"));
    assert_false(agent_is_convention_blind("mcts:playouts=400"));
    assert_false(agent_is_convention_blind("randomish"));
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/test_analyze_%ld.h5", (long)getpid());
    unlink(path);
    write_file();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made_file),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_json_numbers),
        cmocka_unit_test(test_blindness),
        cmocka_unit_test(test_player_labels),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return failed;
}
