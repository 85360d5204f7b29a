/* cmd_tune.c: `anywoli tune`, SPSA tuning of an agent's evaluation weights by self-play (the
 * work is in sim/tune.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cluster.h"
#include "commands.h"
#include "match.h"
#include "tune.h"
#include "tune_print.h"

enum { OPT_THREADS = OPT_FIRST_FREE, OPT_RESUME, OPT_FORCE, OPT_QUIET, OPT_DRY_RUN,
       OPT_PEER_TIMEOUT };

static const char tune_usage[] =
    "usage: anywoli tune CONFIG [-o FILE] [--threads N] [--resume] [--force]\n"
    "                    [--quiet] [--dry-run] [--peer-timeout S]\n\n"
    "Tune the evaluation weights of an agent by self-play with SPSA (simultaneous\n"
    "perturbation stochastic approximation): each iteration plays colour-swapped game\n"
    "pairs between the weights moved up and down along a random +-1 direction (or\n"
    "each of them against a reference agent) and steps the weights by the score\n"
    "difference. At the end the tuned weights play verification matches against the\n"
    "start weights and against the agent's defaults: Elo with its 95% interval and a\n"
    "pentanomial SPRT, each match stopping at the first pair after which its SPRT\n"
    "decides (its estimates are then biased, and not corrected: the summary says\n"
    "so). The trajectory and the matches go to a results file (/tuning,\n"
    "docs/results.md), which `anywoli analyze` reads. CONFIG: see configs/tune.cfg.\n"
    "The same seed gives the same trajectory for any thread count, and under mpirun\n"
    "(a build with -DANYWOLI_MPI=ON) for any number of ranks sharing the games.\n\n"
    "  -o FILE        the results file (the config's `output`)\n"
    "  --threads N    OpenMP threads playing games (default: OMP_NUM_THREADS, else\n"
    "                 every core this process may use; under MPI, per rank)\n"
    "  --resume       continue FILE.partial from its journal FILE.journal\n"
    "  --force        replace an existing FILE, or start an interrupted tuning again\n"
    "  --quiet        no progress line on stderr\n"
    "  --dry-run      check the config and print the plan; play nothing\n"
    CLI_PEER_TIMEOUT_HELP "\n"
    "Every iteration is kept in FILE.journal as it finishes, so that SIGINT, SIGTERM\n"
    "or kill -9 loses at most the iteration in flight: --resume then ends as an\n"
    "uninterrupted tuning.\n"
    "Exit status: 0 done, 1 an I/O failure, 2 a bad input, 128+N stopped by signal N.\n";

/* The config's opening_plies as its matches will draw them (sim/match.c), refused before any
 * file is touched, as run refuses a plies:N that leaves no game; -1 with
 * `CONFIG: opening_plies: <openings' message>`. */
static int check_openings(const TuneConfig *t, Error *e)
{
    OpeningSet s;
    Error why;
    if (match_openings(&s, &t->variant, t->opening_plies, t->max_plies, &why) != 0)
        return error_set(e, "%s: opening_plies: %s", t->source, why.msg);
    openings_free(&s);
    return 0;
}

/* The summary of a finished tuning. */
static void print_summary(const TuneConfig *t, const TuneReport *r)
{
    printf("tuned %s over %lld iterations of %lld pairs (%lld games in %.1f s on ", t->agent,
           (long long)r->iterations_done, (long long)t->pairs, (long long)r->games, r->seconds);
    if (r->threads_vary)
        printf("%d ranks, %d threads in all", r->ranks, r->all_threads);
    else
        printf("%d thread%s", r->threads, r->threads == 1 ? "" : "s");
    if (r->ranks > 1 && !r->threads_vary)
        printf(" on each of %d ranks", r->ranks);
    if (r->resumed)
        printf("; %lld iterations resumed from the journal", (long long)r->resumed);
    printf(")\n");
    for (int i = 0; i < t->nweights; i++)
        printf("  %-10s %8.3f -> %8.3f\n", eval_terms[t->w[i].term].name, t->w[i].start,
               r->theta[i]);
    if (r->nverify)
        printf("verification (tuned as A, over colour-swapped pairs):\n");
    for (int i = 0; i < r->nverify; i++)
        tune_verify_print(&r->verify[i], tune_verify_names[i], stdout);
    printf("results: %s\n", t->output);
    printf("tuned spec: %s\n", r->tuned_spec);
}

/* What a tuning will do, for --dry-run. */
static void print_plan(const TuneConfig *t)
{
    char desc[256];
    variant_describe(&t->variant, desc, sizeof desc);
    int64_t per = 2 * t->pairs * (t->opponent ? 2 : 1);
    printf("tuning %s on %s against %s\n", t->agent, desc, t->opponent ? t->opponent : "self");
    for (int i = 0; i < t->nweights; i++)
        printf("  %-10s start %g, min %g, max %g, step %g\n", eval_terms[t->w[i].term].name,
               t->w[i].start, t->w[i].p.lo, t->w[i].p.hi, t->w[i].p.step);
    printf("SPSA: %lld iterations of %lld games; a %g, c %g, A %g, alpha %g, gamma %g\n",
           (long long)t->iterations, (long long)per, t->gains.a, t->gains.c, t->gains.A,
           t->gains.alpha, t->gains.gamma);
    printf("verification: %lld pairs against the start weights (SPRT H0 elo %g vs H1 elo %g) "
           "and the defaults (H0 elo %g vs H1 elo %g)\n", (long long)t->verify_pairs,
           t->sprt[VERIFY_START].elo0, t->sprt[VERIFY_START].elo1,
           t->sprt[VERIFY_DEFAULTS].elo0, t->sprt[VERIFY_DEFAULTS].elo1);
    printf("games: at most %lld; seed %lld; output %s\n",
           (long long)(t->iterations * per + 4 * t->verify_pairs), (long long)t->seed, t->output);
}

int cmd_tune(int argc, char **argv)
{
    static const struct option own[] = {
        { "output", required_argument, NULL, 'o' },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "resume", no_argument, NULL, OPT_RESUME },
        { "force", no_argument, NULL, OPT_FORCE },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "dry-run", no_argument, NULL, OPT_DRY_RUN },
        { "peer-timeout", required_argument, NULL, OPT_PEER_TIMEOUT },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    TuneOptions o = { false, false, false, 0, 0 };
    const char *output = NULL;
    int threads = -1, c;
    bool dry_run = false;
    while ((c = cli_getopt(argc, argv, "o:", own)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case OPT_THREADS: threads = (int)cli_number("--threads", optarg, 1, 4096); break;
        case OPT_RESUME: o.resume = true; break;
        case OPT_FORCE: o.force = true; break;
        case OPT_QUIET: o.quiet = true; break;
        case OPT_DRY_RUN: dry_run = true; break;
        case OPT_PEER_TIMEOUT: cli_peer_timeout(optarg); break;
        case OPT_HELP: printf("%s", tune_usage); return 0;
        }
    }
    if (optind >= argc)
        die("missing the tuning CONFIG (see --help)");
    if (optind + 1 < argc)
        die("unexpected argument '%s' (see --help)", argv[optind + 1]);
    if (output && !*output)
        die("-o: the results file name is empty");
    TuneConfig t;
    TuneReport r;
    Error e;
    int rc = tune_config_load(&t, argv[optind], output, threads, &e);
    if (rc == 0 && (rc = check_openings(&t, &e)) != 0)
        tune_config_free(&t);
    cli_agree_or_die(rc == 0, e.msg);
    if (dry_run && !cluster_leads()) {
        tune_config_free(&t);
        return 0;
    }
    if (dry_run) {
        print_plan(&t);
        tune_config_free(&t);
        return 0;
    }
    char note[4200];
    snprintf(note, sizeof note, "the finished iterations are kept in %s.journal; continue "
             "with --resume", t.output);
    cluster_set_resume_note(note);
    RunStatus st = tune_run(&t, &o, &r, &e);
    fflush(stderr);
    if (!cluster_leads()) {
        /* Rank 0 reports; the others end with its status. */
        tune_config_free(&t);
        return checkpoint_exit_status(st, r.signal);
    }
    int status = 0;
    switch (st) {
    case RUN_DONE:
        print_summary(&t, &r);
        break;
    case RUN_WAS_DONE:
        fprintf(stderr, "%s: %s is complete (the tuning had finished when it was stopped); "
                "its leftover journal is removed\n", cli_command, t.output);
        break;
    case RUN_INTERRUPTED:
        fprintf(stderr, "%s: stopped%s: %lld of %lld iterations are kept in %s.journal; "
                "continue with --resume\n", cli_command,
                r.signal == 2 ? " by SIGINT" : r.signal == 15 ? " by SIGTERM" : "",
                (long long)r.iterations_done, (long long)t.iterations, t.output);
        status = checkpoint_exit_status(st, r.signal);
        break;
    case RUN_REFUSED:
        tune_config_free(&t);
        die("%s", e.msg);
    case RUN_FAILED:
    default:
        tune_config_free(&t);
        fail("%s (the finished iterations are kept; once the cause is fixed, continue with "
             "--resume)", e.msg);
    }
    tune_config_free(&t);
    return status;
}
