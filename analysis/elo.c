/* elo.c: score, Elo, likelihood of superiority and the trinomial GSPRT, with GSL's normal
 * distribution. */
#include "elo.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* fishtest's stand-in for a count of zero (LLRcalc.regularize). */
#define SPRT_ZERO_COUNT 1e-3

double elo_from_score(double s)
{
    return -400.0 * log10(1.0 / s - 1.0);
}

Interval elo_interval(Interval score_ci)
{
    return (Interval){ elo_from_score(score_ci.lo), elo_from_score(score_ci.hi) };
}

double score_from_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* The per-game score variance of trinomial counts that may be fractional. */
static double trinomial_variance(double w, double d, double l)
{
    double n = w + d + l, s = (w + d / 2) / n;
    return (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
}

double score_variance(uint64_t wins, uint64_t draws, uint64_t losses)
{
    if (wins + draws + losses == 0)
        return NAN;
    return trinomial_variance((double)wins, (double)draws, (double)losses);
}

double likelihood_of_superiority(uint64_t wins, uint64_t losses)
{
    if (wins + losses == 0)
        return 0.5;
    double w = (double)wins, l = (double)losses;
    return gsl_cdf_ugaussian_P((w - l) / sqrt(w + l));
}

double score_effective_games(double s, double var, double units, double games_per_unit)
{
    if (!(var > 0))
        return units * games_per_unit;
    return units * s * (1 - s) / var;
}

Interval score_interval(double s, double var, double units, double games_per_unit,
                        double confidence)
{
    return wilson_interval_real(s, score_effective_games(s, var, units, games_per_unit),
                                confidence);
}

EloEstimate elo_estimate(uint64_t wins, uint64_t draws, uint64_t losses, double confidence)
{
    EloEstimate e = { 0, NAN, { NAN, NAN }, NAN, { NAN, NAN }, NAN };
    e.games = wins + draws + losses;
    if (e.games == 0)
        return e;
    double n = (double)e.games;
    e.score = ((double)wins + (double)draws / 2) / n;
    e.score_ci = score_interval(e.score, score_variance(wins, draws, losses), n, 1.0,
                                confidence);
    e.elo = elo_from_score(e.score);
    e.elo_ci = elo_interval(e.score_ci);
    e.los = likelihood_of_superiority(wins, losses);
    return e;
}

/* A count as fishtest's SPRT sees it: zero replaced by SPRT_ZERO_COUNT. */
static double regularized(uint64_t count)
{
    return count ? (double)count : SPRT_ZERO_COUNT;
}

Sprt sprt_normal(const double *value, const uint64_t *count, int k, double elo0, double elo1,
                 double alpha, double beta)
{
    Sprt t;
    /* Step 1. The regularised counts' mean score and variance per unit. */
    double n = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        n += regularized(count[i]);
        sum += regularized(count[i]) * value[i];
    }
    double s = sum / n, var = 0;
    for (int i = 0; i < k; i++)
        var += regularized(count[i]) * (value[i] - s) * (value[i] - s);
    var /= n;
    /* Step 2. The approximate log-likelihood ratio and Wald's bounds. */
    double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1);
    t.llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
    t.lower = log(beta / (1 - alpha));
    t.upper = log((1 - beta) / alpha);
    t.decision = t.llr >= t.upper ? SPRT_ACCEPT_H1
               : t.llr <= t.lower ? SPRT_ACCEPT_H0 : SPRT_CONTINUE;
    return t;
}

Sprt sprt_trinomial(uint64_t wins, uint64_t draws, uint64_t losses, double elo0, double elo1,
                    double alpha, double beta)
{
    static const double value[3] = { 0.0, 0.5, 1.0 };
    const uint64_t count[3] = { losses, draws, wins };
    return sprt_normal(value, count, 3, elo0, elo1, alpha, beta);
}

const char *sprt_decision_key(SprtDecision d)
{
    return d == SPRT_ACCEPT_H0 ? "accept_h0" : d == SPRT_ACCEPT_H1 ? "accept_h1" : "continue";
}

const char *sprt_decision_text(SprtDecision d)
{
    return d == SPRT_ACCEPT_H0 ? "accept H0" : d == SPRT_ACCEPT_H1 ? "accept H1" : "continue";
}

/* Read up to four comma-separated finite numbers into v; the count, or -1 when the text is
 * not such a list. */
static int read_numbers(const char *text, double v[4])
{
    int n = 0;
    const char *p = text;
    while (n < 4) {
        char *end;
        v[n++] = strtod(p, &end);
        if (end == p || (*end != ',' && *end != '\0') || !isfinite(v[n - 1]))
            return -1;
        if (*end == '\0')
            return n;
        p = end + 1;
    }
    return -1;
}

int sprt_bounds_parse(const char *text, SprtBounds *b, char *why, size_t len)
{
    double v[4] = { 0, 0, 0.05, 0.05 };
    int n = read_numbers(text, v);
    if ((n != 2 && n != 4) || !(v[0] < v[1]) || fabs(v[0]) > SPRT_MAX_ELO ||
        fabs(v[1]) > SPRT_MAX_ELO || !(v[2] > 0 && v[2] < 0.5) || !(v[3] > 0 && v[3] < 0.5)) {
        snprintf(why, len, "'%s' is not ELO0,ELO1[,ALPHA,BETA] (finite numbers) with -%g <= "
                 "ELO0 < ELO1 <= %g and 0 < ALPHA, BETA < 0.5", text, SPRT_MAX_ELO,
                 SPRT_MAX_ELO);
        return -1;
    }
    *b = (SprtBounds){ v[0], v[1], v[2], v[3] };
    return 0;
}

void sprt_bounds_text(const SprtBounds *b, char *buf, size_t len)
{
    snprintf(buf, len, "%.17g,%.17g,%.17g,%.17g", b->elo0, b->elo1, b->alpha, b->beta);
}
