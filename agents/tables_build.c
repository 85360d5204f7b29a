/* tables_build.c: endgame tables by retrograde analysis, level by level, in parallel. It owns
 * the solution of each level, the layout of the values and their checksum, the check that a
 * build fits, and the per-level statistics; it is apart from the index and the file because
 * only `tables build` (and the tests) build tables: everything else opens a file.
 *
 * Levels. A level is the positions with L seeds on the board. A move either captures (the
 * child has fewer seeds: a lower level, already solved, or the end of the game) or does not
 * (the child is on the same level). So levels capture+1 .. K are solved in increasing order,
 * and inside a level only the moves without capture remain unknown: they are the level's
 * own graph, which may have cycles. A capture takes exactly `capture` seeds, so a child's
 * level is its parent's less a multiple of `capture`: the levels a game from the start
 * reaches (tables_level_reachable) need no others, and a build of those alone skips the
 * rest (play_move asserts that every lower level it looks into is held).
 *
 * One level. Every move that captures, ends the game or is endless is an exit whose value is
 * known: the seeds gained plus the child's value from a lower level (sign kept when the
 * mover moves again, negated otherwise), the final margin, or 0. The level is then solved as
 * solver.c solves one strongly connected component, by value iteration from 0 (the value of
 * play cut off), but asynchronously: every position with moves without capture starts at 0
 * and is recomputed (the best over all its moves, as the values stand); whenever a value
 * changes, its predecessors (the positions with a move without capture to it) are marked to
 * be recomputed in the next round; the level is done when a round marks nothing.
 *
 * Parts. A move without capture keeps who made the first final-seed capture, so under
 * first-final a level is two parts closed under its own moves: state 0 (nobody made one;
 * indices 0 .. count) and states 1 and 2 together (count .. 3 count: a move that passes the
 * turn swaps them). Each part needs only itself and lower levels, so it is solved alone
 * (other conventions: one part). emit_edge asserts the claim, and a test checks it.
 *
 * One part, in four steps. 1: a pass plays every move of every position once: it sets the
 * value after round 0 (the best exit, or 0 to be recomputed, marked dirty) and appends each
 * move without capture as a 7-byte record (parent, 32 bits; child's offset in its bucket, 24)
 * to the bucket file of the child's range; threads fill buffers of their own and reserve
 * room in a bucket file with one atomic add. 2: bucket by bucket, the records are read,
 * sorted by child (counting sort) into lists of parents (4 bytes each), appended to one list
 * file in child order, and the bucket file closed; the in-degree of each position (a byte)
 * and where each 64 positions' lists start (8 bytes) are kept, so a list's place is one
 * offset plus at most 63 in-degrees. 3: rounds: 3a recomputes the dirty positions in
 * parallel, keeping in the dirty bits only those whose value changed; 3b reads the lists of
 * those, in index order chunk by chunk through a window of each thread's (one read of
 * consecutive lists up to the chunk's last), and marks their parents in `next`. 4: the
 * positions whose side to move has no seeds take the value after the pass.
 *
 * Memory and disk. Besides the values (1 byte a position, the tables themselves), a part
 * needs 1 byte a position (in-degree) and 3/8 (list offsets, dirty and next bits), the
 * buffers (MAX_BUCKETS x 14 KB a thread, a window of 1 MB a thread) and one bucket sorted in
 * memory (11 bytes an edge of one bucket of 2^21 children); the disk holds 7 bytes an edge
 * while the bucket files stand, then 4. Work files are made with mkstemp in the work
 * directory and unlinked at once, so a build that dies leaves none.
 *
 * Why that is exact. Every value ever held is that of the game cut off (and valued 0) after
 * some number of moves inside the level that may differ between lines of play: 0 at the
 * start, and a recomputation from such values is again one, one move longer on every line.
 * At the end no position is marked, so every value is the best over its moves of the values
 * as they stand: a fixed point, which is therefore, by induction, the value of a cut-off game
 * whose cut-off comes after at least h moves on every line, for every h. solver.c's argument
 * never used the cut-off being the same on all lines: "force at least t" is an attractor
 * question, settled within |level| moves, so once every line runs past |level| moves the
 * cut-off game has the true values. Those are unique, so the tables are the same whatever
 * the order of the recomputations, however many threads make them and whatever the bucket
 * and window sizes; threads read and write the one-byte values with relaxed atomic
 * operations, and the steps of a round are separated by barriers, so a value changed while a
 * predecessor was reading it marks that predecessor for the next round.
 *
 * The index of positions is tables_index.c's (and tables_internal.h's); this file plays
 * each move and looks up the child by it. */
#include "tables_internal.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <omp.h>

#include "solver.h"

/* Placements handled per chunk of a parallel loop. */
#define CHUNK 4096
/* Levels smaller than this are solved by one thread: threads cost more than they save. */
#define PARALLEL_FROM 100000

/* ---- Positions of a level ---- */

/* The position of a placement with South to move in convention state cs. */
static void placement_position(const Tables *t, const uint16_t *board, int L, int cs,
                               Position *p)
{
    const Variant *v = &t->v;
    memset(p, 0, sizeof *p);
    for (int i = 0; i < v->pits; i++)
        p->pit[i] = board[i];
    p->left = (uint16_t)L;
    p->store[SOUTH] = (uint16_t)(v->total - L);
    p->side = SOUTH;
    p->last_capturer = SOUTH;   /* never decides a value (see tables.h) */
    p->first_final = (int8_t)(cs == 0 ? NOBODY : cs == 1 ? SOUTH : NORTH);
    pos_set_masks(v, p);
}

/* Whether the side to move has seeds in a placement (own row first). */
static bool mover_has_seeds(const Variant *v, const uint16_t *board)
{
    for (int i = 0; i < v->holes; i++)
        if (board[i])
            return true;
    return false;
}

/* ---- Building ---- */

/* The default bucket: the children of one bucket file (its lists are sorted in memory). */
#define DEFAULT_BUCKET (1u << 21)
/* A record's child offset within its bucket has 24 bits. */
#define MAX_BUCKET (1u << 24)
/* At most this many bucket files are open at once (a larger part gets larger buckets). */
#define MAX_BUCKETS 512
/* An edge in a bucket file: the parent (32 bits), the child's offset in the bucket (24). */
#define RECORD 7
/* Each thread's buffer for each bucket, in bytes (a whole number of records). */
#define BUCKET_BUF (RECORD * 2048)
/* A position has at most this many moves into it from its level (its in-degree is a byte). */
#define MAX_INDEGREE 255
/* The default window through which a thread reads the lists, in bytes. */
#define DEFAULT_WINDOW (1u << 20)
/* The smallest window: one whole list. */
#define MIN_WINDOW (4 * (MAX_INDEGREE + 1))

/* What one level's solution works on. Indices are the level's own: cs * count + rank. */
typedef struct Level {
    Tables *t;
    int L;
    uint64_t count;       /* placements per convention state */
    uint64_t n;           /* positions of the level: count * conv */
    int8_t *value;        /* the level's values, in the tables */
} Level;

/* One bucket file: the edges into children [b * bucket, (b + 1) * bucket) of a part. */
typedef struct Bucket {
    int fd;
    uint64_t bytes;       /* reserved so far (threads add to it atomically) */
} Bucket;

/* A thread's buffers of edges, one per bucket, flushed when full. */
typedef struct Emit {
    struct Part *pt;
    uint8_t *buf;         /* buckets * BUCKET_BUF */
    uint32_t *used;       /* bytes in each bucket's buffer */
    bool inner;           /* the position visited has a move without capture */
} Emit;

/* A thread's window onto the list file: entries [lo, hi) are in buf. */
typedef struct Window {
    uint32_t *buf;
    uint64_t lo, hi;
} Window;

/* One part of a level: positions [start, start + n) of it, closed under the moves without
 * capture (see solve_level). Indices into its work arrays are relative to start. */
typedef struct Part {
    const Level *lv;
    const char *dir;      /* the work directory */
    uint64_t start, n;
    uint8_t *indeg;       /* moves into each position from the part */
    uint64_t *list_at;    /* per 64 positions: where the first one's list starts (entries) */
    uint64_t *dirty;      /* bit set: recompute in this round; after it: changed */
    uint64_t *next;       /* bit set: recompute in the next round */
    uint64_t bucket;      /* children per bucket */
    uint64_t buckets;
    Bucket *bk;
    int list_fd;          /* the predecessor lists, parent indices (uint32), child order */
    uint64_t edges;
    unsigned max_indeg;   /* the largest in-degree */
    size_t window_entries;
    int threads;
    Emit *emit;           /* per thread, while the edges are written */
    Window *win;          /* per thread, while the rounds read the lists */
    int fault;            /* the first I/O error's errno, 0 when none */
    const char *fault_op; /* what failed: "write", "read" */
    uint64_t updates;
} Part;

#define EXIT_NONE INT8_MIN

/* Note the first I/O error of a part (threads may meet one together). */
static void part_fault(Part *pt, int err, const char *op)
{
    #pragma omp critical(tables_part_fault)
    if (!pt->fault) {
        pt->fault = err ? err : EIO;
        pt->fault_op = op;
    }
}

/* A failure of the work files: a message naming the work directory, TABLES_IO_ERROR. */
static int io_error(Error *e, const char *dir, const char *op, int err)
{
    error_set(e, "%s: cannot %s a work file (%s)", dir, op, strerror(err));
    return TABLES_IO_ERROR;
}

/* Write n bytes at off of fd; false (errno set) when they could not all be written. */
static bool write_at(int fd, const void *buf, size_t n, uint64_t off)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t w = pwrite(fd, p, n, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            errno = w < 0 ? errno : ENOSPC;
            return false;
        }
        p += w, n -= (size_t)w, off += (uint64_t)w;
    }
    return true;
}

/* Read n bytes at off of fd; false (errno set) when they could not all be read. */
static bool read_at(int fd, void *buf, size_t n, uint64_t off)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            errno = r < 0 ? errno : EIO;
            return false;
        }
        p += r, n -= (size_t)r, off += (uint64_t)r;
    }
    return true;
}

/* A work file in dir, unlinked at once so that nothing is left behind if the build dies;
 * TABLES_IO_ERROR with a message naming dir. */
static int work_file(const char *dir, Error *e)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/anywoli-tables-XXXXXX", dir) >= (int)sizeof path)
        return io_error(e, dir, "create", ENAMETOOLONG);
    int fd = mkstemp(path);
    if (fd < 0)
        return io_error(e, dir, "create", errno);
    unlink(path);
    return fd;
}

/* Play move m of p (South to move, on the level): true with *x its value for the mover when
 * it leaves the level; false with the child's index (*flip: the side to move changes) when it
 * stays on it. */
static bool play_move(const Level *lv, const Position *p, int m, int *x, uint64_t *child,
                      bool *flip)
{
    const Tables *t = lv->t;
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(&t->v, p, m, &c, &info, NULL);
    int before = p->store[SOUTH] - p->store[NORTH];
    if (ev == EV_ENDLESS) {
        *x = 0;
        return true;
    }
    if (ev == EV_OVER) {
        *x = solver_final_margin(&t->v, &c) * (c.side == SOUTH ? 1 : -1) - before;
        return true;
    }
    if (c.left == lv->L) {
        *child = index_of(t, &c) - t->level_at[lv->L];
        *flip = c.side != SOUTH;
        return false;
    }
    assert(t->held[c.left]);   /* lower by a multiple of capture: held (tables.h) */
    int r = load8(&t->value[index_of(t, &c)]);
    *x = c.store[SOUTH] - c.store[NORTH] - before + (c.side == SOUTH ? r : -r);
    return true;
}

/* The moves of position i (placement board, convention state cs): the best exit, returned,
 * and f called on each move without capture. */
typedef void (*InnerMove)(const Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx);
static int each_move(const Level *lv, uint64_t i, const uint16_t *board, int cs, InnerMove f,
                     void *ctx)
{
    Position p;
    placement_position(lv->t, board, lv->L, cs, &p);
    int best = EXIT_NONE;
    for (uint64_t m = pos_legal_mask(&lv->t->v, &p); m; m &= m - 1) {
        int x;
        uint64_t child;
        bool flip;
        if (play_move(lv, &p, __builtin_ctzll(m), &x, &child, &flip))
            best = x > best ? x : best;
        else
            f(lv, i, child, flip, ctx);
    }
    return best;
}

/* Write bucket b's buffer of em to its file, at room reserved with one atomic add. */
static void flush_bucket(Emit *em, uint64_t b)
{
    Part *pt = em->pt;
    uint32_t used = em->used[b];
    if (!used)
        return;
    uint64_t at = __atomic_fetch_add(&pt->bk[b].bytes, used, __ATOMIC_RELAXED);
    if (!write_at(pt->bk[b].fd, em->buf + b * BUCKET_BUF, used, at))
        part_fault(pt, errno, "write");
    em->used[b] = 0;
}

/* Append the edge parent i -> child to the buffer of the child's bucket. */
static void emit_edge(const Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx)
{
    (void)lv;
    (void)flip;
    Emit *em = ctx;
    Part *pt = em->pt;
    /* The claim that makes parts: a move without capture keeps the convention state (who
     * made the first final-seed capture, absolutely), so it stays in its part. */
    assert(child >= pt->start && child - pt->start < pt->n);
    uint64_t c = child - pt->start, b = c / pt->bucket, off = c % pt->bucket;
    uint32_t parent = (uint32_t)(i - pt->start);
    uint8_t *r = em->buf + b * BUCKET_BUF + em->used[b];
    for (int k = 0; k < 4; k++)
        r[k] = (uint8_t)(parent >> (8 * k));
    for (int k = 0; k < 3; k++)
        r[4 + k] = (uint8_t)(off >> (8 * k));
    em->inner = true;
    if ((em->used[b] += RECORD) == BUCKET_BUF)
        flush_bucket(em, b);
}

/* Raise *ctx to the value of a move without capture, as the values stand. */
static void inner_best(const Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx)
{
    (void)i;
    int c = load8(&lv->value[child]), *best = ctx;
    int x = flip ? -c : c;
    *best = x > *best ? x : *best;
}

/* Step 1 for one position: every move played once; the edges of the moves without capture
 * go to the bucket files, and the value after round 0 is set: 0 (the value of play cut
 * off) with such moves, to be recomputed, or the best exit without. A position whose side
 * to move has no seeds waits for step 4. */
static void edges_visit(Part *pt, uint64_t i, const uint16_t *board, int cs)
{
    const Level *lv = pt->lv;
    if (!mover_has_seeds(&lv->t->v, board))
        return;
    Emit *em = &pt->emit[omp_get_thread_num()];
    em->inner = false;
    int best = each_move(lv, i, board, cs, emit_edge, em);
    lv->value[i] = (int8_t)(em->inner ? 0 : best);
    uint64_t j = i - pt->start;
    if (em->inner)
        pt->dirty[j >> 6] |= 1ULL << (j & 63);   /* each thread owns whole words (CHUNK) */
}

/* Step 3 for one position (j, of the part): the best of its moves as the values stand;
 * true when that changes its value. */
static bool update(Part *pt, uint64_t j)
{
    const Level *lv = pt->lv;
    uint64_t i = pt->start + j;
    uint16_t board[MAX_PITS];
    ranking_unrank(&lv->t->rank, i % lv->count, lv->L, board);
    int inner = EXIT_NONE;
    int best = each_move(lv, i, board, (int)(i / lv->count), inner_best, &inner);
    best = inner > best ? inner : best;
    if (load8(&lv->value[i]) == best)
        return false;
    store8(&lv->value[i], (int8_t)best);
    return true;
}

/* Step 4 for one position: without seeds for the side to move, the value after the pass
 * (the position turned round, the other state: in the same part). */
static void fill_pass(Part *pt, uint64_t i, const uint16_t *board, int cs)
{
    const Level *lv = pt->lv;
    const Variant *v = &lv->t->v;
    if (mover_has_seeds(v, board))
        return;
    uint16_t turned[MAX_PITS];
    for (int j = 0; j < v->pits; j++)
        turned[j] = board[(j + v->holes) % v->pits];
    int other = cs == 0 ? 0 : 3 - cs;
    uint64_t k = (uint64_t)other * lv->count + ranking_rank(&lv->t->rank, turned, lv->L);
    assert(k >= pt->start && k - pt->start < pt->n);
    lv->value[i] = (int8_t)-lv->value[k];
}

/* One pass over every position of the part with f, in parallel chunks of whole bitmap
 * words, each chunk walking its placements in rank order. */
typedef void (*Visit)(Part *pt, uint64_t i, const uint16_t *board, int cs);
static void part_pass(Part *pt, Visit f)
{
    const Level *lv = pt->lv;
    uint64_t chunks = (pt->n + CHUNK - 1) / CHUNK;
    #pragma omp parallel for schedule(dynamic, 1) if (pt->n >= PARALLEL_FROM)
    for (uint64_t ch = 0; ch < chunks; ch++) {
        uint64_t j = ch * CHUNK, end = j + CHUNK < pt->n ? j + CHUNK : pt->n;
        uint16_t board[MAX_PITS];
        ranking_unrank(&lv->t->rank, (pt->start + j) % lv->count, lv->L, board);
        for (; j < end; j++) {
            uint64_t i = pt->start + j;
            if (i % lv->count == 0)
                ranking_unrank(&lv->t->rank, 0, lv->L, board);
            f(pt, i, board, (int)(i / lv->count));
            ranking_next(&lv->t->rank, board);
        }
    }
}

/* Step 1: the pass that writes the edges, each thread through its own buffers. */
static int part_edges(Part *pt, Error *e)
{
    pt->emit = calloc((size_t)pt->threads, sizeof *pt->emit);
    bool ok = pt->emit != NULL;
    for (int k = 0; ok && k < pt->threads; k++) {
        pt->emit[k].pt = pt;
        pt->emit[k].buf = malloc(pt->buckets * BUCKET_BUF);
        pt->emit[k].used = calloc(pt->buckets, sizeof *pt->emit[k].used);
        ok = pt->emit[k].buf && pt->emit[k].used;
    }
    if (ok) {
        part_pass(pt, edges_visit);
        for (int k = 0; k < pt->threads; k++)
            for (uint64_t b = 0; b < pt->buckets; b++)
                flush_bucket(&pt->emit[k], b);
    }
    for (int k = 0; pt->emit && k < pt->threads; k++) {
        free(pt->emit[k].buf);
        free(pt->emit[k].used);
    }
    free(pt->emit);
    pt->emit = NULL;
    if (!ok)
        return error_set(e, "out of memory for the edge buffers at level %d", pt->lv->L);
    if (pt->fault)
        return io_error(e, pt->dir, pt->fault_op, pt->fault);
    return 0;
}

/* Step 2 for one bucket: its edges counted and sorted by child (counting sort) into lists
 * of parents, appended to the list file; the bucket file is then closed (and so gone). */
static int bucket_lists(Part *pt, uint64_t b, uint8_t **raw, uint32_t **lists, uint32_t *count,
                        Error *e)
{
    uint64_t bytes = pt->bk[b].bytes, edges = bytes / RECORD;
    uint64_t first = b * pt->bucket;
    uint64_t size = pt->n - first < pt->bucket ? pt->n - first : pt->bucket;
    uint8_t *r = realloc(*raw, bytes ? bytes : 1);
    uint32_t *l = r ? realloc(*lists, (edges ? edges : 1) * sizeof *l) : NULL;
    *raw = r ? r : *raw;
    *lists = l ? l : *lists;
    if (!r || !l)
        return error_set(e, "out of memory for a bucket of %llu edges at level %d",
                         (unsigned long long)edges, pt->lv->L);
    if (!read_at(pt->bk[b].fd, r, bytes, 0))
        return io_error(e, pt->dir, "read", errno);
    close(pt->bk[b].fd);
    pt->bk[b].fd = -1;
    memset(count, 0, size * sizeof *count);
    for (uint64_t k = 0; k < edges; k++) {
        const uint8_t *x = r + k * RECORD;
        count[x[4] | (uint32_t)x[5] << 8 | (uint32_t)x[6] << 16]++;
    }
    uint64_t sum = 0;
    for (uint64_t c = 0; c < size; c++) {
        if (count[c] > MAX_INDEGREE)
            return error_set(e, "level %d: a position has %u moves into it from its level, "
                             "more than the %d the build can hold", pt->lv->L, count[c],
                             MAX_INDEGREE);
        pt->indeg[first + c] = (uint8_t)count[c];
        pt->max_indeg = count[c] > pt->max_indeg ? count[c] : pt->max_indeg;
        uint32_t here = count[c];
        count[c] = (uint32_t)sum;   /* where the child's list starts among the bucket's */
        sum += here;
    }
    for (uint64_t k = 0; k < edges; k++) {
        const uint8_t *x = r + k * RECORD;
        uint32_t off = x[4] | (uint32_t)x[5] << 8 | (uint32_t)x[6] << 16;
        l[count[off]++] = x[0] | (uint32_t)x[1] << 8 | (uint32_t)x[2] << 16
                          | (uint32_t)x[3] << 24;
    }
    if (!write_at(pt->list_fd, l, edges * sizeof *l, pt->edges * sizeof *l))
        return io_error(e, pt->dir, "write", errno);
    pt->edges += edges;
    return 0;
}

/* Step 2: the predecessor lists of the part, bucket by bucket (so the disk holds about a
 * bucket file's 7 bytes an edge at the most), and where each 64 positions' lists start. */
static int part_lists(Part *pt, Error *e)
{
    uint8_t *raw = NULL;
    uint32_t *lists = NULL;
    uint32_t *count = malloc(pt->bucket * sizeof *count);
    int rc = count ? 0 : error_set(e, "out of memory at level %d", pt->lv->L);
    for (uint64_t b = 0; rc == 0 && b < pt->buckets; b++)
        rc = bucket_lists(pt, b, &raw, &lists, count, e);
    free(raw);
    free(lists);
    free(count);
    uint64_t at = 0;
    for (uint64_t j = 0; rc == 0 && j < pt->n; j++) {
        if (j % 64 == 0)
            pt->list_at[j / 64] = at;
        at += pt->indeg[j];
    }
    return rc;
}

/* Where the list of position j starts in the list file (entries). */
static uint64_t list_start(const Part *pt, uint64_t j)
{
    uint64_t at = pt->list_at[j / 64];
    for (uint64_t k = j & ~63ULL; k < j; k++)
        at += pt->indeg[k];
    return at;
}

/* The parents of position j, through the thread's window (read again, from j's list up to
 * `end` at the most, when the list is not in it); NULL after an I/O error. */
static const uint32_t *list_of(Part *pt, Window *w, uint64_t j, uint64_t end)
{
    uint64_t at = list_start(pt, j), len = pt->indeg[j];
    if (at >= w->lo && at + len <= w->hi)
        return w->buf + (at - w->lo);
    uint64_t hi = at + pt->window_entries < end ? at + pt->window_entries : end;
    if (!read_at(pt->list_fd, w->buf, (size_t)(hi - at) * sizeof *w->buf,
                 at * sizeof *w->buf)) {
        part_fault(pt, errno, "read");
        w->lo = w->hi = 0;
        return NULL;
    }
    w->lo = at;
    w->hi = hi;
    return w->buf;
}

/* Step 3b for one chunk of positions: the parents of each changed one are marked for the
 * next round, the lists read in index order through the thread's window. */
static void propagate_chunk(Part *pt, uint64_t w0, uint64_t w1)
{
    Window *win = &pt->win[omp_get_thread_num()];
    uint64_t last = w1;
    while (last > w0 && !pt->dirty[last - 1])
        last--;
    if (last == w0)
        return;
    uint64_t jl = (last - 1) * 64 + 63 - (uint64_t)__builtin_clzll(pt->dirty[last - 1]);
    uint64_t end = list_start(pt, jl) + pt->indeg[jl];   /* the chunk's last list read */
    for (uint64_t w = w0; w < last; w++) {
        for (uint64_t bits = pt->dirty[w]; bits; bits &= bits - 1) {
            uint64_t j = w * 64 + (uint64_t)__builtin_ctzll(bits);
            if (!pt->indeg[j])
                continue;
            const uint32_t *p = list_of(pt, win, j, end);
            for (unsigned k = 0; p && k < pt->indeg[j]; k++)
                __atomic_or_fetch(&pt->next[p[k] >> 6], 1ULL << (p[k] & 63),
                                  __ATOMIC_RELAXED);
        }
    }
}

/* Step 3: rounds over the positions marked, until a round changes nothing; returns the
 * rounds. Each round recomputes the marked positions (3a, leaving in `dirty` those that
 * changed), then marks their parents (3b) from the list file. */
static int part_rounds(Part *pt)
{
    uint64_t words = (pt->n + 63) / 64, per_chunk = CHUNK / 64;
    uint64_t chunks = (words + per_chunk - 1) / per_chunk;
    int rounds = 0;
    for (bool any = true; any && !pt->fault; rounds++) {
        uint64_t updates = 0;
        #pragma omp parallel for schedule(dynamic, 64) reduction(+ : updates) \
            if (pt->n >= PARALLEL_FROM)
        for (uint64_t w = 0; w < words; w++) {
            uint64_t changed = 0;
            for (uint64_t bits = pt->dirty[w]; bits; bits &= bits - 1) {
                int b = __builtin_ctzll(bits);
                if (update(pt, w * 64 + (uint64_t)b))
                    changed |= 1ULL << b;
                updates++;
            }
            pt->dirty[w] = changed;
        }
        pt->updates += updates;
        #pragma omp parallel for schedule(dynamic, 1) if (pt->n >= PARALLEL_FROM)
        for (uint64_t ch = 0; ch < chunks; ch++) {
            uint64_t w1 = (ch + 1) * per_chunk < words ? (ch + 1) * per_chunk : words;
            propagate_chunk(pt, ch * per_chunk, w1);
        }
        any = false;
        #pragma omp parallel for reduction(|| : any) if (pt->n >= PARALLEL_FROM)
        for (uint64_t w = 0; w < words; w++) {
            pt->dirty[w] = pt->next[w];
            pt->next[w] = 0;
            any = any || pt->dirty[w];
        }
    }
    return rounds;
}

/* The work arrays and files of a part; -1 or TABLES_IO_ERROR with a message. */
static int part_open(Part *pt, const TablesBuildOptions *o, Error *e)
{
    uint64_t words = (pt->n + 63) / 64;
    pt->bucket = o && o->bucket_size ? o->bucket_size : DEFAULT_BUCKET;
    pt->bucket = pt->bucket < MAX_BUCKET ? pt->bucket : MAX_BUCKET;
    if ((pt->n + pt->bucket - 1) / pt->bucket > MAX_BUCKETS)
        pt->bucket = (pt->n + MAX_BUCKETS - 1) / MAX_BUCKETS;
    pt->buckets = pt->n ? (pt->n + pt->bucket - 1) / pt->bucket : 0;
    size_t window = o && o->window_bytes ? o->window_bytes : DEFAULT_WINDOW;
    pt->window_entries = (window < MIN_WINDOW ? MIN_WINDOW : window) / sizeof(uint32_t);
    pt->threads = omp_get_max_threads();
    pt->list_fd = -1;
    pt->indeg = calloc(pt->n ? pt->n : 1, 1);
    pt->list_at = calloc(words ? words : 1, sizeof *pt->list_at);
    pt->dirty = calloc(words ? words : 1, sizeof *pt->dirty);
    pt->next = calloc(words ? words : 1, sizeof *pt->next);
    pt->bk = calloc(pt->buckets ? pt->buckets : 1, sizeof *pt->bk);
    pt->win = calloc((size_t)pt->threads, sizeof *pt->win);
    bool ok = pt->indeg && pt->list_at && pt->dirty && pt->next && pt->bk && pt->win;
    for (int k = 0; ok && k < pt->threads; k++)
        ok = (pt->win[k].buf = malloc(pt->window_entries * sizeof(uint32_t))) != NULL;
    for (uint64_t b = 0; b < pt->buckets; b++)
        pt->bk[b].fd = -1;
    if (!ok)
        return error_set(e, "out of memory at level %d", pt->lv->L);
    if ((pt->list_fd = work_file(pt->dir, e)) < 0)
        return TABLES_IO_ERROR;
    for (uint64_t b = 0; b < pt->buckets; b++)
        if ((pt->bk[b].fd = work_file(pt->dir, e)) < 0)
            return TABLES_IO_ERROR;
    return 0;
}

/* Free the work arrays of a part and close its files (unlinked: the disk is freed). */
static void part_close(Part *pt)
{
    for (uint64_t b = 0; pt->bk && b < pt->buckets; b++)
        if (pt->bk[b].fd >= 0)
            close(pt->bk[b].fd);
    if (pt->list_fd >= 0)
        close(pt->list_fd);
    for (int k = 0; pt->win && k < pt->threads; k++)
        free(pt->win[k].buf);
    free(pt->win);
    free(pt->bk);
    free(pt->indeg);
    free(pt->list_at);
    free(pt->dirty);
    free(pt->next);
}

/* The peak resident memory of the process so far, in bytes. */
static uint64_t peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024;   /* kilobytes on Linux */
}

/* Solve one part of a level: steps 1 to 4; -1 with a message (TABLES_IO_ERROR for the work
 * files), the report filled in. */
static int solve_part(Part *pt, const TablesBuildOptions *o, TablesPartReport *r, Error *e)
{
    int rc = part_open(pt, o, e);
    if (rc == 0)
        rc = part_edges(pt, e);
    if (rc == 0)
        rc = part_lists(pt, e);
    if (rc == 0) {
        r->rounds = part_rounds(pt);
        if (pt->fault)
            rc = io_error(e, pt->dir, pt->fault_op, pt->fault);
    }
    if (rc == 0)
        part_pass(pt, fill_pass);
    r->positions = pt->n;
    r->edges = pt->edges;
    r->max_indegree = (int)pt->max_indeg;
    r->list_bytes = pt->edges * sizeof(uint32_t);
    r->updates = pt->updates;
    part_close(pt);
    return rc;
}

/* Solve level L (the levels below solved), part by part. Within a level a move without
 * capture keeps the convention state in the absolute sense (nobody, South or North made the
 * first final-seed capture; a capture would leave the level), so under first-final state 0
 * (indices 0 .. count) is closed under the level's moves, and so are states 1 and 2 together
 * (count .. 3 count: a move that passes the turn swaps them); each part needs only lower
 * levels and itself. -1 or TABLES_IO_ERROR with a message. */
static int solve_level(Tables *t, int L, const TablesBuildOptions *o, const char *dir,
                       TablesProgress progress, void *ctx, Error *e)
{
    Level lv = { .t = t, .L = L, .count = ranking_count(&t->rank, L) };
    lv.n = lv.count * (uint64_t)t->conv;
    lv.value = t->owned + t->level_at[L];
    int parts = t->conv == 1 ? 1 : 2;
    for (int k = 0; k < parts; k++) {
        double t0 = omp_get_wtime();
        Part pt = { .lv = &lv, .dir = dir, .start = k == 0 ? 0 : lv.count,
                    .n = k == 0 ? lv.count : lv.n - lv.count };
        TablesPartReport r = { .level = L, .part = k + 1, .parts = parts };
        int rc = solve_part(&pt, o, &r, e);
        if (rc != 0)
            return rc;
        r.seconds = omp_get_wtime() - t0;
        r.peak_rss = peak_rss();
        if (progress)
            progress(&r, ctx);
    }
    return 0;
}

/* The layout of the values: the levels held of first_level .. K, each its convention states
 * in turn (a level not held starts where the next does: it takes no room). */
int tables_layout(Tables *t, const Variant *v, int max_seeds, const bool *held, Error *e)
{
    t->v = *v;
    t->format = TABLES_FORMAT_VERSION;
    t->max_seeds = max_seeds;
    t->first_level = v->capture + 1;
    t->conv = v->final_four == FF_FIRST_FINAL ? 3 : 1;
    if (ranking_init(&t->rank, v->pits, max_seeds) != 0)
        return error_set(e, "tables for %d seeds on %d holes: too many positions", max_seeds,
                         v->pits);
    uint64_t at = 0;
    for (int L = 0; L <= max_seeds + 1; L++) {
        t->level_at[L] = at;
        if (L > max_seeds)
            continue;
        t->held[L] = L >= t->first_level && (!held || held[L]);
        if (t->held[L])
            at += (uint64_t)t->conv * ranking_count(&t->rank, L);
    }
    t->positions = at;
    return 0;
}

/* The levels a build of `which` solves, into held[0 .. max_seeds]. */
static void levels_wanted(const Variant *v, int max_seeds, TablesLevels which, bool *held)
{
    for (int L = 0; L <= max_seeds; L++)
        held[L] = which == TABLES_ALL_LEVELS || tables_level_reachable(v, L);
}

/* The checksum of the values: FNV-1a's multiplier over 8-byte little-endian words (the last
 * padded with zeros), each step followed by a shift-xor, then the length mixed in. */
uint64_t values_checksum(const int8_t *x, uint64_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, x + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 32;
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, x + i, (size_t)(n - i));
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 32;
    }
    return rng_mix64(h ^ n);
}

/* Whether tables of v to max_seeds can be built: K in range, and every level's positions
 * numbered in 32 bits (as a level is while it is solved). With t given, its layout is left
 * in it. */
static int check_size(Tables *t, const Variant *v, int max_seeds, TablesLevels which, Error *e)
{
    if (max_seeds <= v->capture || max_seeds > TABLES_MAX_SEEDS || max_seeds > v->total)
        return error_set(e, "--max-seeds: %d is out of range (%d to %d for this variant)",
                         max_seeds, v->capture + 1,
                         v->total < TABLES_MAX_SEEDS ? v->total : TABLES_MAX_SEEDS);
    bool held[TABLES_MAX_SEEDS + 1];
    levels_wanted(v, max_seeds, which, held);
    if (tables_layout(t, v, max_seeds, held, e) != 0)
        return -1;
    int L = max_seeds;
    while (L > t->first_level && !t->held[L])
        L--;
    if (!t->held[L]) {
        int next = max_seeds + 1;
        while (next < v->total && !tables_level_reachable(v, next))
            next++;
        return error_set(e, "--max-seeds %d: no level from %d to %d occurs in a game from the "
                         "start (the seeds on the board stay congruent to %d modulo %d; the "
                         "first level above is %d), --all-levels builds them", max_seeds,
                         t->first_level, max_seeds, v->total, v->capture, next);
    }
    uint64_t top = (uint64_t)t->conv * ranking_count(&t->rank, L);
    if (top >= UINT32_MAX)
        return error_set(e, "--max-seeds %d: level %d alone has %llu positions, more than the "
                         "2^32 a level may have (a smaller K fits)", max_seeds, L,
                         (unsigned long long)top);
    return 0;
}

int tables_check_size(const Variant *v, int max_seeds, TablesLevels which, Error *e)
{
    Tables *t = calloc(1, sizeof *t);
    if (!t)
        return error_set(e, "out of memory");
    int rc = check_size(t, v, max_seeds, which, e);
    tables_free(t);
    return rc;
}

int tables_build(const Variant *v, int max_seeds, TablesProgress progress, void *ctx,
                 Tables **out, Error *e)
{
    return tables_build_with(v, max_seeds, TABLES_ALL_LEVELS, NULL, progress, ctx, out, e);
}

int tables_build_levels(const Variant *v, int max_seeds, TablesLevels which,
                        TablesProgress progress, void *ctx, Tables **out, Error *e)
{
    return tables_build_with(v, max_seeds, which, NULL, progress, ctx, out, e);
}

/* The work directory of a build: the options', else $TMPDIR, else /tmp. */
static const char *work_dir(const TablesBuildOptions *o)
{
    if (o && o->work_dir)
        return o->work_dir;
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

int tables_build_with(const Variant *v, int max_seeds, TablesLevels which,
                      const TablesBuildOptions *o, TablesProgress progress, void *ctx,
                      Tables **out, Error *e)
{
    Tables *t = calloc(1, sizeof *t);
    if (!t)
        return error_set(e, "out of memory");
    if (check_size(t, v, max_seeds, which, e) != 0) {
        tables_free(t);
        return -1;
    }
    t->owned = malloc(t->positions ? t->positions : 1);
    if (!t->owned) {
        unsigned long long n = t->positions;
        tables_free(t);
        return error_set(e, "out of memory for %llu positions", n);
    }
    t->value = t->owned;
    for (int L = t->first_level; L <= max_seeds; L++) {
        if (!t->held[L])
            continue;
        int rc = solve_level(t, L, o, work_dir(o), progress, ctx, e);
        if (rc != 0) {
            tables_free(t);
            return rc;
        }
    }
    t->checksum = values_checksum(t->value, t->positions);
    *out = t;
    return 0;
}

void tables_level_stats(const Tables *t, int level, TablesLevelStats *s)
{
    memset(s, 0, sizeof *s);
    if (!tables_holds_level(t, level))
        return;
    uint64_t count = ranking_count(&t->rank, level), total = count * (uint64_t)t->conv;
    const int8_t *x = t->value + t->level_at[level];
    double sum = 0;
    s->min = INT8_MAX;
    s->max = INT8_MIN;
    uint16_t board[MAX_PITS];
    ranking_unrank(&t->rank, 0, level, board);
    for (uint64_t i = 0; i < total; i++) {
        if (i % count == 0)
            ranking_unrank(&t->rank, 0, level, board);
        if (mover_has_seeds(&t->v, board)) {
            int y = x[i];
            s->positions++;
            s->wins += y > 0;
            s->draws += y == 0;
            s->losses += y < 0;
            s->min = y < s->min ? y : s->min;
            s->max = y > s->max ? y : s->max;
            sum += y;
        }
        ranking_next(&t->rank, board);
    }
    s->mean = s->positions ? sum / (double)s->positions : 0;
}
