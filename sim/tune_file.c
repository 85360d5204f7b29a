/* tune_file.c: the /tuning group of a results file (docs/results.md): writing it as the
 * tuning goes, and reading it back. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5util.h"
#include "results.h"
#include "tune_internal.h"

#define NAME_BYTES 16           /* a weight's or an opponent's name in the tables */
#define TRAJECTORY_CHUNK 1024   /* rows per chunk of the trajectory */

struct TuneFile {
    hid_t file, tuning, trajectory, row_type;
    char *path;
    int nweights;
    uint64_t rows;
};

/* The verification table's row. */
typedef struct VerifyRow {
    char opponent[NAME_BYTES];
    int64_t pairs, wins, draws, losses, by_points[5];
    double score, elo, elo_lo, elo_hi, los, llr, llr_lower, llr_upper;
    int8_t decision;
    double sprt[4];             /* the match's SPRT: elo0, elo1, alpha, beta */
    int64_t stop_pair;          /* TuneVerify's (files before it lack the field: -1) */
} VerifyRow;

/* The fields of the row's SPRT bounds (a file written before each match had its own lacks
 * them: the bounds are then /tuning's attributes, the same for every match). */
static const char *const bound_fields[4] = { "sprt_elo0", "sprt_elo1", "sprt_alpha",
                                             "sprt_beta" };

/* The weights table's row. */
typedef struct WeightRow {
    char name[NAME_BYTES];
    double start, min, max, step, tuned;
} WeightRow;

static const char *const count_names[6] = { "plus_wins", "plus_draws", "plus_losses",
                                            "minus_wins", "minus_draws", "minus_losses" };

/* ---- packed rows ---- */

static void put_u64(unsigned char *p, uint64_t x) { memcpy(p, &x, 8); }
static void put_f64(unsigned char *p, double x) { memcpy(p, &x, 8); }
static uint64_t get_u64(const unsigned char *p) { uint64_t x; memcpy(&x, p, 8); return x; }
static double get_f64(const unsigned char *p) { double x; memcpy(&x, p, 8); return x; }

void step_pack(const TuneStep *s, int n, unsigned char *row)
{
    size_t o = 24 + 9 * (size_t)n;
    const int64_t c[6] = { s->plus.wins, s->plus.draws, s->plus.losses,
                           s->minus.wins, s->minus.draws, s->minus.losses };
    put_u64(row, s->k);
    put_f64(row + 8, s->a_k);
    put_f64(row + 16, s->c_k);
    for (int i = 0; i < n; i++) {
        put_f64(row + 24 + 8 * i, s->theta[i]);
        row[24 + 8 * n + i] = (unsigned char)s->delta[i];
    }
    for (int i = 0; i < 6; i++)
        put_u64(row + o + 8 * (size_t)i, (uint64_t)c[i]);
    put_f64(row + o + 48, s->diff);
}

void step_unpack(const unsigned char *row, int n, TuneStep *s)
{
    size_t o = 24 + 9 * (size_t)n;
    memset(s, 0, sizeof *s);
    s->k = get_u64(row);
    s->a_k = get_f64(row + 8);
    s->c_k = get_f64(row + 16);
    for (int i = 0; i < n; i++) {
        s->theta[i] = get_f64(row + 24 + 8 * i);
        s->delta[i] = (int8_t)row[24 + 8 * n + i];
    }
    int64_t *c[6] = { &s->plus.wins, &s->plus.draws, &s->plus.losses,
                      &s->minus.wins, &s->minus.draws, &s->minus.losses };
    for (int i = 0; i < 6; i++)
        *c[i] = (int64_t)get_u64(row + o + 8 * (size_t)i);
    s->diff = get_f64(row + o + 48);
}

void verify_block_pack(uint64_t first, uint64_t count, const MatchSums *m,
                       const PairGames *each, unsigned char *row)
{
    const int64_t c[8] = { m->wins, m->draws, m->losses, m->pairs[0], m->pairs[1],
                           m->pairs[2], m->pairs[3], m->pairs[4] };
    put_u64(row, first);
    put_u64(row + 8, count);
    for (int i = 0; i < 8; i++)
        put_u64(row + 16 + 8 * i, (uint64_t)c[i]);
    for (uint64_t i = 0; i < count && i < VERIFY_BLOCK; i++)
        row[80 + i] = (unsigned char)((each[i].game[0] + 1) * 3 + each[i].game[1] + 1);
}

int verify_block_unpack(const unsigned char *row, uint64_t *first, uint64_t *count,
                        MatchSums *m, PairGames *each)
{
    int64_t c[8];
    *first = get_u64(row);
    *count = get_u64(row + 8);
    for (int i = 0; i < 8; i++)
        c[i] = (int64_t)get_u64(row + 16 + 8 * i);
    *m = (MatchSums){ c[0], c[1], c[2], { c[3], c[4], c[5], c[6], c[7] } };
    if (*count > VERIFY_BLOCK)
        return -1;
    MatchSums again = { 0, 0, 0, { 0 } };
    for (uint64_t i = 0; i < *count; i++) {
        if (row[80 + i] > 8)
            return -1;
        each[i] = (PairGames){ { (int8_t)(row[80 + i] / 3 - 1), (int8_t)(row[80 + i] % 3 - 1) } };
        match_sums_add_pair(&again, each[i]);
    }
    return memcmp(&again, m, sizeof again) == 0 ? 0 : -1;
}

/* ---- HDF5 helpers ---- */

/* Report an HDF5 failure as one line. */
static int h5_error(Error *e, const char *path, const char *what)
{
    H5Eclear2(H5E_DEFAULT);
    return error_set(e, "%s: %s failed", path, what);
}

/* A fixed-length, NUL-padded name type. */
static hid_t name_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, NAME_BYTES) < 0 || H5Tset_strpad(t, H5T_STR_NULLPAD) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* ---- the tables' types ---- */

/* The end of building compound type t with the name type s in it (-1: none): s closed, and t,
 * or -1 (t closed) when an insert failed. */
static hid_t type_done(hid_t t, hid_t s, herr_t rc)
{
    if (s >= 0)
        H5Tclose(s);
    if (rc < 0 && t >= 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* The packed trajectory row type for the weights' names. */
static hid_t trajectory_type(int n, char names[][NAME_BYTES])
{
    hid_t t = H5Tcreate(H5T_COMPOUND, STEP_ROW_BYTES(n));
    char field[NAME_BYTES + 8];
    size_t o = 24 + 9 * (size_t)n;
    herr_t rc = t < 0 ? -1 : 0;
    rc |= H5Tinsert(t, "iteration", 0, H5T_NATIVE_UINT64);
    rc |= H5Tinsert(t, "a_k", 8, H5T_NATIVE_DOUBLE);
    rc |= H5Tinsert(t, "c_k", 16, H5T_NATIVE_DOUBLE);
    for (int i = 0; i < n; i++) {
        snprintf(field, sizeof field, "theta.%s", names[i]);
        rc |= H5Tinsert(t, field, 24 + 8 * (size_t)i, H5T_NATIVE_DOUBLE);
    }
    for (int i = 0; i < n; i++) {
        snprintf(field, sizeof field, "delta.%s", names[i]);
        rc |= H5Tinsert(t, field, 24 + 8 * (size_t)n + (size_t)i, H5T_NATIVE_INT8);
    }
    for (int i = 0; i < 6; i++)
        rc |= H5Tinsert(t, count_names[i], o + 8 * (size_t)i, H5T_NATIVE_INT64);
    rc |= H5Tinsert(t, "diff", o + 48, H5T_NATIVE_DOUBLE);
    return type_done(t, -1, rc);
}

static hid_t weight_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(WeightRow)), s = name_type();
    herr_t rc = t < 0 || s < 0 ? -1 : 0;
    rc |= H5Tinsert(t, "name", offsetof(WeightRow, name), s);
    rc |= H5Tinsert(t, "start", offsetof(WeightRow, start), H5T_NATIVE_DOUBLE);
    rc |= H5Tinsert(t, "min", offsetof(WeightRow, min), H5T_NATIVE_DOUBLE);
    rc |= H5Tinsert(t, "max", offsetof(WeightRow, max), H5T_NATIVE_DOUBLE);
    rc |= H5Tinsert(t, "step", offsetof(WeightRow, step), H5T_NATIVE_DOUBLE);
    rc |= H5Tinsert(t, "tuned", offsetof(WeightRow, tuned), H5T_NATIVE_DOUBLE);
    return type_done(t, s, rc);
}

/* The field of the pair at which a match stopped on its SPRT (files before the stop lack it). */
static const char stop_field[] = "sprt_stop_pair";

/* The verification row's type: with its SPRT bounds and its stop, or as files before them
 * had it. */
static hid_t verify_type(bool with_bounds, bool with_stop)
{
    static const char *const pts[5] = { "pairs_0", "pairs_half", "pairs_1", "pairs_3half",
                                        "pairs_2" };
    static const char *const reals[8] = { "score", "elo", "elo_lo", "elo_hi", "los", "llr",
                                          "llr_lower", "llr_upper" };
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(VerifyRow)), s = name_type();
    herr_t rc = t < 0 || s < 0 ? -1 : 0;
    rc |= H5Tinsert(t, "opponent", offsetof(VerifyRow, opponent), s);
    rc |= H5Tinsert(t, "pairs", offsetof(VerifyRow, pairs), H5T_NATIVE_INT64);
    rc |= H5Tinsert(t, "wins", offsetof(VerifyRow, wins), H5T_NATIVE_INT64);
    rc |= H5Tinsert(t, "draws", offsetof(VerifyRow, draws), H5T_NATIVE_INT64);
    rc |= H5Tinsert(t, "losses", offsetof(VerifyRow, losses), H5T_NATIVE_INT64);
    for (int i = 0; i < 5; i++)
        rc |= H5Tinsert(t, pts[i], offsetof(VerifyRow, by_points) + 8 * (size_t)i,
                        H5T_NATIVE_INT64);
    for (int i = 0; i < 8; i++)
        rc |= H5Tinsert(t, reals[i], offsetof(VerifyRow, score) + 8 * (size_t)i,
                        H5T_NATIVE_DOUBLE);
    rc |= H5Tinsert(t, "decision", offsetof(VerifyRow, decision), H5T_NATIVE_INT8);
    for (int i = 0; with_bounds && i < 4; i++)
        rc |= H5Tinsert(t, bound_fields[i], offsetof(VerifyRow, sprt) + 8 * (size_t)i,
                        H5T_NATIVE_DOUBLE);
    if (with_stop)
        rc |= H5Tinsert(t, stop_field, offsetof(VerifyRow, stop_pair), H5T_NATIVE_INT64);
    return type_done(t, s, rc);
}

/* Write a whole one-dimensional table of n rows (replacing one of that name). */
static int write_table(hid_t g, const char *name, hid_t type, const void *rows, hsize_t n)
{
    if (H5Lexists(g, name, H5P_DEFAULT) > 0)
        H5Ldelete(g, name, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t ds = space < 0 ? -1 : H5Dcreate2(g, name, type, space, H5P_DEFAULT, H5P_DEFAULT,
                                           H5P_DEFAULT);
    herr_t rc = ds < 0 ? -1 : n ? H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) : 0;
    if (ds >= 0 && H5Dclose(ds) < 0)
        rc = -1;
    if (space >= 0)
        H5Sclose(space);
    return rc < 0 ? -1 : 0;
}

/* ---- writing ---- */

/* The weights table, with `tuned` from values. */
static int write_weights(hid_t g, const TuneConfig *t, const double *values)
{
    WeightRow rows[EVAL_NB];
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < t->nweights; i++) {
        snprintf(rows[i].name, NAME_BYTES, "%s", eval_terms[t->w[i].term].name);
        rows[i].start = t->w[i].start;
        rows[i].min = t->w[i].p.lo;
        rows[i].max = t->w[i].p.hi;
        rows[i].step = t->w[i].p.step;
        rows[i].tuned = values[i];
    }
    hid_t type = weight_type();
    int rc = type < 0 ? -1 : write_table(g, "weights", type, rows, (hsize_t)t->nweights);
    if (type >= 0)
        H5Tclose(type);
    return rc;
}

/* /tuning's attributes: the variant, the agents, the sizes and the gains. */
static int write_tuning_attrs(hid_t g, const TuneConfig *t)
{
    double start[EVAL_NB];
    char spec[TUNE_SPEC_MAX];
    for (int i = 0; i < t->nweights; i++)
        start[i] = t->w[i].start;
    int rc = results_write_variant(g, &t->variant);
    rc |= h5u_attr_string(g, "agent", t->agent);
    rc |= h5u_attr_string(g, "opponent", t->opponent ? t->opponent : "self");
    tune_spec(t, start, true, spec);
    rc |= h5u_attr_string(g, "start_spec", spec);
    tune_default_spec(t, spec);
    rc |= h5u_attr_string(g, "default_spec", spec);
    rc |= h5u_attr_int(g, "iterations", t->iterations);
    rc |= h5u_attr_int(g, "pairs", t->pairs);
    rc |= h5u_attr_int(g, "opening_plies", t->opening_plies);
    rc |= h5u_attr_int(g, "tuning_max_plies", t->max_plies);
    rc |= h5u_attr_double(g, "a", t->gains.a);
    rc |= h5u_attr_double(g, "c", t->gains.c);
    rc |= h5u_attr_double(g, "A", t->gains.A);
    rc |= h5u_attr_double(g, "alpha", t->gains.alpha);
    rc |= h5u_attr_double(g, "gamma", t->gains.gamma);
    rc |= h5u_attr_int(g, "verification_pairs", t->verify_pairs);
    rc |= h5u_attr_double(g, "elo0", t->sprt_all.elo0);
    rc |= h5u_attr_double(g, "elo1", t->sprt_all.elo1);
    rc |= h5u_attr_double(g, "sprt_alpha", t->sprt_all.alpha);
    rc |= h5u_attr_double(g, "sprt_beta", t->sprt_all.beta);
    rc |= write_weights(g, t, start);
    return rc ? -1 : 0;
}

/* The empty, extendible trajectory table. */
static hid_t create_trajectory(hid_t g, hid_t type)
{
    hsize_t dims[1] = { 0 }, maxdims[1] = { H5S_UNLIMITED }, chunk[1] = { TRAJECTORY_CHUNK };
    hid_t space = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t ds = -1;
    if (space >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0 &&
        H5Pset_shuffle(dcpl) >= 0 && H5Pset_deflate(dcpl, 6) >= 0)
        ds = H5Dcreate2(g, "trajectory", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return ds;
}

TuneFile *tune_file_create(const char *path, const TuneConfig *t, const char *started,
                           const int64_t *rank_threads, Error *e)
{
    h5u_quiet();
    TuneFile *f = calloc(1, sizeof *f);
    char names[EVAL_NB][NAME_BYTES];
    if (!f || !(f->path = strdup(path))) {
        free(f);
        error_set(e, "out of memory");
        return NULL;
    }
    f->nweights = t->nweights;
    f->tuning = f->trajectory = f->row_type = -1;
    for (int i = 0; i < t->nweights; i++)
        snprintf(names[i], NAME_BYTES, "%s", eval_terms[t->w[i].term].name);
    f->file = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    if (f->file < 0) {
        h5_error(e, path, "creating the file");
        free(f->path);
        free(f);
        return NULL;
    }
    hid_t jobs = H5Gcreate2(f->file, "jobs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    f->tuning = H5Gcreate2(f->file, "tuning", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    f->row_type = trajectory_type(t->nweights, names);
    bool ok = jobs >= 0 && f->tuning >= 0 && f->row_type >= 0 &&
              results_write_root(f->file, t->seed, t->text, started, rank_threads) == 0 &&
              write_tuning_attrs(f->tuning, t) == 0 &&
              (f->trajectory = create_trajectory(f->tuning, f->row_type)) >= 0;
    if (jobs >= 0)
        H5Gclose(jobs);
    if (!ok) {
        h5_error(e, path, "writing the tuning's header");
        tune_file_close(f, NULL);
        return NULL;
    }
    return f;
}

int tune_file_append(TuneFile *f, const unsigned char *row, Error *e)
{
    hsize_t size[1] = { f->rows + 1 };
    if (H5Dset_extent(f->trajectory, size) < 0 ||
        h5u_range_io(f->trajectory, f->row_type, f->rows, 1, (void *)row, true) != 0)
        return h5_error(e, f->path, "appending to the trajectory");
    f->rows++;
    return 0;
}

/* Each verification match's pairs' games, /tuning/verification_pairs_<name>: pairs_done rows
 * of A's result in the pair's two games (int8: 1 won, 0 drawn, -1 lost; A South first). */
static int write_verify_pairs(hid_t g, const TuneVerify *v, const PairGames *const *pairs,
                              int nverify)
{
    int rc = 0;
    for (int m = 0; m < nverify && rc == 0; m++) {
        char name[64];
        snprintf(name, sizeof name, "verification_pairs_%s", tune_verify_names[m]);
        hsize_t dims[2] = { (hsize_t)v[m].pairs_done, 2 };
        hid_t space = H5Screate_simple(2, dims, NULL);
        hid_t ds = space < 0 ? -1 : H5Dcreate2(g, name, H5T_STD_I8LE, space, H5P_DEFAULT,
                                               H5P_DEFAULT, H5P_DEFAULT);
        rc = ds < 0 || (dims[0] && H5Dwrite(ds, H5T_NATIVE_INT8, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                            pairs[m]) < 0) ? -1 : 0;
        if (ds >= 0 && H5Dclose(ds) < 0)
            rc = -1;
        if (space >= 0)
            H5Sclose(space);
    }
    return rc;
}

int tune_file_end(TuneFile *f, const TuneConfig *t, const double *tuned, const char *tuned_spec,
                  const TuneVerify *v, const PairGames *const *pairs, int nverify,
                  const char *finished, Error *e)
{
    VerifyRow rows[VERIFY_NB];
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < nverify; i++) {
        VerifyRow *r = &rows[i];
        snprintf(r->opponent, NAME_BYTES, "%s", tune_verify_names[i]);
        r->pairs = v[i].pairs_done;
        r->wins = v[i].sums.wins;
        r->draws = v[i].sums.draws;
        r->losses = v[i].sums.losses;
        memcpy(r->by_points, v[i].sums.pairs, sizeof r->by_points);
        r->score = v[i].score;
        r->elo = v[i].elo;
        r->elo_lo = v[i].elo_lo;
        r->elo_hi = v[i].elo_hi;
        r->los = v[i].los;
        r->llr = v[i].llr;
        r->llr_lower = v[i].llr_lower;
        r->llr_upper = v[i].llr_upper;
        r->decision = (int8_t)v[i].decision;
        const double b[4] = { v[i].sprt.elo0, v[i].sprt.elo1, v[i].sprt.alpha, v[i].sprt.beta };
        memcpy(r->sprt, b, sizeof r->sprt);
        r->stop_pair = v[i].stop_pair;
    }
    hid_t type = verify_type(true, true);
    int rc = type < 0 ? -1 : write_table(f->tuning, "verification", type, rows, (hsize_t)nverify);
    if (type >= 0)
        H5Tclose(type);
    rc |= write_verify_pairs(f->tuning, v, pairs, nverify);
    rc |= write_weights(f->tuning, t, tuned);
    rc |= h5u_attr_string(f->tuning, "tuned_spec", tuned_spec);
    rc |= h5u_attr_int(f->tuning, "iterations_done", (int64_t)f->rows);
    rc |= h5u_attr_string(f->file, "finished", finished);
    return rc ? h5_error(e, f->path, "writing the tuning's end") : 0;
}

int tune_file_close(TuneFile *f, Error *e)
{
    if (!f)
        return 0;
    int rc = 0;
    if (f->trajectory >= 0)
        H5Dclose(f->trajectory);
    if (f->row_type >= 0)
        H5Tclose(f->row_type);
    if (f->tuning >= 0)
        H5Gclose(f->tuning);
    if (f->file >= 0 && H5Fclose(f->file) < 0)
        rc = h5_error(e, f->path, "closing the file");
    free(f->path);
    free(f);
    return rc;
}

/* ---- reading ---- */

/* Read a whole table of known type; *n receives its rows, rows is malloc'd. */
static int read_table(hid_t g, const char *name, hid_t type, size_t row_size, void **rows,
                      int64_t *n)
{
    hid_t ds = H5Dopen2(g, name, H5P_DEFAULT);
    hid_t space = ds < 0 ? -1 : H5Dget_space(ds);
    hssize_t count = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
    int rc = count < 0 ? -1 : 0;
    *rows = NULL;
    if (rc == 0) {
        *rows = calloc((size_t)count + 1, row_size);
        if (!*rows || (count > 0 && H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, *rows) < 0))
            rc = -1;
        *n = count;
    }
    if (space >= 0)
        H5Sclose(space);
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

/* The weights table and the trajectory. */
static int read_tables(hid_t g, TuneData *d)
{
    void *rows;
    int64_t n;
    hid_t wt = weight_type();
    int rc = wt < 0 ? -1 : read_table(g, "weights", wt, sizeof(WeightRow), &rows, &n);
    if (wt >= 0)
        H5Tclose(wt);
    if (rc != 0 || n < 1 || n > EVAL_NB) {
        free(rows);
        return -1;
    }
    d->nweights = (int)n;
    for (int i = 0; i < d->nweights; i++) {
        const WeightRow *r = (const WeightRow *)rows + i;
        memcpy(d->names[i], r->name, NAME_BYTES);
        d->names[i][NAME_BYTES - 1] = '\0';
        d->start[i] = r->start;
        d->lo[i] = r->min;
        d->hi[i] = r->max;
        d->step[i] = r->step;
        d->tuned[i] = r->tuned;
    }
    free(rows);
    hid_t tt = trajectory_type(d->nweights, d->names);
    size_t rb = STEP_ROW_BYTES(d->nweights);
    rc = tt < 0 ? -1 : read_table(g, "trajectory", tt, rb, &rows, &d->nsteps);
    if (tt >= 0)
        H5Tclose(tt);
    if (rc != 0) {
        free(rows);
        return -1;
    }
    d->steps = calloc((size_t)d->nsteps + 1, sizeof *d->steps);
    if (!d->steps) {
        free(rows);
        return -1;
    }
    for (int64_t i = 0; i < d->nsteps; i++)
        step_unpack((const unsigned char *)rows + (size_t)i * rb, d->nweights, &d->steps[i]);
    free(rows);
    return 0;
}

/* A verification match from its stored row. */
static void verify_of_row(const VerifyRow *r, TuneVerify *v)
{
    v->pairs_done = r->pairs;
    v->sums = (MatchSums){ r->wins, r->draws, r->losses, { 0 } };
    memcpy(v->sums.pairs, r->by_points, sizeof v->sums.pairs);
    v->sprt = (SprtBounds){ r->sprt[0], r->sprt[1], r->sprt[2], r->sprt[3] };
    v->score = r->score;
    v->elo = r->elo;
    v->elo_lo = r->elo_lo;
    v->elo_hi = r->elo_hi;
    v->los = r->los;
    v->llr = r->llr;
    v->llr_lower = r->llr_lower;
    v->llr_upper = r->llr_upper;
    v->decision = r->decision;
    v->stop_pair = r->stop_pair;
}

/* The verification table, when the tuning has finished. A file from before each match had
 * its own bounds holds one pair in /tuning's attributes and trinomial figures: its matches
 * get those bounds, and their figures are worked out again from the stored pair counts, so
 * that every tuning reads as pentanomial. */
static int read_verification(hid_t g, TuneData *d)
{
    if (H5Lexists(g, "verification", H5P_DEFAULT) <= 0)
        return 0;
    bool with_bounds = h5u_table_has_field(g, "verification", bound_fields[0]);
    bool with_stop = h5u_table_has_field(g, "verification", stop_field);
    int64_t planned = -1;
    h5u_read_int(g, "verification_pairs", &planned);
    SprtBounds old = { 0 };
    if (!with_bounds && (h5u_read_double(g, "elo0", &old.elo0) != 0 ||
                         h5u_read_double(g, "elo1", &old.elo1) != 0 ||
                         h5u_read_double(g, "sprt_alpha", &old.alpha) != 0 ||
                         h5u_read_double(g, "sprt_beta", &old.beta) != 0))
        return -1;
    void *rows;
    int64_t n;
    hid_t vt = verify_type(with_bounds, with_stop);
    int rc = vt < 0 ? -1 : read_table(g, "verification", vt, sizeof(VerifyRow), &rows, &n);
    if (vt >= 0)
        H5Tclose(vt);
    if (rc != 0 || n > VERIFY_NB) {
        free(rows);
        return -1;
    }
    d->nverify = (int)n;
    for (int i = 0; i < d->nverify; i++) {
        TuneVerify *v = &d->verify[i];
        char *spec = h5u_read_string(g, i == VERIFY_START ? "start_spec" : "default_spec");
        snprintf(v->opponent, sizeof v->opponent, "%s", spec ? spec : "?");
        free(spec);
        VerifyRow *r = (VerifyRow *)rows + i;
        if (!with_stop)
            r->stop_pair = -1;   /* not recorded: such a match played every pair */
        verify_of_row(r, v);
        v->pairs_planned = planned;
        if (!with_bounds)
            tune_verify_stats(&old, v);
    }
    free(rows);
    return 0;
}

int tune_read_results(const ResultsFile *rf, TuneData *d, Error *e)
{
    memset(d, 0, sizeof *d);
    const char *path = rf_path(rf);
    hid_t g = rf_group_open(rf, "tuning");
    int rc = g < 0 ? error_set(e, "%s: no /tuning group (not a tuning)", path) : 0;
    if (rc == 0) {
        d->agent = h5u_read_string(g, "agent");
        d->opponent = h5u_read_string(g, "opponent");
        d->start_spec = h5u_read_string(g, "start_spec");
        d->tuned_spec = h5u_read_string(g, "tuned_spec");
        d->config = rf_root_text(rf, "config");
        d->seed = rf_seed(rf);
        bool ok = h5u_read_int(g, "iterations", &d->iterations) == 0 &&
                  h5u_read_int(g, "pairs", &d->pairs) == 0 &&
                  h5u_read_double(g, "a", &d->gains.a) == 0 &&
                  h5u_read_double(g, "c", &d->gains.c) == 0 &&
                  h5u_read_double(g, "A", &d->gains.A) == 0 &&
                  h5u_read_double(g, "alpha", &d->gains.alpha) == 0 &&
                  h5u_read_double(g, "gamma", &d->gains.gamma) == 0 && d->agent &&
                  read_tables(g, d) == 0 && read_verification(g, d) == 0;
        if (!ok)
            rc = h5_error(e, path, "reading the tuning (a damaged or foreign /tuning group)");
    }
    if (g >= 0)
        H5Gclose(g);
    if (rc != 0)
        tune_data_free(d);
    return rc;
}

int tune_read(const char *path, TuneData *d, Error *e)
{
    memset(d, 0, sizeof *d);
    ResultsFile *rf = rf_open(path, e);
    int rc = rf ? tune_read_results(rf, d, e) : -1;
    rf_close(rf);
    return rc;
}

void tune_data_free(TuneData *d)
{
    free(d->agent);
    free(d->opponent);
    free(d->start_spec);
    free(d->tuned_spec);
    free(d->config);
    free(d->steps);
    memset(d, 0, sizeof *d);
}
