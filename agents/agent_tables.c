/* agent_tables.c: the endgame tables an agent holds by its tables= option (alphabeta's and
 * mcts's): acquired from the process's cache, held to each game's variant, and a note when a
 * game reaches a level they lack. One copy for every agent that takes the option. */
#include "agents_internal.h"


/* The tables, if any, must be the variant's. */
static int held_tables_check(Agent *a, const Variant *v, Error *e)
{
    const AgentData *d = a->data;
    return tables_check_option(a->name, d->tables, d->tables_path, v, e);
}

/* A position whose play reaches a level the tables lack. */
static bool held_tables_note(Agent *a, const Variant *v, const Position *p, char *buf,
                             size_t size)
{
    const AgentData *d = a->data;
    return tables_note_option(a->name, d->tables, d->tables_path, v, p, buf, size);
}

int agent_use_tables(Agent *a, AgentData *d, const char *path, Error *e)
{
    if (tables_acquire_option(a->name, path, &d->tables, e) != 0)
        return -1;
    d->tables_path = path;
    a->check_variant = held_tables_check;
    a->note_position = held_tables_note;
    return 0;
}
