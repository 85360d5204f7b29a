/* agent.h: the one interface behind which every player sits. */
#ifndef ANYWOLI_AGENT_H
#define ANYWOLI_AGENT_H

#include <stdint.h>

#include "error.h"
#include "position.h"
#include "rng.h"
#include "variant.h"

/* Work an agent did for one choice, summed by the caller. */
typedef struct AgentStats {
    uint64_t nodes;      /* positions searched (or playouts for MCTS) */
} AgentStats;

typedef struct Agent Agent;
struct Agent {
    const char *name;
    /* Choose a legal move for p (which is not over); draw randomness only from rng. */
    int (*choose)(Agent *a, const Variant *v, const Position *p, Rng *rng, AgentStats *st);
    void (*new_game)(Agent *a);   /* optional: clears every per-game state */
    void (*done)(Agent *a);       /* optional: frees data */
    void *data;                   /* agent-private */
};

/* Build an agent from a spec `name` or `name:key=value,...`; -1 with a one-line message. */
int agent_create(Agent *a, const char *spec, Error *e);

/* Reset an agent at the start of a game (calls new_game if it has one). */
void agent_new_game(Agent *a);

/* Free what an agent holds. */
void agent_free(Agent *a);

#endif
