/* cmd_analyze.c: `anywoli analyze`, a results file to tables, JSON or an HTML report (the
 * work is in analysis/: analyze.h, report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cli.h"
#include "commands.h"
#include "report.h"
#include "report_page.h"
#include "tune.h"
#include "tune_print.h"

enum { OPT_JOB = OPT_FIRST_FREE, OPT_JSON, OPT_REPORT, OPT_FORCE, OPT_SPRT };

static const char analyze_usage[] =
    "usage: anywoli analyze FILE [--job NAME] [--json] [--report DIR [--force]]\n"
    "                       [--sprt ELO0,ELO1[,ALPHA,BETA]]\n\n"
    "Analyse a results file (format 1): for each job, its outcomes with 95% Wilson\n"
    "intervals, the first-player advantage with its interval and an exact binomial\n"
    "test, the colour split of two agents, the three final_four conventions re-scored\n"
    "on the same games with paired McNemar tests, game length and score margin, agent\n"
    "A's score, Elo and likelihood of superiority, and Ludii-style metrics; between\n"
    "the jobs of the file, the advantage per job and tests of difference with Holm's\n"
    "correction, and Bradley-Terry-Davidson ratings of the agents of a round robin.\n"
    "Tables go to stdout.\n\n"
    "  --job NAME    only this job (a job the file lacks: an error listing its jobs)\n"
    "  --json        one JSON document instead of the tables (keys: docs/analyze.md)\n"
    "  --report DIR  also write DIR/index.html with plots (needs gnuplot:\n"
    "                gnuplot-nox); an existing DIR/index.html is an error; once\n"
    "                written, a line on stderr says where\n"
    "  --force       with --report: replace DIR/index.html (once the new page is\n"
    "                whole)\n"
    "  --sprt E0,E1[,A,B]  a sequential probability ratio test of each job's match:\n"
    "                H0 Elo E0 against H1 Elo E1 (finite, -2000 <= E0 < E1 <= 2000),\n"
    "                error rates A and B (default 0.05, 0.05)\n"
    "  --help        this text\n\n"
    "A file of `anywoli tune` shows its weights, the SPSA trajectory (sampled when\n"
    "long) and the verification matches; --report plots each weight over the\n"
    "iterations and the matches.\n\n"
    "Exit status: 0 done, 1 an I/O failure (drawing or writing the report), 2 a bad\n"
    "input (not a results file, another format_version, a damaged file, an unknown\n"
    "job, a report folder that cannot be written or already holds index.html).\n";

/* Parse --sprt's ELO0,ELO1[,ALPHA,BETA] into opt (elo.h's sprt_bounds_parse); dies on a bad
 * value. */
static void parse_sprt(const char *text, AnalyzeOptions *opt)
{
    SprtBounds b;
    char why[256];
    if (sprt_bounds_parse(text, &b, why, sizeof why) != 0)
        die("--sprt: %s", why);
    opt->sprt = true;
    opt->elo0 = b.elo0;
    opt->elo1 = b.elo1;
    opt->alpha = b.alpha;
    opt->beta = b.beta;
}

/* Whether --report's folder can take the report (before any output): dies if not. */
static void check_report_dir(const char *report, bool force)
{
    Error e;
    if (report && report_check_dir(report, force, &e) != 0)
        die("--report: %s", e.msg);
}

/* --report's folder without its trailing slashes ("rep/" as "rep"; "/" stays), so that the
 * paths made from it, DIR/index.html, read as one slash in every message. */
static char *report_folder(char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
    return dir;
}

/* Say where the report went, as a writer does; on stderr, which keeps stdout the analysis
 * alone (JSON with --json). */
static void report_written(const char *dir)
{
    fprintf(stderr, "%s: report written to %s%sindex.html\n", cli_command, dir,
            strcmp(dir, "/") == 0 ? "" : "/");
}

/* A tuning's file, read into d: its tables, JSON or report; frees d. */
static int analyze_tuning(TuneData *d, const char *path, bool json, const char *report,
                          bool force)
{
    Error e;
    check_report_dir(report, force);
    if (json)
        tune_json(d, path, stdout);
    else
        tune_print(d, stdout);
    int rc = report ? tune_report(d, path, report, force, &e) : 0;
    tune_data_free(d);
    if (rc == REPORT_REFUSED)
        die("--report: %s", e.msg);
    if (rc != 0)
        fail("--report: %s", e.msg);
    if (report)
        report_written(report);
    return 0;
}

int cmd_analyze(int argc, char **argv)
{
    static const struct option opts[] = {
        { "job", required_argument, NULL, OPT_JOB },
        { "json", no_argument, NULL, OPT_JSON },
        { "report", required_argument, NULL, OPT_REPORT },
        { "force", no_argument, NULL, OPT_FORCE },
        { "sprt", required_argument, NULL, OPT_SPRT },
        { "help", no_argument, NULL, OPT_HELP },
        { 0, 0, 0, 0 },
    };
    AnalyzeOptions opt = { 0 };
    const char *report = NULL;
    bool json = false, force = false;
    int c;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        switch (c) {
        case OPT_JOB: opt.job = optarg; break;
        case OPT_JSON: json = true; break;
        case OPT_REPORT: report = report_folder(optarg); break;
        case OPT_FORCE: force = true; break;
        case OPT_SPRT: parse_sprt(optarg, &opt); break;
        case OPT_HELP: printf("%s", analyze_usage); return 0;
        }
    }
    if (optind >= argc)
        die("missing the results FILE (see --help)");
    if (optind + 1 < argc)
        die("unexpected argument '%s' (see --help)", argv[optind + 1]);
    if (force && !report)
        die("--force applies to --report (see --help)");
    if (report && !report_gnuplot_available())
        fail("--report needs gnuplot, which is not on PATH (Debian: apt-get install "
             "gnuplot-nox)");
    /* One open file, through the one reader: a tuning's or an experiment's. */
    Error e;
    ResultsFile *f = rf_open(argv[optind], &e);
    if (!f)
        die("%s", e.msg);
    if (rf_has_group(f, "tuning")) {
        if (opt.job || opt.sprt)
            die("%s is a tuning: --job and --sprt apply to an experiment's jobs (its matches "
                "have their own SPRT)", argv[optind]);
        TuneData d;
        int rc = tune_read_results(f, &d, &e);
        rf_close(f);
        if (rc != 0)
            die("%s", e.msg);
        return analyze_tuning(&d, argv[optind], json, report, force);
    }
    Analysis a;
    int rc = analyze_results(f, &opt, &a, &e);
    rf_close(f);
    if (rc == -2)
        fail("%s", e.msg);
    if (rc != 0)
        die("%s", e.msg);
    check_report_dir(report, force);
    if (json)
        analyze_json(&a, stdout);
    else
        analyze_print(&a, stdout);
    rc = report ? report_write(&a, report, force, &e) : 0;
    if (rc == REPORT_REFUSED)
        die("--report: %s", e.msg);
    if (rc != 0)
        fail("--report: %s", e.msg);
    if (report)
        report_written(report);
    analysis_free(&a);
    return 0;
}
