/* cmd_bench.c: `anywoli bench`, seeded random games on three boards, timed, with a signature
 * that is the same for any number of threads (the check that an optimisation changed nothing). */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_search.h"
#include "cli.h"
#include "commands.h"
#include "game.h"

#define BENCH_SEED 20261129ULL
#define BENCH_DEFAULT_GAMES 20000
#define BENCH_SEARCH_MIN_GAMES 1000   /* fewer games: a quick check, without the searches */
#define BENCH_MAX_DEPTHS 16           /* depths --search-depths takes */
#define BENCH_MAX_DEPTH 64            /* the alpha-beta agent's deepest */

#define BENCH_PROTOCOL_GAMES 2000     /* --protocol's games, by default */

enum { OPT_THREADS = OPT_FIRST_FREE, OPT_GAMES, OPT_SEARCH, OPT_NO_SEARCH, OPT_SEARCH_DEPTHS,
       OPT_SEARCH_NODES, OPT_PROTOCOL };

static const char bench_usage[] =
    "usage: anywoli bench [--threads N] [--games N] [--search | --no-search]\n"
    "       anywoli bench [--threads N] --search-depths D[,D...]\n"
    "       anywoli bench [--threads N] --search-nodes K\n"
    "       anywoli bench --protocol SPEC [--games N]\n\n"
    "Play a fixed, seeded set of random-move games on the standard board and the two\n"
    "presets (N each, default 20000), printing one line per board with its games per\n"
    "second. Then run fixed alpha-beta and MCTS searches from fixed middle-game\n"
    "positions, a line each with nodes (or playouts) per second, and print their\n"
    "signature, `Search: <alpha-beta nodes> <hash of node counts, moves and values>`.\n"
    "Then the strong player searches the same positions to 1,000,000 nodes each, a\n"
    "line with its nodes per second and the average depth it completed, and its own\n"
    "signature, `StrongSearch: <nodes> <hash>`.\n"
    "Last comes the games' signature, `Bench: <total plies> <hash of all moves>`.\n"
    "Both signatures are the same for any number of threads.\n\n"
    "  --threads N   OpenMP threads (default: all cores)\n"
    "  --games N     games per board\n"
    "  --search      run the searches (the default with 1000 games or more)\n"
    "  --no-search   leave them out (the default below 1000 games)\n"
    "  --search-depths D[,D...]\n"
    "                only the alpha-beta searches, to each depth in turn (1 to\n"
    "                64): a line each with the nodes, seconds, a hash of the\n"
    "                values alone and one of the moves\n"
    "  --search-nodes K\n"
    "                only the strong player's searches, to K nodes a position\n"
    "  --protocol SPEC\n"
    "                only the cost of an agent's moves, through the game loop on\n"
    "                one thread: N games (default 2000) of SPEC against random,\n"
    "                then of random against random, a line each with the moves\n"
    "                agent A chose a second (for an external program, the line\n"
    "                protocol's round trip: scripts/protocol-bench.sh)\n";

/* The depths of --search-depths: a comma-separated list of 1 to BENCH_MAX_DEPTHS numbers. */
static int parse_depths(const char *text, int *depths)
{
    int n = 0;
    for (const char *s = text;; s++) {
        char item[32];
        size_t len = strcspn(s, ",");
        if (n == BENCH_MAX_DEPTHS)
            die("--search-depths: at most %d depths, got more in '%s'", BENCH_MAX_DEPTHS, text);
        snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), s);
        depths[n++] = (int)cli_number("--search-depths", item, 1, BENCH_MAX_DEPTH);
        s += len;
        if (!*s)
            return n;
    }
}

/* What one board's run produced. */
typedef struct BoardRun {
    uint64_t plies, hash;
    double seconds;
} BoardRun;

/* Play n seeded random games of v; combine per-game hashes in game order. */
static BoardRun bench_board(const Variant *v, uint64_t job, long n, int threads)
{
    GameRecord *rec = malloc((size_t)n * sizeof *rec);
    if (!rec)
        fail("out of memory for %ld game records", n);
    double t0 = omp_get_wtime();
    #pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
    for (long i = 0; i < n; i++)   /* as `run` plays a job of random agents */
        game_play_indexed(v, BENCH_SEED, job, (uint64_t)i, NULL, -1, NULL, NULL, NULL, &rec[i],
                          NULL);
    BoardRun run = { 0, 0, omp_get_wtime() - t0 };
    for (long i = 0; i < n; i++) {
        run.plies += rec[i].plies;
        run.hash = rng_mix64(run.hash ^ rec[i].moves_hash);
    }
    free(rec);
    return run;
}

/* Agent A (spec) against random for n games of the standard board on this thread, after one
 * game not timed (an external program's start and handshake): a line with A's moves a
 * second. */
static void bench_agent_moves(const char *spec, long n)
{
    Agent a, b;
    Error e;
    Variant v;
    variant_default(&v);
    if (variant_finish(&v, &e) != 0 || agent_create(&b, "random", &e) != 0)
        fail("%s", e.msg);
    if (agent_create(&a, spec, &e) != 0)
        die("--protocol: %s", e.msg);
    uint64_t moves = 0;
    double t0 = 0;
    for (long i = -1; i < n; i++) {
        GameRecord r;
        if (i == 0)
            t0 = omp_get_wtime();
        int rc = game_play_indexed(&v, BENCH_SEED, 0, (uint64_t)(i + 1), NULL, -1, &a, &b, NULL,
                                   &r, NULL);
        if (rc == AGENT_FAULT)
            fail("%s", agent_fault(&a));
        if (rc != 0)
            fail("agent %s gave up a game", spec);
        moves += i >= 0 ? r.choices_a : 0;
    }
    double seconds = omp_get_wtime() - t0;
    printf("protocol %s games=%ld moves=%" PRIu64 " seconds=%.3f moves/s=%.0f\n", spec, n, moves,
           seconds, seconds > 0 ? moves / seconds : 0.0);
    fflush(stdout);
    agent_free(&a);
    agent_free(&b);
}

int cmd_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        { "threads", required_argument, NULL, OPT_THREADS },
        { "games", required_argument, NULL, OPT_GAMES },
        { "search", no_argument, NULL, OPT_SEARCH },
        { "no-search", no_argument, NULL, OPT_NO_SEARCH },
        { "search-depths", required_argument, NULL, OPT_SEARCH_DEPTHS },
        { "search-nodes", required_argument, NULL, OPT_SEARCH_NODES },
        { "protocol", required_argument, NULL, OPT_PROTOCOL },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    int threads = omp_get_num_procs(), c;
    long games = BENCH_DEFAULT_GAMES;
    int search = -1;   /* -1: decided by the number of games */
    int depths[BENCH_MAX_DEPTHS], n_depths = 0;
    const char *protocol = NULL;
    bool games_given = false;
    uint64_t strong_nodes = 0;

    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        switch (c) {
        case OPT_THREADS: threads = (int)cli_number("--threads", optarg, 1, 4096); break;
        case OPT_GAMES:
            games = (long)cli_number("--games", optarg, 1, 100000000);
            games_given = true;
            break;
        case OPT_PROTOCOL: protocol = optarg; break;
        case OPT_SEARCH: search = 1; break;
        case OPT_NO_SEARCH: search = 0; break;
        case OPT_SEARCH_DEPTHS: n_depths = parse_depths(optarg, depths); break;
        case OPT_SEARCH_NODES:
            strong_nodes = (uint64_t)cli_number("--search-nodes", optarg, 1, 1e12);
            break;
        case OPT_HELP: printf("%s", bench_usage); return 0;
        }
    }
    if (optind != argc)
        die("unexpected argument '%s' (see --help)", argv[optind]);
    if (n_depths > 0) {
        bench_search_depths(threads, depths, n_depths);
        return 0;
    }
    if (strong_nodes > 0) {
        bench_strong(threads, strong_nodes);
        return 0;
    }
    if (protocol) {   /* the program's moves, then the same loop's in-process baseline */
        long n = games_given ? games : BENCH_PROTOCOL_GAMES;
        bench_agent_moves(protocol, n);
        bench_agent_moves("random", n);
        return 0;
    }

    uint64_t total_plies = 0, signature = 0;
    for (int b = 0; variant_preset_names[b]; b++) {
        Variant v;
        variant_preset(&v, variant_preset_names[b], NULL);
        BoardRun run = bench_board(&v, (uint64_t)b, games, threads);
        printf("bench %s games=%ld plies=%" PRIu64 " seconds=%.3f games/s=%.0f\n",
               variant_preset_names[b], games, run.plies, run.seconds,
               run.seconds > 0 ? games / run.seconds : 0.0);
        fflush(stdout);
        total_plies += run.plies;
        signature = rng_mix64(signature ^ run.hash);
    }
    if (search == 1 || (search == -1 && games >= BENCH_SEARCH_MIN_GAMES)) {
        bench_search(threads);
        bench_strong(threads, BENCH_STRONG_NODES);
    }
    /* The games' signature comes last, whatever else ran. */
    printf("Bench: %" PRIu64 " %016" PRIx64 "\n", total_plies, signature);
    return 0;
}
