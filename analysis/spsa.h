/* spsa.h: simultaneous perturbation stochastic approximation (Spall 1998), the pure part:
 * the gain sequences, the Rademacher perturbation of iteration k, and one step of theta
 * from an observed difference. Nothing here plays games or reads files, so the step can be
 * checked on a synthetic objective and reproduced from a trajectory alone.
 *
 * Each parameter i is measured in its own unit, its step s_i: iteration k (from 0) plays
 * theta + c_k s delta against theta - c_k s delta (delta_i = +-1, both clipped to the
 * bounds), observes how much better the first did, D (a score difference in [-1, 1] for
 * games, or f(theta+) - f(theta-) for a synthetic objective to maximise), and moves
 *     theta_i <- clip(theta_i + a_k s_i D delta_i / (2 c_k), lo_i, hi_i),
 * with a_k = a / (k + 1 + A)^alpha and c_k = c / (k + 1)^gamma (Spall's recommended
 * alpha = 0.602, gamma = 0.101, A about a tenth of the iterations). */
#ifndef ANYWOLI_SPSA_H
#define ANYWOLI_SPSA_H

#include <stdint.h>

#define SPSA_MAX_PARAMS 32

/* The gains. */
typedef struct SpsaGains {
    double a, c, A, alpha, gamma;
} SpsaGains;

/* One parameter: its bounds and its step (the unit of its perturbation and moves). */
typedef struct SpsaParam {
    double lo, hi, step;
} SpsaParam;

/* a_k and c_k of iteration k (from 0). */
double spsa_a(const SpsaGains *g, uint64_t k);
double spsa_c(const SpsaGains *g, uint64_t k);

/* The perturbation of iteration k: n signs +-1, each with probability 1/2, a pure function
 * of (seed, k) (the counter-based stream of job SPSA_DELTA_JOB, game k). */
#define SPSA_DELTA_JOB (UINT64_C(1) << 62)
void spsa_delta(uint64_t seed, uint64_t k, int n, int8_t *delta);

/* The perturbed points of iteration k: plus = theta + c_k s delta, minus = theta - c_k s
 * delta, each clipped to its bounds. */
void spsa_perturb(const SpsaGains *g, uint64_t k, int n, const SpsaParam *p, const double *theta,
                  const int8_t *delta, double *plus, double *minus);

/* One step: next = theta moved by the observed difference D of iteration k (see above). */
void spsa_step(const SpsaGains *g, uint64_t k, int n, const SpsaParam *p, const double *theta,
               const int8_t *delta, double diff, double *next);

#endif
