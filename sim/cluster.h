/* cluster.h: the processes that share one run: MPI ranks, when the binary is built with
 * -DANYWOLI_MPI=ON and started by an MPI launcher (mpirun, srun); otherwise one process.
 *
 * Rank 0 leads: it alone reads and writes files, prints and decides; the other ranks play
 * their share of each batch with their OpenMP threads and hand the rows to rank 0. Every
 * operation here is collective (all ranks call it in the same order) and a no-op, or the
 * identity, in a single process, so callers need no #ifdef. Only the thread that called
 * cluster_start makes these collective calls; a watch thread of each rank (cluster.c) beats
 * to the others on a communicator of its own, so that a frozen rank ends the job after the
 * peer timeout and a signal to one rank stops them all within a fraction of a second. */
#ifndef ANYWOLI_CLUSTER_H
#define ANYWOLI_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Join the ranks if an MPI launcher started this process (and the build has MPI); MPI is
 * finalised at exit. Without a launcher nothing is initialised, so a plain `anywoli run`
 * of an MPI build is an ordinary single process. */
void cluster_start(int *argc, char ***argv);

/* This process's rank (0 without MPI) and the number of ranks (1 without MPI). */
int cluster_rank(void);
int cluster_size(void);

/* Whether this process leads the run (rank 0). */
bool cluster_leads(void);

/* Whether this process joined ranks started by an MPI launcher (even a single one). */
bool cluster_joined(void);

/* Whether the binary was built with MPI. */
bool cluster_has_mpi(void);

/* Copy bytes from rank 0 to every rank. */
void cluster_broadcast(void *buf, size_t bytes);

/* The largest, and the sum, of one value over the ranks, on every rank. */
int64_t cluster_max(int64_t x);
int64_t cluster_sum(int64_t x);

/* Add n int64 values elementwise over the ranks, in place, on every rank. */
void cluster_sum_array(int64_t *v, int n);

/* Gather each rank's rows (bytes each, rank r holding counts[r] of them, in rank order)
 * into rows_all on rank 0; counts must be the same on every rank. */
void cluster_gather_rows(const unsigned char *mine, unsigned char *rows_all,
                         const uint32_t *counts, size_t bytes);

/* Every rank's n bytes (mine) one after the other in rank order, on every rank, into a new
 * buffer *all (the caller frees it); returns their total. Out of memory, or past the 2^31
 * bytes one MPI call moves, every rank ends (cluster_abort) with a message. */
uint64_t cluster_allgather(const void *mine, uint64_t n, uint8_t **all);

/* The collective calls into MPI this process has made so far (0 in a single process). */
uint64_t cluster_calls(void);

/* The share [*lo, *hi) of n items that a rank plays: contiguous and in rank order, so the
 * gathered rows come out in item order. */
void cluster_share(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi);

/* End every rank at once with this exit status (MPI_Abort), for a failure one rank meets
 * alone in the middle of collective work; exit() in a single process. */
void cluster_abort(int status);

/* Whether every rank says ok; ranks that don't print their own message first. */
bool cluster_all(bool ok);

/* The first rank whose text differs from rank 0's (byte for byte), or -1 when every rank
 * holds the same: on every rank. Ranks that read their own config and command line use it
 * to check that they were all given rank 0's work before any is done. */
int cluster_first_differing(const char *text);

/* Seconds a rank may go unheard (its watch thread silent: the node frozen or lost) before
 * the job ends with one line; the default, and 0 for no limit. */
#define CLUSTER_PEER_TIMEOUT 60.0
void cluster_set_peer_timeout(double seconds);

/* From a signal handler (async-signal-safe): this rank is stopping on signal sig; the watch
 * passes it on to the other ranks, whose stop hook then runs. */
void cluster_note_stop(int sig);

/* What a stop passed on from another rank does here (called on the watch thread; NULL:
 * nothing, the signal reaches this rank at the next collective). */
void cluster_on_stop(void (*hook)(int sig));

/* The command ("anywoli run") that names the line of a job the watch ends, and what that
 * line adds: what is kept and how to go on (empty: nothing). */
void cluster_set_command(const char *name);
void cluster_set_resume_note(const char *note);

#endif
