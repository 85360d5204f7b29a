/* random.c: the uniform random player, the baseline that maps the rules themselves. */
#include "agents_internal.h"

#ifdef __BMI2__
#include <immintrin.h>
#endif

/* The k-th set bit of m (k from 0), in ascending order: the k-th legal move. */
static int nth_set_bit(uint64_t m, uint32_t k)
{
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ULL << k, m));   /* deposit bit k onto m's set bits */
#else
    while (k--)
        m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

static int random_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                         AgentStats *st)
{
    (void)a;
    (void)st;
    uint64_t legal = pos_legal_mask(v, p);
    return nth_set_bit(legal, rng_below(rng, (uint32_t)__builtin_popcountll(legal)));
}

int random_agent_init(Agent *a, const char *opts, Error *e)
{
    if (opts && *opts)
        return error_set(e, "agent 'random': takes no options, got '%s'", opts);
    a->choose = random_choose;
    return 0;
}
