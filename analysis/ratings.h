/* ratings.h: maximum-likelihood ratings of the agents of a round robin: a Bradley-Terry model
 * with Davidson's draw parameter and a first-move (home) advantage.
 *
 * For agent i as South against agent j as North, with strengths theta, first-move term h and
 * draw parameter nu >= 0, and x = theta_i - theta_j + h:
 *
 *     P(South wins) = e^(x/2) / D,   P(North wins) = e^(-x/2) / D,   P(draw) = nu / D,
 *     D = e^(x/2) + e^(-x/2) + nu,
 *
 * which is Davidson's model (1970, JASA 65:317) for strengths pi_i = e^theta_i with South's
 * multiplied by gamma = e^h, as Davidson and Beaver's order effect (1977, Biometrics 33:693):
 * P(S) / P(N) = gamma pi_i / pi_j and P(draw) = nu sqrt(P(S) P(N)). Without draws it is the
 * Elo model: P(S | decisive) = 1 / (1 + 10^(-(R_i - R_j + H) / 400)).
 *
 * Ratings R = theta 400 / ln 10 and the first-move advantage H = h 400 / ln 10 are in Elo
 * points; one agent, the anchor, is pinned at 0. The fit maximises the likelihood with GSL's
 * BFGS minimiser (gsl_multimin_fdfminimizer_vector_bfgs2) and polishes with Newton steps on
 * the exact Hessian; standard errors come from the inverse of the observed information
 * (equal to the expected information: the model is a canonical exponential family in
 * (theta, h, log nu)), computed with GSL's Cholesky inverse.
 *
 * The prior. Without one, an agent that never lost (or never won or drew) has an infinite
 * rating and there is no fit (Ford 1957). Like Bayeselo and Ordo, the fit can take a weak
 * prior instead: a Gaussian on the ratings' deviations from their mean, of density
 * proportional to exp(-sum_i (R_i - mean R)^2 / (2 prior_sd^2)), prior_sd in Elo points
 * (BT_PRIOR_SD_ELO by default).
 * It is a prior on the differences only (shifting every rating changes nothing), so the
 * anchor still only sets the origin. The fit is then the maximum a posteriori and the
 * standard errors come from the curvature of the log-posterior (the information plus the
 * prior's precision), so a lopsided ladder gets finite ratings with wide intervals. The first
 * move and nu have no prior. */
#ifndef ANYWOLI_RATINGS_H
#define ANYWOLI_RATINGS_H

#include <stddef.h>
#include <stdint.h>

/* The games of one agent as South against another as North. */
typedef struct BtPairing {
    int south, north;               /* agent indices 0 .. agents-1, different */
    uint64_t south_wins, draws, north_wins;
} BtPairing;

/* The default prior's standard deviation of a rating about the mean rating, Elo points: weak
 * (in a round robin of four agents, 80 games a pair, it moves each rating by under a tenth of
 * its standard error, tests/test_stats_ratings.c), yet it keeps every rating finite. */
#define BT_PRIOR_SD_ELO 400.0

/* No prior: the maximum-likelihood fit (prior_sd argument of bt_fit). */
#define BT_NO_PRIOR 0.0

/* A fitted model. */
typedef struct BtFit {
    int agents, anchor;
    double prior_sd;                /* Elo points; BT_NO_PRIOR for the maximum likelihood */
    int data_finite;                /* 1 when the data alone give finite ratings (Ford's
                                       condition holds); else the prior keeps them finite */
    double *rating;                 /* Elo points, rating[anchor] = 0 */
    double *rating_se;              /* Elo points; 0 for the anchor */
    double home, home_se;           /* first-move advantage H, Elo points */
    double draw_nu, draw_nu_se;     /* Davidson's nu (no unit); 0 and NaN with no draws */
    double log_likelihood;          /* of the data at the fit, natural log */
    int params;                     /* free parameters: agents - 1 ratings, h, log nu */
    double *cov;                    /* params x params covariance, row-major, of (theta_i for
                                       i != anchor in order, h, log nu) in natural units */
    int iterations;                 /* minimiser iterations */
} BtFit;

/* What bt_fit returns. */
enum {
    BT_OK = 0,
    BT_BAD_INPUT = 1,       /* fewer than 2 agents, an index out of range, south == north */
    BT_NO_MEMORY = 2,
    BT_NOT_CONNECTED = 3,   /* some agents never won or drew against the rest: their ratings
                               are infinite (Ford 1957's condition fails) */
    BT_NO_MAXIMUM = 4,      /* the likelihood has no finite maximum (every game drawn, South
                               never or always winning, ...) or the minimiser did not reach it */
    BT_SINGULAR = 5,        /* the parameters are not identifiable from these pairings (for
                               instance each pair met with one colour assignment only) */
};

/* Fit the model to the pairings with the prior of standard deviation prior_sd Elo points (see
 * above; BT_NO_PRIOR for the maximum likelihood, which fails with BT_NOT_CONNECTED where a
 * rating is infinite); on BT_OK fill fit (free it with bt_fit_free), otherwise leave it
 * empty. With no draw at all, nu is fixed at 0 and is not a parameter. */
int bt_fit(const BtPairing *pairs, size_t n_pairs, int agents, int anchor, double prior_sd,
           BtFit *fit);

/* Free what bt_fit allocated. */
void bt_fit_free(BtFit *fit);

/* A one-line description of a bt_fit status. */
const char *bt_strerror(int status);

/* The standard error of rating[i] - rating[j], Elo points. */
double bt_rating_diff_se(const BtFit *fit, int i, int j);

/* The fitted probabilities of a game of agent south as South against north as North. */
void bt_probabilities(const BtFit *fit, int south, int north, double *p_south, double *p_draw,
                      double *p_north);

#endif
