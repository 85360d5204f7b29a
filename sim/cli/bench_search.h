/* bench_search.h: the search part of `anywoli bench`: fixed searches from fixed middle-game
 * positions, timed, with a signature of their node counts and moves. */
#ifndef ANYWOLI_BENCH_SEARCH_H
#define ANYWOLI_BENCH_SEARCH_H

#include <stdint.h>

/* What the fixed searches did. */
typedef struct SearchBench {
    int positions;            /* middle-game positions searched */
    int depth;                /* alpha-beta depth */
    uint64_t nodes;           /* alpha-beta positions generated, summed */
    double seconds;           /* wall time of the alpha-beta searches */
    int mcts_positions;       /* positions given to MCTS */
    uint64_t playouts;        /* MCTS playouts, summed */
    uint64_t mcts_nodes;      /* MCTS tree positions generated, summed */
    double mcts_seconds;      /* wall time of the MCTS searches */
    uint64_t hash;            /* every search's node count, move and value, folded in order */
} SearchBench;

/* Run the fixed searches on `threads` threads; the counts and the hash are the same for
 * any number of threads. */
void bench_search_run(int threads, SearchBench *out);

/* Run them and print `bench search ...` and `bench mcts ...` lines, then the signature
 * `Search: <alpha-beta nodes> <hash>`. */
void bench_search(int threads);

/* Run bench's alpha-beta searches to each of depths[0..n) in turn (every option but the depth
 * as bench's), printing a line each with the nodes, the time, a hash of the values alone
 * (`values=`), which a change that keeps the search's values keeps, and one of the moves. */
void bench_search_depths(int threads, const int *depths, int n);

/* The strong player's searches of the same positions to a node budget (every option spelled
 * out, the tuned weights), a line with the nodes, time, nodes a second and the average depth
 * completed, then its own signature `StrongSearch: <nodes> <hash>`. */
#define BENCH_STRONG_NODES 1000000
void bench_strong(int threads, uint64_t budget);

#endif
