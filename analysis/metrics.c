/* metrics.c: the first-player advantage and the Ludii-style metrics, from stats.c's intervals
 * and histogram.c's summaries. */
#include "metrics.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "histogram.h"

uint64_t outcomes_finished(const Outcomes *o)
{
    return o->south + o->north + o->draw;
}

uint64_t outcomes_total(const Outcomes *o)
{
    return outcomes_finished(o) + o->endless + o->unfinished;
}

Estimate first_player_advantage(const Outcomes *o, double confidence)
{
    return multinomial_difference(o->south, o->north, outcomes_finished(o), confidence);
}

Estimate colour_balanced_advantage(const Outcomes *a_south, const Outcomes *b_south,
                                   double confidence)
{
    return mover_average(first_player_advantage(a_south, confidence),
                         first_player_advantage(b_south, confidence));
}

/* 1 - |d| with the image of d's interval. */
static Estimate one_minus_abs(Estimate d)
{
    Estimate b;
    double a = fabs(d.ci.lo), c = fabs(d.ci.hi);
    b.value = 1.0 - fabs(d.value);
    if (d.ci.lo <= 0.0 && d.ci.hi >= 0.0)
        b.ci = (Interval){ 1.0 - fmax(a, c), 1.0 };
    else
        b.ci = (Interval){ 1.0 - fmax(a, c), 1.0 - fmin(a, c) };
    return b;
}

GameMetrics game_metrics(const Outcomes *o, const uint64_t *lengths, size_t len,
                         double confidence)
{
    GameMetrics m;
    m.games = outcomes_total(o);
    m.finished = outcomes_finished(o);
    m.south_win_rate = wilson_estimate(o->south, m.finished, confidence);
    /* NaN when no game finished, like the advantage. */
    m.balance = one_minus_abs(first_player_advantage(o, confidence));
    m.completion = wilson_estimate(o->south + o->north, m.games, confidence);
    m.drawishness = wilson_estimate(o->draw, m.games, confidence);
    m.timeouts = wilson_estimate(o->endless + o->unfinished, m.games, confidence);
    HistSummary s = hist_summary(lengths, len, 0);
    m.duration = hist_mean_interval(&s, confidence);
    m.duration_sd = s.sd;
    return m;
}

/* k of n with its Wilson interval over n / deff games (Kish's effective sample size). */
static Estimate share_over_effective(uint64_t k, uint64_t n, double deff, double confidence)
{
    Estimate x = wilson_estimate(k, n, confidence);
    if (n)
        x.ci = wilson_interval_real(x.value, (double)n / deff, confidence);
    return x;
}

GameMetrics game_metrics_clustered(const Outcomes *o, const uint64_t *lengths, size_t len,
                                   double confidence, const MetricDesign *d)
{
    GameMetrics m = game_metrics(o, lengths, len, confidence);
    m.south_win_rate = share_over_effective(o->south, m.finished, d->south_deff, confidence);
    m.balance = one_minus_abs(d->advantage);
    m.completion = share_over_effective(o->south + o->north, m.games, d->deff, confidence);
    m.drawishness = share_over_effective(o->draw, m.games, d->deff, confidence);
    m.timeouts = share_over_effective(o->endless + o->unfinished, m.games, d->deff,
                                      confidence);
    /* The mean's standard error grows by sqrt(deff): its t interval's half-width with it. */
    double w = sqrt(d->deff);
    m.duration.ci = (Interval){ m.duration.value - w * (m.duration.value - m.duration.ci.lo),
                                m.duration.value + w * (m.duration.ci.hi - m.duration.value) };
    return m;
}

const MetricRow metric_rows[] = {
    { "south win rate", "south_win_rate", offsetof(GameMetrics, south_win_rate),
      "South wins / finished games (Ludii's \"advantage\")" },
    { "balance", "balance", offsetof(GameMetrics, balance),
      "1 - |P(South) - P(North)|, finished games" },
    { "completion", "completion", offsetof(GameMetrics, completion),
      "games with a winner / all games" },
    { "drawishness", "drawishness", offsetof(GameMetrics, drawishness), "draws / all games" },
    { "timeouts", "timeouts", offsetof(GameMetrics, timeouts),
      "endless or unfinished / all games" },
};
const int metric_row_count = (int)(sizeof metric_rows / sizeof metric_rows[0]);

Estimate metric_value(const GameMetrics *m, int r)
{
    Estimate x;
    memcpy(&x, (const char *)m + metric_rows[r].offset, sizeof x);
    return x;
}
