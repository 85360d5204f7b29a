/* openings.c: TEMPORARY STUB (only `start`). */
#include "openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



int openings_load(OpeningSet *s, const char *spec, const Variant *v, Error *e)
{
    (void)v;
    memset(s, 0, sizeof *s);
    if (strcmp(spec, "start") != 0)
        return error_set(e, "'%s' is not an openings spec (expected start)", spec);
    s->spec = strdup(spec);
    return 0;
}

void openings_free(OpeningSet *s)
{
    free(s->spec);
    free(s->path);
    free(s->list);
    memset(s, 0, sizeof *s);
}

int64_t openings_pair(const OpeningSet *s, const Variant *v, uint64_t seed, uint64_t job,
                      uint64_t pair, Opening *o)
{
    (void)s; (void)v; (void)seed; (void)job; (void)pair;
    memset(o, 0, sizeof *o);
    return -1;
}

int opening_apn(const Variant *v, const Opening *o, char *buf)
{
    Position p;
    if (o->has_position)
        p = o->position;
    else
        pos_start(v, &p);
    for (int i = 0; i < o->n_moves; i++) {
        MoveInfo info;
        pos_play(v, &p, o->moves[i], &p, &info, NULL);
    }
    apn_format(v, &p, buf);
    return 0;
}

void opening_moves_text(const Opening *o, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < o->n_moves && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? " " : "", o->moves[i]);
}
