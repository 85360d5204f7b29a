/* test_weights.h: the weights the search tests expect alpha-beta to play, written out here
 * independently of the spec parser: the defaults by depth (weights=auto), and the set that
 * gives every evaluation term a weight of its own (its spec text beside it). */
#ifndef ANYWOLI_TEST_WEIGHTS_H
#define ANYWOLI_TEST_WEIGHTS_H

#include "eval.h"

/* Every term but the store away from the plain set, as spec options. */
#define TW_EVERY_TERM "w.seeds=0.25,w.threes=0.5,w.opp_threes=-0.3,w.empty=0.2," \
                      "w.opp_empty=-0.1,w.mobility=0.1,w.final=1.5"

/* alphabeta's default weights at `depth` (weights=auto): the tuned set from
 * EVAL_TUNED_FROM, the plain set below. */
static inline void tw_auto(int depth, EvalWeights *w)
{
    eval_default(w);
    if (depth >= EVAL_TUNED_FROM)
        eval_use_tuned(w);
}

/* The weights TW_EVERY_TERM sets, over w (the rest of w as it is). */
static inline void tw_every_term(EvalWeights *w)
{
    w->w[EVAL_SEEDS] = 0.25;
    w->w[EVAL_THREES] = 0.5;
    w->w[EVAL_OPP_THREES] = -0.3;
    w->w[EVAL_EMPTY] = 0.2;
    w->w[EVAL_OPP_EMPTY] = -0.1;
    w->w[EVAL_MOBILITY] = 0.1;
    w->w[EVAL_FINAL] = 1.5;
}

#endif
