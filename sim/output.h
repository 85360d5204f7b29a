/* output.h: the files of a job that writes one output (`run`, `tune`, `tables build`,
 * `export -o`, `openings`).
 *
 * A job writes FILE.partial (and, for `run` and `tune`, the journal FILE.journal) and puts the
 * complete file in place as FILE at the end. Around that work:
 *   - claim:   FILE.lock is locked (fcntl) for the whole job, so no second process, --force
 *              or --resume included, touches a live job's files; the refusal names the holder
 *              (what, pid, host, since when). The lock goes with the process, so a killed
 *              job leaves nothing that blocks the next one.
 *   - check:   only a regular file is ever replaced: FILE as something else (a folder, a
 *              device, a FIFO, a link) is refused at the start, --force or not.
 *   - create:  FILE.partial is made afresh (door.h: never through a link, never over a
 *              name that exists); a stale one left by a job that died is removed by the jobs
 *              that keep nothing to resume (output_clear_leftover).
 *   - publish: the final rename never replaces what appeared meanwhile: without --force
 *              nothing is replaced at all, with it only the regular file that was there when
 *              the job began.
 * The guarantees users read are in docs/results.md ("Concurrent and interrupted runs"). */
#ifndef ANYWOLI_OUTPUT_H
#define ANYWOLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "error.h"

typedef struct Output {
    char *path;               /* FILE */
    char *partial;            /* FILE.partial */
    char *journal;            /* FILE.journal */
    char *lock;               /* FILE.lock */
    int lock_fd;              /* -1 when not claimed */
    const char *what;         /* the command, for messages ("run", "tune", "tables build") */
    bool force;               /* FILE may be replaced */
    bool had_file;            /* FILE was a regular file at the claim: the one --force replaces */
    dev_t dev;                /* and its identity: a new file may reuse a removed one's inode
                               * number at once, so its change time counts too */
    ino_t ino;
    struct timespec ctime;
} Output;

/* path + suffix, malloc'd (FILE.partial, FILE.journal, ...). */
char *output_name(const char *path, const char *suffix);

/* Claim FILE for this process: `what` names the command in the lock and in messages ("run",
 * "tune", "tables build"). -1 with a one-line message when FILE exists and is not a regular
 * file, when it is a file this process reads or writes under another name (door.h; unless
 * `read_too`: `run --extend` replaces the file it grows from), when the folder cannot be
 * written, or when another process holds the claim (named). */
int output_claim(Output *o, const char *path, bool force, bool read_too, const char *what,
                 Error *e);

/* The one refusal of an output that exists without --force: -1 with "PATH already exists
 * (--force replaces it)". */
int output_refuse_existing(const char *path, Error *e);

/* A job that keeps nothing for a resume (`export`, `openings`, `tables build`), its claim
 * held: a FILE.partial there was left by a writer that died (the lock was free), so it is
 * removed, never followed, and *removed set; one that is not a regular file is refused
 * (-1 with a message). */
int output_clear_leftover(const Output *o, bool *removed, Error *e);

/* Put the complete file `from` in place as FILE (flushing the folder). -1 with a message,
 * and `from` left where it is, when FILE appeared or changed since the claim. */
int output_publish(const Output *o, const char *from, Error *e);

/* A claimed output of a job that keeps nothing to resume (every writer but the checkpointed
 * `run`, `tune` and `merge`): its FILE.partial is removed, with FILE.lock, should SIGINT,
 * SIGTERM, SIGHUP or an exit end the process before FILE is in place, so that a stopped
 * writer leaves nothing behind (until output_release). cli_claim_output calls it. */
void output_discard_on_stop(const Output *o);

/* An output written as one stream (`export -o`, `openings`, `learn fit`'s files, `fit
 * --dump`), its claim held: FILE.partial created afresh (door.h). NULL with a message when
 * it cannot be made. */
FILE *output_stream_open(Output *o, Error *e);

/* End output_stream_open's stream f: when `rc` (the writer's status) is 0, flush, close and
 * sync it and put it in place as FILE (0, or -1 with e: "cannot write: No space left on
 * device"); otherwise close it and remove FILE.partial, returning rc with the writer's e. */
int output_stream_close(Output *o, FILE *f, int rc, Error *e);

/* Give up the claim (removing FILE.lock) and free the names. Safe on a failed claim. */
void output_release(Output *o);

/* Flush a file's contents to the disk (-1 and e on failure); flush the folder holding path,
 * so that a rename or removal in it survives a crash. */
int output_flush_file(const char *path, Error *e);
void output_flush_folder(const char *path);

/* What to do with FILE, FILE.partial and FILE.journal before a checkpointed job writes
 * (`what` names it in messages): -1 refused (e says why: FILE exists without --force,
 * leftovers without --resume or --force, nothing to resume: --resume of a finished FILE, which
 * is left as it is, ...); 0 go on, with *resuming set when the journal
 * is to be continued (leftovers are removed on --force); 1 when FILE and its journal are all
 * that is left (a stop after the final rename): the caller asks output_sealed_leftover. */
int output_check_leftovers(const Output *o, bool resume, const char *what, bool *resuming,
                           Error *e);

/* Whether FILE.journal (with this row size and fingerprint) is sealed, that is the job it
 * records was complete when FILE was put in place: then the journal is removed and 1
 * returned; 0 when it is not (e says FILE already exists), -1 on a read error. */
int output_sealed_leftover(const Output *o, size_t row_bytes, const char *fingerprint,
                           Error *e);

#endif
