/* prover.c: exact values by threshold search, probing endgame tables.
 *
 * The value is solver.h's relative value r(s): the margin the side to move forces from now
 * on. It is found by asking yes/no questions "can the side to move force at least t?" and
 * bisecting t in [-seeds on the board, +seeds on the board]. One question is answered by a
 * depth-first search (alpha-beta with a null window): a move that ends the game, is endless,
 * or leads to a position the tables cover is worth what they say; any other move with gain g
 * to child c answers yes when c's side to move is the mover and it can force t - g, or, when
 * the turn passes, when c's side to move cannot force g - t + 1.
 *
 * Cycles. Along a cycle nothing is captured, so when a position repeats on the current line
 * its question is the same as at its first occurrence (even numbers of turn changes, gains 0).
 * Play that stays on the cycle forever is worth 0, so the repeated position answers 0 >= t.
 * That is exact: for t > 0 the question is whether the side to move can reach an exit worth at
 * least t (play forever fails), for t <= 0 whether the opponent cannot reach one worth less
 * (play forever succeeds): a reachability game, which the player who must reach wins, if at
 * all, with a strategy that never repeats a position (the attractor's), and the other player
 * otherwise keeps out of it forever. So the game stopped at the first repetition has the same
 * answer as the game played forever.
 *
 * The transposition table. An answer found below a position s that used a repetition of a
 * position above s on the line depends on how s was reached, and is not stored; every other
 * answer is that of the game stopped at the first repetition started at s, hence the exact
 * one, and is stored as a bound on r(s) (yes: r >= t; no: r <= t - 1). Each search returns the
 * shallowest line depth its answer depends on: a yes takes the winning move's, a no the
 * shallowest of all its moves'. */
#include "prover.h"
#include "margin.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The deepest line searched: beyond it, the position counts as too large. */
#define PROVER_MAX_DEPTH 20000
/* The stack of the thread that searches: a line of PROVER_MAX_DEPTH positions takes two
 * frames a position (prove and prove_moves, some 500 bytes), more than the usual 8 MiB. */
#define PROVER_STACK ((size_t)PROVER_MAX_DEPTH * 1024 + ((size_t)1 << 20))
/* Buckets of the line's positions by hash (a power of two). */
#define LINE_BUCKETS 65536

/* The search's state: the table of bounds and the current line. */
typedef struct Prover {
    const Variant *v;
    const Tables *tables;
    int stride;               /* bytes per key: the holes (2 bytes each), side and state */
    uint8_t *keys;            /* stride bytes per stored position */
    int16_t *lower, *upper;   /* bounds on r of each stored position */
    uint32_t *slot;           /* open addressing: position + 1, or 0 for a free slot */
    uint64_t mask;            /* slots - 1 */
    uint32_t n, cap;          /* stored positions, and room for them */
    uint64_t nodes, max_nodes;
    uint8_t *line;            /* the keys of the current line, depth by depth */
    uint64_t *line_hash;
    /* The line's positions by hash, to find a repetition without scanning the line: for each
     * of LINE_BUCKETS buckets the deepest depth + 1 on the line whose hash falls in it (0:
     * none), and for each depth the one below it in the same bucket. A line is a stack, so
     * leaving a position takes it off its bucket's chain at once. */
    int32_t *line_head, *line_below;
    Position *kids;           /* the children of the line's positions, holes per depth (on
                               * the heap: a deep line would overflow the stack) */
    bool stopped;             /* the node budget or the depth ran out */
} Prover;

/* The key of p: its holes, side to move and the convention's state (first-final only: the
 * last capturer never decides a value, tables.h). */
static void make_key(const Prover *P, const Position *p, uint8_t *key)
{
    memcpy(key, p->pit, (size_t)P->v->pits * 2);
    int ff = P->v->final_four == FF_FIRST_FINAL ? p->first_final + 1 : 0;
    key[P->stride - 1] = (uint8_t)(p->side | ff << 1);
}

/* FNV-1a over a key, then a final mix. */
static uint64_t key_hash(const uint8_t *key, int n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ key[i]) * 0x100000001b3ULL;
    return rng_mix64(h);
}

/* The stored position of a key, or -1 (*at: the free slot it would take). */
static int64_t find(const Prover *P, const uint8_t *key, uint64_t h, uint64_t *at)
{
    uint64_t i = h & P->mask;
    for (; P->slot[i]; i = (i + 1) & P->mask) {
        uint32_t s = P->slot[i] - 1;
        if (memcmp(P->keys + (uint64_t)s * (uint64_t)P->stride, key, (size_t)P->stride) == 0)
            return s;
    }
    *at = i;
    return -1;
}

/* Record a bound on r of a key: r >= t (yes) or r <= t - 1 (no); nothing when the table is
 * full (the search stays exact, only slower). */
static void store_bound(Prover *P, const uint8_t *key, uint64_t h, int t, bool yes, int left)
{
    uint64_t at;
    int64_t s = find(P, key, h, &at);
    if (s < 0) {
        if (P->n >= P->cap)
            return;
        s = P->n++;
        memcpy(P->keys + (uint64_t)s * (uint64_t)P->stride, key, (size_t)P->stride);
        P->lower[s] = (int16_t)-left;
        P->upper[s] = (int16_t)left;
        P->slot[at] = (uint32_t)s + 1;
    }
    if (yes && t > P->lower[s])
        P->lower[s] = (int16_t)t;
    if (!yes && t - 1 < P->upper[s])
        P->upper[s] = (int16_t)(t - 1);
}

/* One move of p: true with *x its value for the mover when it is known at once (an end, an
 * endless move, a position the tables cover), else false with the child and its gain. */
static bool move_known(const Prover *P, const Position *p, int m, int *x, Position *c, int *g)
{
    MoveInfo info;
    MoveEvent ev = pos_play(P->v, p, m, c, &info, NULL);
    int before = margin_stores(p);
    if (ev == EV_ENDLESS) {
        *x = 0;
        return true;
    }
    if (ev == EV_OVER) {
        *x = margin_final(P->v, c) * (c->side == p->side ? 1 : -1) - before;
        return true;
    }
    *g = c->store[p->side] - c->store[!p->side] - before;
    if (P->tables && tables_covers(P->tables, c)) {
        int r = tables_relative(P->tables, c);
        *x = *g + (c->side == p->side ? r : -r);
        return true;
    }
    return false;
}

static bool prove_moves(Prover *P, const Position *p, int t, int depth, const uint8_t *key,
                        uint64_t h, int *dep);

/* Can the side to move at p (not over, not covered) force a relative value of at least t?
 * *dep receives the shallowest line depth the answer depends on (INT_MAX: none). */
static bool prove(Prover *P, const Position *p, int t, int depth, int *dep)
{
    *dep = INT_MAX;
    int left = p->left;
    if (t <= -left)
        return true;
    if (t > left)
        return false;
    uint8_t *key = P->line + (uint64_t)depth * (uint64_t)P->stride;
    make_key(P, p, key);
    uint64_t h = key_hash(key, P->stride), at;
    int64_t s = find(P, key, h, &at);
    if (s >= 0 && P->lower[s] >= t)
        return true;
    if (s >= 0 && P->upper[s] < t)
        return false;
    int32_t *head = &P->line_head[h & (LINE_BUCKETS - 1)];
    for (int32_t i = *head - 1; i >= 0; i = P->line_below[i] - 1) {
        if (P->line_hash[i] == h
            && memcmp(P->line + (uint64_t)i * (uint64_t)P->stride, key, (size_t)P->stride) == 0) {
            *dep = i;
            return 0 >= t;   /* play goes round forever: worth 0 */
        }
    }
    if (++P->nodes > P->max_nodes || depth + 1 >= PROVER_MAX_DEPTH) {
        P->stopped = true;
        return false;
    }
    P->line_hash[depth] = h;
    P->line_below[depth] = *head;
    *head = depth + 1;
    bool yes = prove_moves(P, p, t, depth, key, h, dep);
    *head = P->line_below[depth];
    return yes;
}

/* prove's moves of p, on the line at depth (its key and hash there). */
static bool prove_moves(Prover *P, const Position *p, int t, int depth, const uint8_t *key,
                        uint64_t h, int *dep)
{
    int left = p->left;
    /* Step 1. Moves whose value is known; any worth t answers yes. */
    Position *kid = P->kids + (uint64_t)depth * (uint64_t)P->v->holes;
    int gain[MAX_HOLES], n = 0;
    for (uint64_t m = pos_legal_mask(P->v, p); m; m &= m - 1) {
        int x;
        if (move_known(P, p, __builtin_ctzll(m), &x, &kid[n], &gain[n])) {
            if (x >= t) {
                store_bound(P, key, h, t, true, left);
                return true;
            }
        } else {
            n++;
        }
    }
    /* Step 2. The others, captures first, then extra moves. */
    int order[MAX_HOLES];
    for (int i = 0; i < n; i++) {
        int j = i, ki = gain[i] * 2 + (kid[i].side == p->side);
        for (; j > 0 && gain[order[j - 1]] * 2 + (kid[order[j - 1]].side == p->side) < ki; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    int shallowest = INT_MAX;
    for (int k = 0; k < n; k++) {
        const Position *c = &kid[order[k]];
        int g = gain[order[k]], d;
        bool yes = c->side == p->side ? prove(P, c, t - g, depth + 1, &d)
                                      : !prove(P, c, g - t + 1, depth + 1, &d);
        if (P->stopped)
            return false;
        if (yes) {
            *dep = d;
            if (d >= depth)
                store_bound(P, key, h, t, true, left);
            return true;
        }
        shallowest = d < shallowest ? d : shallowest;
    }
    *dep = shallowest;
    if (shallowest >= depth)
        store_bound(P, key, h, t, false, left);
    return false;
}

/* The exact relative value of p (not over, not covered), by bisection; false if stopped. */
static bool exact(Prover *P, const Position *p, int *value)
{
    int lo = -p->left, hi = p->left + 1;   /* yes at lo, no at hi */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2, dep;
        bool yes = prove(P, p, mid, 0, &dep);
        if (P->stopped)
            return false;
        if (yes)
            lo = mid;
        else
            hi = mid;
    }
    *value = lo;
    return true;
}

/* The relative value of move m of p for the mover; false if stopped. */
static bool move_value(Prover *P, const Position *p, int m, int *x)
{
    Position c;
    int g;
    if (move_known(P, p, m, x, &c, &g))
        return true;
    int r;
    if (!exact(P, &c, &r))
        return false;
    *x = g + (c.side == p->side ? r : -r);
    return true;
}

/* Compare moves: higher value first, then lower hole. */
static int move_cmp(const void *a, const void *b)
{
    const SolveMove *x = a, *y = b;
    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    return (x->move > y->move) - (x->move < y->move);
}

/* Allocate the table for about max_nodes positions (at most 2^26) and the line. */
static bool prover_alloc(Prover *P, uint64_t max_nodes)
{
    uint64_t cap = max_nodes < (1u << 26) ? max_nodes : (1u << 26), slots = 1024;
    while (slots < 2 * cap)
        slots *= 2;
    P->cap = (uint32_t)cap;
    P->mask = slots - 1;
    P->keys = malloc(cap * (uint64_t)P->stride);
    P->lower = malloc(cap * sizeof *P->lower);
    P->upper = malloc(cap * sizeof *P->upper);
    P->slot = calloc(slots, sizeof *P->slot);
    P->line = malloc((uint64_t)PROVER_MAX_DEPTH * (uint64_t)P->stride);
    P->line_hash = malloc(PROVER_MAX_DEPTH * sizeof *P->line_hash);
    P->line_head = calloc(LINE_BUCKETS, sizeof *P->line_head);
    P->line_below = malloc(PROVER_MAX_DEPTH * sizeof *P->line_below);
    P->kids = malloc((uint64_t)PROVER_MAX_DEPTH * (uint64_t)P->v->holes * sizeof *P->kids);
    return P->keys && P->lower && P->upper && P->slot && P->line && P->line_hash && P->kids
           && P->line_head && P->line_below;
}

/* Free the table and the line. */
static void prover_free(Prover *P)
{
    free(P->keys);
    free(P->lower);
    free(P->upper);
    free(P->slot);
    free(P->line);
    free(P->line_hash);
    free(P->line_head);
    free(P->line_below);
    free(P->kids);
}

/* prover_solve in the thread of its own stack. */
static SolveStatus prover_run(const Variant *v, const Position *p, uint64_t max_nodes,
                              const Tables *tables, SolveResult *r)
{
    memset(r, 0, sizeof *r);
    if (pos_over(v, p)) {
        r->value = margin_final(v, p);
        return SOLVE_OK;
    }
    Prover P = { .v = v, .tables = tables, .stride = v->pits * 2 + 1,
                 .max_nodes = max_nodes ? max_nodes : 1 };
    SolveStatus st = SOLVE_OK;
    if (!prover_alloc(&P, P.max_nodes)) {
        prover_free(&P);
        return SOLVE_NO_MEMORY;
    }
    int base = margin_stores(p), best = INT_MIN;
    for (uint64_t m = pos_legal_mask(v, p); m && st == SOLVE_OK; m &= m - 1) {
        SolveMove *sm = &r->moves[r->n_moves++];
        Position c;
        MoveInfo info;
        int x = 0;
        sm->move = __builtin_ctzll(m);
        sm->event = pos_play(v, p, sm->move, &c, &info, NULL);
        if (!move_value(&P, p, sm->move, &x))
            st = SOLVE_TOO_LARGE;
        sm->value = base + x;
        best = x > best ? x : best;
    }
    qsort(r->moves, (size_t)r->n_moves, sizeof r->moves[0], move_cmp);
    r->value = base + best;
    r->states = P.n;
    r->edges = P.nodes;
    prover_free(&P);
    return st;
}

/* prover_solve's arguments and status, for its thread. */
typedef struct ProverJob {
    const Variant *v;
    const Position *p;
    uint64_t max_nodes;
    const Tables *tables;
    SolveResult *r;
    SolveStatus status;
} ProverJob;

static void *prover_thread(void *arg)
{
    ProverJob *j = arg;
    j->status = prover_run(j->v, j->p, j->max_nodes, j->tables, j->r);
    return NULL;
}

SolveStatus prover_solve(const Variant *v, const Position *p, uint64_t max_nodes,
                         const Tables *tables, SolveResult *r)
{
    /* The search recurses once a position of the line: it runs in a thread whose stack
     * holds the deepest line (PROVER_STACK), whatever the caller's stack is. */
    ProverJob j = { v, p, max_nodes, tables, r, SOLVE_NO_MEMORY };
    pthread_attr_t attr;
    pthread_t thread;
    memset(r, 0, sizeof *r);
    if (pthread_attr_init(&attr) != 0)
        return SOLVE_NO_MEMORY;
    bool ok = pthread_attr_setstacksize(&attr, PROVER_STACK) == 0
              && pthread_create(&thread, &attr, prover_thread, &j) == 0;
    pthread_attr_destroy(&attr);
    if (ok)
        pthread_join(thread, NULL);
    return j.status;
}
