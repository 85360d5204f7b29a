/* tables_cache.c: the process-wide cache of opened tables files, behind tables_acquire and
 * tables_release. It is the one piece of the tables with state of its own (a list guarded by
 * an OpenMP critical section), so it is apart from the files that only compute: each file is
 * mapped and checked once however many agents, in however many threads, use it. An agent's
 * `tables=` option goes through it too (tables_acquire_option, tables_check_option), so that
 * alpha-beta and MCTS open and check their tables, and word the errors, the same way. */
#include "tables_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Sharing ---- */

/* Tables opened by path: each file is mapped and checked once, however many agents (in
 * however many threads) use it. */
typedef struct Shared {
    char *path;
    Tables *t;
    int users;
    struct Shared *next;
} Shared;

static Shared *shared;

int tables_acquire(const char *path, const Tables **out, Error *e)
{
    int rc = 0;
    #pragma omp critical(anywoli_tables)
    {
        Shared *s = shared;
        while (s && strcmp(s->path, path) != 0)
            s = s->next;
        if (!s) {
            Tables *t;
            s = calloc(1, sizeof *s);
            if (!s || !(s->path = strdup(path))) {
                rc = error_set(e, "out of memory");
            } else if ((rc = tables_open(path, &t, e)) == 0) {
                s->t = t;
                s->next = shared;
                shared = s;
            }
            if (rc != 0) {
                if (s)
                    free(s->path);
                free(s);
                s = NULL;
            }
        }
        if (s) {
            s->users++;
            *out = s->t;
        }
    }
    return rc;
}

void tables_release(const Tables *t)
{
    if (!t)
        return;
    #pragma omp critical(anywoli_tables)
    {
        for (Shared **at = &shared; *at; at = &(*at)->next) {
            Shared *s = *at;
            if (s->t == t) {
                if (--s->users == 0) {
                    *at = s->next;
                    tables_free(s->t);
                    free(s->path);
                    free(s);
                }
                break;
            }
        }
    }
}

int tables_acquire_option(const char *agent, const char *path, const Tables **out, Error *e)
{
    *out = NULL;
    Error inner;
    if (path[0] && tables_acquire(path, out, &inner) != 0)
        return error_set(e, "agent '%s': tables=%s", agent, inner.msg);
    return 0;
}

bool tables_note_option(const char *agent, const Tables *t, const char *path,
                        const Variant *v, const Position *p, char *buf, size_t size)
{
    int missing = t && tables_match(t, v) && !pos_over(v, p) ? tables_missing_level(t, p) : 0;
    if (!missing)
        return false;
    char levels[256];
    tables_describe_levels(t, levels, sizeof levels);
    snprintf(buf, size, "agent '%s': tables=%s do not hold level %d, which this position "
             "reaches (they hold levels %s): positions there are searched without them",
             agent, path, missing, levels);
    return true;
}

int tables_check_option(const char *agent, const Tables *t, const char *path, const Variant *v,
                        Error *e)
{
    if (!t || tables_match(t, v))
        return 0;
    Error inner;
    tables_check_variant(t, v, path, &inner);
    return error_set(e, "agent '%s': tables=%s", agent, inner.msg);
}
