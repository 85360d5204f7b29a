/* driver.h: playing an experiment's games on every core into a results file, safely.
 *
 *   main thread                 OpenMP team (T threads)             writer thread
 *   -----------                 -----------------------             -------------
 *   for each job, each batch:
 *     play batch k  ----------> game i = f(seed, job, i), slot i
 *     hand batch k to writer  ------------------------------------> pack rows, journal
 *     play batch k+1 (the other buffer) while the writer writes      (CRC, fdatasync), HDF5,
 *                                                                    stats; progress line
 * Every game is a pure function of (experiment seed, job index, game index), so the tables
 * are the same for any thread count and batch size. A batch reaches the journal whole or
 * not at all; a stop on a signal cuts the batch in flight to its games played whole from its
 * start (searches give up, so their games are dropped). A resumed run rebuilds the HDF5 file
 * from the journal and goes on.
 *
 * Under MPI (cluster.h) every rank plays a contiguous share of each batch with its own
 * team, and rank 0 gathers the rows and alone writes: the journal and the file are those
 * of one process, so tables, resume and the format do not depend on the number of ranks.
 *
 * The files, resume, stops, progress and the orders between ranks are the checkpoint
 * engine's (checkpoint.h); the driver is its client for games: a record is a batch of
 * games of one job, (job, first game, n) and n packed rows. */
#ifndef ANYWOLI_DRIVER_H
#define ANYWOLI_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "agent.h"
#include "checkpoint.h"
#include "config.h"
#include "error.h"
#include "game.h"
#include "results.h"

/* A journal record of a batch's moves, rather than its rows: the job's index with this bit.
 * It comes just before the batch's rows, so that the rows record keeps the batch (a kill
 * between the two leaves moves without rows, which resume drops with the batch). Its rows
 * are the batch's moves in game order, one byte each, then zeros to a whole row. */
#define DRIVER_KIND_MOVES (UINT32_C(1) << 31)

/* What a run did. */
typedef struct RunReport {
    JobStats *stats;         /* per job: every game the file holds */
    int njobs;
    int64_t kept;            /* games in the file */
    int64_t total;           /* games the experiment asks for */
    int64_t played;          /* games played in this session */
    int64_t resumed;         /* games recovered from the journal */
    uint64_t dropped_bytes;  /* torn journal tail removed on resume */
    double seconds;          /* this session's time playing */
    int threads;             /* OpenMP threads per rank (rank 0's) */
    int all_threads;         /* every rank's, together */
    bool threads_vary;       /* not every rank has the same */
    int ranks;               /* MPI ranks (1 without MPI) */
    double gather_seconds;   /* rank 0's time gathering rows from the other ranks, waiting
                              * for the slowest included */
    int signal;              /* the signal that stopped the run, or 0 */
} RunReport;

/* Run the experiment into x->output (via x->output.partial and x->output.journal); RunStatus
 * and RunOptions are checkpoint.h's. */
RunStatus driver_run(const Experiment *x, const RunOptions *o, RunReport *rep, Error *e);

/* driver_run of a grow (o->grow: run --extend, merge): the journal is seeded from the files
 * (grow.h), unless one is left by a grow that was stopped; the job then resumes from it. */
struct GrowFiles;
RunStatus driver_grow(const Experiment *x, const struct GrowFiles *files, const RunOptions *o,
                      RunReport *rep, Error *e);

/* Free what a report holds. */
void run_report_free(RunReport *rep);

/* Play game `game` of job j: agent A is South in even games; games 2k and 2k+1 (pair k)
 * start from the pair's opening (openings_pair). With a and b NULL, both are `random` and
 * the engine's playout loop plays the game (the same game, faster; moves must then be
 * NULL). The game's moves go to `moves` unless it is NULL. 0, or game_play's code for an
 * abandoned game. */
int driver_play_game(const Job *j, int64_t seed, uint64_t game, Agent *a, Agent *b,
                     MoveList *moves, GameRecord *r);

/* Whether a spec names an agent that chooses uniformly (AgentKind.uniform, `random`): two
 * of them play a game by the fast random playout. */
bool driver_is_plain_random(const char *spec);

/* The names FILE.partial and FILE.journal for a results file (malloc'd). */
char *driver_partial_path(const char *output);
char *driver_journal_path(const char *output);

#endif
