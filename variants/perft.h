/* perft.h: move-path counts, the standard check that a rules engine is exact. */
#ifndef ANYWOLI_PERFT_H
#define ANYWOLI_PERFT_H

#include <stdint.h>

#include "position.h"

/* What the counted moves did, for debugging a mismatch. */
typedef struct PerftStats {
    uint64_t laps;       /* laps sown */
    uint64_t captures;   /* captures of either kind */
    uint64_t ended;      /* moves that ended the game */
    uint64_t endless;    /* endless moves met (not paths) */
} PerftStats;

/* The number of move sequences of exactly `depth` plies from p. A game that ends earlier
 * contributes nothing deeper; an endless move is not a path. stats may be NULL. */
uint64_t perft(const Variant *v, const Position *p, int depth, PerftStats *stats);

#endif
