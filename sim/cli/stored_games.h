/* stored_games.h: the games of a results file's jobs run with record_moves, handed one by
 * one (start and moves) to a caller that replays them: `tables agree` and `tables compare
 * --games`. */
#ifndef ANYWOLI_STORED_GAMES_H
#define ANYWOLI_STORED_GAMES_H

#include <stdint.h>

#include "results_read.h"

/* Whether a job's variant is one the caller can replay: 0, or -1 with a message saying why
 * not. */
typedef int (*JobFits)(const Variant *v, void *ctx, Error *e);

/* One game: its variant, the position its stored moves start from (the variant's start or
 * its opening's position), its moves, and `where` ("FILE: job NAME") for messages. */
typedef void (*GameVisit)(const Variant *v, const Position *start, const MoveList *moves,
                          const char *where, uint64_t game, void *ctx);

/* Every game of the jobs named (each must exist, have stored moves and fit: a one-line error,
 * exit status 2, otherwise), or with n_jobs 0 of every job that has stored moves and fits
 * (dies naming `wanted`, the variant asked for, when there is none), in file and game order.
 * Returns the jobs used. */
int stored_games_each(const ResultsFile *f, const char *const *jobs, int n_jobs, JobFits fits,
                      GameVisit visit, void *ctx, const char *wanted);

#endif
