#!/usr/bin/env python3
"""fit_check.py: `anywoli fit` against an independent fit of the same rows.

    fit_check.py DUMP.csv FIT.json

DUMP.csv is `anywoli fit --dump`'s table, FIT.json its `--json` output. Here the logistic model
is fitted again with scipy (no intercept; labels 1, 1/2, 0; games 4 mod 5 held out), the
standard errors by the sandwich clustered by game and the delta method, the defaults' scale
by a one-term fit of the default evaluation: the weights, errors and log-losses must agree.
Exit status 0 when they do, 1 when not, 77 (skipped) without scipy.
"""
import json
import sys

try:
    import numpy as np
    from scipy.optimize import minimize
    from scipy.special import expit, log_expit
except ImportError:
    sys.exit(77)


def log_loss(x, y, beta):
    z = x @ beta
    return float(np.mean(-(y * log_expit(z) + (1 - y) * log_expit(-z))))


def fit(x, y):
    """Maximum likelihood by Newton's method (trust region, exact Hessian)."""
    def grad(b):
        return x.T @ (expit(x @ b) - y) / len(y)

    def hess(b):
        p = expit(x @ b)
        return (x * (p * (1 - p))[:, None]).T @ x / len(y)

    r = minimize(lambda b: log_loss(x, y, b), np.zeros(x.shape[1]), jac=grad, hess=hess,
                 method="trust-exact", options={"gtol": 1e-12})
    return r.x


def sandwich(x, y, games, beta):
    p = expit(x @ beta)
    h = (x * (p * (1 - p))[:, None]).T @ x
    scores = x * (p - y)[:, None]
    m = np.zeros_like(h)
    for g in np.unique(games):
        s = scores[games == g].sum(axis=0)
        m += np.outer(s, s)
    hi = np.linalg.inv(h)
    return hi @ m @ hi


def main():
    dump, got_path = sys.argv[1], sys.argv[2]
    with open(dump) as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(dump, delimiter=",", skiprows=1, ndmin=2)
    got = json.load(open(got_path))
    col = {name: i for i, name in enumerate(header)}
    terms = header[col["base"] + 1:]
    x = data[:, col["base"]:]
    y = data[:, col["label"]]
    held = data[:, col["held_out"]] == 1
    games = data[:, col["game"]]
    failures = []

    def close(what, a, b, tol):
        if not abs(a - b) <= tol * max(1.0, abs(b)):
            failures.append(f"{what}: anywoli {a!r}, scipy {b!r}")

    beta = fit(x[~held], y[~held])
    cov = sandwich(x[~held], y[~held], games[~held], beta)
    k = beta[0]
    close("K", got["K"], k, 1e-5)
    close("K se", got["K_se"], np.sqrt(cov[0, 0]), 1e-3)
    for i, name in enumerate(terms, start=1):
        w = beta[i] / k
        g = np.zeros(len(beta))
        g[0], g[i] = -w / k, 1 / k
        close(f"{name} weight", got["weights"][name]["weight"], w, 1e-4)
        close(f"{name} se", got["weights"][name]["se"], np.sqrt(g @ cov @ g), 1e-3)
    close("log-loss held out", got["log_loss_held_out"], log_loss(x[held], y[held], beta), 1e-6)
    close("log-loss fitted", got["log_loss_fitted"], log_loss(x[~held], y[~held], beta), 1e-6)

    default = x[:, 0] + sum(got["weights"][t]["default"] * x[:, i]
                            for i, t in enumerate(terms, start=1))
    d = default[:, None]
    dbeta = fit(d[~held], y[~held])
    close("defaults' K", got["defaults_K"], dbeta[0], 1e-5)
    close("defaults' log-loss held out", got["defaults_log_loss_held_out"],
          log_loss(d[held], y[held], dbeta), 1e-6)
    if got["positions_fitted"] != int((~held).sum()) or got["positions_held_out"] != int(held.sum()):
        failures.append("position counts differ from the dump's rows")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    print(f"fit_check: {len(terms)} terms over {len(y)} rows, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
