/* greedy.c: the one-move player: the move with the best immediate result for the mover,
 * the seeds it captures during the move minus those the opponent captures during it (the
 * hole's owner takes a mid-sow capture), an extra move valued as its best follow-up. */
#include "agents_internal.h"
#include "eval.h"

/* Extra moves followed in a row at most; a follow-up past this many counts nothing (a chain
 * of extra moves is short in practice, and this bounds the work on any position). */
#define GREEDY_CHAIN 8

/* The mover's margin (store minus the opponent's) in EVAL_SCALE units, as p stands. */
static int32_t greedy_margin(const Position *p, int mover)
{
    return (p->store[mover] - p->store[!mover]) * EVAL_SCALE;
}

/* The value of the best move of p for its side to move, `chain` extra moves deep. */
static int32_t greedy_best(const Variant *v, const Position *p, int chain, uint64_t *nodes);

/* The result of `move` for p's side to move, in EVAL_SCALE units: what the mover gained on
 * the opponent during the move; a move that ends the game gains the award of the seeds left
 * too (the lottery by its mean), an endless move nothing (the position stays as it was); an
 * extra move adds the best follow-up's result. */
static int32_t greedy_gain(const Variant *v, const Position *p, int move, int chain,
                           uint64_t *nodes)
{
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(v, p, move, &c, &info, NULL);
    ++*nodes;
    const int32_t before = greedy_margin(p, p->side);
    if (ev == EV_OVER || ev == EV_ENDLESS)
        return eval_final(v, &c, ev) - before;   /* c.side is the mover */
    int32_t gain = greedy_margin(&c, p->side) - before;
    if (ev == EV_EXTRA && c.side == p->side && chain < GREEDY_CHAIN)
        gain += greedy_best(v, &c, chain + 1, nodes);
    return gain;
}

/* The best result among p's moves (p is not over). */
static int32_t greedy_best(const Variant *v, const Position *p, int chain, uint64_t *nodes)
{
    int32_t best = INT32_MIN;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int32_t g = greedy_gain(v, p, __builtin_ctzll(m), chain, nodes);
        best = g > best ? g : best;
    }
    return best;
}

int greedy_move(const Variant *v, const Position *p, Rng *rng, int32_t *value, uint64_t *nodes)
{
    int best = -1, ties = 0;
    int32_t best_gain = 0;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int move = __builtin_ctzll(m);
        int32_t gain = greedy_gain(v, p, move, 0, nodes);
        if (best < 0 || gain > best_gain) {
            best = move;
            best_gain = gain;
            ties = 1;
        } else if (gain == best_gain && rng_below(rng, (uint32_t)++ties) == 0) {
            best = move;
        }
    }
    *value = best_gain;
    return best;
}

/* Choose by greedy_move; the value reported is the chosen move's result in seeds. */
static int greedy_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                         AgentStats *st)
{
    (void)a;
    int32_t gain;
    int move = greedy_move(v, p, rng, &gain, &st->nodes);
    st->depth = 1;
    st->value = (double)gain / EVAL_SCALE;
    return move;
}

static const AgentOption greedy_options[] = { { .key = NULL } };

const AgentKind greedy_kind = {
    "greedy",
    "the move with the best immediate result: seeds captured by the mover minus by the "
    "opponent during the move (the award too if it ends the game), an extra move valued as "
    "its best follow-up; ties at random",
    greedy_options, 0,
    .convention_blind = false,   /* its play weighs the award of the last seeds */
};

/* Greedy keeps no state: only its choose hook. */
int greedy_agent_init(Agent *a, void *settings, Error *e)
{
    (void)settings;
    (void)e;
    a->choose = greedy_choose;
    return 0;
}
