/* tables.c: endgame tables by retrograde analysis, level by level.
 *
 * Levels. A level is the positions with L seeds on the board. A move either captures (the
 * child has fewer seeds: a lower level, already solved, or the end of the game) or does not
 * (the child is on the same level). So levels capture+1 .. K are solved in increasing order,
 * and inside a level only the moves without capture remain unknown: they are the level's
 * own graph, which may have cycles.
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
 * Index. Within a level a position is (convention state, placement of its L seeds seen from
 * the side to move: its own row first), numbered by the ranking of placements, so that no
 * key is stored. Placements in which the side to move has no seeds are not positions (it
 * would pass); they hold the value after the pass, the negation of the position turned
 * round. */
#include "tables.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "input_file.h"
#include "solver.h"

/* The header: a fixed 4096 bytes (docs/tables.md), then the values. */
#define HEADER_BYTES 4096
#define HEADER_DESCRIBE_AT 2048
#define HEADER_CHECKSUM_AT (HEADER_BYTES - 8)
static const char magic[16] = "ANYWOLI TABLES\n";

/* Placements handled per chunk of a parallel loop. */
#define CHUNK 4096
/* Levels smaller than this are solved by one thread: threads cost more than they save. */
#define PARALLEL_FROM 100000

struct Tables {
    Variant v;                          /* the rules the values are for */
    int max_seeds;                      /* K */
    int first_level;                    /* capture + 1 */
    int conv;                           /* convention states per level: 1 or 3 */
    uint64_t level_at[TABLES_MAX_SEEDS + 2];   /* where each level starts among the values */
    uint64_t positions;                 /* values in all */
    uint64_t checksum;                  /* of the values */
    Ranking rank;
    const int8_t *value;
    int8_t *owned;                      /* the values, when built here */
    void *map;                          /* the mapped file, when opened */
    size_t map_len;
};

/* ---- Ranking of placements ---- */

/* The placements of s seeds into k holes: C(s + k - 1, k - 1); 0 holes take only 0 seeds. */
static uint64_t placements(int s, int k)
{
    if (k == 0)
        return s == 0;
    unsigned __int128 c = 1;
    for (int i = 1; i <= s; i++)
        c = c * (unsigned)(k - 1 + i) / (unsigned)i;   /* exact at every step */
    return c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

/* The slot of below[] for hole i, r seeds to place from it on, c in hole i. */
static inline uint64_t below_at(const Ranking *r, int i, int rest, int c)
{
    return r->below[((size_t)i * (size_t)(r->max_seeds + 1) + (size_t)rest)
                    * (size_t)(r->max_seeds + 2) + (size_t)c];
}

int ranking_init(Ranking *r, int n, int max_seeds)
{
    r->n = n;
    r->max_seeds = max_seeds;
    size_t m = (size_t)n * (size_t)(max_seeds + 1) * (size_t)(max_seeds + 2);
    r->below = calloc(m, sizeof *r->below);
    if (!r->below || max_seeds > TABLES_MAX_SEEDS || placements(max_seeds, n) == UINT64_MAX)
        return -1;
    for (int c = 0; c <= max_seeds; c++)
        r->count[c] = placements(c, n);
    for (int i = 0; i < n; i++) {
        for (int rest = 0; rest <= max_seeds; rest++) {
            uint64_t *row = &r->below[((size_t)i * (size_t)(max_seeds + 1) + (size_t)rest)
                                      * (size_t)(max_seeds + 2)];
            for (int c = 0; c <= rest; c++)
                row[c + 1] = row[c] + placements(rest - c, n - 1 - i);
            for (int c = rest + 2; c <= max_seeds + 1; c++)
                row[c] = row[rest + 1];
        }
    }
    return 0;
}

void ranking_free(Ranking *r)
{
    free(r->below);
    r->below = NULL;
}

uint64_t ranking_count(const Ranking *r, int s)
{
    return s <= r->max_seeds ? r->count[s] : placements(s, r->n);
}

uint64_t ranking_rank(const Ranking *r, const uint16_t *board, int s)
{
    uint64_t k = 0;
    for (int i = 0; i < r->n - 1 && s; i++) {
        k += below_at(r, i, s, board[i]);
        s -= board[i];
    }
    return k;
}

void ranking_unrank(const Ranking *r, uint64_t k, int s, uint16_t *board)
{
    memset(board, 0, (size_t)r->n * sizeof *board);
    for (int i = 0; i < r->n - 1 && s; i++) {
        int c = 0;
        while (c < s && below_at(r, i, s, c + 1) <= k)
            c++;
        k -= below_at(r, i, s, c);
        board[i] = (uint16_t)c;
        s -= c;
    }
    board[r->n - 1] = (uint16_t)s;
}

bool ranking_next(const Ranking *r, uint16_t *board)
{
    /* The last non-empty hole after the first gives one seed to the hole before it and the
     * rest to the last hole: the smallest placement with that hole larger. */
    int j = r->n - 1;
    while (j > 0 && board[j] == 0)
        j--;
    if (j == 0)
        return false;
    uint16_t s = board[j];
    board[j] = 0;
    board[j - 1]++;
    board[r->n - 1] = (uint16_t)(s - 1);
    return true;
}

/* ---- Positions and their index ---- */

/* The convention state of p: 0, or under first-final who made the first final-seed capture
 * seen from the side to move: 0 nobody, 1 the side to move, 2 the opponent. */
static int conv_state(const Tables *t, const Position *p)
{
    if (t->conv == 1 || p->first_final == NOBODY)
        return 0;
    return p->first_final == p->side ? 1 : 2;
}

/* Where the value of p (left within the levels) is: the rank of its board from its side to
 * move's view, read off its non-empty holes only (most are empty in an endgame). */
static uint64_t index_of(const Tables *t, const Position *p)
{
    const Variant *v = &t->v;
    const int n = v->pits, turn = p->side == SOUTH ? 0 : v->holes;
    const uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
    uint64_t seen = turn ? ((p->nonempty >> turn) | (p->nonempty << (n - turn))) & all
                         : p->nonempty;
    int L = p->left, s = L;
    uint64_t k = 0;
    for (; seen && s; seen &= seen - 1) {
        int j = __builtin_ctzll(seen), i = j + turn;
        if (j == n - 1)
            break;
        int c = p->pit[i < n ? i : i - n];
        k += below_at(&t->rank, j, s, c);
        s -= c;
    }
    return t->level_at[L] + (uint64_t)conv_state(t, p) * t->rank.count[L] + k;
}

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

/* A value as it stands (other threads may be writing values of the same level). */
static inline int8_t load8(const int8_t *x)
{
    return __atomic_load_n(x, __ATOMIC_RELAXED);
}

/* Set a value that other threads may be reading. */
static inline void store8(int8_t *x, int8_t y)
{
    __atomic_store_n(x, y, __ATOMIC_RELAXED);
}

bool tables_covers(const Tables *t, const Position *p)
{
    return p->left <= t->max_seeds && p->left >= t->first_level;
}

int tables_relative(const Tables *t, const Position *p)
{
    return load8(&t->value[index_of(t, p)]);
}

int tables_value(const Tables *t, const Position *p)
{
    if (pos_over(&t->v, p))
        return solver_final_margin(&t->v, p);
    return solver_store_margin(p) + tables_relative(t, p);
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

/* The layout of the values: levels first_level .. K, each its convention states in turn. */
static int tables_layout(Tables *t, const Variant *v, int max_seeds, Error *e)
{
    t->v = *v;
    t->max_seeds = max_seeds;
    t->first_level = v->capture + 1;
    t->conv = v->final_four == FF_FIRST_FINAL ? 3 : 1;
    if (ranking_init(&t->rank, v->pits, max_seeds) != 0)
        return error_set(e, "tables for %d seeds on %d holes: too many positions", max_seeds,
                         v->pits);
    uint64_t at = 0;
    for (int L = 0; L <= max_seeds + 1; L++) {
        t->level_at[L] = at;
        if (L >= t->first_level && L <= max_seeds)
            at += (uint64_t)t->conv * ranking_count(&t->rank, L);
    }
    t->positions = at;
    return 0;
}

/* The checksum of the values: FNV-1a's multiplier over 8-byte little-endian words (the last
 * padded with zeros), each step followed by a shift-xor, then the length mixed in. */
static uint64_t values_checksum(const int8_t *x, uint64_t n)
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
static int check_size(Tables *t, const Variant *v, int max_seeds, Error *e)
{
    if (max_seeds <= v->capture || max_seeds > TABLES_MAX_SEEDS || max_seeds > v->total)
        return error_set(e, "--max-seeds: %d is out of range (%d to %d for this variant)",
                         max_seeds, v->capture + 1,
                         v->total < TABLES_MAX_SEEDS ? v->total : TABLES_MAX_SEEDS);
    if (tables_layout(t, v, max_seeds, e) != 0)
        return -1;
    uint64_t top = (uint64_t)t->conv * ranking_count(&t->rank, max_seeds);
    if (top >= UINT32_MAX)
        return error_set(e, "--max-seeds %d: level %d alone has %llu positions, more than the "
                         "2^32 a level may have (a smaller K fits)", max_seeds, max_seeds,
                         (unsigned long long)top);
    return 0;
}

int tables_check_size(const Variant *v, int max_seeds, Error *e)
{
    Tables *t = calloc(1, sizeof *t);
    if (!t)
        return error_set(e, "out of memory");
    int rc = check_size(t, v, max_seeds, e);
    tables_free(t);
    return rc;
}

int tables_build(const Variant *v, int max_seeds, TablesProgress progress, void *ctx,
                 Tables **out, Error *e)
{
    Tables *t = calloc(1, sizeof *t);
    if (!t)
        return error_set(e, "out of memory");
    if (check_size(t, v, max_seeds, e) != 0) {
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

void tables_free(Tables *t)
{
    if (!t)
        return;
    ranking_free(&t->rank);
    free(t->owned);
    if (t->map)
        munmap(t->map, t->map_len);
    free(t);
}

/* What the tables cover (tables.h). */
const Variant *tables_variant(const Tables *t) { return &t->v; }
int tables_max_seeds(const Tables *t) { return t->max_seeds; }
int tables_first_level(const Tables *t) { return t->first_level; }
int tables_conv_states(const Tables *t) { return t->conv; }
uint64_t tables_positions(const Tables *t) { return t->positions; }
uint64_t tables_checksum(const Tables *t) { return t->checksum; }

uint64_t tables_level_positions(const Tables *t, int level)
{
    if (level < t->first_level || level > t->max_seeds)
        return 0;
    return ranking_count(&t->rank, level);
}

void tables_level_stats(const Tables *t, int level, TablesLevelStats *s)
{
    memset(s, 0, sizeof *s);
    if (level < t->first_level || level > t->max_seeds)
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

/* ---- The file ---- */

/* Little-endian numbers in the header. */
static void put32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(x >> 8 * i);
}

static void put64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> 8 * i);
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t x = 0;
    for (int i = 0; i < 4; i++)
        x |= (uint32_t)p[i] << 8 * i;
    return x;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x |= (uint64_t)p[i] << 8 * i;
    return x;
}

/* The header's fields, at their offsets (docs/tables.md). */
enum {
    H_VERSION = 16, H_HEADER_BYTES = 20, H_HOLES = 24, H_SEEDS = 28, H_CAPTURE = 32,
    H_FINAL_FOUR = 36, H_EXTRA_TURN = 40, H_SKIP_ORIGIN = 44, H_MAX_PLIES = 48,
    H_MAX_SEEDS = 56, H_FIRST_LEVEL = 60, H_CONV = 64, H_VALUE_BYTES = 68, H_POSITIONS = 72,
    H_CHECKSUM = 80, H_LEVELS = 88   /* then K + 1 counts, 8 bytes each */
};

/* The header of t. */
static void header_write(const Tables *t, uint8_t *h)
{
    memset(h, 0, HEADER_BYTES);
    memcpy(h, magic, sizeof magic);
    put32(h + H_VERSION, TABLES_FORMAT_VERSION);
    put32(h + H_HEADER_BYTES, HEADER_BYTES);
    put32(h + H_HOLES, (uint32_t)t->v.holes);
    put32(h + H_SEEDS, (uint32_t)t->v.seeds);
    put32(h + H_CAPTURE, (uint32_t)t->v.capture);
    put32(h + H_FINAL_FOUR, (uint32_t)t->v.final_four);
    put32(h + H_EXTRA_TURN, t->v.extra_turn);
    put32(h + H_SKIP_ORIGIN, t->v.skip_origin);
    put64(h + H_MAX_PLIES, (uint64_t)t->v.max_plies);
    put32(h + H_MAX_SEEDS, (uint32_t)t->max_seeds);
    put32(h + H_FIRST_LEVEL, (uint32_t)t->first_level);
    put32(h + H_CONV, (uint32_t)t->conv);
    put32(h + H_VALUE_BYTES, 1);
    put64(h + H_POSITIONS, t->positions);
    put64(h + H_CHECKSUM, t->checksum);
    for (int L = 0; L <= t->max_seeds; L++)
        put64(h + H_LEVELS + 8 * L, (uint64_t)t->conv * tables_level_positions(t, L));
    variant_describe(&t->v, (char *)h + HEADER_DESCRIBE_AT, 512);
    put64(h + HEADER_CHECKSUM_AT, values_checksum((const int8_t *)h, HEADER_CHECKSUM_AT));
}

/* Write n bytes; false on error. */
static bool write_all(int fd, const void *buf, uint64_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (uint64_t)w;
    }
    return true;
}

int tables_save(const Tables *t, const char *path, Error *e)
{
    uint8_t h[HEADER_BYTES];
    header_write(t, h);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return error_set(e, "%s: cannot write: %s", path, strerror(errno));
    bool ok = write_all(fd, h, HEADER_BYTES) && write_all(fd, t->value, t->positions)
              && fsync(fd) == 0;
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        unlink(path);
        return error_set(e, "%s: cannot write: %s", path, strerror(err));
    }
    return 0;
}

/* Check the header against what this program reads; fill t's layout from it. */
static int header_read(Tables *t, const uint8_t *h, uint64_t size, const char *path, Error *e)
{
    if (size < HEADER_BYTES || memcmp(h, magic, sizeof magic) != 0)
        return error_set(e, "%s: not an Anywoli tables file", path);
    if (get32(h + H_VERSION) != TABLES_FORMAT_VERSION)
        return error_set(e, "%s: tables format %u, this program reads format %d", path,
                         get32(h + H_VERSION), TABLES_FORMAT_VERSION);
    if (get64(h + HEADER_CHECKSUM_AT) != values_checksum((const int8_t *)h, HEADER_CHECKSUM_AT))
        return error_set(e, "%s: damaged header (checksum mismatch)", path);
    Variant v;
    variant_default(&v);
    v.holes = (int)get32(h + H_HOLES);
    v.seeds = (int)get32(h + H_SEEDS);
    v.capture = (int)get32(h + H_CAPTURE);
    v.final_four = (FinalFour)get32(h + H_FINAL_FOUR);
    v.extra_turn = get32(h + H_EXTRA_TURN) != 0;
    v.skip_origin = get32(h + H_SKIP_ORIGIN) != 0;
    v.max_plies = (int64_t)get64(h + H_MAX_PLIES);
    int k = (int)get32(h + H_MAX_SEEDS);
    Error sub = { "the convention is unknown" };
    if (get32(h + H_FINAL_FOUR) >= FF_NB || variant_finish(&v, &sub) != 0)
        return error_set(e, "%s: bad variant in the header: %s", path, sub.msg);
    if (k <= v.capture || k > TABLES_MAX_SEEDS || k > v.total || get32(h + H_VALUE_BYTES) != 1)
        return error_set(e, "%s: bad header: max_seeds %d", path, k);
    if (tables_layout(t, &v, k, e) != 0)
        return -1;
    if (get64(h + H_POSITIONS) != t->positions || (int)get32(h + H_CONV) != t->conv)
        return error_set(e, "%s: bad header: %llu positions, expected %llu", path,
                         (unsigned long long)get64(h + H_POSITIONS),
                         (unsigned long long)t->positions);
    if (size != HEADER_BYTES + t->positions)
        return error_set(e, "%s: %llu bytes, expected %llu (truncated or extended)", path,
                         (unsigned long long)size,
                         (unsigned long long)(HEADER_BYTES + t->positions));
    t->checksum = get64(h + H_CHECKSUM);
    return 0;
}

/* Check every stored value against the bound the format gives, |value| <= L on level L (a
 * side cannot gain more seeds than the board holds): a file with a valid checksum can still
 * hold values no build writes. */
static int values_check(const Tables *t, const char *path, Error *e)
{
    for (int L = t->first_level; L <= t->max_seeds; L++) {
        const int8_t *x = t->value + t->level_at[L];
        uint64_t n = t->level_at[L + 1] - t->level_at[L];
        for (uint64_t i = 0; i < n; i++) {
            if (x[i] < -L || x[i] > L)
                return error_set(e, "%s: damaged values (level %d, position %llu: %d, "
                                 "expected -%d to %d)", path, L, (unsigned long long)i, x[i],
                                 L, L);
        }
    }
    return 0;
}

int tables_open(const char *path, Tables **out, Error *e)
{
    int fd = input_file_open(path, e);
    if (fd < 0)
        return -1;
    struct stat st;
    uint8_t h[HEADER_BYTES];
    memset(h, 0, sizeof h);
    Tables *t = calloc(1, sizeof *t);
    int rc = -1;
    if (!t)
        error_set(e, "out of memory");
    else if (fstat(fd, &st) != 0)
        error_set(e, "%s: cannot read: %s", path, strerror(errno));
    else if (pread(fd, h, HEADER_BYTES, 0) < 0)
        error_set(e, "%s: cannot read: %s", path, strerror(errno));
    else if (header_read(t, h, (uint64_t)st.st_size, path, e) == 0) {
        t->map_len = (size_t)st.st_size;
        t->map = mmap(NULL, t->map_len, PROT_READ, MAP_SHARED, fd, 0);
        if (t->map == MAP_FAILED) {
            t->map = NULL;
            error_set(e, "%s: cannot map: %s", path, strerror(errno));
        } else {
            t->value = (const int8_t *)t->map + HEADER_BYTES;
            if (values_checksum(t->value, t->positions) != t->checksum)
                error_set(e, "%s: damaged values (checksum mismatch)", path);
            else
                rc = values_check(t, path, e);
        }
    }
    close(fd);
    if (rc != 0) {
        tables_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

bool tables_match(const Tables *t, const Variant *v)
{
    const Variant *w = &t->v;
    return w->holes == v->holes && w->seeds == v->seeds && w->capture == v->capture
           && w->final_four == v->final_four && w->extra_turn == v->extra_turn
           && w->skip_origin == v->skip_origin;
}

int tables_check_variant(const Tables *t, const Variant *v, const char *path, Error *e)
{
    const Variant *w = &t->v;
    if (tables_match(t, v))
        return 0;
    char have[256], want[256];
    variant_describe(w, have, sizeof have);
    variant_describe(v, want, sizeof want);
    return error_set(e, "%s: the tables are for %s, not %s", path, have, want);
}

/* ---- Sharing ---- */

/* Tables opened by path: each file is mapped and checked once, however many agents (in
 * however many threads) use it. */
typedef struct Shared {
    char *path;
    Tables *t;
    int users;
    struct Shared *next;
} Shared;

static Shared *shared;

int tables_acquire(const char *path, const Tables **out, Error *e)
{
    int rc = 0;
    #pragma omp critical(anywoli_tables)
    {
        Shared *s = shared;
        while (s && strcmp(s->path, path) != 0)
            s = s->next;
        if (!s) {
            Tables *t;
            s = calloc(1, sizeof *s);
            if (!s || !(s->path = strdup(path))) {
                rc = error_set(e, "out of memory");
            } else if ((rc = tables_open(path, &t, e)) == 0) {
                s->t = t;
                s->next = shared;
                shared = s;
            }
            if (rc != 0) {
                if (s)
                    free(s->path);
                free(s);
                s = NULL;
            }
        }
        if (s) {
            s->users++;
            *out = s->t;
        }
    }
    return rc;
}

void tables_release(const Tables *t)
{
    if (!t)
        return;
    #pragma omp critical(anywoli_tables)
    {
        for (Shared **at = &shared; *at; at = &(*at)->next) {
            Shared *s = *at;
            if (s->t == t) {
                if (--s->users == 0) {
                    *at = s->next;
                    tables_free(s->t);
                    free(s->path);
                    free(s);
                }
                break;
            }
        }
    }
}
