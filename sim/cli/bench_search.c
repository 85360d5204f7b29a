/* bench_search.c: fixed alpha-beta and MCTS searches from fixed middle-game positions, the
 * speed check of the searching agents (Ethereal's bench: a fixed list, a fixed depth, a
 * node-count signature). */
#include "bench_search.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>

#include "agent.h"
#include "cli.h"

/* Standard-board middle games: seeded random play (rng_seed(20261129, 7, g), pos_random_move)
 * until at most 48 + 8 (g mod 4) seeds were left, kept when 40 or more seeds were still on
 * the board and the side to move had four moves or more (games 0 to 31 in order). */
static const char *const bench_positions[] = {
    "3,2,1,1,0,0,1,0,1,2,1,1/1,2,0,2,2,2,15,2,0,0,1,0 16/40 N N N",
    "11,0,0,2,0,0,1,0,2,0,1,3/0,11,11,1,3,0,2,1,3,0,3,1 32/8 S S S",
    "1,12,2,2,1,1,2,0,0,10,3,3/2,1,0,11,0,2,0,3,2,0,1,1 20/16 N N S",
    "1,0,11,2,0,0,10,1,10,1,1,3/0,0,1,0,10,10,2,2,3,3,1,0 12/12 S N -",
    "1,0,1,0,2,1,0,2,2,2,3,0/3,1,3,12,1,0,0,0,12,1,0,1 36/12 S S S",
    "3,1,0,1,12,1,3,1,0,12,1,0/2,2,2,2,2,0,2,1,1,3,2,2 12/28 S N N",
    "11,0,1,2,2,3,1,0,1,1,1,2/3,3,11,3,11,0,0,2,2,1,2,1 16/16 N N N",
    "0,0,1,3,0,1,0,1,0,0,3,10/2,10,0,3,1,0,0,10,2,0,2,3 24/20 N N N",
    "1,2,1,0,1,0,1,0,0,12,1,2/0,2,2,0,3,0,1,3,1,1,12,2 28/20 N S N",
    "0,0,0,1,0,1,11,0,0,0,2,0/10,1,1,2,11,1,1,11,2,0,0,1 28/12 N S N",
    "10,3,0,10,1,3,0,0,0,1,1,10/3,0,1,0,2,0,1,10,0,1,0,3 16/20 N S -",
    "3,3,0,1,2,10,0,1,2,1,10,10/1,0,0,2,0,1,1,10,10,1,1,2 12/12 S S N",
    "1,3,0,0,2,0,2,2,0,3,1,1/0,3,13,2,3,1,0,1,1,2,0,3 24/28 N N S",
    "0,0,0,12,0,1,1,1,10,2,0,0/1,0,2,3,1,3,1,11,3,1,3,0 20/20 N S N",
    "3,1,1,3,0,1,11,2,1,9,1,1/1,3,0,0,10,1,2,1,0,11,0,1 12/20 S N -",
    "1,0,1,0,11,0,0,2,0,10,3,1/2,11,1,2,9,9,1,2,3,0,3,0 20/4 N S -",
    "1,1,2,1,0,0,1,1,2,1,3,2/0,0,3,0,0,2,0,0,2,3,13,2 28/28 S S N",
    "0,0,0,2,2,2,1,11,0,12,1,3/1,0,2,1,2,1,0,1,1,11,2,0 16/24 N S S",
    "1,0,3,11,0,2,3,0,2,2,3,1/1,10,10,10,0,1,1,0,0,1,2,0 16/16 S N N",
    "3,1,3,11,2,3,2,2,2,12,2,1/0,1,0,0,1,11,2,9,1,2,1,0 12/12 S N S",
    "1,0,14,1,0,2,0,0,1,1,1,0/2,2,0,1,1,1,2,0,1,0,2,15 16/32 S S S",
    "0,0,3,2,0,10,2,2,2,1,1,2/1,0,0,1,3,2,2,12,2,3,3,2 20/20 S S N",
    "10,2,1,11,1,0,1,0,9,2,0,0/2,1,3,0,1,1,3,1,2,10,1,2 12/20 N N N",
    "1,2,1,0,3,1,3,0,1,13,13,0/1,0,1,10,1,11,1,2,1,0,1,1 20/8 S N -",
    "3,1,1,1,0,1,0,1,2,2,13,0/1,3,1,1,1,1,0,2,13,0,0,0 24/24 S N -",
    "0,3,3,0,1,0,2,2,1,2,1,2/14,0,0,0,0,1,2,0,3,0,0,3 36/20 S S S",
    "2,0,0,1,1,11,3,1,3,3,3,10/0,1,1,10,10,0,1,0,3,0,0,0 12/20 N N S",
    "1,10,0,3,3,0,1,2,0,1,2,2/1,1,3,12,0,11,11,0,0,0,2,2 16/12 S N S",
    "2,0,2,0,2,0,0,2,12,0,0,0/2,3,0,0,11,2,3,2,2,0,3,0 32/16 N N S",
    "0,0,1,2,1,1,0,0,0,12,3,0/1,1,1,3,11,1,1,2,0,0,3,0 32/20 N N S",
    "0,3,0,0,2,10,3,2,1,3,2,1/0,0,3,0,2,1,2,1,13,0,1,10 12/24 N N S",
    "2,0,0,3,1,10,1,2,0,0,0,9/9,1,1,0,3,0,11,0,0,1,9,1 20/12 S S N",
};

#define BENCH_POSITIONS ((int)(sizeof bench_positions / sizeof bench_positions[0]))
#define BENCH_DEPTH 11
#define BENCH_MCTS_POSITIONS 8
#define BENCH_SEED 20261129ULL

/* Every option spelled out, so that a change of a default leaves the bench as it is. */
#define BENCH_ALPHABETA_SPEC(depth)                                                             \
    "alphabeta:depth=" depth ",nodes=0,tt=16,ties=first,w.store=1,w.seeds=0.1,w.threes=0,"     \
    "w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,w.final=0"
static const char bench_alphabeta[] = BENCH_ALPHABETA_SPEC("11");
/* The same search to another depth (bench --search-depths). */
static const char bench_alphabeta_depth[] = BENCH_ALPHABETA_SPEC("%d");
static const char bench_mcts[] = "mcts:playouts=2000,c=0.7,reward=win,horizon=20,policy=random,w.store=1,w.seeds=0,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,w.final=0";

/* One search's result. */
typedef struct BenchResult {
    uint64_t nodes, playouts;
    int move;
    double value;
} BenchResult;

/* Search position i with a fresh game of agent a, on the stream of (seed, job, i). */
static void bench_one(Agent *a, int job, int i, BenchResult *r)
{
    Variant v;
    Position p;
    Error e;
    variant_default(&v);
    if (apn_parse(bench_positions[i], &v, false, false, &p, &e) != 0)
        fail("bench position %d: %s", i, e.msg);
    Rng rng;
    rng_seed(&rng, BENCH_SEED, (uint64_t)job, (uint64_t)i);
    AgentStats st = { 0, 0, 0, 0 };
    agent_new_game(a);
    r->move = a->choose(a, &v, &p, &rng, &st);
    if (r->move < 0)
        fail("bench: agent %s: out of memory for its search", a->name);
    r->nodes = st.nodes;
    r->playouts = st.playouts;
    r->value = st.value;
}

/* Search the first n positions with spec on `threads` threads; return the wall time. */
static double bench_agent(const char *spec, int job, int n, int threads, BenchResult *r)
{
    double t0 = omp_get_wtime();
    #pragma omp parallel num_threads(threads)
    {
        Agent a;
        Error e;
        if (agent_create(&a, spec, &e) != 0)
            fail("bench agent: %s", e.msg);
        #pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < n; i++)
            bench_one(&a, job, i, &r[i]);
        agent_free(&a);
    }
    return omp_get_wtime() - t0;
}

/* Fold results into the signature, in position order. */
static uint64_t bench_fold(uint64_t h, const BenchResult *r, int n)
{
    for (int i = 0; i < n; i++) {
        h = rng_mix64(h ^ r[i].nodes);
        h = rng_mix64(h ^ r[i].playouts ^ (uint64_t)r[i].move << 56);
        h = rng_mix64(h ^ (uint64_t)(int64_t)(r[i].value * 1e6));
    }
    return h;
}

void bench_search_run(int threads, SearchBench *out)
{
    BenchResult ab[BENCH_POSITIONS], mc[BENCH_MCTS_POSITIONS];
    out->positions = BENCH_POSITIONS;
    out->depth = BENCH_DEPTH;
    out->mcts_positions = BENCH_MCTS_POSITIONS;
    out->seconds = bench_agent(bench_alphabeta, 0, BENCH_POSITIONS, threads, ab);
    out->mcts_seconds = bench_agent(bench_mcts, 1, BENCH_MCTS_POSITIONS, threads, mc);
    out->nodes = out->playouts = out->mcts_nodes = 0;
    for (int i = 0; i < BENCH_POSITIONS; i++)
        out->nodes += ab[i].nodes;
    for (int i = 0; i < BENCH_MCTS_POSITIONS; i++) {
        out->playouts += mc[i].playouts;
        out->mcts_nodes += mc[i].nodes;
    }
    out->hash = bench_fold(bench_fold(0, ab, BENCH_POSITIONS), mc, BENCH_MCTS_POSITIONS);
}

void bench_search(int threads)
{
    SearchBench b;
    bench_search_run(threads, &b);
    printf("bench search alphabeta depth=%d positions=%d nodes=%" PRIu64
           " seconds=%.3f nodes/s=%.0f\n",
           b.depth, b.positions, b.nodes, b.seconds, b.seconds > 0 ? b.nodes / b.seconds : 0.0);
    printf("bench search mcts positions=%d playouts=%" PRIu64 " seconds=%.3f playouts/s=%.0f\n",
           b.mcts_positions, b.playouts, b.mcts_seconds,
           b.mcts_seconds > 0 ? b.playouts / b.mcts_seconds : 0.0);
    printf("Search: %" PRIu64 " %016" PRIx64 "\n", b.nodes, b.hash);
    fflush(stdout);
}

/* The fold of the searches' values and moves alone, without their node counts: what a change
 * to the search that must keep its results leaves as it was. */
static uint64_t bench_fold_results(const BenchResult *r, int n)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++) {
        h = rng_mix64(h ^ (uint64_t)r[i].move << 56);
        h = rng_mix64(h ^ (uint64_t)(int64_t)(r[i].value * 1e6));
    }
    return h;
}

void bench_search_depths(int threads, const int *depths, int n)
{
    for (int k = 0; k < n; k++) {
        char spec[sizeof bench_alphabeta_depth + 16];
        BenchResult r[BENCH_POSITIONS];
        snprintf(spec, sizeof spec, bench_alphabeta_depth, depths[k]);
        double seconds = bench_agent(spec, 0, BENCH_POSITIONS, threads, r);
        uint64_t nodes = 0;
        for (int i = 0; i < BENCH_POSITIONS; i++)
            nodes += r[i].nodes;
        printf("bench search alphabeta depth=%d positions=%d nodes=%" PRIu64
               " seconds=%.3f results=%016" PRIx64 "\n",
               depths[k], BENCH_POSITIONS, nodes, seconds, bench_fold_results(r, BENCH_POSITIONS));
        fflush(stdout);
    }
}
