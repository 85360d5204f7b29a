/* cmd_tables.c: `anywoli tables build` and `anywoli tables info`, endgame tables
 * (`tables agree` is in cmd_tables_agree.c). */
#include <libgen.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "commands.h"
#include "output.h"
#include "tables.h"

enum { OPT_MAX_SEEDS = OPT_FIRST_FREE, OPT_THREADS, OPT_FORCE, OPT_QUIET, OPT_ALL_LEVELS,
       OPT_WORK_DIR, OPT_ALSO, OPT_PEER_TIMEOUT };

static const char tables_usage[] =
    "usage: anywoli tables build [variant options] --max-seeds K -o FILE\n"
    "                            [--also CONVENTION=FILE ...] [--all-levels]\n"
    "                            [--threads N] [--work-dir DIR] [--force] [--quiet]\n"
    "                            [--peer-timeout S]\n"
    "       anywoli tables info FILE\n"
    "       anywoli tables agree TABLES RESULTS --agent SPEC ... (see agree --help)\n"
    "       anywoli tables compare FILE FILE... (see compare --help)\n\n"
    "build: the exact value of every position with at most K seeds on the board (each\n"
    "side to move and convention state) that a game from the start can reach, by\n"
    "retrograde analysis, level by level, into FILE (written as FILE.partial and\n"
    "renamed when complete). A level is the positions with L seeds on the board;\n"
    "every capture takes `capture` seeds, so a game reaches only the levels L with\n"
    "the total - L a multiple of `capture` (4, 8, 12, ... on the standard board), and\n"
    "only those are solved unless --all-levels. The value is the margin the side to\n"
    "move forces from there on, as `anywoli solve` defines it. A line for each level\n"
    "on standard error (placements, values, edges, list file, rounds, seconds, peak\n"
    "memory) unless --quiet. The predecessor lists live in work files in --work-dir\n"
    "while a level is solved (up to about 7 bytes a move without capture; unlinked at\n"
    "once). --also builds the board's tables under another convention in the same\n"
    "run, each move played once for all: three conventions cost about as much as one.\n"
    "Under mpirun (a build with MPI) the ranks share each level: each plays the moves\n"
    "of a block of its placements and recomputes them, and holds a copy of all the\n"
    "values; rank 0 writes the same file(s) as one process and adds a line a level\n"
    "with the ranks' figures (busiest rank / sum; see docs/tables.md). --threads is\n"
    "per rank.\n"
    "info: the variant, K, the levels held, the positions of each and a summary of\n"
    "their values; the file's checksums are checked.\n"
    "agree: the share of table-best moves each agent plays in the endgames of the\n"
    "stored games of a results file, with intervals.\n"
    "compare: the positions whose value and whose result differ between tables of\n"
    "one board under different conventions, level by level.\n\n"
    "  --max-seeds K    the largest number of seeds on the board (capture + 1 to 127)\n"
    "  -o, --output FILE\n"
    "                   the tables file to write (the variant's convention)\n"
    "  --also C=FILE    also write FILE, the tables under convention C (penultimate,\n"
    "                   first-final or lottery), built together with FILE above\n"
    "  --all-levels     every level capture + 1 to K, also those no game from the\n"
    "                   start reaches (for composed positions: `solve --tables`)\n"
    "  --threads N      OpenMP threads (default: all); the file is the same for any N\n"
    "  --work-dir DIR   where the work files go (default: the folder of FILE)\n"
    "  --force          overwrite an existing FILE (and --also's)\n"
    "  --quiet          no progress lines\n"
    CLI_PEER_TIMEOUT_HELP "\n";

/* A level done: one line on standard error, and under MPI one more with the ranks' figures,
 * each as the busiest rank's / the sum over the ranks. */
static void progress_line(const TablesLevelReport *r, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "level %d: %llu placements, %llu values, %llu edges (in-degree at most "
            "%d), list file %llu bytes, %d rounds, %llu updates, %.2f s, peak RSS %llu MiB\n",
            r->level, (unsigned long long)r->placements, (unsigned long long)r->values,
            (unsigned long long)r->edges, r->max_indegree, (unsigned long long)r->list_bytes,
            r->rounds, (unsigned long long)r->updates, r->seconds,
            (unsigned long long)(r->peak_rss >> 20));
    if (!r->ranks)
        return;
    const TablesRankFigures *b = &r->busiest, *a = &r->all;
    fprintf(stderr, "level %d on %d ranks (busiest/all): %llu/%llu placements owned, "
            "%llu/%llu edges, %llu/%llu updates, %llu/%llu bytes sent, %llu/%llu bytes "
            "received, %llu/%llu messages, %.2f/%.2f s, peak RSS at most %llu MiB\n",
            r->level, r->ranks, (unsigned long long)b->owned, (unsigned long long)a->owned,
            (unsigned long long)b->edges, (unsigned long long)a->edges,
            (unsigned long long)b->updates, (unsigned long long)a->updates,
            (unsigned long long)b->sent, (unsigned long long)a->sent,
            (unsigned long long)b->received, (unsigned long long)a->received,
            (unsigned long long)b->messages, (unsigned long long)a->messages, b->seconds,
            a->seconds, (unsigned long long)(r->peak_rss_max >> 20));
}

/* The ranks of an MPI launch, to share the build (each level's placements in blocks). */
static const TablesCluster *build_cluster(void)
{
    static TablesCluster c = { .share = cluster_share, .allgather = cluster_allgather,
                               .max = cluster_max, .sum = cluster_sum,
                               .calls = cluster_calls };
    if (!cluster_joined())
        return NULL;
    c.rank = cluster_rank();
    c.size = cluster_size();
    return &c;
}

/* The tables files of one build: the variant's convention first, then each --also. */
typedef struct BuildSet {
    int n;
    FinalFour conv[FF_NB];
    const char *path[FF_NB];
    Output out[FF_NB];
} BuildSet;

/* Build the tables, write each as FILE.partial and put that in place as FILE (rank 0
 * alone, under MPI: the others hold the same tables). */
static int build_and_publish(const Variant *v, int k, TablesLevels which,
                             const TablesBuildOptions *bo, bool quiet, BuildSet *set,
                             Error *e)
{
    Tables *t[FF_NB] = { NULL };
    double t0 = omp_get_wtime();
    int built_rc = tables_build_set(v, set->conv, set->n, k, which, bo,
                                    quiet ? NULL : progress_line, NULL, t, e);
    if (built_rc != 0)
        return built_rc;
    double built = omp_get_wtime() - t0;
    int rc = 0;
    for (int i = 0; i < set->n; i++) {
        const Output *o = &set->out[i];
        if (!cluster_leads()) {
            tables_free(t[i]);
            continue;
        }
        if (rc == 0)
            rc = tables_save(t[i], o->partial, e);
        if (rc == 0)
            rc = output_publish(o, o->partial, e);
        char levels[512];
        tables_describe_levels(t[i], levels, sizeof levels);
        if (rc == 0)
            printf("tables %s (%s): max_seeds %d, levels %s, %llu positions, %llu bytes, "
                   "%.2f s\n", o->path, final_four_name(set->conv[i]), k, levels,
                   (unsigned long long)tables_positions(t[i]),
                   (unsigned long long)(tables_positions(t[i]) + 4096), built);
        tables_free(t[i]);
    }
    return rc;
}

/* --also CONVENTION=FILE: one more file of the set; dies on a bad one. */
static void add_also(BuildSet *set, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        die("--also: '%s' is not CONVENTION=FILE (penultimate, first-final or lottery)", arg);
    char name[32];
    size_t len = (size_t)(eq - arg);
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), arg);
    Variant probe;
    variant_default(&probe);
    Error e;
    if (len >= sizeof name || variant_set(&probe, "final_four", name, &e) != 0)
        die("--also: '%.*s' is not a convention (expected penultimate, first-final or "
            "lottery)", (int)len, arg);
    if (set->n == FF_NB)
        die("--also: at most %d conventions are built together", FF_NB);
    set->conv[set->n] = probe.final_four;
    set->path[set->n++] = eq + 1;
}

/* The conventions of the set: each once; dies otherwise (the files: claim_set). */
static void check_set(const BuildSet *set)
{
    for (int i = 1; i < set->n; i++)
        for (int j = 0; j < i; j++)
            if (set->conv[i] == set->conv[j])
                die("--also %s: that convention is built already (-o or another --also)",
                    final_four_name(set->conv[i]));
}

/* Claim every file of the set (locked, refused when it exists without --force or is one
 * file named twice); on a refusal the files claimed are let go, and nothing is left beside
 * them. -1 with a message. */
static int claim_set(BuildSet *set, bool force, Error *e)
{
    for (int i = 0; i < set->n; i++) {
        /* a file named twice ("a.tb", "./a.tb", a link to the folder) is refused by the
         * claim (door.h) */
        int rc = cli_try_claim_output(&set->out[i], set->path[i], force, "tables build", e);
        if (rc != 0) {
            for (int j = 0; j < i; j++)
                output_release(&set->out[j]);
            return -1;
        }
    }
    return 0;
}

/* Under mpirun, stop (rank 0 saying why) unless every rank was given the same tables to build:
 * the board, K, the levels and the conventions (each rank reads its own command line). */
static void same_build_options_on_every_rank(const Variant *v, int k, TablesLevels which,
                                             const BuildSet *set)
{
    char text[512];
    variant_describe(v, text, 256);
    size_t used = strlen(text);
    used += (size_t)snprintf(text + used, sizeof text - used, " max_seeds=%d levels=%s", k,
                             which == TABLES_ALL_LEVELS ? "all" : "reachable");
    for (int i = 0; i < set->n && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, " %s",
                                 final_four_name(set->conv[i]));
    int other = cluster_first_differing(text);
    if (other >= 0)
        die("rank %d was given other tables to build than rank 0 (its board, --max-seeds, "
            "--all-levels or --also differ): every rank must be given the same", other);
}

/* anywoli tables build. */
static int tables_build_cmd(int argc, char **argv)
{
    static const struct option own[] = {
        { "max-seeds", required_argument, NULL, OPT_MAX_SEEDS },
        { "output", required_argument, NULL, 'o' },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "force", no_argument, NULL, OPT_FORCE },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "all-levels", no_argument, NULL, OPT_ALL_LEVELS },
        { "work-dir", required_argument, NULL, OPT_WORK_DIR },
        { "also", required_argument, NULL, OPT_ALSO },
        { "peer-timeout", required_argument, NULL, OPT_PEER_TIMEOUT },
        { NULL, 0, NULL, 0 },
    };
    VariantText vo = { 0 };
    long long k = -1, threads = 0;
    const char *out = NULL, *work = NULL;
    bool force = false, quiet = false;
    TablesLevels which = TABLES_REACHABLE_LEVELS;
    BuildSet set = { .n = 1 };
    int c;
    while ((c = cli_next_option(argc, argv, "o:", own, &vo)) != -1) {
        switch (c) {
        case OPT_MAX_SEEDS: k = cli_number("--max-seeds", optarg, 1, TABLES_MAX_SEEDS); break;
        case 'o': out = optarg; break;
        case OPT_THREADS: threads = cli_number("--threads", optarg, 1, 1024); break;
        case OPT_FORCE: force = true; break;
        case OPT_QUIET: quiet = true; break;
        case OPT_ALL_LEVELS: which = TABLES_ALL_LEVELS; break;
        case OPT_WORK_DIR: work = optarg; break;
        case OPT_ALSO: add_also(&set, optarg); break;
        case OPT_PEER_TIMEOUT: cli_peer_timeout(optarg); break;
        case OPT_HELP: printf("%s%s", tables_usage, cli_variant_help()); return 0;
        }
    }
    if (optind < argc)
        die("unexpected argument '%s'", argv[optind]);
    if (k < 0)
        die("--max-seeds K is required");
    if (!out)
        die("-o FILE is required");
    Variant v;
    Error e;
    cli_variant(&vo, &v);
    set.conv[0] = v.final_four;
    set.path[0] = out;
    check_set(&set);
    if (tables_check_size(&v, (int)k, which, &e) != 0)
        die("%s", e.msg);
    same_build_options_on_every_rank(&v, (int)k, which, &set);
    /* Rank 0 alone claims the files; every rank stops when it cannot (only rank 0 says so). */
    bool lead = cluster_leads();
    if (!cluster_all(!lead || claim_set(&set, force, &e) == 0))
        die("%s", e.msg);
    if (threads)
        omp_set_num_threads((int)threads);
    char *out_copy = strdup(out);
    if (!out_copy)
        fail("out of memory");
    TablesBuildOptions bo = { .work_dir = work ? work : dirname(out_copy),
                              .cluster = build_cluster() };
    int status = build_and_publish(&v, (int)k, which, &bo, quiet || !lead, &set, &e);
    for (int i = 0; lead && i < set.n; i++)
        output_release(&set.out[i]);
    free(out_copy);
    if (status == TABLES_IO_ERROR)
        die("%s", e.msg);   /* the disk or the work directory: exit 2, no file written */
    if (status != 0)
        fail("%s", e.msg);
    return 0;
}

/* What the levels held are: every level, those a game from the start reaches, or others. */
static const char *levels_note(const Tables *t)
{
    const Variant *v = tables_variant(t);
    bool all = true, reachable = true;
    for (int L = tables_first_level(t); L <= tables_max_seeds(t); L++) {
        all = all && tables_holds_level(t, L);
        reachable = reachable && tables_holds_level(t, L) == tables_level_reachable(v, L);
    }
    if (all)
        return "every level";
    return reachable ? "those a game from the start reaches" : "some levels";
}

/* anywoli tables info. */
static int tables_info_cmd(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("%s", tables_usage);
        return 0;
    }
    if (argc != 2)
        die("info takes one FILE (see --help)");
    Tables *t;
    Error e;
    if (tables_open(argv[1], &t, &e) != 0)
        die("%s", e.msg);
    char desc[256];
    variant_describe(tables_variant(t), desc, sizeof desc);
    int k = tables_max_seeds(t), first = tables_first_level(t);
    char levels[512];
    tables_describe_levels(t, levels, sizeof levels);
    printf("file %s\nformat %d\nvariant %s\nmax_seeds %d\n", argv[1], tables_format(t), desc, k);
    printf("levels %s (%s)\n", levels, levels_note(t));
    printf("convention_states %d\npositions %llu\nchecksum %016llx (checked)\n",
           tables_conv_states(t), (unsigned long long)tables_positions(t),
           (unsigned long long)tables_checksum(t));
    printf("levels 0 to %d: the game is over (final margins, not stored)\n", first - 1);
    printf("%5s %12s %12s %7s %7s %7s %5s %5s %7s\n", "level", "stored", "positions",
           "won", "drawn", "lost", "min", "max", "mean");
    for (int L = first; L <= k; L++) {
        if (!tables_holds_level(t, L))
            continue;
        TablesLevelStats s;
        tables_level_stats(t, L, &s);
        double n = s.positions ? (double)s.positions / 100 : 1;
        printf("%5d %12llu %12llu %6.1f%% %6.1f%% %6.1f%% %5d %5d %7.3f\n", L,
               (unsigned long long)(tables_level_positions(t, L)
                                    * (uint64_t)tables_conv_states(t)),
               (unsigned long long)s.positions, (double)s.wins / n, (double)s.draws / n,
               (double)s.losses / n, s.min, s.max, s.mean);
    }
    tables_free(t);
    return 0;
}

int cmd_tables(int argc, char **argv)
{
    if (argc < 2)
        die("expected build, info, agree or compare (see --help)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("%s%s", tables_usage, cli_variant_help());
        return 0;
    }
    if (strcmp(argv[1], "build") == 0)
        return tables_build_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "info") == 0)
        return tables_info_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "agree") == 0)
        return cmd_tables_agree(argc - 1, argv + 1);
    if (strcmp(argv[1], "compare") == 0)
        return cmd_tables_compare(argc - 1, argv + 1);
    die("unknown action '%s' (expected build, info, agree or compare)", argv[1]);
}
