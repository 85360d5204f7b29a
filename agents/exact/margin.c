/* margin.c: the exact score of a finished game (margin.h). */
#include "margin.h"

void margin_south(const Variant *v, const Position *p, MoveEvent ev, int m[2])
{
    int diff = p->store[SOUTH] - p->store[NORTH];
    m[SOUTH] = m[NORTH] = diff;
    if (ev != EV_OVER)
        return;
    if (v->final_four == FF_LOTTERY) {
        m[SOUTH] = diff + p->left;
        m[NORTH] = diff - p->left;
        return;
    }
    /* The coin plays no part under these conventions, so any stream will do. */
    static const Rng unused = { 0, 0 };
    Award a;
    pos_award(v, p, &unused, &a);
    m[SOUTH] = m[NORTH] = a.score[SOUTH] - a.score[NORTH];
}

int margin_final(const Variant *v, const Position *p)
{
    int m[2];
    margin_south(v, p, EV_OVER, m);
    int south = (m[SOUTH] + m[NORTH]) / 2;   /* exact: the two differ by twice the seeds left */
    return p->side == SOUTH ? south : -south;
}

int margin_stores(const Position *p)
{
    return p->store[p->side] - p->store[!p->side];
}
