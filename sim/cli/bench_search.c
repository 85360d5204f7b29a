/* bench_search.c: fixed alpha-beta and MCTS searches from fixed middle-game positions, the
 * speed check of the searching agents (Ethereal's bench: a fixed list, a fixed depth, a
 * node-count signature). */
#include "bench_search.h"

#include <inttypes.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>

#include "agent.h"
#include "bench_positions.h"
#include "cli.h"


#define BENCH_DEPTH 11
#define BENCH_MCTS_POSITIONS 8
#define BENCH_SEED 20261129ULL

/* Every option spelled out, so that a change of a default leaves the bench as it is. */
#define BENCH_ALPHABETA_SPEC(depth)                                                             \
    "alphabeta:depth=" depth ",nodes=0,tt=16,ties=first,w.store=1,w.seeds=0.1,w.threes=0,"     \
    "w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,w.final=0,fade=0"
static const char bench_alphabeta[] = BENCH_ALPHABETA_SPEC("11");
/* The same search to another depth (bench --search-depths). */
static const char bench_alphabeta_depth[] = BENCH_ALPHABETA_SPEC("%d");
/* The strong player to a node budget, every option spelled out as above (tables none, so that
 * the bench does not depend on the cache folder; the tuned weights named one by one). */
static const char bench_strong_spec[] =
    "strong:nodes=%" PRIu64 ",depth=64,tt=20,ties=first,quiesce=0,tables=,lmr=1,aspiration=1,"
    "seed_bound=1,weights=tuned,w.store=1,w.seeds=-0.16,w.threes=3.79,w.opp_threes=-1,"
    "w.empty=-0.89,w.opp_empty=0.65,w.mobility=0,w.final=0.41,fade=0.25";
static const char bench_mcts[] = "mcts:playouts=2000,c=0.7,reward=win,horizon=20,policy=random,w.store=1,w.seeds=0,w.threes=0,w.opp_threes=0,w.empty=0,w.opp_empty=0,w.mobility=0,w.final=0,fade=0";

/* One search's result. */
typedef struct BenchResult {
    uint64_t nodes, playouts;
    int move, depth;
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
    r->depth = st.depth;
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

/* The fold of the searches' values alone, or (moves) of their moves alone: what a change
 * to the search that must keep its results leaves as it was. */
static uint64_t bench_fold_results(const BenchResult *r, int n, bool moves)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++)
        h = rng_mix64(h ^ (moves ? (uint64_t)r[i].move : (uint64_t)(int64_t)(r[i].value * 1e6)));
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
               " seconds=%.3f values=%016" PRIx64 " moves=%016" PRIx64 "\n",
               depths[k], BENCH_POSITIONS, nodes, seconds,
               bench_fold_results(r, BENCH_POSITIONS, false),
               bench_fold_results(r, BENCH_POSITIONS, true));
        fflush(stdout);
    }
}

void bench_strong(int threads, uint64_t budget)
{
    char spec[sizeof bench_strong_spec + 32];
    BenchResult r[BENCH_POSITIONS];
    snprintf(spec, sizeof spec, bench_strong_spec, budget);
    double seconds = bench_agent(spec, 0, BENCH_POSITIONS, threads, r);
    uint64_t nodes = 0;
    long depths = 0;
    for (int i = 0; i < BENCH_POSITIONS; i++) {
        nodes += r[i].nodes;
        depths += r[i].depth;
    }
    printf("bench search strong budget=%" PRIu64 " positions=%d nodes=%" PRIu64
           " seconds=%.3f nodes/s=%.0f depth=%.2f\n",
           budget, BENCH_POSITIONS, nodes, seconds, seconds > 0 ? nodes / seconds : 0.0,
           (double)depths / BENCH_POSITIONS);
    printf("StrongSearch: %" PRIu64 " %016" PRIx64 "\n", nodes,
           bench_fold(0, r, BENCH_POSITIONS));
    fflush(stdout);
}
