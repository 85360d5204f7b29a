/* cmd_learn.c: `anywoli learn`, the learned evaluation's data and fit. `learn sample` plays
 * self-play games, takes positions from them and labels each with a deep alpha-beta value or
 * its endgame tables' exact value (sim/learn_data.c), into a data file; `learn fit` fits the
 * weights of the features (agents/learn_features.h) to those labels by ridge regression
 * (analysis/ridge.c, GSL), chooses lambda on held-out games, compares the fit with the tuned
 * evaluation on other held-out games, and writes the weights as a file or as the C table
 * that ships compiled in (agents/learned_weights.c). `learn net-error` measures a network
 * (agents/net.h) on the same rows and splits, beside the compiled-in learned set. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "eval.h"
#include "learn_data.h"
#include "learn_fit.h"
#include "learned.h"
#include "door.h"
#include "net.h"
#include "openings.h"
#include "ridge.h"
#include "tables.h"

enum {
    OPT_OUTPUT = OPT_FIRST_FREE, OPT_GAMES, OPT_FIRST, OPT_SEED, OPT_THREADS, OPT_SAMPLER,
    OPT_LABEL, OPT_DEPTH, OPT_TABLES, OPT_CONVENTIONS, OPT_OPENINGS, OPT_RATE, OPT_SKIP,
    OPT_RANDOM, OPT_PER_LEVEL, OPT_FORCE, OPT_QUIET, OPT_TARGET, OPT_LAMBDA, OPT_LAMBDAS,
    OPT_WEIGHTS_OUT, OPT_C_OUT, OPT_NAME, OPT_TOP, OPT_WITHOUT, OPT_FEATURES
};

/* The splits of games (learn_fit.h): 0-2 mod 5 fitted, 3 choose lambda, 4 test. */
enum { SPLIT_FIT = LEARN_SPLIT_FIT, SPLIT_CHOOSE = LEARN_SPLIT_CHOOSE,
       SPLIT_TEST = LEARN_SPLIT_TEST, SPLIT_NB = LEARN_SPLIT_NB };

#define LEARN_MAX_FILES 64

static const char learn_usage[] =
    "usage: anywoli learn sample -o FILE [variant options] [--games N]\n"
    "                            [--first-game N] [--seed N] [--sampler SPEC]\n"
    "                            [--label SPEC] [--depth D] [--tables FILE ...]\n"
    "                            [--conventions LIST] [--openings SPEC] [--rate P]\n"
    "                            [--per-level N] [--skip N] [--random P,MAX]\n"
    "                            [--max-plies N] [--threads N] [--force] [--quiet]\n"
    "       anywoli learn fit DATA... [--target depth|mean] [--lambda X]\n"
    "                         [--lambdas N] [--weights-out FILE] [--c-out FILE]\n"
    "                         [--name NAME] [--top N] [--without GROUPS]\n"
    "                         [--force]\n"
    "       anywoli learn net-error NET DATA...\n"
    "       anywoli learn base DATA... [--features]\n\n"
    "The learned evaluation (docs/learned.md): its data and its fit.\n\n"
    "sample: play self-play games with --sampler on both sides, each from an opening\n"
    "of --openings and under a convention of --conventions (game g: the list's g mod\n"
    "its length), take each position before a move from ply --skip on with\n"
    "probability --rate (at most --per-level of a game at one number of seeds on\n"
    "the board), move a share of them on by a few random plies (--random),\n"
    "and label each with its value for the side to move: the exact value where the\n"
    "tables of its convention hold it, else the --label search's at --depth (and\n"
    "at depth - 1), into FILE (HDF5; written as FILE.partial, renamed when done).\n"
    "Game g is a pure function of (seed, g): slices (--first-game) add up.\n\n"
    "  -o, --output FILE  the data file to write\n"
    "  --games N          games to play (default 100)\n"
    "  --first-game N     the first game's index (default 0)\n"
    "  --seed N           the sampling's seed (default 0)\n"
    "  --sampler SPEC     the agent playing both sides (default\n"
    "                     alphabeta:depth=4,temperature=1,margin=4)\n"
    "  --label SPEC       the alphabeta spec that labels: its evaluation and table\n"
    "                     (default alphabeta:tt=20, its weights the tuned set)\n"
    "  --depth D          the labelling search's depth (default 10)\n"
    "  --tables FILE      endgame tables (anywoli tables build) of the board, under\n"
    "                     the convention they were built for: exact labels where they\n"
    "                     hold the position, and the labelling search probes them\n"
    "                     (repeat for each convention)\n"
    "  --conventions LIST the games' conventions, e.g. penultimate,lottery (default\n"
    "                     all three; --final-four C alone: that one)\n"
    "  --openings SPEC    start, plies:N, all:N or file:PATH, as for run (default\n"
    "                     plies:4)\n"
    "  --rate P           the share of positions taken (default 0.1)\n"
    "  --per-level N      at most N positions of a game with the same seeds on the\n"
    "                     board (default 2; 0: no limit): a game's endgame may\n"
    "                     shuffle a few seeds for hundreds of plies\n"
    "  --skip N           none from the first N plies (default 4)\n"
    "  --random P,MAX     a share P of the positions taken is moved on by 1 to MAX\n"
    "                     random plies first (default 0.3,2; 0,0: none)\n"
    "  --max-plies N      the games' ply cap (default 1000)\n"
    "  --threads N        OpenMP threads (default: every core); the file is the same\n"
    "                     for any N\n"
    "  --force            replace an existing FILE\n"
    "  --quiet            no progress lines on standard error\n\n"
    "fit: fit the learned weights to the rows of the DATA files (one board) by least\n"
    "squares with ridge regularisation (GSL): each row's features for its side to\n"
    "move (agents/learn_features.h), each at the four knots of the phase, against\n"
    "its label less its store difference, in seeds. Games whose index is 3 mod 5\n"
    "choose lambda (the least squared error there over a grid), 4 mod 5 are held out\n"
    "to test; the rest are fitted. It prints the error (root mean square, seeds) on\n"
    "each split beside the tuned evaluation's (its scale fitted to the same rows)\n"
    "and the store difference alone, the fixed point's, and the features that\n"
    "weigh most (mean absolute contribution).\n\n"
    "  --target T         depth: the label (default); mean: the mean of the labels\n"
    "                     at depth and depth - 1 (the tables': the exact value)\n"
    "  --lambda X         this lambda instead of the grid's best\n"
    "  --lambdas N        the grid's size (default 40; GSL's log spacing)\n"
    "  --weights-out FILE the weights as a weights file (docs/learned.md)\n"
    "  --c-out FILE       the weights as C: agents/learned_weights.c\n"
    "  --name NAME        the set's name (default learned)\n"
    "  --top N            the features listed (default 20)\n"
    "  --without GROUPS   leave out groups of features (comma-separated): bias,\n"
    "                     holes.me, holes.op, seeds, moves.me, moves.op, laps.me,\n"
    "                     laps.op or convention; the evaluation then does not\n"
    "                     compute them\n"
    "  --force            replace existing output files\n\n"
    "net-error: the error of the network NET (a network file, agents/net.h, or\n"
    "`builtin`: the compiled-in one) on the rows of the DATA files (one board, the\n"
    "network's), split by game as fit splits them, against each row's label less\n"
    "its store difference, in seeds (root mean square): the float network's\n"
    "(net_float), the integers' the search plays (net_int), and the compiled-in\n"
    "learned set's on the same rows (learned; - on a board it is not for). Then\n"
    "the cost of one evaluation from scratch (the first layer's sums computed\n"
    "afresh) and of one learned_eval, in ns. Lines of words and numbers:\n"
    "  net NAME digest HEX holes H capture C buckets B hidden H1 H2\n"
    "  split fit|choose|test rows N net_float E net_int E learned E\n"
    "  test CONVENTION seeds LO-HI rows N net_float E net_int E learned E\n"
    "  cost net_full_ns X learned_ns Y\n"
    "The test lines break the test games down by convention and by the quarter of\n"
    "the board's seeds still on it (those with rows only).\n"
    "For a network with a base (the compiled-in learned set, agents/net.h),\n"
    "net_float and net_int are of its whole value, the base's part included.\n\n"
    "base: the compiled-in learned set's positional value (learned_positional,\n"
    "100 a seed, for the side to move) of each row of the DATA files (one board),\n"
    "in order: what a network with a base is trained on top of\n"
    "(scripts/net_train.py --base). Standard output, a header line and a value a\n"
    "line:\n"
    "  base learned NAME digest HEX rows N\n"
    "With --features, a second header line names the learned features a network\n"
    "may take as dense inputs (agents/net.h: the groups seeds, moves.me, moves.op,\n"
    "laps.me, laps.op and convention), and each row's line holds its base value,\n"
    "then those features' values for the side to move (net_train.py --dense):\n"
    "  features NAME...\n\n"
    "Exit status 0, 2 on a bad input, 1 when the machine fails.\n";

/* ---- shared ---- */

/* The command line as typed, for the data file (one line). */
static char *command_line(int argc, char **argv)
{
    size_t len = strlen("anywoli learn") + 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s)
        fail("out of memory");
    strcpy(s, "anywoli learn");
    for (int i = 0; i < argc; i++)
        strcat(strcat(s, " "), argv[i]);
    return s;
}

/* A share in [0, 1] for an option. */
static double share_option(const char *option, const char *text)
{
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (errno || end == text || *end || !(x >= 0 && x <= 1))
        die("%s %s: expected a number from 0 to 1", option, text);
    return x;
}

/* ---- sample ---- */

/* Parse --conventions LIST into s. */
static void parse_conventions(const char *list, LearnSampling *s)
{
    s->conventions = 0;
    for (const char *c = list; *c;) {
        size_t len = strcspn(c, ",");
        char name[32], names[80];
        snprintf(name, sizeof name, "%.*s", (int)len, c);
        int found = -1;
        for (int f = 0; f < FF_NB; f++)
            if (strcmp(name, final_four_name((FinalFour)f)) == 0)
                found = f;
        final_four_list(names, sizeof names);
        if (found < 0)
            die("--conventions: unknown convention '%s' (expected %s)", name, names);
        for (int i = 0; i < s->conventions; i++)
            if (s->convention[i] == (FinalFour)found)
                die("--conventions: '%s' is given twice", name);
        s->convention[s->conventions++] = (FinalFour)found;
        c += len;
        if (*c == ',' && *++c == '\0')
            die("--conventions: a convention is missing after the last comma");
    }
    if (s->conventions == 0)
        die("--conventions: expected a list such as penultimate,lottery");
}

/* Take a tables file for the convention it was built under (its board must be v's). */
static void add_tables(const char *path, LearnSampling *s)
{
    Tables *t;
    Error e;
    if (tables_open(path, &t, &e) != 0)
        die("--tables %s", e.msg);
    Variant tv = *tables_variant(t);
    FinalFour ff = tv.final_four;
    Variant v = s->variant;
    v.final_four = ff;
    int ok = tables_check_variant(t, &v, path, &e);
    tables_free(t);
    if (ok != 0)
        die("--tables: %s", e.msg);
    if (s->tables[ff])
        die("--tables: two files for %s (%s and %s)", final_four_name(ff), s->tables[ff],
            path);
    s->tables[ff] = path;
}

/* The progress line, every batch. */
static void sample_progress(const LearnProgress *p, void *ctx)
{
    const LearnSampling *s = ctx;
    static time_t start;
    if (!start)
        start = time(NULL);
    fprintf(stderr, "learn sample: %llu/%llu games, %llu positions (%llu from the tables), "
                    "%llu nodes, %.0f s\n", (unsigned long long)p->games,
            (unsigned long long)s->games, (unsigned long long)p->rows,
            (unsigned long long)p->tabled, (unsigned long long)p->nodes,
            difftime(time(NULL), start));
}

static int learn_sample_cmd(int argc, char **argv)
{
    static const struct option own[] = {
        { "output", required_argument, NULL, 'o' },
        { "games", required_argument, NULL, OPT_GAMES },
        { "first-game", required_argument, NULL, OPT_FIRST },
        { "seed", required_argument, NULL, OPT_SEED },
        { "sampler", required_argument, NULL, OPT_SAMPLER },
        { "label", required_argument, NULL, OPT_LABEL },
        { "depth", required_argument, NULL, OPT_DEPTH },
        { "tables", required_argument, NULL, OPT_TABLES },
        { "conventions", required_argument, NULL, OPT_CONVENTIONS },
        { "openings", required_argument, NULL, OPT_OPENINGS },
        { "rate", required_argument, NULL, OPT_RATE },
        { "per-level", required_argument, NULL, OPT_PER_LEVEL },
        { "skip", required_argument, NULL, OPT_SKIP },
        { "random", required_argument, NULL, OPT_RANDOM },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "force", no_argument, NULL, OPT_FORCE },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { NULL, 0, NULL, 0 },
    };
    VariantText vt = { 0 };
    LearnSampling s = { .sampler = "alphabeta:depth=4,temperature=1,margin=4",
                        .labeller = "alphabeta:tt=20", .openings_spec = "plies:4",
                        .games = 100, .rate = 0.1, .per_level = 2, .skip = 4, .random_share = 0.3,
                        .random_max = 2, .depth = 10, .max_plies = 1000 };
    const char *out = NULL, *conventions = NULL, *tables[LEARN_MAX_FILES];
    int n_tables = 0;
    long long threads = 0;
    bool force = false, quiet = false;
    int c;
    while ((c = cli_next_option(argc, argv, "o:", own, &vt)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case OPT_GAMES: s.games = (uint64_t)cli_number("--games", optarg, 1, 1000000000); break;
        case OPT_FIRST:
            s.first_game = (uint64_t)cli_number("--first-game", optarg, 0, 1000000000000LL);
            break;
        case OPT_SEED:
            s.seed = (uint64_t)cli_number("--seed", optarg, 0, INT64_MAX);
            break;
        case OPT_SAMPLER: s.sampler = optarg; break;
        case OPT_LABEL: s.labeller = optarg; break;
        case OPT_DEPTH: s.depth = (int)cli_number("--depth", optarg, 1, 64); break;
        case OPT_TABLES:
            if (n_tables == LEARN_MAX_FILES)
                die("--tables: at most %d files", LEARN_MAX_FILES);
            tables[n_tables++] = optarg;
            break;
        case OPT_CONVENTIONS: conventions = optarg; break;
        case OPT_OPENINGS: s.openings_spec = optarg; break;
        case OPT_RATE: s.rate = share_option("--rate", optarg); break;
        case OPT_PER_LEVEL:
            s.per_level = (int)cli_number("--per-level", optarg, 0, 65535);
            break;
        case OPT_SKIP: s.skip = (int)cli_number("--skip", optarg, 0, 1000000); break;
        case OPT_RANDOM: {
            char *comma = strchr(optarg, ',');
            if (!comma)
                die("--random %s: expected P,MAX such as 0.3,2", optarg);
            *comma = '\0';
            s.random_share = share_option("--random", optarg);
            s.random_max = (int)cli_number("--random", comma + 1, 0, 64);
            break;
        }
        case OPT_THREADS: threads = cli_number("--threads", optarg, 1, 1024); break;
        case OPT_FORCE: force = true; break;
        case OPT_QUIET: quiet = true; break;
        case OPT_HELP: printf("%s%s", learn_usage, cli_variant_help()); return 0;
        }
    }
    if (optind < argc)
        die("unexpected argument '%s'", argv[optind]);
    if (!out)
        die("-o FILE is required");
    cli_variant(&vt, &s.variant);
    /* --max-plies is the variant option (read there, range and all); here no value depends
     * on it, so it is the sampling games' cap, with a default of its own. */
    if (vt.value[VP_MAX_PLIES])
        s.max_plies = s.variant.max_plies;
    if (conventions)
        parse_conventions(conventions, &s);
    else if (vt.value[VP_FINAL_FOUR])
        s.convention[s.conventions++] = s.variant.final_four;
    else
        parse_conventions("penultimate,first-final,lottery", &s);
    for (int i = 0; i < n_tables; i++)
        add_tables(tables[i], &s);
    Error e;
    OpeningSet os;
    if (openings_load(&os, s.openings_spec, &s.variant, &e) != 0)
        die("--openings: %s", e.msg);
    s.openings = &os;
    LearnFiles files;
    if (learn_check(&s, &e) != 0 || learn_player_files(&s, &files, &e) != 0)
        die("%s", e.msg);
    Output o;
    cli_claim_output(&o, out, force, "learn sample");
    LearnRows rows = { 0 };
    int rc = learn_sample(&s, (int)threads, &rows, quiet ? NULL : sample_progress, &s, &e);
    char *cmd = command_line(argc, argv);
    if (rc == 0)
        rc = learn_file_write(o.partial, &s, &files, &rows, cmd, &e);
    if (rc == 0)
        rc = output_flush_file(o.partial, &e);
    if (rc == 0)
        rc = output_publish(&o, o.partial, &e);
    else
        unlink(o.partial);
    output_release(&o);
    free(cmd);
    openings_free(&os);
    if (rc != 0)
        fail("%s", e.msg);
    uint64_t tabled = 0;
    for (uint64_t i = 0; i < rows.n; i++)
        tabled += rows.row[i].source == LEARN_TABLES;
    printf("learn sample %s: %llu games, %llu positions (%llu labelled by the tables, the "
           "others by depth %d)\n", out, (unsigned long long)s.games,
           (unsigned long long)rows.n, (unsigned long long)tabled, s.depth);
    learn_rows_free(&rows);
    return 0;
}

/* ---- fit ---- */

/* The root mean squared error of the fixed point on a split: learned_positional of the
 * prepared set against each row's target. */
static double fixed_point_rms(const LearnData *files, int n_files, const Learned *L, bool mean,
                              int split)
{
    double sum = 0;
    uint64_t n = 0;
    for (int i = 0; i < n_files; i++) {
        for (uint64_t j = 0; j < files[i].rows.n; j++) {
            const LearnRow *r = &files[i].rows.row[j];
            if (learn_split_of(r) != split)
                continue;
            Variant v;
            Position p;
            learn_row_position(&files[i].variant, r, &v, &p);
            double d = (double)learned_positional(L, &v, &p) / EVAL_SCALE - learn_target_of(r, mean);
            sum += d * d;
            n++;
        }
    }
    return n ? sqrt(sum / (double)n) : 0;
}

/* Seconds since some fixed point, for timing only. */
static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The wall time of one call of learned_eval and of eval_position (the tuned set), in
 * nanoseconds, over the test positions (each pass of them repeated until it took 0.2 s):
 * what a search pays at each position it evaluates. Informational: nothing depends on it. */
static void time_evaluations(const LearnData *files, int n_files, const Learned *L,
                             double *ns_learned, double *ns_tuned)
{
    uint64_t n = 0;
    for (int i = 0; i < n_files; i++)
        for (uint64_t j = 0; j < files[i].rows.n; j++)
            n += learn_split_of(&files[i].rows.row[j]) == SPLIT_TEST;
    Position *p = malloc((n ? n : 1) * sizeof *p);
    Variant *v = malloc((n ? n : 1) * sizeof *v);
    if (!p || !v)
        fail("out of memory");
    n = 0;
    for (int i = 0; i < n_files; i++)
        for (uint64_t j = 0; j < files[i].rows.n; j++)
            if (learn_split_of(&files[i].rows.row[j]) == SPLIT_TEST) {
                learn_row_position(&files[i].variant, &files[i].rows.row[j], &v[n], &p[n]);
                n++;
            }
    EvalWeights tw;
    eval_default(&tw);
    eval_use_tuned(&tw);
    Evaluator tuned;
    eval_prepare(&tw, &tuned);
    volatile int64_t sink = 0;   /* keeps the calls from being optimised away */
    for (int which = 0; which < 2; which++) {
        uint64_t calls = 0;
        double start = seconds_now(), took;
        do {
            int64_t sum = 0;
            for (uint64_t i = 0; i < n; i++)
                sum += which == 0 ? learned_eval(L, &v[i], &p[i])
                                  : eval_position(&tuned, &v[i], &p[i]);
            sink += sum;
            calls += n;
            took = seconds_now() - start;
        } while (n && took < 0.2);
        *(which == 0 ? ns_learned : ns_tuned) = calls ? 1e9 * took / (double)calls : 0;
    }
    free(p);
    free(v);
}

/* The mean absolute contribution of each column (and of each group of features) to the
 * value, over the rows fitted, and each group's standard deviation: how much it moves the
 * value from one position to another (a group's mean can be large and yet nearly constant,
 * an offset the bias would carry as well). */
static void contributions(const LearnData *files, int n_files, const FeatureLayout *l,
                          const double *w, double *col_mean, double *group_mean,
                          double *group_sd)
{
    size_t k = (size_t)l->n * FEATURE_KNOTS;
    double sum[FG_NB] = { 0 }, squares[FG_NB] = { 0 };
    memset(col_mean, 0, k * sizeof *col_mean);
    memset(group_mean, 0, FG_NB * sizeof *group_mean);
    uint32_t col[2 * FEATURE_MAX_ACTIVE];
    double x[2 * FEATURE_MAX_ACTIVE];
    uint64_t n = 0;
    for (int i = 0; i < n_files; i++) {
        for (uint64_t j = 0; j < files[i].rows.n; j++) {
            const LearnRow *r = &files[i].rows.row[j];
            if (learn_split_of(r) != SPLIT_FIT)
                continue;
            Variant v;
            Position p;
            learn_row_position(&files[i].variant, r, &v, &p);
            int nnz = learn_row_columns(l, &v, &p, col, x);
            double group[FG_NB] = { 0 };
            for (int a = 0; a < nnz; a++) {
                double c = w[col[a]] * x[a];
                col_mean[col[a]] += fabs(c);
                group[features_group(l, (int)(col[a] / FEATURE_KNOTS))] += c;
            }
            for (int g = 0; g < FG_NB; g++) {
                group_mean[g] += fabs(group[g]);
                sum[g] += group[g];
                squares[g] += group[g] * group[g];
            }
            n++;
        }
    }
    const double rows = n ? (double)n : 1;
    for (size_t c = 0; c < k; c++)
        col_mean[c] /= rows;
    for (int g = 0; g < FG_NB; g++) {
        group_mean[g] /= rows;
        double var = squares[g] / rows - (sum[g] / rows) * (sum[g] / rows);
        group_sd[g] = var > 0 ? sqrt(var) : 0;
    }
}

/* Write a set to its claimed output o: as a weights file, or as C. */
static void write_set(const LearnedSet *set, Output *o, bool as_c)
{
    Error e;
    FILE *f = output_stream_open(o, &e);
    int rc = f ? 0 : -1;
    if (rc == 0)
        rc = output_stream_close(o, f, as_c ? learned_set_write_c(set, f, &e)
                                            : learned_set_write(set, f, &e), &e);
    output_release(o);
    if (rc != 0)
        fail("%s", e.msg);
}

/* Parse --without's groups into a mask of them. */
static unsigned parse_groups(const char *list)
{
    unsigned mask = 0;
    for (const char *c = list; *c;) {
        size_t len = strcspn(c, ",");
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)len, c);
        int g = features_group_lookup(key);
        if (g < 0)
            die("--without: unknown group '%s' (expected bias, holes.me, holes.op, seeds, "
                "moves.me, moves.op, laps.me, laps.op or convention)", key);
        mask |= 1u << g;
        c += len;
        if (*c == ',' && *++c == '\0')
            die("--without: a group is missing after the last comma");
    }
    if (!mask)
        die("--without: expected groups such as moves.op,seeds");
    return mask;
}

/* The DATA files of learn fit, learn net-error and learn base, all of one board: the first fault ends
 * the command with one line naming the file. */
static void read_data_files(char **paths, int n, LearnData *files)
{
    Error e;
    for (int i = 0; i < n; i++) {
        if (learn_file_read(paths[i], &files[i], &e) != 0)
            die("%s", e.msg);
        if (i > 0 && !variant_same_play(&files[i].variant, &files[0].variant))
            die("%s: another board than %s's", paths[i], paths[0]);
    }
}

/* The index order of the largest values first. */
static const double *sort_values;
static int by_value_desc(const void *a, const void *b)
{
    double x = sort_values[*(const int *)a], y = sort_values[*(const int *)b];
    return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

static int learn_fit_cmd(int argc, char **argv)
{
    static const struct option opts[] = {
        { "target", required_argument, NULL, OPT_TARGET },
        { "lambda", required_argument, NULL, OPT_LAMBDA },
        { "lambdas", required_argument, NULL, OPT_LAMBDAS },
        { "weights-out", required_argument, NULL, OPT_WEIGHTS_OUT },
        { "c-out", required_argument, NULL, OPT_C_OUT },
        { "name", required_argument, NULL, OPT_NAME },
        { "top", required_argument, NULL, OPT_TOP },
        { "without", required_argument, NULL, OPT_WITHOUT },
        { "force", no_argument, NULL, OPT_FORCE },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    bool mean = false, force = false, fixed_lambda = false;
    double lambda = 0;
    long long n_lambdas = LEARN_DEFAULT_LAMBDAS, top = 20;
    const char *weights_out = NULL, *c_out = NULL, *name = "learned";
    unsigned without = 0;
    int c;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        switch (c) {
        case OPT_TARGET:
            if (strcmp(optarg, "depth") != 0 && strcmp(optarg, "mean") != 0)
                die("--target %s: expected depth or mean", optarg);
            mean = strcmp(optarg, "mean") == 0;
            break;
        case OPT_LAMBDA: {
            char *end;
            errno = 0;
            lambda = strtod(optarg, &end);
            if (errno || end == optarg || *end || !(lambda >= 0 && lambda < 1e12))
                die("--lambda %s: expected a number of at least 0", optarg);
            fixed_lambda = true;
            break;
        }
        case OPT_LAMBDAS: n_lambdas = cli_number("--lambdas", optarg, 2, 1000); break;
        case OPT_WEIGHTS_OUT: weights_out = optarg; break;
        case OPT_C_OUT: c_out = optarg; break;
        case OPT_NAME:
            if (!*optarg || strlen(optarg) > 60 || strpbrk(optarg, " \t\n\"\\"))
                die("--name '%s': expected a word of at most 60 characters", optarg);
            name = optarg;
            break;
        case OPT_TOP: top = cli_number("--top", optarg, 0, 100000); break;
        case OPT_WITHOUT: without = parse_groups(optarg); break;
        case OPT_FORCE: force = true; break;
        case OPT_HELP: printf("%s%s", learn_usage, cli_variant_help()); return 0;
        }
    }
    int n_files = argc - optind;
    if (n_files < 1)
        die("expected DATA files (see --help)");
    if (n_files > LEARN_MAX_FILES)
        die("at most %d DATA files", LEARN_MAX_FILES);
    LearnData files[LEARN_MAX_FILES];
    Error e;
    /* Both outputs claimed before anything is read or written: one named twice, or named as
     * a DATA file, is refused with nothing made. */
    Output outs[2];
    if (weights_out)
        cli_claim_output(&outs[0], weights_out, force, "learn fit");
    if (c_out)
        cli_claim_output(&outs[1], c_out, force, "learn fit");
    read_data_files(argv + optind, n_files, files);
    /* Steps 1 and 2 (learn_fit.h): the normal equations of each split, the fit at each
     * lambda of the grid, the best on the choosing split. */
    LearnFitSpec spec = { .without = without, .mean = mean, .lambdas = (int)n_lambdas,
                          .fixed_lambda = fixed_lambda, .lambda = lambda };
    LearnFit g;
    int fitted = learn_fit(files, n_files, &spec, &g, &e);
    if (fitted == -2)
        die("%s", e.msg);
    if (fitted != 0)
        fail("%s", e.msg);
    const FeatureLayout l = g.layout;
    const size_t k = g.k;
    const double *best_w = g.w, best_lambda = g.lambda;
    double smax, smin;
    ridge_singular_range(g.fit, &smax, &smin);

    /* Step 3. The errors, the tuned evaluation's (its scales fitted on the rows fitted). */
    const double a_tuned = g.a_tuned, a_pos = g.a_pos;
    static const char *const split_names[SPLIT_NB] = { "fitted", "choosing lambda", "test" };
    uint64_t games[SPLIT_NB] = { 0 };
    for (int i = 0; i < n_files; i++) {
        uint64_t last = UINT64_MAX;
        for (uint64_t j = 0; j < files[i].rows.n; j++) {
            const LearnRow *r = &files[i].rows.row[j];
            games[learn_split_of(r)] += r->game != last;
            last = r->game;
        }
    }
    printf("learn fit: %d file%s, board holes=%d capture=%d; %d features x %d knots = %zu "
           "weights (%zu ever non-zero)\n", n_files, n_files == 1 ? "" : "s", l.holes,
           l.capture, l.n, FEATURE_KNOTS, k, ridge_columns(g.fit));
    printf("target: %s, less the store difference\n",
           mean ? "the mean of the labels at depth and depth - 1" : "the label");
    printf("lambda %.6g (%s; singular values %.4g .. %.4g)\n", best_lambda,
           fixed_lambda ? "given" : "the grid's best on the choosing split", smax, smin);
    printf("tuned evaluation scaled by %.4f (whole value) or %.4f (positional part, store "
           "fixed)\n", a_tuned, a_pos);
    printf("%-16s %7s %9s %8s %9s %9s %9s %9s\n", "split", "games", "positions", "tabled",
           "learned", "tuned", "tuned-pos", "store");
    for (int s = 0; s < SPLIT_NB; s++) {
        printf("%-16s %7llu %9llu %8llu %9.3f %9.3f %9.3f %9.3f\n", split_names[s],
               (unsigned long long)games[s], (unsigned long long)g.sums[s].n,
               (unsigned long long)g.tabled[s], sqrt(ridge_mse(&g.sums[s], best_w)),
               learn_scale_rms(&g.tuned[s], a_tuned), learn_scale_rms(&g.positional[s], a_pos),
               sqrt(g.sums[s].yy / (double)g.sums[s].n));
    }
    printf("(root mean squared error in seeds against the target: learned; tuned scaled; "
           "tuned's positional part scaled, store fixed; the store difference alone)\n");

    /* Step 4. The set, in fixed point as the search weighs it. */
    char about[256];
    snprintf(about, sizeof about, "anywoli learn fit: %llu positions fitted, lambda %.4g, "
             "test error %.3f seeds (tuned %.3f)", (unsigned long long)g.sums[SPLIT_FIT].n,
             best_lambda, sqrt(ridge_mse(&g.sums[SPLIT_TEST], best_w)),
             learn_scale_rms(&g.tuned[SPLIT_TEST], a_tuned));
    LearnedSet *set = learned_set_make(name, &l, best_w, about);
    Learned *L;
    if (!set)
        fail("out of memory");
    if (learned_prepare(set, &files[0].variant, &L, &e) != 0)
        fail("%s", e.msg);
    printf("fixed point (learned_eval): test error %.3f seeds\n",
           fixed_point_rms(files, n_files, L, mean, SPLIT_TEST));
    double ns_learned = 0, ns_tuned = 0;
    time_evaluations(files, n_files, L, &ns_learned, &ns_tuned);
    printf("cost per call on the test positions: learned_eval %.0f ns, eval_position (tuned) "
           "%.0f ns (%.1f times; wall time, this machine)\n", ns_learned, ns_tuned,
           ns_tuned > 0 ? ns_learned / ns_tuned : 0);
    learned_free(L);

    /* Step 5. What carries the weight. */
    double *col_mean = malloc(k * sizeof *col_mean), group_mean[FG_NB], group_sd[FG_NB];
    int *order = malloc(k * sizeof *order);
    if (!col_mean || !order)
        fail("out of memory");
    contributions(files, n_files, &l, best_w, col_mean, group_mean, group_sd);
    printf("%-16s %10s %10s  (the fitted positions, seeds)\n", "group", "mean |sum|", "sd");
    for (int gi = 0; gi < FG_NB; gi++)
        if (l.groups & 1u << gi)
            printf("%-16s %10.3f %10.3f\n", features_group_name((FeatureGroup)gi),
                   group_mean[gi], group_sd[gi]);
    for (size_t i = 0; i < k; i++)
        order[i] = (int)i;
    sort_values = col_mean;
    qsort(order, k, sizeof *order, by_value_desc);
    if (top > 0)
        printf("%-22s %5s %10s %10s\n", "feature", "knot", "weight", "mean |w x|");
    for (long long i = 0; i < top && i < (long long)k && col_mean[order[i]] > 0; i++) {
        char fname[64];
        features_name(&l, order[i] / FEATURE_KNOTS, fname, sizeof fname);
        printf("%-22s %2d/12 %10.4f %10.4f\n", fname,
               feature_knot_twelfths[order[i] % FEATURE_KNOTS], best_w[order[i]],
               col_mean[order[i]]);
    }
    if (weights_out)
        write_set(set, &outs[0], false);
    if (c_out)
        write_set(set, &outs[1], true);
    learned_set_free(set);
    free(col_mean);
    free(order);
    learn_fit_free(&g);
    for (int i = 0; i < n_files; i++)
        learn_data_free(&files[i]);
    return 0;
}

/* ---- net-error ---- */

/* The squared errors of a set of rows: one split, or one cell of the test split. */
typedef struct NetErrors {
    uint64_t rows;
    double net_float, net_int, learned;
} NetErrors;

/* The test split's rows are also broken down by convention and by the quarter of the
 * board's seeds still on it (1 to a quarter of them, the endgame, up to all of them), so
 * that a network's error can be read where play decides (docs/learned.md). */
enum { NET_PHASES = 4 };

typedef struct NetErrorCells {
    NetErrors split[SPLIT_NB];
    NetErrors test[FF_NB][NET_PHASES];
} NetErrorCells;

/* The most seeds on the board in quarter q of the board's `total`: ceil((q + 1) total / 4),
 * so that quarter q holds from phase_top(q - 1) + 1 (quarter 0: from none) to this. */
static int phase_top(int q, int total)
{
    return ((q + 1) * total + NET_PHASES - 1) / NET_PHASES;
}

/* The quarter that `on_board` of the board's `total` seeds fall in. */
static int phase_of(int on_board, int total)
{
    int q = 0;
    while (q < NET_PHASES - 1 && on_board > phase_top(q, total))
        q++;
    return q;
}

static void add_error(NetErrors *e, double d_float, double d_int, double d_learned)
{
    e->rows++;
    e->net_float += d_float * d_float;
    e->net_int += d_int * d_int;
    e->learned += d_learned * d_learned;
}

/* Each row's errors added to its split's, and a test row's to its cell: the float network's,
 * the integers' and (L not NULL) the learned set's. */
static void net_errors(const LearnData *files, int n_files, const NetFile *f, const Net *n,
                       const Learned *L, NetErrorCells *out)
{
    for (int i = 0; i < n_files; i++)
        for (uint64_t j = 0; j < files[i].rows.n; j++) {
            const LearnRow *r = &files[i].rows.row[j];
            Variant v;
            Position p;
            learn_row_position(&files[i].variant, r, &v, &p);
            double t = learn_target_of(r, false);
            NetAcc a;
            net_acc_full(n, &v, &p, &a);
            double d_float = net_positional_float(f, &v, &p) +
                             (double)net_base_value(n, &v, &p) / EVAL_SCALE - t;
            double d_int = (double)net_positional(n, &v, &p, &a) / EVAL_SCALE - t;
            double d_learned = L ? (double)learned_positional(L, &v, &p) / EVAL_SCALE - t : 0;
            int split = learn_split_of(r);
            add_error(&out->split[split], d_float, d_int, d_learned);
            if (split == SPLIT_TEST && r->convention >= 0 && r->convention < FF_NB)
                add_error(&out->test[r->convention][phase_of(p.left, v.total)], d_float, d_int,
                          d_learned);
        }
}

/* One line's errors: rows, then each root mean square (`learned -` without L). */
static void print_errors(const NetErrors *e, bool learned)
{
    double rows = e->rows ? (double)e->rows : 1;
    printf(" rows %llu net_float %.4f net_int %.4f", (unsigned long long)e->rows,
           sqrt(e->net_float / rows), sqrt(e->net_int / rows));
    if (learned)
        printf(" learned %.4f\n", sqrt(e->learned / rows));
    else
        printf(" learned -\n");
}

/* The wall time of one evaluation, in ns, over the rows' positions (each pass repeated until
 * it took 0.2 s): the network's from scratch (net_acc_full and net_eval) and learned_eval
 * (L not NULL). Informational. */
static void net_costs(const LearnData *files, int n_files, const Net *n, const Learned *L,
                      double *ns_net, double *ns_learned)
{
    uint64_t total = 0;
    for (int i = 0; i < n_files; i++)
        total += files[i].rows.n;
    Position *p = malloc((total ? total : 1) * sizeof *p);
    Variant *v = malloc((total ? total : 1) * sizeof *v);
    if (!p || !v)
        fail("out of memory");
    uint64_t k = 0;
    for (int i = 0; i < n_files; i++)
        for (uint64_t j = 0; j < files[i].rows.n; j++, k++)
            learn_row_position(&files[i].variant, &files[i].rows.row[j], &v[k], &p[k]);
    volatile int64_t sink = 0;   /* keeps the calls from being optimised away */
    for (int which = 0; which < (L ? 2 : 1); which++) {
        uint64_t calls = 0;
        double start = seconds_now(), took;
        do {
            int64_t sum = 0;
            for (uint64_t i = 0; i < k; i++) {
                if (which == 0) {
                    NetAcc a;
                    net_acc_full(n, &v[i], &p[i], &a);
                    sum += net_eval(n, &v[i], &p[i], &a);
                } else {
                    sum += learned_eval(L, &v[i], &p[i]);
                }
            }
            sink += sum;
            calls += k;
            took = seconds_now() - start;
        } while (k && took < 0.2);
        *(which == 0 ? ns_net : ns_learned) = calls ? 1e9 * took / (double)calls : 0;
    }
    free(p);
    free(v);
}

/* The arguments of an action that takes only files (and --help, and --features where
 * `features` is not NULL: set when given): how many DATA files follow the `lead` leading ones
 * (refused with `expected` when none), or -1 once --help is printed. */
static int data_files_only(int argc, char **argv, int lead, const char *expected,
                           bool *features)
{
    static const struct option plain[] = {
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    static const struct option with_features[] = {
        { "features", no_argument, NULL, OPT_FEATURES },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = cli_getopt(argc, argv, "", features ? with_features : plain)) != -1) {
        if (c == OPT_HELP) {
            printf("%s%s", learn_usage, cli_variant_help());
            return -1;
        }
        *features = true;   /* OPT_FEATURES: only in with_features */
    }
    int n_files = argc - optind - lead;
    if (n_files < 1)
        die("expected %s (see --help)", expected);
    if (n_files > LEARN_MAX_FILES)
        die("at most %d DATA files", LEARN_MAX_FILES);
    return n_files;
}

static int learn_net_error_cmd(int argc, char **argv)
{
    int n_files = data_files_only(argc, argv, 1, "NET and DATA files", NULL);
    if (n_files < 0)
        return 0;
    const char *net_path = argv[optind];
    Error e;
    NetFile *loaded = NULL;
    if (strcmp(net_path, "builtin") != 0 && net_file_load(net_path, &loaded, &e) != 0)
        die("%s", e.msg);
    const NetFile *f = loaded ? loaded : net_builtin();
    LearnData files[LEARN_MAX_FILES];
    read_data_files(argv + optind + 1, n_files, files);
    Net *n;
    if (net_prepare(f, &files[0].variant, &n, &e) != 0)
        die("%s: %s", net_path, e.msg);
    Learned *L = NULL;
    if (learned_prepare(learned_builtin("learned"), &files[0].variant, &L, &e) != 0)
        L = NULL;   /* another board: no learned column */
    static NetErrorCells err;   /* zeroed: static */
    net_errors(files, n_files, f, n, L, &err);
    printf("net %s digest %016llx holes %d capture %d buckets %d hidden %d %d\n", f->name,
           (unsigned long long)f->digest, f->holes, f->capture, f->buckets, f->h1, f->h2);
    static const char *const split_names[SPLIT_NB] = { "fit", "choose", "test" };
    for (int s = 0; s < SPLIT_NB; s++) {
        printf("split %s", split_names[s]);
        print_errors(&err.split[s], L != NULL);
    }
    int total = files[0].variant.total;
    for (int c = 0; c < FF_NB; c++)
        for (int q = 0; q < NET_PHASES; q++) {
            if (!err.test[c][q].rows)
                continue;
            printf("test %s seeds %d-%d", final_four_name((FinalFour)c),
                   q == 0 ? 0 : phase_top(q - 1, total) + 1, phase_top(q, total));
            print_errors(&err.test[c][q], L != NULL);
        }
    double ns_net = 0, ns_learned = 0;
    net_costs(files, n_files, n, L, &ns_net, &ns_learned);
    if (L)
        printf("cost net_full_ns %.0f learned_ns %.0f\n", ns_net, ns_learned);
    else
        printf("cost net_full_ns %.0f learned_ns -\n", ns_net);
    learned_free(L);
    net_free(n);
    net_file_free(loaded);
    for (int i = 0; i < n_files; i++)
        learn_data_free(&files[i]);
    return 0;
}

/* The groups of the features learn base --features prints: those a network may take as
 * dense inputs (the one-hot holes it has already). */
#define DENSE_GROUPS (1u << FG_SEEDS | 1u << FG_MOVES_ME | 1u << FG_MOVES_OP | \
                      1u << FG_LAPS_ME | 1u << FG_LAPS_OP | 1u << FG_CONVENTION)

/* learn base --features: the second header line, the names of l's features of
 * DENSE_GROUPS. */
static void print_dense_names(const FeatureLayout *l)
{
    printf("features");
    for (int f = 0; f < l->n; f++)
        if (DENSE_GROUPS & 1u << features_group(l, f)) {
            char name[64];
            features_name(l, f, name, sizeof name);
            printf(" %s", name);
        }
    putchar('\n');
}

/* learn base --features: p's values of those features, each after a space (the layout's
 * groups DENSE_GROUPS, from l->first[FG_SEEDS] on). */
static void print_dense_values(const FeatureLayout *l, const Variant *v, const Position *p)
{
    int x[2 + 2 * FM_NB + 2 * FL_NB + FC_NB];
    const int first = l->first[FG_SEEDS], n = l->n - first;
    memset(x, 0, (size_t)n * sizeof *x);
    FeatureList list;
    features_of(l, v, p, &list);
    for (int i = 0; i < list.n; i++)
        x[list.index[i] - first] = list.value[i];
    for (int i = 0; i < n; i++)
        printf(" %d", x[i]);
}

/* learn base: each row's base value, for training a network with a base (and with
 * --features its dense inputs' values). */
static int learn_base_cmd(int argc, char **argv)
{
    bool features = false;
    int n_files = data_files_only(argc, argv, 0, "DATA files", &features);
    if (n_files < 0)
        return 0;
    LearnData files[LEARN_MAX_FILES];
    read_data_files(argv + optind, n_files, files);
    const LearnedSet *set = learned_builtin("learned");
    Learned *L;
    Error e;
    if (!set || learned_prepare(set, &files[0].variant, &L, &e) != 0)
        die("%s: the compiled-in learned set is not for this board (holes=%d capture=%d)",
            argv[optind], files[0].variant.holes, files[0].variant.capture);
    uint64_t rows = 0;
    for (int i = 0; i < n_files; i++)
        rows += files[i].rows.n;
    printf("base learned %s digest %016llx rows %llu\n", set->name,
           (unsigned long long)learned_set_digest(set), (unsigned long long)rows);
    FeatureLayout layout;
    features_layout(&files[0].variant, &layout);
    /* The groups are the last of the layout's (learn_features.h), so that they are one
     * run of indices from the seeds' on. */
    layout.groups = DENSE_GROUPS;
    if (features)
        print_dense_names(&layout);
    for (int i = 0; i < n_files; i++)
        for (uint64_t j = 0; j < files[i].rows.n; j++) {
            Variant v;
            Position p;
            learn_row_position(&files[i].variant, &files[i].rows.row[j], &v, &p);
            printf("%d", (int)learned_positional(L, &v, &p));
            if (features)
                print_dense_values(&layout, &v, &p);
            putchar('\n');
        }
    learned_free(L);
    for (int i = 0; i < n_files; i++)
        learn_data_free(&files[i]);
    return 0;
}

int cmd_learn(int argc, char **argv)
{
    if (argc < 2)
        die("expected an action: sample, fit or net-error (see --help)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("%s%s", learn_usage, cli_variant_help());
        return 0;
    }
    if (strcmp(argv[1], "sample") == 0)
        return learn_sample_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "fit") == 0)
        return learn_fit_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "net-error") == 0)
        return learn_net_error_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "base") == 0)
        return learn_base_cmd(argc - 1, argv + 1);
    die("unknown action '%s' (expected sample, fit, net-error or base)", argv[1]);
}
