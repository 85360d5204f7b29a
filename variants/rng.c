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
