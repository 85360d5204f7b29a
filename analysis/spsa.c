/* spsa.c: the gain sequences, perturbations and step of SPSA. */
#include "spsa.h"

#include <math.h>

#include "rng.h"

double spsa_a(const SpsaGains *g, uint64_t k)
{
    return g->a / pow((double)k + 1.0 + g->A, g->alpha);
}

double spsa_c(const SpsaGains *g, uint64_t k)
{
    return g->c / pow((double)k + 1.0, g->gamma);
}

void spsa_delta(uint64_t seed, uint64_t k, int n, int8_t *delta)
{
    Rng r;
    rng_seed(&r, seed, SPSA_DELTA_JOB, k);
    for (int i = 0; i < n; i++)
        delta[i] = (int8_t)(rng_next(&r) >> 63 ? 1 : -1);
}

/* x within [lo, hi]. */
static double clip(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

void spsa_perturb(const SpsaGains *g, uint64_t k, int n, const SpsaParam *p, const double *theta,
                  const int8_t *delta, double *plus, double *minus)
{
    double ck = spsa_c(g, k);
    for (int i = 0; i < n; i++) {
        double d = ck * p[i].step * delta[i];
        plus[i] = clip(theta[i] + d, p[i].lo, p[i].hi);
        minus[i] = clip(theta[i] - d, p[i].lo, p[i].hi);
    }
}

void spsa_step(const SpsaGains *g, uint64_t k, int n, const SpsaParam *p, const double *theta,
               const int8_t *delta, double diff, double *next)
{
    /* The gradient estimate in step units is D delta / (2 c_k) (1/delta_i = delta_i). */
    double gain = spsa_a(g, k) * diff / (2.0 * spsa_c(g, k));
    for (int i = 0; i < n; i++)
        next[i] = clip(theta[i] + gain * p[i].step * delta[i], p[i].lo, p[i].hi);
}
