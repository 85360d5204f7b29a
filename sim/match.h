/* match.h: a match as a pure function of its pairs: colour-swapped game pairs between two
 * agent specs, from shared random openings, summed in integers (what a tuning plays).
 *
 * Pairs [first, first + n) can be played by any process on any number of threads, in any
 * order: the sums of disjoint ranges add up (match_sums_add) to the whole match's, exactly.
 * A tuning's theta moves only from such sums, so a match can be split across machines. */
#ifndef ANYWOLI_MATCH_H
#define ANYWOLI_MATCH_H

#include <stdint.h>

#include "error.h"
#include "openings.h"
#include "variant.h"

/* The integer sums of a match's games, for its side A. */
typedef struct MatchSums {
    int64_t wins, draws, losses;   /* games; an endless game counts as a draw, one stopped at
                                    * max_plies goes to the side with more seeds in its store */
    int64_t pairs[5];              /* pairs by A's points in the pair: 0, 1/2, 1, 3/2, 2 */
} MatchSums;

/* One pair's two games for side A: +1 a win, 0 a draw, -1 a loss; game[0] is game 2p (A
 * South), game[1] game 2p + 1. What a sequential test needs to stop at a pair. */
typedef struct PairGames {
    int8_t game[2];
} PairGames;

/* A's half-points in a pair, 0 .. 4 (the index of MatchSums.pairs). */
int pair_half_points(PairGames p);

/* Add one pair's games to a's counts. */
void match_sums_add_pair(MatchSums *a, PairGames p);

/* A match between two specs: pair p plays game 2p (A South) and game 2p + 1 (B South) from
 * the same opening, pair p of the openings plies:opening_plies of job `stream`
 * (sim/openings.c; the start for 0); each game is a pure function of (seed, stream, p,
 * colour), played as a run plays game 2p + colour of job `stream`. */
typedef struct Match {
    const Variant *v;
    const char *spec_a, *spec_b;
    uint64_t seed, stream;
    int opening_plies;       /* random plies of each pair's opening (0: the start) */
    int64_t max_plies;       /* the ply cap, adjudicated by the stores */
    int threads;             /* 0: every core */
} Match;

/* The openings of a match whose pairs open with `opening_plies` random plies: plies:N of
 * sim/openings.c (each pair draws its own line; one that ends the game is drawn again), or
 * the start for 0. -1 with openings_load's message when no line of that many plies keeps
 * the game going on v, or when they reach the games' ply cap max_plies (0: v's); *s then
 * holds nothing to free. */
int match_openings(OpeningSet *s, const Variant *v, int opening_plies, int64_t max_plies,
                   Error *e);

/* Play pairs [first, first + n) of a match on m->threads threads into *out (cleared first),
 * and, when each is not NULL, each pair's games into each[0 .. n-1].
 * -1 with a message when the openings (match_openings) or an agent cannot be built, or a
 * search runs out of memory; 1 when a stop was requested (*stop set, or agent_stop_all,
 * which abandons the games in flight) before every pair was played whole (*out is then
 * incomplete). */
int match_play_pairs(const Match *m, uint64_t first, uint64_t n, volatile const int *stop,
                    MatchSums *out, PairGames *each, Error *e);

/* Every rank (under MPI): play this rank's contiguous share of pairs [first, first + n), and
 * add the sums over the ranks into *out, the same on every rank; a stop on any rank stops
 * them all. With each (n entries; NULL on every rank or on none), every pair's games are
 * gathered into it on every rank as well. -1 if any rank failed (e says why when this one
 * did), 1 if any was stopped. */
int match_play_shared(const Match *m, uint64_t first, uint64_t n, MatchSums *out,
                      PairGames *each, Error *e);

/* Add b's counts to a's. */
void match_sums_add(MatchSums *a, const MatchSums *b);

/* A's score in a match, (W + D/2) / N (1/2 with no games). */
double match_score(const MatchSums *s);

#endif
