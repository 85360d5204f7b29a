/* results.c: the HDF5 results file, format 1. HDF5 is not thread-safe: only one thread (the
 * driver's writer) calls these functions at a time. */
#include "results.h"

#include <hdf5.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "cluster.h"
#include "h5util.h"
#include "openings.h"

#ifndef ANYWOLI_VERSION
#define ANYWOLI_VERSION "unknown"
#endif
#ifndef ANYWOLI_GIT_COMMIT
#define ANYWOLI_GIT_COMMIT "unknown"
#endif

#define DEFLATE_LEVEL 4
#define HIST_CHUNK 65536
#define OPENING_BLOCK 4096       /* openings rows made and written at a time */
#define MOVES_CHUNK 65536        /* moves per compressed chunk of a job's `moves` */

struct Results {
    hid_t file;
    hid_t row_type;          /* the packed compound: the same in the file and in memory */
    hid_t games;             /* the open games table, or -1 */
    const Job *job;          /* whose table is open */
    int64_t seed;            /* the experiment's: openings rows are drawn from it */
    char *path;
};

int stats_add(JobStats *s, const GameRecord *r)
{
    if (r->plies >= s->hist_len) {
        /* A new longest game (rare): grow the histogram to it. */
        int64_t *grown = realloc(s->hist, ((size_t)r->plies + 1) * sizeof *grown);
        if (!grown)
            return -1;
        memset(grown + s->hist_len, 0, ((size_t)r->plies + 1 - s->hist_len) * sizeof *grown);
        s->hist = grown;
        s->hist_len = (size_t)r->plies + 1;
    }
    s->hist[r->plies]++;
    s->games++;
    if (r->outcome >= 0 && r->outcome <= OUT_UNFINISHED)
        s->outcome[r->outcome]++;
    if (r->outcome == OUT_SOUTH || r->outcome == OUT_NORTH) {
        bool south_won = r->outcome == OUT_SOUTH;
        if (south_won == (r->a_south != 0))
            s->a_wins++;
        else
            s->b_wins++;
    }
    s->plies += r->plies;
    s->checksum += row_checksum(r, 0);
    int sn, a = record_a_half_points(r, &sn);
    return pair_tally_add(&s->pairs, r->game, a, sn);
}

void stats_free(JobStats *s)
{
    free(s->hist);
    if (s->race)
        root_race_free(s->race);
    free(s->race);
    memset(s, 0, sizeof *s);
}

const char *results_program_version(void)
{
    return ANYWOLI_VERSION;
}

const char *results_git_commit(void)
{
    return ANYWOLI_GIT_COMMIT;
}

void results_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Copy the most specific HDF5 error (its errno text when it has one) into buf. */
static herr_t first_error(unsigned n, const H5E_error2_t *err, void *data)
{
    char *buf = data;
    if (n == 0 && err->desc) {
        const char *msg = strstr(err->desc, "error message = '");
        if (msg) {
            msg += strlen("error message = '");
            snprintf(buf, 160, "%.*s", (int)strcspn(msg, "'"), msg);
        } else {
            snprintf(buf, 160, "%s", err->desc);
        }
    }
    return 0;
}

/* Report an HDF5 failure: what we were doing, and HDF5's reason. */
static int h5_error(Error *e, const char *path, const char *what)
{
    char reason[160] = "";
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first_error, reason);
    H5Eclear2(H5E_DEFAULT);
    return error_set(e, "%s: %s failed%s%s", path, what, reason[0] ? ": " : "", reason);
}

/* The host's name. */
static void host_name(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0)
        snprintf(buf, len, "unknown");
    buf[len - 1] = '\0';
}

int results_write_root(hid_t f, int64_t seed, const char *config, const char *started,
                       const int64_t *rank_threads)
{
    char host[256];
    host_name(host, sizeof host);
    int rc = h5u_attr_string(f, "format", RESULTS_FORMAT);
    rc |= h5u_attr_int(f, "format_version", RESULTS_FORMAT_VERSION);
    rc |= h5u_attr_string(f, "program_version", results_program_version());
    rc |= h5u_attr_string(f, "git_commit", results_git_commit());
    rc |= h5u_attr_int(f, "seed", seed);
    rc |= h5u_attr_string(f, "config", config);
    rc |= h5u_attr_string(f, "started", started);
    rc |= h5u_attr_string(f, "host", host);
    rc |= h5u_attr_int(f, "threads", rank_threads[0]);
    rc |= h5u_attr_int(f, "ranks", cluster_size());
    rc |= h5u_attr_int_array(f, "rank_threads", rank_threads, cluster_size());
    return rc ? -1 : 0;
}

int results_write_variant(hid_t g, const Variant *v)
{
    /* Each parameter under its name: a number, but the convention by its name. */
    int rc = 0;
    for (int p = 0; p < VP_NB; p++) {
        const char *name = variant_params[p].name;
        int64_t x = variant_get(v, p);
        rc |= variant_params[p].kind == VK_CONVENTION
                  ? h5u_attr_string(g, name, final_four_name((FinalFour)x))
                  : h5u_attr_int(g, name, x);
    }
    return rc ? -1 : 0;
}

/* An agent's spec as played, every option and weight at its value, beside the spec as
 * given: a default that changes later (alpha-beta's weights) must not change what the file
 * says played. */
static int write_played_spec(hid_t g, const char *key, const char *spec)
{
    char full[AGENT_FULL_SPEC_MAX];
    Error e;
    if (agent_full_spec(spec, full, sizeof full, &e) != 0)
        return -1;   /* the config's check built it already */
    return h5u_attr_string(g, key, full);
}

/* A job group's attributes: the variant parameters, the agents (as given and as played), the
 * games, the index. */
static int write_job_attrs(hid_t g, const Job *j)
{
    int rc = results_write_variant(g, &j->variant);
    rc |= h5u_attr_string(g, "agent_a", j->agent_a);
    rc |= h5u_attr_string(g, "agent_b", j->agent_b);
    rc |= write_played_spec(g, "agent_a_played", j->agent_a);
    rc |= write_played_spec(g, "agent_b_played", j->agent_b);
    /* Only where a spec names files, so that other jobs read as before. */
    if (j->files_a && *j->files_a)
        rc |= h5u_attr_string(g, "agent_a_files", j->files_a);
    if (j->files_b && *j->files_b)
        rc |= h5u_attr_string(g, "agent_b_files", j->files_b);
    rc |= h5u_attr_int(g, "games", j->games);
    rc |= h5u_attr_int(g, "index", (int64_t)j->index);
    rc |= h5u_attr_string(g, "openings", j->openings.spec);
    if (j->has_sprt) {
        rc |= h5u_attr_double(g, "sprt_elo0", j->sprt.elo0);
        rc |= h5u_attr_double(g, "sprt_elo1", j->sprt.elo1);
        rc |= h5u_attr_double(g, "sprt_alpha", j->sprt.alpha);
        rc |= h5u_attr_double(g, "sprt_beta", j->sprt.beta);
    }
    if (j->has_root_design) {
        char rule[96];
        root_rule_text(&j->root_design, rule, sizeof rule);
        rc |= h5u_attr_string(g, "root_design", rule);
    }
    /* Only a slice carries it (absent: 0), so that a whole run's file is as it always was. */
    if (j->first_game)
        rc |= h5u_attr_int(g, "first_game", j->first_game);
    /* Written only when on: absent means no adjudication, as in every older file. */
    if (j->adjudicate)
        rc |= h5u_attr_int(g, "adjudicate", 1);
    /* Written only when shuffled: absent means in order, as in every older file. */
    if (j->openings.order != OPENINGS_IN_ORDER)
        rc |= h5u_attr_string(g, "openings_order", openings_order_names[j->openings.order]);
    return rc ? -1 : 0;
}

hid_t results_opening_type(void)
{
    hid_t s = h5u_string_type();
    hid_t t = s >= 0 ? H5Tcreate(H5T_COMPOUND, sizeof(OpeningRow)) : -1;
    if (t >= 0 && (H5Tinsert(t, "index", HOFFSET(OpeningRow, index), H5T_NATIVE_INT64) < 0 ||
                   H5Tinsert(t, "moves", HOFFSET(OpeningRow, moves), s) < 0 ||
                   H5Tinsert(t, "apn", HOFFSET(OpeningRow, apn), s) < 0)) {
        H5Tclose(t);
        t = -1;
    }
    if (s >= 0)
        H5Tclose(s);
    return t;
}

/* The rows of job j's openings table once games [0, games) are in the file: one per pair
 * begun for random plies (each pair draws its own); for a list, the lines those pairs have
 * reached (pair k plays line k mod count), at most the list; none from the start. Written
 * with the games that name them, nothing is computed or stored for games not played. */
static int64_t opening_rows(const Job *j, int64_t games)
{
    int64_t pairs = (games + 1) / 2;
    switch (j->openings.kind) {
    case OPENINGS_START: return 0;
    case OPENINGS_PLIES: return pairs;
    default: return pairs < j->openings.count ? pairs : j->openings.count;
    }
}

/* Rows [first, first + n) of job j's openings table into rows, their text in text (n slots
 * of OPENING_TEXT bytes). */
#define OPENING_TEXT (OPENING_MAX_PLIES * 4 + APN_MAX + 2)
static void make_opening_rows(const Job *j, int64_t seed, int64_t first, int64_t n,
                              OpeningRow *rows, char *text)
{
    for (int64_t i = 0; i < n; i++) {
        Opening o;
        char *moves = text + i * OPENING_TEXT;
        int64_t index = openings_pair(&j->openings, &j->variant, (uint64_t)seed, j->index,
                                      (uint64_t)(first + i), &o);
        opening_moves_text(&o, moves, OPENING_MAX_PLIES * 4 + 1);
        rows[i].index = index;
        rows[i].moves = moves;
        rows[i].apn = moves + strlen(moves) + 1;
        opening_apn(&j->variant, &o, rows[i].apn);
    }
}

/* The end of making a dataset: close it (a failed close fails the write), its creation
 * properties and its space, whichever were made (-1: not); rc, or -1. */
static int dataset_done(hid_t ds, hid_t dcpl, hid_t space, int rc)
{
    if (ds >= 0 && H5Dclose(ds) < 0)
        rc = -1;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* Job j's empty openings table in group g, extendible: its rows come with the games. */
static int create_openings(hid_t g, const Job *j)
{
    int64_t most = opening_rows(j, j->first_game + j->games);
    hsize_t dims[1] = { 0 }, maxdims[1] = { H5S_UNLIMITED };
    hsize_t chunk[1] = { most < OPENING_BLOCK ? (hsize_t)(most ? most : 1) : OPENING_BLOCK };
    hid_t type = results_opening_type();
    hid_t space = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t ds = -1;
    if (type >= 0 && space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0 &&
        H5Pset_deflate(dcpl, DEFLATE_LEVEL) >= 0)
        ds = H5Dcreate2(g, "openings", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = dataset_done(ds, dcpl, space, ds >= 0 ? 0 : -1);
    if (type >= 0)
        H5Tclose(type);
    return rc;
}

/* An empty, extendible, chunked and compressed 1-D dataset `name` of type t in group g, with
 * `first` as its one value when not NULL. */
static int create_column(hid_t g, const char *name, hid_t t, hsize_t chunk, bool shuffle,
                         const uint64_t *first)
{
    hsize_t dims[1] = { 0 }, maxdims[1] = { H5S_UNLIMITED }, chunks[1] = { chunk };
    hid_t space = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t ds = -1;
    if (space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunks) >= 0 &&
        (!shuffle || H5Pset_shuffle(dcpl) >= 0) && H5Pset_deflate(dcpl, DEFLATE_LEVEL) >= 0 &&
        H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) >= 0)
        ds = H5Dcreate2(g, name, t, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hsize_t one[1] = { 1 };
    int rc = ds >= 0 ? 0 : -1;
    if (rc == 0 && first &&
        (H5Dset_extent(ds, one) < 0 ||
         h5u_range_io(ds, H5T_NATIVE_UINT64, 0, 1, (void *)first, true) != 0))
        rc = -1;
    return dataset_done(ds, dcpl, space, rc);
}

/* An empty, extendible, chunked and compressed games table in group g. */
static int create_games(hid_t g, hid_t row_type, int64_t games)
{
    hsize_t chunk = games < RESULTS_CHUNK_ROWS ? (hsize_t)games : RESULTS_CHUNK_ROWS;
    return create_column(g, "games", row_type, chunk, true, NULL);
}

/* A job's empty move records: `moves` (every game's moves, one byte each) and
 * `moves_index` (where each game's moves start, and its end: games + 1 offsets, 0 first). */
static int create_moves(hid_t g)
{
    static const uint64_t zero = 0;
    if (create_column(g, "moves", H5T_STD_U8LE, MOVES_CHUNK, false, NULL) != 0)
        return -1;
    return create_column(g, "moves_index", H5T_STD_U64LE, RESULTS_CHUNK_ROWS, true, &zero);
}

/* /jobs and, for each job, its group with attributes and empty table. */
static int write_jobs(Results *r, const Experiment *x)
{
    hid_t jobs = H5Gcreate2(r->file, "jobs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = jobs < 0 ? -1 : 0;
    for (int i = 0; rc == 0 && i < x->njobs; i++) {
        hid_t g = H5Gcreate2(jobs, x->jobs[i].name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = g < 0 ? -1 : 0;
        rc = rc ? rc : write_job_attrs(g, &x->jobs[i]);
        rc = rc ? rc : create_games(g, r->row_type, x->jobs[i].games);
        rc = rc ? rc : create_openings(g, &x->jobs[i]);
        rc = rc || !x->jobs[i].record_moves ? rc : create_moves(g);
        if (g >= 0)
            H5Gclose(g);
    }
    if (jobs >= 0)
        H5Gclose(jobs);
    return rc;
}

Results *results_create(const char *path, const Experiment *x, const char *started,
                        const int64_t *rank_threads, Error *e)
{
    h5u_quiet();
    Results *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        error_set(e, "out of memory");
        return NULL;
    }
    r->games = -1;
    r->seed = x->seed;
    r->row_type = row_type_create();
    r->file = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    if (r->file < 0 || r->row_type < 0) {
        h5_error(e, path, "creating the file");
        results_close(r, NULL);
        return NULL;
    }
    if (results_write_root(r->file, x->seed, x->text, started, rank_threads) != 0 ||
        write_jobs(r, x) != 0) {
        h5_error(e, path, "writing the file's structure");
        results_close(r, NULL);
        return NULL;
    }
    return r;
}

/* Open job j's games table, closing another one first. */
static int open_games(Results *r, const Job *j, Error *e)
{
    if (r->job == j && r->games >= 0)
        return 0;
    if (r->games >= 0)
        H5Dclose(r->games);
    r->job = NULL;
    char name[JOB_NAME_MAX + 32];
    snprintf(name, sizeof name, "/jobs/%s/games", j->name);
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    /* A cache of a few chunks, emptied of fully written chunks first. */
    if (dapl >= 0)
        H5Pset_chunk_cache(dapl, 521, 8u * RESULTS_CHUNK_ROWS * ROW_BYTES, 1.0);
    r->games = H5Dopen2(r->file, name, dapl >= 0 ? dapl : H5P_DEFAULT);
    if (dapl >= 0)
        H5Pclose(dapl);
    if (r->games < 0)
        return h5_error(e, r->path, "opening a games table");
    r->job = j;
    return 0;
}

/* The number of rows of a 1-D dataset, or -1. */
static int64_t rows_of(hid_t ds)
{
    hid_t space = H5Dget_space(ds);
    hsize_t dims[1] = { 0 };
    int ok = space >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
             H5Sget_simple_extent_dims(space, dims, NULL) == 1;
    if (space >= 0)
        H5Sclose(space);
    return ok ? (int64_t)dims[0] : -1;
}

/* Extend a 1-D dataset of `have` values by n values from buf (of memory type t). */
static int extend(hid_t ds, hid_t t, uint64_t have, uint64_t n, const void *buf)
{
    hsize_t size[1] = { have + n };
    return H5Dset_extent(ds, size) < 0 || h5u_range_io(ds, t, have, n, (void *)buf, true) != 0
               ? -1 : 0;
}

/* Append the moves of n games (packed rows, for their plies) to job j's move records, which
 * hold the games before them: the moves, and each game's end offset in moves_index. */
static int append_moves(Results *r, const Job *j, uint32_t n, const unsigned char *rows,
                        const unsigned char *moves, Error *e)
{
    char name[JOB_NAME_MAX + 32];
    snprintf(name, sizeof name, "/jobs/%s/moves", j->name);
    hid_t mv = H5Dopen2(r->file, name, H5P_DEFAULT);
    snprintf(name, sizeof name, "/jobs/%s/moves_index", j->name);
    hid_t ix = H5Dopen2(r->file, name, H5P_DEFAULT);
    uint64_t *ends = malloc((size_t)n * sizeof *ends);
    int rc = mv < 0 || ix < 0 ? h5_error(e, r->path, "opening a job's moves") : 0;
    if (rc == 0 && !ends)
        rc = error_set(e, "out of memory");
    int64_t have = rc == 0 ? rows_of(mv) : -1, games = rc == 0 ? rows_of(ix) : -1;
    if (rc == 0 && (have < 0 || games < 1))
        rc = error_set(e, "%s: job %s: its moves cannot be read", r->path, j->name);
    uint64_t at = (uint64_t)have;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        GameRecord g;
        row_unpack(rows + (size_t)i * ROW_BYTES, &g);
        at += g.plies;
        ends[i] = at;
    }
    if (rc == 0 && (extend(mv, H5T_NATIVE_UINT8, (uint64_t)have, at - (uint64_t)have, moves) != 0 ||
                    extend(ix, H5T_NATIVE_UINT64, (uint64_t)games, n, ends) != 0))
        rc = h5_error(e, r->path, "writing moves");
    free(ends);
    if (mv >= 0)
        H5Dclose(mv);
    if (ix >= 0)
        H5Dclose(ix);
    return rc;
}

/* Extend job j's openings table, which holds the rows of games [0, start), to the rows of
 * games [0, start + n): the openings of the pairs those games begin, block by block. A slice
 * (first_game > 0) holds those of the pairs before it too, from its first batch on: a game's
 * `opening` is a row number of the table, in a slice as in the whole run. */
static int append_openings(Results *r, const Job *j, uint64_t start, uint32_t n, Error *e)
{
    int64_t from = (int64_t)start == j->first_game ? 0 : opening_rows(j, (int64_t)start);
    int64_t to = opening_rows(j, (int64_t)(start + n));
    if (to == from)
        return 0;
    char name[JOB_NAME_MAX + 32];
    snprintf(name, sizeof name, "/jobs/%s/openings", j->name);
    hid_t ds = H5Dopen2(r->file, name, H5P_DEFAULT);
    hid_t type = results_opening_type();
    int64_t block = to - from < OPENING_BLOCK ? to - from : OPENING_BLOCK;
    OpeningRow *rows = malloc((size_t)block * sizeof *rows);
    char *text = malloc((size_t)block * OPENING_TEXT);
    int rc = ds < 0 || type < 0 ? h5_error(e, r->path, "opening a job's openings") : 0;
    if (rc == 0 && (!rows || !text))
        rc = error_set(e, "out of memory");
    if (rc == 0 && rows_of(ds) != from)
        rc = error_set(e, "%s: job %s: its openings table does not hold the rows of its "
                       "games", r->path, j->name);
    for (int64_t first = from; rc == 0 && first < to; first += block) {
        int64_t k = to - first < block ? to - first : block;
        make_opening_rows(j, r->seed, first, k, rows, text);
        if (extend(ds, type, (uint64_t)first, (uint64_t)k, rows) != 0)
            rc = h5_error(e, r->path, "writing openings");
    }
    free(rows);
    free(text);
    if (type >= 0)
        H5Tclose(type);
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

int results_append(Results *r, const Job *j, uint64_t start, uint32_t n,
                   const unsigned char *rows, const unsigned char *moves, Error *e)
{
    if (open_games(r, j, e) != 0)
        return -1;
    /* The table's row of game `start` (a slice's first game is its row 0). */
    uint64_t row = start - (uint64_t)j->first_game;
    int64_t have = rows_of(r->games);
    if (start < (uint64_t)j->first_game || have != (int64_t)row)
        return error_set(e, "%s: job %s holds %lld rows, not %llu", r->path, j->name,
                         (long long)have, (unsigned long long)row);
    hsize_t size[1] = { row + n };
    if (H5Dset_extent(r->games, size) < 0 ||
        h5u_range_io(r->games, r->row_type, row, n, (void *)rows, true) != 0)
        return h5_error(e, r->path, "writing games");
    if (j->record_moves && append_moves(r, j, n, rows, moves, e) != 0)
        return -1;
    return append_openings(r, j, start, n, e);
}

/* The length histogram of a finished job, chunked and compressed. */
static int write_histogram(hid_t g, const JobStats *s)
{
    hsize_t dims[1] = { s->hist_len }, chunk[1] = { s->hist_len < HIST_CHUNK ? s->hist_len
                                                                             : HIST_CHUNK };
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t ds = -1;
    if (space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0 && H5Pset_shuffle(dcpl) >= 0 &&
        H5Pset_deflate(dcpl, DEFLATE_LEVEL) >= 0)
        ds = H5Dcreate2(g, "length_histogram", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT);
    herr_t rc = ds < 0 ? -1 : H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, s->hist);
    return dataset_done(ds, dcpl, space, rc < 0 ? -1 : 0);
}

/* The summary attributes of a finished job. */
static int write_summary(hid_t g, const JobStats *s)
{
    int rc = h5u_attr_int(g, "south_wins", s->outcome[OUT_SOUTH]);
    rc |= h5u_attr_int(g, "north_wins", s->outcome[OUT_NORTH]);
    rc |= h5u_attr_int(g, "draws", s->outcome[OUT_DRAW]);
    rc |= h5u_attr_int(g, "endless", s->outcome[OUT_ENDLESS]);
    rc |= h5u_attr_int(g, "unfinished", s->outcome[OUT_UNFINISHED]);
    rc |= h5u_attr_int(g, "a_wins", s->a_wins);
    rc |= h5u_attr_int(g, "b_wins", s->b_wins);
    rc |= h5u_attr_int(g, "longest", s->hist_len ? (int64_t)s->hist_len - 1 : 0);
    rc |= h5u_attr_double(g, "mean_plies", s->games ? (double)s->plies / (double)s->games : 0.0);
    return rc ? -1 : 0;
}

/* A job's sequential test as it ended: its log-likelihood ratio, bounds and decision, and,
 * when it stopped the job, that it did and at which pair. */
/* The checksums of the job's games table (every row counted: the file is complete) and of
 * its openings table when it has rows, which every reader checks, so that a row edited by
 * hand, however consistently, is refused. */
static int write_checksums(hid_t g, const JobStats *s)
{
    char text[24];
    snprintf(text, sizeof text, "%016" PRIx64, s->checksum);
    int rc = h5u_attr_string(g, "games_checksum", text);
    hid_t ds = H5Lexists(g, "openings", H5P_DEFAULT) > 0 ? H5Dopen2(g, "openings", H5P_DEFAULT)
                                                          : -1;
    hid_t space = ds >= 0 ? H5Dget_space(ds) : -1;
    hssize_t rows = space >= 0 ? H5Sget_simple_extent_npoints(space) : 0;
    uint64_t sum;
    if (rc == 0 && rows > 0) {
        rc = results_openings_checksum(ds, &sum);
        snprintf(text, sizeof text, "%016" PRIx64, sum);
        rc = rc ? rc : h5u_attr_string(g, "openings_checksum", text);
    }
    if (space >= 0)
        H5Sclose(space);
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

static int write_stop(hid_t g, const JobStop *s)
{
    int rc = h5u_attr_double(g, "sprt_llr", s->test.llr);
    rc |= h5u_attr_double(g, "sprt_lower", s->test.lower);
    rc |= h5u_attr_double(g, "sprt_upper", s->test.upper);
    rc |= h5u_attr_string(g, "sprt_decision", sprt_decision_key(s->test.decision));
    if (s->stopped) {
        rc |= h5u_attr_string(g, "stopped", "sprt");
        rc |= h5u_attr_int(g, "stop_pair", s->pair);
    }
    return rc ? -1 : 0;
}

/* An adaptive root design's rounds as it ended: each round's first pair and its lines in
 * (the rounds begun; a reader re-derives them from the games and holds them equal), and
 * whether its half-width stopped the job, at which pair. */
static int write_race(hid_t g, const JobStats *s)
{
    const RootRace *race = s->race;
    if (!race)
        return 0;
    int n = race->round + 1;
    int64_t *lines = malloc((size_t)n * sizeof *lines);
    if (!lines)
        return -1;
    for (int i = 0; i < n; i++)
        lines[i] = race->round_lines[i];
    int rc = h5u_attr_int_array(g, "root_round_first", race->round_first, n);
    rc |= h5u_attr_int_array(g, "root_round_lines", lines, n);
    free(lines);
    if (s->stop.stopped) {
        rc |= h5u_attr_string(g, "stopped", "root_halfwidth");
        rc |= h5u_attr_int(g, "stop_pair", s->stop.pair);
    }
    return rc ? -1 : 0;
}

int results_end_job(Results *r, const Job *j, const JobStats *s, Error *e)
{
    if (r->games >= 0)
        H5Dclose(r->games);
    r->games = -1;
    r->job = NULL;
    char name[JOB_NAME_MAX + 32];
    snprintf(name, sizeof name, "/jobs/%s", j->name);
    hid_t g = H5Gopen2(r->file, name, H5P_DEFAULT);
    int rc = g < 0 || write_histogram(g, s) != 0 || write_summary(g, s) != 0 ||
             write_checksums(g, s) != 0 || (j->has_sprt && write_stop(g, &s->stop) != 0) ||
             (j->has_root_design && write_race(g, s) != 0);
    if (g >= 0)
        H5Gclose(g);
    return rc ? h5_error(e, r->path, "writing a job's summary") : 0;
}

int results_end(Results *r, const char *finished, Error *e)
{
    if (h5u_attr_string(r->file, "finished", finished) != 0)
        return h5_error(e, r->path, "writing the finish time");
    return 0;
}

int results_close(Results *r, Error *e)
{
    int rc = 0;
    if (!r)
        return 0;
    if (r->games >= 0)
        H5Dclose(r->games);
    if (r->row_type >= 0)
        H5Tclose(r->row_type);
    if (r->file >= 0 && H5Fclose(r->file) < 0)
        rc = h5_error(e, r->path, "closing the file");
    free(r->path);
    free(r);
    return rc;
}
