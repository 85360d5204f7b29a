/* pairs.h: statistics whose unit is a pair of games. Games 2k and 2k+1 of a job form pair k:
 * they share their start (the same opening, once a job has openings) with the agents'
 * colours swapped (A South in the even game). Within a pair the opening's bias cancels, and
 * the two games are not independent, so the pair, not the game, is the sampling unit.
 *
 * A pair's points for A are 0, 1/2, 1, 3/2 or 2 (a win 1, a draw or an endless game 1/2, a
 * loss 0); the pentanomial counts are the pairs at each, indexed by half-points 0 .. 4.
 * A pair with an unfinished game (stopped at max_plies) has no result and is left out whole,
 * so that every pair counted has both colours; so is the last game of an odd-sized table.
 *
 * Scores are per game, in [0, 1] (a pair's points / 2); Elo on the logistic scale (elo.h). */
#ifndef ANYWOLI_PAIRS_H
#define ANYWOLI_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elo.h"
#include "stats.h"

#define PENTA_NB 5                /* pair points 0, 1/2, 1, 3/2, 2 */

/* Pairs counted as their games come, in game order: the even game waits for the odd one,
 * then the pair is counted, or left out when either game is unfinished. The one pairing of
 * games behind analyze's pair figures, a run's live figures and a run's sequential test. */
typedef struct PairTally {
    uint64_t penta[PENTA_NB];     /* counted pairs by A's half-points, 0 .. 4 */
    uint64_t sn[PENTA_NB];        /* counted pairs by South's points minus North's, + 2 */
    uint64_t unfinished;          /* pairs left out: one of their games is unfinished */
    bool waiting;                 /* an even game waits for its partner */
    int8_t waiting_a, waiting_sn; /* its A's half-points (-1 unfinished) and South minus North */
} PairTally;

/* Count game `game` (games come in order) with A's half-points a (2 a win, 1 a draw or an
 * endless game, 0 a loss, -1 unfinished) and South's points minus North's sn (-1, 0, 1).
 * 1 when the game completed a counted pair, else 0. An odd game without its even partner
 * (a table that starts at an odd game) is left out alone. */
int pair_tally_add(PairTally *t, uint64_t game, int a, int sn);

/* The sampling unit of a pair statistic's interval. Pairs that play the same opening (an
 * `all:N` line or a book line, cycled through when a job has more pairs than openings) are
 * not independent: deterministic agents play the same two games again. Then the opening,
 * a cluster of pairs, is the unit. */
typedef enum PairUnit { PAIR_UNIT_PAIR = 0, PAIR_UNIT_OPENING = 1 } PairUnit;

/* The units an interval was computed over. */
typedef struct PairUnits {
    PairUnit unit;
    uint64_t units;               /* pairs, or openings (a pair without one is its own) */
    uint64_t fewest, most;        /* pairs per unit */
} PairUnits;

#define PAIR_SHARES_NB 3          /* South won, North won, drawn: a pair's finished games */
#define PAIR_RESCORED_NB 3        /* the final_four conventions a pair is re-scored under */

/* One counted pair as the clustered estimates see it. */
typedef struct PairResult {
    int64_t opening;              /* the pair's opening (its games' `opening`), -1: none */
    uint8_t a_half;               /* A's half-points over the pair, 0 .. 4 */
    uint8_t south_minus_north;    /* South's points minus North's over the pair, + 2 (0 .. 4) */
    uint8_t rescored[PAIR_RESCORED_NB];   /* south_minus_north with the pair's games re-scored
                                             under each convention (FinalFour order; in the
                                             struct's padding, so it costs no memory) */
    uint8_t shares[PAIR_SHARES_NB];       /* the pair's games South won, North won, drawn
                                             (0 .. 2 each; also in the padding) */
} PairResult;

/* Sort p[0 .. n-1] by opening and say what the unit is: the opening when some opening >= 0
 * is played by two or more pairs, else the pair (each pair its own opening, as `plies:N`
 * gives, or none, as `start` gives). */
PairUnits pair_units(PairResult *p, size_t n);

/* The design effect of a share of finished games (shares[k] of every pair over its finished
 * games) with the unit u says (the pairs sorted by pair_units): the variance of the share's
 * ratio estimate with that unit (the cluster-robust CR1 form, G / (G - 1) sum over units of
 * (x - r n)^2 / N^2) over its variance were the games independent (r (1 - r) / N), at least 1
 * (a share every unit gives alike, or one unit, has 1). A share's interval with the unit is
 * its Wilson interval over N / deff games, Kish's effective sample size. */
double pair_share_design_effect(const PairResult *p, size_t n, const PairUnits *u, int k);

/* A match of pairs summarised from its pentanomial counts. */
typedef struct PairEstimate {
    uint64_t pairs;
    double score;                 /* mean of points / 2 over the pairs */
    double variance;              /* of a pair's points / 2 around score (divisor: pairs) */
    double se;                    /* sqrt(variance / pairs): the score's standard error */
    Interval score_ci;            /* score_interval with the pair as unit (Wilson's) */
    double elo;                   /* elo_from_score(score) */
    Interval elo_ci;              /* the score interval mapped to Elo */
    PairUnits units;              /* what se and the intervals are over */
} PairEstimate;

/* The score, its standard error from the pentanomial variance, its Wilson interval over the
 * effective games (elo.h's score_interval, which for many pairs is score -+ z se) and the
 * Elo with the score interval mapped. NaN everywhere with no pairs. */
PairEstimate pentanomial_estimate(const uint64_t counts[PENTA_NB], double confidence);

/* The pentanomial GSPRT of H1: elo = elo1 against H0: elo = elo0, the units being pairs
 * whose scores are 0, 1/4, 1/2, 3/4 and 1: elo.h's sprt_normal, the normal approximation
 * fishtest has used for pairs since 2020 (Van den Bergh, "A fully generalized SPRT"). */
Sprt sprt_pentanomial(const uint64_t counts[PENTA_NB], double elo0, double elo1,
                      double alpha, double beta);

/* The fewest pairs a sequential test must have counted before it may stop a match. The
 * normal approximation with its zero counts regularised (sprt_normal) is wild over a few
 * pairs: checked from the first pair, H0 Elo 0 against H1 Elo 50 at alpha = beta = 0.05
 * accepted H1 for equal agents in 19% of simulated matches, 5% with this floor. */
#define SPRT_MIN_PAIRS 50

/* The pairs the pentanomial counts hold. */
uint64_t pentanomial_pairs(const uint64_t counts[PENTA_NB]);

/* The decision a sequential stop takes on test t over the pairs of `counts` (the test's):
 * t's, or SPRT_CONTINUE before SPRT_MIN_PAIRS pairs. */
SprtDecision sprt_stop_decision(const Sprt *t, const uint64_t counts[PENTA_NB]);

/* The first-player advantage with the pair as its unit: from counts[i], the pairs whose
 * South's points minus North's, summed over the pair's two games, is i - 2 (so -2 .. 2),
 * the per-game advantage mean(d) / 2 with Student's t interval over the pairs (pairs - 1
 * degrees of freedom). A draw or endless game counts 0 to both. */
typedef struct PairAdvantage {
    uint64_t pairs;
    Estimate advantage;           /* per game, in [-1, 1]; the interval clipped to it */
    double sd;                    /* of a pair's d / 2 (divisor pairs - 1) */
    PairUnits units;              /* what the interval is over */
    bool degenerate;              /* every unit alike (or one unit): the interval is stats.h's
                                     all_equal_mean_interval, not a t interval */
    double se;                    /* the standard error of the advantage with its unit (sd /
                                     sqrt(pairs), or the CR1 sqrt(V)); 0 when degenerate over
                                     2 units or more, NaN with fewer */
    double df;                    /* the t interval's degrees of freedom: units - 1 */
} PairAdvantage;

/* Two independent jobs' advantages compared, each with its own unit: the difference x - y
 * with Welch's t interval (se^2 = se_x^2 + se_y^2, Welch-Satterthwaite degrees of freedom)
 * and its two-sided p. p NaN and the interval [-2, 2] when either has no standard error or
 * is degenerate (every unit alike: its bound is no standard error). */
typedef struct AdvantageDifference {
    Estimate difference;
    double p_value;
    double df;
} AdvantageDifference;
AdvantageDifference advantage_difference(const PairAdvantage *x, const PairAdvantage *y,
                                         double confidence);

/* The above; value NaN and interval [-1, 1] with no pairs. Where every pair had the same
 * d (a stronger agent winning with both colours makes every pair 1-1, d = 0), or there is
 * one pair, the t interval would have no width (or no variance): then the interval is
 * all_equal_mean_interval over the pairs, a pair's d / 2 lying in [-1, 1], and degenerate
 * is set (sd 0, or NaN for one pair). */
PairAdvantage pair_advantage(const uint64_t counts[PENTA_NB], double confidence);

/* One opening's counted pairs, summed: what the estimates with the opening as unit need of
 * them, kept as games come by a run's live figures and made from the pairs by the two
 * functions below. */
typedef struct OpeningSums {
    uint64_t pairs;
    uint64_t a_half;              /* A's half-points over them */
    int64_t sn;                   /* South's points minus North's over them */
} OpeningSums;

/* The two estimates with each entry of o[0 .. n) (those with pairs) an opening, the unit:
 * counts are the pairs' pentanomial counts (by A's half-points for the score, by South minus
 * North + 2 for the advantage), the same pairs as o sums. The formulas are below. */
PairEstimate pentanomial_estimate_openings(const uint64_t counts[PENTA_NB],
                                           const OpeningSums *o, size_t n, double confidence);
PairAdvantage pair_advantage_openings(const uint64_t counts[PENTA_NB], const OpeningSums *o,
                                      size_t n, double confidence);

/* The same two estimates from the pairs themselves (p is sorted in place), with the unit of
 * pair_units. With the pair as unit they are pentanomial_estimate and pair_advantage of the
 * pairs' counts, to the bit. With the opening as unit, the point estimates are the same
 * means over pairs and the variance of the mean is the cluster-robust (sandwich) CR1
 * estimator for a mean over G clusters of unequal size:
 *     V = G / (G - 1) * sum_g (sum_{k in g} (x_k - mean))^2 / n^2
 * (Cameron and Miller 2015, "A practitioner's guide to cluster-robust inference", with the
 * finite-sample factor G / (G - 1) of an intercept-only model). The advantage's interval is
 * mean -+ t sqrt(V) on G - 1 degrees of freedom; the score's se is sqrt(V) and its interval
 * Wilson's over the effective games s (1 - s) / V (score_interval with units G and a
 * variance per unit V G; two games per opening where V is 0). With fewer than 2 openings
 * there is no interval: se NaN, score [0, 1]. Where every opening's mean advantage is the
 * same (so V is 0; one opening included), the advantage's interval is
 * all_equal_mean_interval over the openings and degenerate is set. */
PairEstimate pentanomial_estimate_pairs(PairResult *p, size_t n, double confidence);
PairAdvantage pair_advantage_pairs(PairResult *p, size_t n, double confidence);

#endif
