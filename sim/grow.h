/* grow.h: a results file that grows (`run --extend`) and files of one experiment put together
 * (`merge`), by one mechanism: the journal of the larger job is seeded with the games the
 * files hold, in game order, in the records the driver itself journals (rows, and for a job
 * that records its moves a DRIVER_KIND_MOVES record before them); then the checkpoint
 * engine resumes from that journal as from any other (checkpoint.h, RunOptions.grow): it
 * rebuilds FILE.partial, plays the games no file holds, and renames into FILE. So the grown
 * file is, game for game, the one an uninterrupted run of the larger experiment writes, and a
 * stop part-way leaves a journal that the same command continues.
 *
 *   files (complete) --check: same experiment but each job's first_game and games,
 *                             ranges disjoint and contiguous from the job's first game
 *                    --seed:  FILE.journal under the larger experiment's fingerprint
 *                    --resume (checkpoint.c) --> FILE.partial --> play the rest --> FILE */
#ifndef ANYWOLI_GROW_H
#define ANYWOLI_GROW_H

#include <stdbool.h>

#include "config.h"
#include "error.h"

/* The files a job grows from. */
typedef struct GrowFiles {
    const char *const *path;
    int n;
    bool in_place;           /* run --extend: the one file is FILE itself, its jobs' first
                              * games are the experiment's and their games may only grow */
} GrowFiles;

/* Whether the files can seed experiment x: each complete (its `finished` time, every job's
 * games all stored, no job stopped early), of x's experiment (seed; every job's name, index,
 * variant, agents as given and as played, openings, a book's openings rows, record_moves)
 * but each job's first_game and games, and together holding, for each job, games from its
 * first on without a gap or an overlap, no further than its last (all of them unless
 * in_place). -1 with one line naming the file and what differs. */
int grow_check(const Experiment *x, const GrowFiles *g, Error *e);

/* grow_check, then a new journal at path (which must not exist) under x's fingerprint and the
 * earliest `started` of the files, holding every game of theirs in game order; on failure
 * nothing is left at path. */
int grow_seed_journal(const Experiment *x, const GrowFiles *g, const char *path, Error *e);

/* The experiment that merges the files into output: the first file's jobs, each from the
 * first game any file holds for it, with all their games; its text the config of the file
 * holding the earliest games, with a comment naming the files merged. -1 with one line. */
int grow_merged_experiment(Experiment *x, const GrowFiles *g, const char *output, Error *e);

#endif
