/* cmd_tables_compare.c: `anywoli tables compare`, how the endgame conventions change the
 * exact values: tables of one board under different conventions, compared position by
 * position on each level and for each pair (agents/exact/tables_compare.c does the counting). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "stats.h"
#include "stored_games.h"
#include "tables.h"

enum { OPT_JSON = OPT_FIRST_FREE, OPT_GAMES, OPT_JOB, OPT_SHOW, OPT_BY_JOB };

#define COMPARE_MAX_JOBS 64

/* At most one file per convention. */
#define COMPARE_MAX_FILES FF_NB

static const char compare_usage[] =
    "usage: anywoli tables compare FILE FILE... [--json] [--show N]\n"
    "                              [--games RESULTS [--job NAME ...] [--by-job]]\n\n"
    "Tables of one board (the same rules but final_four, the same K and levels) under\n"
    "different conventions, compared on every position: for each level and each pair\n"
    "of files, the positions, the share whose value differs, the share whose result\n"
    "differs, the largest difference in seeds, how many positions have it, and the\n"
    "first of them (in rank order) as an example, with its value under each (with\n"
    "--show N, the same for the row's N largest differences, a line each). The\n"
    "value is the margin the side to move forces from there on (`anywoli solve`'s\n"
    "value less the store difference); the result is its sign, the win, draw or loss\n"
    "of the side to move with equal stores. Positions are those with South to move\n"
    "(North's are the same turned round); the example's stores are split as evenly\n"
    "as they go, so its values are those `anywoli solve` prints for it.\n"
    "Under first-final a position also has who made the first final-seed capture:\n"
    "none, the side to move (mover) or the opponent; a pair with first-final has a\n"
    "row for each of the three (the other convention's value ignores it) and one for\n"
    "all of them; other pairs have one row (state -).\n\n"
    "In play, with --games: the games of RESULTS (jobs of the files' board run with\n"
    "record_moves; every such job, or those named by --job) replayed to the first\n"
    "position with at most K seeds on the board (the start, or after a move; it may\n"
    "be over); there, each file's exact value (the final margin if over) gives the\n"
    "result for South under its convention (the lottery at its expectation), and for\n"
    "each pair, how many games' results differ, with a 95% Wilson interval. Games\n"
    "that end otherwise (endless, unfinished) are left out, and so are those whose\n"
    "position lies on a level the files do not hold (counted). --by-job adds the\n"
    "share that differs for each pair in each job, a line (a key \"jobs\" in JSON).\n\n"
    "  --json          one JSON document instead of the table (keys: docs/tables.md),\n"
    "                  every difference of each row with its example\n"
    "  --show N        after each row, its N largest differences (0 to 254)\n"
    "  --games R       the games of results file R, as above\n"
    "  --job NAME      a job of R (repeat for more)\n"
    "  --by-job        the in-play figures of each job too\n\n"
    "Exit status 0, 2 on a bad input (fewer than two files, a file that is not\n"
    "tables, another board, K or levels, the same convention twice; a results file\n"
    "or job that cannot be read, has no stored moves or another board).\n";

/* The name of convention state cs in a pair with first-final, or "-" without it. */
static const char *state_name(int cs, bool first_final)
{
    static const char *const names[] = { "none", "mover", "opponent", "all" };
    return first_final ? names[cs] : "-";
}

/* The board's rules without the convention, as `holes=3 seeds=3 ...`. */
static void describe_board(const Variant *v, char *buf, size_t size)
{
    variant_describe_without(v, VP_BIT(VP_FINAL_FOUR) | variant_not_play(), buf, size);
}

/* A share of the positions (0 of none). */
static double share(uint64_t n, uint64_t of)
{
    return of ? (double)n / (double)of : 0;
}

/* What one row shows: a pair of files on a level, in one convention state or all. */
typedef struct Row {
    const Tables *ta, *tb;
    const char *state;
    const TablesDiff *d;
} Row;

/* The example of difference x: its APN and its values under each file (as `solve` gives). */
static void row_example(const Row *r, int x, char *apn, int *a, int *b)
{
    Position p;
    tables_diff_example(r->ta, r->d, x, &p);
    apn_format(tables_variant(r->ta), &p, apn);
    *a = tables_value(r->ta, &p);
    *b = tables_value(r->tb, &p);
}

/* The name of the pair of tables a, b: `penultimate/first-final`. */
static void pair_name(const Tables *a, const Tables *b, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", final_four_name(tables_variant(a)->final_four),
             final_four_name(tables_variant(b)->final_four));
}

/* One row of the text table, then its `show` largest differences, one line each. */
static void print_row(const Row *r, long show)
{
    const TablesDiff *d = r->d;
    char pair[64], example[APN_MAX + 32] = "-";
    pair_name(r->ta, r->tb, pair, sizeof pair);
    if (d->largest) {
        char apn[APN_MAX];
        int a, b;
        row_example(r, d->largest, apn, &a, &b);
        snprintf(example, sizeof example, "%s (%+d, %+d)", apn, a, b);
    }
    uint64_t at_largest = d->largest ? d->by_diff[d->largest] : 0;
    printf("%5d %-25s %-8s %10" PRIu64 " %7.4f %7.4f %7d %9" PRIu64 "  %s\n", d->level, pair,
           r->state, d->positions, share(d->value_differs, d->positions),
           share(d->result_differs, d->positions), d->largest, at_largest, example);
    for (int x = d->largest; x > 0 && show > 0; x--) {
        if (!d->by_diff[x])
            continue;
        char apn[APN_MAX];
        int a, b;
        row_example(r, x, apn, &a, &b);
        printf("      by %d: %" PRIu64 " positions, the first %s (%+d, %+d)\n", x, d->by_diff[x],
               apn, a, b);
        show--;
    }
}

/* One row as a JSON object, with every difference that occurs (largest first). */
static void json_row(Json *j, const Row *r)
{
    const TablesDiff *d = r->d;
    json_object_begin(j);
    json_kv_int(j, "level", d->level);
    json_kv_string(j, "a", final_four_name(tables_variant(r->ta)->final_four));
    json_kv_string(j, "b", final_four_name(tables_variant(r->tb)->final_four));
    json_kv_string(j, "state", r->state);
    json_kv_uint(j, "positions", d->positions);
    json_kv_uint(j, "value_differs", d->value_differs);
    json_kv_double(j, "value_share", share(d->value_differs, d->positions));
    json_kv_uint(j, "result_differs", d->result_differs);
    json_kv_double(j, "result_share", share(d->result_differs, d->positions));
    json_kv_int(j, "largest", d->largest);
    json_key(j, "differences");
    json_array_begin(j);
    for (int x = d->largest; x > 0; x--) {
        if (!d->by_diff[x])
            continue;
        char apn[APN_MAX];
        int a, b;
        row_example(r, x, apn, &a, &b);
        json_object_begin(j);
        json_kv_int(j, "by", x);
        json_kv_uint(j, "positions", d->by_diff[x]);
        json_kv_string(j, "apn", apn);
        json_kv_int(j, "value_a", a);
        json_kv_int(j, "value_b", b);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

/* Every row of one pair on one level: each state and all of them with first-final, else
 * one. */
static void compare_pair(const Tables *a, const Tables *b, int level, long show, Json *j)
{
    bool ff = tables_variant(a)->final_four == FF_FIRST_FINAL
              || tables_variant(b)->final_four == FF_FIRST_FINAL;
    static TablesDiff d[4];   /* 4 x 6 KB: not on the stack */
    memset(&d[3], 0, sizeof d[3]);
    int states = ff ? 3 : 1;
    for (int cs = 0; cs < states; cs++) {
        tables_compare_level(a, b, level, cs, &d[cs]);
        tables_diff_add(&d[3], &d[cs]);
    }
    for (int cs = 0; cs < (ff ? 4 : 1); cs++) {
        Row r = { a, b, state_name(cs, ff), &d[cs] };
        if (j)
            json_row(j, &r);
        else
            print_row(&r, show);
    }
}

/* The files' header: as text, or the JSON document's first keys. */
static void print_header(Tables *const *t, char *const *paths, int n, Json *j)
{
    const Variant *v = tables_variant(t[0]);
    char board[256], levels[512];
    describe_board(v, board, sizeof board);
    tables_describe_levels(t[0], levels, sizeof levels);
    if (j) {
        json_key(j, "files");
        json_array_begin(j);
        for (int i = 0; i < n; i++) {
            json_object_begin(j);
            json_kv_string(j, "path", paths[i]);
            json_kv_string(j, "final_four", final_four_name(tables_variant(t[i])->final_four));
            json_object_end(j);
        }
        json_array_end(j);
        json_kv_string(j, "board", board);
        json_kv_int(j, "max_seeds", tables_max_seeds(t[0]));
        json_kv_string(j, "levels", levels);
        return;
    }
    printf("board %s, max_seeds %d, levels %s\n", board, tables_max_seeds(t[0]), levels);
    for (int i = 0; i < n; i++)
        printf("  %s: %s\n", paths[i], final_four_name(tables_variant(t[i])->final_four));
    printf("value: the margin the side to move forces from there on; result: its sign\n");
    printf("%5s %-25s %-8s %10s %7s %7s %7s %9s  %s\n", "level", "pair", "state", "positions",
           "value", "result", "largest", "at", "example (value in each)");
}

/* ---- In play: the first position of each game within the tables ---- */

/* What one job's games gave (--by-job). */
typedef struct JobTally {
    char *name;
    uint64_t reached;
    uint64_t differs[COMPARE_MAX_FILES][COMPARE_MAX_FILES];
} JobTally;

/* What the games gave. */
typedef struct InPlay {
    Tables *const *t;
    const char *path;                  /* the first file, for messages */
    int n;
    uint64_t games, reached, over, unheld;
    uint64_t results[COMPARE_MAX_FILES][3];                 /* South wins, draws, losses */
    uint64_t differs[COMPARE_MAX_FILES][COMPARE_MAX_FILES];
    JobTally *jobs;                    /* each job walked, in order; the last is the current */
    int n_jobs;
} InPlay;

/* A job fits when it is played on the files' board (under any convention); its games come
 * next, so a tally of its own starts. */
static int job_on_board(const char *name, const Variant *v, void *ctx, Error *e)
{
    InPlay *g = ctx;
    Variant w = *v;
    w.final_four = tables_variant(g->t[0])->final_four;
    if (tables_check_variant(g->t[0], &w, g->path, e) != 0)
        return -1;
    JobTally *more = realloc(g->jobs, (size_t)(g->n_jobs + 1) * sizeof *more);
    char *copy = strdup(name);
    if (!more || !copy)
        fail("out of memory");
    g->jobs = more;
    g->jobs[g->n_jobs++] = (JobTally){ .name = copy };
    return 0;
}

/* The results for South of p under each file's convention (its exact value's sign). */
static void count_results(InPlay *g, const Variant *v, const Position *p)
{
    bool over = pos_over(v, p);
    if (!over && !tables_covers(g->t[0], p)) {
        g->unheld++;
        return;
    }
    g->reached++;
    g->over += over;
    JobTally *job = &g->jobs[g->n_jobs - 1];
    job->reached++;
    int result[COMPARE_MAX_FILES];
    for (int i = 0; i < g->n; i++) {
        int x = tables_value(g->t[i], p) * (p->side == SOUTH ? 1 : -1);
        result[i] = (x > 0) - (x < 0);
        g->results[i][1 - result[i]]++;
    }
    for (int a = 0; a < g->n; a++)
        for (int b = a + 1; b < g->n; b++) {
            g->differs[a][b] += result[a] != result[b];
            job->differs[a][b] += result[a] != result[b];
        }
}

/* A game's row: each is replayed to its first position with at most K seeds. */
static bool first_game(void *ctx, const GameRecord *r)
{
    (void)r;
    ((InPlay *)ctx)->games++;
    return true;
}

/* A position of a stored game: the first with at most K seeds on the board is counted and
 * ends the game's walk (a game whose stored moves end first is unfinished: not counted). */
static bool first_within(void *ctx, const GameRecord *r, const Position *p, uint32_t ply,
                         bool last)
{
    (void)r;
    (void)ply;
    (void)last;
    InPlay *g = ctx;
    if (p->left > tables_max_seeds(g->t[0]))
        return true;
    count_results(g, tables_variant(g->t[0]), p);
    return false;
}

/* --by-job: for each job, the games counted and the share that differs for each pair; as
 * text (a column a pair) or as the JSON document's key "jobs". */
static void print_by_job(const InPlay *g, Json *j)
{
    if (j) {
        json_key(j, "jobs");
        json_array_begin(j);
    } else {
        printf("%-40s %9s", "by job: share that differs", "games");
        for (int a = 0; a < g->n; a++)
            for (int b = a + 1; b < g->n; b++) {
                char pair[64];
                pair_name(g->t[a], g->t[b], pair, sizeof pair);
                printf(" %25s", pair);
            }
        printf("\n");
    }
    for (int k = 0; k < g->n_jobs; k++) {
        const JobTally *job = &g->jobs[k];
        if (j) {
            json_object_begin(j);
            json_kv_string(j, "job", job->name);
            json_kv_uint(j, "games", job->reached);
            json_key(j, "pairs");
            json_array_begin(j);
        } else {
            printf("%-40s %9" PRIu64, job->name, job->reached);
        }
        for (int a = 0; a < g->n; a++)
            for (int b = a + 1; b < g->n; b++) {
                double x = share(job->differs[a][b], job->reached);
                if (j) {
                    char pair[64];
                    pair_name(g->t[a], g->t[b], pair, sizeof pair);
                    json_object_begin(j);
                    json_kv_string(j, "pair", pair);
                    json_kv_uint(j, "differs", job->differs[a][b]);
                    json_kv_estimate(j, "share", (Estimate){ x, wilson_interval(
                        job->differs[a][b], job->reached, 0.95) });
                    json_object_end(j);
                } else {
                    printf(" %25.4f", x);
                }
            }
        if (j) {
            json_array_end(j);
            json_object_end(j);
        } else {
            printf("\n");
        }
    }
    if (j)
        json_array_end(j);
}

/* The in-play figures: as text, or as the JSON document's key "games" (the counts of
 * results keyed by the outcomes' words, as in analyze's JSON). */
static void print_in_play(const InPlay *g, const char *results, int jobs, Json *j)
{
    static const Outcome counted[] = { OUT_SOUTH, OUT_DRAW, OUT_NORTH };
    if (j) {
        json_key(j, "games");
        json_object_begin(j);
        json_kv_string(j, "file", results);
        json_kv_int(j, "jobs", jobs);
        json_kv_uint(j, "games", g->games);
        json_kv_uint(j, "reached", g->reached);
        json_kv_uint(j, "over", g->over);
        json_kv_uint(j, "unheld", g->unheld);
        json_key(j, "conventions");
        json_array_begin(j);
        for (int i = 0; i < g->n; i++) {
            json_object_begin(j);
            json_kv_string(j, "final_four", final_four_name(tables_variant(g->t[i])->final_four));
            for (int r = 0; r < 3; r++)
                json_kv_uint(j, outcome_name(counted[r]), g->results[i][r]);
            json_object_end(j);
        }
        json_array_end(j);
        json_key(j, "pairs");
        json_array_begin(j);
    } else {
        printf("in play: %s: %d job%s, %" PRIu64 " games; %" PRIu64 " reach at most %d seeds "
               "on the board (%" PRIu64 " of them over there), %" PRIu64 " on levels not held\n",
               results, jobs, jobs == 1 ? "" : "s", g->games, g->reached,
               tables_max_seeds(g->t[0]), g->over, g->unheld);
        for (int i = 0; i < g->n; i++)
            printf("  %-12s South wins %" PRIu64 ", draws %" PRIu64 ", loses %" PRIu64 "\n",
                   final_four_name(tables_variant(g->t[i])->final_four), g->results[i][0],
                   g->results[i][1], g->results[i][2]);
        printf("%-25s %9s %9s %7s %15s\n", "pair", "games", "differs", "share", "95% CI");
    }
    for (int a = 0; a < g->n; a++) {
        for (int b = a + 1; b < g->n; b++) {
            char pair[64];
            pair_name(g->t[a], g->t[b], pair, sizeof pair);
            Interval ci = wilson_interval(g->differs[a][b], g->reached, 0.95);
            double x = share(g->differs[a][b], g->reached);
            if (j) {
                json_object_begin(j);
                json_kv_string(j, "pair", pair);
                json_kv_uint(j, "games", g->reached);
                json_kv_uint(j, "differs", g->differs[a][b]);
                json_kv_estimate(j, "share", (Estimate){ x, ci });
                json_object_end(j);
            } else {
                printf("%-25s %9" PRIu64 " %9" PRIu64 " %7.4f %7.4f-%7.4f\n", pair, g->reached,
                       g->differs[a][b], x, ci.lo, ci.hi);
            }
        }
    }
    if (j) {
        json_array_end(j);
        json_object_end(j);
    }
}

/* Replay the games of RESULTS into g (before any output: a bad file or job prints nothing);
 * returns the jobs used. */
static int replay_games(Tables *const *t, char *const *paths, int n, const char *results,
                        const char *const *jobs, int n_jobs, InPlay *g)
{
    Error e;
    ResultsFile *f = rf_open(results, &e);
    if (!f)
        die("--games %s", e.msg);
    *g = (InPlay){ .t = t, .path = paths[0], .n = n };
    char board[256];
    describe_board(tables_variant(t[0]), board, sizeof board);
    GameWalk w = { first_game, first_within, g };
    int used = stored_games_each(f, jobs, n_jobs, job_on_board, &w, board);
    rf_close(f);
    return used;
}

int cmd_tables_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, OPT_JSON },
        { "games", required_argument, NULL, OPT_GAMES },
        { "job", required_argument, NULL, OPT_JOB },
        { "show", required_argument, NULL, OPT_SHOW },
        { "by-job", no_argument, NULL, OPT_BY_JOB },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    bool json = false, by_job = false;
    const char *games = NULL, *jobs[COMPARE_MAX_JOBS];
    int n_jobs = 0, c;
    long long show = 0;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        switch (c) {
        case OPT_JSON: json = true; break;
        case OPT_GAMES: games = optarg; break;
        case OPT_BY_JOB: by_job = true; break;
        case OPT_SHOW: show = cli_number("--show", optarg, 0, TABLES_MAX_DIFF); break;
        case OPT_JOB:
            if (n_jobs == COMPARE_MAX_JOBS)
                die("--job: at most %d jobs", COMPARE_MAX_JOBS);
            jobs[n_jobs++] = optarg;
            break;
        case OPT_HELP: printf("%s", compare_usage); return 0;
        }
    }
    int n = argc - optind;
    if (n < 2)
        die("compare takes two FILEs or more (see --help)");
    if (n > COMPARE_MAX_FILES)
        die("compare takes at most %d FILEs, one per convention", COMPARE_MAX_FILES);
    char **paths = argv + optind;
    Tables *t[COMPARE_MAX_FILES];
    Error e;
    for (int i = 0; i < n; i++) {
        if (tables_open(paths[i], &t[i], &e) != 0)
            die("%s", e.msg);
        for (int k = 0; k < i; k++)
            if (tables_check_comparable(t[k], paths[k], t[i], paths[i], &e) != 0)
                die("%s", e.msg);
    }
    if (n_jobs && !games)
        die("--job needs --games RESULTS");
    if (by_job && !games)
        die("--by-job needs --games RESULTS");
    InPlay g;
    int used = games ? replay_games(t, paths, n, games, jobs, n_jobs, &g) : 0;
    Json j;
    if (json) {
        json_init(&j, stdout);
        json_object_begin(&j);
    }
    print_header(t, paths, n, json ? &j : NULL);
    if (json) {
        json_key(&j, "rows");
        json_array_begin(&j);
    }
    for (int L = tables_first_level(t[0]); L <= tables_max_seeds(t[0]); L++) {
        if (!tables_holds_level(t[0], L))
            continue;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                compare_pair(t[a], t[b], L, (long)show, json ? &j : NULL);
    }
    if (json)
        json_array_end(&j);
    if (games)
        print_in_play(&g, games, used, json ? &j : NULL);
    if (by_job)
        print_by_job(&g, json ? &j : NULL);
    if (json) {
        json_object_end(&j);
        json_finish(&j);
    }
    for (int k = 0; games && k < g.n_jobs; k++)
        free(g.jobs[k].name);
    if (games)
        free(g.jobs);
    for (int i = 0; i < n; i++)
        tables_free(t[i]);
    return 0;
}
