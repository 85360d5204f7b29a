/* cmd_merge.c: `anywoli merge`, results files of one experiment's game ranges into one file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "config.h"
#include "driver.h"
#include "grow.h"

enum { OPT_FORCE = OPT_FIRST_FREE, OPT_QUIET, OPT_THREADS };

static const char merge_usage[] =
    "usage: anywoli merge -o OUT [--force] [--quiet] [--threads N] FILE FILE...\n\n"
    "Put results files of one experiment together: each played some of every\n"
    "job's games (`run --first-game N --games M` plays games N .. N+M-1), and OUT\n"
    "holds them all, equal game for game to the file one run of the whole would\n"
    "write (the games tables, moves, openings, histograms and summaries). The\n"
    "files must be complete and of the same experiment but each job's first game\n"
    "and number of games, and for each job their games must follow one another,\n"
    "from its first, without a gap or an overlap. OUT's config is the text of the\n"
    "file holding the earliest games, with a comment naming the files merged; its\n"
    "start time the earliest of theirs. A book (openings file:PATH) is read from\n"
    "the path the files name, from the current folder, and must give the openings\n"
    "they stored.\n\n"
    "  -o OUT        the merged results file\n"
    "  --force       replace an existing OUT, or start a stopped merge again\n"
    "  --quiet       no progress line on stderr\n"
    "  --threads N   threads (a merge plays no games; it rebuilds OUT as run does)\n\n"
    "OUT is written as OUT.partial through the journal OUT.journal, as `run` writes\n"
    "its file (the files' games are put in the journal, then the run's resume\n"
    "rebuilds OUT): after a stop, the same command continues.\n"
    "Exit status: 0 done, 1 an I/O failure, 2 a bad input (files of other\n"
    "experiments, games overlapping or missing, an incomplete file, OUT existing\n"
    "without --force: one line on stderr, nothing written), 128+N stopped by\n"
    "signal N.\n";

int cmd_merge(int argc, char **argv)
{
    static const struct option own[] = {
        { "output", required_argument, NULL, 'o' },
        { "force", no_argument, NULL, OPT_FORCE },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    RunOptions ro = { .grow = RUN_GROW_NEW };
    const char *out = NULL;
    int threads = 0, c;
    while ((c = cli_getopt(argc, argv, "o:", own)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case OPT_FORCE: ro.force = true; break;
        case OPT_QUIET: ro.quiet = true; break;
        case OPT_THREADS: threads = (int)cli_number("--threads", optarg, 1, CONFIG_MAX_THREADS); break;
        case OPT_HELP: printf("%s", merge_usage); return 0;
        }
    }
    if (!out || !*out)
        die("-o OUT is required: the merged results file (see --help)");
    if (argc - optind < 2)
        die("give at least two results files to merge (see --help)");
    GrowFiles files = { (const char *const *)argv + optind, argc - optind, false };
    Experiment x;
    Error e;
    if (grow_merged_experiment(&x, &files, out, &e) != 0)
        die("%s", e.msg);
    x.threads = threads;
    RunReport rep;
    RunStatus st = driver_grow(&x, &files, &ro, &rep, &e);
    int status = checkpoint_exit_status(st, rep.signal);
    if (st == RUN_DONE)
        printf("merged: %s (%d job%s, %" PRId64 " games from %d files)\n", out, x.njobs,
               x.njobs == 1 ? "" : "s", rep.kept, files.n);
    else if (st == RUN_INTERRUPTED)
        fprintf(stderr, "%s: stopped: the same command continues\n", cli_command);
    run_report_free(&rep);
    experiment_free(&x);
    if (st == RUN_REFUSED)
        die("%s", e.msg);
    if (st == RUN_FAILED)
        fail("%s (%s.journal is kept: the same command continues once the cause is fixed)",
             e.msg, out);
    return status;
}
