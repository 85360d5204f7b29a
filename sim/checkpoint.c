/* checkpoint.c: the lifecycle of a checkpointed job (claim, fresh start or resume, play,
 * finish), on rank 0, and the loop of orders on the other ranks. */
#include "checkpoint.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "results.h"
#include "stop.h"

/* What rank 0 sends before each share, and at the end; the client's order follows it. */
enum { ORDER_WORK = 1, ORDER_END };

typedef struct OrderHead {
    int32_t kind;
    int32_t status;          /* ORDER_END: how the job ended (RunStatus), and the signal */
    int32_t signal;
    int32_t pad;
} OrderHead;

double checkpoint_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int checkpoint_exit_status(RunStatus st, int signal)
{
    switch (st) {
    case RUN_DONE:
    case RUN_WAS_DONE: return 0;
    case RUN_INTERRUPTED: return signal ? 128 + signal : 1;
    case RUN_REFUSED: return 2;
    case RUN_FAILED:
    default: return 1;
    }
}

int checkpoint_default_threads(void)
{
    /* omp_get_num_procs counts the cores this process may run on (its affinity mask, which
     * mpirun or srun binding sets per rank); OMP_NUM_THREADS, when set, overrides it. */
    const char *env = getenv("OMP_NUM_THREADS");
    return env && *env ? omp_get_max_threads() : omp_get_num_procs();
}

/* The envelope: the head, then the client's order. */
static size_t order_size(const Checkpoint *c)
{
    return sizeof(OrderHead) + c->k->order_bytes;
}

/* Rank 0: send the envelope as it stands, with its head set. */
static void send_envelope(Checkpoint *c, int kind, RunStatus status, int sig)
{
    if (cluster_size() == 1)
        return;
    OrderHead h = { kind, (int32_t)status, sig, 0 };
    memcpy(c->order, &h, sizeof h);
    cluster_broadcast(c->order, order_size(c));
}

void checkpoint_order(Checkpoint *c, const void *order)
{
    if (cluster_size() == 1)
        return;
    memcpy(c->order + sizeof(OrderHead), order, c->k->order_bytes);
    send_envelope(c, ORDER_WORK, RUN_DONE, 0);
}

int checkpoint_keep(Checkpoint *c, uint32_t kind, uint64_t start, uint32_t n,
                    const unsigned char *rows, Error *e)
{
    if (journal_append(&c->journal, kind, start, n, rows, e) != 0)
        return -1;
    return c->k->apply(c->self, kind, start, n, rows, e);
}

/* The client's fingerprint, or a message. */
static char *fingerprint(Checkpoint *c, Error *e)
{
    char *fp = c->k->fingerprint(c->self);
    if (!fp)
        error_set(e, "out of memory");
    return fp;
}

/* Decide what to do with the files already there; RUN_DONE to go on, RUN_WAS_DONE when the
 * output is complete and only its journal was left (a stop after the final rename). */
static RunStatus check_paths(Checkpoint *c, bool *resuming, Error *e)
{
    int rc = output_check_leftovers(&c->out, c->o->resume, c->k->noun, resuming, e);
    if (rc == 1) {
        char *fp = fingerprint(c, e);
        rc = fp ? output_sealed_leftover(&c->out, c->k->record_bytes, fp, e) : -1;
        free(fp);
        return rc == 1 ? RUN_WAS_DONE : rc == 0 ? RUN_REFUSED : RUN_FAILED;
    }
    return rc == 0 ? RUN_DONE : RUN_REFUSED;
}

/* Remove a file that may be absent; -1 with a message on another failure. */
static int remove_leftover(const char *path, Error *e)
{
    if (unlink(path) != 0 && errno != ENOENT)
        return error_set(e, "cannot remove %s: %s", path, strerror(errno));
    return 0;
}

/* A grow (RunOptions.grow): FILE must be there to grow in place, and not be there (unless
 * --force) for a new one. A journal left by a stopped grow is continued (or, when it is
 * sealed, only removed: RUN_WAS_DONE); with --force, or with no journal, the client seeds one
 * afresh from its files. Either way the job then resumes. */
static RunStatus check_grow(Checkpoint *c, bool *resuming, Error *e)
{
    const Output *out = &c->out;
    struct stat st;
    *resuming = true;
    if (c->o->grow == RUN_GROW_IN_PLACE && !out->had_file)
        return error_set(e, "nothing to extend: %s does not exist", c->output), RUN_REFUSED;
    if (!c->k->seed)
        return error_set(e, "anywoli %s cannot extend a file", c->k->command), RUN_REFUSED;
    bool journal = lstat(out->journal, &st) == 0, partial = lstat(out->partial, &st) == 0;
    if (journal && !partial && !c->o->force) {
        char *fp = fingerprint(c, e);
        int rc = fp ? output_sealed_leftover(out, c->k->record_bytes, fp, e) : -1;
        free(fp);
        if (rc != 0)
            return rc == 1 ? RUN_WAS_DONE : RUN_FAILED;
    }
    if (c->o->grow == RUN_GROW_NEW && out->had_file && !c->o->force)
        return output_refuse_existing(c->output, e), RUN_REFUSED;
    if (journal && !c->o->force)
        return RUN_DONE;
    /* A partial file without its journal was not left by this command's stop (which keeps
     * both): it is refused as `run` refuses it, never removed unasked. */
    if (partial && !c->o->force)
        return error_set(e, "%s is left without its journal %s (a stop keeps both): --force "
                         "starts again", out->partial, out->journal), RUN_REFUSED;
    if (remove_leftover(out->partial, e) != 0 || remove_leftover(out->journal, e) != 0)
        return RUN_REFUSED;
    return c->k->seed(c->self, out->journal, e) == 0 ? RUN_DONE : RUN_REFUSED;
}

/* Create the client's FILE.partial. */
static int create_file(Checkpoint *c, const char *started, Error *e)
{
    if (c->k->create(c->self, c->out.partial, started, e) != 0)
        return -1;
    c->file_open = true;
    return 0;
}

/* Close the client's file, if open; -1 if closing failed (e NULL: no message wanted). */
static int close_file(Checkpoint *c, Error *e)
{
    if (!c->file_open)
        return 0;
    c->file_open = false;
    return c->k->close(c->self, e);
}

/* Start afresh: the journal first (the proof that the path is writable), then the file. */
static RunStatus open_fresh(Checkpoint *c, Error *e)
{
    char started[JOURNAL_STARTED_MAX];
    Error inner;
    char *fp = fingerprint(c, &inner);
    results_now(started, sizeof started);
    int rc = fp ? journal_create(&c->journal, c->out.journal, c->k->record_bytes, fp, started,
                                 &inner)
                : -1;
    free(fp);
    if (rc != 0) {
        error_set(e, "cannot write results to %s: %s", c->output, inner.msg);
        return RUN_REFUSED;
    }
    if (create_file(c, started, e) != 0) {
        journal_close(&c->journal);
        unlink(c->out.journal);
        return RUN_REFUSED;
    }
    return RUN_DONE;
}

/* What a resume's journal scan works with. */
typedef struct ResumeCtx {
    Checkpoint *c;
    JournalScan *scan;
} ResumeCtx;

/* The new FILE.partial of a resume, once the journal's header checks out (the old one may
 * hold rows the journal does not: the journal is what counts). */
static int resume_create(Checkpoint *c, const JournalScan *scan, Error *e)
{
    if (c->file_open)
        return 0;
    if (unlink(c->out.partial) != 0 && errno != ENOENT)
        return error_set(e, "cannot replace %s: %s", c->out.partial, strerror(errno));
    return create_file(c, scan->started, e);
}

/* A verified journal record on resume: into the new file, through the client. */
static int resume_record(void *ctx, uint32_t kind, uint64_t start, uint32_t n,
                         const unsigned char *rows, Error *e)
{
    ResumeCtx *r = ctx;
    if (resume_create(r->c, r->scan, e) != 0)
        return -1;
    return r->c->k->apply(r->c->self, kind, start, n, rows, e);
}

/* Resume: verify the journal, rebuild FILE.partial from it, drop its torn tail. */
static RunStatus open_resume(Checkpoint *c, Error *e)
{
    JournalScan scan;
    ResumeCtx ctx = { c, &scan };
    char *fp = fingerprint(c, e);
    if (!fp)
        return RUN_FAILED;
    int rc = journal_resume(&c->journal, c->out.journal, c->k->record_bytes, fp, resume_record,
                            &ctx, &scan, e);
    free(fp);
    if (rc == 0)
        rc = resume_create(c, &scan, e);
    if (rc != 0) {
        bool untouched = !c->file_open;
        close_file(c, NULL);
        if (untouched) {
            size_t n = strlen(e->msg);
            snprintf(e->msg + n, sizeof e->msg - n, " (--force starts again)");
        }
        return untouched ? RUN_REFUSED : RUN_FAILED;
    }
    c->dropped_bytes = scan.dropped_bytes;
    return RUN_DONE;
}

/* The complete job: the end of the file, closed, flushed; the journal sealed; the file put in
 * place (never over one that appeared meanwhile); the journal removed. */
static RunStatus finish(Checkpoint *c, Error *e)
{
    char finished[JOURNAL_STARTED_MAX];
    results_now(finished, sizeof finished);
    int rc = c->k->end(c->self, finished, e);
    int closed = close_file(c, rc ? NULL : e);
    if (rc || closed || output_flush_file(c->out.partial, e) != 0 ||
        journal_seal(&c->journal, e) != 0 || output_publish(&c->out, c->out.partial, e) != 0)
        return RUN_FAILED;
    journal_close(&c->journal);
    unlink(c->out.journal);
    output_flush_folder(c->out.journal);
    return RUN_DONE;
}

/* Play what is left and finish, or keep what was done for --resume. */
static RunStatus play(Checkpoint *c, Error *e)
{
    int rc = c->k->play(c->self, c, e);
    progress_clear(&c->progress);
    if (rc == 0)
        return finish(c, e);
    Error close_error;
    if (close_file(c, &close_error) != 0 && rc > 0) {
        *e = close_error;
        rc = -1;
    }
    if (rc < 0)
        return RUN_FAILED;
    c->signal = stop_signal;
    return RUN_INTERRUPTED;
}

/* Rank 0 (or the only process): the files, the play, and the end of the job. */
static RunStatus lead(Checkpoint *c, Error *e)
{
    StopGuard guard;
    bool resuming;
    /* A grow replaces FILE at the end, as --force does. */
    bool replace = c->o->force || c->o->grow == RUN_GROW_IN_PLACE;
    RunStatus st = output_claim(&c->out, c->output, replace,
                                c->o->grow == RUN_GROW_IN_PLACE, c->k->command, e) != 0 ? RUN_REFUSED
                   : c->o->grow ? check_grow(c, &resuming, e) : check_paths(c, &resuming, e);
    if (st == RUN_DONE) {
        stop_catch(&guard);
        progress_init(&c->progress, c->o->quiet, c->o->progress_json);
        st = resuming ? open_resume(c, e) : open_fresh(c, e);
        if (st == RUN_DONE)
            st = play(c, e);
        stop_release(&guard);
    }
    send_envelope(c, ORDER_END, st, c->signal);
    close_file(c, NULL);
    journal_close(&c->journal);
    output_release(&c->out);
    return st;
}

/* The other ranks: serve rank 0's orders until it ends the job; its status is theirs. */
static RunStatus follow(Checkpoint *c, Error *e)
{
    StopGuard guard;
    stop_catch(&guard);
    OrderHead h;
    for (;;) {
        cluster_broadcast(c->order, order_size(c));
        memcpy(&h, c->order, sizeof h);
        if (h.kind == ORDER_END)
            break;
        c->k->serve(c->self, c->order + sizeof h);
    }
    stop_release(&guard);
    c->signal = h.signal;
    RunStatus st = (RunStatus)h.status;
    if (st != RUN_DONE)
        error_set(e, "the %s ended on rank 0 (its message says why)", c->k->noun);
    return st;
}

/* Each rank's threads into c->rank_threads (the file records them); returns their sum. */
static int gather_threads(Checkpoint *c)
{
    int64_t mine = c->threads;
    uint8_t *all;
    cluster_allgather(&mine, sizeof mine, &all);
    c->rank_threads = (int64_t *)all;
    int64_t sum = 0;
    for (int r = 0; r < cluster_size(); r++) {
        sum += c->rank_threads[r];
        c->threads_vary |= c->rank_threads[r] != c->threads;
    }
    return (int)sum;
}

/* Whether every rank was given rank 0's work (the client's fingerprint): ranks read their own
 * config and command line, and one that differs would put another job's results in the file.
 * On every rank; false with a message (rank 0's names the first rank that differs). */
static bool same_work_on_every_rank(Checkpoint *c, Error *e)
{
    if (cluster_size() == 1)
        return true;
    char *fp = c->k->fingerprint(c->self);
    if (cluster_max(fp == NULL) != 0) {
        free(fp);
        error_set(e, "out of memory on a rank");
        return false;
    }
    int other = cluster_first_differing(fp);
    free(fp);
    if (other < 0)
        return true;
    error_set(e, "rank %d was given another %s than rank 0 (its config file or options "
              "differ): every rank must be given the same one", other, c->k->noun);
    return false;
}

RunStatus checkpoint_run(Checkpoint *c, const CheckpointClient *k, void *self, const char *output,
                         int threads, const RunOptions *o, bool ready, Error *e)
{
    memset(c, 0, sizeof *c);
    c->k = k;
    c->self = self;
    c->o = o;
    c->output = output;
    c->journal.fd = -1;
    c->out.lock_fd = -1;
    c->threads = threads > 0 ? threads : checkpoint_default_threads();
    c->all_threads = c->threads;
    c->order = calloc(1, order_size(c));
    if (ready && !c->order)
        ready = error_set(e, "out of memory") == 0;
    RunStatus st = RUN_FAILED;
    omp_set_dynamic(0);
    if (cluster_all(ready)) {
        c->all_threads = gather_threads(c);
        if (!same_work_on_every_rank(c, e))
            st = RUN_REFUSED;
        else
            st = cluster_leads() ? lead(c, e) : follow(c, e);
    } else if (ready) {
        error_set(e, "out of memory on another rank");
    }
    close_file(c, NULL);
    journal_close(&c->journal);
    free(c->order);
    c->order = NULL;
    free(c->rank_threads);
    c->rank_threads = NULL;
    return st;
}
