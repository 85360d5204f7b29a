/* rng.h: the counter-based random streams every game and agent draws from.
 *
 * A stream is a key and a counter; output i is a bijective mix of key + i * gamma (the
 * SplitMix64 construction), so a game's stream depends only on (experiment seed, job, game
 * index) and never on which thread plays it or in what order. */
#ifndef ANYWOLI_RNG_H
#define ANYWOLI_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t key;   /* fixed for the stream's life */
    uint64_t ctr;   /* outputs drawn so far */
} Rng;

/* Sub-stream identifiers: each use of randomness inside a game draws from its own stream.
 * RNG_SUB_OPENING is a pair's random opening (sim/openings.c, `plies:N`, which run's jobs and
 * tune's matches both draw from), a sub-stream of the stream of the pair's first game, so no
 * agent's draws or lottery coin can change it. It is 16, the value tune's openings have
 * always been drawn from, so that published tunings replay exactly. RNG_SUB_OPENINGS_ORDER
 * shuffles a job's list of openings (sim/openings.c, `openings_order = "shuffled"`), a
 * sub-stream of the job's game 0, drawn once per job. */
enum { RNG_SUB_LOTTERY = 1, RNG_SUB_AGENT_SOUTH = 2, RNG_SUB_AGENT_NORTH = 3, RNG_SUB_OPENING = 16,
       RNG_SUB_OPENINGS_ORDER = 17 };

#define RNG_GAMMA 0x9e3779b97f4a7c15ULL
#define RNG_WY0 0xa0761d6478bd642fULL
#define RNG_WY1 0xe7037ed1a0b428dbULL

/* The SplitMix64 finaliser: a bijection of 64-bit words with good avalanche. */
static inline uint64_t rng_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The stream of game `game` of job `job` in an experiment seeded with `seed`. */
void rng_seed(Rng *r, uint64_t seed, uint64_t job, uint64_t game);

/* An independent stream derived from r's key (not its counter) and an identifier. */
Rng rng_substream(const Rng *r, uint64_t id);

/* The next 64 random bits: the high and low halves of (s * (s ^ WY1)) folded, s = key + ctr * WY0.
 * One multiply keeps the draw off the critical path of a random game. */
static inline uint64_t rng_next(Rng *r)
{
    r->ctr++;
    uint64_t s = r->key + r->ctr * RNG_WY0;
    __extension__ unsigned __int128 m = (unsigned __int128)s * (s ^ RNG_WY1);
    return (uint64_t)(m >> 64) ^ (uint64_t)m;
}

/* The rare rejection step of rng_below, out of line so the common path stays small. */
uint32_t rng_below_retry(Rng *r, uint32_t n);

/* A uniform integer in [0, n), n >= 1, unbiased (Lemire's multiply with rejection). */
static inline uint32_t rng_below(Rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)rng_next(r) * n;
    if (__builtin_expect((uint32_t)m < n, 0))
        return rng_below_retry(r, n);
    return (uint32_t)(m >> 32);
}

/* A uniform double in [0, 1) with 53 random bits. */
static inline double rng_unit(Rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
