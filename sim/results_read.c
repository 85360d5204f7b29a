/* results_read.c: the one reader of results files (format 1): `analyze`, `replay` and the
 * tuning's reader (sim/tune_file.c) open files through it; games tables are streamed. */
#include "results_read.h"

#include <hdf5.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5util.h"
#include "nearest.h"
#include "door.h"
#include "results.h"
#include "variant_text.h"

#define STREAM_ROWS (4u * RESULTS_CHUNK_ROWS)   /* rows per HDF5 read: whole chunks */

/* A job's name and its run order. */
typedef struct JobName {
    char *name;
    int64_t index;
    bool *openings_checked;             /* its openings table checked against its checksum
                                         * once (set through the const file: a cache) */
} JobName;

struct ResultsFile {
    hid_t file;
    char *path;
    int64_t seed;                       /* the root's, checked */
    JobName *jobs;
    int njobs;
};

struct RowStream {
    hid_t ds, type;
    uint64_t rows, next;
    uint64_t absent;                    /* the stored fields the file lacks (an older file) */
    unsigned char *buf;                 /* STREAM_ROWS packed rows */
    const char *path;
    char *job;                          /* the job's name, for messages */
    Variant variant;                    /* the job's rules, that every row is checked against */
    bool from_positions;                /* its openings may be positions (a book) */
    int64_t openings;                   /* the rows of its openings table (0: none) */
    uint64_t first_game;                /* the game of row 0 (a slice's first_game) */
    bool has_checksum;                  /* the job stores `games_checksum` (a complete file
                                         * of a version that writes it) */
    uint64_t checksum_stored, checksum; /* it, and the sum of the rows' read so far */
    bool in_order;                      /* every row read so far, from the first, in order:
                                         * the sum is the table's once at the end */
    bool adjudicated;                   /* its job adjudicates decided games */
};

/* The attribute's place for messages: "root attribute X" or "job NAME: ... attribute X". */
static int attr_fault(const ResultsFile *f, const char *job, const char *name, const char *why,
                      Error *e)
{
    if (!job)
        return error_set(e, "%s: damaged results file (root attribute %s: %s)", f->path, name,
                         why);
    return error_set(e, "%s: job %s: damaged results file (attribute %s: %s)", f->path, job,
                     name, why);
}

/* Integer attribute name of loc (the root when job is NULL, else job's group) into *v: 0; 1
 * when absent and not required; -1 with a one-line message naming the file, the job and
 * the attribute when it is missing and required, or not one integer. */
static int attr_int(const ResultsFile *f, hid_t loc, const char *job, const char *name,
                    bool required, int64_t *v, Error *e)
{
    char why[160];
    int rc = h5u_get_int(loc, name, v, why, sizeof why);
    if (rc == 1 && required)
        return attr_fault(f, job, name, "missing", e);
    return rc < 0 ? attr_fault(f, job, name, why, e) : rc;
}

/* Text attribute name of loc as a malloc'd string into *s, as attr_int reads integers. */
static int attr_text(const ResultsFile *f, hid_t loc, const char *job, const char *name,
                     bool required, char **s, Error *e)
{
    char why[160];
    int rc = h5u_get_string(loc, name, s, why, sizeof why);
    if (rc == 1 && required)
        return attr_fault(f, job, name, "missing", e);
    return rc < 0 ? attr_fault(f, job, name, why, e) : rc;
}

/* What H5Literate gathers the jobs into, and its first fault. */
typedef struct JobList {
    ResultsFile *f;
    Error *e;
    bool failed;
} JobList;

/* Record one job of /jobs (an H5Literate callback): a group, its `index` one integer when
 * present (files without it are ordered by name). */
static herr_t collect_job(hid_t jobs, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    JobList *list = data;
    ResultsFile *f = list->f;
    JobName *grown = realloc(f->jobs, ((size_t)f->njobs + 1) * sizeof *grown);
    if (!grown) {
        list->failed = error_set(list->e, "out of memory") != 0;
        return -1;
    }
    f->jobs = grown;
    H5O_info_t oi;
    bool is_group = H5Oget_info_by_name(jobs, name, &oi, H5P_DEFAULT) >= 0 &&
                    oi.type == H5O_TYPE_GROUP;
    hid_t g = is_group ? H5Gopen2(jobs, name, H5P_DEFAULT) : -1;
    int64_t index = f->njobs;
    int rc = g < 0 ? error_set(list->e, "%s: damaged results file (/jobs/%s is not a group)",
                               f->path, name)
                   : attr_int(f, g, name, "index", false, &index, list->e);
    if (g >= 0)
        H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    grown[f->njobs] = (JobName){ .name = rc >= 0 ? strdup(name) : NULL, .index = index };
    if (!grown[f->njobs].name) {
        if (rc >= 0)
            error_set(list->e, "out of memory");
        list->failed = true;
        return -1;
    }
    f->njobs++;
    return 0;
}

/* Order jobs by their index, then name. */
static int job_order(const void *x, const void *y)
{
    const JobName *a = x, *b = y;
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Check the root's format attributes; a one-line message when they are wrong. */
static int check_format(const ResultsFile *f, Error *e)
{
    char *format = NULL;
    int64_t version = -1;
    int rc = attr_text(f, f->file, NULL, "format", false, &format, e);
    bool is_results = rc == 0 && strcmp(format, RESULTS_FORMAT) == 0;
    free(format);
    if (rc < 0)
        return -1;
    if (!is_results)
        return error_set(e, "%s: not an anywoli results file (no format \"%s\")", f->path,
                         RESULTS_FORMAT);
    if (attr_int(f, f->file, NULL, "format_version", true, &version, e) != 0)
        return -1;
    if (version != RESULTS_FORMAT_VERSION)
        return error_set(e, "%s: results file of format_version %lld; this program reads %d",
                         f->path, (long long)version, RESULTS_FORMAT_VERSION);
    return 0;
}

/* The root's descriptive attributes (docs/results.md), each checked where present: one text
 * or one integer, so that rf_root_text and the readers after it never meet an array. */
static int check_root_attributes(const ResultsFile *f, Error *e)
{
    static const char *const texts[] = { "program_version", "git_commit", "config", "started",
                                         "finished", "host" };
    static const char *const ints[] = { "threads", "ranks" };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        char *s = NULL;
        int rc = attr_text(f, f->file, NULL, texts[i], false, &s, e);
        free(s);
        if (rc < 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        int64_t v;
        if (attr_int(f, f->file, NULL, ints[i], false, &v, e) < 0)
            return -1;
    }
    return 0;
}

/* Check the root's seed: an integer in the range configs allow (0 to 2^63-1), or every
 * replay of the file would be of other games. */
static int check_seed(ResultsFile *f, Error *e)
{
    if (attr_int(f, f->file, NULL, "seed", true, &f->seed, e) != 0)
        return -1;
    if (f->seed < 0)
        return error_set(e, "%s: damaged results file (root attribute seed %" PRId64
                         ", expected 0 to %" PRId64 ")", f->path, f->seed, INT64_MAX);
    return 0;
}

/* List the jobs of /jobs in run order. */
static int list_jobs(ResultsFile *f, Error *e)
{
    hid_t jobs = H5Lexists(f->file, "jobs", H5P_DEFAULT) > 0
                     ? H5Gopen2(f->file, "jobs", H5P_DEFAULT) : -1;
    H5Eclear2(H5E_DEFAULT);
    if (jobs < 0)
        return error_set(e, "%s: damaged results file (no /jobs group)", f->path);
    JobList list = { f, e, false };
    herr_t rc = H5Literate(jobs, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_job, &list);
    H5Gclose(jobs);
    H5Eclear2(H5E_DEFAULT);
    if (list.failed)
        return -1;
    if (rc < 0)
        return error_set(e, "%s: damaged results file (cannot list its jobs)", f->path);
    if (f->njobs > 1)
        qsort(f->jobs, (size_t)f->njobs, sizeof *f->jobs, job_order);
    return 0;
}

ResultsFile *rf_open(const char *path, Error *e)
{
    h5u_silence();
    ResultsFile *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        error_set(e, "out of memory");
        return NULL;
    }
    f->file = -1;
    /* HDF5 opens by name, with a blocking open(): a FIFO is refused before it sees one. */
    if (door_read_check(path, e) != 0) {
        rf_close(f);
        return NULL;
    }
    htri_t is_hdf5 = H5Fis_hdf5(path);
    f->file = is_hdf5 > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    if (is_hdf5 < 0 && f->file < 0)
        error_set(e, "%s: cannot open it (unreadable or damaged)", path);
    else if (f->file < 0)
        error_set(e, "%s: not an anywoli results file (not HDF5, or damaged)", path);
    if (f->file < 0 || check_format(f, e) != 0 || check_seed(f, e) != 0 ||
        check_root_attributes(f, e) != 0 || list_jobs(f, e) != 0) {
        rf_close(f);
        return NULL;
    }
    return f;
}

void rf_close(ResultsFile *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->njobs; i++) {
        free(f->jobs[i].name);
        free(f->jobs[i].openings_checked);
    }
    free(f->jobs);
    if (f->file >= 0)
        H5Fclose(f->file);
    free(f->path);
    free(f);
}

const char *rf_path(const ResultsFile *f)
{
    return f->path;
}

int rf_job_count(const ResultsFile *f)
{
    return f->njobs;
}

const char *rf_job_name(const ResultsFile *f, int i)
{
    return i >= 0 && i < f->njobs ? f->jobs[i].name : NULL;
}

int64_t rf_seed(const ResultsFile *f)
{
    return f->seed;
}

hid_t rf_group_open(const ResultsFile *f, const char *name)
{
    hid_t g = strchr(name, '/') == NULL && H5Lexists(f->file, name, H5P_DEFAULT) > 0
                  ? H5Gopen2(f->file, name, H5P_DEFAULT) : -1;
    H5Eclear2(H5E_DEFAULT);
    return g;
}

bool rf_has_group(const ResultsFile *f, const char *name)
{
    hid_t g = rf_group_open(f, name);
    if (g >= 0)
        H5Gclose(g);
    return g >= 0;
}

char *rf_root_text(const ResultsFile *f, const char *name)
{
    return h5u_read_string(f->file, name);
}

/* Open /jobs/<name> (a group), or -1. */
static hid_t open_job_group(const ResultsFile *f, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "/jobs/%s", name);
    hid_t g = strchr(name, '/') == NULL && H5Lexists(f->file, p, H5P_DEFAULT) > 0
                  ? H5Gopen2(f->file, p, H5P_DEFAULT) : -1;
    H5Eclear2(H5E_DEFAULT);
    return g;
}

bool rf_job_has_attribute(const ResultsFile *f, const char *name, const char *attr)
{
    hid_t g = open_job_group(f, name);
    bool has = g >= 0 && H5Aexists(g, attr) > 0;
    if (g >= 0)
        H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    return has;
}

/* Open /jobs/<name>/<what> (a dataset), or -1. */
static hid_t open_dataset(const ResultsFile *f, const char *name, const char *what)
{
    hid_t g = open_job_group(f, name);
    hid_t ds = g >= 0 && H5Lexists(g, what, H5P_DEFAULT) > 0 ? H5Dopen2(g, what, H5P_DEFAULT)
                                                               : -1;
    if (g >= 0)
        H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    return ds;
}

/* The length of a 1-D dataset, or -1. */
static int64_t dataset_length(hid_t ds)
{
    hid_t space = H5Dget_space(ds);
    hsize_t dims[1] = { 0 };
    bool ok = space >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
              H5Sget_simple_extent_dims(space, dims, NULL) == 1;
    if (space >= 0)
        H5Sclose(space);
    return ok ? (int64_t)dims[0] : -1;
}

/* The variant from a job group's attributes, through the one text to variant (so a stored
 * value is held to the range a config is). */
static int read_variant(const ResultsFile *f, hid_t g, const char *job, Variant *v, Error *e)
{
    char text[VP_NB][64];
    VariantText t;
    VariantFault fault;
    memset(&t, 0, sizeof t);
    for (int p = 0; p < VP_NB; p++) {
        const char *name = variant_params[p].name;
        bool named = variant_params[p].kind == VK_CONVENTION;   /* stored by its name */
        int64_t x;
        char *s = NULL;
        if (named ? attr_text(f, g, job, name, true, &s, e) != 0
                  : attr_int(f, g, job, name, true, &x, e) != 0)
            return -1;
        if (named)
            snprintf(text[p], sizeof text[p], "%s", s);
        else
            snprintf(text[p], sizeof text[p], "%" PRId64, x);
        free(s);
        t.value[p] = text[p];
    }
    if (variant_from_text(&t, v, &fault) == 0)
        return 0;
    return error_set(e, "%s: job %s: %s", f->path, job, fault.e.msg);
}

int rf_no_such_job(const ResultsFile *f, const char *name, Error *e)
{
    char names[512] = "", hint[160] = "";
    size_t used = 0;
    Nearest near;
    nearest_start(&near, name);
    for (int i = 0; i < f->njobs; i++) {
        nearest_consider(&near, f->jobs[i].name, strlen(f->jobs[i].name));
        if (used < 400)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                     f->jobs[i].name);
        else if (used < sizeof names - 1)   /* a long list is cut, visibly */
            used += (size_t)snprintf(names + used, sizeof names - used, ", ... (%d in all)",
                                     f->njobs);
    }
    nearest_hint(&near, "", hint, sizeof hint);
    return error_set(e, "%s: no job '%s'%s (its jobs: %s)", f->path, name, hint,
                     names[0] ? names : "none");
}

/* A float attribute of job `job`'s group g, as attr_int reads integers. */
static int attr_double(const ResultsFile *f, hid_t g, const char *job, const char *name,
                       bool required, double *v, Error *e)
{
    char why[160];
    int rc = h5u_get_double(g, name, v, why, sizeof why);
    if (rc == 1 && required)
        return attr_fault(f, job, name, "missing", e);
    return rc < 0 ? attr_fault(f, job, name, why, e) : rc;
}

/* The state of a job's test at its end (sprt_llr, sprt_lower, sprt_upper, sprt_decision),
 * when stored: 0, or -1 with a message. */
static int read_test_end(const ResultsFile *f, hid_t g, const char *name, StoredTest *t,
                         Error *e)
{
    int rc = attr_double(f, g, name, "sprt_llr", false, &t->test.llr, e);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    char *key = NULL;
    if (attr_double(f, g, name, "sprt_lower", true, &t->test.lower, e) != 0 ||
        attr_double(f, g, name, "sprt_upper", true, &t->test.upper, e) != 0 ||
        attr_text(f, g, name, "sprt_decision", true, &key, e) != 0)
        return -1;
    bool known = false;
    for (int d = SPRT_ACCEPT_H0; d <= SPRT_ACCEPT_H1 && !known; d++)
        if ((known = strcmp(key, sprt_decision_key((SprtDecision)d)) == 0))
            t->test.decision = (SprtDecision)d;
    free(key);
    if (!known)
        return attr_fault(f, name, "sprt_decision", "expected accept_h0, continue or accept_h1",
                          e);
    t->ended = true;
    return 0;
}

/* A job's `stopped` attribute (absent: the job was not stopped), which must be `kind`, and
 * its `stop_pair`, which must be the games table's last pair. 0, or -1 with a message. */
static int read_stop(const ResultsFile *f, hid_t g, const char *name, const StoredJob *sj,
                     const char *kind, bool *stopped, int64_t *stop_pair, Error *e)
{
    char *text = NULL, expected[64];
    int rc = attr_text(f, g, name, "stopped", false, &text, e);
    if (rc < 0)
        return -1;
    *stopped = rc == 0;
    bool known = !*stopped || strcmp(text, kind) == 0;
    free(text);
    snprintf(expected, sizeof expected, "expected \"%s\"", kind);
    if (!known)
        return attr_fault(f, name, "stopped", expected, e);
    if (*stopped && attr_int(f, g, name, "stop_pair", true, stop_pair, e) != 0)
        return -1;
    if (*stopped && (*stop_pair < 0 || (uint64_t)*stop_pair != (sj->rows - 1) / 2 ||
                     sj->rows % 2 != 0))
        return attr_fault(f, name, "stop_pair", "not the last pair of the games table", e);
    return 0;
}

/* A job's sequential test, when it had one: its bounds, its state at the end, and where it
 * stopped the job, which must be the table's last pair. 0, or -1 with a message. */
static int read_test(const ResultsFile *f, hid_t g, const char *name, StoredJob *sj, Error *e)
{
    StoredTest *t = &sj->seq;
    int rc = attr_double(f, g, name, "sprt_elo0", false, &t->bounds.elo0, e);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    t->has = true;
    if (attr_double(f, g, name, "sprt_elo1", true, &t->bounds.elo1, e) != 0 ||
        attr_double(f, g, name, "sprt_alpha", true, &t->bounds.alpha, e) != 0 ||
        attr_double(f, g, name, "sprt_beta", true, &t->bounds.beta, e) != 0 ||
        read_test_end(f, g, name, t, e) != 0)
        return -1;
    return read_stop(f, g, name, sj, "sprt", &t->stopped, &t->stop_pair, e);
}

/* A job's adaptive root design, when it had one: its rule, its rounds when stored (at the
 * job's end), and where its half-width stopped the job, which must be the table's last pair.
 * (A stop of a job with a sequential test is read_test's.) 0, or -1 with a message. */
static int read_race(const ResultsFile *f, hid_t g, const char *name, StoredJob *sj, Error *e)
{
    StoredRace *t = &sj->race;
    char *text = NULL, why[200];
    int rc = attr_text(f, g, name, "root_design", false, &text, e);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    t->has = true;
    rc = root_rule_parse(text, &t->rule, why, sizeof why);
    free(text);
    if (rc != 0)
        return attr_fault(f, name, "root_design", why, e);
    int n1 = 0, n2 = 0;
    int r1 = h5u_get_int_array(g, "root_round_first", &t->round_first, &n1, why, sizeof why);
    if (r1 < 0)
        return attr_fault(f, name, "root_round_first", why, e);
    int r2 = h5u_get_int_array(g, "root_round_lines", &t->round_lines, &n2, why, sizeof why);
    if (r2 < 0)
        return attr_fault(f, name, "root_round_lines", why, e);
    if (r1 != r2 || n1 != n2)
        return attr_fault(f, name, "root_round_lines", "not one for each round of "
                          "root_round_first", e);
    t->rounds = n1;
    if (sj->seq.has)
        return 0;
    return read_stop(f, g, name, sj, "root_halfwidth", &t->stopped, &t->stop_pair, e);
}

/* The job's `openings_order`: absent (every file before it, and a job in order) is in order;
 * a value not of the list is a damaged file. */
static int read_openings_order(const ResultsFile *f, hid_t g, const char *name, StoredJob *sj,
                               Error *e)
{
    char *text = NULL;
    sj->openings_order = OPENINGS_IN_ORDER;
    int rc = attr_text(f, g, name, "openings_order", false, &text, e);
    if (rc == 0 && openings_order_parse(text, &sj->openings_order) != 0)
        rc = attr_fault(f, name, "openings_order", "expected in-order or shuffled", e);
    free(text);
    return rc < 0 ? -1 : 0;
}

/* The job's attributes other than the variant, checked: its index and planned games (never
 * fewer than the rows stored), and the agents. */
static int read_job_attributes(const ResultsFile *f, hid_t g, const char *name, StoredJob *sj,
                               Error *e)
{
    int64_t index;
    if (attr_int(f, g, name, "index", true, &index, e) != 0 ||
        attr_int(f, g, name, "games", true, &sj->games, e) != 0)
        return -1;
    if (index < 0)
        return error_set(e, "%s: job %s: damaged results file (attribute index %" PRId64
                         ", expected 0 or more)", f->path, name, index);
    if (sj->games < 0 || (uint64_t)sj->games < sj->rows)
        return error_set(e, "%s: job %s: damaged results file (attribute games %" PRId64
                         " for %" PRIu64 " rows stored)", f->path, name, sj->games, sj->rows);
    sj->index = (uint64_t)index;
    /* A slice's first game; files without it (every whole run) start at game 0. */
    sj->first_game = 0;
    if (attr_int(f, g, name, "first_game", false, &sj->first_game, e) < 0)
        return -1;
    if (sj->first_game < 0 || sj->first_game % 2 != 0 || sj->first_game > INT64_MAX / 2)
        return error_set(e, "%s: job %s: damaged results file (attribute first_game %" PRId64
                         ", expected an even number, 0 or more)", f->path, name,
                         sj->first_game);
    if (attr_text(f, g, name, "agent_a", true, &sj->agent_a, e) != 0 ||
        attr_text(f, g, name, "agent_b", true, &sj->agent_b, e) != 0)
        return -1;
    /* Files written before the played specs were stored do not say which player played
     * (attr_text's 1: not there). */
    sj->played_a = sj->played_b = NULL;
    int pa = attr_text(f, g, name, "agent_a_played", false, &sj->played_a, e);
    if (pa == 1)
        sj->played_a = NULL;
    int pb = pa < 0 ? -1 : attr_text(f, g, name, "agent_b_played", false, &sj->played_b, e);
    if (pb == 1)
        sj->played_b = NULL;
    if (pa < 0 || pb < 0)
        return -1;
    sj->files_a = sj->files_b = NULL;
    int fa = attr_text(f, g, name, "agent_a_files", false, &sj->files_a, e);
    if (fa == 1)
        sj->files_a = NULL;
    int fb = fa < 0 ? -1 : attr_text(f, g, name, "agent_b_files", false, &sj->files_b, e);
    if (fb == 1)
        sj->files_b = NULL;
    if (fa < 0 || fb < 0)
        return -1;
    /* Files written before openings existed played every game from the start. */
    int rc = attr_text(f, g, name, "openings", false, &sj->openings, e);
    if (rc == 1 && !(sj->openings = strdup("start")))
        return error_set(e, "out of memory");
    if (rc < 0 || read_openings_order(f, g, name, sj, e) != 0)
        return -1;
    /* Written only for a job that adjudicates (absent: it does not, as in every older file). */
    int64_t adjudicate = 0;
    if (attr_int(f, g, name, "adjudicate", false, &adjudicate, e) < 0)
        return -1;
    if (adjudicate != 0 && adjudicate != 1)
        return attr_fault(f, name, "adjudicate", "expected 0 or 1", e);
    sj->adjudicate = adjudicate == 1;
    return read_test(f, g, name, sj, e) != 0 ? -1 : read_race(f, g, name, sj, e);
}

int rf_read_job(const ResultsFile *f, const char *name, StoredJob *sj, Error *e)
{
    memset(sj, 0, sizeof *sj);
    sj->seed = f->seed;
    hid_t g = open_job_group(f, name);
    if (g < 0)
        return rf_no_such_job(f, name, e);
    hid_t ds = H5Lexists(g, "games", H5P_DEFAULT) > 0 ? H5Dopen2(g, "games", H5P_DEFAULT) : -1;
    int64_t rows = ds < 0 ? -1 : dataset_length(ds);
    int rc = 0;
    if (rows < 0)
        rc = error_set(e, "%s: job %s: damaged results file (games table missing or not of one "
                       "dimension)",
                       f->path, name);
    else if (!h5u_rows_stored(ds))
        rc = error_set(e, "%s: job %s: damaged results file (games table of %" PRId64 " rows, "
                       "not all of them stored)", f->path, name, rows);
    sj->rows = rows < 0 ? 0 : (uint64_t)rows;
    if (rc == 0)
        rc = read_variant(f, g, name, &sj->variant, e);
    if (rc == 0)
        rc = read_job_attributes(f, g, name, sj, e);
    if (ds >= 0)
        H5Dclose(ds);
    H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    if (rc != 0)
        stored_job_free(sj);
    return rc;
}

bool rf_job_has_field(const ResultsFile *f, const char *name, const char *field)
{
    hid_t g = open_job_group(f, name);
    bool has = g >= 0 && h5u_table_has_field(g, "games", field);
    if (g >= 0)
        H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    return has;
}

void stored_job_free(StoredJob *sj)
{
    free(sj->race.round_first);
    free(sj->race.round_lines);
    free(sj->agent_a);
    free(sj->agent_b);
    free(sj->openings);
    free(sj->played_a);
    free(sj->played_b);
    free(sj->files_a);
    free(sj->files_b);
    sj->agent_a = sj->agent_b = sj->openings = sj->played_a = sj->played_b = NULL;
    sj->files_a = sj->files_b = NULL;
}

/* An openings row's moves ("3 14 7") played from v's start into *o, each checked legal;
 * a positive ply number for the first that is not a legal move (or not a number), else 0. */
static int parse_opening_moves(const char *text, const Variant *v, Opening *o)
{
    Position p;
    pos_start(v, &p);
    while (*text) {
        char *end;
        long m = strtol(text, &end, 10);
        int ply = o->n_moves + 1;
        if (end == text || (*end && *end != ' ') || o->n_moves == OPENING_MAX_PLIES ||
            m < 0 || m >= v->pits || !(p.legal >> m & 1))
            return ply;
        MoveInfo info;
        if (pos_play(v, &p, (int)m, &p, &info, NULL) == EV_ENDLESS)
            return ply;
        o->moves[o->n_moves++] = (int)m;
        text = *end ? end + 1 : end;
    }
    return 0;
}

/* Parse one openings row into *o (rf_read_opening's checks); -1 with why in e. */
static int opening_from_row(const OpeningRow *row, const Variant *v, Opening *o, Error *e)
{
    memset(o, 0, sizeof *o);
    if (!row->moves || !row->apn)
        return error_set(e, "its moves or APN are missing");
    if (row->moves[0]) {
        int bad = parse_opening_moves(row->moves, v, o);
        return bad ? error_set(e, "moves '%s': ply %d is not a legal move", row->moves, bad) : 0;
    }
    Variant w = *v;
    Error why;
    if (apn_parse(row->apn, &w, true, true, &o->position, &why) != 0)
        return error_set(e, "APN: %s", why.msg);
    o->has_position = true;
    return 0;
}

/* FNV-1a over text, continuing from h. */
static uint64_t fnv_text(uint64_t h, const char *text)
{
    for (const char *c = text ? text : ""; *c; c++)
        h = (h ^ (unsigned char)*c) * UINT64_C(0x100000001b3);
    return h;
}

int results_openings_checksum(hid_t ds, uint64_t *sum)
{
    enum { BLOCK_MAX = 4096 };
    int64_t rows = dataset_length(ds);
    /* no larger than the table: it is read again by every row stream a job opens */
    const int64_t BLOCK = rows > 0 && rows < BLOCK_MAX ? rows : BLOCK_MAX;
    hid_t type = results_opening_type();
    OpeningRow *buf = calloc((size_t)BLOCK, sizeof *buf);
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    int rc = rows >= 0 && type >= 0 && buf ? 0 : -1;
    for (int64_t at = 0; rc == 0 && at < rows; at += BLOCK) {
        uint64_t n = (uint64_t)(rows - at < BLOCK ? rows - at : BLOCK);
        hsize_t cnt[1] = { n };
        hid_t mspace = H5Screate_simple(1, cnt, NULL);
        memset(buf, 0, n * sizeof *buf);
        rc = mspace >= 0 && h5u_range_io(ds, type, (uint64_t)at, n, buf, false) == 0 ? 0 : -1;
        for (uint64_t i = 0; rc == 0 && i < n; i++) {
            char index[32];
            snprintf(index, sizeof index, "%" PRId64 "|", buf[i].index);
            h = fnv_text(fnv_text(fnv_text(fnv_text(fnv_text(h, index), buf[i].moves), "|"),
                                  buf[i].apn), "\n");
        }
        if (rc == 0)
            H5Dvlen_reclaim(type, mspace, H5P_DEFAULT, buf);
        if (mspace >= 0)
            H5Sclose(mspace);
    }
    free(buf);
    if (type >= 0)
        H5Tclose(type);
    H5Eclear2(H5E_DEFAULT);
    *sum = h;
    return rc;
}

int rf_openings_rows(const ResultsFile *f, const char *name, int64_t *rows, Error *e)
{
    *rows = 0;
    hid_t g = open_job_group(f, name);
    if (g < 0)
        return rf_no_such_job(f, name, e);
    bool has = H5Lexists(g, "openings", H5P_DEFAULT) > 0;
    H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    if (!has)
        return 0;
    hid_t ds = open_dataset(f, name, "openings");
    int64_t n = ds >= 0 ? dataset_length(ds) : -1;
    int rc = 0;
    if (n < 0)
        rc = error_set(e, "%s: job %s: damaged results file (openings table not a table of one "
                       "dimension)", f->path, name);
    else if (!h5u_rows_stored(ds))
        rc = error_set(e, "%s: job %s: damaged results file (openings table of %" PRId64
                       " rows, not all of them stored)", f->path, name, n);
    if (ds >= 0)
        H5Dclose(ds);
    H5Eclear2(H5E_DEFAULT);
    *rows = rc == 0 ? n : 0;
    return rc;
}

int rf_read_opening(const ResultsFile *f, const char *name, const Variant *v, int64_t index,
                    Opening *o, Error *e)
{
    hid_t ds = open_dataset(f, name, "openings");
    int64_t rows = ds >= 0 ? dataset_length(ds) : -1;
    if (rows < 0 || index < 0 || index >= rows) {
        if (ds >= 0)
            H5Dclose(ds);
        return error_set(e, "%s: job %s: damaged results file (opening %" PRId64 " is not in "
                         "its openings table of %" PRId64 " rows)", f->path, name, index,
                         rows < 0 ? 0 : rows);
    }
    hid_t type = results_opening_type();
    hsize_t off[1] = { (hsize_t)index }, cnt[1] = { 1 };
    hid_t fspace = H5Dget_space(ds), mspace = H5Screate_simple(1, cnt, NULL);
    OpeningRow row = { -1, NULL, NULL };
    bool read = type >= 0 && fspace >= 0 && mspace >= 0 &&
                H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
                H5Dread(ds, type, mspace, fspace, H5P_DEFAULT, &row) >= 0;
    Error why;
    int rc = !read ? error_set(&why, "unreadable")
             : row.index != index ? error_set(&why, "its index is %" PRId64, row.index)
                                  : opening_from_row(&row, v, o, &why);
    if (read)
        H5Dvlen_reclaim(type, mspace, H5P_DEFAULT, &row);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (type >= 0)
        H5Tclose(type);
    H5Dclose(ds);
    H5Eclear2(H5E_DEFAULT);
    if (rc != 0)
        return error_set(e, "%s: job %s: damaged results file (opening %" PRId64 ": %s)",
                         f->path, name, index, why.msg);
    return 0;
}

bool rf_job_has_moves(const ResultsFile *f, const char *name)
{
    hid_t mv = open_dataset(f, name, "moves"), ix = open_dataset(f, name, "moves_index");
    bool has = mv >= 0 && ix >= 0;
    if (mv >= 0)
        H5Dclose(mv);
    if (ix >= 0)
        H5Dclose(ix);
    return has;
}

/* A job's move records being read (rf_moves_open). */
struct MoveStream {
    hid_t mv, ix;
    uint64_t n_moves, n_ix;             /* their lengths */
    Variant v;
    const ResultsFile *f;               /* for the games' openings */
    char *job;                          /* for messages */
    uint64_t first_game;                /* the game of moves_index's first entry */
    int16_t *raw;                       /* a game's moves as stored, read wide enough that a
                                         * negative or too large one is seen, never clamped */
    uint32_t raw_cap;
    uint64_t block_first;               /* the offsets held: ix[block_first .. + block_n) */
    uint64_t block_n;
    uint64_t block[MOVE_INDEX_BLOCK];
};

/* Whether dataset ds stores integers (HDF5 would convert floats to moves or offsets). */
static bool stores_integers(hid_t ds)
{
    hid_t t = H5Dget_type(ds);
    bool is_int = t >= 0 && H5Tget_class(t) == H5T_INTEGER;
    if (t >= 0)
        H5Tclose(t);
    H5Eclear2(H5E_DEFAULT);
    return is_int;
}

MoveStream *rf_moves_open(const ResultsFile *f, const char *name, const Variant *v, Error *e)
{
    MoveStream *s = calloc(1, sizeof *s);
    if (!s || !(s->job = strdup(name))) {
        free(s);
        error_set(e, "out of memory");
        return NULL;
    }
    s->f = f;
    s->v = *v;
    StoredJob sj;
    Error inner;
    if (rf_read_job(f, name, &sj, &inner) == 0) {   /* else the table's own reader says why */
        s->first_game = (uint64_t)sj.first_game;
        stored_job_free(&sj);
    }
    s->mv = open_dataset(f, name, "moves");
    s->ix = open_dataset(f, name, "moves_index");
    int64_t n_moves = s->mv >= 0 ? dataset_length(s->mv) : -1;
    int64_t n_ix = s->ix >= 0 ? dataset_length(s->ix) : -1;
    uint64_t first = 1;
    if (s->mv < 0 || s->ix < 0)
        error_set(e, "%s: job %s: no moves stored", f->path, name);
    else if (n_moves < 0 || n_ix < 0 || !stores_integers(s->mv) || !stores_integers(s->ix))
        error_set(e, "%s: job %s: damaged moves (moves and moves_index must be integers of "
                  "one dimension)", f->path, name);
    else if (!h5u_rows_stored(s->mv) || !h5u_rows_stored(s->ix))
        error_set(e, "%s: job %s: damaged moves (moves of %" PRId64 " and moves_index of %"
                  PRId64 " entries, not all of them stored)", f->path, name, n_moves, n_ix);
    else if (n_ix < 1 ||
             h5u_range_io(s->ix, H5T_NATIVE_UINT64, 0, 1, &first, false) != 0 || first != 0)
        error_set(e, "%s: job %s: damaged moves (moves_index of %" PRId64 " entries, expected "
                  "0 first)", f->path, name, n_ix);
    else {
        s->n_moves = (uint64_t)n_moves;
        s->n_ix = (uint64_t)n_ix;
        return s;
    }
    rf_moves_close(s);
    return NULL;
}

/* Offsets game and game + 1 into at, from the block held or a new block read from game. */
static int game_offsets(MoveStream *s, uint64_t game, uint64_t at[2])
{
    if (game < s->block_first || game + 2 > s->block_first + s->block_n) {
        uint64_t n = s->n_ix - game < MOVE_INDEX_BLOCK ? s->n_ix - game : MOVE_INDEX_BLOCK;
        s->block_n = 0;
        if (h5u_range_io(s->ix, H5T_NATIVE_UINT64, game, n, s->block, false) != 0)
            return -1;
        s->block_first = game;
        s->block_n = n;
    }
    at[0] = s->block[game - s->block_first];
    at[1] = s->block[game + 1 - s->block_first];
    return 0;
}

/* Grow the game's buffers (the stored moves and l) to n moves. */
static int grow_moves(MoveStream *s, MoveList *l, uint32_t n)
{
    if (n > s->raw_cap) {
        int16_t *raw = realloc(s->raw, (size_t)n * sizeof *raw);
        if (!raw)
            return -1;
        s->raw = raw;
        s->raw_cap = n;
    }
    if (n > l->cap) {
        uint8_t *grown = realloc(l->move, n);
        if (!grown)
            return -1;
        l->move = grown;
        l->cap = n;
    }
    return 0;
}

/* Game `game`'s moves into l (see rf_moves_read); what is wrong into why, and -1, when the
 * index or a move is damaged. */
static int read_game_moves(MoveStream *s, uint64_t game, MoveList *l, Error *why)
{
    const Variant *v = &s->v;
    uint64_t at[2];
    if (game + 2 > s->n_ix)
        return error_set(why, "moves_index has %" PRIu64 " entries, not the game's end",
                         s->n_ix);
    if (game_offsets(s, game, at) != 0)
        return error_set(why, "moves_index unreadable");
    /* The offsets are checked before anything is allocated: a stored length is not a
     * budget, the variant's max_plies is. */
    if (at[0] > at[1] || at[1] > s->n_moves || at[1] - at[0] > (uint64_t)v->max_plies)
        return error_set(why, "moves_index gives moves %" PRIu64 "..%" PRIu64 " of %" PRIu64
                         " (expected increasing offsets from 0, at most max_plies %" PRId64
                         " apart)", at[0], at[1], s->n_moves, (int64_t)v->max_plies);
    uint32_t n = (uint32_t)(at[1] - at[0]);
    if (grow_moves(s, l, n) != 0)
        return error_set(why, "out of memory for %u moves", n);
    l->n = 0;
    if (n && h5u_range_io(s->mv, H5T_NATIVE_INT16, at[0], n, s->raw, false) != 0)
        return error_set(why, "moves unreadable");
    for (uint32_t i = 0; i < n; i++) {
        if (s->raw[i] < 0 || s->raw[i] >= 2 * v->holes)
            return error_set(why, "ply %u: move %d is not a hole (0 to %d)", i + 1,
                             s->raw[i], 2 * v->holes - 1);
        l->move[i] = (uint8_t)s->raw[i];
    }
    l->n = n;
    return 0;
}

/* Play the game's moves from p by the rules: each legal, none after the game is over or
 * after an endless move (which ends it as it stood). 0, or -1 with the ply and why. */
static int play_fault(const Variant *v, Position p, const MoveList *l, Error *why)
{
    for (uint32_t i = 0; i < l->n; i++) {
        Error e;
        if (pos_over(v, &p))
            return error_set(why, "ply %u: a move after the game is over", i + 1);
        if (!pos_move_ok(v, &p, l->move[i], &e))
            return error_set(why, "ply %u: %s", i + 1, e.msg);
        MoveInfo info;
        if (pos_play(v, &p, l->move[i], &p, &info, NULL) == EV_ENDLESS && i + 1 < l->n)
            return error_set(why, "ply %u: a move after the endless move", i + 2);
    }
    return 0;
}

int rf_moves_read(MoveStream *s, const GameRecord *row, MoveList *l, Position *start,
                  Error *e)
{
    Error why;
    Position p;
    Opening op;
    const char *path = s->f->path;
    if (row->game < s->first_game)
        return error_set(e, "%s: job %s: game %" PRIu64 ": not in the job's games (its first is "
                         "%" PRIu64 ")", path, s->job, row->game, s->first_game);
    if (read_game_moves(s, row->game - s->first_game, l, &why) != 0)
        return error_set(e, "%s: job %s: game %" PRIu64 ": damaged moves (%s)", path, s->job,
                         row->game, why.msg);
    if (l->n != row->plies)
        return error_set(e, "%s: job %s: game %" PRIu64 ": damaged moves (%u stored, the row "
                         "has %" PRIu32 " plies)", path, s->job, row->game, l->n, row->plies);
    if (row->opening >= 0 && rf_read_opening(s->f, s->job, &s->v, row->opening, &op, e) != 0)
        return -1;
    if (row->opening >= 0 && op.has_position)
        p = op.position;   /* the stored moves start there */
    else
        pos_start(&s->v, &p);
    if (play_fault(&s->v, p, l, &why) != 0)
        return error_set(e, "%s: job %s: game %" PRIu64 ": damaged moves (%s)", path, s->job,
                         row->game, why.msg);
    if (start)
        *start = p;
    return 0;
}

void rf_moves_close(MoveStream *s)
{
    if (!s)
        return;
    if (s->mv >= 0)
        H5Dclose(s->mv);
    if (s->ix >= 0)
        H5Dclose(s->ix);
    H5Eclear2(H5E_DEFAULT);
    free(s->raw);
    free(s->job);
    free(s);
}

int rf_read_moves(const ResultsFile *f, const char *name, const Variant *v,
                  const GameRecord *row, MoveList *l, Error *e)
{
    MoveStream *s = rf_moves_open(f, name, v, e);
    int rc = s ? rf_moves_read(s, row, l, NULL, e) : -1;
    rf_moves_close(s);
    return rc;
}

int rf_length_histogram(const ResultsFile *f, const char *name, size_t expect,
                        uint64_t **counts, size_t *len, Error *e)
{
    *counts = NULL;
    *len = 0;
    hid_t ds = open_dataset(f, name, "length_histogram");
    if (ds < 0)
        return 0;
    /* Its size is checked before anything is allocated: a stored length is not a budget. */
    if (!stores_integers(ds)) {
        H5Dclose(ds);
        return error_set(e, "%s: job %s: damaged results file (length_histogram: expected "
                         "integers)", f->path, name);
    }
    int64_t n = dataset_length(ds);
    if (n < 0 || (uint64_t)n != expect) {
        H5Dclose(ds);
        return error_set(e, "%s: job %s: damaged results file (length_histogram of %" PRId64
                         " bins; the games table's longest game needs %zu)", f->path, name,
                         n, expect);
    }
    int64_t *raw = malloc(((size_t)n + 1) * sizeof *raw);
    bool ok = raw && (n == 0 || H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                        raw) >= 0);
    for (int64_t i = 0; ok && i < n; i++)
        ok = raw[i] >= 0;
    H5Dclose(ds);
    H5Eclear2(H5E_DEFAULT);
    if (!ok) {
        free(raw);
        return error_set(e, "%s: job %s: damaged length_histogram", f->path, name);
    }
    *counts = (uint64_t *)raw;      /* non-negative int64 read as uint64, same size */
    *len = (size_t)n;
    return 1;
}

/* The type to read a games table with (record_row.h's row, less the columns added since
 * the file was written, marked in *absent); -1 when the table is not one of format 1. */
static hid_t reading_type(hid_t ds, uint64_t *absent, const char **bad)
{
    hid_t t = H5Dget_type(ds);
    *bad = NULL;
    hid_t mem = t >= 0 ? row_type_reading(t, absent, bad) : -1;
    if (t >= 0)
        H5Tclose(t);
    H5Eclear2(H5E_DEFAULT);
    return mem;
}

int rf_row_fault(const Variant *v, uint64_t index, bool from_positions, bool adjudicated,
                 const GameRecord *r, char *why, size_t len)
{
    /* The row's place in its job, then the record itself under the job's rules: a stored game
     * ran to the variant's ply cap at most, and made at least one ply (a book's positions are
     * never over). */
    if (r->game != index)
        return snprintf(why, len, "game %" PRIu64 " in row %" PRIu64, r->game, index);
    if (r->a_south != (index % 2 == 0))
        return snprintf(why, len, "a_south %u, expected %d (colours alternate)", r->a_south,
                        index % 2 == 0);
    RecordLimits l = { .max_plies = v->max_plies, .min_plies = 1,
                       .from_position = from_positions, .adjudicated = adjudicated };
    return record_fault(v, &l, r, why, len);
}

/* The job's checksum attribute `key` into *sum and 1 when it has one (16 hex digits); 0 when
 * it has none (an older or unfinished file); -1 with a message when it is damaged. */
static int read_checksum(const ResultsFile *f, const char *name, const char *key,
                         uint64_t *sum, Error *e)
{
    hid_t g = open_job_group(f, name);
    char *text = NULL;
    int rc = g < 0 ? rf_no_such_job(f, name, e) : attr_text(f, g, name, key, false, &text, e);
    if (g >= 0)
        H5Gclose(g);
    H5Eclear2(H5E_DEFAULT);
    if (rc != 0)
        return rc == 1 ? 0 : -1;
    bool ok = strlen(text) == 16 && strspn(text, "0123456789abcdef") == 16;
    *sum = ok ? strtoull(text, NULL, 16) : 0;
    free(text);
    return ok ? 1 : attr_fault(f, name, key, "expected 16 hex digits", e);
}

/* Whether job name's openings table was checked already in this opening of the file: a
 * reader that opens a row stream a game (a game's moves, one by one) checks it once. */
static bool *openings_checked(const ResultsFile *f, const char *name)
{
    for (int i = 0; i < f->njobs; i++)
        if (strcmp(f->jobs[i].name, name) == 0) {
            if (!f->jobs[i].openings_checked)
                f->jobs[i].openings_checked = calloc(1, sizeof(bool));
            return f->jobs[i].openings_checked;
        }
    return NULL;
}

/* The job's openings table against its `openings_checksum`, when it has one. */
static int check_openings_now(const ResultsFile *f, const char *name, Error *e)
{
    uint64_t stored, actual = 0;
    int has = read_checksum(f, name, "openings_checksum", &stored, e);
    if (has <= 0)
        return has;
    hid_t ds = open_dataset(f, name, "openings");
    int rc = ds >= 0 ? results_openings_checksum(ds, &actual) : -1;
    if (ds >= 0)
        H5Dclose(ds);
    if (rc != 0)
        return error_set(e, "%s: job %s: damaged results file (openings table unreadable)",
                         f->path, name);
    if (actual != stored)
        return error_set(e, "%s: job %s: damaged results file (its openings table's checksum is "
                         "%016" PRIx64 ", its openings_checksum attribute %016" PRIx64 ": a row "
                         "changed since the file was written)", f->path, name, actual, stored);
    return 0;
}

/* check_openings_now, once a job in this opening of the file. */
static int check_openings(const ResultsFile *f, const char *name, Error *e)
{
    bool *done = openings_checked(f, name);
    if (done && *done)
        return 0;
    int rc = check_openings_now(f, name, e);
    if (rc == 0 && done)
        *done = true;
    return rc;
}

RowStream *rf_rows_open(const ResultsFile *f, const char *name, Error *e)
{
    RowStream *s = calloc(1, sizeof *s);
    if (!s) {
        error_set(e, "out of memory");
        return NULL;
    }
    s->path = f->path;
    s->type = -1;
    s->ds = -1;
    StoredJob sj;
    if (rf_read_job(f, name, &sj, e) != 0) {
        rf_rows_close(s);
        return NULL;
    }
    s->variant = sj.variant;
    s->from_positions = strncmp(sj.openings, "file:", 5) == 0;
    s->first_game = (uint64_t)sj.first_game;
    s->adjudicated = sj.adjudicate;
    stored_job_free(&sj);
    s->in_order = true;
    int has = rf_openings_rows(f, name, &s->openings, e) != 0 ? -1
              : read_checksum(f, name, "games_checksum", &s->checksum_stored, e);
    s->has_checksum = has == 1;
    if (has < 0 || check_openings(f, name, e) != 0) {
        rf_rows_close(s);
        return NULL;
    }
    s->ds = open_dataset(f, name, "games");
    int64_t rows = s->ds >= 0 ? dataset_length(s->ds) : -1;
    const char *bad = NULL;
    s->type = rows >= 0 ? reading_type(s->ds, &s->absent, &bad) : -1;
    if (rows < 0 || s->type < 0) {
        if (bad)
            error_set(e, "%s: job %s: damaged results file (games column %s: expected an "
                      "integer)", f->path, name, bad);
        else
            error_set(e, "%s: job %s: damaged results file (no readable games table)",
                      f->path, name);
        rf_rows_close(s);
        return NULL;
    }
    s->rows = (uint64_t)rows;
    s->buf = calloc(STREAM_ROWS, ROW_BYTES);   /* zeros where an older file has no column */
    s->job = strdup(name);
    if (!s->buf || !s->job) {
        error_set(e, "out of memory");
        rf_rows_close(s);
        return NULL;
    }
    return s;
}

uint64_t rf_rows_total(const RowStream *s)
{
    return s->rows;
}

void rf_rows_seek(RowStream *s, uint64_t row)
{
    uint64_t next = row < s->rows ? row : s->rows;
    s->in_order = s->in_order && next == s->next;
    s->next = next;
}

/* Read rows [first, first + n) of the table into the stream's buffer. */
static int read_block(RowStream *s, uint64_t first, uint64_t n)
{
    return h5u_range_io(s->ds, s->type, first, n, s->buf, false);
}

/* Whether the row's opening is a row of its job's openings table (rf_row_fault has held
 * it to -1 or more); what is wrong into why, and a positive number, when it is not. */
static int opening_fault(const RowStream *s, const GameRecord *r, char *why, size_t len)
{
    if (r->opening < s->openings)
        return 0;
    if (s->openings == 0)
        return snprintf(why, len, "opening %" PRId32 ", expected -1 (the job has no openings "
                        "table)", r->opening);
    return snprintf(why, len, "opening %" PRId32 ", expected -1 to %" PRId64 " (its openings "
                    "table's rows)", r->opening, s->openings - 1);
}

int64_t rf_rows_next(RowStream *s, GameRecord *out, uint64_t max, Error *e)
{
    uint64_t n = s->rows - s->next;
    if (n > max)
        n = max;
    if (n > STREAM_ROWS)
        n = STREAM_ROWS;
    if (n == 0)
        return 0;
    if (read_block(s, s->next, n) != 0)
        return error_set(e, "%s: damaged results file (games %llu to %llu unreadable)", s->path,
                         (unsigned long long)s->next, (unsigned long long)(s->next + n - 1));
    for (uint64_t i = 0; i < n; i++) {
        char why[200];
        row_unpack(s->buf + i * ROW_BYTES, &out[i]);
        row_set_absent(&out[i], s->absent);
        uint64_t game = s->first_game + s->next + i;
        if (rf_row_fault(&s->variant, game, s->from_positions, s->adjudicated, &out[i], why,
                         sizeof why) ||
            opening_fault(s, &out[i], why, sizeof why))
            return error_set(e, "%s: job %s: game %" PRIu64 ": damaged row (%s)", s->path,
                             s->job, game, why);
        s->checksum += row_checksum(&out[i], s->absent);
    }
    s->next += n;
    if (s->in_order && s->has_checksum && s->next == s->rows &&
        s->checksum != s->checksum_stored)
        return error_set(e, "%s: job %s: damaged results file (its games table's checksum is "
                         "%016" PRIx64 ", its games_checksum attribute %016" PRIx64 ": a row "
                         "changed since the file was written)", s->path, s->job, s->checksum,
                         s->checksum_stored);
    return (int64_t)n;
}

void rf_rows_close(RowStream *s)
{
    if (!s)
        return;
    if (s->ds >= 0)
        H5Dclose(s->ds);
    if (s->type >= 0)
        H5Tclose(s->type);
    free(s->buf);
    free(s->job);
    free(s);
}

int results_read_job(const char *path, const char *name, StoredJob *sj, Error *e)
{
    memset(sj, 0, sizeof *sj);
    ResultsFile *f = rf_open(path, e);
    int rc = f ? rf_read_job(f, name, sj, e) : -1;
    rf_close(f);
    return rc;
}

int rf_read_rows(const ResultsFile *f, const char *name, uint64_t first, uint64_t n,
                 GameRecord *out, Error *e)
{
    RowStream *s = rf_rows_open(f, name, e);
    int rc = s ? 0 : -1;
    if (rc == 0 && (first > s->rows || n > s->rows - first))
        rc = error_set(e, "%s: job %s: rows %llu to %llu are beyond its %llu rows", f->path,
                       name, (unsigned long long)first, (unsigned long long)(first + n - 1),
                       (unsigned long long)s->rows);
    /* Every row is read, the others too, so that the table's checksum is checked: a game
     * edited by hand is refused even when it is the one asked for alone. */
    GameRecord *block = rc == 0 ? malloc(STREAM_ROWS * sizeof *block) : NULL;
    if (rc == 0 && !block)
        rc = error_set(e, "out of memory");
    for (uint64_t at = 0; rc == 0 && at < s->rows;) {
        int64_t k = rf_rows_next(s, block, STREAM_ROWS, e);
        rc = k <= 0 ? -1 : 0;
        for (int64_t i = 0; rc == 0 && i < k; i++)
            if (at + (uint64_t)i >= first && at + (uint64_t)i < first + n)
                out[at + (uint64_t)i - first] = block[i];
        at += k > 0 ? (uint64_t)k : 0;
    }
    free(block);
    rf_rows_close(s);
    return rc;
}

int results_read_rows(const char *path, const char *name, uint64_t first, uint64_t n,
                      GameRecord *out, Error *e)
{
    ResultsFile *f = rf_open(path, e);
    int rc = f ? rf_read_rows(f, name, first, n, out, e) : -1;
    rf_close(f);
    return rc;
}

/* Replay one stored game from p, its start, showing w each position before a move (the
 * moves checked by the rules as they were read). */
static void walk_game(const Variant *v, const GameRecord *row, Position p,
                      const MoveList *moves, const GameWalk *w)
{
    uint32_t i = 0;
    for (; i < moves->n; i++) {
        if (!w->position(w->ctx, row, &p, i, false))
            return;
        Position c;
        MoveInfo info;
        if (pos_play(v, &p, moves->move[i], &c, &info, NULL) == EV_ENDLESS)
            return;   /* the game ended as it stood */
        p = c;
    }
    w->position(w->ctx, row, &p, i, true);
}

int rf_walk_games(const ResultsFile *f, const char *name, const StoredJob *sj,
                  const GameWalk *w, Error *e)
{
    RowStream *rows = rf_rows_open(f, name, e);
    MoveStream *ms = rows ? rf_moves_open(f, name, &sj->variant, e) : NULL;
    MoveList moves = { 0 };
    GameRecord r;
    int64_t got = ms ? 0 : -1;
    while (ms && (got = rf_rows_next(rows, &r, 1, e)) == 1) {
        if (w->game && !w->game(w->ctx, &r))
            continue;
        Position start;
        if (rf_moves_read(ms, &r, &moves, &start, e) != 0) {
            got = -1;
            break;
        }
        walk_game(&sj->variant, &r, start, &moves, w);
    }
    move_list_free(&moves);
    rf_moves_close(ms);
    rf_rows_close(rows);
    return got < 0 ? -1 : 0;
}
