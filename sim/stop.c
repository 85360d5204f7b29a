/* stop.c: the signal handler behind stop.h. */
#include "stop.h"

#include <string.h>

#include "agent.h"
#include "cluster.h"

volatile sig_atomic_t stop_signal;

static const int caught[3] = { SIGINT, SIGTERM, SIGXFSZ };

/* SIGINT or SIGTERM: ask for a clean stop, and every search in flight to give up (its game
 * is abandoned), so the stop takes a fraction of a second however long a search would run;
 * a second signal stops at once. */
static void on_signal(int sig)
{
    if (stop_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
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
    agent_stop_clear();
    for (int i = 0; i < 3; i++) {
        sa.sa_handler = caught[i] == SIGXFSZ ? SIG_IGN : on_signal;
        sigaction(caught[i], &sa, &g->old[i]);
    }
}

void stop_release(const StopGuard *g)
{
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
