/* eval.c: the evaluation terms and their default weights, and the exact score of an end. */
#include "eval.h"

#include <string.h>

/* The defaults: store difference first; the other terms are small corrections a tuner
 * adjusts (measured, not guessed: see the strength tests). */
const EvalTermInfo eval_terms[EVAL_NB] = {
    [EVAL_STORE] = { "store", 1.0, "seeds in the mover's store minus the opponent's" },
    [EVAL_SEEDS] = { "seeds", 0.1, "seeds in the mover's row minus the opponent's row" },
    [EVAL_READY] = { "ready", 0.0, "holes holding capture-1 seeds, mover's row minus opponent's" },
    [EVAL_MOBILITY] = { "mobility", 0.0, "non-empty holes, mover's row minus opponent's" },
};

void eval_default(EvalWeights *w)
{
    for (int i = 0; i < EVAL_NB; i++)
        w->w[i] = eval_terms[i].def;
}

int eval_term_lookup(const char *name)
{
    for (int i = 0; i < EVAL_NB; i++)
        if (strcmp(name, eval_terms[i].name) == 0)
            return i;
    return -1;
}

void eval_prepare(const EvalWeights *w, Evaluator *ev)
{
    /* Round to the nearest unit; weights are range-checked where they are parsed. */
    for (int i = 0; i < EVAL_NB; i++) {
        double x = w->w[i] * EVAL_SCALE;
        ev->w[i] = (int32_t)(x < 0 ? x - 0.5 : x + 0.5);
    }
}

void eval_south_margins(const Variant *v, const Position *p, MoveEvent ev, int m[2])
{
    int diff = p->store[SOUTH] - p->store[NORTH];
    m[SOUTH] = m[NORTH] = diff;
    if (ev != EV_OVER)
        return;
    if (v->final_four == FF_LOTTERY) {
        m[SOUTH] = diff + p->left;
        m[NORTH] = diff - p->left;
        return;
    }
    /* The coin plays no part under these conventions, so any stream will do. */
    static const Rng unused = { 0, 0 };
    Award a;
    pos_award(v, p, &unused, &a);
    m[SOUTH] = m[NORTH] = a.score[SOUTH] - a.score[NORTH];
}

int32_t eval_final(const Variant *v, const Position *p, MoveEvent ev)
{
    int m[2];
    eval_south_margins(v, p, ev, m);
    /* The lottery's two outcomes are equally likely; their sum 2 * diff is even. */
    int32_t south = (m[SOUTH] + m[NORTH]) / 2;
    return (p->side == SOUTH ? south : -south) * EVAL_SCALE;
}
