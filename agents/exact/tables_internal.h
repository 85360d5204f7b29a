/* tables_internal.h: what the files of the endgame tables share, and nothing else:
 * the Tables struct, the index of a position (the build plays moves and looks their
 * children up by it, the probes read values by it), the relaxed one-byte loads and stores of
 * values that threads may be writing, and the two pieces that the build and the file share
 * (the layout of the values and their checksum, in tables_index.c).
 *
 * Which file holds what (tables.h is the interface):
 *   tables_index.c  the ranking of placements, the layout of the values and their checksum,
 *                   and probing: covers, relative, value
 *   tables_build.c  the parallel retrograde build, level by level, its size check and stats
 *   tables_file.c   the file format (docs/tables.md) with its memory mapping, and freeing
 *   tables_cache.c  the process-wide cache of opened files (tables_acquire/tables_release)
 *   tables_compare.c two tables of one board compared, position by position
 *
 * The index helpers are static inline here, not functions of tables_index.c, because the
 * build calls them for every move of every position: they stay as cheap as they were when all
 * of this was one file. */
#ifndef ANYWOLI_TABLES_INTERNAL_H
#define ANYWOLI_TABLES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tables.h"

struct Tables {
    Variant v;                          /* the rules the values are for */
    int format;                         /* the file's format (built: the one written) */
    int max_seeds;                      /* K */
    int first_level;                    /* capture + 1 */
    int conv;                           /* convention states per level: 1 or 3 */
    bool held[TABLES_MAX_SEEDS + 1];    /* the levels stored (others take no room) */
    uint64_t level_at[TABLES_MAX_SEEDS + 2];   /* where each level starts among the values */
    uint64_t positions;                 /* values in all */
    uint64_t checksum;                  /* of the values */
    Ranking rank;
    const int8_t *value;
    int8_t *owned;                      /* the values, when built here */
    void *map;                          /* the mapped file, when opened */
    size_t map_len;
};

/* ---- The index of a position (tables_index.c holds the rest of the ranking) ---- */

/* The slot of below[] for hole i, r seeds to place from it on, c in hole i. */
static inline uint64_t below_at(const Ranking *r, int i, int rest, int c)
{
    return r->below[((size_t)i * (size_t)(r->max_seeds + 1) + (size_t)rest)
                    * (size_t)(r->max_seeds + 2) + (size_t)c];
}

/* The convention state of p: 0, or under first-final who made the first final-seed capture
 * seen from the side to move: 0 nobody, 1 the side to move, 2 the opponent. */
static inline int conv_state(const Tables *t, const Position *p)
{
    if (t->conv == 1 || p->first_final == NOBODY)
        return 0;
    return p->first_final == p->side ? 1 : 2;
}

/* The rank of p's board among the placements of its level, from its side to move's view,
 * read off its non-empty holes only (most are empty in an endgame). The same for tables of
 * any convention of one board: they share the ranking. */
static inline uint64_t placement_rank(const Tables *t, const Position *p)
{
    const Variant *v = &t->v;
    const int n = v->pits, turn = p->side == SOUTH ? 0 : v->holes;
    const uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
    uint64_t seen = turn ? ((p->nonempty >> turn) | (p->nonempty << (n - turn))) & all
                         : p->nonempty;
    int s = p->left;
    uint64_t k = 0;
    for (; seen && s; seen &= seen - 1) {
        int j = __builtin_ctzll(seen), i = j + turn;
        if (j == n - 1)
            break;
        int c = p->pit[i < n ? i : i - n];
        k += below_at(&t->rank, j, s, c);
        s -= c;
    }
    return k;
}

/* Where the value of p (left within the levels) is: its level, its convention state, the
 * rank of its placement. */
static inline uint64_t index_of(const Tables *t, const Position *p)
{
    return t->level_at[p->left] + (uint64_t)conv_state(t, p) * t->rank.count[p->left]
           + placement_rank(t, p);
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

/* ---- Shared by the build and the file (defined in tables_index.c) ---- */

/* The layout of the values: the levels held of first_level .. K (held[L] for each L; NULL:
 * every level), each its convention states in turn. */
int tables_layout(Tables *t, const Variant *v, int max_seeds, const bool *held, Error *e);

/* The checksum of the values (also of the file's header). */
uint64_t values_checksum(const int8_t *x, uint64_t n);

#endif
