/* checkpoint.h: the one engine of a checkpointed job, which `run` and `tune` are clients of.
 *
 * A long job writes FILE.partial and the journal FILE.journal, and renames FILE.partial to
 * FILE once complete. Everything around the work itself is here, once: the claim on the
 * output (output.h), what leftovers mean, a fresh start or a resume from the journal, clean
 * stops on signals, the progress line, the MPI orders between ranks, and the end. The client
 * says what its work is through CheckpointClient:
 *
 *   rank 0                                              other ranks
 *   ------                                              -----------
 *   claim FILE, look at what is left
 *   fresh: the journal, then create(FILE.partial)
 *   resume: create(FILE.partial), apply() each journal
 *           record in order, the torn tail dropped
 *   play(): the client's loop over shares of the work   loop on orders:
 *     checkpoint_order(order) -----------------------------> serve(order): play the share
 *     play this rank's share; gather or sum the shares      (the same collectives)
 *     checkpoint_keep(record): journal (flushed), apply()
 *   complete: end(), close(), flush, seal the journal,
 *     rename into FILE, remove the journal
 *   the end order (status, signal) ------------------------> the same status
 *
 * A record is what the journal holds: (kind, start, n) and n rows of record_bytes. apply()
 * is the only way a record reaches the client's file and state, live or on resume, so a
 * resumed job is the job that was stopped. */
#ifndef ANYWOLI_CHECKPOINT_H
#define ANYWOLI_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "journal.h"
#include "output.h"
#include "progress.h"

/* How a checkpointed job ended. */
typedef enum RunStatus {
    RUN_DONE = 0,            /* complete: FILE written */
    RUN_INTERRUPTED,         /* by a signal: FILE.partial and FILE.journal kept for --resume */
    RUN_REFUSED,             /* nothing was done: an existing file, or a path that cannot be
                              * written (the message says which) */
    RUN_FAILED,              /* an I/O failure part-way (full disk...): finished records kept */
    RUN_WAS_DONE             /* --resume found FILE complete and only its journal left (a stop
                              * after the final rename): the journal is removed */
} RunStatus;

/* Whether and how a job grows from files (RunOptions.grow). */
typedef enum RunGrow {
    RUN_GROW_NONE = 0,
    RUN_GROW_IN_PLACE,       /* FILE itself grows (run --extend): it must exist; the grown
                              * file replaces it at the end */
    RUN_GROW_NEW             /* from other files (merge): FILE is new, as a run's is */
} RunGrow;

typedef struct RunOptions {
    bool resume;             /* continue FILE.partial from its journal */
    bool force;              /* replace FILE, or start FILE.partial again */
    bool quiet;              /* no progress line */
    bool progress_json;      /* the progress as JSON lines (--progress json) */
    RunGrow grow;            /* the job grows from complete files (run --extend, merge): the
                              * client's seed() writes FILE.journal from them (or a stopped
                              * grow's journal is continued), and the job resumes from there */
} RunOptions;

typedef struct Checkpoint Checkpoint;

/* What a client's work is. Every callback gets the client's `self`; those returning int
 * return 0, or -1 with a message in e. */
typedef struct CheckpointClient {
    const char *command;     /* "run", "tune": the lock's holder and the leftover messages */
    const char *noun;        /* "run", "tuning": "the <noun> ended on rank 0" */
    size_t record_bytes;     /* bytes of a journal row */
    size_t order_bytes;      /* bytes of an order to the other ranks (0: none are sent) */
    /* What makes the job's results what they are, as text (malloc'd; NULL: no memory): a
     * journal resumes only the job with the same fingerprint. */
    char *(*fingerprint)(void *self);
    /* Create the client's FILE.partial at path (which does not exist). */
    int (*create)(void *self, const char *path, const char *started, Error *e);
    /* One record, in order, into the file and the client's state. */
    int (*apply)(void *self, uint32_t kind, uint64_t start, uint32_t n,
                 const unsigned char *rows, Error *e);
    /* Rank 0: play what is left (checkpoint_keep each finished record): 0 when the job is
     * complete, 1 when a stop left it short, -1 on failure. */
    int (*play)(void *self, Checkpoint *c, Error *e);
    /* The other ranks: play this rank's share of one order from rank 0. */
    void (*serve)(void *self, const void *order);
    /* Rank 0, the job complete: write the end of the file (the finished time). */
    int (*end)(void *self, const char *finished, Error *e);
    /* Close the file (e NULL: after a failure, nothing more to say). */
    int (*close)(void *self, Error *e);
    /* Rank 0, RunOptions.grow (NULL: the client cannot grow): create the journal at path
     * (which does not exist) under the job's fingerprint, holding as records what is kept
     * of the job so far; on failure nothing is left at path. */
    int (*seed)(void *self, const char *path, Error *e);
} CheckpointClient;

/* One checkpointed job. Clients keep it in their own state and read the public fields. */
struct Checkpoint {
    const CheckpointClient *k;
    void *self;
    const RunOptions *o;
    const char *output;      /* FILE */
    int threads;             /* this rank's OpenMP threads */
    int all_threads;         /* every rank's, together */
    int64_t *rank_threads;   /* each rank's, in rank order (while the job runs) */
    bool threads_vary;       /* not every rank has the same */
    Output out;              /* rank 0: the claim on FILE, with its .partial and .journal names */
    Journal journal;
    bool file_open;          /* the client's FILE.partial is open */
    Progress progress;       /* rank 0's progress line */
    unsigned char *order;    /* the order envelope */
    uint64_t dropped_bytes;  /* a torn journal tail removed on resume */
    int signal;              /* the signal that stopped the job, or 0 */
};

/* Run a job into output: threads per rank (0: checkpoint_default_threads), `ready` whether
 * this rank could prepare its part (false: the client has put the reason in e); all ranks
 * agree on it before anything starts. */
RunStatus checkpoint_run(Checkpoint *c, const CheckpointClient *k, void *self, const char *output,
                         int threads, const RunOptions *o, bool ready, Error *e);

/* Rank 0, in play(): journal a finished record (flushed), then apply() it. */
int checkpoint_keep(Checkpoint *c, uint32_t kind, uint64_t start, uint32_t n,
                    const unsigned char *rows, Error *e);

/* Rank 0, in play(): send the other ranks an order of order_bytes (nothing in one process). */
void checkpoint_order(Checkpoint *c, const void *order);

/* The exit status of a job that ended so: 0 complete, 128 + the signal that stopped it (1
 * for a stop without one), 2 refused, 1 failed. */
int checkpoint_exit_status(RunStatus st, int signal);

/* The threads a job uses unless told: OMP_NUM_THREADS if set, else the cores this process
 * may run on. */
int checkpoint_default_threads(void);

/* Seconds on a monotonic clock (rates and the progress line). */
double checkpoint_clock(void);

#endif
