/* distinct.h: how many of a job's games are distinct, from a 64-bit hash of each game's
 * whole move sequence, and what repeated games cost the intervals. Agents that search
 * deterministically play the same game again and again; the intervals of analyze.h assume
 * independent games, so with repeats they are too narrow. */
#ifndef ANYWOLI_DISTINCT_H
#define ANYWOLI_DISTINCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISTINCT_WARN_BELOW 0.95  /* warn when distinct games are fewer than this share */
#define LINES_WARN_TOP_SHARE 0.5  /* warn when the most common line is followed this often */

/* The distinct games of a job and the sample size they are worth. */
typedef struct DistinctGames {
    uint64_t games;               /* hashes counted */
    uint64_t distinct;            /* distinct hashes */
    uint64_t most_repeated;       /* the largest number of games with one hash */
    double effective;             /* N^2 / sum m_i^2 over the distinct games' counts m_i */
} DistinctGames;

/* Count the distinct values of hashes[0 .. n-1], sorting the array in place. `effective` is
 * Kish's effective sample size for games repeated m_i times whose repeats have the same
 * result (an intra-cluster correlation of 1): the intervals' widths are at least
 * sqrt(games / effective) times too narrow. All zero (effective 0) when n is 0. */
DistinctGames distinct_games(uint64_t *hashes, size_t n);

/* Whether the share of distinct games is below DISTINCT_WARN_BELOW (never with no games). */
bool distinct_games_few(const DistinctGames *d);

/* The share of the hashes counted that the most common value has (NaN with none). Counted
 * over line_hash (a game's first LINE_PLIES plies), the share of the games that follow the
 * most common line. */
double distinct_top_share(const DistinctGames *d);

/* Whether the most common line is followed by LINES_WARN_TOP_SHARE of the games or more (never
 * with no games): the games then describe a few lines, not the game from its start, even when
 * every game differs somewhere later (a deterministic search's late tie-breaks). */
bool distinct_lines_few(const DistinctGames *d);

#endif
