/* registry.c: the one table that maps agent names to their constructors. */
#include "agent.h"

#include <string.h>

#include "agents_internal.h"

typedef struct AgentEntry {
    const char *name;
    int (*init)(Agent *a, const char *opts, Error *e);
    const char *summary;
} AgentEntry;

static const AgentEntry registry[] = {
    { "random", random_agent_init, "a uniform choice among the legal moves" },
};

#define REGISTRY_NB ((int)(sizeof registry / sizeof registry[0]))

int agent_create(Agent *a, const char *spec, Error *e)
{
    memset(a, 0, sizeof *a);
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    for (int i = 0; i < REGISTRY_NB; i++) {
        if (strlen(registry[i].name) == n && strncmp(spec, registry[i].name, n) == 0) {
            a->name = registry[i].name;
            return registry[i].init(a, colon ? colon + 1 : "", e);
        }
    }
    return error_set(e, "agent '%.*s': unknown (expected random)", (int)n, spec);
}

void agent_new_game(Agent *a)
{
    if (a->new_game)
        a->new_game(a);
}

void agent_free(Agent *a)
{
    if (a->done)
        a->done(a);
    a->data = NULL;
}
