/* greedy.c: the one-ply player, which takes the move that leaves it furthest ahead. */
#include "agents_internal.h"
#include "eval.h"

/* The mover's margin after `move` (exact when the move ends the game or never ends). */
static int32_t greedy_margin(const Variant *v, const Position *p, int move, uint64_t *nodes)
{
    Position c;
    MoveInfo info;
    MoveEvent ev = pos_play(v, p, move, &c, &info, NULL);
    ++*nodes;
    if (ev == EV_OVER || ev == EV_ENDLESS)
        return eval_final(v, &c, ev);
    return (c.store[p->side] - c.store[!p->side]) * EVAL_SCALE;
}

/* Play every move; keep the best margin, ties broken uniformly by a draw from rng (one draw
 * per tie, reservoir style, so the choice depends only on the position and the stream). */
static int greedy_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                         AgentStats *st)
{
    (void)a;
    int best = -1, ties = 0;
    int32_t best_margin = 0;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int move = __builtin_ctzll(m);
        int32_t margin = greedy_margin(v, p, move, &st->nodes);
        if (best < 0 || margin > best_margin) {
            best = move;
            best_margin = margin;
            ties = 1;
        } else if (margin == best_margin && rng_below(rng, (uint32_t)++ties) == 0) {
            best = move;
        }
    }
    st->depth = 1;
    st->value = (double)best_margin / EVAL_SCALE;
    return best;
}

static const AgentOption greedy_options[] = { { NULL, 0, 0, 0, 0, NULL, NULL, NULL } };

const AgentKind greedy_kind = {
    "greedy", "the move that leaves the mover furthest ahead in seeds (one ply; ties at random)",
    greedy_options, 0,
};

int greedy_agent_init(Agent *a, void *settings, Error *e)
{
    (void)settings;
    (void)e;
    a->choose = greedy_choose;
    return 0;
}
