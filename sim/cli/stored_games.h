/* stored_games.h: the jobs of a results file run with record_moves that a command can use,
 * their games replayed position by position (rf_walk_games) for `tables agree` and `tables
 * compare --games`. */
#ifndef ANYWOLI_STORED_GAMES_H
#define ANYWOLI_STORED_GAMES_H

#include <stdint.h>

#include "results_read.h"

/* Whether job `name`'s variant is one the caller can replay: 0, or -1 with a message saying
 * why not. Asked of each job with stored moves just before its games are walked, so a 0 also
 * tells the caller which job the games that follow belong to. */
typedef int (*JobFits)(const char *name, const Variant *v, void *ctx, Error *e);

/* Walk (w) every game of the jobs named (each must exist, have stored moves and fit: a
 * one-line error, exit status 2, otherwise), or with n_jobs 0 of every job that has stored
 * moves and fits (dies naming `wanted`, the variant asked for, when there is none; NULL:
 * any variant), in file and game order; `fits` gets w->ctx. Dies on damaged moves. Returns
 * the jobs used. */
int stored_games_each(const ResultsFile *f, const char *const *jobs, int n_jobs, JobFits fits,
                      const GameWalk *w, const char *wanted);

#endif
