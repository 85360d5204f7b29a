/* elo.h: a match between two agents as a score (with Wilson's interval), an Elo difference,
 * a likelihood of superiority and a sequential probability ratio test, from its wins, draws
 * and losses (counted for the first agent; a draw scores 1/2). pairs.h does the same with
 * pairs of games as the units.
 *
 * Units: scores and probabilities in [0, 1]; Elo differences in Elo points on the logistic
 * scale, score = 1 / (1 + 10^(-elo / 400)); log-likelihood ratios in natural log units. */
#ifndef ANYWOLI_ELO_H
#define ANYWOLI_ELO_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* The Elo difference of an expected score s in [0, 1]: -400 log10(1/s - 1), +-infinity at
 * s = 1 and 0. */
double elo_from_score(double s);

/* A score interval mapped to Elo, end by end: the one rule for every Elo interval (games,
 * pairs, openings), so that a score end of 1 (0) is +inf (-inf) Elo, as the point of a
 * score of 1 (0) is; the score interval's ends are exact there (stats.h's Wilson). */
Interval elo_interval(Interval score_ci);

/* The expected score of an Elo difference: 1 / (1 + 10^(-elo / 400)). */
double score_from_elo(double elo);

/* The per-game variance of the score under the observed trinomial frequencies:
 * (W (1 - s)^2 + D (1/2 - s)^2 + L s^2) / N with s = (W + D/2) / N; NaN with no games. */
double score_variance(uint64_t wins, uint64_t draws, uint64_t losses);

/* The likelihood of superiority Phi((W - L) / sqrt(W + L)), the probability that the first
 * agent is the stronger (draws carry no information); 1/2 with no decisive game. */
double likelihood_of_superiority(uint64_t wins, uint64_t losses);

/* The effective number of games behind a score s with variance var per unit over `units`
 * units (games, or pairs of games): the number of independent win-or-lose games whose score
 * would have that variance, units s (1 - s) / var (Kish's design effect, as Korn and Graubard
 * 1998 use it for proportions from clustered samples). Where var is 0 (every unit had the
 * same result: all lost, all drawn, every pair 1-1) it is the games themselves,
 * units * games_per_unit, so that the interval still has a width. */
double score_effective_games(double s, double var, double units, double games_per_unit);

/* The interval of a score that does not collapse at 0 or 1: Wilson's score interval (Brown,
 * Cai and DasGupta 2001 recommend it over the normal one) for the proportion s out of
 * score_effective_games(s, var, units, games_per_unit) trials. With no draws it is Wilson's
 * interval on the wins; for large samples it is s -+ z sqrt(var / units). */
Interval score_interval(double s, double var, double units, double games_per_unit,
                        double confidence);

/* A match summarised. */
typedef struct EloEstimate {
    uint64_t games;
    double score;           /* (W + D/2) / N */
    Interval score_ci;      /* score_interval: Wilson's, with the effective games */
    double elo;             /* elo_from_score(score) */
    Interval elo_ci;        /* elo_from_score of the score interval's ends */
    double los;             /* likelihood_of_superiority */
} EloEstimate;

/* The score with its Wilson interval from the trinomial variance (score_interval), and the
 * Elo difference with the interval mapped from the score's (as cutechess-cli and fishtest
 * do; an infinite end only where the score interval reaches 0 or 1, so 40 losses of 40 give
 * Elo -inf with a finite upper end). NaN everywhere with no games. */
EloEstimate elo_estimate(uint64_t wins, uint64_t draws, uint64_t losses, double confidence);

/* The decision of a sequential test after the games so far. */
typedef enum SprtDecision {
    SPRT_CONTINUE = 0,      /* lower < llr < upper: play on */
    SPRT_ACCEPT_H0 = -1,    /* llr <= lower: the difference is elo0 (or less) */
    SPRT_ACCEPT_H1 = 1,     /* llr >= upper: the difference is elo1 (or more) */
} SprtDecision;

/* A decision in words, the one vocabulary of every command's output: as a JSON value
 * (accept_h0, continue, accept_h1) and as text (accept H0, continue, accept H1). */
const char *sprt_decision_key(SprtDecision d);
const char *sprt_decision_text(SprtDecision d);

/* The hypotheses and error rates of a sequential test: H0 Elo = elo0 against H1 Elo = elo1,
 * alpha and beta the chances of accepting H1 and H0 wrongly. One type for every SPRT the
 * lab runs: analyze --sprt's after the fact, a run's job that stops on its test, a tuning's
 * verification matches. */
typedef struct SprtBounds {
    double elo0, elo1;
    double alpha, beta;
} SprtBounds;

/* The largest |Elo| a test takes: beyond it the expected score is within 1e-5 of 0 or 1, and
 * the test's variance no longer says anything. */
#define SPRT_MAX_ELO 2000.0

/* Read "ELO0,ELO1[,ALPHA,BETA]" (alpha and beta 0.05 unless given). Every number must be
 * finite (strtod takes nan and inf, for which a test would continue forever or decide
 * anything), with -SPRT_MAX_ELO <= ELO0 < ELO1 <= SPRT_MAX_ELO and error rates strictly
 * between 0 and 0.5. 0, or -1 with what was expected in why (len bytes). */
int sprt_bounds_parse(const char *text, SprtBounds *b, char *why, size_t len);

/* The bounds as text that sprt_bounds_parse reads back (%.17g: exactly), into buf. */
void sprt_bounds_text(const SprtBounds *b, char *buf, size_t len);

/* A sequential probability ratio test's state. */
typedef struct Sprt {
    double llr;             /* log-likelihood ratio of H1: elo = elo1 against H0: elo = elo0 */
    double lower, upper;    /* Wald's bounds log(beta / (1 - alpha)), log((1 - beta) / alpha) */
    SprtDecision decision;
} Sprt;

/* The normal approximation of the generalised SPRT's log-likelihood ratio for units whose
 * scores take the k values value[i] (in [0, 1]) count[i] times (counts need not be whole):
 * with s0, s1 the scores of elo0, elo1, s the observed mean and var its variance per unit,
 * LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var) over the N units (Van den Bergh's
 * approximation, fishtest's LLRcalc.LLR_alt2; a count of zero is replaced by 0.001 first,
 * as LLRcalc.regularize does, so that var is never zero). The one mechanism behind
 * sprt_trinomial (games) and pairs.h's sprt_pentanomial (pairs of games). */
Sprt sprt_normal(const double *value, const uint64_t *count, int k, double elo0, double elo1,
                 double alpha, double beta);

/* The generalised SPRT for a trinomial W/D/L match, the games being the units: sprt_normal
 * on the scores 0, 1/2, 1 (Van den Bergh's GSPRT, fishtest's LLRcalc.LLR_alt2 with its zero
 * counts regularised). alpha and beta are the error probabilities of accepting H1 and H0
 * wrongly. */
Sprt sprt_trinomial(uint64_t wins, uint64_t draws, uint64_t losses, double elo0, double elo1,
                    double alpha, double beta);

#endif
