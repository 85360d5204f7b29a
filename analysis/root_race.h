/* root_race.h: the adaptive root design, a racing over the tree of lines (Maximin-Racing,
 * Garivier, Kaufmann and Koolen, COLT 2016; best-arm identification in game trees, Kaufmann
 * and Koolen 2017).
 *
 * The lines of a root design (root.h) are played in rounds. Round 0 gives every line
 * `round_pairs` colour-swapped pairs; after each round every line's mean (the pair as unit:
 * its per-game advantage, in [-1, 1]) gets Student's t interval at the confidence
 * 1 - delta / (K (r + 1) (r + 2)) (delta = 1 - confidence, K lines, round r counted from
 * 0): a Bonferroni union over the lines and the rounds (the rounds' shares sum to delta),
 * so that every interval of every round holds at once with probability about `confidence`
 * (t is approximate for bounded per-pair values; where a line's pairs were all alike, the
 * all-alike bound of stats.h at the same level). The intervals go up the tree by minimax:
 * South's node is [max L, max U] over its children still in, North's [min L, min U]. A
 * child is out, for good, when it cannot be its node's choice: at South's node when its U is
 * below the node's L, at North's when its L is above the node's U; every line below it is
 * out with it. The next round gives `round_pairs` pairs to every line still in. The race
 * stops when the root's interval has a half-width of at most `halfwidth` points per 100
 * games; the job's `games` is its budget.
 *
 * Pair p of round r (the round's pairs numbered from its first) plays the line
 * in[p mod n] of the n lines in, ascending: so round 0's first K pairs play lines 0 .. K - 1
 * in order, and the pairs of a round cut short by the budget spread over its lines. Every
 * decision is a function of the pairs of the rounds before it, so the schedule is the same
 * for any order the pairs were played in, and a reader re-derives it from the games. */
#ifndef ANYWOLI_ROOT_RACE_H
#define ANYWOLI_ROOT_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "root.h"

/* The rule of a race, as a job's `root_design` writes it. */
typedef struct RootRule {
    int round_pairs;              /* pairs a line in gets each round, 2 or more */
    double halfwidth;             /* stop at this half-width of the root's interval, in points
                                   * per 100 games (0 < halfwidth <= 100) */
    double confidence;            /* of the simultaneous intervals, in (0, 1) */
} RootRule;

/* "ROUND_PAIRS,HALFWIDTH[,CONFIDENCE]" (confidence 0.95 when left out) into *rule; -1 with why
 * it is not one. */
int root_rule_parse(const char *text, RootRule *rule, char *why, size_t len);

/* The rule as "ROUND_PAIRS,HALFWIDTH,CONFIDENCE" (%g), as it parses again. */
void root_rule_text(const RootRule *rule, char *buf, size_t len);

typedef enum RootStop { ROOT_RACING = 0, ROOT_STOP_HALFWIDTH } RootStop;

/* A race in progress (or over). */
typedef struct RootRace {
    RootRule rule;
    int nlines;
    RootLine *lines;              /* their moves and movers (sums unused) */
    int *order;                   /* lines in the tree's order */
    RootSum *sum;                 /* per line, its counted pairs */
    Interval *ci;                 /* per line, its interval at the last decision (a line
                                   * out: at the decision that put it out) */
    Interval *node;               /* scratch: per line, its node's bounds (by tree order) */
    int *out_round;               /* per line, the round after which it went out; -1: in */
    int round;                    /* the round being played */
    int64_t next_pair;            /* the pair expected next */
    int64_t round_end;            /* the first pair after the round */
    int nin;                      /* lines in, ascending, in[0 .. nin) */
    int *in;
    int64_t *round_first;         /* the first pair of each round begun, 0 .. round */
    int *round_lines;             /* and its lines in */
    int rounds_cap;
    Interval root;                /* the root's bounds at the last decision ([-1, 1] before) */
    int best;                     /* the line the minimax over the means ends in; -1: none */
    RootStop stop;
} RootRace;

/* A race over lines[0 .. n) (moves and movers; copied) by rule, before round 0. -1 when out
 * of memory (r then holds nothing to free). */
int root_race_init(RootRace *r, const RootRule *rule, const RootLine *lines, int n);

/* A copy of src into dst (empty); -1 when out of memory. */
int root_race_copy(RootRace *dst, const RootRace *src);

void root_race_free(RootRace *r);

/* The line pair `pair` plays: the current round's schedule, for a pair of it (next_pair ..
 * round_end); -1 for any other. */
int root_race_line(const RootRace *r, int64_t pair);

#define ROOT_RACE_MISMATCH 1

/* Count the next pair: it must be r->next_pair, of the line the schedule gives it (else
 * ROOT_RACE_MISMATCH, nothing counted; and after the race stopped); `counted` false for a
 * pair left out (an unfinished game), which still takes its place; x its per-game
 * advantage. At the round's last pair the round is decided (root_race_decide). 0, or -1
 * when out of memory. */
int root_race_pair(RootRace *r, int64_t pair, int64_t line, bool counted, double x);

/* Decide the round just played: the intervals, the tree's bounds, the lines out, the stop,
 * and (racing on) the next round's lines. -1 when out of memory. */
int root_race_decide(RootRace *r);

#endif
