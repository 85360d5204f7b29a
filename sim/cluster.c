/* cluster.c: MPI ranks behind cluster.h, or one process when built without MPI or started
 * without a launcher. */
#include "cluster.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if ANYWOLI_MPI
#include <mpi.h>
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

static void finalize_at_exit(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

void cluster_start(int *argc, char ***argv)
{
    if (!launched_by_mpi())
        return;
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    joined = true;
    atexit(finalize_at_exit);
}

uint64_t cluster_allgather(const void *mine, uint64_t n, uint8_t **all)
{
    if (n_ranks == 1)
        return own_copy(mine, n, all);
    int64_t *count = (int64_t *)gathered((size_t)n_ranks * sizeof *count);
    int *sizes = (int *)gathered((size_t)n_ranks * sizeof *sizes);
    int *offsets = (int *)gathered((size_t)n_ranks * sizeof *offsets);
    int64_t own = (int64_t)n;
    MPI_Allgather(&own, 1, MPI_INT64_T, count, 1, MPI_INT64_T, MPI_COMM_WORLD);
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
    MPI_Allgatherv(mine, (int)n, MPI_BYTE, *all, sizes, offsets, MPI_BYTE, MPI_COMM_WORLD);
    calls += 2;
    free(count);
    free(sizes);
    free(offsets);
    return total;
}

void cluster_broadcast(void *buf, size_t bytes)
{
    if (n_ranks > 1) {
        MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        calls++;
    }
}

int64_t cluster_max(int64_t x)
{
    int64_t y = x;
    if (n_ranks > 1) {
        MPI_Allreduce(&x, &y, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
        calls++;
    }
    return y;
}

int64_t cluster_sum(int64_t x)
{
    int64_t y = x;
    if (n_ranks > 1) {
        MPI_Allreduce(&x, &y, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        calls++;
    }
    return y;
}

void cluster_sum_array(int64_t *v, int n)
{
    if (n_ranks > 1 && n > 0) {
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
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
    MPI_Gatherv(my_rank == 0 ? MPI_IN_PLACE : mine, mine_bytes, MPI_BYTE, rows_all, sizes,
                offsets, MPI_BYTE, 0, MPI_COMM_WORLD);
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
