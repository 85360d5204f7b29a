/* random.c: the uniform random player, the baseline that maps the rules themselves. */
#include "agents_internal.h"

/* The draw is the engine's own (pos_random_move: the k-th legal move, k uniform), so a game
 * of two random agents is move for move the engine's random playout. */
static int random_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                         AgentStats *st)
{
    (void)a;
    (void)v;
    (void)st;
    return pos_random_move(p, rng);
}

static const AgentOption random_options[] = { { .key = NULL } };

const AgentKind random_kind = {
    "random", "a uniform choice among the legal moves", random_options, 0,
    .convention_blind = true, .uniform = true,
};

/* The random agent keeps no state: only its choose hook. */
int random_agent_init(Agent *a, void *settings, Error *e)
{
    (void)settings;
    (void)e;
    a->choose = random_choose;
    return 0;
}
