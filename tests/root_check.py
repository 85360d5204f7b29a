#!/usr/bin/env python3
"""root_check.py: check `anywoli analyze --json`'s root design (analysis/root.h) against the
results file, independently of the C code: each self-play job from all:N read with h5py
(analyze_check.py's reader), its pairs (games 2k, 2k+1) split into halves by their order
within their line, each line's mean
and t interval (scipy), the naive minimax, the held-out (cross-fitted) estimate and the
simultaneous bounds (each line's one-sided bounds at Sidak's level, their minimax) over the
line tree, and who plays each line's second ply, from `anywoli move` (an extra move keeps
South on move).

    root_check.py ANYWOLI RESULTS JSON

Exit status 0 when every check passes, 1 otherwise (each failure named on stderr)."""
import json
import math
import subprocess
import sys

import numpy as np
from scipy import stats

import analyze_check          # its reader of the results file's pairs

CONF = 0.95
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def near(a, b, tol=1e-9):
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return a is b or (a is None and b is None)
    return abs(a - b) <= tol * max(1.0, abs(b))


def estimate(xs, conf=CONF):
    """Mean and interval: Student's t, or the all-alike bound where the values agree."""
    n = len(xs)
    if n == 0:
        return None, -1.0, 1.0
    m = float(np.mean(xs))
    if n == 1 or np.var(xs) < 1e-12:
        p = 1 - ((1 - conf) / 2) ** (1 / n)
        return m, m - p * (m + 1), m + p * (1 - m)
    half = stats.t.ppf(1 - (1 - conf) / 2, n - 1) * np.std(xs, ddof=1) / math.sqrt(n)
    return m, max(-1.0, m - half), min(1.0, m + half)


def open_lines(lines, fixed):
    """The most lines a strategy of `fixed` ("south" or "north") leaves open, the other side
    free: one child at fixed's plies (the largest count), every child at the other's."""
    def count(idx, k):
        if len(idx) == 1 and len(lines[idx[0]]["moves"]) == k:
            return 1
        groups = {}
        for i in idx:
            groups.setdefault(lines[i]["moves"][k], []).append(i)
        counts = [count(g, k + 1) for g in groups.values()]
        return max(counts) if lines[idx[0]]["movers"][k] == fixed else sum(counts)
    return count(list(range(len(lines))), 0)


def simultaneous(lines, values):
    """The simultaneous bounds on the minimax of the true values: each line's one-sided
    bound at Sidak's level 1 - (1 - a/2)^(1/k) over the k lines the other side's strategy
    leaves open, then the minimax of the lower bounds and of the upper bounds."""
    out = {"lines": [], "union_lines": [], "levels": [], "bounds": []}
    for side, fixed in ((1, "north"), (2, "south")):
        k = open_lines(lines, fixed)
        a = 1 - (1 - (1 - CONF) / 2) ** (1 / k)
        b = [estimate(xs, 1 - 2 * a)[side] for xs in values]
        c = minimax(lines, b)
        out["lines"].append(c)
        out["union_lines"].append(k)
        out["levels"].append(1 - a)
        out["bounds"].append(b[c])
    return out


def minimax(lines, value):
    """The line South's and North's best choices end in (ties: the first in move order)."""
    order = sorted(range(len(lines)), key=lambda i: lines[i]["moves"])

    def best(idx, k):
        if len(idx) == 1 and len(lines[idx[0]]["moves"]) == k:
            return idx[0] if value[idx[0]] is not None else None
        south = lines[idx[0]]["movers"][k] == "south"
        groups = {}
        for i in idx:
            groups.setdefault(lines[i]["moves"][k], []).append(i)
        chosen = None
        for move in sorted(groups):
            c = best(groups[move], k + 1)
            if c is None:
                continue
            if chosen is None or (value[c] > value[chosen] if south else value[c] < value[chosen]):
                chosen = c
        return chosen
    return best(order, 0)


def check_job(binary, name, pairs, job):
    root, where = job["root"], "job %s: root" % name
    lines = root["lines"]
    halves = [[[], []] for _ in lines]
    seen = {}
    # The pairs in game order as (opening, A's half-points, South's minus North's + 2).
    for opening, _, sn, _ in pairs:
        x = (sn - 2) / 2.0
        k = seen.get(opening, 0)
        seen[opening] = k + 1
        halves[opening][k % 2].append(x)
    for i, line in enumerate(lines):
        for f in range(2):
            h = line["halves"][f]
            check(h["pairs"] == len(halves[i][f]) and near(h["sum"], sum(halves[i][f])),
                  "%s: line %d half %d: %s, the file gives %d pairs summing to %s"
                  % (where, i, f, h, len(halves[i][f]), sum(halves[i][f])))
        m, lo, hi = estimate(halves[i][0] + halves[i][1])
        a = line["advantage"]
        check(near(a["value"], m) and near(a["lo"], lo, 1e-6) and near(a["hi"], hi, 1e-6),
              "%s: line %d: %s, want %s [%s, %s]" % (where, i, a, m, lo, hi))
        check(line["movers"][0] == "south", "%s: line %d's first ply is not South's" % (where, i))
    # Who plays the second ply: North after a plain move, South again after an extra one.
    events = {}
    for i, line in enumerate(lines):
        if len(line["moves"]) < 2:
            continue
        first = line["moves"][0]
        if first not in events:
            out = subprocess.run([binary, "move", str(first)], capture_output=True, text=True,
                                 check=True).stdout.split()
            events[first] = out[-1]
        want = "south" if events[first] == "extra" else "north"
        check(line["movers"][1] == want, "%s: line %d's second ply: %s, want %s"
              % (where, i, line["movers"][1], want))
    full = [estimate(halves[i][0] + halves[i][1])[0] for i in range(len(lines))]
    naive = minimax(lines, full)
    check(root["naive"]["line"] == naive, "%s: naive line %s, want %s"
          % (where, root["naive"]["line"], naive))
    chosen, vals, var, ns = [], [], [], []
    for f in range(2):
        means = [float(np.mean(h[f])) if h[f] else None for h in halves]
        c = minimax(lines, means)
        chosen.append(c)
        other = halves[c][1 - f]
        vals.append(float(np.mean(other)))
        var.append(np.var(other, ddof=1) / len(other) if len(other) > 1 else float("nan"))
        ns.append(len(other))
    h = root["held_out"]
    check(h["lines"] == chosen, "%s: held-out choices %s, want %s" % (where, h["lines"], chosen))
    value = (vals[0] + vals[1]) / 2
    check(near(h["advantage"]["value"], value), "%s: held out %s, want %s"
          % (where, h["advantage"]["value"], value))
    s2 = (var[0] + var[1]) / 4
    if s2 > 1e-12:
        df = s2 * s2 / (var[0] ** 2 / 16 / (ns[0] - 1) + var[1] ** 2 / 16 / (ns[1] - 1))
        half = stats.t.ppf(1 - (1 - CONF) / 2, df) * math.sqrt(s2)
        check(near(h["se"], math.sqrt(s2)) and
              near(h["advantage"]["lo"], max(-1.0, value - half), 1e-6) and
              near(h["advantage"]["hi"], min(1.0, value + half), 1e-6),
              "%s: held-out interval %s (se %s), want [%s, %s] (se %s)"
              % (where, h["advantage"], h["se"], value - half, value + half, math.sqrt(s2)))
    want = simultaneous(lines, [halves[i][0] + halves[i][1] for i in range(len(lines))])
    got = root["minimax"]
    check(got["lines"] == want["lines"] and got["union_lines"] == want["union_lines"] and
          all(near(g, w) for g, w in zip(got["levels"], want["levels"])) and
          near(got["lo"], want["bounds"][0], 1e-6) and near(got["hi"], want["bounds"][1], 1e-6),
          "%s: simultaneous bounds %s, want %s" % (where, got, want))
    return 1


def main():
    binary, results, doc = sys.argv[1:4]
    with open(doc) as f:
        d = json.load(f)
    checked = 0
    pairs = {j["name"]: j["pairs"] for j in analyze_check.read_jobs(results)}
    failures.extend(analyze_check.failures)
    for job in d["jobs"]:
        want = job["openings"].startswith("all:") and not job["two_agents"]
        check((job["root"] is not None) == want, "job %s: root section %s"
              % (job["name"], "missing" if want else "where none belongs"))
        if want and job["root"] is not None:
            checked += check_job(binary, job["name"], pairs[job["name"]], job)
    check(checked >= 2, "fewer than two root jobs checked (%d)" % checked)
    # The advantage against skill repeats each root job's simultaneous bounds.
    roots = {job["name"]: job["root"] for job in d["jobs"] if job["root"] is not None}
    for design in d.get("skill") or []:
        for row in design["cells"]:
            for cell in row:
                if cell is None or cell["root"] is None:
                    continue
                want = roots.get(cell["job"])
                got = cell["root"].get("minimax")
                check(want is not None and got is not None and
                      near(got["lo"], want["minimax"]["lo"]) and
                      near(got["hi"], want["minimax"]["hi"]),
                      "skill cell %s: simultaneous bounds %s, the job's %s"
                      % (cell["job"], got, want and want["minimax"]))
    for msg in failures:
        print("root_check: " + msg, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
