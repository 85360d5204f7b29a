/* cmd_run.c: `anywoli run`, an experiment (a config, or the quick form) into a results file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cli.h"
#include "cluster.h"
#include "commands.h"
#include "config.h"
#include "driver.h"
#include "grow.h"

enum {
    OPT_THREADS = OPT_FIRST_FREE, OPT_BATCH, OPT_RESUME, OPT_FORCE, OPT_QUIET, OPT_AGENT_A,
    OPT_AGENT_B, OPT_GAMES, OPT_SEED, OPT_DRY_RUN, OPT_OPENINGS, OPT_RECORD_MOVES, OPT_PEER_TIMEOUT,
    OPT_SPRT, OPT_ROOT_DESIGN, OPT_PROGRESS, OPT_FIRST_GAME, OPT_EXTEND, OPT_GAUNTLET,
    OPT_ROUND_ROBIN, OPT_OPENINGS_ORDER, OPT_ADJUDICATE
};

static const char run_usage[] =
    "usage: anywoli run [CONFIG] [-o FILE] [--threads N] [--resume] [--force]\n"
    "                   [--extend] [--quiet | --progress json] [variant options]\n"
    "                   [--agent-a SPEC] [--agent-b SPEC] [--games N]\n"
    "                   [--first-game N] [--openings SPEC] [--openings-order ORDER]\n"
    "                   [--record-moves] [--seed N] [--sprt ELO0,ELO1[,ALPHA,BETA]]\n"
    "                   [--root-design ROUND_PAIRS,HALFWIDTH[,CONFIDENCE]]\n"
    "                   [--batch N] [--dry-run] [--peer-timeout S]\n"
    "       anywoli run (--gauntlet SPEC | --round-robin SPEC)... [the options above]\n\n"
    "Play an experiment's games on every core into a results file (HDF5, format 1),\n"
    "then print a summary per job. CONFIG is an experiment (see configs/); without\n"
    "one, the options make a one-job experiment named `main` (defaults: random\n"
    "agents, 10000 games, seed 0, results.h5). Options given with a CONFIG override\n"
    "its settings, for every job.\n"
    "Paths: a book a CONFIG names by a relative path (openings = \"file:PATH\") is\n"
    "read from the CONFIG's folder, so a config and its book travel together; every\n"
    "other relative path is taken from the current folder: the config's `output`,\n"
    "-o, --openings file:PATH and a file an agent spec names (tables=PATH).\n\n"
    "  -o FILE          the results file (the config's `output`)\n"
    "  --threads N      OpenMP threads playing games (default: OMP_NUM_THREADS, else\n"
    "                   every core this process may use; under MPI, per rank)\n"
    "  --batch N        games per batch (default: about half a second's worth)\n"
    "  --resume         continue FILE.partial from its journal FILE.journal (a\n"
    "                   finished FILE has nothing to resume: refused, exit status 2)\n"
    "  --force          replace an existing FILE, or start an interrupted run again\n"
    "  --extend         grow the complete FILE to the experiment given, which equals\n"
    "                   FILE's but that jobs may have more games: plays only the new\n"
    "                   games, and FILE ends equal to one run of the larger size\n"
    "                   (replaced only at the end; after a stop, the same command\n"
    "                   with --extend continues; --force starts it again)\n"
    "  --quiet          no progress line on stderr\n"
    "  --progress json  the progress as JSON lines on stderr, for dashboards: a\n"
    "                   start record, one every ANYWOLI_PROGRESS_SECONDS (5) seconds\n"
    "                   while games are played, and an end record with the outcome\n"
    "                   (complete, stopped_early, interrupted or failed) and the\n"
    "                   games in the file (keys: docs/commands.md) (text: the line,\n"
    "                   the default); either way it shows the job's figure:\n"
    "                   A's score and Elo (South's advantage for an agent against\n"
    "                   itself) with its interval over pairs, or openings where pairs\n"
    "                   repeat them, and the sequential test's LLR against its bounds\n"
    "  --dry-run        check the experiment and list its jobs; play nothing and\n"
    "                   build nothing (tables=auto, a board's fitted evaluation)\n"
    "  --agent-a SPEC   agent A (South in even-numbered games), e.g. greedy,\n"
    "                   alphabeta:depth=4\n"
    "  --agent-b SPEC   agent B\n"
    "  --games N        games per job\n"
    "  --first-game N   every job plays games N .. N+games-1 (N even; default 0): a\n"
    "                   slice of a larger run, for `anywoli merge`\n"
    "  --openings SPEC  where each pair of games (2k, 2k+1: the same opening, colours\n"
    "                   swapped) starts, the config's `openings`: start (the\n"
    "                   default), plies:N (N random plies, drawn per pair), all:N\n"
    "                   (every line of N plies, in turn) or file:PATH (a book: a move\n"
    "                   list or an APN a line)\n"
    "  --openings-order ORDER\n"
    "                   in-order (the default) or shuffled: a list of openings\n"
    "                   (all:N, file:PATH) played in a permutation drawn from the\n"
    "                   seed, once per job, every cycle of the list in that order\n"
    "                   (the config's `openings_order`)\n"
    "  --gauntlet SPEC  a tournament, repeated once a spec (two or more): the first\n"
    "                   spec against each other one, a job each (gauntlet-1-2, ...)\n"
    "  --round-robin SPEC\n"
    "                   a tournament, repeated once a spec (two or more): every pair\n"
    "                   of specs once, a job each (rr-1-2, rr-1-3, rr-2-3, ...); A is\n"
    "                   the earlier spec. In either, --games (even), --openings and\n"
    "                   the other options apply to every job; not with CONFIG,\n"
    "                   --agent-a or --agent-b\n"
    "  --record-moves   store every game's moves in the file (/jobs/<job>/moves),\n"
    "                   the config's `record_moves`; `replay` then checks them\n"
    "  --adjudicate     end each game once a store holds more than half the seeds\n"
    "                   (its winner is certain), the config's `adjudicate`: the\n"
    "                   record keeps the winner and the stores then (docs/results.md)\n"
    "  --seed N         the experiment's seed, 0 to 2^63-1\n"
    "  --sprt E0,E1[,A,B]\n"
    "                   stop each job when its sequential test decides (the\n"
    "                   config's `sprt`): the pentanomial GSPRT of H0 Elo = E0\n"
    "                   against H1 Elo = E1 for A over B, error rates A and B (0.05\n"
    "                   unless given), checked after each pair of games in order\n"
    "                   once 50 pairs are in, so the games kept are the first 2k\n"
    "                   planned, for any thread or rank count; `games` is the most\n"
    "                   a job plays\n"
    "  --root-design R,H[,C]\n"
    "                   the adaptive root design for each job (the config's\n"
    "                   `root_design`; self-play from all:N): R pairs a round to\n"
    "                   every line still in, until South's best line is known to\n"
    "                   +-H points (intervals at confidence C, 0.95 unless given)\n"
    "                   or `games` is spent\n"
    CLI_PEER_TIMEOUT_HELP "\n"
    "The file is written as FILE.partial and renamed when complete; every finished\n"
    "batch is also kept in FILE.journal, so that SIGINT, SIGTERM or even kill -9\n"
    "loses at most the batch in flight: --resume then continues to a file equal to an\n"
    "uninterrupted run's.\n"
    "Under mpirun (a build with -DANYWOLI_MPI=ON), the ranks share every batch and\n"
    "rank 0 writes the file: the same tables as one process, for any number of ranks.\n"
    "Exit status: 0 done, 1 an I/O failure, 2 a bad input, 128+N stopped by signal N.\n\n";

/* Whether an argument can be shown in a shell command without quotes. */
static bool shell_plain(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+-@%", *s))
            return false;
    return true;
}

/* The command that resumes this run: the same arguments, less --force and --resume, then
 * --resume; or for an extend, which continues its own journal, the same with --extend (under
 * MPI, started by mpirun with as many ranks). */
static void resume_command(int argc, char **argv, char *buf, size_t len)
{
    size_t used = 0;
    bool extend = false;
    for (int i = 1; i < argc; i++)
        extend |= strcmp(argv[i], "--extend") == 0;
    if (cluster_joined())
        used = (size_t)snprintf(buf, len, "mpirun -np %d ", cluster_size());
    used += (size_t)snprintf(buf + used, len - used, "anywoli run");
    for (int i = 1; i < argc && used < len; i++) {
        if (strcmp(argv[i], "--force") == 0 || strcmp(argv[i], "--resume") == 0)
            continue;
        if (shell_plain(argv[i])) {
            used += (size_t)snprintf(buf + used, len - used, " %s", argv[i]);
            continue;
        }
        used += (size_t)snprintf(buf + used, len - used, " '");
        for (const char *p = argv[i]; *p && used < len; p++)
            used += (size_t)snprintf(buf + used, len - used, *p == '\'' ? "'\\''" : "%c", *p);
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "'");
    }
    if (used < len && !extend)
        snprintf(buf + used, len - used, " --resume");
}

/* A count and its share of n, as `123 45.6%`. */
static void count_rate(char *buf, size_t len, int64_t k, int64_t n)
{
    snprintf(buf, len, "%" PRId64 " %5.1f%%", k, n ? 100.0 * (double)k / (double)n : 0.0);
}

/* A line for each job whose sequential test stopped it, and for each that has one still
 * undecided after all its games; and for each adaptive root design, where it ended. */
static void print_stops(const Experiment *x, const RunReport *rep)
{
    for (int i = 0; i < x->njobs; i++) {
        const Job *j = &x->jobs[i];
        const JobStop *s = &rep->stats[i].stop;
        const RootRace *race = rep->stats[i].race;
        if (j->has_root_design && race) {
            printf("root_design %s: root [%+.4f, %+.4f] (half-width %.1f points, the rule %g) "
                   "after %d rounds, %d lines in: %s (%" PRId64 " of %" PRId64 " games)\n",
                   j->name, race->root.lo, race->root.hi,
                   100.0 * (race->root.hi - race->root.lo) / 2.0, j->root_design.halfwidth,
                   race->round + 1, race->nin,
                   s->stopped ? "half-width reached" : "budget spent", rep->stats[i].games,
                   j->games);
            continue;
        }
        if (!j->has_sprt)
            continue;
        printf("sprt %s: H0 elo %g vs H1 elo %g (alpha %g, beta %g): LLR %.2f [%.2f, %.2f], ",
               j->name, j->sprt.elo0, j->sprt.elo1, j->sprt.alpha, j->sprt.beta, s->test.llr,
               s->test.lower, s->test.upper);
        if (s->stopped)
            printf("%s: stopped after %" PRId64 " pairs (%" PRId64 " of %" PRId64 " games)\n",
                   sprt_decision_text(s->test.decision), s->pair + 1, rep->stats[i].games,
                   j->games);
        else
            printf("no decision after all %" PRId64 " games\n", rep->stats[i].games);
    }
}

/* A note on stderr for each job whose odd number of games splits its last pair (checked with
 * the experiment, before any game): the paired figures will leave that game out. */
static void note_split_pairs(const Experiment *x)
{
    for (int i = 0; i < x->njobs; i++) {
        const Job *j = &x->jobs[i];
        if (job_splits_last_pair(j, j->games))
            fprintf(stderr, "%s: note: job '%s': %" PRId64 " games is odd, so its last game "
                    "(game %" PRId64 ") has no colour-swapped partner and the paired figures "
                    "(analyze's pairs, the SPRT) leave it out; an even number keeps every pair "
                    "whole\n", cli_command, j->name, j->games, j->first_game + j->games - 1);
    }
}

/* The summary table: one row per job. */
static void print_summary(const Experiment *x, const RunReport *rep)
{
    int w = 3;
    for (int i = 0; i < x->njobs; i++)
        w = (int)strlen(x->jobs[i].name) > w ? (int)strlen(x->jobs[i].name) : w;
    printf("%-*s %10s %15s %15s %13s %13s %13s %10s %7s  %s\n", w, "job", "games", "south won",
           "north won", "draw", "endless", "unfinished", "mean plies", "A won", "agents A vs B");
    for (int i = 0; i < x->njobs; i++) {
        const JobStats *s = &rep->stats[i];
        char c[5][40];
        for (int k = 0; k < 5; k++)
            count_rate(c[k], sizeof c[k], s->outcome[k], s->games);
        printf("%-*s %10" PRId64 " %15s %15s %13s %13s %13s %10.1f %6.1f%%  %s vs %s\n", w,
               x->jobs[i].name, s->games, c[0], c[1], c[2], c[3], c[4],
               s->games ? (double)s->plies / (double)s->games : 0.0,
               s->games ? 100.0 * (double)s->a_wins / (double)s->games : 0.0,
               x->jobs[i].agent_a, x->jobs[i].agent_b);
    }
    print_stops(x, rep);
    for (int i = 0; i < x->njobs; i++)
        if (job_splits_last_pair(&x->jobs[i], rep->stats[i].games))
            printf("note: job %s: its last game has no colour-swapped partner (%" PRId64
                   " games, an odd number): the paired figures leave it out\n",
                   x->jobs[i].name, rep->stats[i].games);
    printf("results: %s (%d job%s, %" PRId64 " games; played %" PRId64 " in %.1f s, %.0f games/s"
           " on ", x->output, x->njobs, x->njobs == 1 ? "" : "s", rep->kept, rep->played,
           rep->seconds, rep->seconds > 0 ? (double)rep->played / rep->seconds : 0.0);
    if (rep->threads_vary)
        printf("%d ranks, %d threads in all", rep->ranks, rep->all_threads);
    else if (rep->ranks > 1)
        printf("%d ranks x ", rep->ranks);
    if (!rep->threads_vary)
        printf("%d thread%s", rep->threads, rep->threads == 1 ? "" : "s");
    if (rep->ranks > 1)
        printf("; rank 0 waited %.2f s for the other ranks' rows", rep->gather_seconds);
    if (rep->resumed)
        printf("; %" PRId64 " resumed from the journal", rep->resumed);
    printf(")\n");
}

/* The jobs an experiment expands to, for --dry-run. */
static void print_jobs(const Experiment *x)
{
    int64_t games = 0;
    for (int i = 0; i < x->njobs; i++) {
        const Job *j = &x->jobs[i];
        char desc[256];
        variant_describe(&j->variant, desc, sizeof desc);
        printf("job %s: %s; %s vs %s; %" PRId64 " games", j->name, desc, j->agent_a,
               j->agent_b, j->games);
        if (j->openings.kind != OPENINGS_START)
            printf("; openings %s", j->openings.spec);
        if (j->openings.order != OPENINGS_IN_ORDER)
            printf(" %s", openings_order_names[j->openings.order]);
        if (j->has_root_design) {
            char rule[96];
            root_rule_text(&j->root_design, rule, sizeof rule);
            printf("; root_design %s (games: its budget)", rule);
        }
        printf("\n");
        games += j->games;
    }
    printf("experiment: %d job%s, %" PRId64 " games, seed %" PRId64 ", output %s\n", x->njobs,
           x->njobs == 1 ? "" : "s", games, x->seed, x->output);
}

/* Report how the run ended and return the exit status. */
static int conclude(const Experiment *x, RunStatus st, const RunReport *rep, const Error *e,
                    const char *resume)
{
    switch (st) {
    case RUN_DONE:
        print_summary(x, rep);
        return 0;
    case RUN_WAS_DONE:
        fprintf(stderr, "%s: %s is complete (the run had finished when it was stopped); its "
                "leftover journal is removed\n", cli_command, x->output);
        return 0;
    case RUN_INTERRUPTED:
        fprintf(stderr, "%s: stopped by %s: %" PRId64 " of %" PRId64 " games are kept in "
                "%s.partial; continue with: %s\n", cli_command,
                rep->signal == 2 ? "SIGINT" : rep->signal == 15 ? "SIGTERM" : "a signal",
                rep->kept, rep->total, x->output, resume);
        return checkpoint_exit_status(st, rep->signal);
    case RUN_REFUSED:
        die("%s", e->msg);
    case RUN_FAILED:
    default:
        fail("%s (the finished batches are kept in %s.journal; once the cause is fixed, "
             "continue with: %s)", e->msg, x->output, resume);
    }
}

int cmd_run(int argc, char **argv)
{
    static const struct option own[] = {
        { "output", required_argument, NULL, 'o' },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "batch", required_argument, NULL, OPT_BATCH },
        { "resume", no_argument, NULL, OPT_RESUME },
        { "force", no_argument, NULL, OPT_FORCE },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "agent-a", required_argument, NULL, OPT_AGENT_A },
        { "agent-b", required_argument, NULL, OPT_AGENT_B },
        { "games", required_argument, NULL, OPT_GAMES },
        { "seed", required_argument, NULL, OPT_SEED },
        { "dry-run", no_argument, NULL, OPT_DRY_RUN },
        { "openings", required_argument, NULL, OPT_OPENINGS },
        { "record-moves", no_argument, NULL, OPT_RECORD_MOVES },
        { "adjudicate", no_argument, NULL, OPT_ADJUDICATE },
        { "peer-timeout", required_argument, NULL, OPT_PEER_TIMEOUT },
        { "sprt", required_argument, NULL, OPT_SPRT },
        { "root-design", required_argument, NULL, OPT_ROOT_DESIGN },
        { "progress", required_argument, NULL, OPT_PROGRESS },
        { "first-game", required_argument, NULL, OPT_FIRST_GAME },
        { "extend", no_argument, NULL, OPT_EXTEND },
        { "gauntlet", required_argument, NULL, OPT_GAUNTLET },
        { "round-robin", required_argument, NULL, OPT_ROUND_ROBIN },
        { "openings-order", required_argument, NULL, OPT_OPENINGS_ORDER },
        { NULL, 0, NULL, 0 },
    };
    Overrides o;
    RunOptions ro = { .resume = false };
    bool dry_run = false;
    int c;
    bool given[TOURNAMENT_NB] = { false, false };
    const char **specs = calloc((size_t)argc, sizeof *specs);   /* no more specs than arguments */
    int nspecs = 0;
    if (!specs)
        fail("out of memory");
    overrides_none(&o);
    while ((c = cli_next_option(argc, argv, "o:", own, &o.variant)) != -1) {
        switch (c) {
        case 'o': o.output = optarg; break;
        case OPT_THREADS: o.threads = (int)cli_number("--threads", optarg, 1, CONFIG_MAX_THREADS); break;
        case OPT_BATCH: o.batch = cli_number("--batch", optarg, 1, CONFIG_MAX_BATCH); break;
        case OPT_RESUME: ro.resume = true; break;
        case OPT_FORCE: ro.force = true; break;
        case OPT_QUIET: ro.quiet = true; break;
        case OPT_DRY_RUN: dry_run = true; break;
        case OPT_AGENT_A: o.agent_a = optarg; break;
        case OPT_AGENT_B: o.agent_b = optarg; break;
        case OPT_OPENINGS: o.openings = optarg; break;
        case OPT_OPENINGS_ORDER: o.openings_order = optarg; break;
        case OPT_GAUNTLET:
        case OPT_ROUND_ROBIN:
            given[c == OPT_ROUND_ROBIN] = true;
            specs[nspecs++] = optarg;
            break;
        case OPT_RECORD_MOVES: o.record_moves = true; break;
        case OPT_ADJUDICATE: o.adjudicate = true; break;
        case OPT_SPRT: o.sprt = optarg; break;
        case OPT_ROOT_DESIGN: o.root_design = optarg; break;
        case OPT_PROGRESS:
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0)
                die("--progress: '%s' is not text or json", optarg);
            ro.progress_json = strcmp(optarg, "json") == 0;
            break;
        case OPT_GAMES: o.games = cli_number("--games", optarg, 1, CONFIG_MAX_GAMES); break;
        case OPT_FIRST_GAME:
            o.first_game = cli_number("--first-game", optarg, 0, CONFIG_MAX_GAMES);
            if (o.first_game % 2)
                die("--first-game: %" PRId64 " is odd (a slice keeps pairs of games whole: "
                    "expected an even number)", o.first_game);
            break;
        case OPT_EXTEND: ro.grow = RUN_GROW_IN_PLACE; break;
        case OPT_SEED: o.seed = cli_number("--seed", optarg, 0, INT64_MAX); break;
        case OPT_PEER_TIMEOUT: cli_peer_timeout(optarg); break;
        case OPT_HELP:
            printf("%s%s", run_usage, cli_variant_help());
            free(specs);
            return 0;
        }
    }
    if (optind + 1 < argc)
        die("unexpected argument '%s' (see --help)", argv[optind + 1]);
    if (o.output && !*o.output)
        die("-o: the results file name is empty");
    if (ro.grow && ro.resume)
        die("--extend and --resume: --extend alone continues a stopped extend");
    if (given[TOURNAMENT_GAUNTLET] && given[TOURNAMENT_ROUND_ROBIN])
        die("--gauntlet and --round-robin: give one of them (the tournament's kind)");
    bool tournament = given[TOURNAMENT_GAUNTLET] || given[TOURNAMENT_ROUND_ROBIN];
    TournamentKind kind = given[TOURNAMENT_ROUND_ROBIN] ? TOURNAMENT_ROUND_ROBIN
                                                        : TOURNAMENT_GAUNTLET;
    if (tournament && optind < argc)
        die("%s: not with a CONFIG ('%s' lists its own jobs)", tournament_options[kind],
            argv[optind]);

    Experiment x;
    Error e;
    if (dry_run)
        agents_defer_builds();   /* listing the jobs must not build tables or fit sets */
    int rc = optind < argc ? experiment_load(&x, argv[optind], &o, &e)
             : tournament  ? experiment_tournament(&x, &o, kind, specs, nspecs, &e)
                           : experiment_quick(&x, &o, &e);
    free(specs);
    cli_agree_or_die(rc == 0, e.msg);
    if (cluster_leads())
        note_split_pairs(&x);
    if (dry_run && !cluster_leads()) {
        experiment_free(&x);
        return 0;
    }
    if (dry_run) {
        print_jobs(&x);
        experiment_free(&x);
        return 0;
    }
    char resume[2048];
    resume_command(argc, argv, resume, sizeof resume);
    char note[sizeof resume + 256];
    snprintf(note, sizeof note, "the finished batches are kept in %s.journal; continue with: %s",
             x.output, resume);
    cluster_set_resume_note(note);
    RunReport rep;
    const char *grown[1] = { x.output };
    GrowFiles files = { grown, 1, true };
    RunStatus st = driver_grow(&x, ro.grow ? &files : NULL, &ro, &rep, &e);
    fflush(stderr);
    int status = cluster_leads() ? conclude(&x, st, &rep, &e, resume)
                                     : checkpoint_exit_status(st, rep.signal);
    run_report_free(&rep);
    experiment_free(&x);
    return status;
}
