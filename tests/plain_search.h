/* plain_search.h: the reference the search tests hold alpha-beta to: a plain fail-hard
 * alpha-beta written as simply as the rules allow (no table, no ordering, no pruning beyond
 * the window), whose value is the depth-limited minimax value. */
#ifndef ANYWOLI_PLAIN_SEARCH_H
#define ANYWOLI_PLAIN_SEARCH_H

#include <stdint.h>

#include "eval.h"
#include "position.h"
#include "variant.h"

#define PLAIN_INF (1 << 30)

/* Plain fail-hard alpha-beta over the moves in ascending order: the depth-limited minimax
 * value of p (not over) for its side to move, clamped to [alpha, beta]. A child's value is
 * negated only when the side to move changes; ends are scored exactly. */
static inline int32_t plain_value(const Variant *v, const Evaluator *ev, const Position *p,
                                  int depth, int32_t alpha, int32_t beta);

/* The plain value of the child that move leads to, for p's side to move. */
static inline int32_t plain_move_value(const Variant *v, const Evaluator *ev,
                                       const Position *p, int move, int depth, int32_t alpha,
                                       int32_t beta)
{
    Position c;
    MoveInfo info;
    MoveEvent e = pos_play(v, p, move, &c, &info, NULL);
    if (e == EV_OVER || e == EV_ENDLESS)
        return eval_final(v, &c, e);
    if (c.side == p->side)
        return depth == 1 ? eval_position(ev, v, &c)
                          : plain_value(v, ev, &c, depth - 1, alpha, beta);
    return depth == 1 ? -eval_position(ev, v, &c)
                      : -plain_value(v, ev, &c, depth - 1, -beta, -alpha);
}

/* plain_value's body: every move in ascending order, fail-hard. */
static inline int32_t plain_value(const Variant *v, const Evaluator *ev, const Position *p,
                                  int depth, int32_t alpha, int32_t beta)
{
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int32_t val = plain_move_value(v, ev, p, __builtin_ctzll(m), depth, alpha, beta);
        if (val >= beta)
            return beta;
        if (val > alpha)
            alpha = val;
    }
    return alpha;
}

#endif
