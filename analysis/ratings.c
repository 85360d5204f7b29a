/* ratings.c: the Bradley-Terry-Davidson fit with a first-move term (see ratings.h), with GSL's
 * BFGS minimiser, symmetric eigenvalues and Cholesky inverse.
 *
 * The per-pairing log-likelihood depends on the parameters only through x = theta_s -
 * theta_n + h and eta = log nu:  l = (w - l) x / 2 + d eta - n log D.  Its derivatives are
 *     dl/dx = (w - l) / 2 - n (pS - pN) / 2,        dl/deta = d - n pD,
 *     -d2l/dx2 = n ((pS + pN) - (pS - pN)^2) / 4,  -d2l/deta2 = n pD (1 - pD),
 *     -d2l/dx deta = -n pD (pS - pN) / 2,
 * and the chain rule through x = e_s - e_n + e_h assembles the gradient and the information.
 * The minimiser works on the negative log-posterior per game (so tolerances do not depend on
 * the number of games); the covariance is the inverse of its total curvature. The prior adds
 * P = (prec / 2) sum_i (theta_i - mean theta)^2 (prec = 1 / prior_sd^2 in natural units), of
 * gradient prec (theta_k - mean theta) and curvature prec (delta_kl - 1 / agents) over the
 * free strengths k, l (the anchor's theta is 0 but counts in the mean). */
#include "ratings.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_multimin.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Elo points per natural-log unit of odds: 400 / ln 10. */
#define ELO_PER_NATURAL (400.0 / M_LN10)

/* Beyond this size (natural units; about 3,500 Elo, odds of 5e8 to 1) a parameter is taken to
 * be running away to infinity. */
#define BT_PARAM_LIMIT 20.0

/* The gradient norm, per game, at which the fit counts as converged. */
#define BT_GRAD_TOL 1e-11

/* The data and layout of one fit. */
typedef struct BtProblem {
    const BtPairing *pairs;
    size_t n_pairs;
    int agents, anchor;
    bool draws;             /* nu is a parameter (some game was drawn) */
    size_t params;
    double games;           /* total games: the likelihood is divided by it */
    double prior_sd;        /* Elo points; BT_NO_PRIOR */
    double prior_prec;      /* 1 / prior_sd^2 in natural units; 0 without a prior */
} BtProblem;

/* The parameter index of agent i's strength; -1 for the anchor. */
static int theta_index(const BtProblem *pb, int i)
{
    return i == pb->anchor ? -1 : i < pb->anchor ? i : i - 1;
}

/* The parameter index of h (the one after the strengths); log nu follows it. */
static int home_index(const BtProblem *pb)
{
    return pb->agents - 1;
}

/* Probabilities of South win, draw and North win at x and eta (eta = -inf: no draws),
 * computed stably by log-sum-exp; returns log D. */
static double outcome_probs(double x, double eta, double *ps, double *pd, double *pn)
{
    double a = x / 2, m = fmax(fabs(a), eta);
    double es = exp(a - m), en = exp(-a - m), ed = isinf(eta) ? 0.0 : exp(eta - m);
    double sum = es + en + ed;
    *ps = es / sum;
    *pn = en / sum;
    *pd = ed / sum;
    return m + log(sum);
}

/* x and eta of pairing k at parameters v. */
static void pairing_point(const BtProblem *pb, const gsl_vector *v, size_t k, double *x,
                          double *eta)
{
    const BtPairing *p = &pb->pairs[k];
    int s = theta_index(pb, p->south), n = theta_index(pb, p->north);
    *x = gsl_vector_get(v, (size_t)home_index(pb));
    if (s >= 0)
        *x += gsl_vector_get(v, (size_t)s);
    if (n >= 0)
        *x -= gsl_vector_get(v, (size_t)n);
    *eta = pb->draws ? gsl_vector_get(v, (size_t)home_index(pb) + 1) : -INFINITY;
}

/* Add c times the design vector of pairing k (e_s - e_n + e_h) to g. */
static void add_design(const BtProblem *pb, size_t k, double c, gsl_vector *g)
{
    int s = theta_index(pb, pb->pairs[k].south), n = theta_index(pb, pb->pairs[k].north);
    size_t h = (size_t)home_index(pb);
    if (s >= 0)
        gsl_vector_set(g, (size_t)s, gsl_vector_get(g, (size_t)s) + c);
    if (n >= 0)
        gsl_vector_set(g, (size_t)n, gsl_vector_get(g, (size_t)n) - c);
    gsl_vector_set(g, h, gsl_vector_get(g, h) + c);
}

/* The mean of the strengths at v, the anchor's 0 included. */
static double theta_mean(const BtProblem *pb, const gsl_vector *v)
{
    double sum = 0;
    for (int i = 0; i < pb->agents - 1; i++)
        sum += gsl_vector_get(v, (size_t)i);
    return sum / pb->agents;
}

/* The prior's penalty per game at v, its gradient added to g when g is not NULL. */
static double prior_penalty(const BtProblem *pb, const gsl_vector *v, gsl_vector *g)
{
    if (pb->prior_prec == 0)
        return 0.0;
    double mean = theta_mean(pb, v), sum = mean * mean;     /* the anchor's deviation */
    for (int i = 0; i < pb->agents - 1; i++) {
        double dev = gsl_vector_get(v, (size_t)i) - mean;
        sum += dev * dev;
        if (g)
            gsl_vector_set(g, (size_t)i,
                           gsl_vector_get(g, (size_t)i) + pb->prior_prec * dev / pb->games);
    }
    return pb->prior_prec * sum / 2 / pb->games;
}

/* Add the prior's curvature (total, not per game) to m. */
static void add_prior_curvature(const BtProblem *pb, gsl_matrix *m)
{
    for (int k = 0; k < pb->agents - 1; k++)
        for (int l = 0; l < pb->agents - 1; l++)
            *gsl_matrix_ptr(m, (size_t)k, (size_t)l) +=
                pb->prior_prec * ((k == l) - 1.0 / pb->agents);
}

/* The negative log-likelihood per game at v and, if g is not NULL, its gradient. */
static double bt_nll(const BtProblem *pb, const gsl_vector *v, gsl_vector *g)
{
    double nll = 0;
    if (g)
        gsl_vector_set_zero(g);
    for (size_t k = 0; k < pb->n_pairs; k++) {
        const BtPairing *p = &pb->pairs[k];
        double w = (double)p->south_wins, d = (double)p->draws, l = (double)p->north_wins;
        double n = w + d + l, x, eta, ps, pd, pn;
        if (n == 0)
            continue;
        pairing_point(pb, v, k, &x, &eta);
        double log_d = outcome_probs(x, eta, &ps, &pd, &pn);
        nll -= (w - l) * x / 2 - n * log_d + (d > 0 ? d * eta : 0.0);
        if (!g)
            continue;
        add_design(pb, k, -((w - l) / 2 - n * (ps - pn) / 2) / pb->games, g);
        if (pb->draws) {
            size_t e = (size_t)home_index(pb) + 1;
            gsl_vector_set(g, e, gsl_vector_get(g, e) - (d - n * pd) / pb->games);
        }
    }
    return nll / pb->games;
}

/* Add pairing k's information to m: with u its design vector (e_s - e_n + e_h) and e the unit
 * vector of log nu, cxx u u^T + cxe (u e^T + e u^T) + cee e e^T. */
static void add_outer(const BtProblem *pb, size_t k, gsl_matrix *m, double cxx, double cxe,
                      double cee)
{
    int s = theta_index(pb, pb->pairs[k].south), n = theta_index(pb, pb->pairs[k].north);
    int idx[3] = { s, n, home_index(pb) };
    double sign[3] = { 1.0, -1.0, 1.0 };
    int e = pb->draws ? home_index(pb) + 1 : -1;
    for (int a = 0; a < 3; a++) {
        if (idx[a] < 0)
            continue;
        for (int b = 0; b < 3; b++)
            if (idx[b] >= 0)
                *gsl_matrix_ptr(m, (size_t)idx[a], (size_t)idx[b]) += cxx * sign[a] * sign[b];
        if (e >= 0) {
            *gsl_matrix_ptr(m, (size_t)idx[a], (size_t)e) += cxe * sign[a];
            *gsl_matrix_ptr(m, (size_t)e, (size_t)idx[a]) += cxe * sign[a];
        }
    }
    if (e >= 0)
        *gsl_matrix_ptr(m, (size_t)e, (size_t)e) += cee;
}

/* The negative log-posterior per game (up to a constant) at v and, if g is not NULL, its
 * gradient: what the fit minimises. */
static double bt_objective(const BtProblem *pb, const gsl_vector *v, gsl_vector *g)
{
    double nll = bt_nll(pb, v, g);
    return nll + prior_penalty(pb, v, g);
}

/* The total observed information of the data (the Hessian of the negative log-likelihood) at
 * v, plus the prior's curvature: the Hessian of the negative log-posterior. */
static void bt_information(const BtProblem *pb, const gsl_vector *v, gsl_matrix *info)
{
    gsl_matrix_set_zero(info);
    for (size_t k = 0; k < pb->n_pairs; k++) {
        const BtPairing *p = &pb->pairs[k];
        double n = (double)(p->south_wins + p->draws + p->north_wins), x, eta, ps, pd, pn;
        if (n == 0)
            continue;
        pairing_point(pb, v, k, &x, &eta);
        outcome_probs(x, eta, &ps, &pd, &pn);
        double diff = ps - pn;
        add_outer(pb, k, info, n * ((ps + pn) - diff * diff) / 4, -n * pd * diff / 2,
                  n * pd * (1 - pd));
    }
    add_prior_curvature(pb, info);
}

/* GSL callbacks: the objective, its gradient, and both. */
static double objective_f(const gsl_vector *v, void *params)
{
    return bt_objective(params, v, NULL);
}

static void objective_df(const gsl_vector *v, void *params, gsl_vector *g)
{
    bt_objective(params, v, g);
}

static void objective_fdf(const gsl_vector *v, void *params, double *f, gsl_vector *g)
{
    *f = bt_objective(params, v, g);
}

/* Whether every agent reaches every other along "won or drew against" edges: Ford's (1957)
 * condition for finite ratings. */
static bool strongly_connected(const BtProblem *pb)
{
    int m = pb->agents;
    bool ok = true;
    char *edge = calloc((size_t)m * (size_t)m, 1), *seen = malloc((size_t)m);
    int *stack = malloc((size_t)m * sizeof *stack);
    if (!edge || !seen || !stack) {
        ok = false;
        goto done;
    }
    for (size_t k = 0; k < pb->n_pairs; k++) {
        const BtPairing *p = &pb->pairs[k];
        if (p->south_wins || p->draws)
            edge[p->south * m + p->north] = 1;
        if (p->north_wins || p->draws)
            edge[p->north * m + p->south] = 1;
    }
    /* Agent 0 reaches everyone along edges, and along reversed edges. */
    for (int dir = 0; dir < 2 && ok; dir++) {
        memset(seen, 0, (size_t)m);
        int top = 0, reached = 1;
        seen[0] = 1;
        stack[top++] = 0;
        while (top > 0) {
            int i = stack[--top];
            for (int j = 0; j < m; j++) {
                char e = dir ? edge[j * m + i] : edge[i * m + j];
                if (e && !seen[j]) {
                    seen[j] = 1;
                    reached++;
                    stack[top++] = j;
                }
            }
        }
        ok = reached == m;
    }
done:
    free(edge);
    free(seen);
    free(stack);
    return ok;
}

/* inv = info^-1 if info is well conditioned (smallest eigenvalue above 1e-12 of the largest;
 * GSL's Cholesky would abort on a matrix that is not positive definite); -1 otherwise. */
static int spd_inverse(const gsl_matrix *info, gsl_matrix *inv)
{
    size_t p = info->size1;
    gsl_matrix *work = gsl_matrix_alloc(p, p);
    gsl_vector *eval = gsl_vector_alloc(p);
    gsl_eigen_symm_workspace *ws = gsl_eigen_symm_alloc(p);
    int status = -1;
    if (work && eval && ws) {
        gsl_matrix_memcpy(work, info);
        if (gsl_eigen_symm(work, eval, ws) == GSL_SUCCESS) {
            double lo = gsl_vector_min(eval), hi = gsl_vector_max(eval);
            if (hi > 0 && lo > 1e-12 * hi) {
                gsl_matrix_memcpy(inv, info);
                if (gsl_linalg_cholesky_decomp1(inv) == GSL_SUCCESS
                    && gsl_linalg_cholesky_invert(inv) == GSL_SUCCESS)
                    status = 0;
            }
        }
    }
    gsl_matrix_free(work);
    gsl_vector_free(eval);
    gsl_eigen_symm_free(ws);
    return status;
}

/* Minimise with BFGS from v until the gradient per game is below BT_GRAD_TOL or the
 * minimiser makes no more progress; returns the iterations, -1 when out of memory. */
static int bfgs_minimise(BtProblem *pb, gsl_vector *v)
{
    gsl_multimin_function_fdf fn = { objective_f, objective_df, objective_fdf, pb->params, pb };
    gsl_multimin_fdfminimizer *s =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, pb->params);
    if (!s)
        return -1;
    gsl_multimin_fdfminimizer_set(s, &fn, v, 0.1, 0.1);
    int iter = 0;
    while (iter < 10000) {
        iter++;
        if (gsl_multimin_fdfminimizer_iterate(s) != GSL_SUCCESS)
            break;
        if (gsl_multimin_test_gradient(gsl_multimin_fdfminimizer_gradient(s), BT_GRAD_TOL)
            == GSL_SUCCESS)
            break;
    }
    gsl_vector_memcpy(v, gsl_multimin_fdfminimizer_x(s));
    gsl_multimin_fdfminimizer_free(s);
    return iter;
}

/* Newton steps with the exact Hessian from v until the gradient per game is below
 * BT_GRAD_TOL / 100, halving a step that raises the objective by more than its rounding.
 * Returns 0; BT_SINGULAR if the information is singular; BT_NO_MAXIMUM if the steps stall
 * short of the tolerance. */
static int newton_polish(const BtProblem *pb, gsl_vector *v, gsl_matrix *info, gsl_matrix *inv)
{
    size_t p = pb->params;
    gsl_vector *g = gsl_vector_alloc(p), *step = gsl_vector_alloc(p), *trial = gsl_vector_alloc(p);
    int status = BT_NO_MAXIMUM;
    if (!g || !step || !trial) {
        status = BT_NO_MEMORY;
        goto done;
    }
    for (int iter = 0; iter < 100; iter++) {
        double f = bt_objective(pb, v, g);
        if (gsl_blas_dnrm2(g) < BT_GRAD_TOL / 100) {
            status = BT_OK;
            break;
        }
        bt_information(pb, v, info);
        if (spd_inverse(info, inv) != 0) {
            status = BT_SINGULAR;
            break;
        }
        /* step = -(info / games)^-1 g, g being per game. */
        gsl_blas_dgemv(CblasNoTrans, -pb->games, inv, g, 0.0, step);
        double t = 1.0, slack = 16 * DBL_EPSILON * fabs(f);
        bool taken = false;
        for (int half = 0; half < 40 && !taken; half++, t /= 2) {
            gsl_vector_memcpy(trial, v);
            gsl_blas_daxpy(t, step, trial);
            taken = bt_objective(pb, trial, NULL) <= f + slack;
        }
        if (!taken) {
            status = gsl_blas_dnrm2(g) < BT_GRAD_TOL ? BT_OK : BT_NO_MAXIMUM;
            break;
        }
        gsl_vector_memcpy(v, trial);
    }
done:
    gsl_vector_free(g);
    gsl_vector_free(step);
    gsl_vector_free(trial);
    return status;
}

/* Check the input and set up the problem; BT_OK or BT_BAD_INPUT. */
static int bt_setup(const BtPairing *pairs, size_t n_pairs, int agents, int anchor,
                    double prior_sd, BtProblem *pb, double *draws)
{
    if (agents < 2 || anchor < 0 || anchor >= agents || (n_pairs && !pairs) ||
        !(prior_sd >= 0) || isinf(prior_sd))
        return BT_BAD_INPUT;
    double games = 0;
    *draws = 0;
    for (size_t k = 0; k < n_pairs; k++) {
        const BtPairing *p = &pairs[k];
        if (p->south < 0 || p->south >= agents || p->north < 0 || p->north >= agents
            || p->south == p->north)
            return BT_BAD_INPUT;
        games += (double)(p->south_wins + p->draws + p->north_wins);
        *draws += (double)p->draws;
    }
    if (games == 0)
        return BT_BAD_INPUT;
    double natural_sd = prior_sd / ELO_PER_NATURAL;
    *pb = (BtProblem){ pairs, n_pairs, agents, anchor, *draws > 0, 0, games, prior_sd,
                       prior_sd > 0 ? 1 / (natural_sd * natural_sd) : 0.0 };
    pb->params = (size_t)agents + (pb->draws ? 1 : 0);
    return BT_OK;
}

/* Fill fit from the maximum v and the covariance inv. */
static int bt_report(const BtProblem *pb, const gsl_vector *v, const gsl_matrix *inv, int iter,
                     BtFit *fit)
{
    int m = pb->agents;
    size_t p = pb->params, h = (size_t)home_index(pb);
    fit->rating = calloc((size_t)m, sizeof *fit->rating);
    fit->rating_se = calloc((size_t)m, sizeof *fit->rating_se);
    fit->cov = malloc(p * p * sizeof *fit->cov);
    if (!fit->rating || !fit->rating_se || !fit->cov) {
        bt_fit_free(fit);
        return BT_NO_MEMORY;
    }
    fit->agents = m;
    fit->anchor = pb->anchor;
    fit->prior_sd = pb->prior_sd;
    fit->params = (int)p;
    fit->iterations = iter;
    for (size_t i = 0; i < p; i++)
        for (size_t j = 0; j < p; j++)
            fit->cov[i * p + j] = gsl_matrix_get(inv, i, j);
    for (int i = 0; i < m; i++) {
        int t = theta_index(pb, i);
        if (t < 0)
            continue;
        fit->rating[i] = ELO_PER_NATURAL * gsl_vector_get(v, (size_t)t);
        fit->rating_se[i] = ELO_PER_NATURAL * sqrt(gsl_matrix_get(inv, (size_t)t, (size_t)t));
    }
    fit->home = ELO_PER_NATURAL * gsl_vector_get(v, h);
    fit->home_se = ELO_PER_NATURAL * sqrt(gsl_matrix_get(inv, h, h));
    fit->draw_nu = 0.0;
    fit->draw_nu_se = NAN;
    if (pb->draws) {
        fit->draw_nu = exp(gsl_vector_get(v, h + 1));
        /* The delta method: se(nu) = nu se(log nu). */
        fit->draw_nu_se = fit->draw_nu * sqrt(gsl_matrix_get(inv, h + 1, h + 1));
    }
    fit->log_likelihood = -bt_nll(pb, v, NULL) * pb->games;
    return BT_OK;
}

int bt_fit(const BtPairing *pairs, size_t n_pairs, int agents, int anchor, double prior_sd,
           BtFit *fit)
{
    BtProblem pb;
    double draws;
    memset(fit, 0, sizeof *fit);
    int status = bt_setup(pairs, n_pairs, agents, anchor, prior_sd, &pb, &draws);
    if (status != BT_OK)
        return status;
    /* Without a prior a rating is infinite unless Ford's condition holds; with one it only
     * says whether the prior or the data keep the ratings finite. */
    bool data_finite = strongly_connected(&pb);
    if (!data_finite && pb.prior_prec == 0)
        return BT_NOT_CONNECTED;
    gsl_vector *v = gsl_vector_calloc(pb.params);
    gsl_matrix *info = gsl_matrix_alloc(pb.params, pb.params);
    gsl_matrix *inv = gsl_matrix_alloc(pb.params, pb.params);
    if (!v || !info || !inv) {
        status = BT_NO_MEMORY;
        goto done;
    }
    /* Step 1. Start at equal strengths, no first-move term, and the nu whose draw rate
     * nu / (2 + nu) between equals is the observed one. */
    if (pb.draws) {
        double rate = fmin(draws / pb.games, 0.999);
        gsl_vector_set(v, (size_t)home_index(&pb) + 1, log(2 * rate / (1 - rate)));
    }
    /* Step 2. BFGS to near the maximum, then Newton steps to full precision. */
    int iter = bfgs_minimise(&pb, v);
    if (iter < 0) {
        status = BT_NO_MEMORY;
        goto done;
    }
    int polished = newton_polish(&pb, v, info, inv);
    /* Step 3. A parameter that ran far away means the maximum is at infinity, whatever the
     * Newton steps said. */
    for (size_t i = 0; i < pb.params; i++)
        if (fabs(gsl_vector_get(v, i)) > BT_PARAM_LIMIT)
            status = BT_NO_MAXIMUM;
    if (status == BT_OK)
        status = polished;
    if (status != BT_OK)
        goto done;
    /* Step 4. The covariance at the maximum. */
    bt_information(&pb, v, info);
    if (spd_inverse(info, inv) != 0) {
        status = BT_SINGULAR;
        goto done;
    }
    status = bt_report(&pb, v, inv, iter, fit);
    if (status == BT_OK)
        fit->data_finite = data_finite;
done:
    gsl_vector_free(v);
    gsl_matrix_free(info);
    gsl_matrix_free(inv);
    return status;
}

void bt_fit_free(BtFit *fit)
{
    free(fit->rating);
    free(fit->rating_se);
    free(fit->cov);
    memset(fit, 0, sizeof *fit);
}

const char *bt_strerror(int status)
{
    switch (status) {
    case BT_OK: return "ok";
    case BT_BAD_INPUT:
        return "bad input: need 2 agents, valid indices, some games and a finite prior sd";
    case BT_NO_MEMORY: return "out of memory";
    case BT_NOT_CONNECTED:
        return "some agents never won or drew against the others: ratings are infinite";
    case BT_NO_MAXIMUM: return "the likelihood has no finite maximum";
    case BT_SINGULAR: return "the parameters are not identifiable from these pairings";
    }
    return "unknown status";
}

/* The covariance entry of agents i and j's strengths (natural units; 0 for the anchor). */
static double theta_cov(const BtFit *fit, int i, int j)
{
    if (i == fit->anchor || j == fit->anchor)
        return 0.0;
    int a = i < fit->anchor ? i : i - 1, b = j < fit->anchor ? j : j - 1;
    return fit->cov[a * fit->params + b];
}

double bt_rating_diff_se(const BtFit *fit, int i, int j)
{
    double var = theta_cov(fit, i, i) + theta_cov(fit, j, j) - 2 * theta_cov(fit, i, j);
    return ELO_PER_NATURAL * sqrt(fmax(0.0, var));
}

void bt_probabilities(const BtFit *fit, int south, int north, double *p_south, double *p_draw,
                      double *p_north)
{
    double x = (fit->rating[south] - fit->rating[north] + fit->home) / ELO_PER_NATURAL;
    double eta = fit->draw_nu > 0 ? log(fit->draw_nu) : -INFINITY;
    outcome_probs(x, eta, p_south, p_draw, p_north);
}
