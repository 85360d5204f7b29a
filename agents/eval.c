/* eval.c: the evaluation terms and their default weights, and the exact score of an end. */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "margin.h"

/* Two sets of weights. The plain set, store difference first and seeds 0.1, is every
 * agent's default but alpha-beta's from depth EVAL_TUNED_FROM. The tuned set is the weights
 * SPSA found from poor ones at depth 4 (configs/tune-from-poor.cfg, seed 2), divided by their
 * store weight so that the store stays the unit and rounded to 0.01 as eval_prepare does.
 * From the balanced book it beats the plain set at depths 4 to 10 (docs/strong-play.md,
 * "Better default weights"); at depths 1 to 3 it stops capturing once few seeds are left
 * (it keeps every hole of its row filled, so no four is ever made), and most of its games
 * against greedy or random never end, so shallow searches keep the plain set. */
const EvalTermInfo eval_terms[EVAL_NB] = {
    [EVAL_STORE] = { "store", 1.0, 1.0, "seeds in the mover's store minus the opponent's" },
    [EVAL_SEEDS] = { "seeds", 0.1, -0.16, "seeds in the mover's row minus the opponent's row" },
    [EVAL_THREES] = { "threes", 0.0, 3.79,
                      "holes of the mover's row holding capture-1 seeds (threes when capture "
                      "is 4)" },
    [EVAL_OPP_THREES] = { "opp_threes", 0.0, -1.0,
                          "holes of the opponent's row holding capture-1 seeds" },
    [EVAL_EMPTY] = { "empty", 0.0, -0.89, "empty holes of the mover's row" },
    [EVAL_OPP_EMPTY] = { "opp_empty", 0.0, 0.65, "empty holes of the opponent's row" },
    [EVAL_MOBILITY] = { "mobility", 0.0, 0.0,
                        "legal moves (non-empty holes), mover's minus opponent's: "
                        "opp_empty - empty" },
    [EVAL_FINAL] = { "final", 0.0, 0.41,
                     "who stands to receive the seeds left by the final-four convention: +1 "
                     "the mover, -1 the opponent, 0 nobody (lottery, or no capture yet)" },
};

/* Fill w with every term's default weight, and the default fade. */
void eval_default(EvalWeights *w)
{
    for (int i = 0; i < EVAL_NB; i++)
        w->w[i] = eval_terms[i].def;
    w->fade = EVAL_FADE_DEFAULT;
    w->given = 0;
}

void eval_use_tuned(EvalWeights *w)
{
    for (int i = 0; i < EVAL_NB; i++)
        if (!(w->given & 1u << i))
            w->w[i] = eval_terms[i].tuned;
    if (!(w->given & EVAL_GIVEN_FADE))
        w->fade = EVAL_FADE_TUNED;
}

/* The defaults with an agent's own overrides applied. */
void eval_default_with(const char *overrides, EvalWeights *w)
{
    eval_default(w);
    for (const char *s = overrides; s && *s;) {
        char name[32];
        size_t n = strcspn(s + 2, "=");
        snprintf(name, sizeof name, "%.*s", (int)n, s + 2);
        char *end;
        double x = strtod(s + 2 + n + 1, &end);
        w->w[eval_term_lookup(name)] = x;
        s = *end == ',' ? end + 1 : end;
    }
}

/* The index of the term called name, or -1. */
int eval_term_lookup(const char *name)
{
    for (int i = 0; i < EVAL_NB; i++)
        if (strcmp(name, eval_terms[i].name) == 0)
            return i;
    return -1;
}

/* Round each weight to fixed point; mobility (opp_empty - empty) joins the two empty terms. */
void eval_prepare(const EvalWeights *w, Evaluator *ev)
{
    /* Round to the nearest unit; weights are range-checked where they are parsed. */
    for (int i = 0; i < EVAL_NB; i++) {
        double x = w->w[i] * EVAL_SCALE;
        ev->w[i] = (int32_t)(x < 0 ? x - 0.5 : x + 0.5);
    }
    ev->w[EVAL_EMPTY] -= ev->w[EVAL_MOBILITY];
    ev->w[EVAL_OPP_EMPTY] += ev->w[EVAL_MOBILITY];
    ev->w[EVAL_MOBILITY] = 0;
    ev->fade = (int32_t)(w->fade * 1000 + 0.5);
}

/* The exact final margin for p's side to move, the lottery by its mean. */
int32_t eval_final(const Variant *v, const Position *p, MoveEvent ev)
{
    int m[2];
    margin_south(v, p, ev, m);
    /* The lottery's two outcomes are equally likely; their sum 2 * diff is even. */
    int32_t south = (m[SOUTH] + m[NORTH]) / 2;
    return (p->side == SOUTH ? south : -south) * EVAL_SCALE;
}
