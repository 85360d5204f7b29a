/* cmd_export.c: `anywoli export`, a results file's games as CSV, one row per game, with the
 * codes of the file written as words and each job's variant and agents as columns, for
 * readers that do not speak HDF5 (R, spreadsheets). The games are streamed through
 * sim/results_read.c's row stream, a chunk at a time, so memory stays flat however many. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "door.h"
#include "output.h"
#include "results_read.h"

enum { OPT_JOB = OPT_FIRST_FREE, OPT_MOVES, OPT_FORCE };

/* Rows read from the file at a time: the games table's chunk (docs/results.md). */
#define EXPORT_ROWS 16384

static const char export_usage[] =
    "usage: anywoli export FILE [--job NAME] [--moves] [-o OUT [--force]]\n\n"
    "Write the games of a results file as CSV (RFC 4180 quoting), one row per game,\n"
    "in job order then game order, to stdout or to OUT. Columns (docs/results.md):\n"
    "  job, game          the job's name and the game's index in it\n"
    "  outcome            south, north, draw, endless or unfinished (under the job's\n"
    "                     final_four)\n"
    "  south, north, left the final seeds of each side; the seeds left for the award\n"
    "  recipient_penultimate, recipient_first_final, recipient_lottery\n"
    "                     who receives the seeds left under each convention, as\n"
    "                     `analyze` re-awards them: south, north or none (no capture)\n"
    "  plies, passes, mid_captures, final_captures, opening (-1: the variant's start)\n"
    "  south_agent, north_agent   A or B: which of the job's agents played each side\n"
    "%s\n"   /* the variant's parameters, by print_usage */
    "  agent_a, agent_b   the job's variant and agent specs, written as configs\n"
    "                     write them (yes or no, not 1 or 0)\n"
    "  nodes_a, nodes_b   what each agent searched in the game (when the file has\n"
    "                     them; empty for a job without them)\n"
    "  choices_a, choices_b   the moves each agent chose (likewise): nodes_a /\n"
    "                     choices_a is A's work per move\n"
    "  moves              with --moves: the game's moves as hole indices from 0\n"
    "                     (0 .. 2H-1: S1 is 0, N1 is H), space-separated (opening\n"
    "                     included), as `anywoli move` also takes them\n\n"
    "  --job NAME   only this job (default: every job)\n"
    "  --moves      add the moves column (the jobs must have been run with\n"
    "               record_moves)\n"
    "  -o, --output OUT   write OUT (as OUT.partial, renamed when complete)\n"
    "  --force      overwrite an existing OUT\n"
    "  --help       this text\n\n"
    "Exit status: 0 done; 2 a bad input (not a results file, a damaged one, an\n"
    "unknown job, a job without stored moves for --moves, OUT existing without\n"
    "--force), with one line on stderr and OUT untouched; 1 a failure of the\n"
    "machine (a write that failed).\n";

/* The usage, with the variant's columns named. */
static void print_usage(void)
{
    char columns[200] = "  ";
    size_t used = 2;
    for (int p = 0; p < VP_NB; p++)
        used += (size_t)snprintf(columns + used, sizeof columns - used, "%s, ",
                                 variant_params[p].name);
    columns[used - 1] = '\0';   /* ends "max_plies," */
    printf(export_usage, columns);
}

/* A side's word (0 South, 1 North, -1 nobody); an outcome's is outcome_name's. */
static const char *side_word(int side)
{
    return side == SOUTH ? "south" : side == NORTH ? "north" : "none";
}

/* What is exported: the file, the jobs, the optional columns. */
typedef struct Export {
    ResultsFile *f;
    const char *job;              /* --job, or NULL: every job */
    bool moves;                   /* --moves */
    bool nodes;                   /* some exported job has nodes_a and nodes_b: the work
                                   * columns (nodes and choices) are written */
} Export;

/* Write s as one CSV field: quoted (and its quotes doubled) when it holds a comma, a quote or
 * a line break, as RFC 4180 asks; as it is otherwise. */
static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Whether job `name` has the columns (files written before them do not: their rows read 0,
 * which is not what was searched or chosen, so those jobs' cells are left empty). */
static bool job_has_columns(const Export *x, const char *name, const char *a, const char *b)
{
    return rf_job_has_field(x->f, name, a) && rf_job_has_field(x->f, name, b);
}

static bool job_has_nodes(const Export *x, const char *name)
{
    return job_has_columns(x, name, "nodes_a", "nodes_b");
}

static bool job_has_choices(const Export *x, const char *name)
{
    return job_has_columns(x, name, "choices_a", "choices_b");
}

/* Which of the work columns a job has: WORK_NODES | WORK_CHOICES. */
enum { WORK_NODES = 1, WORK_CHOICES = 2 };

static int job_work(const Export *x, const char *name)
{
    return (job_has_nodes(x, name) ? WORK_NODES : 0) |
           (job_has_choices(x, name) ? WORK_CHOICES : 0);
}

/* Whether job i of the file is exported. */
static bool exported(const Export *x, int i)
{
    return !x->job || strcmp(rf_job_name(x->f, i), x->job) == 0;
}

/* The moves column of game r: ",3 14 7", read from s into l (reused from game to game) and
 * checked by the reader; -1 with e when they are damaged. */
static int write_moves(FILE *out, MoveStream *s, const GameRecord *r, MoveList *l, Error *e)
{
    if (rf_moves_read(s, r, l, NULL, e) != 0)
        return -1;
    fputc(',', out);
    for (uint32_t i = 0; i < l->n; i++)
        fprintf(out, i ? " %u" : "%u", l->move[i]);
    return 0;
}

/* Check what was asked before any output: the job exists, and with --moves every exported
 * job has its moves. Sets x->nodes. Dies with a one-line message otherwise. */
static void check_request(Export *x)
{
    bool found = false;
    for (int i = 0; i < rf_job_count(x->f); i++) {
        if (!exported(x, i))
            continue;
        found = true;
        const char *name = rf_job_name(x->f, i);
        if (job_has_nodes(x, name))
            x->nodes = true;
        if (x->moves && !rf_job_has_moves(x->f, name))
            die("%s: job %s has no stored moves (run it with record_moves = true, or "
                "--record-moves, to export them)", rf_path(x->f), name);
    }
    StoredJob sj;
    Error e;
    if (x->job && !found && rf_read_job(x->f, x->job, &sj, &e) != 0)
        die("%s", e.msg);   /* the reader's message, naming the jobs there are */
}

/* The header line. */
static void write_header(const Export *x, FILE *out)
{
    fputs("job,game,outcome,south,north,left,recipient_penultimate,recipient_first_final,"
          "recipient_lottery,plies,passes,mid_captures,final_captures,opening,south_agent,"
          "north_agent,", out);
    for (int p = 0; p < VP_NB; p++)
        fprintf(out, "%s,", variant_params[p].name);
    fputs("agent_a,agent_b", out);
    if (x->nodes)
        fputs(",nodes_a,nodes_b,choices_a,choices_b", out);
    if (x->moves)
        fputs(",moves", out);
    fputc('\n', out);
}

/* The columns every row of a job shares, after south_agent and north_agent: its variant (each
 * value as a config writes it: extra_turn yes, not 1) and agents, formatted once. */
static char *job_columns(const StoredJob *sj)
{
    const Variant *v = &sj->variant;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        fail("out of memory");
    for (int p = 0; p < VP_NB; p++) {
        char value[32];
        variant_param_text(v, (VariantParam)p, value, sizeof value);
        fprintf(m, "%s,", value);
    }
    csv_field(m, sj->agent_a);
    fputc(',', m);
    csv_field(m, sj->agent_b);
    if (fclose(m) != 0)
        fail("out of memory");
    return text;
}

/* One game's row, but the moves; `work` is job_work's. */
static void write_row(const Export *x, FILE *out, const char *job, const char *shared,
                      int work, const GameRecord *r)
{
    csv_field(out, job);
    fprintf(out, ",%" PRIu64 ",%s,%u,%u,%u,%s,%s,%s,%" PRIu32 ",%" PRIu32 ",%u,%u,%" PRId32
            ",%s,%s,%s", r->game, outcome_name(r->outcome), r->south, r->north, r->left,
            side_word(award_recipient(FF_PENULTIMATE, r->last_capturer, r->first_final,
                                      r->lottery)),
            side_word(award_recipient(FF_FIRST_FINAL, r->last_capturer, r->first_final,
                                      r->lottery)),
            side_word(award_recipient(FF_LOTTERY, r->last_capturer, r->first_final, r->lottery)),
            r->plies, r->passes, r->mid_captures, r->final_captures, r->opening,
            r->a_south ? "A" : "B", r->a_south ? "B" : "A", shared);
    if (!x->nodes)
        return;
    if (work & WORK_NODES)
        fprintf(out, ",%" PRIu64 ",%" PRIu64, r->nodes_a, r->nodes_b);
    else
        fputs(",,", out);
    if (work & WORK_CHOICES)
        fprintf(out, ",%" PRIu32 ",%" PRIu32, r->choices_a, r->choices_b);
    else
        fputs(",,", out);
}

/* Write job `name`'s rows, a chunk at a time; -1 with e on a damaged table. */
static int write_job(const Export *x, FILE *out, const char *name, GameRecord *rows, Error *e)
{
    StoredJob sj;
    if (rf_read_job(x->f, name, &sj, e) != 0)
        return -1;
    char *shared = job_columns(&sj);
    int work = job_work(x, name);
    RowStream *s = rf_rows_open(x->f, name, e);
    MoveStream *ms = s && x->moves ? rf_moves_open(x->f, name, &sj.variant, e) : NULL;
    MoveList moves = { 0 };
    int rc = s && (ms || !x->moves) ? 0 : -1;
    int64_t n;
    while (rc == 0 && (n = rf_rows_next(s, rows, EXPORT_ROWS, e)) != 0) {
        if (n < 0) {
            rc = -1;
            break;
        }
        for (int64_t i = 0; i < n && rc == 0; i++) {
            write_row(x, out, name, shared, work, &rows[i]);
            if (ms)
                rc = write_moves(out, ms, &rows[i], &moves, e);
            fputc('\n', out);
        }
    }
    move_list_free(&moves);
    rf_moves_close(ms);
    rf_rows_close(s);
    free(shared);
    stored_job_free(&sj);
    return rc;
}

/* Write the whole export to out; -1 with e on a damaged file. */
static int write_export(const Export *x, FILE *out, Error *e)
{
    GameRecord *rows = malloc(EXPORT_ROWS * sizeof *rows);
    if (!rows)
        fail("out of memory");
    write_header(x, out);
    int rc = 0;
    for (int i = 0; i < rf_job_count(x->f) && rc == 0; i++)
        if (exported(x, i))
            rc = write_job(x, out, rf_job_name(x->f, i), rows, e);
    free(rows);
    return rc;
}

/* Export into OUT.partial, flushed, and put it in place as OUT (claimed as o). A damaged
 * file: the partial file removed, nothing put in place, a bad input (exit 2); a failed write:
 * exit 1. */
static void export_to_file(const Export *x, Output *o)
{
    Error e;
    FILE *out = output_stream_open(o, &e);
    if (!out) {
        output_release(o);
        fail("%s", e.msg);
    }
    int bad_input = write_export(x, out, &e);
    int rc = output_stream_close(o, out, bad_input, &e);
    output_release(o);
    if (bad_input)
        die("%s", e.msg);
    if (rc != 0)
        fail("%s", e.msg);
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {
        { "job", required_argument, NULL, OPT_JOB },
        { "moves", no_argument, NULL, OPT_MOVES },
        { "output", required_argument, NULL, 'o' },
        { "force", no_argument, NULL, OPT_FORCE },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    Export x = { .job = NULL };
    const char *path = NULL;
    bool force = false;
    int c;
    while ((c = cli_getopt(argc, argv, "o:", opts)) != -1) {
        switch (c) {
        case OPT_JOB: x.job = optarg; break;
        case OPT_MOVES: x.moves = true; break;
        case 'o': path = optarg; break;
        case OPT_FORCE: force = true; break;
        case OPT_HELP: print_usage(); return 0;
        }
    }
    if (optind >= argc)
        die("missing the results FILE (see --help)");
    if (optind + 1 < argc)
        die("unexpected argument '%s' (see --help)", argv[optind + 1]);
    if (force && !path)
        die("--force: only with -o OUT");
    Error e;
    x.f = rf_open(argv[optind], &e);
    if (!x.f)
        die("%s", e.msg);
    check_request(&x);
    if (path) {
        Output o;
        cli_claim_output(&o, path, force, "export");
        export_to_file(&x, &o);
    } else {
        if (write_export(&x, stdout, &e) != 0)
            die("%s", e.msg);
        cli_flush_stdout();
    }
    rf_close(x.f);
    return 0;
}
