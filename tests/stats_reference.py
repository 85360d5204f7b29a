#!/usr/bin/env python3
"""stats_reference.py: recompute, independently of analysis/ and with scipy and numpy, every
expected value embedded in the statistics tests (tests/test_stats*.c), and check that the
embedded numbers are the ones scipy gives.

In the C files each reference table follows a comment naming it, "ref:NAME (fields...)",
and is a C array initialiser whose rows start with the inputs and end with the expected
outputs. For each row this script computes the outputs from the inputs with scipy/numpy
(never with the C formulas) and compares.

    stats_reference.py TESTS_DIR            check (exit 0 when all match, 1 otherwise)
    stats_reference.py --write TESTS_DIR    rewrite the outputs in place (after adding rows)

Exit status 77 (CTest's skip) when scipy or numpy cannot be imported: on Debian install
python3-scipy and python3-numpy (scripts/setup.sh does) and run it with /usr/bin/python3.
"""
import ast
import glob
import math
import os
import re
import sys

try:
    import numpy as np
    import scipy
    from scipy import optimize, stats
except ImportError as e:  # pragma: no cover
    print(f"stats_reference: SKIPPED: {sys.executable} cannot import scipy/numpy ({e}); "
          "install python3-scipy python3-numpy and use /usr/bin/python3")
    sys.exit(77)


def zcrit(conf):
    return stats.norm.isf((1 - conf) / 2)


# ---------------------------------------------------------------- proportions

def wilson(k, n, conf):
    with np.errstate(divide="ignore"):   # binomtest's own p-value underflows at 10^7 trials
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
    return [max(0.0, float(ci.low)), min(1.0, float(ci.high))]


def clopper_pearson(k, n, conf):
    """The beta quantiles of the definition (scipy's proportion_ci(method="exact") solves
    with a tolerance too loose for limits near 1 at ten million games)."""
    a = (1 - conf) / 2
    lo = 0.0 if k == 0 else float(stats.beta.ppf(a, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.isf(a, k + 1, n - k))
    # Cross-check against the binomial tails they solve (near 1, on the failures' side).
    if k > 0:
        assert math.isclose(stats.binom.sf(k - 1, n, lo), a, rel_tol=1e-7), (k, n, lo)
    if k < n:
        assert math.isclose(stats.binom.sf(n - k - 1, n, 1 - hi), a, rel_tol=1e-7), (k, n, hi)
    return [lo, hi]


def binomial_tails(k, n, p):
    return [float(stats.binom.cdf(k, n, p)), float(stats.binom.sf(k - 1, n, p))]


def binomial_test(k, n, p0):
    return [float(stats.binomtest(k, n, p0).pvalue)]


def mcnemar(b, c):
    return [1.0 if b + c == 0 else float(stats.binomtest(b, b + c, 0.5).pvalue)]


def constrained_q(x1, x2, n, d):
    """The maximum-likelihood p2 of a multinomial (x1, x2, rest) given p1 - p2 = d, found by
    solving the score equation numerically (not Tango's closed form)."""
    r = n - x1 - x2
    lo, hi = max(0.0, -d), (1 - d) / 2

    def score(q):
        s = 0.0
        if x1:
            s += x1 / (q + d)
        if x2:
            s += x2 / q
        if r:
            s -= 2 * r / (1 - 2 * q - d)
        return s

    eps = 1e-15
    a, b = lo + eps * max(1.0, lo), hi - eps * max(1.0, hi)
    if a >= b:
        return lo
    fa, fb = score(a), score(b)
    if fa <= 0:
        return lo
    if fb >= 0:
        return hi
    return optimize.brentq(score, a, b, xtol=1e-300, rtol=1e-15, maxiter=500)


def tango(x1, x2, n, conf):
    """Tango's score interval for p1 - p2 of one multinomial sample: the d where
    (x1 - x2 - n d) / sqrt(n (2 q(d) + d (1 - d))) = -+z."""
    z = zcrit(conf)
    dhat = (x1 - x2) / n

    def stat(d):
        v = 2 * constrained_q(x1, x2, n, d) + d * (1 - d)
        return (x1 - x2 - n * d) / math.sqrt(max(v, 0.0) * n) if v > 0 else math.copysign(
            math.inf, x1 - x2 - n * d)

    eps = 1e-13
    lo = -1.0 if dhat <= -1 else optimize.brentq(
        lambda d: stat(d) - z, -1 + 1e-15, dhat - eps if dhat > -1 + 2 * eps else dhat,
        xtol=1e-15, rtol=1e-15, maxiter=500)
    hi = 1.0 if dhat >= 1 else optimize.brentq(
        lambda d: stat(d) + z, dhat + eps if dhat < 1 - 2 * eps else dhat, 1 - 1e-15,
        xtol=1e-15, rtol=1e-15, maxiter=500)
    return [dhat, lo, hi]


def multinomial_difference(x1, x2, n, conf):
    return tango(x1, x2, n, conf)


def colour_balanced(a, b, conf):
    ea = tango(a[0], a[1], a[0] + a[1] + a[2], conf)
    eb = tango(b[0], b[1], b[0] + b[1] + b[2], conf)
    v = (ea[0] + eb[0]) / 2
    lo = v - math.sqrt((ea[0] - ea[1]) ** 2 + (eb[0] - eb[1]) ** 2) / 2
    hi = v + math.sqrt((ea[2] - ea[0]) ** 2 + (eb[2] - eb[0]) ** 2) / 2
    return [v, lo, hi]


# ---------------------------------------------------------------- tests of difference

def two_proportion(k1, n1, k2, n2):
    pooled = (k1 + k2) / (n1 + n2)
    if pooled in (0.0, 1.0):
        return [0.0, 1.0]
    chi2, p, _, _ = stats.chi2_contingency([[k1, n1 - k1], [k2, n2 - k2]], correction=False)
    return [math.copysign(math.sqrt(chi2), k1 / n1 - k2 / n2), float(p)]


def chi_square(rows, cols, table):
    t = np.array(table[: rows * cols], dtype=float).reshape(rows, cols)
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    if t.shape[0] < 2 or t.shape[1] < 2:
        return [0.0, 0.0, 1.0]
    chi2, p, dof, _ = stats.chi2_contingency(t, correction=False)
    return [float(chi2), float(dof), float(p)]


def expand(counts, length, origin=0):
    return np.repeat(np.arange(origin, origin + length), np.array(counts[:length], dtype=np.int64))


def mann_whitney(x_len, x, y_len, y):
    xs, ys = expand(x, x_len), expand(y, y_len)
    n1, n2 = len(xs), len(ys)
    if len(np.unique(np.concatenate([xs, ys]))) == 1:
        return [n1 * n2 / 2, 0.0, 1.0, 0.5]
    r = stats.mannwhitneyu(xs, ys, alternative="two-sided", method="asymptotic",
                           use_continuity=True)
    u, p = float(r.statistic), float(r.pvalue)
    z = 0.0 if p >= 1 else math.copysign(float(stats.norm.isf(p / 2)), u - n1 * n2 / 2)
    return [u, z, p, u / (n1 * n2)]


def holm(m, p, _adjusted=None):
    p = list(p[:m])
    order = sorted(range(m), key=lambda i: p[i])
    adj = [0.0] * 8
    for i in range(m):   # adjusted p(i) = max over j <= i of min(1, (m - j) p(j)), 0-based
        adj[order[i]] = max(min(1.0, (m - j) * p[order[j]]) for j in range(i + 1))
    return [adj]


# ---------------------------------------------------------------- histograms and metrics

def histogram(origin, length, counts):
    d = expand(counts, length, origin)
    q = np.percentile(d, [5, 25, 50, 75, 95, 99])
    return [int(len(d)), float(np.mean(d)), float(np.std(d, ddof=1)), float(d.min()),
            float(d.max())] + [float(v) for v in q]


def quantile(origin, length, counts, q):
    return [float(np.quantile(expand(counts, length, origin), q))]


def mean_t_interval(data, conf):
    m = float(np.mean(data))
    lo, hi = stats.t.interval(conf, len(data) - 1, loc=m, scale=stats.sem(data))
    return [m, float(lo), float(hi)]


def mean_interval(length, counts, conf):
    return mean_t_interval(expand(counts, length), conf)


# ---------------------------------------------------------------- censored lengths

def censored_sample(length, counts, censored):
    """The expanded games: their lengths and whether each ended (False: censored, the last
    `censored` games of the last value)."""
    times = expand(counts, length)
    ended = np.ones(len(times), dtype=bool)
    if censored:
        ended[len(times) - censored:] = False
        assert np.all(times[~ended] == length - 1)
    return times, ended


def km_curve(times, ended, length):
    """S(t) for t = 0 .. length-1 by the product-limit formula over the event times."""
    surv, s = [], 1.0
    for t in range(length):
        d = int(np.sum((times == t) & ended))
        n = int(np.sum(times >= t))
        if d:
            s *= 1.0 - d / n
        surv.append(s)
    return surv


def kaplan_meier(length, counts, censored, _surv=None):
    times, ended = censored_sample(length, counts, censored)
    surv = km_curve(times, ended, length)
    cap = length - 1
    capped = np.minimum(times, cap)
    mean = float(sum(surv[:cap]))            # the integral of the step function to the cap
    assert math.isclose(mean, float(np.mean(capped)), rel_tol=1e-12), (mean, np.mean(capped))
    def q(p):
        hit = [t for t in range(length) if surv[t] <= 1 - p + 1e-12]
        return float(hit[0]) if hit else math.inf
    return [surv + [0.0] * (12 - length), int(len(times)), mean,
            float(np.std(capped, ddof=1)), float(times.min()), float(cap)] + \
        [q(p) for p in (0.05, 0.25, 0.5, 0.75, 0.95, 0.99)]


def log_rank(x_len, x, x_cens, y_len, y, y_cens):
    tx, ex = censored_sample(x_len, x, x_cens)
    ty, ey = censored_sample(y_len, y, y_cens)
    o = e = v = 0.0
    for t in np.unique(np.concatenate([tx[ex], ty[ey]])):
        n1, n2 = float(np.sum(tx >= t)), float(np.sum(ty >= t))
        d1 = float(np.sum((tx == t) & ex))
        d = d1 + float(np.sum((ty == t) & ey))
        n = n1 + n2
        o += d1
        e += d * n1 / n
        if n > 1:
            v += d * (n1 / n) * (n2 / n) * (n - d) / (n - 1)
    if v <= 0:
        return [o, e, v, 0.0, 1.0]
    chi = (o - e) ** 2 / v
    return [o, e, v, chi, float(stats.chi2.sf(chi, 1))]


def metrics(o, length, lengths, conf):
    s, n, d, e, u = o
    fin, tot = s + n + d, s + n + d + e + u

    def prop(k, m):
        return [k / m] + wilson(k, m, conf)

    dv, dlo, dhi = tango(s, n, fin, conf)
    a, c = abs(dlo), abs(dhi)
    bal = [1 - abs(dv), 1 - max(a, c), 1.0 if dlo <= 0 <= dhi else 1 - min(a, c)]
    lengths_data = expand(lengths, length)
    return [prop(s, fin), bal, prop(s + n, tot), prop(d, tot), prop(e + u, tot),
            mean_t_interval(lengths_data, conf), float(np.std(lengths_data, ddof=1))]


# ---------------------------------------------------------------- Elo and SPRT

def elo_of(s):
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400 * math.log10(1 / s - 1)


def wilson_real(p, n, conf):
    """Wilson's interval for a proportion p of n trials (n need not be whole): the two roots
    in q of (p - q)^2 = z^2 q (1 - q) / n, found by brentq (not the closed form)."""
    z2 = zcrit(conf) ** 2

    def f(q):
        return (p - q) ** 2 - z2 * q * (1 - q) / n
    tight = {"xtol": 1e-17, "rtol": 4 * np.finfo(float).eps, "maxiter": 500}
    lo = 0.0 if p <= 0 else optimize.brentq(f, 0.0, min(p, 1 - 1e-12), **tight)
    hi = 1.0 if p >= 1 else optimize.brentq(f, max(p, 1e-300), 1.0, **tight)
    return lo, hi


def score_interval(scores, games_per_unit, conf):
    """The score of per-unit scores with Wilson's interval over the effective number of
    games: units s (1 - s) / var (the units' own variance, numpy), or all the games when
    every unit scored the same."""
    s, var = float(np.mean(scores)), float(np.var(scores))
    n_eff = len(scores) * s * (1 - s) / var if var > 0 else len(scores) * games_per_unit
    return s, wilson_real(s, n_eff, conf)


def elo(w, d, l, conf):
    scores = np.repeat([1.0, 0.5, 0.0], [w, d, l])
    s, (lo, hi) = score_interval(scores, 1, conf)
    los = 0.5 if w + l == 0 else float(stats.norm.cdf((w - l) / math.sqrt(w + l)))
    return [s, lo, hi, elo_of(s), elo_of(lo), elo_of(hi), los]


def fishtest_pdf(values, counts):
    """fishtest LLRcalc.results_to_pdf of unit scores and their counts, zero counts
    regularised to 1e-3."""
    counts = [c if c else 1e-3 for c in counts]
    n = sum(counts)
    return n, [(v, c / n) for v, c in zip(values, counts)]


def gsprt_exact(values, counts, s0, s1):
    """The generalised log-likelihood ratio itself: the multinomial maximum likelihood under
    expected score s0 and s1 (fishtest's MLE_expected, here by scipy's constrained minimiser),
    for checking that the approximation is close."""
    n, pdf = fishtest_pdf(values, counts)
    obs = np.array([p for _, p in pdf])
    vals = np.array([a for a, _ in pdf])

    def mle(s):
        def negll(x):
            q = np.exp(x) / np.exp(x).sum()
            return -float(np.dot(obs, np.log(q)))
        cons = {"type": "eq", "fun": lambda x: float(np.dot(np.exp(x) / np.exp(x).sum(), vals) - s)}
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):   # trial steps
            r = optimize.minimize(negll, np.log(obs), constraints=[cons], method="SLSQP",
                                  options={"ftol": 1e-15, "maxiter": 1000})
        return -r.fun
    return n * (mle(s1) - mle(s0))


def gsprt(values, counts, elo0, elo1, alpha, beta):
    n, pdf = fishtest_pdf(values, counts)
    s = sum(a * p for a, p in pdf)
    var = sum(p * (a - s) ** 2 for a, p in pdf)
    s0, s1 = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
    llr = n * (s1 - s0) * (2 * s - s0 - s1) / var / 2.0          # LLRcalc.LLR_alt2 * N
    if abs(2 * s - s0 - s1) < 0.1:   # near the hypotheses, where the approximation is made
        # Within 2% for games; pairs have a smaller variance, so the same distance from the
        # hypotheses is more standard errors and the approximation drifts more (5%).
        exact = gsprt_exact(values, counts, s0, s1)
        rel = 0.02 if len(values) == 3 else 0.05
        assert abs(llr - exact) <= rel * abs(exact) + 0.01, (counts, llr, exact)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    decision = 1 if llr >= upper else -1 if llr <= lower else 0
    return [llr, lower, upper, decision]


def sprt(w, d, l, elo0, elo1, alpha, beta):
    return gsprt([0.0, 0.5, 1.0], [l, d, w], elo0, elo1, alpha, beta)


# ---------------------------------------------------------------- pairs of games

PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]


def pentanomial(counts, conf):
    """Expanded per-pair scores: numpy's mean and variance, Wilson by root finding over the
    effective games."""
    x = np.repeat(PAIR_SCORES, counts)
    s, (lo, hi) = score_interval(x, 2, conf)
    se = math.sqrt(float(np.var(x)) / len(x))
    return [s, se, lo, hi, elo_of(s), elo_of(lo), elo_of(hi)]


def sprt_pentanomial(counts, elo0, elo1, alpha, beta):
    return gsprt(PAIR_SCORES, counts, elo0, elo1, alpha, beta)


def all_equal_bound(m, units, conf):
    """Where every unit had the value m (or there is one unit): scipy's Clopper-Pearson upper
    limit at 0 of `units` (the Beta(1, units) quantile) as the share p that could differ, each
    by at most to -1 or 1: [m - p (m + 1), m + p (1 - m)]."""
    p = float(stats.beta.ppf(1 - (1 - conf) / 2, 1, units))
    return m - p * (m + 1), m + p * (1 - m)


def pair_advantage(counts, conf):
    """scipy's t interval on the expanded per-pair advantages (South's points minus North's
    over the pair, halved); the all-equal bound where every pair is alike."""
    d = np.repeat([-1.0, -0.5, 0.0, 0.5, 1.0], counts)
    if len(d) == 0:
        return [float("nan"), -1.0, 1.0, float("nan"), 0]
    m = float(np.mean(d))
    if len(set(d.tolist())) == 1:
        lo, hi = all_equal_bound(m, len(d), conf)
        return [m, lo, hi, 0.0 if len(d) > 1 else float("nan"), 1]
    sd = float(np.std(d, ddof=1))
    if sd == 0:
        lo = hi = m
    else:
        lo, hi = stats.t.interval(conf, len(d) - 1, loc=m, scale=stats.sem(d))
    return [m, max(-1.0, float(lo)), min(1.0, float(hi)), sd, 0]


def clustered_pairs(n, openings, a_half, sn, conf):
    """The pair statistics from the pairs themselves: with an opening played by 2+ pairs, the
    opening (a pair without one alone) is the unit: numpy's sandwich estimator for the mean
    (a regression on a constant) summed over the clusters, times G / (G - 1); scipy's t on
    G - 1 degrees of freedom for the advantage, Wilson over s (1 - s) / V effective games for
    the score (2 G games where V is 0). Else the pair-unit references."""
    o = np.array(openings[:n], dtype=np.int64)
    a = np.array(a_half[:n], dtype=float) / 4
    d = (np.array(sn[:n], dtype=float) - 2) / 2
    labels = [("o", int(x)) if x >= 0 else ("p", k) for k, x in enumerate(o)]
    _, cluster, sizes = np.unique(np.array([f"{t}{v}" for t, v in labels]), return_inverse=True,
                                  return_counts=True)
    g = len(sizes)
    if sizes.max() == 1:
        pa = pentanomial(np.bincount(a_half[:n], minlength=5).tolist(), conf)
        pd = pair_advantage(np.bincount(sn[:n], minlength=5).tolist(), conf)
        return [0, n, pa[0], pa[1], pa[2], pa[3], pd[0], pd[1], pd[2], pd[4]]

    def sandwich(y):
        x = np.ones((n, 1))
        bread = np.linalg.inv(x.T @ x)
        beta = np.array([np.mean(y)])      # the least-squares constant, without its rounding
        e = y - x @ beta
        meat = np.zeros((1, 1))
        for c in range(g):
            u = x[cluster == c].T @ e[cluster == c]
            meat += np.outer(u, u)
        return float(beta[0]), float((g / (g - 1) * bread @ meat @ bread)[0, 0])
    s, vs = sandwich(a)
    lo, hi = wilson_real(s, s * (1 - s) / vs if vs > 0 else 2 * g, conf)
    m, vd = sandwich(d)
    if vd == 0:     # every opening's mean alike: the all-equal bound over the openings
        alo, ahi = all_equal_bound(m, g, conf)
        return [1, g, s, math.sqrt(vs), lo, hi, m, alo, ahi, 1]
    alo, ahi = stats.t.interval(conf, g - 1, loc=m, scale=math.sqrt(vd))
    return [1, g, s, math.sqrt(vs), lo, hi, m, max(-1.0, float(alo)), min(1.0, float(ahi)), 0]


def distinct(n, hashes):
    """numpy's unique values with their counts; Kish's N^2 / sum m^2."""
    _, m = np.unique(np.array(hashes[:n], dtype=np.uint64), return_counts=True)
    return [len(m), int(m.max()), n * n / float(np.sum(m.astype(float) ** 2))]


# ---------------------------------------------------------------- Bradley-Terry-Davidson

ELO = 400 / math.log(10)


def bt_fit(pairs, agents, anchor, prior_sd=0.0):
    """Maximise the Davidson likelihood with a first-move term by scipy (BFGS, then a root of
    the central-difference gradient); standard errors from a central-difference Hessian.
    With prior_sd > 0 (Elo), the posterior under a Gaussian prior of that standard deviation
    on each rating's deviation from the mean rating (log-likelihood and log-prior kept apart,
    so "the log-likelihood" is the data's at the maximum a posteriori)."""
    draws = sum(p[3] for p in pairs) > 0
    games = sum(p[2] + p[3] + p[4] for p in pairs)
    npar = agents + (1 if draws else 0)

    def unpack(v):
        theta = list(v[: agents - 1])
        theta.insert(anchor, 0.0)
        return theta, v[agents - 1], (v[agents] if draws else -math.inf)

    def data_nll(v):
        theta, h, eta = unpack(v)
        total = 0.0
        for s, n, w, d, l in pairs:
            x = theta[s] - theta[n] + h
            logd = np.logaddexp.reduce([x / 2, -x / 2, eta])
            total -= w * (x / 2 - logd) + l * (-x / 2 - logd) + (d * (eta - logd) if d else 0)
        return total / games

    def nll(v):
        if prior_sd <= 0:
            return data_nll(v)
        theta = np.array(unpack(v)[0])
        sd = prior_sd / ELO
        return data_nll(v) + float(np.sum((theta - theta.mean()) ** 2)) / (2 * sd * sd) / games

    def grad(v, h=1e-5):
        g = np.zeros(npar)
        for i in range(npar):
            e = np.zeros(npar)
            e[i] = h
            g[i] = (nll(v + e) - nll(v - e)) / (2 * h)
        return g

    x0 = np.zeros(npar)
    r = optimize.minimize(nll, x0, method="BFGS", options={"gtol": 1e-9})
    root = optimize.root(grad, r.x, method="hybr", options={"xtol": 1e-14})
    v = root.x
    hs = 1e-4
    hess = np.zeros((npar, npar))
    for i in range(npar):
        for j in range(npar):
            ei, ej = np.zeros(npar), np.zeros(npar)
            ei[i], ej[j] = hs, hs
            hess[i, j] = (nll(v + ei + ej) - nll(v + ei - ej) - nll(v - ei + ej)
                          + nll(v - ei - ej)) / (4 * hs * hs)
    cov = np.linalg.inv(hess * games)
    theta, h, eta = unpack(v)
    out = {}
    k = 0
    for i in range(agents):
        if i == anchor:
            out[i] = (0.0, 0.0)
        else:
            out[i] = (theta[i] * ELO, math.sqrt(cov[k, k]) * ELO)
            k += 1
    out[-1] = (h * ELO, math.sqrt(cov[agents - 1, agents - 1]) * ELO)
    if draws:
        nu = math.exp(eta)
        out[-2] = (nu, nu * math.sqrt(cov[agents, agents]))
    out[-3] = (-data_nll(v) * games, 0.0)
    return out


# ---------------------------------------------------------------- coverage

def binomial_pmf(n, p):
    with np.errstate(divide="ignore", under="ignore"):   # far tails underflow to 0
        return stats.binom.pmf(np.arange(n + 1), n, p)


def wilson_coverage(n, p, conf):
    ks = np.arange(n + 1)
    pmf = binomial_pmf(n, p)
    covered = [wilson(int(k), n, conf) for k in ks]
    return [float(sum(pm for pm, (lo, hi) in zip(pmf, covered) if lo <= p <= hi))]


def clopper_pearson_coverage(n, p, conf):
    ks = np.arange(n + 1)
    a = (1 - conf) / 2
    with np.errstate(invalid="ignore"):
        lo = np.where(ks > 0, stats.beta.ppf(a, ks, n - ks + 1), 0.0)
        hi = np.where(ks < n, stats.beta.isf(a, ks + 1, n - ks), 1.0)
    return [float(binomial_pmf(n, p)[(lo <= p) & (p <= hi)].sum())]


# ---------------------------------------------------------------- tables

# name: (handler, number of input fields, relative tolerance, absolute tolerance)
TABLES = {
    "wilson": (wilson, 3, 1e-10, 1e-14),
    "clopper_pearson": (clopper_pearson, 3, 1e-10, 1e-15),
    "binomial_tails": (binomial_tails, 3, 1e-10, 1e-300),
    "binomial_test": (binomial_test, 3, 1e-10, 1e-300),
    "mcnemar": (mcnemar, 2, 1e-10, 1e-300),
    "multinomial_difference": (multinomial_difference, 4, 1e-9, 1e-12),
    "colour_balanced": (colour_balanced, 3, 1e-9, 1e-12),
    "two_proportion": (two_proportion, 4, 1e-10, 1e-300),
    "chi_square": (chi_square, 3, 1e-10, 1e-300),
    "mann_whitney": (mann_whitney, 4, 1e-10, 1e-300),
    "holm": (holm, 2, 1e-14, 1e-17),
    "histogram": (histogram, 3, 1e-13, 1e-13),
    "kaplan_meier": (kaplan_meier, 3, 1e-13, 1e-15),
    "log_rank": (log_rank, 6, 1e-12, 1e-12),
    "quantile": (quantile, 4, 1e-13, 1e-13),
    "mean_interval": (mean_interval, 3, 1e-11, 1e-12),
    "metrics": (metrics, 4, 1e-9, 1e-12),
    "elo": (elo, 4, 1e-12, 1e-12),
    "sprt": (sprt, 7, 1e-12, 1e-12),
    "pentanomial": (pentanomial, 2, 1e-12, 1e-12),
    "sprt_pentanomial": (sprt_pentanomial, 5, 1e-12, 1e-12),
    "pair_advantage": (pair_advantage, 2, 1e-12, 1e-12),
    "clustered_pairs": (clustered_pairs, 5, 1e-11, 1e-14),
    "distinct": (distinct, 2, 1e-14, 0),
    "wilson_coverage": (wilson_coverage, 3, 1e-10, 1e-12),
    "clopper_pearson_coverage": (clopper_pearson_coverage, 3, 1e-10, 1e-12),
    "bt_tournament": (None, 5, 0, 0),     # inputs only: the pairings of the next table
    "bt_expected": (None, 0, 0, 0),       # handled with the tournament before it
    "bt_map_expected": (None, 0, 0, 0),   # the same with a prior (its sd in each row)
}

REF = re.compile(r"/\*\s*ref:(\w+)")


def c_to_python(text):
    """A C initialiser's text as a Python list."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = text.replace("{", "[").replace("}", "]")
    text = re.sub(r"-INFINITY", "-1e999", text)
    text = re.sub(r"INFINITY", "1e999", text)
    text = re.sub(r"(\d)(ULL|ULL|UL|U|LL|L)\b", r"\1", text)
    text = re.sub(r"\bNAN\b", '"nan"', text)
    return nan_strings_to_floats(ast.literal_eval("[" + text + "]"))


def nan_strings_to_floats(v):
    """The "nan" placeholders of c_to_python as floats."""
    if isinstance(v, list):
        return [nan_strings_to_floats(x) for x in v]
    return float("nan") if v == "nan" else v


def find_tables(source):
    """(name, start, end) of each table's rows: the text between the braces of the
    initialiser that follows each ref comment."""
    tables = []
    for m in REF.finditer(source):
        eq = source.index("= {", m.end())
        start = eq + 3
        depth, i = 1, start
        while depth:
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
        tables.append((m.group(1), start, i - 1))
    return tables


def render(v):
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isinf(v):
            return "INFINITY" if v > 0 else "-INFINITY"
        if math.isnan(v):
            return "NAN"
        return repr(v)
    return "{ " + ", ".join(render(x) for x in v) + " }"


def tokens(v, last):
    """The pieces of a value as they may be wrapped: a nested list's elements one by one."""
    sep = "" if last else ","
    if not isinstance(v, list):
        return [render(v) + sep]
    inner = [render(x) + ("," if i < len(v) - 1 else "") for i, x in enumerate(v)]
    inner[0] = "{ " + inner[0]
    inner[-1] += " }" + sep
    return inner


def render_rows(rows, indent="    ", width=100):
    lines = []
    for row in rows:
        pieces = []
        for i, v in enumerate(row):
            pieces += tokens(v, i == len(row) - 1)
        pieces[0] = "{ " + pieces[0]
        pieces[-1] += " },"
        cur = indent
        for p in pieces:
            if len(cur) + len(p) + 1 > width and cur.strip():
                lines.append(cur.rstrip())
                cur = indent + "  "
            cur += p + " "
        lines.append(cur.rstrip())
    return "\n" + "\n".join(lines) + "\n"


def close(got, want, rtol, atol):
    if isinstance(want, list):
        return len(got) >= len(want) and all(close(g, w, rtol, atol) for g, w in zip(got, want))
    if got == want or (isinstance(want, float) and math.isnan(want) and
                       isinstance(got, float) and math.isnan(got)):
        return True
    return abs(got - want) <= atol + rtol * abs(want)


def expected_row(name, row, context):
    handler, n_in, _, _ = TABLES[name]
    out = handler(*row[:n_in])
    return list(row[:n_in]) + out


def bt_expected_rows(rows, pairs, with_prior=False):
    agents = 1 + max(max(p[0], p[1]) for p in pairs)
    anchor = int(rows[0][1])
    prior = [float(rows[0][2])] if with_prior else []
    fit = bt_fit(pairs, agents, anchor, *prior)
    new = []
    for row in rows:
        what = int(row[0])
        value, se = fit[what]
        new.append([what, anchor] + prior + [value, se])
    return new


def process(path, write):
    source = open(path).read()
    tables = find_tables(source)
    failures, pieces, last = 0, [], 0
    pairs = None
    seen = set()
    for name, start, end in tables:
        if name not in TABLES:
            print(f"{path}: unknown reference table {name}")
            failures += 1
            continue
        seen.add(name)
        rows = c_to_python(source[start:end])
        _, n_in, rtol, atol = TABLES[name]
        if name == "bt_tournament":
            pairs = [tuple(int(x) for x in r) for r in rows]
            new = rows
        elif name in ("bt_expected", "bt_map_expected"):
            new = bt_expected_rows(rows, pairs, name == "bt_map_expected")
            rtol, atol = 1e-6, 1e-9
        else:
            new = [expected_row(name, r, None) for r in rows]
        for i, (old, want) in enumerate(zip(rows, new)):
            if not close(old, want, rtol, atol) or len(old) != len(want):
                failures += 1
                if not write:
                    print(f"{os.path.basename(path)}: {name} row {i}: embedded {old}\n"
                          f"    scipy/numpy give {want}")
        pieces.append(source[last:start])
        pieces.append(render_rows(new) if write else source[start:end])
        last = end
    pieces.append(source[last:])
    if write:
        text = "".join(pieces)
        if text != source:
            open(path, "w").write(text)
            print(f"stats_reference: rewrote {path}")
        return 0, seen
    return failures, seen


def main(argv):
    write = "--write" in argv
    args = [a for a in argv if a != "--write"]
    if len(args) != 1:
        print(__doc__)
        return 2
    files = sorted(glob.glob(os.path.join(args[0], "test_stats*.c")))
    failures, seen = 0, set()
    for f in files:
        fail, names = process(f, write)
        failures += fail
        seen |= names
    missing = set(TABLES) - seen
    if missing:
        print(f"stats_reference: no table for {sorted(missing)} in {files}")
        failures += 1
    verdict = "rewritten" if write else f"{failures} mismatches" if failures else "all match"
    print(f"stats_reference: scipy {scipy.__version__}, numpy {np.__version__}: "
          f"{len(seen)} tables, {verdict}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
