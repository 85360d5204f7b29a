/* tables_index.c: where a position's value is, and reading it. It owns the ranking of seed
 * placements and the probes (tables_covers, tables_relative, tables_value) with what a set
 * of tables covers; it is apart from the build and the file because it is what every user
 * of tables needs: the build looks each child up by it, and once a file is open the solver
 * and alpha-beta use nothing else. The layout of the values and their checksum are here too:
 * the build lays out what it solves and the file what it maps, by the same two functions.
 *
 * Index. Within a level a position is (convention state, placement of its L seeds seen from
 * the side to move: its own row first), numbered by the ranking of placements, so that no
 * key is stored. Placements in which the side to move has no seeds are not positions (it
 * would pass); they hold the value after the pass, the negation of the position turned
 * round. The index of a position itself (index_of) is in tables_internal.h, inline, because
 * the build uses it for every move it plays. */
#include "tables_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "margin.h"


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

/* ---- Probing ---- */

bool tables_level_reachable(const Variant *v, int level)
{
    return level >= 0 && level <= v->total && (v->total - level) % v->capture == 0;
}

bool tables_holds_level(const Tables *t, int level)
{
    return level >= t->first_level && level <= t->max_seeds && t->held[level];
}

bool tables_covers(const Tables *t, const Position *p)
{
    return tables_holds_level(t, p->left);
}

int tables_missing_level(const Tables *t, const Position *p)
{
    int L = p->left;
    if (L > t->max_seeds)   /* the highest level at or below K that p's play reaches */
        L -= (L - t->max_seeds + t->v.capture - 1) / t->v.capture * t->v.capture;
    for (; L >= t->first_level; L -= t->v.capture)
        if (!t->held[L])
            return L;
    return 0;
}

void tables_describe_levels(const Tables *t, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int L = t->first_level; L <= t->max_seeds && at < size; L++)
        if (t->held[L])
            at += (size_t)snprintf(buf + at, size - at, "%s%d", at ? ", " : "", L);
    if (at == 0)
        snprintf(buf, size, "none");
}

int tables_relative(const Tables *t, const Position *p)
{
    return load8(&t->value[index_of(t, p)]);
}

int tables_value(const Tables *t, const Position *p)
{
    if (pos_over(&t->v, p))
        return margin_final(&t->v, p);
    return margin_stores(p) + tables_relative(t, p);
}

int tables_move_value(const Tables *t, const Position *p, int m)
{
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(&t->v, p, m, &c, &info, NULL);
    if (ev == EV_ENDLESS)
        return margin_stores(p);        /* the game ends as it stood before the move */
    if (ev == EV_OVER)
        return margin_final(&t->v, &c);   /* for c.side, the mover */
    return c.side == p->side ? tables_value(t, &c) : -tables_value(t, &c);
}

/* What the tables cover (tables.h). */
const Variant *tables_variant(const Tables *t) { return &t->v; }
int tables_format(const Tables *t) { return t->format; }
int tables_max_seeds(const Tables *t) { return t->max_seeds; }
int tables_first_level(const Tables *t) { return t->first_level; }
int tables_conv_states(const Tables *t) { return t->conv; }
uint64_t tables_positions(const Tables *t) { return t->positions; }
uint64_t tables_checksum(const Tables *t) { return t->checksum; }

uint64_t tables_level_positions(const Tables *t, int level)
{
    if (!tables_holds_level(t, level))
        return 0;
    return ranking_count(&t->rank, level);
}

/* ---- The layout of the values and their checksum (the build and the file share them) ---- */

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
