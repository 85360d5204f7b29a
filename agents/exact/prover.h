/* prover.h: exact values by threshold search (alpha-beta with null windows and a
 * transposition table), probing endgame tables: for positions too large for the solver's
 * whole graph. prover.c explains why it is exact with cycles. */
#ifndef ANYWOLI_PROVER_H
#define ANYWOLI_PROVER_H

#include <stdint.h>

#include "position.h"
#include "solver.h"
#include "tables.h"
#include "variant.h"

/* Solve p exactly with tables (or NULL: only the end of the game and endless moves are
 * known), searching at most max_nodes positions; r as solver_solve fills it, with `states`
 * the positions kept in the transposition table and `edges` the positions searched (the
 * graph's components are not computed). */
SolveStatus prover_solve(const Variant *v, const Position *p, uint64_t max_nodes,
                         const Tables *tables, SolveResult *r);

#endif
