/* pairs.c: the pentanomial score, Elo and GSPRT, and the pair-unit first-player advantage,
 * with GSL's t distribution; the same with the opening as unit (a cluster-robust variance). */
#include "pairs.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A pair's score at half-points i: i / 4 (the pair's points / 2). */
static const double pair_score[PENTA_NB] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

PairEstimate pentanomial_estimate(const uint64_t counts[PENTA_NB], double confidence)
{
    PairEstimate e = { 0, NAN, NAN, NAN, { NAN, NAN }, NAN, { NAN, NAN },
                       { PAIR_UNIT_PAIR, 0, 1, 1 } };
    double sum = 0;
    for (int i = 0; i < PENTA_NB; i++) {
        e.pairs += counts[i];
        sum += (double)counts[i] * pair_score[i];
    }
    e.units.units = e.pairs;
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
    e.elo_ci = elo_interval(e.score_ci);
    return e;
}

Sprt sprt_pentanomial(const uint64_t counts[PENTA_NB], double elo0, double elo1,
                      double alpha, double beta)
{
    return sprt_normal(pair_score, counts, PENTA_NB, elo0, elo1, alpha, beta);
}

int pair_tally_add(PairTally *t, uint64_t game, int a, int sn)
{
    if (game % 2 == 0) {
        t->waiting = true;
        t->waiting_a = (int8_t)a;
        t->waiting_sn = (int8_t)sn;
        return 0;
    }
    if (!t->waiting)
        return 0;
    t->waiting = false;
    if (a < 0 || t->waiting_a < 0) {
        t->unfinished++;
        return 0;
    }
    t->penta[a + t->waiting_a]++;
    t->sn[sn + t->waiting_sn + 2]++;
    return 1;
}

uint64_t pentanomial_pairs(const uint64_t counts[PENTA_NB])
{
    uint64_t pairs = 0;
    for (int i = 0; i < PENTA_NB; i++)
        pairs += counts[i];
    return pairs;
}

SprtDecision sprt_stop_decision(const Sprt *t, const uint64_t counts[PENTA_NB])
{
    return pentanomial_pairs(counts) < SPRT_MIN_PAIRS ? SPRT_CONTINUE : t->decision;
}

/* Whether the pairs counted all had the same value (one pair among them, or more). */
static bool one_value(const uint64_t counts[PENTA_NB])
{
    int values = 0;
    for (int i = 0; i < PENTA_NB; i++)
        values += counts[i] > 0;
    return values == 1;
}

PairAdvantage pair_advantage(const uint64_t counts[PENTA_NB], double confidence)
{
    PairAdvantage a = { 0, { NAN, { -1.0, 1.0 } }, NAN, { PAIR_UNIT_PAIR, 0, 1, 1 }, false,
                        NAN, NAN };
    double sum = 0;
    for (int i = 0; i < PENTA_NB; i++) {
        a.pairs += counts[i];
        sum += (double)counts[i] * (i - 2) / 2.0;
    }
    a.units.units = a.pairs;
    if (a.pairs == 0)
        return a;
    /* Step 1. The mean and sample sd of the per-pair advantage d / 2. */
    double n = (double)a.pairs, mean = sum / n, ss = 0;
    if (one_value(counts)) {
        /* Every pair alike (or one pair): a t interval would have no width. */
        a.sd = a.pairs > 1 ? 0.0 : NAN;
        a.se = a.sd;
        a.df = (double)a.pairs - 1;
        a.advantage = (Estimate){ mean, all_equal_mean_interval(mean, a.pairs, -1.0, 1.0,
                                                                confidence) };
        a.degenerate = true;
        return a;
    }
    for (int i = 0; i < PENTA_NB; i++)
        ss += (double)counts[i] * ((i - 2) / 2.0 - mean) * ((i - 2) / 2.0 - mean);
    a.sd = sqrt(ss / (n - 1));
    a.se = a.sd / sqrt(n);
    a.df = n - 1;
    /* Step 2. Student's t interval on pairs - 1 degrees of freedom. */
    double t = gsl_cdf_tdist_Qinv((1.0 - confidence) / 2.0, n - 1);
    double half = t * a.sd / sqrt(n);
    a.advantage = (Estimate){ mean, { fmax(-1.0, mean - half), fmin(1.0, mean + half) } };
    return a;
}

/* ---- the opening as unit ---------------------------------------------------------------- */

/* qsort's order of two pairs: by opening. */
static int opening_order(const void *x, const void *y)
{
    int64_t a = ((const PairResult *)x)->opening, b = ((const PairResult *)y)->opening;
    return (a > b) - (a < b);
}

/* The end of the cluster starting at p[i] of the sorted pairs: the run of its opening, or
 * the pair alone when it has none. */
static size_t cluster_end(const PairResult *p, size_t n, size_t i)
{
    size_t end = i + 1;
    while (p[i].opening >= 0 && end < n && p[end].opening == p[i].opening)
        end++;
    return end;
}

PairUnits pair_units(PairResult *p, size_t n)
{
    PairUnits u = { PAIR_UNIT_PAIR, 0, n ? UINT64_MAX : 1, n ? 0 : 1 };
    if (n)
        qsort(p, n, sizeof *p, opening_order);
    for (size_t i = 0, end; i < n; i = end) {
        end = cluster_end(p, n, i);
        u.units++;
        u.fewest = end - i < u.fewest ? end - i : u.fewest;
        u.most = end - i > u.most ? end - i : u.most;
    }
    if (u.most > 1)
        u.unit = PAIR_UNIT_OPENING;
    else
        u.fewest = u.most = 1;
    return u;
}

double pair_share_design_effect(const PairResult *p, size_t n, const PairUnits *u, int k)
{
    double x = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        x += p[i].shares[k];
        m += p[i].shares[0] + p[i].shares[1] + p[i].shares[2];
    }
    if (m <= 0 || u->units < 2)
        return 1.0;
    double r = x / m, srs = r * (1 - r) / m, ss = 0;
    if (srs <= 0)
        return 1.0;
    /* Each unit's residual summed before squaring: a unit is one draw, whatever its size. */
    for (size_t i = 0, end; i < n; i = end) {
        end = u->unit == PAIR_UNIT_OPENING ? cluster_end(p, n, i) : i + 1;
        double xu = 0, mu = 0;
        for (size_t q = i; q < end; q++) {
            xu += p[q].shares[k];
            mu += p[q].shares[0] + p[q].shares[1] + p[q].shares[2];
        }
        ss += (xu - r * mu) * (xu - r * mu);
    }
    double g = (double)u->units, v = g / (g - 1) * ss / (m * m);
    return v / srs > 1 ? v / srs : 1.0;
}

/* The re-scorings sit in PairResult's padding: a pair costs 16 bytes as before. */
_Static_assert(sizeof(PairResult) == 16, "PairResult grew");

/* The units of openings o[0 .. n): each with pairs one unit. */
static PairUnits opening_units(const OpeningSums *o, size_t n)
{
    PairUnits u = { PAIR_UNIT_OPENING, 0, UINT64_MAX, 0 };
    for (size_t g = 0; g < n; g++) {
        if (!o[g].pairs)
            continue;
        u.units++;
        u.fewest = o[g].pairs < u.fewest ? o[g].pairs : u.fewest;
        u.most = o[g].pairs > u.most ? o[g].pairs : u.most;
    }
    if (!u.units)
        u.fewest = u.most = 1;
    return u;
}

/* The CR1 variance of a mean over the openings (the formula in pairs.h): each opening's
 * residuals summed first, sum - pairs * mean with sum its total of the value, so that
 * repeats of one opening count as one draw, then squared. scale turns an opening's integer
 * sum into the value's (1/4 for A's half-points, 1/2 for South minus North). NaN with fewer
 * than 2 openings. */
static double cr1_variance(const OpeningSums *o, size_t n, bool by_score, double mean,
                           uint64_t clusters, uint64_t pairs)
{
    if (clusters < 2)
        return NAN;
    double sum = 0;
    for (size_t g = 0; g < n; g++) {
        if (!o[g].pairs)
            continue;
        double total = by_score ? o[g].a_half / 4.0 : o[g].sn / 2.0;
        double r = total - (double)o[g].pairs * mean;
        sum += r * r;
    }
    double c = (double)clusters, nn = (double)pairs;
    return c / (c - 1) * sum / (nn * nn);
}

/* Whether every opening has the same mean advantage (as one opening has), so that the CR1
 * variance is 0: exactly, in integers, as sum_g * n == sum * size_g. */
static bool opening_means_equal(const OpeningSums *o, size_t n, uint64_t pairs)
{
    int64_t total = 0;
    for (size_t g = 0; g < n; g++)
        total += o[g].sn;
    for (size_t g = 0; g < n; g++)
        if (o[g].pairs && o[g].sn * (int64_t)pairs != total * (int64_t)o[g].pairs)
            return false;
    return true;
}

PairEstimate pentanomial_estimate_openings(const uint64_t counts[PENTA_NB],
                                           const OpeningSums *o, size_t n, double confidence)
{
    PairEstimate e = pentanomial_estimate(counts, confidence);
    PairUnits u = opening_units(o, n);
    if (u.most <= 1)
        return e;
    e.units = u;
    double v = cr1_variance(o, n, true, e.score, u.units, e.pairs), g = (double)u.units;
    e.se = sqrt(v);
    e.score_ci = isnan(v) ? (Interval){ 0.0, 1.0 }
                          : score_interval(e.score, v * g, g, 2.0, confidence);
    e.elo_ci = elo_interval(e.score_ci);
    return e;
}

PairAdvantage pair_advantage_openings(const uint64_t counts[PENTA_NB], const OpeningSums *o,
                                      size_t n, double confidence)
{
    PairAdvantage a = pair_advantage(counts, confidence);
    PairUnits u = opening_units(o, n);
    if (u.most <= 1)
        return a;
    a.units = u;
    double mean = a.advantage.value;   /* from the counts: a repeat means 2 pairs or more */
    a.degenerate = opening_means_equal(o, n, a.pairs);
    a.df = (double)u.units - 1;
    a.se = u.units > 1 ? 0.0 : NAN;
    if (a.degenerate) {
        /* Every opening alike (or one opening): a CR1 interval would have no width. */
        a.advantage.ci = all_equal_mean_interval(mean, u.units, -1.0, 1.0, confidence);
        return a;
    }
    double v = cr1_variance(o, n, false, mean, u.units, a.pairs);   /* 2 openings or more */
    double t = gsl_cdf_tdist_Qinv((1.0 - confidence) / 2.0, (double)u.units - 1);
    double half = t * sqrt(v);
    a.se = sqrt(v);
    a.advantage.ci = (Interval){ fmax(-1.0, mean - half), fmin(1.0, mean + half) };
    return a;
}

/* The sorted pairs as openings (a pair without one its own), with the pairs' counts by A's
 * half-points (score) or by South minus North + 2; *n the openings; NULL when out of
 * memory. */
static OpeningSums *sum_openings(const PairResult *p, size_t n, bool by_score,
                                 uint64_t counts[PENTA_NB], size_t *openings)
{
    OpeningSums *o = malloc((n ? n : 1) * sizeof *o);
    memset(counts, 0, PENTA_NB * sizeof *counts);
    *openings = 0;
    for (size_t i = 0, end; o && i < n; i = end) {
        end = cluster_end(p, n, i);
        OpeningSums *g = &o[(*openings)++];
        *g = (OpeningSums){ end - i, 0, 0 };
        for (size_t k = i; k < end; k++) {
            g->a_half += p[k].a_half;
            g->sn += p[k].south_minus_north - 2;
            counts[by_score ? p[k].a_half : p[k].south_minus_north]++;
        }
    }
    return o;
}

PairEstimate pentanomial_estimate_pairs(PairResult *p, size_t n, double confidence)
{
    uint64_t counts[PENTA_NB];
    size_t openings;
    pair_units(p, n);   /* sorts them by opening */
    OpeningSums *o = sum_openings(p, n, true, counts, &openings);
    PairEstimate e = pentanomial_estimate_openings(counts, o, o ? openings : 0, confidence);
    free(o);
    return e;
}

PairAdvantage pair_advantage_pairs(PairResult *p, size_t n, double confidence)
{
    uint64_t counts[PENTA_NB];
    size_t openings;
    pair_units(p, n);
    OpeningSums *o = sum_openings(p, n, false, counts, &openings);
    PairAdvantage a = pair_advantage_openings(counts, o, o ? openings : 0, confidence);
    free(o);
    return a;
}

AdvantageDifference advantage_difference(const PairAdvantage *x, const PairAdvantage *y,
                                         double confidence)
{
    AdvantageDifference d = { { x->advantage.value - y->advantage.value, { -2.0, 2.0 } }, NAN,
                              NAN };
    double vx = x->se * x->se, vy = y->se * y->se, v = vx + vy;
    /* Every unit alike has no variance to compare with: its bound is not a standard error. */
    if (x->degenerate || y->degenerate || isnan(v) || v <= 0 || isnan(d.difference.value))
        return d;
    d.df = v * v / (vx * vx / x->df + vy * vy / y->df);
    double se = sqrt(v), t = gsl_cdf_tdist_Qinv((1.0 - confidence) / 2.0, d.df);
    d.difference.ci = (Interval){ fmax(-2.0, d.difference.value - t * se),
                                  fmin(2.0, d.difference.value + t * se) };
    d.p_value = 2 * gsl_cdf_tdist_Q(fabs(d.difference.value) / se, d.df);
    return d;
}
