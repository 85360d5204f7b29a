/* results.h: the results file, format 1 (see docs/results.md): writing it batch by batch, and
 * reading it back (results_read.h) for replay, analysis and checks.
 *
 * A game's record travels as a packed row of ROW_BYTES bytes (record_row.h, the one schema of
 * the games table); the same rows go to the journal and, unconverted, to HDF5 (the table's
 * compound type is that exact layout). */
#ifndef ANYWOLI_RESULTS_H
#define ANYWOLI_RESULTS_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "game.h"
#include "pairs.h"
#include "record_row.h"         /* the games table's row: packing, type, names */
#include "results_read.h"       /* reading: one reader, with its checks */

#define RESULTS_FORMAT "anywoli-results"
#define RESULTS_FORMAT_VERSION 1
#define RESULTS_CHUNK_ROWS 16384     /* rows per compressed chunk of a games table */

/* The root attributes every file of format 1 carries, all but `finished` (a run's and a
 * tuning's alike), rank_threads the threads of each rank (cluster_size() of them); -1 if HDF5
 * failed. */
int results_write_root(hid_t f, int64_t seed, const char *config, const char *started,
                       const int64_t *rank_threads);

/* A variant's parameters as attributes of group g, under their rule names. */
int results_write_variant(hid_t g, const Variant *v);

/* A row of a job's `openings` table: an opening's index (a game's `opening`), its moves as
 * text (opening_moves_text) and the position the agents start from (APN). */
typedef struct OpeningRow {
    int64_t index;
    char *moves;
    char *apn;
} OpeningRow;

/* The compound type of an openings row, in memory (OpeningRow) and in the file alike (the
 * strings variable-length UTF-8); -1 if HDF5 failed. The caller closes it. */
hid_t results_opening_type(void);

/* How a job with a sequential test stands: where it stopped, if it did. */
typedef struct JobStop {
    bool stopped;                    /* its test decided at pair `pair`: its last */
    int64_t pair;
    Sprt test;                       /* the test after its last pair counted */
} JobStop;

/* The summary of a job's games so far, in game order. */
typedef struct JobStats {
    int64_t games;                   /* games counted */
    int64_t outcome[5];              /* by Outcome */
    int64_t a_wins, b_wins;          /* games won by agent A, by agent B */
    int64_t plies;                   /* sum of plies */
    int64_t *hist;                   /* games by plies, 0 .. hist_len - 1 */
    size_t hist_len;                 /* longest game + 1 (0 before any game) */
    PairTally pairs;                 /* the games paired (2k, 2k+1), for the live figures and
                                      * the sequential test */
    JobStop stop;                    /* the job's sequential test (a job with `sprt`), or its
                                      * adaptive root design's stop (`root_design`) */
    RootRace *race;                  /* that design's race over the pairs counted (its rounds,
                                      * made with the first pair; NULL before) */
    uint64_t checksum;               /* the sum of the games' row_checksum: the job's
                                      * `games_checksum` */
} JobStats;

/* Count one game; 1 when it completed a counted pair, 0 when not, -1 when out of memory for
 * the histogram. */
int stats_add(JobStats *s, const GameRecord *r);

/* Free the histogram and clear the counts. */
void stats_free(JobStats *s);

/* The program version and git commit this binary was built from. */
const char *results_program_version(void);
const char *results_git_commit(void);

/* The current UTC time as ISO 8601 text (2024-05-01T12:34:56Z) into buf. */
void results_now(char *buf, size_t len);

/* A results file being written. */
typedef struct Results Results;

/* Create path (it must not exist) with the root attributes and every job's group: its
 * attributes, an empty games table and an empty openings table (its rows come with the
 * games: nothing is written for games not yet played, so creating the file takes no time
 * however many games the jobs have). */
Results *results_create(const char *path, const Experiment *x, const char *started,
                        const int64_t *rank_threads, Error *e);

/* Append n packed rows to job j's table; start must equal the rows it holds. For a job that
 * records its moves, `moves` holds the games' moves in order (their plies' worth, the sum of
 * `plies`), appended to /jobs/<job>/moves with their offsets in moves_index; else NULL. The
 * openings table grows to the openings the games [0, start + n) name (a pure function of the
 * seed, the job and the pair, so a resume writes the same rows). */
int results_append(Results *r, const Job *j, uint64_t start, uint32_t n,
                   const unsigned char *rows, const unsigned char *moves, Error *e);

/* Write a finished job's length histogram and summary attributes, and, for a job with a
 * sequential test, the test's state and where it stopped (s->stop); for an adaptive root
 * design, its rounds (root_round_first, root_round_lines) and, when the half-width stopped
 * it, that it did (stopped = "root_halfwidth") and at which pair. */
int results_end_job(Results *r, const Job *j, const JobStats *s, Error *e);

/* Write the root's `finished` time (the run is complete). */
int results_end(Results *r, const char *finished, Error *e);

/* Close the file (whatever happened before) and free r; -1 if closing failed. */
int results_close(Results *r, Error *e);

#endif
