/* results_read.c: streamed reading of results files (format 1) for `anywoli analyze`. */
#include "results_read.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5util.h"
#include "results.h"

#define STREAM_ROWS (4u * RESULTS_CHUNK_ROWS)   /* rows per HDF5 read: whole chunks */

/* A job's name and its run order. */
typedef struct JobName {
    char *name;
    int64_t index;
} JobName;

struct ResultsFile {
    hid_t file;
    char *path;
    JobName *jobs;
    int njobs;
};

struct RowStream {
    hid_t ds, type;
    uint64_t rows, next;
    unsigned char *buf;                 /* STREAM_ROWS packed rows */
    const char *path;
};

/* An integer attribute of loc; -1 when absent or not an integer: a foreign file's float is
 * refused rather than rounded. */
static int attr_int64(hid_t loc, const char *name, int64_t *v)
{
    return h5u_attr_class(loc, name) == H5T_INTEGER ? h5u_read_int(loc, name, v) : -1;
}

/* Record one job of /jobs (an H5Literate callback). */
static herr_t collect_job(hid_t jobs, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    ResultsFile *f = data;
    JobName *grown = realloc(f->jobs, ((size_t)f->njobs + 1) * sizeof *grown);
    if (!grown)
        return -1;
    f->jobs = grown;
    hid_t g = H5Gopen2(jobs, name, H5P_DEFAULT);
    int64_t index = f->njobs;
    if (g >= 0) {
        attr_int64(g, "index", &index);
        H5Gclose(g);
    }
    grown[f->njobs].name = strdup(name);
    grown[f->njobs].index = index;
    if (!grown[f->njobs].name)
        return -1;
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
static int check_format(hid_t file, const char *path, Error *e)
{
    char *format = h5u_read_string(file, "format");
    int64_t version = -1;
    bool is_results = format && strcmp(format, RESULTS_FORMAT) == 0;
    free(format);
    if (!is_results)
        return error_set(e, "%s: not an anywoli results file (no format \"%s\")", path,
                         RESULTS_FORMAT);
    if (attr_int64(file, "format_version", &version) != 0)
        return error_set(e, "%s: damaged results file (no format_version)", path);
    if (version != RESULTS_FORMAT_VERSION)
        return error_set(e, "%s: results file of format_version %lld; this program reads %d",
                         path, (long long)version, RESULTS_FORMAT_VERSION);
    return 0;
}

/* List the jobs of /jobs in run order. */
static int list_jobs(ResultsFile *f, Error *e)
{
    hid_t jobs = H5Lexists(f->file, "jobs", H5P_DEFAULT) > 0
                     ? H5Gopen2(f->file, "jobs", H5P_DEFAULT) : -1;
    if (jobs < 0)
        return error_set(e, "%s: damaged results file (no /jobs group)", f->path);
    herr_t rc = H5Literate(jobs, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_job, f);
    H5Gclose(jobs);
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
    htri_t is_hdf5 = H5Fis_hdf5(path);
    f->file = is_hdf5 > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    if (is_hdf5 < 0 && f->file < 0)
        error_set(e, "%s: cannot open it (missing, unreadable or damaged)", path);
    else if (f->file < 0)
        error_set(e, "%s: not an anywoli results file (not HDF5, or damaged)", path);
    if (f->file < 0 || check_format(f->file, path, e) != 0 || list_jobs(f, e) != 0) {
        rf_close(f);
        return NULL;
    }
    return f;
}

void rf_close(ResultsFile *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->njobs; i++)
        free(f->jobs[i].name);
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

char *rf_root_text(const ResultsFile *f, const char *name)
{
    return h5u_read_string(f->file, name);
}

/* Open /jobs/<name>/<what> (a dataset), or -1. */
static hid_t open_dataset(const ResultsFile *f, const char *name, const char *what)
{
    char p[512];
    snprintf(p, sizeof p, "/jobs/%s", name);
    hid_t g = strchr(name, '/') == NULL && H5Lexists(f->file, p, H5P_DEFAULT) > 0
                  ? H5Gopen2(f->file, p, H5P_DEFAULT) : -1;
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

int rf_length_histogram(const ResultsFile *f, const char *name, uint64_t **counts, size_t *len,
                        Error *e)
{
    *counts = NULL;
    *len = 0;
    hid_t ds = open_dataset(f, name, "length_histogram");
    if (ds < 0)
        return 0;
    int64_t n = dataset_length(ds);
    int64_t *raw = n >= 0 ? malloc(((size_t)n + 1) * sizeof *raw) : NULL;
    bool ok = raw && (n == 0 || H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                        raw) >= 0);
    for (int64_t i = 0; ok && i < n; i++)
        ok = raw[i] >= 0;
    H5Dclose(ds);
    if (!ok) {
        free(raw);
        return error_set(e, "%s: job %s: damaged length_histogram", f->path, name);
    }
    *counts = (uint64_t *)raw;      /* non-negative int64 read as uint64, same size */
    *len = (size_t)n;
    return 1;
}

/* The packed compound type of a games row (results.h: ROW_BYTES, the format's fields). */
static hid_t packed_row_type(void)
{
    static const struct { const char *name; size_t off; } f[] = {
        { "game", 0 }, { "a_south", 8 }, { "outcome", 9 }, { "south", 10 }, { "north", 12 },
        { "left", 14 }, { "last_capturer", 16 }, { "first_final", 17 }, { "lottery", 18 },
        { "plies", 19 }, { "passes", 23 }, { "mid_captures", 27 }, { "final_captures", 29 },
    };
    const hid_t types[] = { H5T_STD_U64LE, H5T_STD_U8LE, H5T_STD_I8LE, H5T_STD_U16LE,
                            H5T_STD_U16LE, H5T_STD_U16LE, H5T_STD_I8LE, H5T_STD_I8LE,
                            H5T_STD_I8LE, H5T_STD_U32LE, H5T_STD_U32LE, H5T_STD_U16LE,
                            H5T_STD_U16LE };
    hid_t t = H5Tcreate(H5T_COMPOUND, ROW_BYTES);
    for (size_t i = 0; t >= 0 && i < sizeof f / sizeof f[0]; i++) {
        if (H5Tinsert(t, f[i].name, f[i].off, types[i]) < 0) {
            H5Tclose(t);
            return -1;
        }
    }
    return t;
}

/* Whether the table's type has every field of format 1. */
static bool has_format_fields(hid_t ds)
{
    static const char *names[] = { "game", "a_south", "outcome", "south", "north", "left",
                                   "last_capturer", "first_final", "lottery", "plies",
                                   "passes", "mid_captures", "final_captures" };
    hid_t t = H5Dget_type(ds);
    bool ok = t >= 0 && H5Tget_class(t) == H5T_COMPOUND;
    for (size_t i = 0; ok && i < sizeof names / sizeof names[0]; i++)
        ok = H5Tget_member_index(t, names[i]) >= 0;
    if (t >= 0)
        H5Tclose(t);
    H5Eclear2(H5E_DEFAULT);
    return ok;
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
    s->ds = open_dataset(f, name, "games");
    int64_t rows = s->ds >= 0 ? dataset_length(s->ds) : -1;
    if (rows < 0 || !has_format_fields(s->ds)) {
        error_set(e, "%s: job %s: damaged results file (no readable games table)", f->path,
                  name);
        rf_rows_close(s);
        return NULL;
    }
    s->rows = (uint64_t)rows;
    s->type = packed_row_type();
    s->buf = malloc((size_t)STREAM_ROWS * ROW_BYTES);
    if (s->type < 0 || !s->buf) {
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

/* Read rows [first, first + n) of the table into the stream's buffer. */
static int read_block(RowStream *s, uint64_t first, uint64_t n)
{
    hsize_t off[1] = { first }, cnt[1] = { n };
    hid_t fspace = H5Dget_space(s->ds);
    hid_t mspace = H5Screate_simple(1, cnt, NULL);
    herr_t rc = -1;
    if (fspace >= 0 && mspace >= 0 &&
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0)
        rc = H5Dread(s->ds, s->type, mspace, fspace, H5P_DEFAULT, s->buf);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    H5Eclear2(H5E_DEFAULT);
    return rc < 0 ? -1 : 0;
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
    for (uint64_t i = 0; i < n; i++)
        row_unpack(s->buf + i * ROW_BYTES, &out[i]);
    s->next += n;
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
    free(s);
}
