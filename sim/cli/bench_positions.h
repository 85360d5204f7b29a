/* bench_positions.h: the fixed middle-game positions of bench's searches (APN, standard
 * board), shared with the search tests. */
#ifndef ANYWOLI_BENCH_POSITIONS_H
#define ANYWOLI_BENCH_POSITIONS_H

#define BENCH_POSITIONS 32

/* The positions, in bench's order. */
extern const char *const bench_positions[BENCH_POSITIONS];

#endif
