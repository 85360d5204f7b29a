/* choice.c: the seeded choice of a move among a search's near-best root moves, the one
 * mechanism behind the `margin` and `temperature` options of alpha-beta and MCTS: the
 * searches say how much each candidate weighs, this file draws one. */
#include <stdbool.h>

#include "agents_internal.h"

/* The sub-stream of an agent's stream that its choices among near-best moves draw from. */
#define CHOICE_SUBSTREAM 0x63686f696365ULL   /* "choice" */

Rng choice_stream(const Rng *rng, uint64_t position_hash)
{
    /* From the key alone, never the counter: the draw does not move the stream the search
     * itself draws from (ties, MCTS's expansions and playouts), and a position's draw is the
     * same whatever the search drew before it. The position's hash tells the moves of one
     * game apart. */
    Rng mine = rng_substream(rng, CHOICE_SUBSTREAM);
    return rng_substream(&mine, position_hash);
}

/* Whether every positive weight of weight[0..n) is the same: an exactly uniform draw. */
static bool weights_equal(const double *weight, int n, int *positive)
{
    double first = 0;
    bool equal = true;
    *positive = 0;
    for (int i = 0; i < n; i++) {
        if (weight[i] <= 0)
            continue;
        if (*positive == 0)
            first = weight[i];
        equal = equal && weight[i] == first;
        ++*positive;
    }
    return equal;
}

bool choice_this_move(uint64_t *moves, int64_t limit)
{
    return limit == 0 || (*moves)++ < (uint64_t)limit;
}

int choice_draw(const double *weight, int n, Rng *r)
{
    int positive;
    if (weights_equal(weight, n, &positive)) {
        /* Uniform: the k-th candidate by a rejection draw, free of rounding. */
        int k = (int)rng_below(r, (uint32_t)positive);
        for (int i = 0; i < n; i++)
            if (weight[i] > 0 && k-- == 0)
                return i;
    }
    double total = 0;
    for (int i = 0; i < n; i++)
        total += weight[i] > 0 ? weight[i] : 0;
    double x = rng_unit(r) * total;
    int last = 0;
    for (int i = 0; i < n; i++) {
        if (weight[i] <= 0)
            continue;
        last = i;
        if (x < weight[i])
            return i;
        x -= weight[i];
    }
    return last;   /* x rounded past the total: the last candidate */
}
