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
 * Placements and slots. What a move does to the board depends neither on the convention nor
 * on who made the first final-seed capture (a capture only records the first, if none is
 * recorded yet), only what the end of the game awards does. So a level's graph is that of its
 * placements (the seeds in the holes, South to move), the same for every convention of one
 * board, and each placement has a value in each slot: a convention state of one of the
 * tables built together (penultimate and lottery one each, first-final three: nobody, the
 * side to move, the opponent made the first final-seed capture). A move is played once, from
 * the placement with nobody's capture recorded, and valued in every slot (play_move); a move
 * without capture keeps who made the first final-seed capture, so its child's value in a
 * slot is the child's in the same slot when the mover moves again, and in the turned slot
 * (states 1 and 2 swapped) when the turn passes. A placement is recomputed in every slot
 * when any of its children changed in any. Building the three conventions together thus
 * costs one pass of moves, not five, and first-final alone one, not three.
 *
 * One level, in four steps. 1: a pass plays every move of every placement once: it sets the
 * values after round 0 (each slot's best exit, or 0 to be recomputed, marked dirty) and
 * appends each move without capture as a 7-byte record (parent, 32 bits; child's offset in
 * its bucket, 24) to the bucket file of the child's range; threads fill buffers of their own
 * and reserve room in a bucket file with one atomic add. 2: bucket by bucket, the records are
 * read, sorted by child (counting sort) into lists of parents (4 bytes each), appended to one
 * list file in child order, and the bucket file closed; the in-degree of each placement (a
 * byte) and where each 64 placements' lists start (8 bytes) are kept, so a list's place is
 * one offset plus at most 63 in-degrees. 3: rounds: 3a recomputes the dirty placements in
 * parallel, keeping in the dirty bits only those with a value changed; 3b reads the lists of
 * those, in index order chunk by chunk through a window of each thread's (one read of
 * consecutive lists up to the chunk's last), and marks their parents in `next`. 4: the
 * placements whose side to move has no seeds take the values after the pass.
 *
 * Memory and disk. Besides the values (1 byte a position, the tables themselves: a byte a
 * slot for each placement), a level needs 1 byte a placement (in-degree) and 3/8 (list
 * offsets, dirty and next bits), the buffers (MAX_BUCKETS x 14 KB a thread, a window of 1 MB
 * a thread) and one bucket sorted in memory (11 bytes an edge of one bucket of 2^21
 * children); the disk holds 7 bytes an edge while the bucket files stand, then 4. Work files
 * are made with mkstemp in the work directory and unlinked at once, so a build that dies
 * leaves none.
 *
 * Ranks. With TablesBuildOptions.cluster, processes (MPI ranks: the caller's, this layer knows
 * no MPI) share each level, each owning a contiguous block of its placements. Each holds a
 * full copy of the values (the lower levels and this one): the ranks share the moves, the
 * lists and the recomputations, not the values. Step 1 plays the moves of a rank's own
 * placements only, so its bucket and list files hold only the edges whose parent it owns
 * (for each child of the level, its own parents); then every block's values after the pass
 * go to every rank. In a round each rank recomputes its own marked placements (3a), the
 * ranks exchange the values that changed (index and a byte a slot), each stores the others'
 * and marks them changed, and 3b marks its own parents of every placement changed anywhere;
 * the level ends when no rank marked any. Step 4 is every rank's over the whole level. A rank
 * sees another's changes a round late, which the argument below allows (every value held is
 * still one of a cut-off game); at the end every change has reached every rank, so every
 * copy holds the one fixed point, for any number of ranks. A step that fails on one rank
 * fails on all with the first failing rank's message (level_agree), so none waits alone in
 * an exchange.
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
 * the order of the recomputations (a placement recomputed when none of its children changed
 * in a slot keeps its value there), however many threads make them, whatever the bucket and
 * window sizes and whichever conventions are built together; threads read and write the one-byte values with relaxed atomic
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

#include "margin.h"

/* Placements handled per chunk of a parallel loop. */
#define CHUNK 4096
/* Levels smaller than this are solved by one thread: threads cost more than they save. */
#define PARALLEL_FROM 100000

/* ---- Positions of a level ---- */

/* Values a placement has at the most when conventions are built together: penultimate 1,
 * first-final 3 (its convention states), lottery 1. */
#define MAX_SLOTS 5

/* What one level's solution works on: the tables built together (one board, a convention
 * each) and their slots, a slot being one table's values of one convention state. A
 * placement's index is its rank; slot s's value of it is value[s][rank]. */
typedef struct Level {
    Tables *const *t;
    int L;
    uint64_t count;              /* placements of the level */
    int slots;
    int8_t *value[MAX_SLOTS];    /* each slot's values of the level, in its table */
    int table[MAX_SLOTS];        /* the slot's table */
    int state[MAX_SLOTS];        /* its convention state: 0 nobody, 1 the mover, 2 the opponent
                                  * made the first final-seed capture */
    int turned[MAX_SLOTS];       /* the slot of the same table and position seen from the
                                  * other side (states 1 and 2 swap) */
} Level;

/* The position of a placement with South to move and nobody having made a final-seed
 * capture: the one position whose moves are played for every slot (see play_move). */
static void placement_position(const Tables *t, const uint16_t *board, int L, Position *p)
{
    const Variant *v = &t->v;
    memset(p, 0, sizeof *p);
    for (int i = 0; i < v->pits; i++)
        p->pit[i] = board[i];
    p->left = (uint16_t)L;
    p->store[SOUTH] = (uint16_t)(v->total - L);
    p->side = SOUTH;
    p->last_capturer = SOUTH;   /* never decides a value (see tables.h) */
    p->first_final = NOBODY;
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
/* At most this many bucket files are open at once (a larger level gets larger buckets). */
#define MAX_BUCKETS 512
/* An edge in a bucket file: the parent (32 bits), the child's offset in the bucket (24). */
#define RECORD 7
/* Each thread's buffer for each bucket, in bytes (a whole number of records). */
#define BUCKET_BUF (RECORD * 2048)
/* A placement has at most this many moves into it from its level (its in-degree is a
 * byte). */
#define MAX_INDEGREE 255
/* The default window through which a thread reads the lists, in bytes. */
#define DEFAULT_WINDOW (1u << 20)
/* The smallest window: one whole list. */
#define MIN_WINDOW (4 * (MAX_INDEGREE + 1))

/* One bucket file: the edges into children [b * bucket, (b + 1) * bucket) of the level. */
typedef struct Bucket {
    int fd;
    uint64_t bytes;       /* reserved so far (threads add to it atomically) */
} Bucket;

/* A thread's buffers of edges, one per bucket, flushed when full. */
typedef struct Emit {
    struct Work *w;
    uint8_t *buf;         /* buckets * BUCKET_BUF */
    uint32_t *used;       /* bytes in each bucket's buffer */
    bool inner;           /* the placement visited has a move without capture */
} Emit;

/* A thread's window onto the list file: entries [lo, hi) are in buf. */
typedef struct Window {
    uint32_t *buf;
    uint64_t lo, hi;
} Window;

/* The work arrays and files of one level's solution, indexed by placement (n of them). */
typedef struct Work {
    const Level *lv;
    const char *dir;      /* the work directory */
    uint64_t n;
    uint8_t *indeg;       /* moves into each placement from the level */
    uint64_t *list_at;    /* per 64 placements: where the first one's list starts (entries) */
    uint64_t *dirty;      /* bit set: recompute in this round; after it: changed */
    uint64_t *next;       /* bit set: recompute in the next round */
    uint64_t bucket;      /* children per bucket */
    uint64_t buckets;
    Bucket *bk;
    int list_fd;          /* the predecessor lists, parent ranks (uint32), child order */
    uint64_t edges;
    unsigned max_indeg;   /* the largest in-degree */
    unsigned indeg_limit; /* the most a placement may have (MAX_INDEGREE but in tests) */
    size_t window_entries;
    int threads;
    Emit *emit;           /* per thread, while the edges are written */
    Window *win;          /* per thread, while the rounds read the lists */
    int fault;            /* the first I/O error's errno, 0 when none */
    const char *fault_op; /* what failed: "write", "read" */
    bool short_of_memory; /* a buffer of an exchange could not be had */
    uint64_t updates;
    const TablesCluster *cl;   /* the ranks sharing the level; NULL: one process */
    uint64_t lo, hi;      /* the placements this rank owns (every one in one process) */
    uint64_t sent, received, messages;   /* of the exchanges of values (TablesRankFigures) */
} Work;

#define EXIT_NONE INT8_MIN

/* Note the first I/O error of a level (threads may meet one together). */
static void work_fault(Work *w, int err, const char *op)
{
    #pragma omp critical(tables_work_fault)
    if (!w->fault) {
        w->fault = err ? err : EIO;
        w->fault_op = op;
    }
}

/* A failure of the work files: a message naming the work directory, TABLES_IO_ERROR. */
static int io_error(Error *e, const char *dir, const char *op, int err)
{
    error_set(e, "%s: cannot %s a work file (%s)", dir, op, strerror(err));
    return TABLES_IO_ERROR;
}

/* Write (writing) or read n bytes at off of fd; false (errno set) when they could not all
 * be moved: a write that moves nothing is a full disk, a read that does an early end. */
static bool io_at(int fd, bool writing, void *buf, size_t n, uint64_t off)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t k = writing ? pwrite(fd, p, n, (off_t)off) : pread(fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            errno = k < 0 ? errno : writing ? ENOSPC : EIO;
            return false;
        }
        p += k, n -= (size_t)k, off += (uint64_t)k;
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

/* Play move m of p (a placement's position: South to move, nobody having made a final-seed
 * capture) once for every slot. The sowing does not depend on the convention nor on who
 * made the first final-seed capture (a capture only records the first), so the child of a
 * slot of state 1 or 2 is this child with that record put back. True with x[s] the move's
 * value for the mover in each slot when it leaves the level; false with the child's rank
 * (*flip: the side to move changes) when it stays on it. A move without capture keeps who
 * made the first final-seed capture: in state 1 or 2 its child's slot is the same (flip
 * false) or the turned one (see inner_best). */
static bool play_move(const Level *lv, const Position *p, int m, int *x, uint64_t *child,
                      bool *flip)
{
    const Tables *t0 = lv->t[0];
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(&t0->v, p, m, &c, &info, NULL);
    int before = p->store[SOUTH] - p->store[NORTH];
    if (ev == EV_ENDLESS) {
        for (int s = 0; s < lv->slots; s++)
            x[s] = 0;
        return true;
    }
    if (ev != EV_OVER && c.left == lv->L) {
        assert(c.first_final == NOBODY);   /* no capture, so no final-seed capture */
        *child = placement_rank(t0, &c);
        *flip = c.side != SOUTH;
        return false;
    }
    int sign = c.side == SOUTH ? 1 : -1, gained = c.store[SOUTH] - c.store[NORTH] - before;
    uint64_t rank = ev == EV_OVER ? 0 : placement_rank(t0, &c);
    int8_t made = c.first_final;   /* by this move, or NOBODY */
    for (int s = 0; s < lv->slots; s++) {
        const Tables *t = lv->t[lv->table[s]];
        c.first_final = lv->state[s] == 0 ? made : lv->state[s] == 1 ? SOUTH : NORTH;
        if (ev == EV_OVER) {
            x[s] = margin_final(&t->v, &c) * sign - before;
            continue;
        }
        assert(t->held[c.left]);   /* lower by a multiple of capture: held (tables.h) */
        uint64_t at = t->level_at[c.left] + (uint64_t)conv_state(t, &c) * t->rank.count[c.left];
        x[s] = gained + sign * load8(&t->value[at + rank]);
    }
    return true;
}

/* The moves of placement i (board): the best exit of each slot into best[] (EXIT_NONE when
 * every move stays on the level), and f called on each move without capture. */
typedef void (*InnerMove)(const Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx);
static void each_move(const Level *lv, uint64_t i, const uint16_t *board, int *best,
                      InnerMove f, void *ctx)
{
    Position p;
    placement_position(lv->t[0], board, lv->L, &p);
    for (int s = 0; s < lv->slots; s++)
        best[s] = EXIT_NONE;
    for (uint64_t m = pos_legal_mask(&lv->t[0]->v, &p); m; m &= m - 1) {
        int x[MAX_SLOTS];
        uint64_t child;
        bool flip;
        if (!play_move(lv, &p, __builtin_ctzll(m), x, &child, &flip)) {
            f(lv, i, child, flip, ctx);
            continue;
        }
        for (int s = 0; s < lv->slots; s++)
            best[s] = x[s] > best[s] ? x[s] : best[s];
    }
}

/* Write bucket b's buffer of em to its file, at room reserved with one atomic add. */
static void flush_bucket(Emit *em, uint64_t b)
{
    Work *w = em->w;
    uint32_t used = em->used[b];
    if (!used)
        return;
    uint64_t at = __atomic_fetch_add(&w->bk[b].bytes, used, __ATOMIC_RELAXED);
    if (!io_at(w->bk[b].fd, true, em->buf + b * BUCKET_BUF, used, at))
        work_fault(w, errno, "write");
    em->used[b] = 0;
}

/* Append the edge parent i -> child to the buffer of the child's bucket. */
static void emit_edge(const Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx)
{
    (void)lv;
    (void)flip;
    Emit *em = ctx;
    Work *w = em->w;
    uint64_t b = child / w->bucket, off = child % w->bucket;
    uint32_t parent = (uint32_t)i;
    uint8_t *r = em->buf + b * BUCKET_BUF + em->used[b];
    for (int k = 0; k < 4; k++)
        r[k] = (uint8_t)(parent >> (8 * k));
    for (int k = 0; k < 3; k++)
        r[4 + k] = (uint8_t)(off >> (8 * k));
    em->inner = true;
    if ((em->used[b] += RECORD) == BUCKET_BUF)
        flush_bucket(em, b);
}

/* Raise each slot's best (ctx) to the value of a move without capture, as the values
 * stand: the child's own slot when the mover moves again, else the turned slot, negated. */
static void inner_best(const Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx)
{
    (void)i;
    int *best = ctx;
    for (int s = 0; s < lv->slots; s++) {
        int c = load8(&lv->value[flip ? lv->turned[s] : s][child]);
        int x = flip ? -c : c;
        best[s] = x > best[s] ? x : best[s];
    }
}

/* Step 1 for one placement: every move played once; the edges of the moves without capture
 * go to the bucket files, and the values after round 0 are set: 0 (the value of play cut
 * off) in every slot with such moves, to be recomputed, or each slot's best exit without. A
 * placement whose side to move has no seeds waits for step 4. */
static void edges_visit(Work *w, uint64_t i, const uint16_t *board)
{
    const Level *lv = w->lv;
    if (!mover_has_seeds(&lv->t[0]->v, board))
        return;
    Emit *em = &w->emit[omp_get_thread_num()];
    em->inner = false;
    int best[MAX_SLOTS];
    each_move(lv, i, board, best, emit_edge, em);
    for (int s = 0; s < lv->slots; s++)
        lv->value[s][i] = (int8_t)(em->inner ? 0 : best[s]);
    if (em->inner)
        w->dirty[i >> 6] |= 1ULL << (i & 63);   /* each thread owns whole words (CHUNK) */
}

/* Step 3 for one placement: the best of its moves in each slot as the values stand; true
 * when that changes a value. */
static bool update(Work *w, uint64_t i)
{
    const Level *lv = w->lv;
    uint16_t board[MAX_PITS];
    ranking_unrank(&lv->t[0]->rank, i, lv->L, board);
    int best[MAX_SLOTS], inner[MAX_SLOTS];
    for (int s = 0; s < lv->slots; s++)
        inner[s] = EXIT_NONE;
    each_move(lv, i, board, best, inner_best, inner);
    bool changed = false;
    for (int s = 0; s < lv->slots; s++) {
        int x = inner[s] > best[s] ? inner[s] : best[s];
        if (load8(&lv->value[s][i]) != x) {
            store8(&lv->value[s][i], (int8_t)x);
            changed = true;
        }
    }
    return changed;
}

/* Step 4 for one placement: without seeds for the side to move, the value after the pass
 * in each slot (the placement turned round, in the turned slot). */
static void fill_pass(Work *w, uint64_t i, const uint16_t *board)
{
    const Level *lv = w->lv;
    const Variant *v = &lv->t[0]->v;
    if (mover_has_seeds(v, board))
        return;
    uint16_t turned[MAX_PITS];
    for (int j = 0; j < v->pits; j++)
        turned[j] = board[(j + v->holes) % v->pits];
    uint64_t k = ranking_rank(&lv->t[0]->rank, turned, lv->L);
    for (int s = 0; s < lv->slots; s++)
        lv->value[s][i] = (int8_t)-lv->value[lv->turned[s]][k];
}

/* One pass over the placements [lo, hi) of the level with f, in parallel chunks of whole
 * bitmap words (the chunks of the whole level, cut to the range, so that no two threads
 * share a word), each chunk walking its placements in rank order. */
typedef void (*Visit)(Work *w, uint64_t i, const uint16_t *board);
static void level_pass(Work *w, Visit f, uint64_t lo, uint64_t hi)
{
    const Level *lv = w->lv;
    uint64_t first = lo / CHUNK, last = (hi + CHUNK - 1) / CHUNK;
    #pragma omp parallel for schedule(dynamic, 1) if (hi - lo >= PARALLEL_FROM)
    for (uint64_t ch = first; ch < last; ch++) {
        uint64_t i = ch * CHUNK > lo ? ch * CHUNK : lo;
        uint64_t end = (ch + 1) * CHUNK < hi ? (ch + 1) * CHUNK : hi;
        if (i >= end)
            continue;
        uint16_t board[MAX_PITS];
        ranking_unrank(&lv->t[0]->rank, i, lv->L, board);
        for (; i < end; i++) {
            f(w, i, board);
            ranking_next(&lv->t[0]->rank, board);
        }
    }
}

/* Step 1: the pass that writes the edges, each thread through its own buffers. */
static int level_edges(Work *w, Error *e)
{
    w->emit = calloc((size_t)w->threads, sizeof *w->emit);
    bool ok = w->emit != NULL;
    for (int k = 0; ok && k < w->threads; k++) {
        w->emit[k].w = w;
        w->emit[k].buf = malloc(w->buckets * BUCKET_BUF);
        w->emit[k].used = calloc(w->buckets, sizeof *w->emit[k].used);
        ok = w->emit[k].buf && w->emit[k].used;
    }
    if (ok) {
        level_pass(w, edges_visit, w->lo, w->hi);
        for (int k = 0; k < w->threads; k++)
            for (uint64_t b = 0; b < w->buckets; b++)
                flush_bucket(&w->emit[k], b);
    }
    for (int k = 0; w->emit && k < w->threads; k++) {
        free(w->emit[k].buf);
        free(w->emit[k].used);
    }
    free(w->emit);
    w->emit = NULL;
    if (!ok)
        return error_set(e, "out of memory for the edge buffers at level %d", w->lv->L);
    if (w->fault)
        return io_error(e, w->dir, w->fault_op, w->fault);
    return 0;
}

/* Step 2 for one bucket: its edges counted and sorted by child (counting sort) into lists
 * of parents, appended to the list file; the bucket file is then closed (and so gone). */
static int bucket_lists(Work *w, uint64_t b, uint8_t **raw, uint32_t **lists, uint32_t *count,
                        Error *e)
{
    uint64_t bytes = w->bk[b].bytes, edges = bytes / RECORD;
    uint64_t first = b * w->bucket;
    uint64_t size = w->n - first < w->bucket ? w->n - first : w->bucket;
    uint8_t *r = realloc(*raw, bytes ? bytes : 1);
    uint32_t *l = r ? realloc(*lists, (edges ? edges : 1) * sizeof *l) : NULL;
    *raw = r ? r : *raw;
    *lists = l ? l : *lists;
    if (!r || !l)
        return error_set(e, "out of memory for a bucket of %llu edges at level %d",
                         (unsigned long long)edges, w->lv->L);
    if (!io_at(w->bk[b].fd, false, r, bytes, 0))
        return io_error(e, w->dir, "read", errno);
    close(w->bk[b].fd);
    w->bk[b].fd = -1;
    memset(count, 0, size * sizeof *count);
    for (uint64_t k = 0; k < edges; k++) {
        const uint8_t *x = r + k * RECORD;
        count[x[4] | (uint32_t)x[5] << 8 | (uint32_t)x[6] << 16]++;
    }
    uint64_t sum = 0;
    for (uint64_t c = 0; c < size; c++) {
        if (count[c] > w->indeg_limit)
            return error_set(e, "level %d: a position has %u moves into it from its level, "
                             "more than the %u the build can hold", w->lv->L, count[c],
                             w->indeg_limit);
        w->indeg[first + c] = (uint8_t)count[c];
        w->max_indeg = count[c] > w->max_indeg ? count[c] : w->max_indeg;
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
    if (!io_at(w->list_fd, true, l, edges * sizeof *l, w->edges * sizeof *l))
        return io_error(e, w->dir, "write", errno);
    w->edges += edges;
    return 0;
}

/* Step 2: the predecessor lists of the level, bucket by bucket (so the disk holds about a
 * bucket file's 7 bytes an edge at the most), and where each 64 placements' lists start. */
static int level_lists(Work *w, Error *e)
{
    uint8_t *raw = NULL;
    uint32_t *lists = NULL;
    uint32_t *count = malloc(w->bucket * sizeof *count);
    int rc = count ? 0 : error_set(e, "out of memory at level %d", w->lv->L);
    for (uint64_t b = 0; rc == 0 && b < w->buckets; b++)
        rc = bucket_lists(w, b, &raw, &lists, count, e);
    free(raw);
    free(lists);
    free(count);
    uint64_t at = 0;
    for (uint64_t j = 0; rc == 0 && j < w->n; j++) {
        if (j % 64 == 0)
            w->list_at[j / 64] = at;
        at += w->indeg[j];
    }
    return rc;
}

/* Where the list of placement j starts in the list file (entries). */
static uint64_t list_start(const Work *w, uint64_t j)
{
    uint64_t at = w->list_at[j / 64];
    for (uint64_t k = j & ~63ULL; k < j; k++)
        at += w->indeg[k];
    return at;
}

/* The parents of placement j, through the thread's window (read again, from j's list up to
 * `end` at the most, when the list is not in it); NULL after an I/O error. */
static const uint32_t *list_of(Work *w, Window *win, uint64_t j, uint64_t end)
{
    uint64_t at = list_start(w, j), len = w->indeg[j];
    if (at >= win->lo && at + len <= win->hi)
        return win->buf + (at - win->lo);
    uint64_t hi = at + w->window_entries < end ? at + w->window_entries : end;
    if (!io_at(w->list_fd, false, win->buf, (size_t)(hi - at) * sizeof *win->buf,
               at * sizeof *win->buf)) {
        work_fault(w, errno, "read");
        win->lo = win->hi = 0;
        return NULL;
    }
    win->lo = at;
    win->hi = hi;
    return win->buf;
}

/* Step 3b for one chunk of placements: the parents of each changed one are marked for the
 * next round, the lists read in index order through the thread's window. */
static void propagate_chunk(Work *w, uint64_t w0, uint64_t w1)
{
    Window *win = &w->win[omp_get_thread_num()];
    uint64_t last = w1;
    while (last > w0 && !w->dirty[last - 1])
        last--;
    if (last == w0)
        return;
    uint64_t jl = (last - 1) * 64 + 63 - (uint64_t)__builtin_clzll(w->dirty[last - 1]);
    uint64_t end = list_start(w, jl) + w->indeg[jl];   /* the chunk's last list read */
    for (uint64_t word = w0; word < last; word++) {
        for (uint64_t bits = w->dirty[word]; bits; bits &= bits - 1) {
            uint64_t j = word * 64 + (uint64_t)__builtin_ctzll(bits);
            if (!w->indeg[j])
                continue;
            const uint32_t *p = list_of(w, win, j, end);
            for (unsigned k = 0; p && k < w->indeg[j]; k++)
                __atomic_or_fetch(&w->next[p[k] >> 6], 1ULL << (p[k] & 63),
                                  __ATOMIC_RELAXED);
        }
    }
}

/* ---- Ranks sharing a level ---- */

/* The outcome of a step on every rank: the first failing rank's code and message (in rank
 * order), so that the ranks stop together and rank 0 can say why; rc in one process. */
static int level_agree(const Work *w, int rc, Error *e)
{
    const TablesCluster *cl = w->cl;
    if (!cl || cl->max(rc != 0) == 0)
        return rc;
    uint8_t mine[1 + sizeof e->msg] = { (uint8_t)-rc };
    if (rc)
        memcpy(mine + 1, e->msg, sizeof e->msg);
    uint8_t *all;
    uint64_t total = cl->allgather(mine, sizeof mine, &all);
    for (uint64_t at = 0; at < total; at += sizeof mine)
        if (all[at]) {
            rc = -(int)all[at];
            memcpy(e->msg, all + at + 1, sizeof e->msg);
            e->msg[sizeof e->msg - 1] = '\0';
            break;
        }
    free(all);
    return rc;
}

/* Every rank's bytes to every rank (cl->allgather), counted in this rank's figures: what it
 * sends reaches each other rank, what it receives is the others'. */
static uint64_t exchange(Work *w, const void *mine, uint64_t n, uint8_t **all)
{
    uint64_t calls = w->cl->calls();
    uint64_t total = w->cl->allgather(mine, n, all);
    w->sent += n * (uint64_t)(w->cl->size - 1);
    w->received += total - n;
    w->messages += w->cl->calls() - calls;
    return total;
}

/* After step 1 on ranks: the values after the pass of each rank's placements, every slot, to
 * every rank, so that each holds the whole level (as every later step needs). */
static int share_pass_values(Work *w, Error *e)
{
    const Level *lv = w->lv;
    const TablesCluster *cl = w->cl;
    uint64_t own = w->hi - w->lo;
    uint8_t *mine = malloc(own * (uint64_t)lv->slots + 1), *all;
    int rc = level_agree(w, mine ? 0 : error_set(e, "out of memory at level %d", lv->L), e);
    if (rc != 0) {
        free(mine);
        return rc;
    }
    for (int s = 0; s < lv->slots; s++)
        memcpy(mine + (uint64_t)s * own, lv->value[s] + w->lo, own);
    exchange(w, mine, own * (uint64_t)lv->slots, &all);
    const uint8_t *at = all;
    for (int r = 0; r < cl->size; r++) {
        uint64_t lo, hi;
        cl->share(w->n, r, cl->size, &lo, &hi);
        for (int s = 0; r != cl->rank && s < lv->slots; s++)
            memcpy(lv->value[s] + lo, at + (uint64_t)s * (hi - lo), hi - lo);
        at += (uint64_t)lv->slots * (hi - lo);
    }
    free(mine);
    free(all);
    return 0;
}

/* Between steps 3a and 3b on ranks: the placements this rank changed (`dirty` in its words),
 * as records of the index (4 bytes) and a byte a slot, to every rank; each stores the others'
 * values and marks those changed too, so that 3b marks this rank's parents of every
 * placement changed anywhere. Out of memory, it sends nothing and notes it: the level then
 * fails on every rank at the end of the round. */
static void share_changes(Work *w, uint64_t own0, uint64_t own1)
{
    const Level *lv = w->lv;
    size_t rec = 4 + (size_t)lv->slots;
    uint64_t changed = 0;
    for (uint64_t word = own0; word < own1; word++)
        changed += (uint64_t)__builtin_popcountll(w->dirty[word]);
    uint8_t *mine = malloc(changed * rec + 1), *all, *r = mine;
    if (!mine)
        w->short_of_memory = true;
    for (uint64_t word = own0; mine && word < own1; word++)
        for (uint64_t bits = w->dirty[word]; bits; bits &= bits - 1) {
            uint32_t j = (uint32_t)(word * 64 + (uint64_t)__builtin_ctzll(bits));
            memcpy(r, &j, 4);
            for (int s = 0; s < lv->slots; s++)
                r[4 + s] = (uint8_t)lv->value[s][j];
            r += rec;
        }
    uint64_t total = exchange(w, mine, mine ? changed * rec : 0, &all);
    for (uint64_t at = 0; at < total; at += rec) {
        uint32_t j;
        memcpy(&j, all + at, 4);
        if (j >= w->lo && j < w->hi)
            continue;
        for (int s = 0; s < lv->slots; s++)
            lv->value[s][j] = (int8_t)all[at + 4 + s];
        w->dirty[j >> 6] |= 1ULL << (j & 63);
    }
    free(mine);
    free(all);
}

/* Whether another round is due on every rank: 1 when some rank marked a placement, 0 when
 * none did, 2 when one failed (then every rank stops). */
static int round_due(Work *w, bool marked)
{
    int due = w->fault || w->short_of_memory ? 2 : marked;
    if (!w->cl)
        return due;
    uint64_t calls = w->cl->calls();
    due = (int)w->cl->max(due);
    w->messages += w->cl->calls() - calls;
    return due;
}

/* Step 3: rounds over the placements marked, until a round changes nothing; returns the
 * rounds. Each round recomputes the marked placements (3a, leaving in `dirty` those that
 * changed in some slot), then marks their parents (3b) from the list file. */
static int level_rounds(Work *w)
{
    uint64_t words = (w->n + 63) / 64, per_chunk = CHUNK / 64;
    uint64_t chunks = (words + per_chunk - 1) / per_chunk;
    uint64_t own0 = w->lo / 64, own1 = (w->hi + 63) / 64;   /* the words of own placements */
    int rounds = 0;
    for (int due = 1; due == 1; rounds++) {
        uint64_t updates = 0;
        #pragma omp parallel for schedule(dynamic, 64) reduction(+ : updates) \
            if (w->n >= PARALLEL_FROM)
        for (uint64_t word = own0; word < own1; word++) {
            uint64_t changed = 0;
            for (uint64_t bits = w->dirty[word]; bits; bits &= bits - 1) {
                int b = __builtin_ctzll(bits);
                if (update(w, word * 64 + (uint64_t)b))
                    changed |= 1ULL << b;
                updates++;
            }
            w->dirty[word] = changed;
        }
        w->updates += updates;
        if (w->cl)
            share_changes(w, own0, own1);
        #pragma omp parallel for schedule(dynamic, 1) if (w->n >= PARALLEL_FROM)
        for (uint64_t ch = 0; ch < chunks; ch++) {
            uint64_t w1 = (ch + 1) * per_chunk < words ? (ch + 1) * per_chunk : words;
            propagate_chunk(w, ch * per_chunk, w1);
        }
        bool any = false;
        #pragma omp parallel for reduction(|| : any) if (w->n >= PARALLEL_FROM)
        for (uint64_t word = 0; word < words; word++) {
            w->dirty[word] = w->next[word];
            w->next[word] = 0;
            any = any || w->dirty[word];
        }
        due = round_due(w, any);
    }
    return rounds;
}

/* The work arrays and files of a level; -1 or TABLES_IO_ERROR with a message. */
static int work_open(Work *w, const TablesBuildOptions *o, Error *e)
{
    uint64_t words = (w->n + 63) / 64;
    w->bucket = o && o->bucket_size ? o->bucket_size : DEFAULT_BUCKET;
    w->bucket = w->bucket < MAX_BUCKET ? w->bucket : MAX_BUCKET;
    if ((w->n + w->bucket - 1) / w->bucket > MAX_BUCKETS)
        w->bucket = (w->n + MAX_BUCKETS - 1) / MAX_BUCKETS;
    w->buckets = w->n ? (w->n + w->bucket - 1) / w->bucket : 0;
    size_t window = o && o->window_bytes ? o->window_bytes : DEFAULT_WINDOW;
    w->window_entries = (window < MIN_WINDOW ? MIN_WINDOW : window) / sizeof(uint32_t);
    w->indeg_limit = o && o->max_indegree && o->max_indegree < MAX_INDEGREE
                         ? o->max_indegree : MAX_INDEGREE;
    w->threads = omp_get_max_threads();
    w->list_fd = -1;
    w->indeg = calloc(w->n ? w->n : 1, 1);
    w->list_at = calloc(words ? words : 1, sizeof *w->list_at);
    w->dirty = calloc(words ? words : 1, sizeof *w->dirty);
    w->next = calloc(words ? words : 1, sizeof *w->next);
    w->bk = calloc(w->buckets ? w->buckets : 1, sizeof *w->bk);
    w->win = calloc((size_t)w->threads, sizeof *w->win);
    bool ok = w->indeg && w->list_at && w->dirty && w->next && w->bk && w->win;
    for (int k = 0; ok && k < w->threads; k++)
        ok = (w->win[k].buf = malloc(w->window_entries * sizeof(uint32_t))) != NULL;
    for (uint64_t b = 0; w->bk && b < w->buckets; b++)
        w->bk[b].fd = -1;
    if (!ok)
        return error_set(e, "out of memory at level %d", w->lv->L);
    if ((w->list_fd = work_file(w->dir, e)) < 0)
        return TABLES_IO_ERROR;
    for (uint64_t b = 0; b < w->buckets; b++)
        if ((w->bk[b].fd = work_file(w->dir, e)) < 0)
            return TABLES_IO_ERROR;
    return 0;
}

/* Free the work arrays of a level and close its files (unlinked: the disk is freed). */
static void work_close(Work *w)
{
    for (uint64_t b = 0; w->bk && b < w->buckets; b++)
        if (w->bk[b].fd >= 0)
            close(w->bk[b].fd);
    if (w->list_fd >= 0)
        close(w->list_fd);
    for (int k = 0; w->win && k < w->threads; k++)
        free(w->win[k].buf);
    free(w->win);
    free(w->bk);
    free(w->indeg);
    free(w->list_at);
    free(w->dirty);
    free(w->next);
}

/* The peak resident memory of the process so far, in bytes. */
static uint64_t peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024;   /* kilobytes on Linux */
}

/* The slots of the tables built together, into lv: each table's convention states in
 * turn. */
static void level_slots(Level *lv, Tables *const *t, int nt)
{
    lv->t = t;
    lv->slots = 0;
    for (int k = 0; k < nt; k++) {
        int base = lv->slots;
        for (int cs = 0; cs < t[k]->conv; cs++, lv->slots++) {
            lv->table[lv->slots] = k;
            lv->state[lv->slots] = cs;
            lv->turned[lv->slots] = base + (cs == 0 ? 0 : 3 - cs);
        }
    }
}

/* Solve level L of every table built together (the levels below solved): steps 1 to 4 over
 * the level's placements, every slot at once. -1 or TABLES_IO_ERROR with a message, the
 * report filled in. */
static int solve_level(Level *lv, int L, const TablesBuildOptions *o, const char *dir,
                       TablesLevelReport *r, Error *e)
{
    lv->L = L;
    lv->count = ranking_count(&lv->t[0]->rank, L);
    for (int s = 0; s < lv->slots; s++) {
        Tables *t = lv->t[lv->table[s]];
        lv->value[s] = t->owned + t->level_at[L] + (uint64_t)lv->state[s] * lv->count;
    }
    Work w = { .lv = lv, .dir = dir, .n = lv->count, .cl = o ? o->cluster : NULL,
               .hi = lv->count };
    if (w.cl)
        w.cl->share(w.n, w.cl->rank, w.cl->size, &w.lo, &w.hi);
    int rc = level_agree(&w, work_open(&w, o, e), e);
    if (rc == 0)
        rc = level_agree(&w, level_edges(&w, e), e);
    if (rc == 0 && w.cl)
        rc = share_pass_values(&w, e);
    if (rc == 0)
        rc = level_agree(&w, level_lists(&w, e), e);
    if (rc == 0) {
        r->rounds = level_rounds(&w);
        if (w.fault)
            rc = io_error(e, w.dir, w.fault_op, w.fault);
        else if (w.short_of_memory)
            rc = error_set(e, "out of memory for the exchange of values at level %d", L);
        rc = level_agree(&w, rc, e);
    }
    if (rc == 0)
        level_pass(&w, fill_pass, 0, w.n);   /* every rank: each holds the whole level */
    r->level = L;
    r->placements = lv->count;
    r->values = lv->count * (uint64_t)lv->slots;
    r->edges = w.edges;
    r->max_indegree = (int)w.max_indeg;
    r->list_bytes = w.edges * sizeof(uint32_t);
    r->updates = w.updates;
    r->busiest = (TablesRankFigures){ .owned = w.hi - w.lo, .edges = w.edges,
                                      .updates = w.updates, .sent = w.sent,
                                      .received = w.received, .messages = w.messages };
    work_close(&w);
    return rc;
}

/* A level's report on ranks: this rank's figures (in r->busiest) taken over the ranks, the
 * level's edges, lists and updates summed, its in-degree the largest. */
static void level_figures(const TablesCluster *cl, TablesLevelReport *r)
{
    TablesRankFigures m = r->busiest;
    m.seconds = r->seconds;
    r->ranks = cl->size;
    uint64_t *mine[] = { &m.owned, &m.edges, &m.updates, &m.sent, &m.received, &m.messages };
    uint64_t *most[] = { &r->busiest.owned, &r->busiest.edges, &r->busiest.updates,
                         &r->busiest.sent, &r->busiest.received, &r->busiest.messages };
    uint64_t *sum[] = { &r->all.owned, &r->all.edges, &r->all.updates, &r->all.sent,
                        &r->all.received, &r->all.messages };
    for (size_t k = 0; k < sizeof mine / sizeof mine[0]; k++) {
        *most[k] = (uint64_t)cl->max((int64_t)*mine[k]);
        *sum[k] = (uint64_t)cl->sum((int64_t)*mine[k]);
    }
    int64_t us = (int64_t)(m.seconds * 1e6);
    r->busiest.seconds = (double)cl->max(us) / 1e6;
    r->all.seconds = (double)cl->sum(us) / 1e6;
    r->peak_rss_max = (uint64_t)cl->max((int64_t)r->peak_rss);
    r->edges = r->all.edges;
    r->list_bytes = r->edges * sizeof(uint32_t);
    r->updates = r->all.updates;
    r->max_indegree = (int)cl->max(r->max_indegree);
}

/* The levels a build of `which` solves, into held[0 .. max_seeds]. */
static void levels_wanted(const Variant *v, int max_seeds, TablesLevels which, bool *held)
{
    for (int L = 0; L <= max_seeds; L++)
        held[L] = which == TABLES_ALL_LEVELS || tables_level_reachable(v, L);
}

/* Whether tables of v to max_seeds can be built: K in range, and every level's placements
 * numbered in 32 bits (as a level's are while it is solved). With t given, its layout is left
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
    uint64_t top = ranking_count(&t->rank, L);
    if (top >= UINT32_MAX)
        return error_set(e, "--max-seeds %d: level %d alone has %llu placements, more than "
                         "the 2^32 a level may have (a smaller K fits)", max_seeds, L,
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
    return tables_build_set(v, &v->final_four, 1, max_seeds, which, o, progress, ctx, out, e);
}

/* Free the first n tables of t. */
static void free_set(Tables **t, int n)
{
    for (int k = 0; k < n; k++)
        tables_free(t[k]);
}

/* The tables of v under each convention, laid out, their values allocated; -1 with a
 * message (none made). */
static int set_open(const Variant *v, const FinalFour *conventions, int n, int max_seeds,
                    TablesLevels which, Tables **t, Error *e)
{
    if (n < 1 || n > FF_NB)
        return error_set(e, "tables of 1 to %d conventions are built together, not %d", FF_NB,
                         n);
    for (int k = 0; k < n; k++) {
        for (int j = 0; j < k; j++)
            if (conventions[j] == conventions[k]) {
                free_set(t, k);
                return error_set(e, "the convention %s is asked for twice",
                                 final_four_name(conventions[k]));
            }
        Variant vk = *v;
        vk.final_four = conventions[k];
        t[k] = calloc(1, sizeof *t[k]);
        int rc = t[k] ? check_size(t[k], &vk, max_seeds, which, e)
                      : error_set(e, "out of memory");
        if (rc == 0 && !(t[k]->owned = malloc(t[k]->positions ? t[k]->positions : 1)))
            rc = error_set(e, "out of memory for %llu positions",
                           (unsigned long long)t[k]->positions);
        if (rc != 0) {
            free_set(t, k + 1);
            return -1;
        }
        t[k]->value = t[k]->owned;
    }
    return 0;
}

int tables_build_set(const Variant *v, const FinalFour *conventions, int n, int max_seeds,
                     TablesLevels which, const TablesBuildOptions *o, TablesProgress progress,
                     void *ctx, Tables **out, Error *e)
{
    Tables *t[FF_NB] = { NULL };
    if (set_open(v, conventions, n, max_seeds, which, t, e) != 0)
        return -1;
    Level lv = { 0 };
    level_slots(&lv, t, n);
    for (int L = t[0]->first_level; L <= max_seeds; L++) {
        if (!t[0]->held[L])
            continue;
        double t0 = omp_get_wtime();
        TablesLevelReport r = { 0 };
        int rc = solve_level(&lv, L, o, work_dir(o), &r, e);
        if (rc != 0) {
            free_set(t, n);
            return rc;
        }
        r.seconds = omp_get_wtime() - t0;
        r.peak_rss = peak_rss();
        if (o && o->cluster)
            level_figures(o->cluster, &r);
        if (progress)
            progress(&r, ctx);
    }
    for (int k = 0; k < n; k++) {
        t[k]->checksum = values_checksum(t[k]->value, t[k]->positions);
        out[k] = t[k];
    }
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
