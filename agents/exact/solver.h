/* solver.h: exact values of positions, by retrograde analysis of the reachable state graph.
 *
 * A position's value is the best final seed margin (own minus opponent's, stores included)
 * that its side to move can force. The lottery counts at its expectation: the seeds left go
 * half to each side, so its margin is the store difference, a whole number; every value is
 * therefore an exact integer number of seeds. Play that never ends, and an endless move, are
 * valued as if the game stopped there with the seeds on the board unassigned (the store
 * difference). solver.c explains how cycles are solved and why the result is exact. */
#ifndef ANYWOLI_SOLVER_H
#define ANYWOLI_SOLVER_H

#include <stdint.h>

#include "position.h"
#include "variant.h"

/* The default cap on the states the solver may visit. */
#define SOLVER_MAX_STATES_DEFAULT 5000000u

typedef enum SolveStatus {
    SOLVE_OK = 0,        /* the value is exact */
    SOLVE_TOO_LARGE,     /* more states are reachable than the cap allows */
    SOLVE_NO_MEMORY      /* an allocation failed */
} SolveStatus;

/* One move of the position solved, with its exact value for the side to move. */
typedef struct SolveMove {
    int move;            /* the hole picked up */
    int value;           /* the margin the side to move can force after playing it */
    MoveEvent event;     /* what the move does */
} SolveMove;

/* The solution of one position. */
typedef struct SolveResult {
    int value;                    /* the position's value for its side to move */
    int n_moves;                  /* legal moves (none once the game is over) */
    SolveMove moves[MAX_PITS];    /* every legal move, best first, ties by hole */
    uint64_t states;              /* distinct states of the graph (positions up to stores) */
    uint64_t edges;               /* moves between states, terminal ones included */
    uint64_t components;          /* strongly connected components (cycles bind states) */
    uint64_t largest_component;   /* states in the largest one */
} SolveResult;

/* Solve p exactly, visiting at most max_states states. */
SolveStatus solver_solve(const Variant *v, const Position *p, uint64_t max_states,
                         SolveResult *r);

/* Endgame tables (tables.h). */
typedef struct Tables Tables;

/* Solve p exactly with endgame tables built for v: every state the tables cover (at most
 * their K seeds on the board) is an exit whose value they give, so only the states with more
 * seeds are visited, at most max_states of them. tables may be NULL (solver_solve). */
SolveStatus solver_solve_tables(const Variant *v, const Position *p, uint64_t max_states,
                                const Tables *tables, SolveResult *r);

#endif
