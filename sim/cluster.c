/* cluster.c: MPI ranks behind cluster.h, or one process when built without MPI or started
 * without a launcher. */
#include "cluster.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if ANYWOLI_MPI
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#endif

static int my_rank = 0;
static int n_ranks = 1;
static bool joined = false;
static uint64_t calls = 0;   /* collective calls into MPI, for the figures of a build */

bool cluster_joined(void)
{
    return joined;
}

uint64_t cluster_calls(void)
{
    return calls;
}

/* A buffer of n bytes for rows from the ranks, or every rank ends (a rank alone out of
 * memory cannot leave the others waiting in a collective). */
static uint8_t *gathered(uint64_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "anywoli (rank %d): out of memory for %llu bytes from the ranks\n",
                my_rank, (unsigned long long)n);
        cluster_abort(1);
    }
    return p;
}

/* The gather of one rank: a copy of its own bytes. */
static uint64_t own_copy(const void *mine, uint64_t n, uint8_t **all)
{
    *all = gathered(n);
    if (n)
        memcpy(*all, mine, n);
    return n;
}

void cluster_share(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi)
{
    *lo = n * (uint64_t)rank / (uint64_t)size;
    *hi = n * (uint64_t)(rank + 1) / (uint64_t)size;
}

int cluster_rank(void)
{
    return my_rank;
}

int cluster_size(void)
{
    return n_ranks;
}

bool cluster_leads(void)
{
    return my_rank == 0;
}

#if ANYWOLI_MPI

bool cluster_has_mpi(void)
{
    return true;
}

/* Whether an MPI launcher started this process: Open MPI's mpirun, or a PMI or PMIx
 * launcher such as Slurm's srun. Initialising MPI without one would make Open MPI start a
 * singleton runtime for nothing. */
static bool launched_by_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE") ||
           getenv("PMI_RANK");
}

/* ---- the watch ----
 *
 * A thread of each rank (when there are several, and MPI allows threads to call it) on a
 * communicator of its own, beside the main thread's collectives:
 *
 *   rank 0 --beat--> every rank, every rank --beat--> rank 0, once a second; a rank that
 *     hears nothing from one it watches for the peer timeout (a frozen or lost node) ends
 *     the job with one line, rather than leave it waiting for ever in a collective;
 *   a signal to one rank (cluster_note_stop) --stop--> every other rank, whose stop hook
 *     makes it stop too (its searches give up) within a fraction of a second;
 *   a rank that stops but still waits in a collective STOP_GRACE seconds later (a peer that
 *     cannot answer) ends the job, with the signal's exit status;
 *   a rank that ends normally says bye, and is watched no more. */

#define WATCH_TICK_NS 50000000L   /* the watch looks every 50 ms */
#define BEAT_SECONDS 1.0          /* between heartbeats */
#define STOP_GRACE 10.0           /* seconds a stopping rank waits in a collective, at most */
#define SPEAK_DELAY 2.0           /* seconds per rank past 0 before it speaks for the job */

enum { TAG_BEAT = 1, TAG_STOP, TAG_BYE };

static MPI_Comm watch_comm;
static pthread_t watch_thread;
static bool watching;
static atomic_int watch_quit;
static atomic_int local_stop;             /* the signal that reached this rank, or 0 */
static atomic_llong waiting_since_ms;     /* the main thread in a collective since, or 0 */
static atomic_llong peer_timeout_ms = (long long)(CLUSTER_PEER_TIMEOUT * 1000);
static void (*_Atomic stop_hook)(int sig);
static char command_name[64] = "anywoli";
static char resume_note[2560];            /* what a job the watch ends keeps, how to go on */

/* Milliseconds on a monotonic clock (never 0 once running). */
static long long clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + 1;
}

/* The main thread enters a blocking collective (the watch's stop grace counts from here). */
static void wait_begin(void)
{
    atomic_store(&waiting_since_ms, clock_ms());
}

/* The main thread has left it. */
static void wait_end(void)
{
    atomic_store(&waiting_since_ms, 0);
}

/* End the whole job from the watch with one line: rank 0 speaks at once; a rank past 0 (for
 * a silent rank 0) waits SPEAK_DELAY a rank first, so that when several notice together the
 * lowest speaks and mpirun ends the others before they do. */
static void give_up(int status, const char *what)
{
    if (my_rank > 0) {
        struct timespec ts = { (time_t)(SPEAK_DELAY * my_rank), 0 };
        nanosleep(&ts, NULL);
    }
    char rank[32] = "";
    if (my_rank > 0)
        snprintf(rank, sizeof rank, " (rank %d)", my_rank);
    /* On a terminal, the line replaces a progress line (progress.h). */
    fprintf(stderr, "%s%s%s: %s, so every rank stops%s%s\n", isatty(2) ? "\r\033[K" : "",
            command_name, rank, what, resume_note[0] ? "; " : "", resume_note);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, status);
}

/* Send one int to a rank on the watch's communicator, without waiting for it. */
static void watch_send(int to, int tag, int value)
{
    static int values[TAG_BYE + 1];
    values[tag] = value;
    MPI_Request r;
    MPI_Isend(&values[tag], 1, MPI_INT, to, tag, watch_comm, &r);
    MPI_Request_free(&r);
}

/* The watch's state: when each rank was last heard, which said bye, the stop. */
typedef struct Watch {
    long long *heard;
    bool *gone;
    int stop;                 /* the signal of the stop this rank is making, or 0 */
    long long stop_ms;        /* since when */
    bool stop_told;           /* this rank's own signal was passed on */
} Watch;

/* Send to the ranks this one talks to (rank 0 to every other, the others to rank 0), but
 * not to one that said bye. */
static void watch_tell(const Watch *w, int tag, int value)
{
    for (int r = 0; r < n_ranks; r++)
        if (r != my_rank && (my_rank == 0 || r == 0) && !w->gone[r])
            watch_send(r, tag, value);
}

/* Take every message waiting: beats, byes and stops. */
static void watch_receive(Watch *w, long long t)
{
    for (;;) {
        int flag = 0, value;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, watch_comm, &flag, &st);
        if (!flag)
            return;
        MPI_Recv(&value, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, watch_comm, MPI_STATUS_IGNORE);
        w->heard[st.MPI_SOURCE] = t;
        if (st.MPI_TAG == TAG_BYE)
            w->gone[st.MPI_SOURCE] = true;
        void (*hook)(int) = atomic_load(&stop_hook);
        if (st.MPI_TAG == TAG_STOP && !w->stop && hook) {
            w->stop = value;
            w->stop_ms = t;
            hook(value);
        }
    }
}

/* Pass this rank's own signal on to the others (once), and take it as this rank's stop. */
static void watch_local_stop(Watch *w, long long t)
{
    int sig = atomic_load(&local_stop);
    if (!sig || w->stop_told)
        return;
    w->stop_told = true;
    for (int r = 0; r < n_ranks; r++)
        if (r != my_rank)
            watch_send(r, TAG_STOP, sig);
    if (!w->stop) {
        w->stop = sig;
        w->stop_ms = t;
    }
}

/* The name of a signal, for the line that ends a stop. */
static const char *signal_name(int sig)
{
    return sig == 2 ? "SIGINT" : sig == 15 ? "SIGTERM" : "a signal";
}

/* End the job when a watched rank has been silent past the timeout, or when a stop still
 * waits in a collective STOP_GRACE seconds on. */
static void watch_judge(const Watch *w, long long t)
{
    char what[200];
    long long limit = atomic_load(&peer_timeout_ms);
    for (int r = 0; limit > 0 && r < n_ranks; r++) {
        if (r == my_rank || (my_rank != 0 && r != 0) || w->gone[r] || t - w->heard[r] <= limit)
            continue;
        snprintf(what, sizeof what, "rank %d has not been heard from for %.0f s (a frozen or "
                 "lost node? --peer-timeout sets the limit)", r, (double)(t - w->heard[r]) / 1000);
        give_up(1, what);
    }
    long long since = atomic_load(&waiting_since_ms);
    if (w->stop && since) {
        long long from = since > w->stop_ms ? since : w->stop_ms;
        if (t - from > (long long)(STOP_GRACE * 1000)) {
            snprintf(what, sizeof what, "stopped by %s, but another rank did not answer within "
                     "%.0f s", signal_name(w->stop), STOP_GRACE);
            give_up(128 + w->stop, what);
        }
    }
}

/* The watch thread (see above). */
static void *watch_main(void *arg)
{
    (void)arg;
    Watch w = { calloc((size_t)n_ranks, sizeof *w.heard), calloc((size_t)n_ranks, 1), 0, 0,
                false };
    if (!w.heard || !w.gone) {
        fprintf(stderr, "%s (rank %d): out of memory for the watch\n", command_name, my_rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long long t = clock_ms(), next_beat = t;
    for (int r = 0; r < n_ranks; r++)
        w.heard[r] = t;
    while (!atomic_load(&watch_quit)) {
        t = clock_ms();
        watch_receive(&w, t);
        watch_local_stop(&w, t);
        if (t >= next_beat) {
            watch_tell(&w, TAG_BEAT, 0);
            next_beat = t + (long long)(BEAT_SECONDS * 1000);
        }
        watch_judge(&w, t);
        struct timespec ts = { 0, WATCH_TICK_NS };
        nanosleep(&ts, NULL);
    }
    watch_tell(&w, TAG_BYE, 0);
    free(w.heard);
    free(w.gone);
    return NULL;
}

/* Start the watch (several ranks, and an MPI that lets a second thread call it). */
static void watch_start(int provided)
{
    if (n_ranks == 1)
        return;
    if (provided < MPI_THREAD_MULTIPLE) {
        if (my_rank == 0)
            fprintf(stderr, "anywoli: this MPI library does not let threads call it "
                    "(MPI_THREAD_MULTIPLE): a frozen rank will not be noticed, and a signal to "
                    "one rank reaches the others only after the batch in flight\n");
        return;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &watch_comm);
    /* A heartbeat that cannot be sent (a peer gone) is the watch's business, not a crash. */
    MPI_Comm_set_errhandler(watch_comm, MPI_ERRORS_RETURN);
    watching = pthread_create(&watch_thread, NULL, watch_main, NULL) == 0;
}

/* Stop the watch (saying bye) before MPI ends. */
static void watch_stop(void)
{
    if (!watching)
        return;
    atomic_store(&watch_quit, 1);
    pthread_join(watch_thread, NULL);
    watching = false;
}

/* At exit: the watch stops (saying bye), then MPI ends. */
static void finalize_at_exit(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (done)
        return;
    watch_stop();
    MPI_Finalize();
}

void cluster_start(int *argc, char ***argv)
{
    if (!launched_by_mpi())
        return;
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    joined = true;
    atexit(finalize_at_exit);
    watch_start(provided);
}

void cluster_set_peer_timeout(double seconds)
{
    atomic_store(&peer_timeout_ms, (long long)(seconds * 1000));
}

void cluster_note_stop(int sig)
{
    int none = 0;
    atomic_compare_exchange_strong(&local_stop, &none, sig);
}

void cluster_on_stop(void (*hook)(int sig))
{
    atomic_store(&stop_hook, hook);
}

void cluster_set_command(const char *name)
{
    snprintf(command_name, sizeof command_name, "%s", name);
}

void cluster_set_resume_note(const char *note)
{
    snprintf(resume_note, sizeof resume_note, "%s", note);
}

uint64_t cluster_allgather(const void *mine, uint64_t n, uint8_t **all)
{
    if (n_ranks == 1)
        return own_copy(mine, n, all);
    int64_t *count = (int64_t *)gathered((size_t)n_ranks * sizeof *count);
    int *sizes = (int *)gathered((size_t)n_ranks * sizeof *sizes);
    int *offsets = (int *)gathered((size_t)n_ranks * sizeof *offsets);
    int64_t own = (int64_t)n;
    wait_begin();
    MPI_Allgather(&own, 1, MPI_INT64_T, count, 1, MPI_INT64_T, MPI_COMM_WORLD);
    wait_end();
    uint64_t total = 0;
    for (int r = 0; r < n_ranks; r++) {
        offsets[r] = (int)total;
        sizes[r] = (int)count[r];
        total += (uint64_t)count[r];
    }
    if (total > INT_MAX) {
        if (my_rank == 0)
            fprintf(stderr, "anywoli: an exchange of %llu bytes between ranks is more than "
                    "the 2^31 one MPI call moves\n", (unsigned long long)total);
        cluster_abort(1);
    }
    *all = gathered(total);
    wait_begin();
    MPI_Allgatherv(mine, (int)n, MPI_BYTE, *all, sizes, offsets, MPI_BYTE, MPI_COMM_WORLD);
    wait_end();
    calls += 2;
    free(count);
    free(sizes);
    free(offsets);
    return total;
}

void cluster_broadcast(void *buf, size_t bytes)
{
    if (n_ranks > 1) {
        wait_begin();
        MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        wait_end();
        calls++;
    }
}

int64_t cluster_max(int64_t x)
{
    int64_t y = x;
    if (n_ranks > 1) {
        wait_begin();
        MPI_Allreduce(&x, &y, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
        wait_end();
        calls++;
    }
    return y;
}

int64_t cluster_sum(int64_t x)
{
    int64_t y = x;
    if (n_ranks > 1) {
        wait_begin();
        MPI_Allreduce(&x, &y, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        wait_end();
        calls++;
    }
    return y;
}

void cluster_sum_array(int64_t *v, int n)
{
    if (n_ranks > 1 && n > 0) {
        wait_begin();
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        wait_end();
        calls++;
    }
}

void cluster_gather_rows(const unsigned char *mine, unsigned char *rows_all,
                         const uint32_t *counts, size_t bytes)
{
    if (n_ranks == 1)
        return;
    int *sizes = NULL, *offsets = NULL;
    if (my_rank == 0) {
        sizes = malloc((size_t)n_ranks * sizeof *sizes);
        offsets = malloc((size_t)n_ranks * sizeof *offsets);
        if (!sizes || !offsets)
            MPI_Abort(MPI_COMM_WORLD, 1);
        int at = 0;
        for (int r = 0; r < n_ranks; r++) {
            sizes[r] = (int)(counts[r] * bytes);
            offsets[r] = at;
            at += sizes[r];
        }
    }
    int mine_bytes = (int)(counts[my_rank] * bytes);
    /* Rank 0's own rows are already in place at the start of rows_all. */
    wait_begin();
    MPI_Gatherv(my_rank == 0 ? MPI_IN_PLACE : mine, mine_bytes, MPI_BYTE, rows_all, sizes,
                offsets, MPI_BYTE, 0, MPI_COMM_WORLD);
    wait_end();
    free(sizes);
    free(offsets);
}

bool cluster_all(bool ok)
{
    return cluster_max(ok ? 0 : 1) == 0;
}

void cluster_abort(int status)
{
    if (n_ranks > 1)
        MPI_Abort(MPI_COMM_WORLD, status);
    exit(status);
}

int cluster_first_differing(const char *text)
{
    if (n_ranks == 1)
        return -1;
    int64_t len = (int64_t)strlen(text);
    cluster_broadcast(&len, sizeof len);
    char *lead = (char *)gathered((uint64_t)len + 1);
    if (my_rank == 0)
        memcpy(lead, text, (size_t)len + 1);
    cluster_broadcast(lead, (size_t)len + 1);
    bool same = strcmp(lead, text) == 0;
    free(lead);
    /* The lowest rank that differs has the largest n_ranks - rank. */
    int64_t first = cluster_max(same ? 0 : n_ranks - my_rank);
    return first ? n_ranks - (int)first : -1;
}

#else /* no MPI: one process */

void cluster_set_peer_timeout(double seconds)
{
    (void)seconds;
}

void cluster_note_stop(int sig)
{
    (void)sig;
}

void cluster_on_stop(void (*hook)(int sig))
{
    (void)hook;
}

void cluster_set_command(const char *name)
{
    (void)name;
}

void cluster_set_resume_note(const char *note)
{
    (void)note;
}

bool cluster_has_mpi(void)
{
    return false;
}

void cluster_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

void cluster_broadcast(void *buf, size_t bytes)
{
    (void)buf;
    (void)bytes;
}

uint64_t cluster_allgather(const void *mine, uint64_t n, uint8_t **all)
{
    return own_copy(mine, n, all);
}

int64_t cluster_max(int64_t x)
{
    return x;
}

int64_t cluster_sum(int64_t x)
{
    return x;
}

void cluster_sum_array(int64_t *v, int n)
{
    (void)v;
    (void)n;
}

void cluster_gather_rows(const unsigned char *mine, unsigned char *rows_all,
                         const uint32_t *counts, size_t bytes)
{
    (void)mine;
    (void)rows_all;
    (void)counts;
    (void)bytes;
}

bool cluster_all(bool ok)
{
    return ok;
}

int cluster_first_differing(const char *text)
{
    (void)text;
    return -1;
}

void cluster_abort(int status)
{
    exit(status);
}

#endif
