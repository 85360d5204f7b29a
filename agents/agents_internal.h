/* agents_internal.h: what the registry needs from each agent file, and the option parser
 * they share. */
#ifndef ANYWOLI_AGENTS_INTERNAL_H
#define ANYWOLI_AGENTS_INTERNAL_H

#include "agent.h"

/* Each agent file: its registry entry, and its constructor, which receives the settings
 * already parsed from the spec (NULL for an agent without options). An agent with options
 * owns its settings from then on (its `done` frees them), and its data starts with
 * AgentData, so that agent_describe can find them. */
extern const AgentKind random_kind, greedy_kind, alphabeta_kind, mcts_kind;
int random_agent_init(Agent *a, void *settings, Error *e);
int greedy_agent_init(Agent *a, void *settings, Error *e);
int alphabeta_agent_init(Agent *a, void *settings, Error *e);
int mcts_agent_init(Agent *a, void *settings, Error *e);

/* The first member of the data of every agent that has options. */
typedef struct AgentData {
    void *settings;               /* the parsed options */
} AgentData;

/* The greedy agent's choice for p (not over): the move with the best immediate result for
 * the mover (captured during the move, by the mover minus by the opponent; an extra move
 * adds its best follow-up), ties broken uniformly by draws from rng (one per tie). *value
 * receives that result in EVAL_SCALE units; *nodes counts the positions played. Also the
 * `greedy` playout policy of MCTS. */
int greedy_move(const Variant *v, const Position *p, Rng *rng, int32_t *value, uint64_t *nodes);

/* Fill settings with every option's default, then with `key=value,...` from opts. -1 with a
 * one-line message naming the agent, the key and the allowed values. */
int agent_options_parse(const AgentKind *k, const char *opts, void *settings, Error *e);

/* Write `key=value,...` for every option of k, as set in settings. */
void agent_options_format(const AgentKind *k, const void *settings, char *buf, size_t len);

#endif
