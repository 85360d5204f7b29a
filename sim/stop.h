/* stop.h: clean stops of long work (`run`, `tune`) on SIGINT and SIGTERM.
 *
 * The first signal sets stop_signal, which the work polls between games, and asks every
 * search in flight to give up (agent_stop_all, agent.h), which abandons the games they
 * belong to: the stop takes a fraction of a second. The work then keeps every game played
 * whole and says how to resume. A second signal ends the process at once. Under MPI a signal
 * to one rank is passed on to the others at once (cluster.h), and stops them alike.
 * SIGXFSZ is ignored while caught, so a file size limit shows as a write error, not a kill. */
#ifndef ANYWOLI_STOP_H
#define ANYWOLI_STOP_H

#include <signal.h>

/* The signal that asked the work to stop, or 0. */
extern volatile sig_atomic_t stop_signal;

/* The signal actions replaced while stops are caught. */
typedef struct StopGuard {
    struct sigaction old[3];
} StopGuard;

/* Clear stop_signal and catch SIGINT and SIGTERM (and ignore SIGXFSZ) until stop_release. */
void stop_catch(StopGuard *g);

/* Put back the actions stop_catch replaced. */
void stop_release(const StopGuard *g);

/* Collective over MPI ranks: a stop that reached any rank becomes every rank's (mpirun
 * forwards a signal to all ranks, but not always before some have finished their share). */
void stop_share(void);

#endif
