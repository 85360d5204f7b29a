/* test_stats_ratings.c: score, Elo, likelihood of superiority, the trinomial GSPRT, and the
 * Bradley-Terry-Davidson ratings with a first-move term (analysis/elo.h, ratings.h).
 *
 * Tables marked "ref:NAME" hold expected values computed independently with scipy and numpy
 * by tests/stats_reference.py (the ratings by a scipy.optimize fit of the same likelihood),
 * which CTest runs to check them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "stats_test_util.h"

#include <math.h>
#include <stdio.h>

#include "elo.h"
#include "ratings.h"


/* ref:elo (wins, draws, losses, confidence, score, lo, hi, Elo, lo, hi, LOS): numpy mean and
 * variance of the expanded per-game scores, Wilson's interval over the effective games as
 * the roots of its quadratic by scipy's brentq, scipy's normal quantile and cdf. The last rows
 * are the matches all lost, all won and all drawn, where the interval once collapsed; then
 * 60 of 60 won and lost, whose Elo interval once ended at 6261 rather than at infinity. */
static const struct {
    uint64_t w, d, l; double conf, score, score_lo, score_hi, elo, elo_lo, elo_hi, los;
} elo_cases[] = {
    { 60, 30, 10, 0.95, 0.75, 0.6791296017460767, 0.8096056599614985, 190.848501887865,
      130.24920299822463, 251.44780077750545, 0.9999999988575881 },
    { 10, 80, 10, 0.95, 0.5, 0.4563412653024843, 0.5436587346975157, -0.0, -30.414651112156854,
      30.414651112156903, 0.5 },
    { 0, 10, 0, 0.95, 0.5, 0.236593090512564, 0.7634069094874361, -0.0, -203.50161162773185,
      203.50161162773196, 0.5 },
    { 30, 40, 30, 0.95, 0.5, 0.4249508884382203, 0.5750491115617796, -0.0, -52.54647810425862,
      52.54647810425859, 0.5 },
    { 1234, 2345, 1111, 0.9, 0.5131130063965885, 0.5046245688829928, 0.5215938867302371,
      9.113940028143183, 3.213571234038387, 15.014308822247923, 0.9944573738962752 },
    { 0, 5, 95, 0.95, 0.025, 0.010836488906005177, 0.05661595158518609, -636.4258428105996,
      -784.1517986941765, -488.6998869270228, 9.519263252730089e-23 },
    { 5100000, 150000, 4700000, 0.95, 0.5201005025125628, 0.5197924234782568, 0.5204085662605792,
      13.974791283676065, 13.76037480535753, 14.189207761994597, 1.0 },
    { 0, 0, 40, 0.95, 0.0, 0.0, 0.08762160119728664, -INFINITY, -INFINITY, -407.0255237150759,
      1.2698142947354283e-10 },
    { 25, 0, 0, 0.95, 1.0, 0.8668077490609515, 1.0, INFINITY, 325.37753065270596, INFINITY,
      0.9999997133484281 },
    { 3, 0, 1, 0.95, 0.75, 0.3006418425824019, 0.9544127391902995, 190.848501887865,
      -146.66008817620772, 528.3570919519376, 0.8413447460685429 },
    { 60, 0, 0, 0.95, 1.0, 0.9398281478579101, 1.0, INFINITY, 477.4620273373483, INFINITY,
      0.9999999999999952 },
    { 0, 0, 60, 0.95, 0.0, 0.0, 0.06017185214208986, -INFINITY, -INFINITY, -477.46202733734845,
      4.7428687855369255e-15 },
};

/* Score, Elo and likelihood of superiority with their intervals. */
static void test_elo(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(elo_cases); i++) {
        EloEstimate e = elo_estimate(elo_cases[i].w, elo_cases[i].d, elo_cases[i].l,
                                     elo_cases[i].conf);
        assert_true(e.games == elo_cases[i].w + elo_cases[i].d + elo_cases[i].l);
        check_close("score", i, e.score, elo_cases[i].score, 1e-14, 1e-15);
        check_close("score lo", i, e.score_ci.lo, elo_cases[i].score_lo, 1e-12, 1e-14);
        check_close("score hi", i, e.score_ci.hi, elo_cases[i].score_hi, 1e-12, 1e-14);
        check_close("elo", i, e.elo, elo_cases[i].elo, 1e-12, 1e-10);
        check_close("elo lo", i, e.elo_ci.lo, elo_cases[i].elo_lo, 1e-10, 1e-9);
        check_close("elo hi", i, e.elo_ci.hi, elo_cases[i].elo_hi, 1e-10, 1e-9);
        check_close("los", i, e.los, elo_cases[i].los, 1e-12, 1e-300);
    }
    /* The conversions invert each other; 0 Elo is an even score. */
    for (double x = -800; x <= 800; x += 50)
        check_close("elo(score(x))", 0, elo_from_score(score_from_elo(x)), x, 1e-12, 1e-10);
    assert_true(elo_from_score(0.5) == 0.0 && score_from_elo(0.0) == 0.5);
    assert_true(isinf(elo_from_score(1.0)) && elo_from_score(1.0) > 0);
    assert_true(likelihood_of_superiority(0, 0) == 0.5);
    assert_true(isnan(elo_estimate(0, 0, 0, 0.95).score) && isnan(score_variance(0, 0, 0)));
}

/* ref:sprt (wins, draws, losses, elo0, elo1, alpha, beta, LLR, lower, upper, decision):
 * fishtest's LLRcalc.LLR_alt2 formula on its regularised pdf, checked there against the exact
 * generalised likelihood ratio maximised by scipy */
static const struct {
    uint64_t w, d, l; double elo0, elo1, alpha, beta, llr, lower, upper; int decision;
} sprt_cases[] = {
    { 120, 60, 100, 0.0, 10.0, 0.05, 0.05, 0.5887332301497002, -2.9444389791664403,
      2.9444389791664403, 0 },
    { 1000, 800, 900, 0.0, 5.0, 0.05, 0.05, 1.6508755416224623, -2.9444389791664403,
      2.9444389791664403, 0 },
    { 100, 20, 300, 0.0, 10.0, 0.05, 0.05, -8.170553306862335, -2.9444389791664403,
      2.9444389791664403, -1 },
    { 10, 2, 50, 0.0, 10.0, 0.05, 0.05, -2.133495476105863, -2.9444389791664403,
      2.9444389791664403, 0 },
    { 500, 100, 300, 0.0, 10.0, 0.05, 0.05, 6.411256900455214, -2.9444389791664403,
      2.9444389791664403, 1 },
    { 0, 10, 0, -5.0, 5.0, 0.05, 0.05, 3.1965363820499763e-13, -2.9444389791664403,
      2.9444389791664403, 0 },
    { 3000, 5000, 2800, 0.0, 5.0, 0.05, 0.1, 3.2789962501813164, -2.251291798606495,
      2.8903717578961645, 1 },
};

/* The trinomial GSPRT's log-likelihood ratio, bounds and decision. */
static void test_sprt(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ELEMS(sprt_cases); i++) {
        Sprt t = sprt_trinomial(sprt_cases[i].w, sprt_cases[i].d, sprt_cases[i].l,
                                sprt_cases[i].elo0, sprt_cases[i].elo1, sprt_cases[i].alpha,
                                sprt_cases[i].beta);
        check_close("llr", i, t.llr, sprt_cases[i].llr, 1e-11, 1e-12);
        check_close("lower", i, t.lower, sprt_cases[i].lower, 1e-14, 0);
        check_close("upper", i, t.upper, sprt_cases[i].upper, 1e-14, 0);
        assert_int_equal((int)t.decision, sprt_cases[i].decision);
    }
}

/* ref:bt_tournament (South agent, North agent, South wins, draws, North wins): a hand-made
 * round robin of four agents, both colours, with draws */
static const BtPairing tournament[] = {
    { 0, 1, 12, 3, 25 },
    { 1, 0, 30, 4, 6 },
    { 0, 2, 5, 2, 33 },
    { 2, 0, 36, 2, 2 },
    { 0, 3, 3, 1, 36 },
    { 3, 0, 38, 1, 1 },
    { 1, 2, 14, 6, 20 },
    { 2, 1, 26, 5, 9 },
    { 1, 3, 10, 4, 26 },
    { 3, 1, 30, 3, 7 },
    { 2, 3, 18, 7, 15 },
    { 3, 2, 22, 6, 12 },
};

/* ref:bt_expected (what: agent, -1 first-move advantage, -2 nu, -3 log-likelihood; the anchor;
 * estimate; standard error): scipy.optimize maximum of the same likelihood, standard errors
 * from its central-difference Hessian */
typedef struct BtRef {
    int what, anchor;
    double value, se;
} BtRef;

static const BtRef tournament_fit[] = {
    { 0, 0, 0.0, 0.0 },
    { 1, 0, 248.50166215411585, 38.835219314920046 },
    { 2, 0, 405.14840335382604, 42.20412731146147 },
    { 3, 0, 466.11144313641597, 43.915995497867 },
    { -1, 0, 65.24815173264373, 21.26679714381706 },
    { -2, 0, 0.26815309628942774, 0.043836700060493373 },
    { -3, 0, -348.79710515396954, 0.0 },
};

/* ref:bt_tournament: three agents, no draws (nu is fixed at 0), anchored at agent 1 */
static const BtPairing tournament_nodraw[] = {
    { 0, 1, 20, 0, 10 },
    { 1, 0, 8, 0, 22 },
    { 1, 2, 25, 0, 15 },
    { 2, 1, 12, 0, 28 },
    { 0, 2, 30, 0, 10 },
    { 2, 0, 17, 0, 23 },
};

/* ref:bt_expected: the fit of tournament_nodraw */
static const BtRef tournament_nodraw_fit[] = {
    { 0, 1, 88.49841992520885, 36.37067476545266 },
    { 1, 1, 0.0, 0.0 },
    { 2, 1, -74.79898905188792, 33.67502785604616 },
    { -1, 1, 7.0440823431589035, 24.73980939179139 },
    { -3, 1, -140.81537565581323, 0.0 },
};

/* Check a fit against a reference table of estimates and standard errors. */
static void check_fit(const BtFit *f, const BtRef *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double value, se;
        if (t[i].what >= 0) {
            value = f->rating[t[i].what];
            se = f->rating_se[t[i].what];
        } else if (t[i].what == -1) {
            value = f->home;
            se = f->home_se;
        } else if (t[i].what == -2) {
            value = f->draw_nu;
            se = f->draw_nu_se;
        } else {
            value = f->log_likelihood;
            se = 0.0;
        }
        check_close("bt estimate", i, value, t[i].value, 1e-8, 1e-8);
        check_close("bt standard error", i, se, t[i].se, 1e-6, 1e-8);
    }
}

/* A reference of a fit with a prior: BtRef's fields and the prior's standard deviation. */
typedef struct BtMapRef {
    int what, anchor;
    double prior_sd, value, se;
} BtMapRef;

/* Check a fit with a prior against its reference table. */
static void check_map_fit(const BtFit *f, const BtMapRef *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        assert_true(t[i].prior_sd == f->prior_sd);
        BtRef r = { t[i].what, t[i].anchor, t[i].value, t[i].se };
        check_fit(f, &r, 1);
    }
}

/* Fit a tournament with a prior of standard deviation prior_sd Elo points (BT_NO_PRIOR: the
 * maximum likelihood); fails the test unless it succeeds. */
static BtFit fit_prior_or_fail(const BtPairing *p, size_t n, int agents, int anchor,
                               double prior_sd)
{
    BtFit f;
    int status = bt_fit(p, n, agents, anchor, prior_sd, &f);
    if (status != BT_OK)
        fail_msg("bt_fit: %s", bt_strerror(status));
    return f;
}

/* The maximum-likelihood fit of a tournament; fails the test unless it succeeds. */
static BtFit fit_or_fail(const BtPairing *p, size_t n, int agents, int anchor)
{
    return fit_prior_or_fail(p, n, agents, anchor, BT_NO_PRIOR);
}

/* At the maximum the likelihood equations hold: for every agent the expected wins minus
 * losses equal the observed ones, and likewise South's over all games, and the draws. */
static void check_likelihood_equations(const BtFit *f, const BtPairing *p, size_t n)
{
    double home_obs = 0, home_exp = 0, draws_obs = 0, draws_exp = 0;
    for (int a = 0; a < f->agents; a++) {
        double obs = 0, expected = 0;
        for (size_t k = 0; k < n; k++) {
            double ps, pd, pn, g = (double)(p[k].south_wins + p[k].draws + p[k].north_wins);
            bt_probabilities(f, p[k].south, p[k].north, &ps, &pd, &pn);
            double net = (double)p[k].south_wins - (double)p[k].north_wins;
            if (p[k].south == a) {
                obs += net;
                expected += g * (ps - pn);
            } else if (p[k].north == a) {
                obs -= net;
                expected -= g * (ps - pn);
            }
            if (a == 0) {
                home_obs += net;
                home_exp += g * (ps - pn);
                draws_obs += (double)p[k].draws;
                draws_exp += g * pd;
            }
        }
        check_close("agent's expected net wins", (size_t)a, expected, obs, 1e-8, 1e-7);
    }
    check_close("South's expected net wins", 0, home_exp, home_obs, 1e-8, 1e-7);
    if (f->draw_nu > 0)
        check_close("expected draws", 0, draws_exp, draws_obs, 1e-8, 1e-7);
}

/* The Bradley-Terry-Davidson fit against scipy's, and its likelihood equations. */
static void test_bradley_terry(void **state)
{
    (void)state;
    BtFit f = fit_or_fail(tournament, N_ELEMS(tournament), 4, 0);
    check_fit(&f, tournament_fit, N_ELEMS(tournament_fit));
    check_likelihood_equations(&f, tournament, N_ELEMS(tournament));
    assert_int_equal(f.params, 5);
    /* The anchor's rating is 0 exactly; a difference's error involves the covariance. */
    assert_true(f.rating[0] == 0.0 && f.rating_se[0] == 0.0);
    check_close("se to anchor", 0, bt_rating_diff_se(&f, 2, 0), f.rating_se[2], 1e-12, 0);
    assert_true(bt_rating_diff_se(&f, 2, 3) > 0 && bt_rating_diff_se(&f, 2, 2) == 0);
    /* Re-anchoring shifts every rating and leaves differences and their errors alone. */
    BtFit g = fit_or_fail(tournament, N_ELEMS(tournament), 4, 2);
    for (int i = 0; i < 4; i++) {
        check_close("shifted", (size_t)i, g.rating[i], f.rating[i] - f.rating[2], 1e-7, 1e-6);
        check_close("diff se", (size_t)i, bt_rating_diff_se(&g, i, 3),
                    bt_rating_diff_se(&f, i, 3), 1e-6, 1e-9);
    }
    check_close("home", 0, g.home, f.home, 1e-8, 1e-8);
    check_close("loglik", 0, g.log_likelihood, f.log_likelihood, 1e-12, 1e-9);
    bt_fit_free(&g);
    bt_fit_free(&f);
    assert_null(f.rating);

    f = fit_or_fail(tournament_nodraw, N_ELEMS(tournament_nodraw), 3, 1);
    check_fit(&f, tournament_nodraw_fit, N_ELEMS(tournament_nodraw_fit));
    check_likelihood_equations(&f, tournament_nodraw, N_ELEMS(tournament_nodraw));
    assert_true(f.draw_nu == 0.0 && isnan(f.draw_nu_se) && f.params == 3);
    bt_fit_free(&f);
}

/* ref:bt_tournament: a small ladder where agent 2 never lost and agent 0 never won or drew,
 * 10 games a colour order: without a prior two ratings are infinite */
static const BtPairing ladder_lopsided[] = {
    { 0, 1, 0, 0, 10 },
    { 1, 0, 10, 0, 0 },
    { 1, 2, 0, 1, 9 },
    { 2, 1, 8, 2, 0 },
    { 0, 2, 0, 0, 10 },
    { 2, 0, 10, 0, 0 },
    { 0, 1, 0, 0, 3 },
    { 1, 0, 3, 0, 0 },
};

/* ref:bt_map_expected (what, anchor, prior sd in Elo; estimate; standard error): the same
 * likelihood plus the Gaussian prior on the ratings' deviations from their mean, maximised
 * by scipy.optimize, standard errors from the central-difference Hessian of the
 * log-posterior */
static const BtMapRef ladder_lopsided_fit[] = {
    { 0, 1, 400.0, -842.7672534275059, 247.28939718177057 },
    { 1, 1, 400.0, 0.0, 0.0 },
    { 2, 1, 400.0, 478.3740073078878, 154.12093578466872 },
    { -1, 1, 400.0, -47.56924833621391, 129.77721809701615 },
    { -2, 1, 400.0, 0.4296667279256907, 0.3075254657219883 },
    { -3, 1, 400.0, -11.137787522891621, 0.0 },
};

/* The prior gives finite ratings, in the order of the results, with wide intervals, where the
 * maximum likelihood has none; and they are scipy's maximum a posteriori. */
static void test_bradley_terry_prior_lopsided(void **state)
{
    (void)state;
    BtFit f;
    assert_int_equal(bt_fit(ladder_lopsided, N_ELEMS(ladder_lopsided), 3, 1, BT_NO_PRIOR, &f),
                     BT_NOT_CONNECTED);
    f = fit_prior_or_fail(ladder_lopsided, N_ELEMS(ladder_lopsided), 3, 1, BT_PRIOR_SD_ELO);
    assert_true(f.prior_sd == BT_PRIOR_SD_ELO && !f.data_finite);
    for (int i = 0; i < 3; i++)
        assert_true(isfinite(f.rating[i]) && isfinite(f.rating_se[i]));
    assert_true(f.rating[2] > f.rating[1] && f.rating[1] > f.rating[0]);
    /* Honest: the unbeaten agent's interval is wide, over 100 Elo either side. */
    assert_true(bt_rating_diff_se(&f, 2, 1) > 50);
    check_map_fit(&f, ladder_lopsided_fit, N_ELEMS(ladder_lopsided_fit));
    bt_fit_free(&f);
}

/* Scale every count of a tournament by k into out. */
static void scale_pairings(const BtPairing *p, size_t n, uint64_t k, BtPairing *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (BtPairing){ p[i].south, p[i].north, k * p[i].south_wins, k * p[i].draws,
                              k * p[i].north_wins };
}

/* Where the data alone fit, the prior's effect is small: on the tournament (four agents, 80
 * games a pair) every rating moves by under a tenth of its standard error (scipy: 0.07 at
 * most), and at 100 times the games by under a hundredth (0.007); the standard errors by
 * under 1% and 0.01% (0.7% and 0.007%). */
static void test_bradley_terry_prior_small(void **state)
{
    (void)state;
    static const struct { uint64_t scale; double shift, se_ratio; } cases[] = {
        { 1, 0.1, 0.01 }, { 100, 0.01, 0.0001 },
    };
    BtPairing big[N_ELEMS(tournament)];
    for (size_t c = 0; c < N_ELEMS(cases); c++) {
        scale_pairings(tournament, N_ELEMS(tournament), cases[c].scale, big);
        BtFit ml = fit_or_fail(big, N_ELEMS(big), 4, 0);
        BtFit map = fit_prior_or_fail(big, N_ELEMS(big), 4, 0, BT_PRIOR_SD_ELO);
        assert_true(map.data_finite);
        for (int i = 1; i < 4; i++) {
            double shift = fabs(map.rating[i] - ml.rating[i]) / ml.rating_se[i];
            double ratio = fabs(map.rating_se[i] / ml.rating_se[i] - 1);
            if (shift >= cases[c].shift || ratio >= cases[c].se_ratio)
                fail_msg("scale %llu agent %d: moved %.4f se, se by %.4f",
                         (unsigned long long)cases[c].scale, i, shift, ratio);
        }
        /* It pulls towards the mean: the spread shrinks. */
        assert_true(map.rating[3] - map.rating[0] < ml.rating[3] - ml.rating[0]);
        bt_fit_free(&ml);
        bt_fit_free(&map);
    }
}

/* Tournaments without a finite maximum or identifiable parameters are errors, not numbers. */
static void test_bradley_terry_errors(void **state)
{
    (void)state;
    BtFit f;
    /* Agent 2 never won or drew. */
    static const BtPairing lost[] = {
        { 0, 1, 5, 1, 4 }, { 1, 0, 6, 0, 4 }, { 2, 0, 0, 0, 10 }, { 1, 2, 8, 0, 0 },
    };
    assert_int_equal(bt_fit(lost, N_ELEMS(lost), 3, 0, BT_NO_PRIOR, &f), BT_NOT_CONNECTED);
    assert_null(f.rating);
    /* Only one colour assignment: the rating difference and the first move are confounded. */
    static const BtPairing one_way[] = { { 0, 1, 6, 2, 4 } };
    assert_int_equal(bt_fit(one_way, 1, 2, 0, BT_NO_PRIOR, &f), BT_SINGULAR);
    /* Every game drawn: nu is infinite. */
    static const BtPairing drawn[] = { { 0, 1, 0, 10, 0 }, { 1, 0, 0, 10, 0 } };
    assert_int_equal(bt_fit(drawn, 2, 2, 0, BT_NO_PRIOR, &f), BT_NO_MAXIMUM);
    /* South always wins: the first-move advantage is infinite. */
    static const BtPairing south[] = { { 0, 1, 10, 0, 0 }, { 1, 0, 7, 0, 0 } };
    assert_int_equal(bt_fit(south, 2, 2, 0, BT_NO_PRIOR, &f), BT_NO_MAXIMUM);
    /* Bad input. */
    static const BtPairing self[] = { { 1, 1, 1, 1, 1 } };
    assert_int_equal(bt_fit(self, 1, 2, 0, BT_NO_PRIOR, &f), BT_BAD_INPUT);
    assert_int_equal(bt_fit(lost, N_ELEMS(lost), 3, 3, BT_NO_PRIOR, &f), BT_BAD_INPUT);
    assert_int_equal(bt_fit(lost, N_ELEMS(lost), 1, 0, BT_NO_PRIOR, &f), BT_BAD_INPUT);
    assert_int_equal(bt_fit(lost, N_ELEMS(lost), 3, 0, -1.0, &f), BT_BAD_INPUT);
    assert_int_equal(bt_fit(lost, N_ELEMS(lost), 3, 0, INFINITY, &f), BT_BAD_INPUT);
    assert_non_null(bt_strerror(BT_SINGULAR));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_bradley_terry),
        cmocka_unit_test(test_bradley_terry_errors),
        cmocka_unit_test(test_bradley_terry_prior_lopsided),
        cmocka_unit_test(test_bradley_terry_prior_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
