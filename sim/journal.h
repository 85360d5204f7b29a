/* journal.h: the append-only journal that keeps every finished batch safe from a kill.
 *
 * HDF5 1.10 is not crash-safe, so each batch of packed game rows is also appended here, with
 * a CRC-32, and flushed to the disk (fdatasync) before the run goes on. The file is a header
 * (magic, row size, start time, the experiment's fingerprint, CRC) and then batch records
 * (magic, job, first game, games, payload size, payload, CRC), all integers little-endian;
 * the payload is the rows byte-shuffled and deflated. On resume the journal is read back
 * record by record; the first incomplete or damaged record and everything after it (a torn
 * tail, left by a kill in mid-write) is dropped. A seal record (no rows) may end the journal:
 * see journal_seal. */
#ifndef ANYWOLI_JOURNAL_H
#define ANYWOLI_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define JOURNAL_STARTED_MAX 40   /* bytes of the start time text, with its NUL */

typedef struct Journal {
    int fd;                      /* -1 when closed */
    char *path;
    size_t row_bytes;
    unsigned char *buf;          /* shuffle and deflate buffers, grown as needed */
    size_t cap;
} Journal;

/* Called for each verified batch on resume, in file order; nonzero stops the scan. */
typedef int (*JournalBatchFn)(void *ctx, uint32_t job, uint64_t start, uint32_t n,
                              const unsigned char *rows, Error *e);

/* What a resume found. */
typedef struct JournalScan {
    char started[JOURNAL_STARTED_MAX];   /* the first session's start time */
    uint64_t batches;                    /* verified batches */
    uint64_t dropped_bytes;              /* the torn tail, removed */
    bool sealed;                         /* the journal ends with its seal (journal_seal) */
} JournalScan;

/* Create a new journal (it must not exist) and flush its header. */
int journal_create(Journal *j, const char *path, size_t row_bytes, const char *fingerprint,
                   const char *started, Error *e);

/* Open an existing journal, lock it, check its header against the fingerprint, pass every
 * verified batch to fn, drop the torn tail, and leave it open for appending. -1 with a
 * message when it cannot be read, belongs to another experiment, or fn fails; -2 when the
 * header differs from the fingerprint (another experiment). */
int journal_resume(Journal *j, const char *path, size_t row_bytes, const char *fingerprint,
                   JournalBatchFn fn, void *ctx, JournalScan *scan, Error *e);

/* Append one batch of n packed rows of job `job` starting at game `start`, and flush it. */
int journal_append(Journal *j, uint32_t job, uint64_t start, uint32_t n,
                   const unsigned char *rows, Error *e);

/* Append the seal, flushed: the job the journal records is complete and its file is about to
 * be put in place, so a journal found sealed beside that file is only left to remove. */
int journal_seal(Journal *j, Error *e);

/* Close the journal (without removing it). */
void journal_close(Journal *j);

#endif
