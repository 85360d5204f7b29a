/* metrics.h: a job's outcomes as the game-design measures researchers quote: the
 * first-player advantage and Ludii-style metrics (Browne, Stephenson and others: Ludii's
 * Evaluation/src/metrics), each with its interval where it has one.
 *
 * Units: shares and differences are probabilities; duration is in plies. Where this lab's
 * definitions differ from Ludii's they follow this lab's choice: the South win rate (Ludii's
 * "advantage", named apart from the first-player advantage) and balance are over finished
 * games (Ludii divides by all trials), timeouts count endless and unfinished games. */
#ifndef ANYWOLI_METRICS_H
#define ANYWOLI_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* A job's games by outcome (the results file's `outcome` 0 .. 4). */
typedef struct Outcomes {
    uint64_t south, north, draw;        /* finished games */
    uint64_t endless, unfinished;       /* not finished: counted apart from every rate of them */
} Outcomes;

/* South wins, North wins and draws. */
uint64_t outcomes_finished(const Outcomes *o);

/* All games. */
uint64_t outcomes_total(const Outcomes *o);

/* The first-player advantage P(South wins) - P(North wins) over finished games with Tango's
 * score interval (multinomial_difference). */
Estimate first_player_advantage(const Outcomes *o, double confidence);

/* The first-player advantage with agent strength taken out, for a match of agents A and B:
 * the average of the advantage in A's games as South and in B's games as South (each agent's
 * strength enters both with opposite signs), with the MOVER interval (mover_average). */
Estimate colour_balanced_advantage(const Outcomes *a_south, const Outcomes *b_south,
                                   double confidence);

/* Ludii-style metrics of one job. */
typedef struct GameMetrics {
    uint64_t games, finished;
    Estimate south_win_rate;   /* South wins / finished; Wilson interval (Ludii calls it
                                  "advantage", not the first-player advantage above) */
    Estimate balance;       /* 1 - |P(S) - P(N)| over finished; the interval is the image
                               of the advantage difference's Tango interval under 1 - |d|
                               ([1 - max |end|, 1] when it contains 0), so it covers at least
                               as often as that interval */
    Estimate completion;    /* (South + North wins) / games; Wilson */
    Estimate drawishness;   /* draws / games; Wilson */
    Estimate timeouts;      /* (endless + unfinished) / games; Wilson */
    Estimate duration;      /* mean plies, t interval (hist_mean_interval) */
    double duration_sd;     /* plies, n - 1 divisor */
} GameMetrics;

/* What the metrics of games that are not independent (colour-swapped pairs that share an
 * opening) need of the design: the South win rate's design effect (measured over the units),
 * the design effect every other interval is widened by (a bound: the games of the largest
 * unit), and the first-player advantage with the unit, which balance is taken from. */
typedef struct MetricDesign {
    double south_deff, deff;
    Estimate advantage;
} MetricDesign;

/* game_metrics with the intervals of such a design: each rate's Wilson interval over games /
 * deff (Kish's effective sample size), the duration's t interval sqrt(deff) times as wide, and
 * balance the image of d's advantage. */
GameMetrics game_metrics_clustered(const Outcomes *o, const uint64_t *lengths, size_t len,
                                   double confidence, const MetricDesign *d);

/* The metrics that are a rate with its interval, each described once: the name analyze's
 * text shows, its JSON key, where it is in GameMetrics and its definition. Text and JSON
 * loop over these, so a new rate is a field, its computation in game_metrics and a row. */
typedef struct MetricRow {
    const char *label;        /* "south win rate" */
    const char *key;          /* "south_win_rate" */
    size_t offset;            /* of its Estimate in GameMetrics */
    const char *definition;   /* "South wins / finished games ..." */
} MetricRow;
extern const MetricRow metric_rows[];
extern const int metric_row_count;

/* Row r's estimate in m. */
Estimate metric_value(const GameMetrics *m, int r);

/* The metrics of a job from its outcome counts and its game-length histogram (games by plies,
 * from 0; the games the duration is over are those of the histogram). */
GameMetrics game_metrics(const Outcomes *o, const uint64_t *lengths, size_t len,
                         double confidence);

#endif
