/* test_driver.c: the driver in process: identical tables for any thread count and batch size,
 * games as pure functions of (seed, job, game), the journal's checks and torn tails, resume
 * from a journal, and the refusals that protect existing files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "door.h"
#include "driver.h"
#include "journal.h"
#include "progress.h"
#include "results.h"

/* Jobs that between them see every outcome: endless moves (5 holes), unfinished games
 * (max_plies), the lottery, the standard board and a sweep. */
static const char experiment_text[] =
    "seed = 12345;\noutput = \"unused.h5\";\n"
    "jobs = (\n"
    "  { name = \"small\"; holes = [5, 6]; seeds = 4; games = 700; },\n"
    "  { name = \"short\"; holes = 8; seeds = 3; max_plies = 40; final_four = \"lottery\";\n"
    "    games = 500; },\n"
    "  { name = \"standard\"; games = 150; agent_b = \"random:\"; }\n"
    ");\n";

#define TEST_TMP_NAME "driver"
#include "test_tmp.h"

/* Whether a file exists. */
static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The test experiment, writing to `output` with the given threads and batch (0: adaptive). */
/* driver_run as a command of its own, as on the command line: the files the test read
 * before (a results file it checked) are not this run's inputs (door.h). */
static RunStatus command_run(const Experiment *x, const RunOptions *o, RunReport *rep, Error *e)
{
    door_forget_all();
    return driver_run(x, o, rep, e);
}

static void load(Experiment *x, const char *output, int threads, int64_t batch)
{
    Overrides o;
    Error e;
    overrides_none(&o);
    o.output = output;
    o.threads = threads;
    o.batch = batch;
    if (experiment_parse(x, experiment_text, "test.cfg", &o, &e) != 0)
        fail_msg("%s", e.msg);
}

/* Run the test experiment to completion; return its report. */
static void run_ok(const char *output, int threads, int64_t batch, bool force, RunReport *rep)
{
    Experiment x;
    RunOptions ro = { .force = force, .quiet = true };
    Error e;
    load(&x, output, threads, batch);
    RunStatus st = command_run(&x, &ro, rep, &e);
    if (st != RUN_DONE)
        fail_msg("run %s: status %d: %s", output, (int)st, e.msg);
    experiment_free(&x);
}

/* Every row of a job of a results file. */
static GameRecord *read_job(const char *path, const char *job, uint64_t *n)
{
    StoredJob sj;
    Error e;
    if (results_read_job(path, job, &sj, &e) != 0)
        fail_msg("%s", e.msg);
    *n = sj.rows;
    GameRecord *r = calloc(sj.rows, sizeof *r);
    assert_non_null(r);
    if (results_read_rows(path, job, 0, sj.rows, r, &e) != 0)
        fail_msg("%s", e.msg);
    stored_job_free(&sj);
    return r;
}

/* Whether two records agree in every stored field. */
static bool same_record(const GameRecord *a, const GameRecord *b)
{
    return a->game == b->game && a->a_south == b->a_south && a->outcome == b->outcome &&
           a->south == b->south && a->north == b->north && a->left == b->left &&
           a->last_capturer == b->last_capturer && a->first_final == b->first_final &&
           a->lottery == b->lottery && a->plies == b->plies && a->passes == b->passes &&
           a->mid_captures == b->mid_captures && a->final_captures == b->final_captures &&
           a->opening == b->opening && a->moves_hash == b->moves_hash &&
           a->line_hash == b->line_hash && a->nodes_a == b->nodes_a && a->nodes_b == b->nodes_b &&
           a->choices_a == b->choices_a && a->choices_b == b->choices_b;
}

/* Two results files of the test experiment have equal tables, row for row. */
static void assert_same_tables(const char *a, const char *b)
{
    Experiment x;
    load(&x, "unused.h5", 1, 0);
    for (int i = 0; i < x.njobs; i++) {
        uint64_t na, nb;
        GameRecord *ra = read_job(a, x.jobs[i].name, &na);
        GameRecord *rb = read_job(b, x.jobs[i].name, &nb);
        assert_int_equal(na, (uint64_t)x.jobs[i].games);
        assert_int_equal(nb, na);
        for (uint64_t g = 0; g < na; g++)
            if (!same_record(&ra[g], &rb[g]))
                fail_msg("%s and %s differ in job %s, game %llu", a, b, x.jobs[i].name,
                         (unsigned long long)g);
        free(ra);
        free(rb);
    }
    experiment_free(&x);
}

/* Two reports count the same games (outcomes, wins, plies and the whole histogram). */
static void assert_same_stats(const RunReport *a, const RunReport *b)
{
    assert_int_equal(a->njobs, b->njobs);
    for (int i = 0; i < a->njobs; i++) {
        const JobStats *s = &a->stats[i], *t = &b->stats[i];
        assert_int_equal(s->games, t->games);
        assert_memory_equal(s->outcome, t->outcome, sizeof s->outcome);
        assert_int_equal(s->a_wins, t->a_wins);
        assert_int_equal(s->plies, t->plies);
        assert_int_equal(s->hist_len, t->hist_len);
        assert_memory_equal(s->hist, t->hist, s->hist_len * sizeof *s->hist);
    }
}

/* 1, 2 and 3 threads, adaptive and fixed batches (7 and 1000 games): the same tables. */
static void test_same_tables_any_threads_and_batch(void **state)
{
    (void)state;
    static const struct { int threads; int64_t batch; const char *name; } runs[] = {
        { 1, 0, "t1.h5" }, { 2, 7, "t2.h5" }, { 3, 1000, "t3.h5" }, { 2, 1000, "t4.h5" },
    };
    RunReport first, rep;
    run_ok(tmp_path(runs[0].name), runs[0].threads, runs[0].batch, false, &first);
    assert_int_equal(first.kept, 700 * 2 + 500 + 150);
    assert_true(first.stats[0].outcome[OUT_ENDLESS] > 0);
    assert_true(first.stats[2].outcome[OUT_UNFINISHED] > 0);
    for (size_t i = 1; i < sizeof runs / sizeof runs[0]; i++) {
        run_ok(tmp_path(runs[i].name), runs[i].threads, runs[i].batch, false, &rep);
        assert_int_equal(rep.threads, runs[i].threads);
        assert_same_tables(tmp_path(runs[0].name), tmp_path(runs[i].name));
        assert_same_stats(&first, &rep);
        run_report_free(&rep);
    }
    run_report_free(&first);
    assert_false(file_exists(tmp_path("t2.h5.partial")));
    assert_false(file_exists(tmp_path("t2.h5.journal")));
}

/* Whether the registry has an agent of this name. */
static bool registered(const char *name)
{
    for (int i = 0; agent_kind(i); i++)
        if (strcmp(agent_kind(i)->name, name) == 0)
            return true;
    return false;
}

/* Searching agents keep no state between games: the same tables for 1 and 3 threads and
 * for batches of 1 game and adaptive ones (skipped until greedy and alphabeta exist). */
static void test_same_tables_searching_agents(void **state)
{
    (void)state;
    if (!registered("greedy") || !registered("alphabeta"))
        skip();
    static const char text[] =
        "seed = 8; output = \"unused.h5\";\n"
        "jobs = ( { name = \"search\"; holes = 6; seeds = 3; agent_a = \"greedy\";\n"
        "           agent_b = [\"alphabeta:depth=3\", \"alphabeta:depth=2,tt=4\"]; games = 60; } );\n";
    const char *out[2] = { tmp_path("ab1.h5"), tmp_path("ab3.h5") };
    for (int i = 0; i < 2; i++) {
        Experiment x;
        Overrides o;
        RunReport rep;
        RunOptions ro = { .quiet = true };
        Error e;
        overrides_none(&o);
        o.output = out[i];
        o.threads = i ? 3 : 1;
        o.batch = i ? -1 : 1;
        if (experiment_parse(&x, text, "search.cfg", &o, &e) != 0 ||
            command_run(&x, &ro, &rep, &e) != RUN_DONE)
            fail_msg("%s", e.msg);
        run_report_free(&rep);
        experiment_free(&x);
    }
    static const char *const jobs[] = { "search-agent_b=alphabeta:depth=3",
                                        "search-agent_b=alphabeta:depth=2,tt=4" };
    for (int k = 0; k < 2; k++) {
        uint64_t n1, n3;
        GameRecord *r1 = read_job(out[0], jobs[k], &n1), *r3 = read_job(out[1], jobs[k], &n3);
        assert_int_equal(n1, 60);
        assert_int_equal(n3, 60);
        for (uint64_t g = 0; g < n1; g++)
            assert_true(same_record(&r1[g], &r3[g]));
        free(r1);
        free(r3);
    }
}

/* Each stored row is the game driver_play_game plays from (seed, job, game), agent A South in
 * even games; the fast random path equals the agents' path. */
static void test_rows_are_pure_functions(void **state)
{
    (void)state;
    Experiment x;
    load(&x, "unused.h5", 1, 0);
    for (int i = 0; i < x.njobs; i++) {
        uint64_t n;
        GameRecord *rows = read_job(tmp_path("t1.h5"), x.jobs[i].name, &n);
        Agent a, b;
        Error e;
        assert_int_equal(agent_create(&a, "random", &e), 0);
        assert_int_equal(agent_create(&b, "random", &e), 0);
        for (uint64_t g = 0; g < n; g += 37) {
            GameRecord fast, slow;
            driver_play_game(&x.jobs[i], x.seed, g, NULL, NULL, NULL, &fast);
            driver_play_game(&x.jobs[i], x.seed, g, &a, &b, NULL, &slow);
            assert_true(same_record(&fast, &rows[g]));
            assert_true(same_record(&slow, &rows[g]));
            assert_int_equal(fast.moves_hash, slow.moves_hash);
            assert_int_equal(fast.line_hash, slow.line_hash);
            assert_int_equal(rows[g].a_south, g % 2 == 0);
        }
        agent_free(&a);
        agent_free(&b);
        free(rows);
    }
    experiment_free(&x);
}

/* The work each side's agent reported for its choices, summed by the side to move, then the
 * number of its choices (a GameObserver on uint64_t[4]). */
static void sum_work(void *ctx, const GameMove *m)
{
    uint64_t *by_side = ctx;
    if (m->stats) {
        by_side[m->before->side] += m->stats->playouts ? m->stats->playouts : m->stats->nodes;
        by_side[2 + m->before->side]++;   /* a move an agent chose */
    }
}

/* nodes_a and nodes_b are agent A's and agent B's work over the game, whichever colour each
 * played: the sum of what their choices reported (playouts for MCTS), 0 for random; choices_a
 * and choices_b the moves each chose, together every ply after the opening's. */
static void test_nodes_per_agent(void **state)
{
    (void)state;
    if (!registered("greedy") || !registered("mcts"))
        skip();
    static const char *const specs[][2] = { { "greedy", "random" }, { "random", "mcts:playouts=20" },
                                            { "greedy", "mcts:playouts=20" } };
    Variant v;
    Error e;
    variant_default(&v);
    v.holes = 6;
    v.seeds = 3;
    assert_int_equal(variant_finish(&v, &e), 0);
    for (int k = 0; k < 3; k++) {
        Agent a, b;
        assert_int_equal(agent_create(&a, specs[k][0], &e), 0);
        assert_int_equal(agent_create(&b, specs[k][1], &e), 0);
        for (uint64_t g = 0; g < 8; g++) {
            uint64_t by_side[4] = { 0, 0, 0, 0 };   /* work by side, then choices by side */
            GameOptions o = { .observe = sum_work, .observer_ctx = by_side };
            GameRecord r;
            assert_int_equal(game_play_indexed(&v, 5, 2, g, NULL, -1, &a, &b, &o, &r, NULL), 0);
            int a_side = g % 2 == 0 ? SOUTH : NORTH;
            assert_int_equal(r.nodes_a, by_side[a_side]);
            assert_int_equal(r.nodes_b, by_side[!a_side]);
            assert_int_equal(r.choices_a, by_side[2 + a_side]);
            assert_int_equal(r.choices_b, by_side[2 + !a_side]);
            assert_int_equal(r.choices_a + r.choices_b, r.plies);
            assert_true(strcmp(specs[k][0], "random") == 0 ? r.nodes_a == 0 : r.nodes_a > 0);
            assert_true(strcmp(specs[k][1], "random") == 0 ? r.nodes_b == 0 : r.nodes_b > 0);
        }
        agent_free(&a);
        agent_free(&b);
    }
}

/* Job `job`'s stored moves, every game's, concatenated (*len of them), through the reader:
 * a stream read in game order, and each game alone too. */
static uint8_t *read_moves(const char *path, const char *job, const Variant *v, uint64_t games,
                           size_t *len)
{
    Error e;
    ResultsFile *f = rf_open(path, &e);
    if (!f)
        fail_msg("%s", e.msg);
    assert_true(rf_job_has_moves(f, job));
    MoveStream *s = rf_moves_open(f, job, v, &e);
    if (!s)
        fail_msg("%s", e.msg);
    MoveList l = { NULL, 0, 0 }, one = { NULL, 0, 0 };
    uint8_t *all = NULL;
    *len = 0;
    for (uint64_t g = 0; g < games; g++) {
        GameRecord row;
        if (rf_read_rows(f, job, g, 1, &row, &e) != 0 ||
            rf_moves_read(s, &row, &l, NULL, &e) != 0)
            fail_msg("%s", e.msg);
        if (g % 97 == 0 || g + 1 == games) {
            if (rf_read_moves(f, job, v, &row, &one, &e) != 0)
                fail_msg("%s", e.msg);
            assert_int_equal(one.n, l.n);
            assert_memory_equal(one.move, l.move, l.n);
        }
        all = realloc(all, *len + l.n + 1);
        assert_non_null(all);
        memcpy(all + *len, l.move, l.n);
        *len += l.n;
    }
    move_list_free(&l);
    move_list_free(&one);
    rf_moves_close(s);
    rf_close(f);
    return all;
}

/* A job that records its moves stores every game's whole sequence (opening included): the
 * same for any threads and batch size, read in order (past a block of the stream's offsets)
 * or a game at a time; each game's moves hash to its moves_hash, and played
 * by the game loop as given moves (no agent asked) they give the stored row, every field but
 * the agents' work. A job without record_moves stores none. */
static void test_move_records(void **state)
{
    (void)state;
    if (!registered("greedy"))
        skip();
    static const char text[] =
        "seed = 11; output = \"unused.h5\";\n"
        "defaults = { holes = 6; seeds = 3; record_moves = true; };\n"
        "jobs = ( { name = \"random\"; games = 4501; openings = \"all:2\"; },\n"
        "         { name = \"greedy\"; agent_a = \"greedy\"; games = 120; openings = \"plies:3\"; },\n"
        "         { name = \"plain\"; games = 50; record_moves = false; } );\n";
    const char *out[2] = { tmp_path("mv1.h5"), tmp_path("mv2.h5") };
    Experiment x;
    for (int i = 0; i < 2; i++) {
        Overrides o;
        RunReport rep;
        RunOptions ro = { .force = true, .quiet = true };
        Error e;
        overrides_none(&o);
        o.output = out[i];
        o.threads = i ? 2 : 1;
        o.batch = i ? -1 : 7;
        if (experiment_parse(&x, text, "moves.cfg", &o, &e) != 0 ||
            command_run(&x, &ro, &rep, &e) != RUN_DONE)
            fail_msg("%s", e.msg);
        run_report_free(&rep);
        if (i == 0)
            experiment_free(&x);
    }
    for (int k = 0; k < 2; k++) {
        const Job *j = &x.jobs[k];
        uint64_t n;
        size_t len[2];
        GameRecord *rows = read_job(out[0], j->name, &n);
        uint8_t *moves[2] = { read_moves(out[0], j->name, &j->variant, n, &len[0]),
                              read_moves(out[1], j->name, &j->variant, n, &len[1]) };
        assert_int_equal(len[0], len[1]);
        assert_memory_equal(moves[0], moves[1], len[0]);
        size_t at = 0;
        for (uint64_t g = 0; g < n; g++) {
            const GameRecord *r = &rows[g];
            uint64_t hash = PLAYOUT_HASH_START;
            int given[4096];
            assert_true(r->plies <= 4096 && at + r->plies <= len[0]);
            for (uint32_t p = 0; p < r->plies; p++) {
                hash = (hash ^ moves[0][at + p]) * PLAYOUT_HASH_MULT;
                given[p] = moves[0][at + p];
            }
            assert_int_equal(hash, r->moves_hash);
            Opening op;
            int64_t index = openings_pair(&j->openings, &j->variant, (uint64_t)x.seed, j->index,
                                          g / 2, &op);
            GameOptions o = { .start = { op.has_position ? &op.position : NULL, given, r->plies } };
            GameRecord again;
            game_play_indexed(&j->variant, (uint64_t)x.seed, j->index, g, NULL, (int32_t)index,
                              NULL, NULL, &o, &again, NULL);
            assert_int_equal(again.choices_a + again.choices_b, 0);   /* every ply given */
            again.nodes_a = r->nodes_a;
            again.nodes_b = r->nodes_b;
            again.choices_a = r->choices_a;
            again.choices_b = r->choices_b;
            assert_true(same_record(&again, r));
            at += r->plies;
        }
        assert_int_equal(at, len[0]);
        free(moves[0]);
        free(moves[1]);
        free(rows);
    }
    Error e;
    ResultsFile *f = rf_open(out[0], &e);
    assert_non_null(f);
    assert_false(rf_job_has_moves(f, "plain"));
    MoveList l = { NULL, 0, 0 };
    GameRecord row;
    assert_int_equal(rf_read_rows(f, "plain", 0, 1, &row, &e), 0);
    assert_int_equal(rf_read_moves(f, "plain", &x.jobs[2].variant, &row, &l, &e), -1);
    assert_non_null(strstr(e.msg, "job plain: no moves stored"));
    rf_close(f);
    experiment_free(&x);
}

/* The moves of a game, as the game loop makes them (a GameObserver). */
typedef struct Moves {
    int n;
    int move[OPENING_MAX_PLIES];
} Moves;

static void record_move(void *ctx, const GameMove *m)
{
    Moves *ms = ctx;
    if (ms->n < OPENING_MAX_PLIES)
        ms->move[ms->n++] = m->move;
}

/* Run the openings experiment `text` (book at `book`) with the given threads and batch. */
static void run_openings(const char *text, const char *out, int threads, int64_t batch)
{
    Experiment x;
    Overrides o;
    RunReport rep;
    RunOptions ro = { .force = true, .quiet = true };
    Error e;
    overrides_none(&o);
    o.output = out;
    o.threads = threads;
    o.batch = batch;
    if (experiment_parse(&x, text, "openings.cfg", &o, &e) != 0 ||
        command_run(&x, &ro, &rep, &e) != RUN_DONE)
        fail_msg("%s", e.msg);
    run_report_free(&rep);
    experiment_free(&x);
}

/* Check job j's rows against its openings: both games of pair k carry opening
 * openings_pair(k), colours swapped; the stored openings table gives that opening back; and
 * playing each game again from it makes the opening's moves its first plies and the stored
 * row (the `random` pair of the fast path included). */
static void check_pairs(const char *path, const Job *j, int64_t seed, const GameRecord *rows)
{
    ResultsFile *f;
    Error e;
    Agent a, b;
    assert_non_null(f = rf_open(path, &e));
    assert_int_equal(agent_create(&a, j->agent_a, &e), 0);
    assert_int_equal(agent_create(&b, j->agent_b, &e), 0);
    for (int64_t g = 0; g < j->games; g++) {
        Opening want, got;
        int64_t index = openings_pair(&j->openings, &j->variant, (uint64_t)seed, j->index,
                                      (uint64_t)g / 2, &want);
        assert_int_equal(rows[g].opening, index);
        assert_int_equal(rows[g].a_south, g % 2 == 0);
        assert_true(index >= 0);
        if (rf_read_opening(f, j->name, &j->variant, index, &got, &e) != 0)
            fail_msg("%s", e.msg);
        assert_int_equal(got.has_position, want.has_position);
        assert_int_equal(got.n_moves, want.n_moves);
        assert_memory_equal(got.moves, want.moves, sizeof got.moves[0] * (size_t)got.n_moves);
        Moves ms = { 0, { 0 } };
        GameOptions o = { .observe = record_move, .observer_ctx = &ms };
        GameRecord again;
        assert_int_equal(game_play_indexed(&j->variant, (uint64_t)seed, j->index, (uint64_t)g,
                                           &got, (int32_t)index, &a, &b, &o, &again, NULL), 0);
        assert_true(ms.n >= got.n_moves);
        assert_memory_equal(ms.move, got.moves, sizeof ms.move[0] * (size_t)got.n_moves);
        assert_true(same_record(&again, &rows[g]));
    }
    agent_free(&a);
    agent_free(&b);
    rf_close(f);
}

/* Openings and pairs are pure functions of (seed, job, pair): the same tables, openings
 * included, for 1 and 2 threads and batches of 7 and 64; each pair shares its opening with
 * colours swapped; random plies (an odd number of games: the last pair has one game), every
 * line of 2 plies for the random fast path, and a book of a position and a move list. */
static void test_openings_pairs(void **state)
{
    (void)state;
    Variant v;
    OpeningSet lines;
    Error e;
    assert_int_equal(variant_preset(&v, "anywoli", &e), 0);
    v.holes = 6;
    v.seeds = 3;
    assert_int_equal(variant_finish(&v, &e), 0);
    assert_int_equal(openings_load(&lines, "all:3", &v, &e), 0);
    char apn[APN_MAX], moves[OPENING_MAX_PLIES * 4 + 1];
    opening_apn(&v, &lines.list[7], apn);
    opening_moves_text(&lines.list[3], moves, sizeof moves);
    openings_free(&lines);
    const char *book = tmp_path("book.txt");
    FILE *bf = fopen(book, "w");
    assert_non_null(bf);
    fprintf(bf, "# a position, then a line of moves\n%s\n\n%s\n", apn, moves);
    assert_int_equal(fclose(bf), 0);
    char text[1024];
    snprintf(text, sizeof text,
             "seed = 77; output = \"unused.h5\";\n"
             "defaults = { holes = 6; seeds = 3; };\n"
             "jobs = (\n"
             "  { name = \"plies\"; agent_a = \"greedy\"; openings = \"plies:3\"; games = 41; },\n"
             "  { name = \"all\"; openings = \"all:2\"; games = 60; },\n"
             "  { name = \"book\"; agent_b = \"greedy\"; openings = \"file:%s\"; games = 12; }\n"
             ");\n", book);
    const char *out[2] = { tmp_path("o1.h5"), tmp_path("o2.h5") };
    run_openings(text, out[0], 1, 7);
    run_openings(text, out[1], 2, 64);
    Experiment x;
    if (experiment_parse(&x, text, "openings.cfg", NULL, &e) != 0)
        fail_msg("%s", e.msg);
    for (int i = 0; i < x.njobs; i++) {
        uint64_t n1, n2;
        GameRecord *r1 = read_job(out[0], x.jobs[i].name, &n1);
        GameRecord *r2 = read_job(out[1], x.jobs[i].name, &n2);
        assert_int_equal(n1, (uint64_t)x.jobs[i].games);
        assert_int_equal(n2, n1);
        for (uint64_t g = 0; g < n1; g++)
            assert_true(same_record(&r1[g], &r2[g]));
        check_pairs(out[0], &x.jobs[i], x.seed, r1);
        free(r1);
        free(r2);
    }
    experiment_free(&x);
}

/* A packed row unpacks to the record it came from. */
static void test_row_round_trip(void **state)
{
    (void)state;
    GameRecord r = { UINT64_C(0x0102030405060708), 1, 3, 65535, 7, 4, -1, 1, 0, 4000000000u,
                     123456, 300, 65535, -2, UINT64_C(0x0123456789abcdef),
                     UINT64_C(0xfedcba9876543210), UINT64_C(0x1112131415161718),
                     UINT64_C(0x2122232425262728), 0x31323334u, 0x41424344u };
    GameRecord back;
    unsigned char row[ROW_BYTES];
    row_pack(&r, row);
    row_unpack(row, &back);
    assert_true(same_record(&r, &back));
    assert_int_equal(back.plies, 4000000000u);
    assert_int_equal(back.last_capturer, -1);
    assert_int_equal(back.opening, -2);
    assert_int_equal(back.moves_hash, UINT64_C(0x0123456789abcdef));
    assert_int_equal(back.line_hash, UINT64_C(0xfedcba9876543210));
    assert_int_equal(back.nodes_a, UINT64_C(0x1112131415161718));
    assert_int_equal(back.nodes_b, UINT64_C(0x2122232425262728));
    assert_int_equal(back.choices_a, 0x31323334u);
    assert_int_equal(back.choices_b, 0x41424344u);
    assert_int_equal(row[0], 0x08);
    assert_int_equal(row[16], 0xff);
}

/* A packed row is format 1's, byte for byte: the journal's rows and the games table's
 * layout, the columns added since (opening, moves_hash, line_hash, nodes_a, nodes_b,
 * choices_a, choices_b) at the end. */
static void test_row_bytes_are_format_1(void **state)
{
    (void)state;
    GameRecord r = { UINT64_C(0x0102030405060708), 1, 3, 65535, 7, 4, -1, 1, 0, 4000000000u,
                     123456, 300, 65535, -2, UINT64_C(0x0123456789abcdef),
                     UINT64_C(0xfedcba9876543210), UINT64_C(0x1112131415161718),
                     UINT64_C(0x2122232425262728), 0x31323334u, 0x41424344u };
    static const unsigned char want[ROW_BYTES] = {
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,     /* game */
        0x01, 0x03,                                         /* a_south, outcome */
        0xff, 0xff, 0x07, 0x00, 0x04, 0x00,                 /* south, north, left */
        0xff, 0x01, 0x00,                                   /* last_capturer, first_final, lottery */
        0x00, 0x28, 0x6b, 0xee, 0x40, 0xe2, 0x01, 0x00,     /* plies, passes */
        0x2c, 0x01, 0xff, 0xff,                             /* mid_captures, final_captures */
        0xfe, 0xff, 0xff, 0xff,                             /* opening */
        0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,     /* moves_hash */
        0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,     /* line_hash */
        0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11,     /* nodes_a */
        0x28, 0x27, 0x26, 0x25, 0x24, 0x23, 0x22, 0x21,     /* nodes_b */
        0x34, 0x33, 0x32, 0x31, 0x44, 0x43, 0x42, 0x41,     /* choices_a, choices_b */
    };
    unsigned char row[ROW_BYTES];
    row_pack(&r, row);
    assert_memory_equal(row, want, ROW_BYTES);
}

/* The games table's compound type and field names: format 1's columns, in order, at their
 * packed offsets, with their little-endian types; field values widened with their sign. */
static void test_row_schema(void **state)
{
    (void)state;
    const struct { const char *name; size_t offset; hid_t type; } want[] = {
        { "game", 0, H5T_STD_U64LE }, { "a_south", 8, H5T_STD_U8LE },
        { "outcome", 9, H5T_STD_I8LE }, { "south", 10, H5T_STD_U16LE },
        { "north", 12, H5T_STD_U16LE }, { "left", 14, H5T_STD_U16LE },
        { "last_capturer", 16, H5T_STD_I8LE }, { "first_final", 17, H5T_STD_I8LE },
        { "lottery", 18, H5T_STD_I8LE }, { "plies", 19, H5T_STD_U32LE },
        { "passes", 23, H5T_STD_U32LE }, { "mid_captures", 27, H5T_STD_U16LE },
        { "final_captures", 29, H5T_STD_U16LE }, { "opening", 31, H5T_STD_I32LE },
        { "moves_hash", 35, H5T_STD_U64LE }, { "line_hash", 43, H5T_STD_U64LE },
        { "nodes_a", 51, H5T_STD_U64LE }, { "nodes_b", 59, H5T_STD_U64LE },
        { "choices_a", 67, H5T_STD_U32LE }, { "choices_b", 71, H5T_STD_U32LE },
    };
    const int n = (int)(sizeof want / sizeof want[0]);
    hid_t t = row_type_create();
    assert_true(t >= 0);
    assert_int_equal(H5Tget_size(t), ROW_BYTES);
    assert_int_equal(H5Tget_nmembers(t), n);
    assert_int_equal(row_field_count(), n);
    for (int i = 0; i < n; i++) {
        assert_string_equal(row_field_name(i), want[i].name);
        char *name = H5Tget_member_name(t, (unsigned)i);
        assert_string_equal(name, want[i].name);
        H5free_memory(name);
        assert_int_equal(H5Tget_member_offset(t, (unsigned)i), want[i].offset);
        hid_t m = H5Tget_member_type(t, (unsigned)i);
        assert_true(H5Tequal(m, want[i].type) > 0);
        H5Tclose(m);
    }
    H5Tclose(t);
    GameRecord r = { .game = 9, .outcome = 4, .last_capturer = -1, .plies = 4000000000u };
    assert_int_equal(row_field_value(&r, 0), 9);
    assert_int_equal(row_field_value(&r, 2), 4);
    assert_int_equal(row_field_value(&r, 6), -1);
    assert_int_equal(row_field_value(&r, 9), 4000000000);
}

/* What a journal scan saw. */
typedef struct Seen {
    int batches;
    uint64_t games;
} Seen;

/* Count a verified batch. */
static int count_batch(void *ctx, uint32_t job, uint64_t start, uint32_t n,
                       const unsigned char *rows, Error *e)
{
    Seen *s = ctx;
    (void)job;
    (void)e;
    GameRecord r;
    row_unpack(rows, &r);
    assert_int_equal(r.game, start);
    s->batches++;
    s->games += n;
    return 0;
}

/* n packed rows of games start.. (distinct contents). */
static unsigned char *make_rows(uint64_t start, uint32_t n)
{
    unsigned char *rows = malloc((size_t)n * ROW_BYTES);
    assert_non_null(rows);
    for (uint32_t i = 0; i < n; i++) {
        GameRecord r = { start + i, (uint8_t)(i % 2), (int8_t)(i % 5), (uint16_t)i, 3, 4, 0, -1,
                         1, i * 7, i, 2, 1, -1, 0, 0, 0, 0, 0, 0 };
        row_pack(&r, rows + (size_t)i * ROW_BYTES);
    }
    return rows;
}

/* Append batches of 100 games, 0.. */
static void append_batches(Journal *j, int first, int count)
{
    for (int b = first; b < first + count; b++) {
        Error e;
        unsigned char *rows = make_rows((uint64_t)b * 100, 100);
        if (journal_append(j, 0, (uint64_t)b * 100, 100, rows, &e) != 0)
            fail_msg("%s", e.msg);
        free(rows);
    }
}

/* Resume a journal and return what it verified. */
static Seen resume_scan(const char *path, const char *fp, JournalScan *scan, int want_rc)
{
    Journal j;
    Seen seen = { 0, 0 };
    Error e;
    int rc = journal_resume(&j, path, ROW_BYTES, fp, count_batch, &seen, scan, &e);
    if (rc != want_rc)
        fail_msg("journal_resume: %d, expected %d (%s)", rc, want_rc, e.msg);
    if (rc == 0)
        journal_close(&j);
    return seen;
}

/* The file's size. */
static off_t size_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}

/* Truncate or extend a file, or flip a byte at an offset. */
static void damage(const char *path, off_t size, off_t flip_at)
{
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    if (size >= 0)
        assert_int_equal(ftruncate(fd, size), 0);
    if (flip_at >= 0) {
        unsigned char c;
        assert_int_equal(pread(fd, &c, 1, flip_at), 1);
        c ^= 0x40;
        assert_int_equal(pwrite(fd, &c, 1, flip_at), 1);
    }
    close(fd);
}

/* The journal keeps whole batches: a torn tail or a damaged record and all after it are
 * dropped, and appending goes on after the last good batch. */
static void test_journal_torn_tail(void **state)
{
    (void)state;
    const char *path = tmp_path("j.journal");
    Journal j;
    JournalScan scan;
    Error e;
    unlink(path);
    assert_int_equal(journal_create(&j, path, ROW_BYTES, "fingerprint", "2024-01-01T00:00:00Z",
                                    &e), 0);
    append_batches(&j, 0, 3);
    off_t three = size_of(path);
    append_batches(&j, 3, 1);
    journal_close(&j);
    off_t four = size_of(path);

    Seen s = resume_scan(path, "fingerprint", &scan, 0);
    assert_int_equal(s.batches, 4);
    assert_int_equal(s.games, 400);
    assert_string_equal(scan.started, "2024-01-01T00:00:00Z");
    assert_int_equal(scan.dropped_bytes, 0);

    damage(path, four - 5, -1);                     /* a kill in mid-write */
    s = resume_scan(path, "fingerprint", &scan, 0);
    assert_int_equal(s.batches, 3);
    assert_int_equal(scan.dropped_bytes, four - 5 - three);
    assert_int_equal(size_of(path), three);

    Seen again;
    assert_int_equal(journal_resume(&j, path, ROW_BYTES, "fingerprint", count_batch, &again,
                                    &scan, &e), 0);
    append_batches(&j, 3, 2);
    journal_close(&j);
    s = resume_scan(path, "fingerprint", &scan, 0);
    assert_int_equal(s.batches, 5);

    damage(path, -1, three - 10);                   /* a damaged third batch */
    s = resume_scan(path, "fingerprint", &scan, 0);
    assert_int_equal(s.batches, 2);
    assert_true(scan.dropped_bytes > 0);

    s = resume_scan(path, "another", &scan, -2);    /* another experiment's journal */
    assert_int_equal(s.batches, 0);
    damage(path, 10, -1);                           /* a torn header */
    resume_scan(path, "fingerprint", &scan, -1);
    unlink(path);
}

/* Existing files are never overwritten without --force; unwritable paths are refused before
 * anything is created. */
static void test_refusals(void **state)
{
    (void)state;
    Experiment x;
    RunReport rep;
    Error e;
    RunOptions plain = { .quiet = true }, resume = { .resume = true, .quiet = true };
    const char *out = tmp_path("t1.h5");
    off_t before = size_of(out);
    load(&x, out, 1, 0);
    assert_int_equal(command_run(&x, &plain, &rep, &e), RUN_REFUSED);
    assert_non_null(strstr(e.msg, "already exists (--force replaces it)"));
    assert_int_equal(size_of(out), before);
    assert_false(file_exists(tmp_path("t1.h5.partial")));
    assert_false(file_exists(tmp_path("t1.h5.journal")));
    experiment_free(&x);

    load(&x, tmp_path("p.h5"), 1, 0);
    FILE *f = fopen(tmp_path("p.h5.partial"), "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(command_run(&x, &plain, &rep, &e), RUN_REFUSED);
    assert_non_null(strstr(e.msg, "is left from an interrupted run (--resume continues it"));
    assert_int_equal(command_run(&x, &resume, &rep, &e), RUN_REFUSED);
    assert_non_null(strstr(e.msg, "cannot resume"));
    unlink(tmp_path("p.h5.partial"));
    experiment_free(&x);

    static const char *const unwritable[] = { "/nonexistent-anywoli/x.h5", "t1.h5/x.h5" };
    static const char *const why[] = { "No such file or directory", "Not a directory" };
    for (int i = 0; i < 2; i++) {
        const char *path = i ? tmp_path(unwritable[i]) : unwritable[i];
        load(&x, path, 1, 0);
        assert_int_equal(command_run(&x, &plain, &rep, &e), RUN_REFUSED);
        assert_non_null(strstr(e.msg, "cannot write "));
        assert_non_null(strstr(e.msg, path));
        assert_non_null(strstr(e.msg, why[i]));
        experiment_free(&x);
    }
}

/* Copy the first `batches` batches of 100 games of every job of a finished file into a new
 * journal, as a run killed part-way would have left it, plus a torn tail. */
static void fake_killed_run(const char *finished, const char *output, int batches)
{
    Experiment x;
    Journal j;
    Error e;
    char started[40];
    load(&x, output, 1, 100);
    char *fp = experiment_fingerprint(&x), *jpath = driver_journal_path(output);
    results_now(started, sizeof started);
    assert_int_equal(journal_create(&j, jpath, ROW_BYTES, fp, started, &e), 0);
    unsigned char *rows = malloc(100 * ROW_BYTES);
    for (int i = 0; i < x.njobs && batches > 0; i++) {
        uint64_t n;
        GameRecord *r = read_job(finished, x.jobs[i].name, &n);
        for (uint64_t g = 0; g < n && batches > 0; g += 100, batches--) {
            uint32_t k = n - g < 100 ? (uint32_t)(n - g) : 100;
            for (uint32_t t = 0; t < k; t++)
                row_pack(&r[g + t], rows + (size_t)t * ROW_BYTES);
            assert_int_equal(journal_append(&j, (uint32_t)i, g, k, rows, &e), 0);
        }
        free(r);
    }
    assert_int_equal(write(j.fd, "BTCH\1\0", 6), 6);
    journal_close(&j);
    char *ppath = driver_partial_path(output);
    FILE *f = fopen(ppath, "w");                   /* an HDF5 file damaged by the kill */
    fputs("not HDF5", f);
    fclose(f);
    free(ppath);
    free(rows);
    free(jpath);
    free(fp);
    experiment_free(&x);
}

/* A resumed run (from a journal of a killed run) ends with the tables of an uninterrupted
 * one; a journal of another experiment is refused and left alone. */
static void test_resume(void **state)
{
    (void)state;
    const int cuts[] = { 0, 3, 7, 16 }, kept[] = { 0, 300, 700, 1600 };
    for (int c = 0; c < 4; c++) {
        char name[32];
        snprintf(name, sizeof name, "r%d.h5", c);
        const char *out = tmp_path(name);
        fake_killed_run(tmp_path("t1.h5"), out, cuts[c]);
        Experiment x;
        RunReport rep;
        Error e;
        RunOptions resume = { .resume = true, .quiet = true };
        load(&x, out, 2, 0);
        RunStatus st = command_run(&x, &resume, &rep, &e);
        if (st != RUN_DONE)
            fail_msg("resume: %s", e.msg);
        assert_int_equal(rep.resumed, kept[c]);
        assert_int_equal(rep.dropped_bytes, 6);
        assert_same_tables(tmp_path("t1.h5"), out);
        run_report_free(&rep);
        experiment_free(&x);
    }

    Experiment x;
    RunReport rep;
    Error e;
    RunOptions resume = { .resume = true, .force = true, .quiet = true };
    const char *out = tmp_path("m.h5");
    fake_killed_run(tmp_path("t1.h5"), out, 2);
    Overrides o;
    overrides_none(&o);
    o.output = out;
    o.seed = 999;
    assert_int_equal(experiment_parse(&x, experiment_text, "test.cfg", &o, &e), 0);
    char *jpath = driver_journal_path(out);
    off_t before = size_of(jpath);
    assert_int_equal(command_run(&x, &resume, &rep, &e), RUN_REFUSED);
    assert_non_null(strstr(e.msg, "belongs to a different experiment"));
    assert_int_equal(size_of(jpath), before);
    free(jpath);
    experiment_free(&x);
}

/* The progress line's time left, from fabricated timings: each job at its own time per game,
 * else at that of a job like it; a job like none timed is counted apart, never guessed from
 * the fast jobs before it (the issue's `[3/5] ... 0:24 left` with 55 s to go). */
static void test_time_left(void **state)
{
    (void)state;
    int untimed;
    /* Random jobs at 10,000 games/s (one done, one half-way), then two searches not begun. */
    EtaJob jobs[5] = {
        { 0, 5.0, 50000, 0 },          /* done: no games left, whatever its rate */
        { 25000, 2.5, 25000, 1 },      /* 1e-4 s a game: 2.5 s left */
        { 10000, 0, 0, 1 },            /* like job 1 (same agents, same board): 1 s */
        { 1000, 0, 0, 3 },             /* alpha-beta, never timed */
        { 1000, 0, 0, 4 },             /* another search, never timed */
    };
    assert_float_equal(progress_time_left(jobs, 5, &untimed), 3.5, 1e-9);
    assert_int_equal(untimed, 2);
    /* Once job 3 has played 10 games in 0.5 s, it counts at 0.05 s a game: 990 more. */
    jobs[3] = (EtaJob){ 990, 0.5, 10, 3 };
    assert_float_equal(progress_time_left(jobs, 5, &untimed), 3.5 + 49.5, 1e-9);
    assert_int_equal(untimed, 1);
    /* A job's own rate wins over its like's; nothing left, nothing to time. */
    jobs[2] = (EtaJob){ 10000, 3.0, 1000, 1 };
    assert_float_equal(progress_time_left(jobs, 5, &untimed), 2.5 + 30.0 + 49.5, 1e-9);
    EtaJob none[1] = { { 0, 0, 0, 0 } };
    assert_float_equal(progress_time_left(none, 1, &untimed), 0.0, 0.0);
    assert_int_equal(untimed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_round_trip),
        cmocka_unit_test(test_row_bytes_are_format_1),
        cmocka_unit_test(test_row_schema),
        cmocka_unit_test(test_same_tables_any_threads_and_batch),
        cmocka_unit_test(test_rows_are_pure_functions),
        cmocka_unit_test(test_nodes_per_agent),
        cmocka_unit_test(test_move_records),
        cmocka_unit_test(test_openings_pairs),
        cmocka_unit_test(test_same_tables_searching_agents),
        cmocka_unit_test(test_journal_torn_tail),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_time_left),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
