/* cmd_fit.c: `anywoli fit`, Texel's method: the evaluation's weights fitted to the results of
 * stored games by logistic regression on the positions they reached (analysis/texel.c). The
 * positions come from replaying the stored moves of jobs run with record_moves; each term is
 * eval_term's (the definition the search weighs), each label the game's result for the side
 * to move, or the exact value where the tables hold the position. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "eval.h"
#include "door.h"
#include "json.h"
#include "results_read.h"
#include "stored_games.h"
#include "tables.h"
#include "texel.h"

enum { OPT_JOB = OPT_FIRST_FREE, OPT_TABLES, OPT_TERMS, OPT_SKIP, OPT_JSON, OPT_DUMP,
       OPT_FORCE };

#define FIT_MAX_JOBS 64
#define FIT_HOLD_EVERY 5   /* games whose index is 4 mod 5 are held out */

static const char fit_usage[] =
    "usage: anywoli fit RESULTS [--job NAME ...] [--tables FILE] [--terms a,b,...]\n"
    "                   [--skip N] [--json] [--dump FILE [--force]]\n\n"
    "Texel's method: fit alpha-beta's evaluation weights to the results of the\n"
    "games of RESULTS (jobs run with record_moves: their stored moves are replayed).\n"
    "Every position of a game before a move, from ply N on, is a row: the terms for\n"
    "its side to move (the evaluation's own), and its label, the game's result for\n"
    "that side (1 won, 1/2 drawn, 0 lost, under the job's convention; endless and\n"
    "unfinished games are left out), or, where --tables holds the position, its\n"
    "exact value's (win, draw, loss). Positions where the mover moves again after a\n"
    "capture are kept: the search evaluates them at its horizon too.\n"
    "The model: P(result) = 1 / (1 + exp(-K e)), e the evaluation in seeds with the\n"
    "store's weight 1; K and the weights of the terms fitted by maximum likelihood\n"
    "(GSL's BFGS); terms not fitted keep the plain set's weights (store 1, seeds\n"
    "0.1, the rest 0). Games whose index is 4 mod 5 are held out: the log-loss on\n"
    "them, of the fit and of the plain weights (their own K fitted), says whether\n"
    "the fit predicts better.\n\n"
    "  --job NAME     a job of RESULTS (repeat for more; default: every job with\n"
    "                 stored moves)\n"
    "  --tables FILE  endgame tables: exact labels for the positions they hold\n"
    "  --terms LIST   the terms to fit (default: seeds,threes,opp_threes,empty,\n"
    "                 opp_empty,final); store is the unit, fixed at 1, and mobility\n"
    "                 is opp_empty - empty\n"
    "  --skip N       leave out the positions of the first N plies (default 8: the\n"
    "                 openings' own, shared by both games of a pair)\n"
    "  --json         the fit as JSON on stdout\n"
    "  --dump FILE    the rows as CSV: game, ply, held_out, tabled (1 when the\n"
    "                 label is the tables'), label, base (the store difference plus\n"
    "                 the terms held at their defaults), then each term fitted\n"
    "                 (written as FILE.partial, renamed when complete)\n"
    "  --force        with --dump: replace an existing FILE\n\n"
    "Standard errors are clustered by game (the sandwich estimator): the positions\n"
    "of a game are not independent, and counting them as if they were would\n"
    "understate the errors.\n"
    "Exit status 0, 2 on a bad input (a file, a job, a term, damaged moves, too few\n"
    "positions), 1 when the machine fails.\n";

/* The terms fitted, in the order of the columns after the base. */
typedef struct Terms {
    int n;
    int term[EVAL_NB];
} Terms;

/* A growing table of rows: x (cols a row), y, and the game each comes from (a number of
 * the games gathered, for the clustered standard errors). */
typedef struct Rows {
    size_t n, cap, cols;
    double *x, *y;
    uint64_t *cluster;
} Rows;

/* Everything gathered from the games. */
typedef struct Gathered {
    Rows fit, held, def_fit, def_held;   /* the terms fitted; the default evaluation alone */
    uint64_t games, left_out, tabled;    /* games used, games left out, labels from tables */
    FILE *dump;
} Gathered;

/* Parse --terms: known names, not store, no repeats, not mobility with both empty terms. */
static void parse_terms(const char *list, Terms *t)
{
    t->n = 0;
    bool seen[EVAL_NB] = { false };
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        int k = eval_term_lookup(name);
        if (k < 0)
            die("--terms: unknown term '%s' (see anywoli agents alphabeta)", name);
        if (k == EVAL_STORE)
            die("--terms: store is the unit of the evaluation, fixed at 1; fit the others");
        if (seen[k])
            die("--terms: term '%s' is given twice", name);
        seen[k] = true;
        t->term[t->n++] = k;
        s += len;
        if (*s == ',' && *++s == '\0')
            die("--terms: a term name is missing after the last comma");
    }
    if (t->n == 0)
        die("--terms: expected a list of terms such as seeds,threes");
    if (seen[EVAL_MOBILITY] && seen[EVAL_EMPTY] && seen[EVAL_OPP_EMPTY])
        die("--terms: mobility is opp_empty - empty: fit it with at most one of them");
}

/* Grow an array to cap items of size each, or die. */
static void *grow(void *p, size_t cap, size_t size)
{
    void *q = realloc(p, cap * size);
    if (!q)
        fail("out of memory for %zu positions", cap);
    return q;
}

/* Append a row (grown by doubling). */
static void rows_add(Rows *r, const double *x, double y, uint64_t cluster)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 65536;
        r->x = grow(r->x, r->cap, r->cols * sizeof *r->x);
        r->y = grow(r->y, r->cap, sizeof *r->y);
        r->cluster = grow(r->cluster, r->cap, sizeof *r->cluster);
    }
    memcpy(r->x + r->n * r->cols, x, r->cols * sizeof *x);
    r->y[r->n] = y;
    r->cluster[r->n++] = cluster;
}

static void rows_free(Rows *r)
{
    free(r->x);
    free(r->y);
    free(r->cluster);
}

static TexelTable rows_table(const Rows *r)
{
    return (TexelTable){ .n = r->n, .k = r->cols, .x = r->x, .y = r->y, .cluster = r->cluster };
}

/* The label of p for its side to move: the exact value's sign where the tables hold p, else
 * the game's result (`winner` SOUTH, NORTH, or NOBODY for a draw). */
static double label_of(const Tables *t, const Variant *v, const Position *p, int winner,
                       bool *tabled)
{
    *tabled = t && tables_match(t, v) && tables_covers(t, p);
    if (*tabled) {
        int x = tables_value(t, p);
        return x > 0 ? 1.0 : x < 0 ? 0.0 : 0.5;
    }
    return winner == NOBODY ? 0.5 : winner == p->side ? 1.0 : 0.0;
}

/* One position's rows: the fitted terms (after the base) and the default evaluation. */
static void add_position(Gathered *g, const Terms *terms, const Variant *v, const Position *p,
                         double y, bool tabled, bool held, uint64_t game, uint32_t ply)
{
    double x[EVAL_NB + 1], base = eval_term(v, p, EVAL_STORE), def = base;
    bool fitted[EVAL_NB] = { false };
    for (int i = 0; i < terms->n; i++) {
        fitted[terms->term[i]] = true;
        x[i + 1] = eval_term(v, p, (EvalTerm)terms->term[i]);
    }
    for (int t = EVAL_SEEDS; t < EVAL_NB; t++) {
        double part = eval_terms[t].def * eval_term(v, p, (EvalTerm)t);
        def += part;
        base += fitted[t] ? 0 : part;
    }
    x[0] = base;
    rows_add(held ? &g->held : &g->fit, x, y, g->games);
    rows_add(held ? &g->def_held : &g->def_fit, &def, y, g->games);
    if (g->dump) {
        fprintf(g->dump, "%" PRIu64 ",%" PRIu32 ",%d,%d,%g", game, ply, held, tabled, y);
        for (int i = 0; i <= terms->n; i++)
            fprintf(g->dump, ",%.17g", x[i]);
        fputc('\n', g->dump);
    }
}

/* The winner of a finished game by its outcome (0 South, 1 North, 2 draw); -2 for endless or
 * unfinished games, which have no result. */
static int winner_of(const GameRecord *r)
{
    return r->outcome == 0 ? SOUTH : r->outcome == 1 ? NORTH : r->outcome == 2 ? NOBODY : -2;
}

/* What the walk over the jobs' games (gather_results) adds their positions with. */
typedef struct Gathering {
    Gathered *g;
    const Terms *terms;
    const Tables *t;
    const Variant *v;
    long skip;
    int winner;   /* the game being walked: winner_of its row */
} Gathering;

/* A game's row: finished games are fitted, the others counted as left out. */
static bool gather_game(void *ctx, const GameRecord *r)
{
    Gathering *x = ctx;
    x->winner = winner_of(r);
    if (x->winner == -2) {
        x->g->left_out++;
        return false;
    }
    x->g->games++;
    return true;
}

/* A position before a move: added from ply `skip` on, held out by its game's number. */
static bool gather_position(void *ctx, const GameRecord *r, const Position *p, uint32_t ply,
                            bool last)
{
    Gathering *x = ctx;
    if (last || ply < x->skip)
        return true;
    bool tabled, held = r->game % FIT_HOLD_EVERY == FIT_HOLD_EVERY - 1;
    double y = label_of(x->t, x->v, p, x->winner, &tabled);
    x->g->tabled += tabled;
    add_position(x->g, x->terms, x->v, p, y, tabled, held, r->game, ply);
    return true;
}

/* Every job's variant will do (the fit reads any board): the walk of its games that follows
 * labels and weighs their positions under it. */
static int take_variant(const char *name, const Variant *v, void *ctx, Error *e)
{
    (void)name;
    (void)e;
    ((Gathering *)ctx)->v = v;
    return 0;
}

/* Whether some job to be read has the tables' variant (else they would label nothing). */
static bool tables_fit_a_job(const Tables *t, const ResultsFile *f, const char *const *jobs,
                             int n_jobs)
{
    Error e;
    bool found = false;
    int total = n_jobs ? n_jobs : rf_job_count(f);
    for (int i = 0; i < total && !found; i++) {
        const char *name = n_jobs ? jobs[i] : rf_job_name(f, i);
        StoredJob sj;
        if (rf_read_job(f, name, &sj, &e) != 0)
            die("%s", e.msg);
        found = rf_job_has_moves(f, name) && tables_match(t, &sj.variant);
        stored_job_free(&sj);
    }
    return found;
}

/* The jobs asked for (each must store moves), or every job that does; dies when none does,
 * or, before reading any game, when tables are given and no job has their variant. */
static int gather_results(Gathered *g, const Terms *terms, const Tables *t,
                          const ResultsFile *f, const char *const *jobs, int n_jobs, long skip)
{
    if (t && !tables_fit_a_job(t, f, jobs, n_jobs)) {
        char desc[256];
        variant_describe(tables_variant(t), desc, sizeof desc);
        die("--tables: no job of %s has the tables' variant (%s)", rf_path(f), desc);
    }
    Gathering x = { g, terms, t, NULL, skip, 0 };
    GameWalk w = { gather_game, gather_position, &x };
    return stored_games_each(f, jobs, n_jobs, take_variant, &w, NULL);
}

/* Fit a table, or die with the reason and what was fitted. */
static void fit_or_die(const Rows *r, const char *what, TexelFit *fit)
{
    TexelTable t = rows_table(r);
    Error e;
    if (texel_fit(&t, fit, &e) != 0)
        die("%s: %s", what, e.msg);
}

/* The spec of the fitted weights: every term explicit, and the fade off as in the fit
 * (eval_term is unfaded), so that it means the same at any depth whatever the defaults. */
static void fitted_spec(const Terms *terms, const double *w, char *buf, size_t len)
{
    double weight[EVAL_NB];
    for (int t = 0; t < EVAL_NB; t++)
        weight[t] = eval_terms[t].def;
    weight[EVAL_STORE] = 1;
    for (int i = 0; i < terms->n; i++)
        weight[terms->term[i]] = w[i + 1];
    size_t at = (size_t)snprintf(buf, len, "alphabeta:");
    for (int t = 0; t < EVAL_NB && at < len; t++)
        at += (size_t)snprintf(buf + at, len - at, "%sw.%s=%.3f", t ? "," : "",
                               eval_terms[t].name, fabs(weight[t]) < 5e-4 ? 0.0 : weight[t]);
    if (at < len)
        snprintf(buf + at, len - at, ",fade=0");
}

/* What the fit found, for the text and the JSON. */
typedef struct Findings {
    const char *path;
    int jobs;
    const Gathered *g;
    const Terms *terms;
    double w[EVAL_NB + 1], se[EVAL_NB + 1];
    double def_k, def_k_se;
    double loss_fit, loss_held, def_loss_fit, def_loss_held;
    char spec[512];
} Findings;

static void print_text(const Findings *r)
{
    const Gathered *g = r->g;
    printf("fit %s: %d job%s, %" PRIu64 " games (%" PRIu64 " endless or unfinished left out)\n",
           r->path, r->jobs, r->jobs == 1 ? "" : "s", g->games, g->left_out);
    printf("positions: %zu fitted, %zu held out (games 4 mod 5); %" PRIu64
           " labelled by the tables\n", g->fit.n, g->held.n, g->tabled);
    printf("%-11s %9s %9s %9s\n", "term", "weight", "std err", "default");
    printf("%-11s %9.4f %9.4f %9.4f  (the scale, per seed; the defaults' own)\n", "K", r->w[0],
           r->se[0], r->def_k);
    printf("%-11s %9.3f %9s %9.3f\n", "store", 1.0, "(unit)", eval_terms[EVAL_STORE].def);
    for (int i = 0; i < r->terms->n; i++) {
        int t = r->terms->term[i];
        printf("%-11s %9.3f %9.3f %9.3f\n", eval_terms[t].name, r->w[i + 1], r->se[i + 1],
               eval_terms[t].def);
    }
    printf("log-loss, held out: fitted %.5f, defaults %.5f (%+.5f); fitted positions: %.5f, "
           "%.5f\n", r->loss_held, r->def_loss_held, r->loss_held - r->def_loss_held,
           r->loss_fit, r->def_loss_fit);
    printf("spec: %s\n", r->spec);
}

static void print_json(const Findings *r)
{
    Json j;
    json_init(&j, stdout);
    json_object_begin(&j);
    json_kv_string(&j, "file", r->path);
    json_kv_int(&j, "jobs", r->jobs);
    json_kv_uint(&j, "games", r->g->games);
    json_kv_uint(&j, "games_left_out", r->g->left_out);
    json_kv_uint(&j, "positions_fitted", r->g->fit.n);
    json_kv_uint(&j, "positions_held_out", r->g->held.n);
    json_kv_uint(&j, "labels_from_tables", r->g->tabled);
    json_kv_double(&j, "K", r->w[0]);
    json_kv_double(&j, "K_se", r->se[0]);
    json_kv_double(&j, "defaults_K", r->def_k);
    json_kv_double(&j, "defaults_K_se", r->def_k_se);
    json_key(&j, "weights");
    json_object_begin(&j);
    for (int i = 0; i < r->terms->n; i++) {
        json_key(&j, eval_terms[r->terms->term[i]].name);
        json_object_begin(&j);
        json_kv_double(&j, "weight", r->w[i + 1]);
        json_kv_double(&j, "se", r->se[i + 1]);
        json_kv_double(&j, "default", eval_terms[r->terms->term[i]].def);
        json_object_end(&j);
    }
    json_object_end(&j);
    json_kv_double(&j, "log_loss_held_out", r->loss_held);
    json_kv_double(&j, "defaults_log_loss_held_out", r->def_loss_held);
    json_kv_double(&j, "log_loss_fitted", r->loss_fit);
    json_kv_double(&j, "defaults_log_loss_fitted", r->def_loss_fit);
    json_kv_string(&j, "spec", r->spec);
    json_object_end(&j);
    json_finish(&j);
}

/* Fit the terms and the defaults' scale on the fitted games, and measure both on the held-out
 * ones. */
static void fit_and_report(const char *path, int jobs, const Gathered *g, const Terms *terms,
                           bool json)
{
    if (g->held.n == 0)
        die("%s: no held-out positions (games 4 mod 5): play more games, or lower --skip",
            path);
    Findings r = { .path = path, .jobs = jobs, .g = g, .terms = terms };
    TexelFit fit, def;
    fit_or_die(&g->fit, path, &fit);
    fit_or_die(&g->def_fit, path, &def);
    texel_weights(&fit, r.w, r.se);
    r.def_k = def.beta[0];
    r.def_k_se = sqrt(def.cov[0]);
    TexelTable held = rows_table(&g->held), def_held = rows_table(&g->def_held);
    r.loss_fit = fit.log_loss;
    r.def_loss_fit = def.log_loss;
    r.loss_held = texel_log_loss(&held, fit.beta);
    r.def_loss_held = texel_log_loss(&def_held, def.beta);
    fitted_spec(terms, r.w, r.spec, sizeof r.spec);
    if (json)
        print_json(&r);
    else
        print_text(&r);
    texel_fit_free(&fit);
    texel_fit_free(&def);
}

int cmd_fit(int argc, char **argv)
{
    static const struct option opts[] = {
        { "job", required_argument, NULL, OPT_JOB },
        { "tables", required_argument, NULL, OPT_TABLES },
        { "terms", required_argument, NULL, OPT_TERMS },
        { "skip", required_argument, NULL, OPT_SKIP },
        { "json", no_argument, NULL, OPT_JSON },
        { "dump", required_argument, NULL, OPT_DUMP },
        { "force", no_argument, NULL, OPT_FORCE },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *jobs[FIT_MAX_JOBS], *tables_path = NULL, *dump_path = NULL;
    const char *term_list = "seeds,threes,opp_threes,empty,opp_empty,final";
    int n_jobs = 0;
    long long skip = 8;
    bool json = false, force = false;
    int c;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        switch (c) {
        case OPT_JOB:
            if (n_jobs == FIT_MAX_JOBS)
                die("--job: at most %d jobs", FIT_MAX_JOBS);
            jobs[n_jobs++] = optarg;
            break;
        case OPT_TABLES: tables_path = optarg; break;
        case OPT_TERMS: term_list = optarg; break;
        case OPT_SKIP: skip = cli_number("--skip", optarg, 0, 1000000); break;
        case OPT_JSON: json = true; break;
        case OPT_DUMP: dump_path = optarg; break;
        case OPT_FORCE: force = true; break;
        case OPT_HELP: printf("%s", fit_usage); return 0;
        }
    }
    if (argc - optind < 1)
        die("expected RESULTS (see --help)");
    if (argc - optind > 1)
        die("unexpected argument '%s' (see --help)", argv[optind + 1]);
    if (force && !dump_path)
        die("--force: only with --dump FILE");
    Terms terms;
    parse_terms(term_list, &terms);
    Error e;
    Output dump;
    if (dump_path)   /* claimed first: a dump named as an input is refused before anything */
        cli_claim_output(&dump, dump_path, force, "fit --dump");
    Tables *t = NULL;
    if (tables_path && tables_open(tables_path, &t, &e) != 0)
        die("%s", e.msg);
    const char *path = argv[optind];
    ResultsFile *f = rf_open(path, &e);
    if (!f)
        die("%s", e.msg);
    size_t cols = (size_t)terms.n + 1;
    Gathered g = { .fit.cols = cols, .held.cols = cols, .def_fit.cols = 1, .def_held.cols = 1 };
    if (dump_path) {
        g.dump = output_stream_open(&dump, &e);
        if (!g.dump)
            fail("--dump %s", e.msg);
        fprintf(g.dump, "game,ply,held_out,tabled,label,base");
        for (int i = 0; i < terms.n; i++)
            fprintf(g.dump, ",%s", eval_terms[terms.term[i]].name);
        fputc('\n', g.dump);
    }
    int used = gather_results(&g, &terms, t, f, jobs, n_jobs, (long)skip);
    if (g.dump && output_stream_close(&dump, g.dump, 0, &e) != 0)
        fail("--dump %s", e.msg);
    if (dump_path)
        output_release(&dump);
    fit_and_report(path, used, &g, &terms, json);
    rows_free(&g.fit);
    rows_free(&g.held);
    rows_free(&g.def_fit);
    rows_free(&g.def_held);
    rf_close(f);
    tables_free(t);
    return 0;
}
