/* test_driver_config.c: experiment configs: malformed ones, each with its one-line error,
 * and good ones with their sweeps, defaults, overrides, 64-bit counts and the quick form. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#define HEAD "seed = 1;\noutput = \"x.h5\";\n"

/* A malformed config and the exact error it must give (label t.cfg). */
typedef struct BadConfig {
    const char *text;
    const char *error;
} BadConfig;

static const BadConfig bad_configs[] = {
    { HEAD "jobs = ( { games = 2; openings_order = \"random\"; } );\n",
      "t.cfg:3: openings_order: expected \"in-order\" or \"shuffled\", not \"random\"" },
    { HEAD "jobs = ( { games = 2; openings = \"plies:2\";\n  openings_order = \"shuffled\"; } );\n",
      "t.cfg:4: openings_order: openings_order \"shuffled\": only a list of openings (all:N or "
      "file:PATH) has an order to shuffle, not \"plies:2\" (job job1)" },
    { HEAD "jobs = ( { games = 2; openings_order = [\"shuffled\"]; } );\n",
      "t.cfg:3: openings_order: expected one value, not a list (only variant parameters, agent "
      "specs and openings can be swept)" },
    { "seed = 1;\noutput = \"x.h5\"\njobs = ( { games = 1; } ;\n",
      "t.cfg:3: syntax error" },
    { HEAD "seed = 2;\njobs = ( { games = 1; } );\n",
      "t.cfg:3: syntax error: duplicate setting name" },
    /* An unquoted word where a string goes: a hint that names the key and the quotes. */
    { HEAD "jobs = ( { games = 1; agent_a = random; } );\n",
      "t.cfg:3: syntax error: agent_a = random: agent specs are strings in double quotes "
      "(agent_a = \"random\";)" },
    { HEAD "jobs = ( { name = \"a = b\"; agent_b = [greedy, alphabeta:depth=2]; } );\n",
      "t.cfg:3: syntax error: agent_b = [greedy, ...]: agent specs are strings in double "
      "quotes (agent_b = [\"greedy\", ...];)" },
    { HEAD "defaults = { final_four = lottery; };\njobs = ( { games = 1; } );\n",
      "t.cfg:3: syntax error: final_four = lottery: text values are strings in double quotes "
      "(final_four = \"lottery\";)" },
    { HEAD "jobs = ( { games = 1; record_moves = True; } ) )\n",
      "t.cfg:3: syntax error" },
    { HEAD "sed = 2;\njobs = ( { games = 1; } );\n",
      "t.cfg:3: sed: unknown setting; did you mean 'seed'? (expected seed, output, threads, batch, description, "
      "defaults or jobs)" },
    { HEAD "jobs = ( { games = 2; first_game = 3; } );\n",
      "t.cfg:3: first_game: 3 is not an even number from 0 to 1125899906842622 (games "
      "[first_game, first_game + games) must be pairs, and at most 1125899906842624)" },
    { HEAD "jobs = ( { games = 1; hole = 4; } );\n",
      "t.cfg:3: hole: unknown setting; did you mean 'holes'? (expected variant, holes, seeds, capture, final_four, "
      "extra_turn, skip_origin, max_plies, agent_a, agent_b, openings, openings_order, games, "
      "first_game, record_moves, sprt, adjudicate, root_design or name)" },
    { "seed = \"abc\";\noutput = \"x.h5\";\njobs = ( { games = 1; } );\n",
      "t.cfg:1: seed: expected a whole number, not a string" },
    { "seed = -5;\noutput = \"x.h5\";\njobs = ( { games = 1; } );\n",
      "t.cfg:1: seed: -5 is out of range (0 to 9223372036854775807)" },
    { HEAD "jobs = ( { games = 0; } );\n",
      "t.cfg:3: games: 0 is out of range (1 to 1125899906842624)" },
    { HEAD "jobs = ( { games = 3000000000; } );\n",
      "t.cfg:3: games: 3000000000 is too large for a plain integer, which libconfig wraps; "
      "write 3000000000L (a 64-bit integer)" },
    { "seed = 9223372036854775808L;\noutput = \"x.h5\";\njobs = ( { games = 1; } );\n",
      "t.cfg:1: seed: 9223372036854775808L does not fit a 64-bit integer "
      "(-9223372036854775808 to 9223372036854775807)" },
    { HEAD "jobs = ( { games = 9223372036854775808L; } );\n",
      "t.cfg:3: games: 9223372036854775808L does not fit a 64-bit integer "
      "(-9223372036854775808 to 9223372036854775807)" },
    { HEAD "jobs = ( { games = 1; holes = [4,\n -99999999999999999999]; } );\n",
      "t.cfg:4: holes: -99999999999999999999 does not fit a 64-bit integer "
      "(-9223372036854775808 to 9223372036854775807)" },
    { HEAD "jobs = ( { games = 0x8000000000000000L; } );\n",
      "t.cfg:3: games: 0x8000000000000000L does not fit a 64-bit integer "
      "(-9223372036854775808 to 9223372036854775807)" },
    { HEAD "jobs = ( { games = 1.5; } );\n",
      "t.cfg:3: games: expected a whole number, not a number with a fraction" },
    { HEAD "jobs = ( { games = 1; holes = 40; } );\n",
      "t.cfg:3: holes: 40 is out of range (2 to 32) (job job1)" },
    { HEAD "jobs = ( { games = 1; final_four = \"coin\"; } );\n",
      "t.cfg:3: final_four: 'coin' is not a convention (expected penultimate, first-final or "
      "lottery)" },
    { HEAD "jobs = ( { games = 1; final_four = \"lotery\"; } );\n",
      "t.cfg:3: final_four: 'lotery' is not a convention; did you mean 'lottery'? (expected "
      "penultimate, first-final or lottery)" },
    { HEAD "jobs = ( { games = 1; extra_turn = 3; } );\n",
      "t.cfg:3: extra_turn: expected true or false, not a whole number" },
    { HEAD "jobs = ( { games = 1;\n record_moves = 1; } );\n",
      "t.cfg:4: record_moves: expected true or false, not a whole number" },
    { HEAD "defaults = { record_moves = \"yes\"; };\njobs = ( { games = 1; } );\n",
      "t.cfg:3: record_moves: expected true or false, not a string" },
    { HEAD "jobs = ( { games = 1; record_moves = [true, false]; } );\n",
      "t.cfg:3: record_moves: expected one value, not a list (only variant parameters, agent "
      "specs and openings can be swept)" },
    { HEAD "jobs = ( { games = 1;\n agent_a = \"nosuch\"; } );\n",
      "t.cfg:4: agent_a: agent 'nosuch': unknown (expected " },
    { HEAD "jobs = ( { games = 1;\n agent_a = \"alphabeat:depth=4\"; } );\n",
      "t.cfg:4: agent_a: agent 'alphabeat': unknown; did you mean 'alphabeta'? (expected " },
    { HEAD "jobs = ( { games = 1; agent_a = \"alphabeta:dept=4\"; } );\n",
      "t.cfg:3: agent_a: agent 'alphabeta': unknown option 'dept'; did you mean 'depth'? "
      "(expected depth, " },
    { HEAD "jobs = ( { games = 1; openings = \"plise:4\"; } );\n",
      "t.cfg:3: openings: openings \"plise:4\": expected start, plies:N, all:N or file:PATH "
      "(N from 1 to 64); did you mean 'plies'?" },
    { HEAD "jobs = ( { games = 1; agent_b = \"random:depth=3\"; } );\n",
      "t.cfg:3: agent_b: agent 'random': " },
    { HEAD "jobs = ( { games = 1; holes = []; } );\n",
      "t.cfg:3: holes: empty sweep (a list needs at least one value)" },
    { HEAD "jobs = ( { games = 1; holes = (4,\n \"x\"); } );\n",
      "t.cfg:4: holes: expected a whole number, not a string" },
    { HEAD "jobs = ( { name = \"x\"; games = 1; },\n { name = \"x\"; games = 2; } );\n",
      "t.cfg:4: name: duplicate job name 'x' (also the job at line 3)" },
    { HEAD "jobs = ( { name = \"x\"; holes = [4, 5]; games = 1; },\n"
           " { name = \"x-holes=4\"; games = 1; } );\n",
      "t.cfg:4: name: duplicate job name 'x-holes=4' (also the job at line 3)" },
    { HEAD "jobs = ( );\n", "t.cfg:3: jobs: empty (give at least one job)" },
    { HEAD "jobs = { games = 1; };\n",
      "t.cfg:3: jobs: expected a list of groups ( { ... }, { ... } ), not a group" },
    { HEAD "jobs = ( { games = 1; }, 5 );\n",
      "t.cfg:3: jobs: job 2: expected a group { ... }, not a whole number" },
    { "output = \"x.h5\";\njobs = ( { games = 1; } );\n",
      "t.cfg:1: seed: missing (the experiment's seed, 0 or more)" },
    { "seed = 1;\njobs = ( { games = 1; } );\n",
      "t.cfg:1: output: missing (the results file; or give -o FILE)" },
    { "seed = 1;\noutput = \"\";\njobs = ( { games = 1; } );\n",
      "t.cfg:2: output: must not be empty" },
    { HEAD "\n", "t.cfg:1: jobs: missing (the list of jobs to run)" },
    { HEAD "jobs = ( { games = 1; variant = \"chess\"; } );\n",
      "t.cfg:3: variant: unknown preset 'chess' (expected anywoli, yit-nuri or yit-jani)" },
    { HEAD "jobs = ( { games = 1; name = \"a/b\"; } );\n",
      "t.cfg:3: name: 'a/b' is not a valid job name (1 to 100 letters, digits and . _ : = , + -, "
      "not starting with .)" },
    { HEAD "threads = -1;\njobs = ( { games = 1; } );\n",
      "t.cfg:3: threads: -1 is out of range (0 to 4096)" },
    { HEAD "batch = 0;\njobs = ( { games = 1; } );\n",
      "t.cfg:3: batch: 0 is out of range (1 to 262144)" },
    { HEAD "defaults = { name = \"d\"; };\njobs = ( { games = 1; } );\n",
      "t.cfg:3: name: not allowed in defaults (each job has its own)" },
    { HEAD "jobs = ( { games = [1, 2]; } );\n",
      "t.cfg:3: games: expected one value, not a list (only variant parameters, agent "
      "specs and openings can be swept)" },
    { HEAD "jobs = ( { holes = 5; } );\n",
      "t.cfg:3: games: missing (set it in the job or in defaults)" },
    { HEAD "jobs = ( { games = 1; holes = [2, 3]; seeds = 1; capture = 5; } );\n",
      "t.cfg:3: capture: 5 must be below the 4 seeds in play (2 x holes x seeds) "
      "(job job1-holes=2)" },
    { HEAD "jobs = ( { games = 1; max_plies = 0; } );\n",
      "t.cfg:3: max_plies: 0 is out of range (at least 1) (job job1)" },
    { HEAD "jobs = ( { games = 2;\n openings = \"plies:x\"; } );\n",
      "t.cfg:4: openings: openings \"plies:x\": expected start, plies:N, all:N or file:PATH "
      "(N from 1 to 64)" },
    { HEAD "defaults = { openings = [\"all:1\",\n \"random\"]; };\njobs = ( { games = 2; } );\n",
      "t.cfg:4: openings: openings \"random\": expected start, plies:N, all:N or file:PATH" },
    { HEAD "jobs = ( { games = 2; openings = 3; } );\n",
      "t.cfg:3: openings: expected a string in double quotes, not a whole number" },
    { HEAD "jobs = ( { games = 2; openings = \"file:/nonexistent/book\"; } );\n",
      "t.cfg:3: openings: /nonexistent/book: cannot open" },
    { HEAD "# caf\xe9\njobs = ( { games = 1; } );\n",
      "t.cfg:3: the text is not valid UTF-8 (results files keep it as UTF-8)" },
};

/* Every malformed config fails with its one-line message (a prefix where the rest names
 * what the agents' registry allows, which grows). */
static void test_malformed(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof bad_configs / sizeof bad_configs[0]; i++) {
        Experiment x;
        Error e;
        memset(&e, 0, sizeof e);
        int rc = experiment_parse(&x, bad_configs[i].text, "t.cfg", NULL, &e);
        if (rc == 0) {
            experiment_free(&x);
            fprintf(stderr, "config %zu: accepted, expected %s\n", i, bad_configs[i].error);
            failures++;
        } else if (strncmp(e.msg, bad_configs[i].error, strlen(bad_configs[i].error)) != 0 ||
                   strchr(e.msg, '\n')) {
            fprintf(stderr, "config %zu:\n  got      %s\n  expected %s\n", i, e.msg,
                    bad_configs[i].error);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
    assert_true(sizeof bad_configs / sizeof bad_configs[0] >= 15);
}

/* Parse a config that must be good. */
static void parse_ok(Experiment *x, const char *text, const Overrides *o)
{
    Error e;
    if (experiment_parse(x, text, "t.cfg", o, &e) != 0)
        fail_msg("rejected: %s", e.msg);
}

/* Sweeps expand in key order (the last key fastest), with generated names and indices. */
static void test_sweeps(void **state)
{
    (void)state;
    Experiment x;
    parse_ok(&x, "seed = 9;\noutput = \"s.h5\";\ndefaults = { games = 10; seeds = 3; };\n"
                 "jobs = ( { name = \"board\"; holes = [4, 6]; agent_b = [\"random\", "
                 "\"random:\"]; },\n { final_four = [\"lottery\"]; extra_turn = false; "
                 "games = 5; } );\n", NULL);
    static const char *const names[] = {
        "board-holes=4-agent_b=random", "board-holes=4-agent_b=random:",
        "board-holes=6-agent_b=random", "board-holes=6-agent_b=random:", "job2",
    };
    assert_int_equal(x.njobs, 5);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(x.jobs[i].name, names[i]);
        assert_int_equal(x.jobs[i].index, i);
        assert_int_equal(x.jobs[i].variant.seeds, 3);
    }
    assert_int_equal(x.jobs[0].variant.holes, 4);
    assert_int_equal(x.jobs[3].variant.holes, 6);
    assert_string_equal(x.jobs[1].agent_b, "random:");
    assert_int_equal(x.jobs[0].games, 10);
    assert_int_equal(x.jobs[4].games, 5);
    assert_int_equal(x.jobs[4].variant.final_four, FF_LOTTERY);
    assert_false(x.jobs[4].variant.extra_turn);
    assert_int_equal(x.jobs[4].variant.holes, 12);
    assert_int_equal(x.seed, 9);
    assert_string_equal(x.output, "s.h5");
    assert_int_equal(x.threads, 0);
    assert_int_equal(x.batch, 0);
    assert_non_null(experiment_job(&x, "job2"));
    assert_null(experiment_job(&x, "job3"));
    experiment_free(&x);
}

/* Presets come first, then explicit parameters; 64-bit counts and seeds read whole. */
static void test_presets_and_int64(void **state)
{
    (void)state;
    Experiment x;
    parse_ok(&x, "seed = 5000000000L;\noutput = \"p.h5\";\nthreads = 3;\nbatch = 100;\n"
                 "description = \"what it answers\";\n"
                 "jobs = ( { variant = \"yit-jani\"; seeds = 3; games = 3000000000L; "
                 "max_plies = 9000000L; } );\n", NULL);
    assert_int_equal(x.seed, INT64_C(5000000000));
    assert_int_equal(x.jobs[0].games, INT64_C(3000000000));
    assert_int_equal(x.jobs[0].variant.holes, 13);
    assert_int_equal(x.jobs[0].variant.seeds, 3);
    assert_int_equal(x.jobs[0].variant.max_plies, INT64_C(9000000));
    assert_int_equal(x.threads, 3);
    assert_int_equal(x.batch, 100);
    experiment_free(&x);
}

/* Command-line options override every job and the root settings, and are recorded. */
static void test_overrides(void **state)
{
    (void)state;
    Overrides o;
    Experiment x;
    overrides_none(&o);
    o.output = "o.h5";
    o.seed = 77;
    o.games = 12;
    o.threads = 2;
    o.batch = 5;
    o.variant.value[VP_HOLES] = "5";
    parse_ok(&x, HEAD "jobs = ( { holes = [6, 7]; games = 3; } );\n", &o);
    assert_int_equal(x.njobs, 1);
    assert_string_equal(x.jobs[0].name, "job1");
    assert_int_equal(x.jobs[0].variant.holes, 5);
    assert_int_equal(x.jobs[0].games, 12);
    assert_int_equal(x.seed, 77);
    assert_string_equal(x.output, "o.h5");
    assert_int_equal(x.threads, 2);
    assert_int_equal(x.batch, 5);
    assert_non_null(strstr(x.text, "# Overridden on the command line: holes = 5; games = 12; "
                                   "seed = 77;"));
    experiment_free(&x);
}

/* The quick form makes job `main`, and its text is a config of the same experiment. */
static void test_quick_form(void **state)
{
    (void)state;
    Overrides o;
    Experiment x, again;
    Error e;
    overrides_none(&o);
    o.variant.preset = "yit-nuri";
    o.variant.value[VP_FINAL_FOUR] = "lottery";
    o.variant.value[VP_EXTRA_TURN] = "no";
    o.agent_b = "random:";
    o.games = 4000000000LL;
    o.seed = 3;
    o.output = "we\"ird.h5";
    assert_int_equal(experiment_quick(&x, &o, &e), 0);
    assert_int_equal(x.njobs, 1);
    assert_string_equal(x.jobs[0].name, "main");
    assert_int_equal(x.jobs[0].variant.holes, 7);
    assert_int_equal(x.jobs[0].variant.final_four, FF_LOTTERY);
    assert_false(x.jobs[0].variant.extra_turn);
    assert_string_equal(x.jobs[0].agent_a, "random");
    assert_string_equal(x.jobs[0].agent_b, "random:");
    assert_int_equal(x.jobs[0].games, 4000000000LL);
    assert_string_equal(x.output, "we\"ird.h5");
    parse_ok(&again, x.text, NULL);
    char *f1 = experiment_fingerprint(&x), *f2 = experiment_fingerprint(&again);
    assert_string_equal(f1, f2);
    free(f1);
    free(f2);
    experiment_free(&again);
    experiment_free(&x);

    overrides_none(&o);
    o.variant.value[VP_HOLES] = "99";
    assert_int_equal(experiment_quick(&x, &o, &e), -1);
    assert_string_equal(e.msg, "--holes 99: holes: 99 is out of range (2 to 32)");
    overrides_none(&o);
    o.variant.preset = "oware";
    assert_int_equal(experiment_quick(&x, &o, &e), -1);
    assert_string_equal(e.msg, "--variant: unknown preset 'oware' (expected anywoli, yit-nuri or "
                               "yit-jani)");
    overrides_none(&o);
    o.agent_a = "nosuch";
    assert_int_equal(experiment_quick(&x, &o, &e), -1);
    assert_non_null(strstr(e.msg, "--agent-a: agent 'nosuch': unknown"));
    overrides_none(&o);
    o.openings = "all:0";
    assert_int_equal(experiment_quick(&x, &o, &e), -1);
    assert_string_equal(e.msg, "--openings: openings \"all:0\": expected start, plies:N, all:N "
                               "or file:PATH (N from 1 to 64)");
}

/* `openings` defaults to start, sweeps like an agent spec (one job per spec, named after
 * it), and comes from --openings in the quick form, whose text runs the same experiment. */
static void test_openings_key(void **state)
{
    (void)state;
    Experiment x, again;
    Overrides o;
    Error e;
    parse_ok(&x, HEAD "defaults = { games = 4; openings = [\"plies:2\", \"all:1\"]; };\n"
                 "jobs = ( { name = \"j\"; }, { name = \"s\"; openings = \"start\"; } );\n",
             NULL);
    assert_int_equal(x.njobs, 3);
    assert_string_equal(x.jobs[0].name, "j-openings=plies:2");
    assert_int_equal(x.jobs[0].openings.kind, OPENINGS_PLIES);
    assert_string_equal(x.jobs[1].name, "j-openings=all:1");
    assert_int_equal(x.jobs[1].openings.count, 12);
    assert_int_equal(x.jobs[2].openings.kind, OPENINGS_START);
    experiment_free(&x);
    overrides_none(&o);
    o.openings = "plies:3";
    assert_int_equal(experiment_quick(&x, &o, &e), 0);
    assert_string_equal(x.jobs[0].openings.spec, "plies:3");
    parse_ok(&again, x.text, NULL);
    assert_string_equal(again.jobs[0].openings.spec, "plies:3");
    experiment_free(&again);
    experiment_free(&x);
}

/* `openings_order`: "shuffled" puts a list (all:N) in a permutation that is a pure function
 * of (seed, job), every line once; it is named in the fingerprint only when shuffled; the
 * quick form carries it (its bad values are in bad_configs). */
static void test_openings_order(void **state)
{
    (void)state;
    Experiment in_order, a, b, other;
    parse_ok(&in_order, HEAD "jobs = ( { games = 24; openings = \"all:1\"; } );\n", NULL);
    const char *shuffled = HEAD "defaults = { openings_order = \"shuffled\"; };\n"
                           "jobs = ( { games = 24; openings = \"all:1\"; },\n"
                           "         { games = 24; openings = \"all:1\"; } );\n";
    parse_ok(&a, shuffled, NULL);
    parse_ok(&b, shuffled, NULL);
    Overrides o;
    overrides_none(&o);
    o.seed = 2;
    parse_ok(&other, shuffled, &o);
    assert_int_equal(in_order.jobs[0].openings.order, OPENINGS_IN_ORDER);
    assert_int_equal(a.jobs[0].openings.order, OPENINGS_SHUFFLED);
    int64_t n = a.jobs[0].openings.count;
    assert_int_equal(n, 12);
    bool seen[12] = { false }, moved = false, by_job = false, by_seed = false;
    for (int64_t i = 0; i < n; i++) {
        int hole = a.jobs[0].openings.list[i].moves[0];
        assert_false(seen[hole]);
        seen[hole] = true;
        moved |= hole != in_order.jobs[0].openings.list[i].moves[0];
        by_job |= hole != a.jobs[1].openings.list[i].moves[0];
        by_seed |= hole != other.jobs[0].openings.list[i].moves[0];
        assert_int_equal(hole, b.jobs[0].openings.list[i].moves[0]);
    }
    assert_true(moved && by_job && by_seed);
    char *f0 = experiment_fingerprint(&in_order), *f1 = experiment_fingerprint(&a);
    assert_null(strstr(f0, "openings_order"));
    assert_non_null(strstr(f1, " openings_order=shuffled\n"));
    free(f0);
    free(f1);
    experiment_free(&in_order);
    experiment_free(&a);
    experiment_free(&b);
    experiment_free(&other);

    Experiment x, again;
    Error e;
    overrides_none(&o);
    o.openings = "all:2";
    o.openings_order = "shuffled";
    o.seed = 9;
    assert_int_equal(experiment_quick(&x, &o, &e), 0);
    assert_int_equal(x.jobs[0].openings.order, OPENINGS_SHUFFLED);
    parse_ok(&again, x.text, NULL);
    char *g1 = experiment_fingerprint(&x), *g2 = experiment_fingerprint(&again);
    assert_string_equal(g1, g2);
    free(g1);
    free(g2);
    experiment_free(&again);
    experiment_free(&x);
}

/* A tournament of the quick form: its jobs, every override in each (through the text's
 * defaults), a text that loads to the same fingerprint, and its refusals. */
static void test_tournament(void **state)
{
    (void)state;
    const char *specs[] = { "random", "greedy", "alphabeta:depth=1", "mcts:playouts=10" };
    Overrides o;
    Experiment x, again;
    Error e;
    overrides_none(&o);
    o.games = 6;
    o.openings = "all:1";
    o.openings_order = "shuffled";
    o.record_moves = true;
    o.variant.value[VP_HOLES] = "6";
    assert_int_equal(experiment_tournament(&x, &o, TOURNAMENT_ROUND_ROBIN, specs, 4, &e), 0);
    assert_int_equal(x.njobs, 6);
    const char *names[6] = { "rr-1-2", "rr-1-3", "rr-1-4", "rr-2-3", "rr-2-4", "rr-3-4" };
    const int a[6] = { 0, 0, 0, 1, 1, 2 }, b[6] = { 1, 2, 3, 2, 3, 3 };
    for (int i = 0; i < 6; i++) {
        const Job *j = &x.jobs[i];
        assert_string_equal(j->name, names[i]);
        assert_string_equal(j->agent_a, specs[a[i]]);
        assert_string_equal(j->agent_b, specs[b[i]]);
        assert_int_equal(j->games, 6);
        assert_int_equal(j->variant.holes, 6);
        assert_true(j->record_moves);
        assert_int_equal(j->openings.order, OPENINGS_SHUFFLED);
    }
    parse_ok(&again, x.text, NULL);
    char *f1 = experiment_fingerprint(&x), *f2 = experiment_fingerprint(&again);
    assert_string_equal(f1, f2);
    free(f1);
    free(f2);
    experiment_free(&again);
    experiment_free(&x);

    /* A text longer than its first guess (a long output name) is written again at its size. */
    static char output[9000];
    memset(output, 'o', sizeof output - 4);
    strcpy(output + sizeof output - 4, ".h5");
    overrides_none(&o);
    o.output = output;
    assert_int_equal(experiment_tournament(&x, &o, TOURNAMENT_GAUNTLET, specs, 4, &e), 0);
    assert_string_equal(x.output, output);
    assert_int_equal(x.njobs, 3);
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "gauntlet-1-%d", i + 2);
        assert_string_equal(x.jobs[i].name, name);
        assert_string_equal(x.jobs[i].agent_a, "random");
        assert_string_equal(x.jobs[i].agent_b, specs[i + 1]);
        assert_int_equal(x.jobs[i].games, 10000);
    }
    experiment_free(&x);

    assert_int_equal(experiment_tournament(&x, &o, TOURNAMENT_GAUNTLET, specs, 1, &e), -1);
    assert_string_equal(e.msg, "--gauntlet: 1 agent spec given; a tournament needs 2 or more "
                               "(repeat the option, one spec each)");
    const char *twice[] = { "alphabeta", "random", "alphabeta:weights=auto" };
    assert_int_equal(experiment_tournament(&x, &o, TOURNAMENT_ROUND_ROBIN, twice, 3, &e), -1);
    assert_string_equal(e.msg, "--round-robin: 'alphabeta:weights=auto' (spec 3) is the same "
                               "agent as 'alphabeta' (spec 1); give each agent once");
    o.games = 9;
    assert_int_equal(experiment_tournament(&x, &o, TOURNAMENT_GAUNTLET, specs, 2, &e), -1);
    assert_string_equal(e.msg, "--games: 9 is odd; a tournament's jobs play whole pairs (two "
                               "games, colours swapped), so give an even number");
    overrides_none(&o);
    o.agent_b = "greedy";
    assert_int_equal(experiment_tournament(&x, &o, TOURNAMENT_ROUND_ROBIN, specs, 2, &e), -1);
    assert_string_equal(e.msg, "--round-robin: not with --agent-b (the tournament's specs name "
                               "every player)");
}

/* Write text to path. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A book's openings are in the fingerprint, so that a journal of a run from another book
 * (the same path, other lines) does not resume; a comment changes nothing. */
static void test_fingerprint_book(void **state)
{
    (void)state;
    char path[] = "/tmp/anywoli-book-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char text[256];
    snprintf(text, sizeof text, HEAD "jobs = ( { games = 4; openings = \"file:%s\"; } );\n",
             path);
    const char *books[3] = { "3 14\n5\n", "# a comment\n3 14\n\n5\n", "3 14\n6\n" };
    char *fp[3];
    for (int i = 0; i < 3; i++) {
        Experiment x;
        write_text(path, books[i]);
        parse_ok(&x, text, NULL);
        fp[i] = experiment_fingerprint(&x);
        experiment_free(&x);
    }
    unlink(path);
    assert_string_equal(fp[0], fp[1]);
    assert_string_not_equal(fp[0], fp[2]);
    for (int i = 0; i < 3; i++)
        free(fp[i]);
}

/* The fingerprint ignores comments, output, threads and batch, and sees everything else. */
static void test_fingerprint(void **state)
{
    (void)state;
    const char *texts[] = {
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 5; holes = 6; } );",
        ("# a comment\nseed = 1; output = \"b.h5\"; threads = 2; batch = 9;\n"
         "jobs = ( { holes = 6; games = 5; } );"),
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 6; holes = 6; } );",
        "seed = 2; output = \"a.h5\"; jobs = ( { games = 5; holes = 6; } );",
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 5; holes = 6; name = \"n\"; } );",
    };
    char *fp[5];
    for (int i = 0; i < 5; i++) {
        Experiment x;
        parse_ok(&x, texts[i], NULL);
        fp[i] = experiment_fingerprint(&x);
        experiment_free(&x);
    }
    assert_string_equal(fp[0], fp[1]);
    for (int i = 2; i < 5; i++)
        assert_string_not_equal(fp[0], fp[i]);
    for (int i = 0; i < 5; i++)
        free(fp[i]);
}

/* A job from game 0 keeps the fingerprint it had before first_game existed (its old journals
 * still resume: the exact text below is what they hold); a slice's says where it starts. */
static void test_fingerprint_first_game(void **state)
{
    (void)state;
    const char *texts[] = {
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 4; holes = 6; } );",
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 4; holes = 6; first_game = 0; } );",
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 4; holes = 6; first_game = 8; } );",
    };
    char *fp[3];
    for (int i = 0; i < 3; i++) {
        Experiment x;
        parse_ok(&x, texts[i], NULL);
        assert_int_equal(x.jobs[0].first_game, i == 2 ? 8 : 0);
        fp[i] = experiment_fingerprint(&x);
        experiment_free(&x);
    }
    assert_non_null(strstr(fp[0], " games=4\n"));
    assert_null(strstr(fp[0], "first_game"));
    assert_string_equal(fp[0], fp[1]);
    assert_non_null(strstr(fp[2], " games=4 first_game=8\n"));
    for (int i = 0; i < 3; i++)
        free(fp[i]);
}

/* `adjudicate`: off by default (the fingerprint as before it existed, so old journals resume,
 * and `adjudicate = false` the same), on in a job or in defaults, or for every job by
 * --adjudicate; the fingerprint names it only when on, and the quick form's text keeps it. */
static void test_adjudicate_key(void **state)
{
    (void)state;
    const char *texts[] = {
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 4; } );",
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 4; adjudicate = false; } );",
        "seed = 1; output = \"a.h5\"; jobs = ( { games = 4; adjudicate = true; } );",
        "seed = 1; output = \"a.h5\"; defaults = { adjudicate = true; };\n"
        "jobs = ( { games = 4; } );",
    };
    char *fp[4];
    for (int i = 0; i < 4; i++) {
        Experiment x;
        parse_ok(&x, texts[i], NULL);
        assert_int_equal(x.jobs[0].adjudicate, i >= 2);
        fp[i] = experiment_fingerprint(&x);
        experiment_free(&x);
    }
    assert_null(strstr(fp[0], "adjudicate"));
    assert_string_equal(fp[0], fp[1]);
    assert_non_null(strstr(fp[2], " adjudicate"));
    assert_string_equal(fp[2], fp[3]);
    for (int i = 0; i < 4; i++)
        free(fp[i]);

    Overrides o;
    Experiment x, again;
    Error e;
    overrides_none(&o);
    o.adjudicate = true;
    assert_int_equal(experiment_quick(&x, &o, &e), 0);
    assert_true(x.jobs[0].adjudicate);
    parse_ok(&again, x.text, NULL);
    assert_true(again.jobs[0].adjudicate);
    experiment_free(&again);
    experiment_free(&x);
}

/* A file that cannot be read is one line naming it. */
static void test_unreadable_file(void **state)
{
    (void)state;
    Experiment x;
    Error e;
    assert_int_equal(experiment_load(&x, "/nonexistent/x.cfg", NULL, &e), -1);
    assert_string_equal(e.msg, "/nonexistent/x.cfg: cannot open: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_sweeps),
        cmocka_unit_test(test_presets_and_int64),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_quick_form),
        cmocka_unit_test(test_fingerprint),
        cmocka_unit_test(test_fingerprint_book),
        cmocka_unit_test(test_fingerprint_first_game),
        cmocka_unit_test(test_adjudicate_key),
        cmocka_unit_test(test_openings_key),
        cmocka_unit_test(test_openings_order),
        cmocka_unit_test(test_tournament),
        cmocka_unit_test(test_unreadable_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
