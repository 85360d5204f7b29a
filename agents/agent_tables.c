/* agent_tables.c: the endgame tables an agent holds by its tables= option (alphabeta's and
 * mcts's): acquired from the process's cache, held to each game's variant, and a note when a
 * game reaches a level they lack. One copy for every agent that takes the option. With
 * tables=auto the agent holds the tables of the variant it plays, built on demand. */
#include "agents_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* The option's value that asks for the tables built on demand. */
static const char tables_auto_word[] = "auto";

/* tables=auto: hold v's tables (those held already if they are v's). */
static int hold_auto_tables(AgentData *d, const Variant *v, Error *e)
{
    if (d->tables && tables_match(d->tables, v))
        return 0;
    const Tables *t;
    Error inner;
    if (tables_acquire_auto(v, &t, &inner) != 0)
        return error_set(e, "agent '%s': tables=auto: %s", d->name, inner.msg);
    tables_release(d->tables);
    d->tables = t;
    return 0;
}

int agent_tables_check(Agent *a, const Variant *v, Error *e)
{
    AgentData *d = a->data;
    if (d->tables_auto)
        return agents_builds_deferred() ? 0 : hold_auto_tables(d, v, e);   /* a dry run */
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
    d->name = a->name;
    d->tables_auto = strcmp(path, tables_auto_word) == 0;
    if (d->tables_auto)
        d->tables = NULL;   /* the variant's, at its first game */
    else if (tables_acquire_option(a->name, path, &d->tables, e) != 0)
        return -1;
    d->tables_path = path;
    a->check_variant = agent_tables_check;
    a->note_position = held_tables_note;
    return 0;
}

const Tables *agent_tables_for(AgentData *d, const Variant *v)
{
    if (d->tables_auto) {
        Error e;
        if (hold_auto_tables(d, v, &e) != 0) {
            fprintf(stderr, "anywoli: %s\n", e.msg);
            exit(1);
        }
    }
    return d->tables && tables_match(d->tables, v) ? d->tables : NULL;
}

int tables_option_digest(const char *value, uint64_t *out, Error *e)
{
    *out = 0;
    return strcmp(value, tables_auto_word) == 0 ? 0 : tables_file_digest(value, out, e);
}
