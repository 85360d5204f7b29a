/* test_agents_cli.c: the `agents` and `play` subcommands end to end, with `play` driven
 * through a pipe as a person would type, and (slow) the search part of `bench`.
 *
 *   test_agents_cli PATH/TO/anywoli fast|slow */
#include "test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "eval.h"

static const char *anywoli;      /* argv[1] */
static char tmpdir[64];

/* What one run of the binary gave. */
typedef struct Run {
    int status;                  /* exit status */
    char *out, *err;             /* whole stdout and stderr */
    int err_lines;
} Run;

/* A whole file as a string (empty if missing). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    assert_non_null(mem);
    if (f) {
        int c;
        while ((c = fgetc(f)) != EOF)
            fputc(c, mem);
        fclose(f);
    }
    fclose(mem);
    return buf;
}

/* Run `anywoli ARGS` (ARGS already quoted for the shell) with `input` on stdin. */
static Run run(const char *input, const char *args)
{
    char in[128], out[128], err[128], cmd[4096];
    snprintf(in, sizeof in, "%s/in", tmpdir);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(err, sizeof err, "%s/err", tmpdir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs(input ? input : "", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' %s <'%s' >'%s' 2>'%s'", anywoli, args, in, out, err);
    int st = system(cmd);
    Run r = { WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(out), slurp(err), 0 };
    for (const char *s = r.err; *s; s++)
        r.err_lines += *s == '\n';
    return r;
}

/* Free a run's output. */
static void run_free(Run *r)
{
    free(r->out);
    free(r->err);
}

/* A bad input: status 2 and one stderr line, starting with the command, containing want. */
static void expect_error(const char *input, const char *args, const char *want)
{
    Run r = run(input, args);
    if (r.status != 2 || r.err_lines != 1 || strncmp(r.err, "anywoli ", 8) != 0 ||
        !strstr(r.err, want))
        fail_msg("anywoli %s: status %d, stderr '%s' (want status 2, one line with '%s')",
                 args, r.status, r.err, want);
    run_free(&r);
}

/* `agents` lists every agent of the registry with its options; with specs, prints each in
 * full; a bad spec is a one-line error. */
static void test_agents_command(void **state)
{
    (void)state;
    Run r = run(NULL, "agents");
    assert_int_equal(r.status, 0);
    for (int i = 0; agent_kind(i); i++) {
        char line[64];
        snprintf(line, sizeof line, "%s ", agent_kind(i)->name);
        if (strncmp(r.out, line, strlen(line)) != 0 && !strstr(r.out, line))
            fail_msg("agents: no line for '%s'", agent_kind(i)->name);
    }
    assert_non_null(strstr(r.out, "  depth=6 "));
    assert_non_null(strstr(r.out, "  w.store=1 "));
    assert_non_null(strstr(r.out, "  playouts=1000 "));
    assert_non_null(strstr(r.out, "  horizon=20 "));
    assert_non_null(strstr(r.out, "  policy=capture "));
    /* Every evaluation feature, with what it measures, at the value alphabeta plays it with
     * at its default depth (6: the tuned set, and its fade). */
    assert_non_null(strstr(r.out, "  fade=0.25 "));
    for (int t = 0; t < EVAL_NB; t++) {
        char line[256];
        snprintf(line, sizeof line, "  w.%s=%g ", eval_terms[t].name, eval_terms[t].tuned);
        const char *at = strstr(r.out, line);
        if (!at)
            fail_msg("agents: no line for %s", line);
        size_t n = strcspn(at, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, at);
        if (!strstr(line, eval_terms[t].help))
            fail_msg("agents: '%s' lacks its meaning", line);
    }
    assert_non_null(strstr(r.out, "capture-1 seeds (threes when capture is 4)"));
    run_free(&r);

    r = run(NULL, "agents random 'alphabeta:depth=3' 'mcts:reward=margin'");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "random\n"
                               "alphabeta:depth=3,nodes=0,tt=16,ties=random,margin=0,"
                               "temperature=0,choice_moves=0,quiesce=0,weights=auto,w.store=1,w.seeds=0.1,w.threes=0,"
                               "w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,w.final=0,fade=0\n"
                               "mcts:playouts=1000,c=0.35,reward=margin,horizon=20,policy=capture,"
                               "epsilon=0,tries=0,temperature=0,choice_moves=0,solver=1,minimax=0,squash=0,weights=store,expand=one,reuse=0,"
                               "w.store=1,w.seeds=0,w.threes=0,w.opp_threes=0,w.empty=0,"
                               "w.opp_empty=0,w.mobility=0,w.final=0,fade=0\n");
    run_free(&r);
    expect_error(NULL, "agents 'alphabeta:depth=99'", "depth=99 is out of range");
    expect_error(NULL, "agents nobody", "agent 'nobody': unknown");
    expect_error(NULL, "agents --frobnicate", "unknown option '--frobnicate' (see --help)");
    expect_error(NULL, "agents --hepl", "unknown option '--hepl'; did you mean '--help'?");
    r = run(NULL, "agents --help");
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "usage: anywoli agents", 21) == 0);
    run_free(&r);
}

/* The standard start as `play` shows it: North's row on top from N12 to N1 with North's
 * store at the left, South's row S1 to S12 with South's store at the right. */
static const char start_board[] =
    "\n"
    "          N12 N11 N10  N9  N8  N7  N6  N5  N4  N3  N2  N1\n"
    " North  0   4   4   4   4   4   4   4   4   4   4   4   4\n"
    "           4   4   4   4   4   4   4   4   4   4   4   4   0 South\n"
    "          S1  S2  S3  S4  S5  S6  S7  S8  S9 S10 S11 S12\n"
    "\n";

/* A whole game of two people through the pipe (Yit Nuri, 47 plies): the moves (always the
 * highest legal hole, typed as labels, some with the side's letter), the reports and the
 * final result as the engine computes them. */
static void test_play_two_people(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_variant("variant=yit-nuri", &v);
    pos_start(&v, &p);
    char input[8192] = "", line[32];
    size_t used = 0;
    int plies = 0, captures = 0;
    MoveEvent ev = EV_NEXT;
    while (!pos_over(&v, &p) && ev != EV_ENDLESS) {
        int hole = 63 - __builtin_clzll(pos_legal_mask(&v, &p));
        int k = hole - p.side * v.holes + 1;
        if (plies % 3)
            snprintf(line, sizeof line, "%d\n", k);
        else
            snprintf(line, sizeof line, "%c%d\n", p.side ? 'N' : 's', k);
        assert_true(used + strlen(line) < sizeof input);
        strcpy(input + used, line);
        used += strlen(line);
        MoveInfo info;
        ev = pos_play(&v, &p, hole, &p, &info, NULL);
        captures += (int)(info.mid_captures + info.final_capture);
        plies++;
    }
    assert_true(ev == EV_OVER && captures > 0);
    Run r = run(input, "play --south human --north human --variant yit-nuri");
    if (r.status != 0)
        fail_msg("play: status %d, stderr %s", r.status, r.err);
    assert_string_equal(r.err, "");
    Award a;
    Rng g;
    rng_seed(&g, 1, 0, 0);
    pos_award(&v, &p, &g, &a);
    char want[160];
    snprintf(want, sizeof want, "Game over after %d plies.", plies);
    assert_non_null(strstr(r.out, want));
    snprintf(want, sizeof want, " South %u, North %u: ", a.score[SOUTH], a.score[NORTH]);
    assert_non_null(strstr(r.out, want));
    assert_non_null(strstr(r.out, "; captures: "));
    assert_non_null(strstr(r.out, " lap"));
    assert_true(strncmp(r.out, "South: human\nNorth: human\n", 26) == 0);
    run_free(&r);

    r = run("quit\n", "play --south human --north human");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, start_board));
    assert_non_null(strstr(r.out, "South quits after 0 plies."));
    run_free(&r);
}

/* Wrong answers are refused with a reason on stderr and asked again; the end of the input
 * before the end of the game is an error. */
static void test_play_bad_input(void **state)
{
    (void)state;
    Run r = run("0\n13\nN2\nx\n\n3\n", "play --north human --quiet");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "'0': type a hole of South's, S1 to S12\n"));
    assert_non_null(strstr(r.err, "'13': type a hole"));
    assert_non_null(strstr(r.err, "'N2' is not one of South's holes"));
    assert_non_null(strstr(r.err, "'x': type a hole"));
    assert_non_null(strstr(r.err, "anywoli play: the input ended before the game did\n"));
    assert_non_null(strstr(r.out, "South plays S3: 5 laps; no capture. North to move.\n"));
    run_free(&r);
    /* After S3 and N1, South's hole S6 is empty. */
    r = run("3\n1\n6\nquit\n", "play --north human --quiet");
    assert_non_null(strstr(r.err, "S6 is empty"));
    assert_int_equal(r.status, 0);
    run_free(&r);
    expect_error(NULL, "play --south 'alphabeta:depth=0'", "--south: agent 'alphabeta'");
    expect_error(NULL, "play --north nobody", "--north: agent 'nobody': unknown");
    expect_error(NULL, "play --seed x", "--seed");
    expect_error(NULL, "play --holes 99", "holes");
    expect_error(NULL, "play extra", "unexpected argument");
    r = run(NULL, "play --help");
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "usage: anywoli play", 19) == 0);
    run_free(&r);
}

/* Two agents play a whole game with no input; the same seed plays the same game. */
static void test_play_agents(void **state)
{
    (void)state;
    const char *args = "play --south greedy --north 'alphabeta:depth=3' --holes 6 --seeds 3 "
                       "--seed 9 --final-four lottery";
    Run r1 = run(NULL, args), r2 = run(NULL, args);
    assert_int_equal(r1.status, 0);
    assert_string_equal(r1.out, r2.out);
    assert_non_null(strstr(r1.out, "(greedy: "));
    assert_non_null(strstr(r1.out, "(alphabeta: "));
    assert_true(strstr(r1.out, "Game over after ") || strstr(r1.out, "The game stops "));
    run_free(&r1);
    run_free(&r2);
    r1 = run(NULL, "play --south 'mcts:playouts=50' --north random --holes 4 --seeds 2 --quiet");
    assert_int_equal(r1.status, 0);
    assert_non_null(strstr(r1.out, "(mcts: reward "));
    assert_null(strstr(r1.out, " S1  S2"));   /* --quiet: no board */
    run_free(&r1);
}

/* The last line that starts with prefix, in a static buffer ("" if none). */
static const char *line_of(const char *text, const char *prefix)
{
    static char buf[256];
    buf[0] = '\0';
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
        if (strncmp(s, prefix, strlen(prefix)) == 0) {
            size_t n = strcspn(s, "\n");
            snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), s);
        }
    }
    return buf;
}

/* The search bench: its signature is the same for one and two threads, it follows the
 * searches, and the games' `Bench:` line stays last; it is left out below 1000 games or with
 * --no-search. */
static void test_bench_search(void **state)
{
    (void)state;
    Run r1 = run(NULL, "bench --games 1000 --threads 1");
    Run r2 = run(NULL, "bench --games 1000 --threads 2");
    assert_int_equal(r1.status, 0);
    assert_int_equal(r2.status, 0);
    char search[256];
    snprintf(search, sizeof search, "%s", line_of(r1.out, "Search: "));
    assert_true(strlen(search) > 8 + 17);
    assert_string_equal(search, line_of(r2.out, "Search: "));
    assert_string_equal(line_of(r1.out, "Bench: "), line_of(r2.out, "Bench: "));
    assert_non_null(strstr(r1.out, "\nbench search alphabeta depth="));
    assert_non_null(strstr(r1.out, " nodes/s="));
    assert_non_null(strstr(r1.out, "\nbench search mcts positions="));
    assert_non_null(strstr(r1.out, " playouts/s="));
    /* The order: the board lines, the search lines, Search:, and Bench: last. */
    assert_true(strstr(r1.out, "bench yit-jani") < strstr(r1.out, "bench search"));
    assert_true(strstr(r1.out, "bench search mcts") < strstr(r1.out, "Search: "));
    char bench[256];
    snprintf(bench, sizeof bench, "%s", line_of(r1.out, "Bench: "));
    size_t n = strlen(r1.out), k = strlen(bench);
    assert_true(n > k + 1 && r1.out[n - 1] == '\n');
    assert_memory_equal(r1.out + n - k - 1, bench, k);
    run_free(&r1);
    run_free(&r2);
    Run r3 = run(NULL, "bench --games 1000 --no-search");
    assert_null(strstr(r3.out, "Search: "));
    run_free(&r3);
    Run r4 = run(NULL, "bench --games 10");
    assert_null(strstr(r4.out, "Search: "));
    run_free(&r4);
}

/* bench --search-depths: a line a depth, each with the values' hash that the search had
 * before it was made to visit fewer nodes (the values must never change), and a one-line
 * error with status 2 for a bad list. */
static void test_bench_search_depths(void **state)
{
    (void)state;
    static const char *const want[] = {
        "bench search alphabeta depth=1 positions=32 nodes=",
        "values=b532331672daaf45 moves=",
        "bench search alphabeta depth=4 positions=32 nodes=",
        "values=ad27e2a2bddef614 moves=",
        "bench search alphabeta depth=6 positions=32 nodes=",
        "values=d084b9c5062ba742 moves=",
    };
    Run r = run(NULL, "bench --search-depths 1,4,6 --threads 1");
    assert_int_equal(r.status, 0);
    const char *at = r.out;
    for (int i = 0; i < 6; i++) {
        const char *hit = strstr(at, want[i]);
        if (!hit)
            fail_msg("bench --search-depths: '%s' not found after offset %d in:\n%s", want[i],
                     (int)(at - r.out), r.out);
        at = hit + strlen(want[i]);
    }
    assert_null(strchr(strchr(at, '\n') + 1, '\n'));   /* three lines, no more */
    /* The order key's waiting captures (alphabeta.c, AB_ORDER_THREAT) took depth 6 from
     * 130,640 nodes to 93,324: a ceiling between the two fails if the order loses them. */
    const char *d6 = strstr(r.out, "depth=6 positions=32 nodes=");
    assert_non_null(d6);
    long nodes6 = strtol(d6 + strlen("depth=6 positions=32 nodes="), NULL, 10);
    if (nodes6 > 100000)
        fail_msg("bench --search-depths: %ld nodes to depth 6, want at most 100000", nodes6);
    run_free(&r);
    static const char *const bad[][2] = {
        { "bench --search-depths 0",
          "anywoli bench: --search-depths: 0 is out of range (1 to 64)\n" },
        { "bench --search-depths 6,",
          "anywoli bench: --search-depths: '' is not a whole number\n" },
        { "bench --search-depths 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
          "anywoli bench: --search-depths: at most 16 depths, got more in "
          "'1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17'\n" },
    };
    for (int i = 0; i < 3; i++) {
        Run b = run(NULL, bad[i][0]);
        assert_int_equal(b.status, 2);
        assert_string_equal(b.err, bad[i][1]);
        assert_string_equal(b.out, "");
        run_free(&b);
    }
}

/* The output of `play` after its two header lines (the players' full specs, which name
 * options added since). */
static const char *after_header(const char *out)
{
    for (int i = 0; i < 2 && out; i++) {
        out = strchr(out, '\n');
        out = out ? out + 1 : NULL;
    }
    assert_non_null(out);
    return out;
}

/* The games of `play` commands, their output after the header, are exactly those recorded in
 * the data file `data` (tests/data/...). */
static void assert_plays_as_recorded(const char *const *games, size_t n, const char *data)
{
    char *got = NULL, path[512];
    size_t len = 0;
    FILE *mem = open_memstream(&got, &len);
    assert_non_null(mem);
    for (size_t i = 0; i < n; i++) {
        Run r = run(NULL, games[i]);
        assert_int_equal(r.status, 0);
        fputs(after_header(r.out), mem);
        run_free(&r);
    }
    fclose(mem);
    char *want = slurp(tu_data_path(data, path, sizeof path));
    assert_true(want[0] != '\0');
    assert_string_equal(got, want);
    free(got);
    free(want);
}

/* MCTS with solver=0 is the UCT agent from before the solver, bit for bit: the same games
 * (moves, rewards and playouts of every move) as recorded from that code in
 * tests/data/mcts/solver-off-games.txt, with random, greedy and margin playouts, a
 * temperature and the lottery. */
static void test_mcts_solver_off_replays(void **state)
{
    (void)state;
    static const char *const games[] = {
        "play --south 'mcts:playouts=300,policy=random,c=0.7,solver=0' "
        "--north 'mcts:playouts=200,reward=margin,c=1.2,policy=random,solver=0' "
        "--holes 6 --seeds 3 --seed 5 --quiet",
        "play --south 'mcts:playouts=150,policy=greedy,horizon=0,c=0.7,solver=0' "
        "--north 'mcts:playouts=250,temperature=1,choice_moves=8,policy=random,c=0.7,solver=0' "
        "--final-four lottery --holes 5 --seeds 4 --seed 9 --quiet",
    };
    assert_plays_as_recorded(games, sizeof games / sizeof games[0], "mcts/solver-off-games.txt");
}

/* The weights and fade that were alphabeta's defaults before the tuned ones, as a spec. */
#define OLD_DEFAULTS \
    "fade=0,w.store=1,w.seeds=0.1,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0," \
    "w.mobility=0,w.final=0"

/* The old defaults, written as a spec, play as the defaults did before the tuned ones, bit for bit:
 * the same games (moves, values and nodes of every move) as recorded from that code with
 * the default weights in tests/data/alphabeta/old-defaults-games.txt, with random and first
 * ties, quiesce, a margin, a temperature, no table and the lottery. */
static void test_alphabeta_old_defaults_replay(void **state)
{
    (void)state;
    static const char *const games[] = {
        "play --south 'alphabeta:depth=3," OLD_DEFAULTS "' "
        "--north 'alphabeta:depth=2,ties=first," OLD_DEFAULTS "' --seed 5 --quiet",
        "play --south 'alphabeta:depth=4,quiesce=2,margin=1,choice_moves=10," OLD_DEFAULTS "' "
        "--north 'alphabeta:depth=3,temperature=0.5," OLD_DEFAULTS "' --holes 6 --seeds 3 "
        "--seed 7 --quiet",
        "play --south 'alphabeta:depth=2,tt=0," OLD_DEFAULTS "' "
        "--north 'alphabeta:depth=5," OLD_DEFAULTS "' --final-four lottery --seed 9 --quiet",
    };
    assert_plays_as_recorded(games, sizeof games / sizeof games[0],
                             "alphabeta/old-defaults-games.txt");
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "fast") != 0 && strcmp(argv[2], "slow") != 0)) {
        fprintf(stderr, "usage: test_agents_cli PATH/TO/anywoli fast|slow\n");
        return 2;
    }
    anywoli = argv[1];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_agents_cli.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest fast[] = {
        cmocka_unit_test(test_agents_command),
        cmocka_unit_test(test_play_two_people),
        cmocka_unit_test(test_play_bad_input),
        cmocka_unit_test(test_play_agents),
        cmocka_unit_test(test_bench_search_depths),
        cmocka_unit_test(test_mcts_solver_off_replays),
        cmocka_unit_test(test_alphabeta_old_defaults_replay),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_bench_search),
    };
    int failed = strcmp(argv[2], "fast") == 0 ? cmocka_run_group_tests(fast, NULL, NULL)
                                              : cmocka_run_group_tests(slow, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return failed;
}
