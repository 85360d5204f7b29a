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
 * play cut off), but asynchronously: a first pass finds each position's best exit and the
 * predecessors of each position within the level; every position with moves without capture
 * starts at 0 and is recomputed (the best over its moves, as the values stand); whenever a
 * value changes, its predecessors are marked to be recomputed in the next round; the level is
 * done when a round marks nothing.
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
 * the order of the recomputations and however many threads make them; threads read and write
 * the one-byte values with relaxed atomic operations, and rounds are separated by barriers,
 * so a value changed while a predecessor was reading it marks that predecessor again.
 *
 * The index of positions is tables_index.c's (and tables_internal.h's); this file plays
 * each move and looks up the child by it. */
#include "tables_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

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

/* What one level's solution works on. Indices are the level's own: cs * count + rank. */
typedef struct Level {
    Tables *t;
    int L;
    uint64_t count;       /* placements per convention state */
    uint64_t n;           /* positions of the level: count * conv */
    int8_t *value;        /* the level's values, in the tables */
    int8_t *exit;         /* the best exit of each position, or EXIT_NONE */
    uint8_t *flag;        /* FLAG_* */
    uint64_t *pred_at;    /* n + 1: the predecessors of i are pred[pred_at[i] .. pred_at[i+1]) */
    uint32_t *pred;       /* positions with a move without capture to each position */
    uint64_t *dirty;      /* bit set: recompute in this round */
    uint64_t *next;       /* bit set: recompute in the next round */
    uint64_t updates;     /* positions recomputed */
} Level;

#define EXIT_NONE INT8_MIN
enum { FLAG_INNER = 1, FLAG_PASS = 2 };

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
typedef void (*InnerMove)(Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx);
static int each_move(Level *lv, uint64_t i, const uint16_t *board, int cs, InnerMove f,
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

/* Count a predecessor of child (and note that i has a move without capture). */
static void count_pred(Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx)
{
    (void)flip;
    (void)ctx;
    lv->flag[i] = FLAG_INNER;
    __atomic_add_fetch(&lv->pred_at[child], 1, __ATOMIC_RELAXED);
}

/* Record i as a predecessor of child (pred_at[child] counts down to its list's start). */
static void add_pred(Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx)
{
    (void)flip;
    (void)ctx;
    uint64_t at = __atomic_sub_fetch(&lv->pred_at[child], 1, __ATOMIC_RELAXED);
    lv->pred[at] = (uint32_t)i;
}

/* Raise *ctx to the value of a move without capture, as the values stand. */
static void inner_best(Level *lv, uint64_t i, uint64_t child, bool flip, void *ctx)
{
    (void)i;
    int c = load8(&lv->value[child]), *best = ctx;
    int x = flip ? -c : c;
    *best = x > *best ? x : *best;
}

/* Step 1 for one position: its best exit, whether it has moves without capture, and how
 * many predecessors each of their children has. */
static void first_visit(Level *lv, uint64_t i, const uint16_t *board, int cs)
{
    if (!mover_has_seeds(&lv->t->v, board)) {
        lv->flag[i] = FLAG_PASS;
        return;
    }
    lv->flag[i] = 0;
    lv->exit[i] = (int8_t)each_move(lv, i, board, cs, count_pred, NULL);
}

/* Step 2 for one position: its predecessor lists, and its value after round 0: 0 (the
 * value of play cut off) with moves without capture, its best exit without. */
static void second_visit(Level *lv, uint64_t i, const uint16_t *board, int cs)
{
    if (lv->flag[i] & FLAG_PASS)
        return;
    each_move(lv, i, board, cs, add_pred, NULL);
    lv->value[i] = lv->flag[i] & FLAG_INNER ? 0 : lv->exit[i];
    if (lv->flag[i] & FLAG_INNER)
        lv->dirty[i >> 6] |= 1ULL << (i & 63);   /* each thread owns whole words (CHUNK) */
}

/* Step 3 for one position: the best of its moves as the values stand; when that changes
 * its value, its predecessors are recomputed in the next round. */
static void update(Level *lv, uint64_t i)
{
    uint16_t board[MAX_PITS];
    ranking_unrank(&lv->t->rank, i % lv->count, lv->L, board);
    int best = lv->exit[i];
    each_move(lv, i, board, (int)(i / lv->count), inner_best, &best);
    if (load8(&lv->value[i]) == best)
        return;
    store8(&lv->value[i], (int8_t)best);
    for (uint64_t k = lv->pred_at[i]; k < lv->pred_at[i + 1]; k++) {
        uint64_t j = lv->pred[k];
        __atomic_or_fetch(&lv->next[j >> 6], 1ULL << (j & 63), __ATOMIC_RELAXED);
    }
}

/* The value of a placement without seeds for the side to move: after the pass. */
static void fill_pass(Level *lv, uint64_t i, const uint16_t *board, int cs)
{
    if (!(lv->flag[i] & FLAG_PASS))
        return;
    const Variant *v = &lv->t->v;
    uint16_t turned[MAX_PITS];
    for (int j = 0; j < v->pits; j++)
        turned[j] = board[(j + v->holes) % v->pits];
    int other = cs == 0 ? 0 : 3 - cs;
    uint64_t k = (uint64_t)other * lv->count + ranking_rank(&lv->t->rank, turned, lv->L);
    lv->value[i] = (int8_t)-lv->value[k];
}

/* One pass over every position of the level with f, in parallel chunks of whole bitmap
 * words, each chunk walking its placements in rank order. */
typedef void (*Visit)(Level *lv, uint64_t i, const uint16_t *board, int cs);
static void level_pass(Level *lv, Visit f)
{
    uint64_t chunks = (lv->n + CHUNK - 1) / CHUNK;
    #pragma omp parallel for schedule(dynamic, 1) if (lv->n >= PARALLEL_FROM)
    for (uint64_t ch = 0; ch < chunks; ch++) {
        uint64_t i = ch * CHUNK, end = i + CHUNK < lv->n ? i + CHUNK : lv->n;
        uint16_t board[MAX_PITS];
        ranking_unrank(&lv->t->rank, i % lv->count, lv->L, board);
        for (; i < end; i++) {
            if (i % lv->count == 0)
                ranking_unrank(&lv->t->rank, 0, lv->L, board);
            f(lv, i, board, (int)(i / lv->count));
            ranking_next(&lv->t->rank, board);
        }
    }
}

/* Step 3: rounds over the positions marked, until a round changes nothing; returns the
 * rounds. */
static int level_rounds(Level *lv)
{
    uint64_t words = (lv->n + 63) / 64;
    int rounds = 0;
    for (bool any = true; any; rounds++) {
        uint64_t updates = 0;
        #pragma omp parallel for schedule(dynamic, 64) reduction(+ : updates) \
            if (lv->n >= PARALLEL_FROM)
        for (uint64_t w = 0; w < words; w++) {
            for (uint64_t bits = lv->dirty[w]; bits; bits &= bits - 1) {
                update(lv, w * 64 + (uint64_t)__builtin_ctzll(bits));
                updates++;
            }
        }
        lv->updates += updates;
        any = false;
        #pragma omp parallel for reduction(|| : any) if (lv->n >= PARALLEL_FROM)
        for (uint64_t w = 0; w < words; w++) {
            lv->dirty[w] = lv->next[w];
            lv->next[w] = 0;
            any = any || lv->dirty[w];
        }
    }
    return rounds;
}

/* Exclusive prefix sums of the predecessor counts, made inclusive (the fill counts down). */
static bool pred_lists(Level *lv)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < lv->n; i++) {
        sum += lv->pred_at[i];
        lv->pred_at[i] = sum;
    }
    lv->pred_at[lv->n] = sum;
    lv->pred = malloc((sum ? sum : 1) * sizeof *lv->pred);
    return lv->pred != NULL;
}

/* The work arrays of a level; false when out of memory. */
static bool level_alloc(Level *lv)
{
    uint64_t words = (lv->n + 63) / 64;
    lv->exit = malloc(lv->n);
    lv->flag = malloc(lv->n);
    lv->pred_at = calloc(lv->n + 1, sizeof *lv->pred_at);
    lv->dirty = calloc(words, sizeof *lv->dirty);
    lv->next = calloc(words, sizeof *lv->next);
    return lv->exit && lv->flag && lv->pred_at && lv->dirty && lv->next;
}

/* Free the work arrays of a level. */
static void level_free(Level *lv)
{
    free(lv->exit);
    free(lv->flag);
    free(lv->pred_at);
    free(lv->pred);
    free(lv->dirty);
    free(lv->next);
}

/* Solve level L (the levels below solved): false when out of memory. */
static bool solve_level(Tables *t, int L, int *rounds, uint64_t *updates)
{
    Level lv = { .t = t, .L = L, .count = ranking_count(&t->rank, L) };
    lv.n = lv.count * (uint64_t)t->conv;
    lv.value = t->owned + t->level_at[L];
    bool ok = lv.n < UINT32_MAX && level_alloc(&lv);
    if (ok) {
        level_pass(&lv, first_visit);
        ok = pred_lists(&lv);
    }
    if (ok) {
        level_pass(&lv, second_visit);
        *rounds = level_rounds(&lv);
        *updates = lv.updates;
        level_pass(&lv, fill_pass);
    }
    level_free(&lv);
    return ok;
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
    return tables_build_levels(v, max_seeds, TABLES_ALL_LEVELS, progress, ctx, out, e);
}

int tables_build_levels(const Variant *v, int max_seeds, TablesLevels which,
                        TablesProgress progress, void *ctx, Tables **out, Error *e)
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
        double t0 = omp_get_wtime();
        int rounds = 0;
        uint64_t updates = 0;
        if (!solve_level(t, L, &rounds, &updates)) {
            tables_free(t);
            return error_set(e, "out of memory at level %d", L);
        }
        if (progress)
            progress(L, (uint64_t)t->conv * ranking_count(&t->rank, L), rounds, updates,
                     omp_get_wtime() - t0, ctx);
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
