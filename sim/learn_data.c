/* learn_data.c: sampling and labelling positions for the learned evaluation, and their data
 * file (HDF5). */
#include "learn_data.h"

#include <hdf5.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "door.h"
#include "alphabeta.h"
#include "eval.h"
#include "game.h"
#include "h5util.h"
#include "results.h"
#include "tables.h"

/* Sub-streams of a game's stream: which positions are taken, and the random plies after
 * them (past those rng.h names, so that no agent's draw or coin changes them). */
enum { LEARN_SUB_PICK = 32, LEARN_SUB_WALK = 33 };

/* Games per batch: each batch's rows are appended in game order. */
#define LEARN_BATCH 64

#define LEARN_FORMAT "anywoli-learn-data"
#define LEARN_FORMAT_VERSION 1

/* One thread's players: the sampler on each side, and a labeller for each convention. */
typedef struct Worker {
    Agent side[2];
    Agent label[FF_NB];
    bool made[2 + FF_NB];
} Worker;

/* The positions of a game before each move, as the game loop shows them. */
typedef struct Seen {
    Position *pos;
    uint32_t *ply;
    uint32_t n, cap;
    bool failed;               /* out of memory */
} Seen;

/* Append a row; -1 when out of memory. */
static int rows_add(LearnRows *r, const LearnRow *row)
{
    if (r->n == r->cap) {
        uint64_t cap = r->cap ? 2 * r->cap : 256;
        LearnRow *x = realloc(r->row, cap * sizeof *x);
        if (!x)
            return -1;
        r->row = x;
        r->cap = cap;
    }
    r->row[r->n++] = *row;
    return 0;
}

void learn_rows_free(LearnRows *r)
{
    free(r->row);
    memset(r, 0, sizeof *r);
}

/* The labeller's spec for a convention: the spec given, with the convention's tables. */
static void labeller_spec(const LearnSampling *s, FinalFour ff, char *buf, size_t len)
{
    const char *sep = strchr(s->labeller, ':') ? "," : ":";
    if (s->tables[ff])
        snprintf(buf, len, "%s%stables=%s", s->labeller, sep, s->tables[ff]);
    else
        snprintf(buf, len, "%s", s->labeller);
}

static void worker_free(Worker *w)
{
    for (int i = 0; i < 2; i++)
        if (w->made[i])
            agent_free(&w->side[i]);
    for (int i = 0; i < FF_NB; i++)
        if (w->made[2 + i])
            agent_free(&w->label[i]);
    memset(w, 0, sizeof *w);
}

/* Build a thread's players, each checked against its variant; -1 with a message. */
static int worker_make(const LearnSampling *s, Worker *w, Error *e)
{
    memset(w, 0, sizeof *w);
    for (int i = 0; i < 2; i++) {
        if (agent_create(&w->side[i], s->sampler, e) != 0)
            return worker_free(w), -1;
        w->made[i] = true;
    }
    for (int c = 0; c < s->conventions; c++) {
        FinalFour ff = s->convention[c];
        if (w->made[2 + ff])
            continue;
        char spec[AGENT_FULL_SPEC_MAX];
        labeller_spec(s, ff, spec, sizeof spec);
        if (agent_create(&w->label[ff], spec, e) != 0)
            return worker_free(w), -1;
        w->made[2 + ff] = true;
        if (agent_kind_of(spec) != agent_kind_of("alphabeta"))
            return worker_free(w),
                   error_set(e, "--label %s: the labeller must be alphabeta", s->labeller);
        Variant v = s->variant;
        v.final_four = ff;
        if (agent_check_variant(&w->label[ff], &v, e) != 0 ||
            agent_check_variant(&w->side[0], &v, e) != 0)
            return worker_free(w), -1;
    }
    return 0;
}

int learn_check(const LearnSampling *s, Error *e)
{
    Worker w;
    if (worker_make(s, &w, e) != 0)
        return -1;
    worker_free(&w);
    return 0;
}

/* The game loop's observer: keep each position before a move, with its ply. */
static void seen_observe(void *ctx, const GameMove *m)
{
    Seen *s = ctx;
    if (s->failed)
        return;
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 256;
        Position *p = realloc(s->pos, cap * sizeof *p);
        uint32_t *q = p ? realloc(s->ply, cap * sizeof *q) : NULL;
        if (p)
            s->pos = p;
        if (!p || !q) {
            s->failed = true;
            return;
        }
        s->ply = q;
        s->cap = cap;
    }
    s->pos[s->n] = *m->before;
    s->ply[s->n++] = m->ply - 1;
}

/* Play 1 .. random_max random plies from *p, drawn from walk; the position before them is
 * kept (and 0 returned) when a ply ends the game or never ends. Returns the plies played. */
static int random_plies(const LearnSampling *s, const Variant *v, Position *p, Rng *walk)
{
    int k = 1 + (int)rng_below(walk, (uint32_t)s->random_max);
    Position q = *p;
    for (int i = 0; i < k; i++) {
        MoveInfo info;
        MoveEvent ev = pos_play(v, &q, pos_random_move(&q, walk), &q, &info, NULL);
        if (ev >= EV_OVER)
            return 0;
    }
    *p = q;
    return k;
}

/* The depths an analysis searches to reach depth d and d - 1: 1, then three plies at a time
 * (as the agent deepens) to d - 1, then d. */
static int label_depths(int d, int *depths)
{
    int n = 0;
    for (int x = d - 1; x > 1; x -= 3)
        depths[n++] = x;
    depths[n++] = 1;
    for (int i = 0; i < n / 2; i++) {
        int t = depths[i];
        depths[i] = depths[n - 1 - i];
        depths[n - 1 - i] = t;
    }
    if (d > 1)
        depths[n++] = d;
    return n;
}

/* Label p (not over) of variant v into row: the tables' exact value where they hold it, else
 * the search's at s->depth (and s->depth - 1). -1 with a message. */
static int label(const LearnSampling *s, Agent *a, const Tables *t, const Variant *v,
                 const Position *p, LearnRow *row, Error *e)
{
    if (t && tables_covers(t, p)) {
        row->label = row->label_prev = tables_value(t, p) * EVAL_SCALE;
        row->source = LEARN_TABLES;
        row->depth = 0;
        row->nodes = 0;
        return 0;
    }
    if (alphabeta_analysis_begin(a, v, p, e) != 0)
        return -1;
    int depths[ALPHABETA_MAX_DEPTH + 2], n = label_depths(s->depth, depths);
    AlphabetaIteration it;
    row->label_prev = 0;
    row->nodes = 0;
    for (int i = 0; i < n; i++) {
        if (!alphabeta_analysis_depth(a, p, depths[i], 1, 0, &it))
            return error_set(e, "game %llu: the labelling search was stopped",
                             (unsigned long long)row->game);
        row->nodes += it.nodes;
        if (depths[i] == s->depth - 1)
            row->label_prev = it.value;
    }
    row->label = it.value;
    if (s->depth == 1)
        row->label_prev = it.value;
    row->source = LEARN_SEARCH;
    row->depth = (uint8_t)s->depth;
    return 0;
}

/* Game g: play it, take its positions and label them into out. -1 with a message. */
static int sample_game(const LearnSampling *s, Worker *w, const Tables *const *tables,
                       uint64_t g, LearnRows *out, Error *e)
{
    FinalFour ff = s->convention[g % (uint64_t)s->conventions];
    Variant v = s->variant;
    v.final_four = ff;
    Opening o;
    openings_pair(s->openings, &v, s->seed, 0, g, &o);
    Rng gs;
    rng_seed(&gs, s->seed, 0, g);
    Seen seen = { 0 };
    GameOptions go = { .start = opening_game_start(&o), .max_plies = s->max_plies,
                       .unfinished = UNFINISHED_KEPT, .observe = seen_observe,
                       .observer_ctx = &seen };
    GameRecord rec;
    int rc = game_play_from(&v, &w->side[0], &w->side[1], &gs, &go, &rec, NULL);
    if (rc == 0 && seen.failed)
        rc = error_set(e, "out of memory");
    else if (rc < 0)
        rc = error_set(e, "game %llu: the sampler gave up its search (%d)",
                       (unsigned long long)g, rc);
    Rng pick = rng_substream(&gs, LEARN_SUB_PICK), walk = rng_substream(&gs, LEARN_SUB_WALK);
    uint16_t *taken = calloc((size_t)v.total + 1, sizeof *taken);   /* by seeds on the board */
    if (!taken && rc == 0)
        rc = error_set(e, "out of memory");
    for (uint32_t i = 0; rc == 0 && i < seen.n; i++) {
        if (seen.ply[i] < (uint32_t)s->skip || rng_unit(&pick) >= s->rate)
            continue;
        if (s->per_level && taken[seen.pos[i].left] >= s->per_level)
            continue;
        taken[seen.pos[i].left]++;
        Position p = seen.pos[i];
        LearnRow row = { .game = g, .ply = seen.ply[i], .convention = (int8_t)ff };
        if (s->random_max > 0 && rng_unit(&walk) < s->random_share)
            row.random_plies = (uint8_t)random_plies(s, &v, &p, &walk);
        row.side = p.side;
        row.last_capturer = p.last_capturer;
        row.first_final = p.first_final;
        row.store[SOUTH] = p.store[SOUTH];
        row.store[NORTH] = p.store[NORTH];
        memcpy(row.pit, p.pit, sizeof row.pit);
        if (label(s, &w->label[ff], tables[ff], &v, &p, &row, e) != 0)
            rc = -1;
        else if (rows_add(out, &row) != 0)
            rc = error_set(e, "out of memory");
    }
    free(taken);
    free(seen.pos);
    free(seen.ply);
    return rc;
}

int learn_sample(const LearnSampling *s, int threads, LearnRows *out, LearnProgressFn progress,
                 void *ctx, Error *e)
{
    if (threads <= 0)
        threads = omp_get_max_threads();
    Worker *w = calloc((size_t)threads, sizeof *w);
    const Tables *tables[FF_NB] = { NULL, NULL, NULL };
    LearnRows batch[LEARN_BATCH];
    Error err[LEARN_BATCH];
    int rc = w ? 0 : error_set(e, "out of memory");
    for (int f = 0; rc == 0 && f < FF_NB; f++)
        if (s->tables[f] && tables_acquire(s->tables[f], &tables[f], e) != 0)
            rc = -1;
    int made = 0;
    for (; rc == 0 && made < threads; made++)
        if (worker_make(s, &w[made], e) != 0)
            rc = -1;
    LearnProgress pr = { 0 };
    memset(batch, 0, sizeof batch);
    for (uint64_t at = 0; rc == 0 && at < s->games; at += LEARN_BATCH) {
        int n = s->games - at < LEARN_BATCH ? (int)(s->games - at) : LEARN_BATCH;
        int status[LEARN_BATCH];
        #pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int i = 0; i < n; i++) {
            batch[i].n = 0;
            status[i] = sample_game(s, &w[omp_get_thread_num()], tables, s->first_game + at +
                                    (uint64_t)i, &batch[i], &err[i]);
        }
        /* One writer, in game order. */
        for (int i = 0; i < n && rc == 0; i++) {
            if (status[i] != 0) {
                *e = err[i];
                rc = -1;
            }
            for (uint64_t j = 0; rc == 0 && j < batch[i].n; j++) {
                if (rows_add(out, &batch[i].row[j]) != 0)
                    rc = error_set(e, "out of memory");
                pr.tabled += batch[i].row[j].source == LEARN_TABLES;
                pr.nodes += batch[i].row[j].nodes;
            }
            pr.rows += batch[i].n;
        }
        pr.games += (uint64_t)n;
        if (rc == 0 && progress)
            progress(&pr, ctx);
    }
    for (int i = 0; i < LEARN_BATCH; i++)
        learn_rows_free(&batch[i]);
    for (int i = 0; i < made; i++)
        worker_free(&w[i]);
    free(w);
    for (int f = 0; f < FF_NB; f++)
        if (tables[f])
            tables_release(tables[f]);
    return rc;
}

/* ---- the data file ---- */

/* The row type: memory (a LearnRow, the board's holes of pit) or, packed, the file's. -1 on
 * failure. */
static hid_t row_type(int pits, bool packed)
{
    hsize_t dims[1] = { (hsize_t)pits };
    hid_t board = H5Tarray_create2(H5T_NATIVE_UINT16, 1, dims);
    hid_t t = board >= 0 ? H5Tcreate(H5T_COMPOUND, sizeof(LearnRow)) : -1;
    if (t >= 0 &&
        (H5Tinsert(t, "game", HOFFSET(LearnRow, game), H5T_NATIVE_UINT64) < 0 ||
         H5Tinsert(t, "ply", HOFFSET(LearnRow, ply), H5T_NATIVE_UINT32) < 0 ||
         H5Tinsert(t, "random_plies", HOFFSET(LearnRow, random_plies), H5T_NATIVE_UINT8) < 0 ||
         H5Tinsert(t, "convention", HOFFSET(LearnRow, convention), H5T_NATIVE_INT8) < 0 ||
         H5Tinsert(t, "side", HOFFSET(LearnRow, side), H5T_NATIVE_INT8) < 0 ||
         H5Tinsert(t, "last_capturer", HOFFSET(LearnRow, last_capturer), H5T_NATIVE_INT8) < 0 ||
         H5Tinsert(t, "first_final", HOFFSET(LearnRow, first_final), H5T_NATIVE_INT8) < 0 ||
         H5Tinsert(t, "source", HOFFSET(LearnRow, source), H5T_NATIVE_UINT8) < 0 ||
         H5Tinsert(t, "depth", HOFFSET(LearnRow, depth), H5T_NATIVE_UINT8) < 0 ||
         H5Tinsert(t, "store_south", HOFFSET(LearnRow, store), H5T_NATIVE_UINT16) < 0 ||
         H5Tinsert(t, "store_north", HOFFSET(LearnRow, store) + sizeof(uint16_t),
                   H5T_NATIVE_UINT16) < 0 ||
         H5Tinsert(t, "pits", HOFFSET(LearnRow, pit), board) < 0 ||
         H5Tinsert(t, "label", HOFFSET(LearnRow, label), H5T_NATIVE_INT32) < 0 ||
         H5Tinsert(t, "label_prev", HOFFSET(LearnRow, label_prev), H5T_NATIVE_INT32) < 0 ||
         H5Tinsert(t, "nodes", HOFFSET(LearnRow, nodes), H5T_NATIVE_UINT64) < 0 ||
         (packed && H5Tpack(t) < 0))) {
        H5Tclose(t);
        t = -1;
    }
    if (board >= 0)
        H5Tclose(board);
    return t;
}

/* Whether parameter p is stored as the board's own attribute: every rule of play, on which a
 * label depends, but the convention, which goes with each game (`conventions`, each row's
 * `convention`); max_plies, on which no value depends, is the sampling's game cap instead
 * (its `max_plies`). A parameter added to variant_params is written and read with no edit. */
static bool board_param(int p)
{
    return variant_params[p].play && variant_params[p].kind != VK_CONVENTION;
}

int learn_player_files(const LearnSampling *s, LearnFiles *out, Error *e)
{
    char *labeller = out->labeller;
    size_t len = sizeof out->labeller;
    if (agent_file_digests(s->sampler, &s->variant, out->sampler, sizeof out->sampler, e) != 0)
        return -1;
    labeller[0] = '\0';
    for (int c = 0; c < s->conventions; c++) {
        FinalFour ff = s->convention[c];
        char spec[AGENT_FULL_SPEC_MAX], digests[512];
        Variant v = s->variant;
        v.final_four = ff;
        labeller_spec(s, ff, spec, sizeof spec);
        if (agent_file_digests(spec, &v, digests, sizeof digests, e) != 0)
            return -1;
        size_t used = strlen(labeller);
        snprintf(labeller + used, len - used, "%s%s:%s", c ? ";" : "", final_four_name(ff),
                 digests);
    }
    return 0;
}

/* The sampling's settings as the root's attributes; -1 on failure. */
static int write_attributes(hid_t f, const LearnSampling *s, const LearnFiles *files,
                            uint64_t rows, const char *command)
{
    char conv[64] = "", when[64];
    for (int i = 0; i < s->conventions; i++)
        snprintf(conv + strlen(conv), sizeof conv - strlen(conv), "%s%s", i ? "," : "",
                 final_four_name(s->convention[i]));
    char tables[3 * 300] = "";
    for (int i = 0; i < FF_NB; i++)
        if (s->tables[i])
            snprintf(tables + strlen(tables), sizeof tables - strlen(tables), "%s%s=%s",
                     tables[0] ? "," : "", final_four_name((FinalFour)i), s->tables[i]);
    results_now(when, sizeof when);
    const Variant *v = &s->variant;
    int rc = 0;
    rc |= h5u_attr_string(f, "format", LEARN_FORMAT);
    rc |= h5u_attr_int(f, "format_version", LEARN_FORMAT_VERSION);
    rc |= h5u_attr_string(f, "program_version", results_program_version());
    rc |= h5u_attr_string(f, "git_commit", results_git_commit());
    rc |= h5u_attr_string(f, "command", command);
    rc |= h5u_attr_string(f, "finished", when);
    rc |= h5u_attr_int(f, "seed", (int64_t)s->seed);
    rc |= h5u_attr_int(f, "first_game", (int64_t)s->first_game);
    rc |= h5u_attr_int(f, "games", (int64_t)s->games);
    rc |= h5u_attr_int(f, "rows", (int64_t)rows);
    for (int p = 0; p < VP_NB; p++)
        if (board_param(p))
            rc |= h5u_attr_int(f, variant_params[p].name, variant_get(v, p));
    rc |= h5u_attr_string(f, "conventions", conv);
    rc |= h5u_attr_string(f, "sampler", s->sampler);
    rc |= h5u_attr_string(f, "labeller", s->labeller);
    rc |= h5u_attr_string(f, "sampler_files", files->sampler);
    rc |= h5u_attr_string(f, "labeller_files", files->labeller);
    rc |= h5u_attr_int(f, "depth", s->depth);
    rc |= h5u_attr_string(f, "tables", tables);
    rc |= h5u_attr_string(f, "openings", s->openings_spec);
    rc |= h5u_attr_double(f, "rate", s->rate);
    rc |= h5u_attr_int(f, "skip", s->skip);
    rc |= h5u_attr_double(f, "random_share", s->random_share);
    rc |= h5u_attr_int(f, "random_max", s->random_max);
    rc |= h5u_attr_int(f, "max_plies", s->max_plies);
    return rc ? -1 : 0;
}

int learn_file_write(const char *path, const LearnSampling *s, const LearnFiles *files,
                     const LearnRows *rows, const char *command, Error *e)
{
    h5u_quiet();
    hid_t mem = row_type(s->variant.pits, false), file = row_type(s->variant.pits, true);
    hid_t f = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    /* A fixed-size table's chunks may not be longer than it. */
    hsize_t dims[1] = { rows->n }, chunk[1] = { rows->n < 4096 ? rows->n : 4096 };
    hid_t space = H5Screate_simple(1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int rc = mem < 0 || file < 0 || f < 0 || space < 0 || dcpl < 0 ? -1 : 0;
    if (rc == 0 && rows->n > 0 &&
        (H5Pset_chunk(dcpl, 1, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
         H5Pset_deflate(dcpl, 4) < 0))
        rc = -1;
    hid_t ds = rc == 0 ? H5Dcreate2(f, "positions", file, space, H5P_DEFAULT,
                                    rows->n > 0 ? dcpl : H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (ds < 0 || (rows->n > 0 && H5Dwrite(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                           rows->row) < 0))
        rc = -1;
    if (rc == 0)
        rc = write_attributes(f, s, files, rows->n, command);
    if (ds >= 0)
        H5Dclose(ds);
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (mem >= 0)
        H5Tclose(mem);
    if (file >= 0)
        H5Tclose(file);
    if (f >= 0 && H5Fclose(f) < 0)
        rc = -1;
    H5Eclear2(H5E_DEFAULT);
    return rc ? error_set(e, "%s: cannot write the data file", path) : 0;
}

/* An integer attribute in [lo, hi], or a message. */
static int read_int(hid_t f, const char *path, const char *name, int64_t lo, int64_t hi,
                    int64_t *x, Error *e)
{
    char why[128];
    int rc = h5u_get_int(f, name, x, why, sizeof why);
    if (rc == 1)
        return error_set(e, "%s: no attribute '%s': not a learn data file", path, name);
    if (rc < 0)
        return error_set(e, "%s: attribute '%s': %s", path, name, why);
    if (*x < lo || *x > hi)
        return error_set(e, "%s: attribute '%s' is %lld, outside %lld .. %lld", path, name,
                         (long long)*x, (long long)lo, (long long)hi);
    return 0;
}

/* The board of a data file from its attributes; -1 with a message. */
static int read_board(hid_t f, const char *path, Variant *v, Error *e)
{
    char *format = h5u_read_string(f, "format");
    bool ok = format && strcmp(format, LEARN_FORMAT) == 0;
    free(format);
    if (!ok)
        return error_set(e, "%s: not a learn data file (its format is not '%s')", path,
                         LEARN_FORMAT);
    int64_t version;
    if (read_int(f, path, "format_version", 1, 1, &version, e) != 0)
        return -1;
    variant_default(v);
    for (int p = 0; p < VP_NB; p++) {
        int64_t x;
        if (!board_param(p))
            continue;
        if (read_int(f, path, variant_params[p].name, variant_params[p].lo,
                     variant_params[p].hi, &x, e) != 0)
            return -1;
        variant_put(v, p, x);
    }
    Error why;
    if (variant_finish(v, &why) != 0)
        return error_set(e, "%s: %s", path, why.msg);
    return 0;
}

/* Whether a row read is a position of v: the seeds add up, the fields are in range, the game
 * goes on and its side to move has seeds. */
static bool row_ok(const Variant *board, const LearnRow *r)
{
    if (r->convention < 0 || r->convention >= FF_NB || r->side < 0 || r->side > 1 ||
        r->last_capturer < NOBODY || r->last_capturer > NORTH || r->first_final < NOBODY ||
        r->first_final > NORTH || r->source > LEARN_TABLES)
        return false;
    Variant v;
    Position p;
    learn_row_position(board, r, &v, &p);
    return pos_ok(&v, &p) && !pos_over(&v, &p);
}

int learn_file_read(const char *path, LearnData *d, Error *e)
{
    memset(d, 0, sizeof *d);
    h5u_silence();
    /* HDF5 opens by name, with a blocking open(): a FIFO is refused before it sees one. */
    if (door_read_check(path, e) != 0)
        return -1;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        H5Eclear2(H5E_DEFAULT);
        return error_set(e, "%s: cannot open it as an HDF5 file", path);
    }
    int rc = read_board(f, path, &d->variant, e);
    if (rc == 0)
        rc = read_int(f, path, "depth", 0, ALPHABETA_MAX_DEPTH, &d->depth, e);
    if (rc == 0)
        d->labeller = h5u_read_string(f, "labeller");
    hid_t ds = rc == 0 ? H5Dopen2(f, "positions", H5P_DEFAULT) : -1;
    if (rc == 0 && ds < 0)
        rc = error_set(e, "%s: no 'positions' table", path);
    hid_t space = ds >= 0 ? H5Dget_space(ds) : -1, mem = ds >= 0 ? row_type(d->variant.pits,
                                                                             false) : -1;
    hsize_t n = 0;
    if (rc == 0 && (space < 0 || mem < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
                    H5Sget_simple_extent_dims(space, &n, NULL) != 1))
        rc = error_set(e, "%s: the 'positions' table is not a list of rows", path);
    if (rc == 0 && n > 0) {
        d->rows.row = calloc(n, sizeof *d->rows.row);
        if (!d->rows.row)
            rc = error_set(e, "%s: out of memory for %llu rows", path, (unsigned long long)n);
        else if (H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, d->rows.row) < 0)
            rc = error_set(e, "%s: cannot read the 'positions' table (damaged, or not the "
                           "rows of a learn data file)", path);
        d->rows.n = d->rows.cap = rc == 0 ? n : 0;
    }
    for (uint64_t i = 0; rc == 0 && i < d->rows.n; i++)
        if (!row_ok(&d->variant, &d->rows.row[i]))
            rc = error_set(e, "%s: row %llu is not a position of the board that goes on", path,
                           (unsigned long long)i);
    if (mem >= 0)
        H5Tclose(mem);
    if (space >= 0)
        H5Sclose(space);
    if (ds >= 0)
        H5Dclose(ds);
    H5Fclose(f);
    H5Eclear2(H5E_DEFAULT);
    if (rc != 0)
        learn_data_free(d);
    return rc;
}

void learn_data_free(LearnData *d)
{
    learn_rows_free(&d->rows);
    free(d->labeller);
    memset(d, 0, sizeof *d);
}

void learn_row_position(const Variant *board, const LearnRow *r, Variant *v, Position *p)
{
    *v = *board;
    v->final_four = (FinalFour)r->convention;
    memset(p, 0, sizeof *p);
    memcpy(p->pit, r->pit, sizeof p->pit);
    p->store[SOUTH] = r->store[SOUTH];
    p->store[NORTH] = r->store[NORTH];
    p->side = r->side;
    p->last_capturer = r->last_capturer;
    p->first_final = r->first_final;
    unsigned left = 0;
    for (int i = 0; i < v->pits; i++)
        left += p->pit[i];
    p->left = (uint16_t)(left > UINT16_MAX ? UINT16_MAX : left);
    pos_set_masks(v, p);
}
