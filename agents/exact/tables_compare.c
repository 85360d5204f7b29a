/* tables_compare.c: the values of tables of one board under two conventions, compared
 * position by position on a level (`anywoli tables compare`). It reads the values by their
 * index directly, in rank order, so a level is one sequential pass over each file; the
 * positions are South to move only, since a position with North to move is stored as the
 * same position turned round. */
#include "tables_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tables_check_comparable(const Tables *a, const char *path_a, const Tables *b,
                            const char *path_b, Error *e)
{
    Variant v = b->v;
    v.final_four = a->v.final_four;
    if (!tables_match(a, &v)) {
        char have[256], want[256];
        variant_describe(&b->v, have, sizeof have);
        variant_describe(&a->v, want, sizeof want);
        return error_set(e, "%s: the tables are for %s, another board than %s's %s (compare "
                         "tables that differ in final_four only)", path_b, have, path_a, want);
    }
    if (a->v.final_four == b->v.final_four)
        return error_set(e, "%s: final_four %s, as %s (compare tables of different "
                         "conventions)", path_b, final_four_name(b->v.final_four), path_a);
    if (a->max_seeds != b->max_seeds)
        return error_set(e, "%s: max_seeds %d, %s has %d (compare tables of the same K)",
                         path_b, b->max_seeds, path_a, a->max_seeds);
    if (memcmp(a->held, b->held, sizeof a->held) != 0) {
        char la[512], lb[512];
        tables_describe_levels(a, la, sizeof la);
        tables_describe_levels(b, lb, sizeof lb);
        return error_set(e, "%s: levels %s, %s holds %s (compare tables of the same levels)",
                         path_b, lb, path_a, la);
    }
    return 0;
}

/* The value of placement k of level L in convention state cs (state 0 of a one-state table). */
static int value_at(const Tables *t, int L, int cs, uint64_t k)
{
    uint64_t state = t->conv == 1 ? 0 : (uint64_t)cs;
    return t->value[t->level_at[L] + state * t->rank.count[L] + k];
}

/* The sign of a value: the result for the side to move. */
static int result_of(int x)
{
    return (x > 0) - (x < 0);
}

/* Count one position's pair of values (placement rank k, state cs) into d. */
static void count_pair(TablesDiff *d, int x, int y, uint64_t k, int cs)
{
    int diff = abs(x - y);
    d->positions++;
    d->value_differs += diff != 0;
    d->result_differs += result_of(x) != result_of(y);
    d->largest = diff > d->largest ? diff : d->largest;
    if (d->by_diff[diff]++ == 0) {
        d->first_rank[diff] = k;
        d->first_cs[diff] = (uint8_t)cs;
    }
}

void tables_compare_level(const Tables *a, const Tables *b, int level, int cs, TablesDiff *d)
{
    memset(d, 0, sizeof *d);
    d->level = level;
    if (!tables_holds_level(a, level) || !tables_holds_level(b, level))
        return;
    const Variant *v = &a->v;
    uint16_t board[MAX_PITS];
    ranking_unrank(&a->rank, 0, level, board);
    for (uint64_t k = 0; k < a->rank.count[level]; k++, ranking_next(&a->rank, board)) {
        bool mover = false;
        for (int i = 0; i < v->holes && !mover; i++)
            mover = board[i] != 0;
        if (mover)   /* else a pass, not a position */
            count_pair(d, value_at(a, level, cs, k), value_at(b, level, cs, k), k, cs);
    }
}

void tables_diff_add(TablesDiff *sum, const TablesDiff *d)
{
    sum->level = d->level;
    sum->positions += d->positions;
    sum->value_differs += d->value_differs;
    sum->result_differs += d->result_differs;
    sum->largest = d->largest > sum->largest ? d->largest : sum->largest;
    for (int x = 0; x <= TABLES_MAX_DIFF; x++) {
        if (sum->by_diff[x] == 0 && d->by_diff[x] != 0) {
            sum->first_rank[x] = d->first_rank[x];
            sum->first_cs[x] = d->first_cs[x];
        }
        sum->by_diff[x] += d->by_diff[x];
    }
}

void tables_diff_example(const Tables *t, const TablesDiff *d, int diff, Position *p)
{
    const Variant *v = &t->v;
    int L = d->level, cs = d->first_cs[diff], captured = v->total - L;
    uint16_t board[MAX_PITS];
    ranking_unrank(&t->rank, d->first_rank[diff], L, board);
    memset(p, 0, sizeof *p);
    for (int i = 0; i < v->pits; i++)
        p->pit[i] = board[i];
    p->left = (uint16_t)L;
    p->store[NORTH] = (uint16_t)(captured / 2);
    p->store[SOUTH] = (uint16_t)(captured - captured / 2);
    p->side = SOUTH;
    p->last_capturer = (int8_t)(captured ? SOUTH : NOBODY);
    p->first_final = (int8_t)(cs == 0 ? NOBODY : cs == 1 ? SOUTH : NORTH);
    pos_set_masks(v, p);
}
