/* stop_request.c: the process-wide request that every search give up (agent.h). */
#include "agent.h"

#include <stdatomic.h>

/* Set from a signal handler and read by every searching thread: a lock-free atomic is both
 * async-signal-safe and free of data races, which volatile sig_atomic_t is not. */
static atomic_int stop_requested;

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop request must be lock-free");

void agent_stop_all(void)
{
    atomic_store_explicit(&stop_requested, 1, memory_order_relaxed);
}

void agent_stop_clear(void)
{
    atomic_store_explicit(&stop_requested, 0, memory_order_relaxed);
}

bool agent_stop_requested(void)
{
    return atomic_load_explicit(&stop_requested, memory_order_relaxed) != 0;
}
