/* test_tune.c: SPSA and `anywoli tune` in process: the step converges on a noise-free
 * quadratic, perturbations are pure functions of (seed, k), a match's pairs split and add
 * up, a tiny tuning (self-play, or against a reference) gives the same trajectory for 1, 2
 * and 3 threads, an interrupted tuning resumes (even past a torn journal tail) to the
 * uninterrupted one, a verification match stops at the first pair its SPRT decides (checked
 * pair by pair from the stored pairs, for 1 and 2 threads, and across a resume), and bad
 * configs get one-line `FILE:LINE: key: what` errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game.h"
#include "h5util.h"
#include "match.h"
#include "openings.h"
#include "pairs.h"
#include "spsa.h"
#include "test_util.h"
#include "tune.h"

#define TEST_TMP_NAME "tune"
#include "test_tmp.h"

/* The noise-free objective: minus the squared distance to opt in step units. */
static double quadratic(int n, const SpsaParam *p, const double *x, const double *opt)
{
    double f = 0.0;
    for (int i = 0; i < n; i++)
        f -= (x[i] - opt[i]) * (x[i] - opt[i]) / (p[i].step * p[i].step);
    return f;
}

/* SPSA from theta for `iterations` steps on the quadratic; theta ends where it went. */
static void run_spsa(const SpsaGains *g, int n, const SpsaParam *p, const double *opt,
                     double *theta, int iterations)
{
    for (int k = 0; k < iterations; k++) {
        int8_t delta[SPSA_MAX_PARAMS];
        double plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS], next[SPSA_MAX_PARAMS];
        spsa_delta(99, (uint64_t)k, n, delta);
        spsa_perturb(g, (uint64_t)k, n, p, theta, delta, plus, minus);
        double diff = quadratic(n, p, plus, opt) - quadratic(n, p, minus, opt);
        spsa_step(g, (uint64_t)k, n, p, theta, delta, diff, next);
        memcpy(theta, next, (size_t)n * sizeof *theta);
    }
}

/* Four parameters of different scales, started 8 to 21 steps away, reach the optimum; one
 * whose optimum lies past its bound stops at the bound. */
static void test_spsa_quadratic(void **state)
{
    (void)state;
    const SpsaGains g = { 0.2, 1.0, 20.0, 0.602, 0.101 };
    const SpsaParam p[4] = { { -10, 10, 0.5 }, { -1, 1, 0.05 }, { 0, 100, 5 }, { -3, 3, 0.2 } };
    const double opt[4] = { 3.0, -0.4, 71.0, 0.0 };
    double theta[4] = { -8.0, 0.9, 5.0, 2.5 };
    run_spsa(&g, 4, p, opt, theta, 1000);
    for (int i = 0; i < 4; i++)
        assert_true(fabs(theta[i] - opt[i]) < 1e-4 * p[i].step);
    const SpsaParam bounded = { -1, 1, 0.1 };
    const double beyond = 2.5;
    double x = 0.0;
    run_spsa(&g, 1, &bounded, &beyond, &x, 200);
    assert_true(x == 1.0);
}

/* The gains are the published sequences, and perturbations are balanced +-1 signs that are
 * pure functions of (seed, k). */
static void test_spsa_gains_and_delta(void **state)
{
    (void)state;
    const SpsaGains g = { 2.0, 0.5, 10.0, 0.602, 0.101 };
    assert_true(fabs(spsa_a(&g, 0) - 2.0 / pow(11.0, 0.602)) < 1e-15);
    assert_true(fabs(spsa_a(&g, 9) - 2.0 / pow(20.0, 0.602)) < 1e-15);
    assert_true(fabs(spsa_c(&g, 0) - 0.5) < 1e-15);
    assert_true(fabs(spsa_c(&g, 7) - 0.5 / pow(8.0, 0.101)) < 1e-15);
    int plus = 0;
    for (uint64_t k = 0; k < 1000; k++) {
        int8_t a[8], b[8];
        spsa_delta(5, k, 8, a);
        spsa_delta(5, k, 8, b);
        assert_memory_equal(a, b, sizeof a);
        for (int i = 0; i < 8; i++) {
            assert_true(a[i] == 1 || a[i] == -1);
            plus += a[i] > 0;
        }
    }
    assert_true(plus > 3800 && plus < 4200);   /* 8000 signs: 4000 +- 4.5 sd */
    int8_t c[8], d[8];
    spsa_delta(5, 1, 8, c);
    spsa_delta(6, 1, 8, d);
    assert_memory_not_equal(c, d, sizeof c);
}

/* The tiny tuning every other test runs: alpha-beta at depth 1, two weights. */
static const char tiny_text[] =
    "seed = 4242L;\n"
    "output = \"unused.h5\";\n"
    "agent = \"alphabeta:depth=1,tt=10\";\n"
    "iterations = 10;\n"
    "pairs = 6;\n"
    "max_plies = 400;\n"
    "a = 10.0;\n"
    "weights = (\n"
    "  { name = \"store\"; start = 0.5; min = 0.0; max = 3.0; step = 0.2; },\n"
    "  { name = \"seeds\"; start = -0.3; min = -1.0; max = 1.0; step = 0.1; }\n"
    ");\n"
    "verification = { pairs = 20; elo0 = 0.0; elo1 = 50.0; };\n";

/* The tiny tuning writing to output on the given threads. */
static void tiny(TuneConfig *t, const char *output, int threads)
{
    Error e;
    if (tune_config_parse(t, tiny_text, "tiny.cfg", output, threads, &e) != 0)
        fail_msg("%s", e.msg);
}

/* Run a tuning to the end and read its file. */
static void run_and_read(TuneConfig *t, const TuneOptions *o, TuneData *d)
{
    TuneReport r;
    Error e;
    RunStatus st = tune_run(t, o, &r, &e);
    if (st != RUN_DONE)
        fail_msg("tune_run: status %d: %s", (int)st, e.msg);
    if (tune_read(t->output, d, &e) != 0)
        fail_msg("%s", e.msg);
    assert_string_equal(d->tuned_spec, r.tuned_spec);
}

/* Two files hold the same trajectory, weights and verification. */
static void assert_same_tuning(const TuneData *a, const TuneData *b)
{
    assert_int_equal(a->nsteps, b->nsteps);
    assert_int_equal(a->nweights, b->nweights);
    for (int64_t k = 0; k < a->nsteps; k++) {
        const TuneStep *x = &a->steps[k], *y = &b->steps[k];
        assert_int_equal(x->k, y->k);
        assert_memory_equal(x->theta, y->theta, sizeof x->theta);
        assert_memory_equal(x->delta, y->delta, sizeof x->delta);
        assert_memory_equal(&x->plus, &y->plus, sizeof x->plus);
        assert_memory_equal(&x->minus, &y->minus, sizeof x->minus);
        assert_memory_equal(&x->diff, &y->diff, sizeof x->diff);
    }
    assert_memory_equal(a->tuned, b->tuned, sizeof a->tuned);
    assert_string_equal(a->tuned_spec, b->tuned_spec);
    assert_int_equal(a->nverify, b->nverify);
    for (int i = 0; i < a->nverify; i++) {
        assert_int_equal(a->verify[i].pairs_done, b->verify[i].pairs_done);
        assert_memory_equal(&a->verify[i].sums, &b->verify[i].sums, sizeof(MatchSums));
        assert_memory_equal(&a->verify[i].elo, &b->verify[i].elo, sizeof(double));
        assert_int_equal(a->verify[i].decision, b->verify[i].decision);
    }
}

/* The trajectory and the matches are the same for 1, 2 and 3 threads. */
static void test_same_trajectory_any_threads(void **state)
{
    (void)state;
    TuneData d[3];
    const TuneOptions o = { false, false, true, 0, 0 };
    for (int i = 0; i < 3; i++) {
        TuneConfig t;
        char name[32];
        snprintf(name, sizeof name, "threads%d.h5", i + 1);
        tiny(&t, tmp_path(name), i + 1);
        run_and_read(&t, &o, &d[i]);
        tune_config_free(&t);
    }
    assert_int_equal(d[0].nsteps, 10);
    assert_int_equal(d[0].nverify, 2);
    assert_int_equal(d[0].verify[0].pairs_done, 20);
    /* theta moved: the games carried information. */
    assert_true(d[0].tuned[0] != 0.5 || d[0].tuned[1] != -0.3);
    assert_same_tuning(&d[0], &d[1]);
    assert_same_tuning(&d[0], &d[2]);
    for (int i = 0; i < 3; i++)
        tune_data_free(&d[i]);
}

/* Against a reference: theta+ and theta- each play it (their counts are no mirror of each
 * other), and the trajectory is again the same for 1 and 3 threads. */
static void test_reference_opponent(void **state)
{
    (void)state;
    TuneData d[2];
    const TuneOptions o = { false, false, true, 0, 0 };
    char text[sizeof tiny_text + 64];
    const char *at = strstr(tiny_text, "iterations");
    snprintf(text, sizeof text, "%.*sopponent = \"greedy\";\n%s", (int)(at - tiny_text),
             tiny_text, at);
    for (int i = 0; i < 2; i++) {
        TuneConfig t;
        Error e;
        char name[32];
        snprintf(name, sizeof name, "reference%d.h5", i);
        if (tune_config_parse(&t, text, "ref.cfg", tmp_path(name), 1 + 2 * i, &e) != 0)
            fail_msg("%s", e.msg);
        assert_string_equal(t.opponent, "greedy");
        run_and_read(&t, &o, &d[i]);
        tune_config_free(&t);
    }
    assert_string_equal(d[0].opponent, "greedy");
    bool mirrored = true;
    for (int64_t k = 0; k < d[0].nsteps; k++) {
        const TuneStep *s = &d[0].steps[k];
        assert_int_equal(s->plus.wins + s->plus.draws + s->plus.losses, 12);
        assert_int_equal(s->minus.wins + s->minus.draws + s->minus.losses, 12);
        mirrored = mirrored && s->minus.wins == s->plus.losses;
    }
    assert_false(mirrored);
    assert_same_tuning(&d[0], &d[1]);
    tune_data_free(&d[0]);
    tune_data_free(&d[1]);
}

/* Pairs [0, 5) and [5, 12) add up to pairs [0, 12), on any thread count: the property that
 * lets a match be split across processes. */
static void test_pairs_split_and_add(void **state)
{
    (void)state;
    Variant v;
    variant_default(&v);
    assert_int_equal(variant_finish(&v, NULL), 0);
    Match m = { &v, "alphabeta:depth=1,w.seeds=0.5", "alphabeta:depth=1", 77, 3, 4, 400, 1 };
    MatchSums whole, first, second;
    Error e;
    assert_int_equal(match_play_pairs(&m, 0, 12, NULL, &whole, NULL, &e), 0);
    m.threads = 2;
    assert_int_equal(match_play_pairs(&m, 0, 5, NULL, &first, NULL, &e), 0);
    m.threads = 3;
    assert_int_equal(match_play_pairs(&m, 5, 7, NULL, &second, NULL, &e), 0);
    match_sums_add(&first, &second);
    assert_memory_equal(&whole, &first, sizeof whole);
    assert_int_equal(whole.wins + whole.draws + whole.losses, 24);
    int64_t pairs = 0, half_points = 0;
    for (int i = 0; i < 5; i++) {
        pairs += whole.pairs[i];
        half_points += i * whole.pairs[i];
    }
    assert_int_equal(pairs, 12);
    assert_int_equal(half_points, 2 * whole.wins + whole.draws);
}

/* Tune's historical opening of pair p: sub-stream 16 of the stream of (seed, stream, 2p),
 * n plies by pos_random_move from the start, as the game loop drew them before plies:N of
 * sim/openings.c drew them for tune too. False when a ply ends the game. */
static bool historical_opening(const Variant *v, uint64_t seed, uint64_t stream, uint64_t pair,
                               int n, Opening *o)
{
    Rng first, r;
    Position p;
    rng_seed(&first, seed, stream, 2 * pair);
    r = rng_substream(&first, 16);
    pos_start(v, &p);
    memset(o, 0, sizeof *o);
    for (int i = 0; i < n; i++) {
        MoveInfo info;
        o->moves[o->n_moves++] = pos_random_move(&p, &r);
        MoveEvent ev = pos_play(v, &p, o->moves[i], &p, &info, NULL);
        if (ev == EV_OVER || ev == EV_ENDLESS)
            return false;
    }
    return true;
}

/* Pairs [0, n) of m played by hand: each pair's opening from openings_pair (plies:N), its
 * two games by the game loop from those moves, A South first, the cap judged by the stores. */
static MatchSums match_by_hand(const Match *m, uint64_t n)
{
    Agent a, b;
    assert_int_equal(agent_create(&a, m->spec_a, NULL), 0);
    assert_int_equal(agent_create(&b, m->spec_b, NULL), 0);
    char spec[16];
    snprintf(spec, sizeof spec, "plies:%d", m->opening_plies);
    OpeningSet s;
    Error e;
    assert_int_equal(openings_load(&s, spec, m->v, &e), 0);
    MatchSums sums = { 0 };
    for (uint64_t pair = 0; pair < n; pair++) {
        Opening o;
        openings_pair(&s, m->v, m->seed, m->stream, pair, &o);
        int points = 0;
        for (int colour = 0; colour < 2; colour++) {
            GameOptions opt = { .start = opening_game_start(&o), .max_plies = m->max_plies,
                                .unfinished = UNFINISHED_BY_STORES };
            Rng g;
            GameRecord r;
            rng_seed(&g, m->seed, m->stream, 2 * pair + (uint64_t)colour);
            assert_int_equal(game_play_from(m->v, colour ? &b : &a, colour ? &a : &b, &g, &opt,
                                            &r, NULL), 0);
            int a_won = r.outcome == (colour ? OUT_NORTH : OUT_SOUTH);
            int a_lost = r.outcome == (colour ? OUT_SOUTH : OUT_NORTH);
            sums.wins += a_won;
            sums.losses += a_lost;
            sums.draws += !a_won && !a_lost;
            points += 1 + a_won - a_lost;
        }
        sums.pairs[points]++;
    }
    openings_free(&s);
    agent_free(&a);
    agent_free(&b);
    return sums;
}

/* A match's pairs open with plies:N of sim/openings.c: its sums are those of the games played
 * by hand from openings_pair's lines; on the standard board those lines are the ones tune has
 * always drawn (so published tunings replay), and on a board where random lines end the game
 * a line is drawn again, as run's plies:N does. */
static void test_match_openings_are_plies(void **state)
{
    (void)state;
    Variant standard, small;
    variant_default(&standard);
    assert_int_equal(variant_finish(&standard, NULL), 0);
    tu_variant("holes=3 seeds=1", &small);
    Match m = { &standard, "alphabeta:depth=1,w.seeds=0.5", "alphabeta:depth=1", 77, 3, 6, 400,
                1 };
    MatchSums played, want;
    Error e;
    OpeningSet s;
    assert_int_equal(openings_load(&s, "plies:6", &standard, &e), 0);
    for (uint64_t pair = 0; pair < 50; pair++) {
        Opening got, old;
        openings_pair(&s, &standard, 77, 3, pair, &got);
        assert_true(historical_opening(&standard, 77, 3, pair, 6, &old));
        assert_int_equal(got.n_moves, old.n_moves);
        assert_memory_equal(got.moves, old.moves, (size_t)old.n_moves * sizeof *old.moves);
    }
    openings_free(&s);
    assert_int_equal(match_play_pairs(&m, 0, 8, NULL, &played, NULL, &e), 0);
    want = match_by_hand(&m, 8);
    assert_memory_equal(&played, &want, sizeof want);

    m.v = &small;
    m.opening_plies = 4;
    int redrawn = 0;
    for (uint64_t pair = 0; pair < 40; pair++) {
        Opening old;
        redrawn += !historical_opening(&small, 77, 3, pair, 4, &old);
    }
    assert_true(redrawn > 0);   /* some pairs' first lines end the game: they are drawn again */
    assert_int_equal(match_play_pairs(&m, 0, 40, NULL, &played, NULL, &e), 0);
    want = match_by_hand(&m, 40);
    assert_memory_equal(&played, &want, sizeof want);
}

/* An opening_plies that leaves no game is refused with plies:N's own message, by
 * match_openings (which the command checks a config with) and by a match itself. */
static void test_match_openings_refused(void **state)
{
    (void)state;
    Variant tiny, standard;
    tu_variant("holes=2 seeds=2", &tiny);
    variant_default(&standard);
    assert_int_equal(variant_finish(&standard, NULL), 0);
    OpeningSet s;
    Error e;
    assert_int_equal(match_openings(&s, &tiny, 3, 400, &e), -1);
    assert_string_equal(e.msg, "openings \"plies:3\": none of 10000 random lines of 3 plies "
                        "keeps the game going on this board (expected a smaller N)");
    assert_int_equal(match_openings(&s, &standard, 6, 6, &e), -1);
    assert_string_equal(e.msg, "openings \"plies:6\": 6 plies reach the variant's max_plies (6)");
    Match m = { &tiny, "greedy", "greedy", 1, 0, 3, 400, 1 };
    MatchSums sums;
    assert_int_equal(match_play_pairs(&m, 0, 2, NULL, &sums, NULL, &e), -1);
    assert_string_equal(e.msg, "openings \"plies:3\": none of 10000 random lines of 3 plies "
                        "keeps the game going on this board (expected a smaller N)");
    /* No random plies: the start, on any board and cap. */
    assert_int_equal(match_openings(&s, &tiny, 0, 1, &e), 0);
    assert_int_equal(s.kind, OPENINGS_START);
    openings_free(&s);
    assert_int_equal(match_openings(&s, &standard, 6, 7, &e), 0);
    assert_int_equal(s.kind, OPENINGS_PLIES);
    openings_free(&s);
}

/* The tiny tuning with 100 verification pairs whose SPRT (H0 0, H1 5, alpha = beta = 0.2)
 * stops the match against the defaults part-way through its first block and leaves the one
 * against the start undecided after its 100 pairs (seed 4242), written to name. */
static void stopping(TuneConfig *t, const char *name, int threads)
{
    char text[sizeof tiny_text + 128];
    const char *at = strstr(tiny_text, "verification = ");
    Error e;
    snprintf(text, sizeof text, "%.*sverification = { pairs = 100; elo0 = 0; elo1 = 5; "
             "alpha = 0.2; beta = 0.2; };\n", (int)(at - tiny_text), tiny_text);
    if (tune_config_parse(t, text, "stop.cfg", tmp_path(name), threads, &e) != 0)
        fail_msg("%s", e.msg);
}

/* Match m's stored pairs' games (/tuning/verification_pairs_<name>) into games[2 * pairs];
 * the number of pairs. */
static int64_t stored_pairs(const char *path, int m, int8_t *games, int64_t most)
{
    char name[64];
    snprintf(name, sizeof name, "/tuning/verification_pairs_%s", tune_verify_names[m]);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = f < 0 ? -1 : H5Dopen2(f, name, H5P_DEFAULT);
    assert_true(ds >= 0);
    hid_t space = H5Dget_space(ds);
    hsize_t dims[2];
    assert_int_equal(H5Sget_simple_extent_ndims(space), 2);
    H5Sget_simple_extent_dims(space, dims, NULL);
    assert_int_equal(dims[1], 2);
    assert_true((int64_t)dims[0] <= most);
    if (dims[0])
        assert_true(H5Dread(ds, H5T_NATIVE_INT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, games) >= 0);
    H5Sclose(space);
    H5Dclose(ds);
    H5Fclose(f);
    return (int64_t)dims[0];
}

/* The pair (from 1) after which the SPRT first decides over a match's stored pairs, worked
 * out again pair by pair with sprt_pentanomial, from the SPRT_MIN_PAIRS-th pair on; 0 when
 * it never does. */
static int64_t first_crossing(const int8_t *games, int64_t pairs, const SprtBounds *b,
                              MatchSums *sums)
{
    uint64_t counts[PENTA_NB] = { 0 };
    memset(sums, 0, sizeof *sums);
    int64_t stop = 0;
    for (int64_t i = 0; i < pairs; i++) {
        int r0 = games[2 * i], r1 = games[2 * i + 1];
        assert_true(r0 >= -1 && r0 <= 1 && r1 >= -1 && r1 <= 1);
        counts[r0 + r1 + 2]++;
        sums->wins += (r0 > 0) + (r1 > 0);
        sums->draws += (r0 == 0) + (r1 == 0);
        sums->losses += (r0 < 0) + (r1 < 0);
        sums->pairs[r0 + r1 + 2]++;
        if (!stop && i + 1 >= SPRT_MIN_PAIRS &&
            sprt_pentanomial(counts, b->elo0, b->elo1, b->alpha, b->beta).decision !=
                SPRT_CONTINUE)
            stop = i + 1;
    }
    return stop;
}

/* A verification match stops at the first pair after which its SPRT decides: the stored
 * stop pair is the one worked out again from the stored pairs, the match holds exactly the
 * pairs up to it, and the same for 1 and 2 threads; a match that does not decide plays all
 * its pairs. */
static void test_verification_stops_on_sprt(void **state)
{
    (void)state;
    TuneData d[2];
    const TuneOptions o = { false, false, true, 0, 0 };
    for (int i = 0; i < 2; i++) {
        TuneConfig t;
        char name[32];
        snprintf(name, sizeof name, "stop%d.h5", i + 1);
        stopping(&t, name, i + 1);
        run_and_read(&t, &o, &d[i]);
        assert_int_equal(d[i].nverify, 2);
        for (int m = 0; m < 2; m++) {
            const TuneVerify *v = &d[i].verify[m];
            int8_t games[2 * 100];
            MatchSums sums;
            int64_t pairs = stored_pairs(t.output, m, games, 100);
            int64_t stop = first_crossing(games, pairs, &v->sprt, &sums);
            assert_int_equal(pairs, v->pairs_done);
            assert_memory_equal(&sums, &v->sums, sizeof sums);
            assert_int_equal(v->stop_pair, stop);
            assert_int_equal(v->pairs_planned, 100);
            if (stop)   /* it stopped there: nothing after the deciding pair */
                assert_int_equal(v->pairs_done, stop);
            else
                assert_int_equal(v->pairs_done, 100);
        }
        tune_config_free(&t);
    }
    /* One match of each kind, the stop inside the first block of 64 pairs. */
    assert_int_equal(d[0].verify[VERIFY_START].stop_pair, 0);
    assert_true(d[0].verify[VERIFY_DEFAULTS].stop_pair >= SPRT_MIN_PAIRS &&
                d[0].verify[VERIFY_DEFAULTS].stop_pair < 64);
    assert_same_tuning(&d[0], &d[1]);
    for (int m = 0; m < 2; m++)
        assert_int_equal(d[0].verify[m].stop_pair, d[1].verify[m].stop_pair);
    tune_data_free(&d[0]);
    tune_data_free(&d[1]);
}

/* A tuning stopped in its verification (after one block, then after the block that stops a
 * match on its SPRT), resumed each time on another thread count: the uninterrupted file. */
static void test_verification_resumes(void **state)
{
    (void)state;
    TuneConfig t;
    TuneData whole, resumed;
    TuneReport r;
    Error e;
    TuneOptions o = { false, false, true, 0, 0 };
    stopping(&t, "vwhole.h5", 2);
    run_and_read(&t, &o, &whole);
    tune_config_free(&t);
    const int64_t after[3] = { 1, 2, 0 };   /* blocks: start's first, then start's second
                                              * and defaults' (which stops), then the end */
    for (int i = 0; i < 3; i++) {
        stopping(&t, "vresumed.h5", 1 + i);
        o.resume = i > 0;
        o.stop_after_blocks = after[i];
        RunStatus st = tune_run(&t, &o, &r, &e);
        assert_int_equal(st, after[i] ? RUN_INTERRUPTED : RUN_DONE);
        if (after[i])
            tune_config_free(&t);
    }
    assert_int_equal(tune_read(t.output, &resumed, &e), 0);
    assert_same_tuning(&whole, &resumed);
    for (int m = 0; m < 2; m++)
        assert_int_equal(whole.verify[m].stop_pair, resumed.verify[m].stop_pair);
    int8_t a[200], b[200];
    assert_int_equal(stored_pairs(t.output, VERIFY_DEFAULTS, b, 100),
                     stored_pairs(tmp_path("vwhole.h5"), VERIFY_DEFAULTS, a, 100));
    assert_memory_equal(a, b, (size_t)(2 * whole.verify[VERIFY_DEFAULTS].pairs_done));
    tune_config_free(&t);
    tune_data_free(&whole);
    tune_data_free(&resumed);
}

/* Cut the last `bytes` bytes off a file (a torn write). */
static void truncate_by(const char *path, off_t bytes)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size - bytes), 0);
}

/* A tuning stopped after 4 iterations, resumed, stopped again, its journal torn, resumed
 * to the end: the same file as an uninterrupted tuning. */
static void test_resume_equals_uninterrupted(void **state)
{
    (void)state;
    TuneConfig t;
    TuneData whole, resumed;
    TuneReport r;
    Error e;
    TuneOptions o = { false, false, true, 0, 0 };
    tiny(&t, tmp_path("whole.h5"), 2);
    run_and_read(&t, &o, &whole);
    tune_config_free(&t);

    tiny(&t, tmp_path("resumed.h5"), 1);
    o.stop_after = 4;
    assert_int_equal(tune_run(&t, &o, &r, &e), RUN_INTERRUPTED);
    assert_int_equal(r.iterations_done, 4);
    /* Without --resume or --force the leftovers are refused. */
    o.stop_after = 0;
    assert_int_equal(tune_run(&t, &o, &r, &e), RUN_REFUSED);
    assert_non_null(strstr(e.msg, "--resume continues it"));
    o.resume = true;
    o.stop_after = 3;
    assert_int_equal(tune_run(&t, &o, &r, &e), RUN_INTERRUPTED);
    assert_int_equal(r.resumed, 4);
    assert_int_equal(r.iterations_done, 7);
    char journal[300];
    snprintf(journal, sizeof journal, "%s.journal", t.output);
    truncate_by(journal, 5);   /* the 7th iteration's record is torn: it is played again */
    tune_config_free(&t);

    tiny(&t, tmp_path("resumed.h5"), 3);
    o.stop_after = 0;
    assert_int_equal(tune_run(&t, &o, &r, &e), RUN_DONE);
    assert_int_equal(r.resumed, 6);
    assert_int_equal(tune_read(t.output, &resumed, &e), 0);
    assert_same_tuning(&whole, &resumed);
    assert_int_equal(access(journal, F_OK), -1);
    tune_config_free(&t);
    tune_data_free(&whole);
    tune_data_free(&resumed);
}

/* A tuning is read through the results files' one reader: it opens with rf_open, holds a
 * /tuning group, and a root that is not format 1's is refused with that reader's message. */
static void test_read_through_results_reader(void **state)
{
    (void)state;
    TuneConfig t;
    TuneData d;
    Error e;
    const TuneOptions o = { false, false, true, 0, 0 };
    tiny(&t, tmp_path("checked.h5"), 1);
    run_and_read(&t, &o, &d);
    tune_data_free(&d);
    ResultsFile *f = rf_open(t.output, &e);
    assert_non_null(f);
    assert_true(rf_has_group(f, "tuning"));
    assert_false(rf_has_group(f, "tuning/weights"));
    assert_int_equal(tune_read_results(f, &d, &e), 0);
    assert_int_equal(d.seed, t.seed);
    tune_data_free(&d);
    rf_close(f);

    hid_t h = H5Fopen(t.output, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0);
    assert_int_equal(h5u_attr_int(h, "format_version", 2), 0);
    assert_true(H5Fclose(h) >= 0);
    char want[400];
    snprintf(want, sizeof want, "%s: results file of format_version 2; this program reads 1",
             t.output);
    assert_int_equal(tune_read(t.output, &d, &e), -1);
    assert_string_equal(e.msg, want);
    tune_config_free(&t);
}

/* The tiny tuning with its `verification` line replaced by `with`, parsed. */
static void tiny_verification(TuneConfig *t, const char *with)
{
    char text[sizeof tiny_text + 512];
    const char *at = strstr(tiny_text, "verification = ");
    Error e;
    snprintf(text, sizeof text, "%.*s%s\n", (int)(at - tiny_text), tiny_text, with);
    if (tune_config_parse(t, text, "v.cfg", tmp_path("bounds.h5"), 1, &e) != 0)
        fail_msg("%s", e.msg);
}

/* Whether a match's bounds are these. */
static void assert_bounds(const SprtBounds *b, double elo0, double elo1, double alpha,
                          double beta)
{
    assert_true(b->elo0 == elo0 && b->elo1 == elo1 && b->alpha == alpha && b->beta == beta);
}

/* Each verification match has its own SPRT bounds: the built-in ones (0 against 20 at 0.05,
 * 0.05) without a `verification` group, the group's flat keys for every match (as configs
 * written before per-match bounds), and an `against_<name>` group over those for its match. */
static void test_verification_bounds(void **state)
{
    (void)state;
    TuneConfig t;
    tiny_verification(&t, "");
    assert_int_equal(t.verify_pairs, 200);
    for (int m = 0; m < VERIFY_NB; m++)
        assert_bounds(&t.sprt[m], 0, 20, 0.05, 0.05);
    tune_config_free(&t);

    tiny_verification(&t, "verification = { pairs = 20; elo0 = 5.0; elo1 = 100.0; alpha = 0.1; };");
    for (int m = 0; m < VERIFY_NB; m++)
        assert_bounds(&t.sprt[m], 5, 100, 0.1, 0.05);
    tune_config_free(&t);

    tiny_verification(&t, "verification = { pairs = 20; beta = 0.1;\n"
                          "  against_start = { elo0 = 0; elo1 = 100; };\n"
                          "  against_defaults = { elo1 = 15.0; alpha = 0.01; }; };");
    assert_bounds(&t.sprt[VERIFY_START], 0, 100, 0.05, 0.1);
    assert_bounds(&t.sprt[VERIFY_DEFAULTS], 0, 15, 0.01, 0.1);
    tune_config_free(&t);
}

/* A match's figures are pentanomial, over its pairs: the score interval and the SPRT of
 * pairs.h from the pairs by points, with the match's bounds kept beside them. Most pairs
 * here split 1-1 (a win each way) and the rest are won twice: the pairs say far more than
 * the games' trinomial, which would play on. */
static void test_verification_is_pentanomial(void **state)
{
    (void)state;
    TuneVerify v;
    memset(&v, 0, sizeof v);
    v.pairs_done = 220;
    v.sums = (MatchSums){ 240, 0, 200, { 0, 0, 200, 0, 20 } };
    const SprtBounds b = { 0.0, 20.0, 0.05, 0.05 };
    tune_verify_stats(&b, &v);
    const uint64_t counts[PENTA_NB] = { 0, 0, 200, 0, 20 };
    PairEstimate est = pentanomial_estimate(counts, 0.95);
    Sprt sp = sprt_pentanomial(counts, 0, 20, 0.05, 0.05);
    assert_bounds(&v.sprt, 0, 20, 0.05, 0.05);
    assert_true(v.score == est.score && v.elo == est.elo);
    assert_true(v.elo_lo == est.elo_ci.lo && v.elo_hi == est.elo_ci.hi);
    assert_true(v.llr == sp.llr && v.llr_lower == sp.lower && v.llr_upper == sp.upper);
    assert_int_equal(v.decision, (int)sp.decision);
    /* The trinomial of the same games would not decide; the pairs do. */
    Sprt tri = sprt_trinomial(240, 0, 200, 0, 20, 0.05, 0.05);
    assert_int_equal(tri.decision, SPRT_CONTINUE);
    assert_int_equal(v.decision, SPRT_ACCEPT_H1);
}

/* A tuning's file keeps each match's bounds, read back beside its decision. */
static void test_verification_bounds_stored(void **state)
{
    (void)state;
    TuneConfig t;
    TuneData d;
    const TuneOptions o = { false, false, true, 0, 0 };
    tiny_verification(&t, "verification = { pairs = 20;\n"
                          "  against_start = { elo0 = -10; elo1 = 100; };\n"
                          "  against_defaults = { elo1 = 30; beta = 0.2; }; };");
    run_and_read(&t, &o, &d);
    assert_int_equal(d.nverify, 2);
    assert_bounds(&d.verify[VERIFY_START].sprt, -10, 100, 0.05, 0.05);
    assert_bounds(&d.verify[VERIFY_DEFAULTS].sprt, 0, 30, 0.05, 0.2);
    Sprt sp = sprt_pentanomial((const uint64_t *)d.verify[1].sums.pairs, 0, 30, 0.05, 0.2);
    assert_true(d.verify[1].llr == sp.llr && d.verify[1].llr_lower == sp.lower);
    tune_data_free(&d);
    tune_config_free(&t);
}

/* A config with one line replaced gives an error containing `want`. */
static void expect_error(const char *from, const char *to, const char *want)
{
    char text[sizeof tiny_text + 256];
    const char *at = strstr(tiny_text, from);
    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - tiny_text), tiny_text, to,
             at + strlen(from));
    TuneConfig t;
    Error e;
    if (tune_config_parse(&t, text, "bad.cfg", NULL, -1, &e) == 0)
        fail_msg("accepted: %s -> %s", from, to);
    if (!strstr(e.msg, want))
        fail_msg("for %s -> %s: got '%s', want '%s'", from, to, e.msg, want);
    assert_null(strchr(e.msg, '\n'));
}

/* Bad configs: one line each, naming the file, the line and the key. */
static void test_bad_configs(void **state)
{
    (void)state;
    expect_error("seed = 4242L;\n", "", "bad.cfg:1: seed: missing");
    expect_error("seed = 4242L;\n", "sead = 4242L;\n",
                 "bad.cfg:1: sead: unknown key; did you mean 'seed'? (expected description, ");
    expect_error("seed = 4242L;\n", "seed = -1;\n", "bad.cfg:1: seed: -1 is out of range");
    expect_error("seed = 4242L;\n", "seed = 9223372036854775808L;\n",
                 "bad.cfg:1: seed: 9223372036854775808L does not fit a 64-bit integer "
                 "(-9223372036854775808 to 9223372036854775807)");
    expect_error("seed = 4242L;\n", "seed = 5000000000;\n",
                 "bad.cfg:1: seed: 5000000000 is too large for a plain integer, which libconfig "
                 "wraps; write 5000000000L (a 64-bit integer)");
    expect_error("iterations = 10;", "iterations = 0;", "bad.cfg:4: iterations: 0 is out of range");
    expect_error("pairs = 6;", "pairs = \"six\";", "bad.cfg:5: pairs: expected a whole number");
    expect_error("a = 10.0;", "", "bad.cfg:1: a: missing");
    expect_error("a = 10.0;", "a = -1.0;", "bad.cfg:7: a: -1 is out of range");
    expect_error("\"alphabeta:depth=1,tt=10\"", "\"random\"",
                 "bad.cfg:3: agent: agent 'random' has no evaluation weights");
    expect_error("\"alphabeta:depth=1,tt=10\"", "\"alphabeta:depth=0\"",
                 "bad.cfg:3: agent: agent 'alphabeta': depth=0 is out of range");
    expect_error("name = \"store\"", "name = \"stroe\"", "bad.cfg:9: name: 'stroe' is not a term");
    expect_error("name = \"seeds\"", "name = \"store\"",
                 "bad.cfg:10: name: 'store' is tuned twice");
    expect_error("start = 0.5; min = 0.0; max = 3.0;", "start = 0.5; min = 3.0; max = 0.0;",
                 "bad.cfg:9: max: must be above min");
    expect_error("start = 0.5;", "start = 5.0;", "bad.cfg:9: start: 5 is out of range (0 to 3)");
    expect_error("step = 0.2;", "step = 0;", "bad.cfg:9: step: must be above 0");
    expect_error("step = 0.2; }", "}", "bad.cfg:9: step: missing for weight 'store'");
    expect_error("step = 0.2; }", "step = 0.2; colour = 1; }",
                 "bad.cfg:9: colour: unknown key in a weight");
    expect_error("elo1 = 50.0;", "elo1 = -5.0;", "bad.cfg:12: elo1: must be above elo0");
    expect_error("elo1 = 50.0; };", "elo1 = 50.0;\n  against_defaults = { elo0 = 60; }; };",
                 "bad.cfg:12: elo1: must be above elo0 (60) for the match against defaults");
    expect_error("elo1 = 50.0; };", "elo1 = 50.0;\n  against_start = { elo0 = 0;\n elo1 = -5; }; };",
                 "bad.cfg:14: elo1: must be above elo0 (0) for the match against start");
    expect_error("elo1 = 50.0; };", "elo1 = 50.0;\n  against_start = { elo1 = \"big\"; }; };",
                 "bad.cfg:13: elo1: expected a number from -1000 to 1000");
    expect_error("elo1 = 50.0; };", "elo1 = 50.0;\n  against_start = { beta = 0.7; }; };",
                 "bad.cfg:13: beta: 0.7 is out of range (1e-06 to 0.49)");
    expect_error("elo1 = 50.0; };", "elo1 = 50.0;\n  against_start = { pairs = 10; }; };",
                 "bad.cfg:13: pairs: unknown key in against_start (expected elo0, elo1, alpha or beta)");
    expect_error("elo1 = 50.0; };", "elo1 = 50.0;\n  against_start = 100; };",
                 "bad.cfg:13: against_start: expected a group { elo0 = ..; elo1 = ..; }");
    expect_error("elo1 = 50.0; };", "elo1 = 50.0;\n  against_startt = { elo1 = 1; }; };",
                 "bad.cfg:13: against_startt: unknown key in verification");
    expect_error("max_plies = 400;", "max_plies = 0;", "bad.cfg:6: max_plies: 0 is out of range");
    expect_error("pairs = 6;", "pairs = \"six\";",
                 "bad.cfg:5: pairs: expected a whole number, not a string");
    expect_error("iterations = 10;", "iterations = 0;",
                 "bad.cfg:4: iterations: 0 is out of range (1 to 1000000)");
    expect_error("pairs = 6;\n", "pairs = 6;\nvariant = \"oware\";\n",
                 "bad.cfg:6: variant: unknown preset 'oware' (expected anywoli, yit-nuri or yit-jani)");
    expect_error("a = 10.0;", "a = = 10.0;", "bad.cfg:7: syntax error");
    expect_error("pairs = 6;\n", "pairs = 6;\nopponent = greedy;\n",
                 "bad.cfg:6: syntax error: opponent = greedy: agent specs are strings in double "
                 "quotes (opponent = \"greedy\";)");
    expect_error("weights = (", "wait = 1;\nweights = (", "bad.cfg:8: wait: unknown key");
    expect_error("weights = (", "or = 1;\nweights = (", "bad.cfg:8: or: unknown key");
}

/* The tuned spec replaces the base spec's own values of the tuned weights and keeps the
 * rest; the defaults spec drops every weight. */
static void test_specs(void **state)
{
    (void)state;
    TuneConfig t;
    Error e;
    char text[sizeof tiny_text + 64], spec[TUNE_SPEC_MAX];
    const char *at = strstr(tiny_text, "tt=10");
    snprintf(text, sizeof text, "%.*stt=10,w.store=2,w.final=1.5%s", (int)(at - tiny_text),
             tiny_text, at + strlen("tt=10"));
    assert_int_equal(tune_config_parse(&t, text, "spec.cfg", NULL, -1, &e), 0);
    const double v[2] = { 1.23456, -0.1 };
    tune_spec(&t, v, true, spec);
    assert_string_equal(spec, "alphabeta:depth=1,tt=10,w.final=1.5,w.store=1.235,w.seeds=-0.1");
    tune_default_spec(&t, spec);
    assert_string_equal(spec, "alphabeta:depth=1,tt=10");
    tune_config_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spsa_quadratic),
        cmocka_unit_test(test_spsa_gains_and_delta),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_bad_configs),
        cmocka_unit_test(test_verification_bounds),
        cmocka_unit_test(test_verification_is_pentanomial),
        cmocka_unit_test(test_verification_bounds_stored),
        cmocka_unit_test(test_pairs_split_and_add),
        cmocka_unit_test(test_match_openings_are_plies),
        cmocka_unit_test(test_match_openings_refused),
        cmocka_unit_test(test_same_trajectory_any_threads),
        cmocka_unit_test(test_resume_equals_uninterrupted),
        cmocka_unit_test(test_reference_opponent),
        cmocka_unit_test(test_read_through_results_reader),
        cmocka_unit_test(test_verification_stops_on_sprt),
        cmocka_unit_test(test_verification_resumes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
