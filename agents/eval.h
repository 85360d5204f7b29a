/* eval.h: the evaluation terms of the searching agents, their names and default weights
 * (the one place they are defined), and scoring in fixed point. */
#ifndef ANYWOLI_EVAL_H
#define ANYWOLI_EVAL_H

#include <stdint.h>
#include <string.h>

#include "position.h"
#include "variant.h"

/* Score units per seed: scores are integers, so search compares exactly. */
#define EVAL_SCALE 100

/* The terms, each seen from the side to move ("the mover"): a difference between the two
 * sides, or one side's count. */
typedef enum EvalTerm {
    EVAL_STORE = 0,     /* seeds in the stores, mover minus opponent */
    EVAL_SEEDS,         /* seeds in each side's row, mover minus opponent */
    EVAL_THREES,        /* holes of the mover's row holding capture-1 seeds */
    EVAL_OPP_THREES,    /* holes of the opponent's row holding capture-1 seeds */
    EVAL_EMPTY,         /* empty holes of the mover's row */
    EVAL_OPP_EMPTY,     /* empty holes of the opponent's row */
    EVAL_MOBILITY,      /* legal moves (non-empty holes), mover minus opponent */
    EVAL_FINAL,         /* who stands to receive the seeds left: +1 mover, -1 opponent, 0 */
    EVAL_NB
} EvalTerm;

/* One term: its name (a spec writes `w.<name>=x`), its weight in each of the two sets
 * (eval.c says where they come from) and its meaning. */
typedef struct EvalTermInfo {
    const char *name;
    double def;       /* the plain set: every default but alpha-beta's from EVAL_TUNED_FROM */
    double tuned;     /* the tuned set */
    const char *help;
} EvalTermInfo;

extern const EvalTermInfo eval_terms[EVAL_NB];

/* The default fade of the positional terms (alphabeta's `fade` option; eval_position). */
#define EVAL_FADE_DEFAULT 0

/* The depth from which alpha-beta's default weights are the tuned set (`weights=auto`):
 * below it the tuned set stops capturing once few seeds are left, and games never end. */
#define EVAL_TUNED_FROM 4

/* The tuned set's fade: without it the tuned set lets decided games loop at any depth. */
#define EVAL_FADE_TUNED 0.25

/* EvalWeights.given's bit for the fade (the terms' bits are their indices). */
#define EVAL_GIVEN_FADE (1u << EVAL_NB)

/* Weights in seeds per unit of each term, as given in a spec, and the fade. */
typedef struct EvalWeights {
    double w[EVAL_NB];
    double fade;    /* the share of all the seeds on the board below which every term but
                     * the store fades linearly to 0 (eval_position); 0: no fade */
    uint32_t given; /* bit t: w[t] was given in the spec (not a default); EVAL_GIVEN_FADE:
                     * the fade was */
} EvalWeights;

/* The weights in fixed point, ready for search. */
typedef struct Evaluator {
    int32_t w[EVAL_NB];   /* EVAL_SCALE units per unit of the term (EVAL_MOBILITY folded
                           * into EVAL_EMPTY and EVAL_OPP_EMPTY, and 0) */
    int32_t fade;         /* EvalWeights's fade in per mille (0: none) */
} Evaluator;

/* The default weights and fade. */
void eval_default(EvalWeights *w);

/* The default weights, then the overrides `w.<term>=x,...` an agent's table gives (NULL for
 * none; every name and number in them is valid). */
void eval_default_with(const char *overrides, EvalWeights *w);

/* Every weight not given in the spec (w->given) set to the tuned set's, and the fade to
 * EVAL_FADE_TUNED unless given. */
void eval_use_tuned(EvalWeights *w);

/* The term a name denotes, or -1. */
int eval_term_lookup(const char *name);

/* Convert weights to fixed point. */
void eval_prepare(const EvalWeights *w, Evaluator *ev);

/* Four holes from `from` as the lanes of one word, the lanes at and past `n` cleared. The
 * load may read past the row but stays inside the pit array (whose holes past the board
 * hold zero): rows of 32 holes have no partial word. */
static inline uint64_t eval_lanes(const uint16_t *pit, int from, int n)
{
    uint64_t w;
    memcpy(&w, pit + from, sizeof w);
    return n >= 4 ? w : w & ((1ULL << (16 * n)) - 1);
}

/* The sum of the seeds in holes [from, from + n), four holes at a time: a lane never
 * overflows, as all the seeds of the game fit in 16 bits. */
static inline int eval_row_seeds(const uint16_t *pit, int from, int n)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i += 4)
        sum += eval_lanes(pit, from + i, n - i);
    return (int)((sum * 0x0001000100010001ULL) >> 48);
}

/* The holes of [from, from + n) holding exactly `count` seeds (count >= 1), four at a time:
 * a lane is zero after the xor exactly when it held count (the exact zero-lane test, free
 * of borrows between lanes). */
static inline int eval_row_count(const uint16_t *pit, int from, int n, int count)
{
    const uint64_t low = 0x7fff7fff7fff7fffULL, pattern = 0x0001000100010001ULL * (uint16_t)count;
    int k = 0;
    for (int i = 0; i < n; i += 4) {
        int lanes = n - i < 4 ? n - i : 4;
        uint64_t x = eval_lanes(pit, from + i, lanes) ^ pattern;
        uint64_t zero = ~(((x & low) + low) | x | low);
        if (lanes < 4)
            zero &= (1ULL << (16 * lanes)) - 1;
        k += __builtin_popcountll(zero);
    }
    return k;
}

/* Who stands to receive the seeds left if the game ended now, under the variant's
 * convention: the last capturer (penultimate), the first final-seed capturer else the last
 * capturer (first-final), or NOBODY (lottery, or no capture yet). */
static inline int eval_final_recipient(const Variant *v, const Position *p)
{
    if (v->final_four == FF_LOTTERY)
        return NOBODY;
    if (v->final_four == FF_FIRST_FINAL && p->first_final != NOBODY)
        return p->first_final;
    return p->last_capturer;
}

/* The value of term t at p for its side to move, in the term's own unit: the one definition
 * of each term, which eval_position weighs and `anywoli fit` regresses on. */
static inline int eval_term(const Variant *v, const Position *p, EvalTerm t)
{
    const int s = p->side, o = !s, h = v->holes;
    const int empty = h - __builtin_popcountll(p->nonempty & v->row[s]);
    const int opp_empty = h - __builtin_popcountll(p->nonempty & v->row[o]);
    switch (t) {
    case EVAL_STORE: return p->store[s] - p->store[o];
    case EVAL_SEEDS: return 2 * eval_row_seeds(p->pit, s * h, h) - p->left;   /* the other
                                                       * row holds what this row does not */
    case EVAL_THREES: return eval_row_count(p->pit, s * h, h, v->capture - 1);
    case EVAL_OPP_THREES: return eval_row_count(p->pit, o * h, h, v->capture - 1);
    case EVAL_EMPTY: return empty;
    case EVAL_OPP_EMPTY: return opp_empty;
    case EVAL_MOBILITY: return opp_empty - empty;   /* (h - empty) - (h - opp_empty) */
    case EVAL_FINAL: {
        int r = eval_final_recipient(v, p);
        return r == s ? 1 : r == o ? -1 : 0;
    }
    case EVAL_NB: break;
    }
    return 0;
}

/* The positional part of p's value for its side to move: every weighted term but the
 * store, unfaded, in EVAL_SCALE units. */
static inline int32_t eval_positional(const Evaluator *ev, const Variant *v, const Position *p)
{
    /* Term by term with constant names, so that each inlined eval_term is just that term. */
    int32_t score = 0;
    if (ev->w[EVAL_SEEDS])
        score += ev->w[EVAL_SEEDS] * eval_term(v, p, EVAL_SEEDS);
    if (ev->w[EVAL_THREES])
        score += ev->w[EVAL_THREES] * eval_term(v, p, EVAL_THREES);
    if (ev->w[EVAL_OPP_THREES])
        score += ev->w[EVAL_OPP_THREES] * eval_term(v, p, EVAL_OPP_THREES);
    if (ev->w[EVAL_EMPTY])
        score += ev->w[EVAL_EMPTY] * eval_term(v, p, EVAL_EMPTY);
    if (ev->w[EVAL_OPP_EMPTY])
        score += ev->w[EVAL_OPP_EMPTY] * eval_term(v, p, EVAL_OPP_EMPTY);
    if (ev->w[EVAL_FINAL])
        score += ev->w[EVAL_FINAL] * eval_term(v, p, EVAL_FINAL);
    return score;   /* EVAL_MOBILITY's weight is 0 here: folded by eval_prepare */
}

/* The heuristic value of p (not over) for its side to move, in EVAL_SCALE units. Terms whose
 * weight is zero cost nothing. Mobility equals opp_empty - empty on a given board, so
 * eval_prepare folds its weight into those two and it costs nothing either.
 *
 * With a fade f, the positional terms (all but the store) fade as tapered evaluations fade
 * theirs by phase: once the seeds on the board fall below f of all the seeds, they are
 * scaled by the seeds on the board over that many, so that near the end the value tends to
 * the store difference and a capture always pays. Without it, weights that value holes of
 * capture - 1 seeds highly make keeping a three worth about as much as capturing it with a
 * few seeds left, and decided games loop for ever. The scaling is in integers (truncated
 * towards zero), so the search stays exact; f = 1 scales by the seeds on the board over
 * all the seeds throughout. */
static inline int32_t eval_position(const Evaluator *ev, const Variant *v, const Position *p)
{
    int32_t store = ev->w[EVAL_STORE] * eval_term(v, p, EVAL_STORE);
    int32_t rest = eval_positional(ev, v, p);
    if (ev->fade) {
        /* The seeds on the board below which the terms fade: fade (per mille) of them all. */
        int32_t all = p->left + p->store[SOUTH] + p->store[NORTH];
        int32_t from = (all * ev->fade + 999) / 1000;
        if (p->left < from)
            rest = rest * p->left / from;
    }
    return store + rest;
}

/* The exact final margin of a game that stopped at p, for p->side (the mover of the last
 * move), in EVAL_SCALE units: the scores after the award when the game is over (the lottery
 * by its expectation, an even split of the seeds left), the stores as they stand when the
 * last move was endless. */
int32_t eval_final(const Variant *v, const Position *p, MoveEvent ev);

#endif
