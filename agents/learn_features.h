/* learn_features.h: the description of a position that the learned evaluation weighs
 * (learned.h) and `anywoli learn fit` regresses on: the one place that defines every
 * feature.
 *
 * Every feature is seen from the side to move ("me"; the other side "op") and defined
 * relative to the variant, so that any board has its layout; the weights the lab ships are
 * fitted for one board (learned.h). The groups, in index order:
 *   bias           1: the value of having the move
 *   me.hI.bB       hole I of my row (0 .. holes-1 from my left, in sowing order) holds a
 *   op.hI.bB       count in band B; an empty hole is the reference (no feature). The bands
 *                  (capture c): 1, 2, ..., c each on its own, then c+1 .. 2c-1, 2c .. 3c-1
 *                  and 3c or more (on the standard board 1, 2, 3, 4, 5-7, 8-11, 12+): the
 *                  holes one seed short of a capture are band c-1, and so are counted per
 *                  hole; mobility and empty holes are the holes in no band
 *   me.seeds       seeds in my row, in the opponent's row
 *   op.seeds
 *   X.gain         X = me or op, as if X were to move: each of X's moves played out (relay
 *   X.gain.pos     laps to their end, pos_play; one of more than 64 laps as endless), its
 *                  net gain the seeds X's store received
 *   X.gain.big     minus the other store's. gain: the best net gain, within -3c .. 3c; pos:
 *   X.captures     1 when it is positive; big: 1 when it is 2c or more; captures: X's moves
 *   X.losses       of positive net gain; losses: of negative net gain; extra: X's moves that
 *   X.extra        end with a final-seed capture (X moves again)
 *   X.lap.final    X = me or op, as if X were to move: where the first lap of each of X's
 *   X.lap.stop     moves ends, from its count alone (no move played: a move of fewer seeds
 *   X.lap.relay    than the board has holes sows each hole once): final: X's moves whose
 *   X.lap.gain     first lap ends on capture - 1 seeds (a final-seed capture); stop: on an
 *   X.lap.loss     empty hole (the turn passes); relay: elsewhere, or with too many seeds
 *                  to tell; gain: the best net gain of a first lap (the holes of capture - 1
 *                  seeds it passes go to their owners, its end's to X), within -3c .. 3c;
 *                  loss: X's moves whose first lap passes the other side's capture - 1
 *   pen.final      under penultimate: who receives the seeds left if the game ended now
 *                  (+1 me, -1 op, 0 nobody yet)
 *   ff.final       under first-final: the same (the first final-seed capturer, else the
 *                  last capturer)
 *   ff.open        under first-final: 1 while nobody has made a final-seed capture
 * Under the lottery the three convention features are 0 (the award's mean is even).
 *
 * The phase: each feature has a weight at each of FEATURE_KNOTS knots of the seeds on the
 * board (L), at 1/12, 1/4, 1/2 and all of the seeds (8, 24, 48 and 96 on the standard
 * board), and its weight at L is interpolated linearly between the two knots around L
 * (below the first, the first's): a tapered evaluation with four weight sets. */
#ifndef ANYWOLI_LEARN_FEATURES_H
#define ANYWOLI_LEARN_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"
#include "variant.h"

/* Weight sets along the phase, at L = total * FEATURE_KNOT_TWELFTHS[k] / 12. */
#define FEATURE_KNOTS 4

/* The features' version: raised whenever a feature's definition or index changes, so that
 * weights fitted on first use for the old ones (learned=auto's cache) are fitted again. */
#define FEATURES_VERSION 1
extern const int feature_knot_twelfths[FEATURE_KNOTS];

/* The groups of features, in index order. */
typedef enum FeatureGroup {
    FG_BIAS = 0, FG_HOLES_ME, FG_HOLES_OP, FG_SEEDS, FG_MOVES_ME, FG_MOVES_OP, FG_LAPS_ME,
    FG_LAPS_OP, FG_CONVENTION, FG_NB
} FeatureGroup;

/* The features of a side's moves (FG_MOVES_ME, FG_MOVES_OP), in order. */
enum { FM_GAIN = 0, FM_GAIN_POS, FM_GAIN_BIG, FM_CAPTURES, FM_LOSSES, FM_EXTRA, FM_NB };
/* The features of a side's first laps (FG_LAPS_ME, FG_LAPS_OP), in order. */
enum { FL_FINAL = 0, FL_STOP, FL_RELAY, FL_GAIN, FL_LOSS, FL_NB };
/* The convention features, in order. */
enum { FC_PEN_FINAL = 0, FC_FF_FINAL, FC_FF_OPEN, FC_NB };

/* The most features one position has that are not 0: the bias, a band per hole, the seeds,
 * the moves' and the conventions'. */
#define FEATURE_MAX_ACTIVE (1 + MAX_PITS + 2 + 2 * FM_NB + 2 * FL_NB + FC_NB)

/* The layout of the features on one board: which index each has. */
typedef struct FeatureLayout {
    int holes, capture, total;   /* the board's */
    int bands;                   /* bands of a non-empty hole: capture + 3 */
    int n;                       /* features */
    int first[FG_NB + 1];        /* the first index of each group; first[FG_NB] = n */
    uint8_t band[3 * 64 + 1];    /* band (1 .. bands) of a count 1 .. 3 capture; 0 for 0 */
    int32_t knot[FEATURE_KNOTS]; /* the knots in twelfths of a seed: total x twelfths */
    unsigned groups;             /* bit g: group g is computed (features_layout: all); the
                                  * others read 0, and cost nothing (the learned evaluation
                                  * leaves out the groups its weights do not use) */
} FeatureLayout;

/* Every group's bit, for FeatureLayout.groups. */
#define FEATURE_ALL_GROUPS ((1u << FG_NB) - 1)

/* The features of one position that are not 0: index and value, in ascending index. */
typedef struct FeatureList {
    int n;
    uint16_t index[FEATURE_MAX_ACTIVE];
    int16_t value[FEATURE_MAX_ACTIVE];
} FeatureList;

/* The layout of v's board (its holes, capture and total seeds). */
void features_layout(const Variant *v, FeatureLayout *l);

/* Whether l is the layout of v's board. */
static inline int features_fit(const FeatureLayout *l, const Variant *v)
{
    return l->holes == v->holes && l->capture == v->capture && l->total == v->total;
}

/* The name of feature f (0 .. l->n - 1) into buf (at least 32 bytes), e.g. "me.h3.b5-7". */
void features_name(const FeatureLayout *l, int f, char *buf, size_t len);

/* The feature a name denotes in l, or -1. */
int features_lookup(const FeatureLayout *l, const char *name);

/* The group of feature f. */
FeatureGroup features_group(const FeatureLayout *l, int f);

/* The name of a group, for reports ("holes (me)", ...), and the group of a short name
 * ("bias", "holes.me", "holes.op", "seeds", "moves.me", "moves.op", "convention"), or -1. */
const char *features_group_name(FeatureGroup g);
int features_group_lookup(const char *key);

/* The features of p (not over, its side to move holding seeds, a position of v's board as
 * laid out in l) that are not 0, of the groups l computes. */
void features_of(const FeatureLayout *l, const Variant *v, const Position *p, FeatureList *out);

/* The phase of a position with `left` seeds on the board: the knot k below it (0 ..
 * FEATURE_KNOTS - 2) and the weights of knots k and k + 1, wk and wk1 (integers, wk + wk1
 * > 0): a feature's weight at `left` is (w[k] wk + w[k+1] wk1) / (wk + wk1). */
void features_phase(const FeatureLayout *l, int left, int *k, int32_t *wk, int32_t *wk1);

#endif
