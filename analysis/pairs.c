/* pairs.c: the pentanomial score, Elo and GSPRT, and the pair-unit first-player advantage,
 * with GSL's t distribution. */
#include "pairs.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

/* A pair's score at half-points i: i / 4 (the pair's points / 2). */
static const double pair_score[PENTA_NB] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

PairEstimate pentanomial_estimate(const uint64_t counts[PENTA_NB], double confidence)
{
    PairEstimate e = { 0, NAN, NAN, NAN, { NAN, NAN }, NAN, { NAN, NAN } };
    double sum = 0;
    for (int i = 0; i < PENTA_NB; i++) {
        e.pairs += counts[i];
        sum += (double)counts[i] * pair_score[i];
    }
    if (e.pairs == 0)
        return e;
    double n = (double)e.pairs, var = 0;
    e.score = sum / n;
    for (int i = 0; i < PENTA_NB; i++)
        var += (double)counts[i] * (pair_score[i] - e.score) * (pair_score[i] - e.score);
    e.variance = var / n;
    e.se = sqrt(e.variance / n);
    e.score_ci = score_interval(e.score, e.variance, n, 2.0, confidence);
    e.elo = elo_from_score(e.score);
    e.elo_ci = (Interval){ elo_from_score(e.score_ci.lo), elo_from_score(e.score_ci.hi) };
    return e;
}

Sprt sprt_pentanomial(const uint64_t counts[PENTA_NB], double elo0, double elo1,
                      double alpha, double beta)
{
    return sprt_normal(pair_score, counts, PENTA_NB, elo0, elo1, alpha, beta);
}

PairAdvantage pair_advantage(const uint64_t counts[PENTA_NB], double confidence)
{
    PairAdvantage a = { 0, { NAN, { -1.0, 1.0 } }, NAN };
    double sum = 0;
    for (int i = 0; i < PENTA_NB; i++) {
        a.pairs += counts[i];
        sum += (double)counts[i] * (i - 2) / 2.0;
    }
    if (a.pairs < 2)
        return a;
    /* Step 1. The mean and sample sd of the per-pair advantage d / 2. */
    double n = (double)a.pairs, mean = sum / n, ss = 0;
    for (int i = 0; i < PENTA_NB; i++)
        ss += (double)counts[i] * ((i - 2) / 2.0 - mean) * ((i - 2) / 2.0 - mean);
    a.sd = sqrt(ss / (n - 1));
    /* Step 2. Student's t interval on pairs - 1 degrees of freedom. */
    double t = gsl_cdf_tdist_Qinv((1.0 - confidence) / 2.0, n - 1);
    double half = t * a.sd / sqrt(n);
    a.advantage = (Estimate){ mean, { fmax(-1.0, mean - half), fmin(1.0, mean + half) } };
    return a;
}
