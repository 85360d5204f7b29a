/* margin.h: the exact score of a finished game, in seeds: the one place where the stores and
 * the award of the seeds left become a margin. The exact room's lowest floor (the tables'
 * index, the solver and the prover value their exits with it) and what the agents'
 * evaluation scores a finished game by. */
#ifndef ANYWOLI_MARGIN_H
#define ANYWOLI_MARGIN_H

#include "position.h"
#include "variant.h"

/* South's final margin in seeds (South minus North) for a game that stopped at p, for each
 * side the seeds left may go to: m[SOUTH] if South receives them, m[NORTH] if North does.
 * The two are equal unless the convention is the lottery; an endless move awards nothing. */
void margin_south(const Variant *v, const Position *p, MoveEvent ev, int m[2]);

/* The final margin of a game that ended (EV_OVER) at p, for p->side (its last mover), the
 * lottery at its expectation. */
int margin_final(const Variant *v, const Position *p);

/* The store difference of p for its side to move. */
int margin_stores(const Position *p);

#endif
