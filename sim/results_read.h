/* results_read.h: reading a results file (format 1, docs/results.md) for analysis: the jobs it
 * holds, in the order they were run, their stored length histograms, and their game tables
 * streamed in chunks through one open file, so that memory stays flat however many games. */
#ifndef ANYWOLI_RESULTS_READ_H
#define ANYWOLI_RESULTS_READ_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "game.h"

/* An open results file. */
typedef struct ResultsFile ResultsFile;

/* Open path for reading: it must be an HDF5 file with format "anywoli-results" and
 * format_version 1, with a /jobs group. NULL with a one-line message otherwise. */
ResultsFile *rf_open(const char *path, Error *e);

/* Close the file and free it (NULL is allowed). */
void rf_close(ResultsFile *f);

/* The file's path as opened. */
const char *rf_path(const ResultsFile *f);

/* The number of jobs, and job i's name (0 .. count-1, ordered by the jobs' `index`). */
int rf_job_count(const ResultsFile *f);
const char *rf_job_name(const ResultsFile *f, int i);

/* A root text attribute (program_version, git_commit, config, started, finished, host) as a
 * malloc'd string, or NULL when absent. */
char *rf_root_text(const ResultsFile *f, const char *name);

/* Job `name`'s stored length_histogram as malloc'd counts (*len bins from 0 plies); returns
 * 1 when read, 0 when the job has none (a run still in progress), -1 on error. */
int rf_length_histogram(const ResultsFile *f, const char *name, uint64_t **counts, size_t *len,
                        Error *e);

/* A job's game table being read in order. */
typedef struct RowStream RowStream;

/* Start reading job `name`'s table from its first row. */
RowStream *rf_rows_open(const ResultsFile *f, const char *name, Error *e);

/* The rows of the table. */
uint64_t rf_rows_total(const RowStream *s);

/* The next rows, up to max of them, into out: the count read (0 at the end), or -1 on a
 * damaged table. */
int64_t rf_rows_next(RowStream *s, GameRecord *out, uint64_t max, Error *e);

/* Stop reading and free the stream (NULL is allowed). */
void rf_rows_close(RowStream *s);

#endif
