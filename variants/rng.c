/* rng.c: seeding of counter-based streams. */
#include "rng.h"

void rng_seed(Rng *r, uint64_t seed, uint64_t job, uint64_t game)
{
    /* Each input passes through the mix before the next joins it, so nearby seeds, jobs and
     * game indices give unrelated keys. */
    uint64_t k = rng_mix64(seed ^ 0x243f6a8885a308d3ULL);
    k = rng_mix64(k ^ rng_mix64(job + 0x13198a2e03707344ULL));
    k = rng_mix64(k ^ rng_mix64(game + 0xa4093822299f31d0ULL));
    r->key = k;
    r->ctr = 0;
}

Rng rng_substream(const Rng *r, uint64_t id)
{
    Rng s;
    s.key = rng_mix64(r->key ^ rng_mix64(id * RNG_GAMMA + 0x082efa98ec4e6c89ULL));
    s.ctr = 0;
    return s;
}

uint32_t rng_below_retry(Rng *r, uint32_t n)
{
    /* Called after a first draw whose low half fell below n: redo that draw's check exactly,
     * rejecting the 2^32 mod n low values that would bias the result. */
    uint32_t threshold = (uint32_t)(-n) % n;
    r->ctr--;
    for (;;) {
        uint64_t m = (uint64_t)(uint32_t)rng_next(r) * n;
        if ((uint32_t)m >= threshold)
            return (uint32_t)(m >> 32);
    }
}
