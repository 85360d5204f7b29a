/* stop.c: the signal handler behind stop.h. */
#include "stop.h"

#include <string.h>

#include "agent.h"
#include "cluster.h"

volatile sig_atomic_t stop_signal;
/* A signal reached this process (a stop passed on from another rank is not one: the signal
 * that then comes here too, from srun or scancel, is still the first). */
static volatile sig_atomic_t signalled;

static const int caught[3] = { SIGINT, SIGTERM, SIGXFSZ };

/* SIGINT or SIGTERM: ask for a clean stop, and every search in flight to give up (its game
 * is abandoned), so the stop takes a fraction of a second however long a search would run;
 * a second signal stops at once. */
static void on_signal(int sig)
{
    if (signalled) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    signalled = 1;
    if (!stop_signal)
        stop_signal = sig;
    agent_stop_all();
    cluster_note_stop(sig);
}

/* A stop passed on from another rank (on the watch thread, cluster.h): as if the signal had
 * come here, but never as a second one. */
static void on_stop_of_another_rank(int sig)
{
    if (stop_signal)
        return;
    stop_signal = sig;
    agent_stop_all();
}

void stop_catch(StopGuard *g)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    stop_signal = 0;
    signalled = 0;
    agent_stop_clear();
    for (int i = 0; i < 3; i++) {
        sa.sa_handler = caught[i] == SIGXFSZ ? SIG_IGN : on_signal;
        sigaction(caught[i], &sa, &g->old[i]);
    }
    cluster_on_stop(on_stop_of_another_rank);
}

void stop_release(const StopGuard *g)
{
    cluster_on_stop(NULL);
    for (int i = 0; i < 3; i++)
        sigaction(caught[i], &g->old[i], NULL);
}

void stop_share(void)
{
    int64_t sig = cluster_max(stop_signal);
    if (sig && !stop_signal) {
        stop_signal = (sig_atomic_t)sig;
        agent_stop_all();
    }
}
