/* distinct.c: distinct games by sorting their hashes. */
#include "distinct.h"

#include <math.h>
#include <stdlib.h>

/* qsort's order of two uint64_t. */
static int hash_order(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

DistinctGames distinct_games(uint64_t *hashes, size_t n)
{
    DistinctGames d = { n, 0, 0, 0.0 };
    if (n == 0)
        return d;
    qsort(hashes, n, sizeof *hashes, hash_order);
    double squares = 0;
    for (size_t i = 0, run; i < n; i += run) {
        for (run = 1; i + run < n && hashes[i + run] == hashes[i]; run++)
            ;
        d.distinct++;
        d.most_repeated = run > d.most_repeated ? run : d.most_repeated;
        squares += (double)run * (double)run;
    }
    d.effective = (double)n * (double)n / squares;
    return d;
}

bool distinct_games_few(const DistinctGames *d)
{
    return d->games > 0 && (double)d->distinct < DISTINCT_WARN_BELOW * (double)d->games;
}

double distinct_top_share(const DistinctGames *d)
{
    return d->games ? (double)d->most_repeated / (double)d->games : NAN;
}

bool distinct_lines_few(const DistinctGames *d)
{
    return d->games > 0 && distinct_top_share(d) >= LINES_WARN_TOP_SHARE;
}
