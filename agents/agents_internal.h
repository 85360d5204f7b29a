/* agents_internal.h: what the registry needs from each agent file, and nothing else. */
#ifndef ANYWOLI_AGENTS_INTERNAL_H
#define ANYWOLI_AGENTS_INTERNAL_H

#include "agent.h"

int random_agent_init(Agent *a, const char *opts, Error *e);

#endif
