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
