#!/usr/bin/env python3
"""analyze_check.py: check that `anywoli analyze`'s tables and JSON agree, and that a report
holds valid PNG images; given the results file too, recompute the pair statistics and the
distinct lines of every job, and every cell of the advantage against skill, from it,
independently of the C code (h5py to read, the numpy/scipy references of stats_reference.py
to compute), and compare.

    analyze_check.py TABLES JSON REPORT_DIR [RESULTS]
    analyze_check.py --scripts JSON REPORT_DIR

The second form checks the gnuplot scripts of a report drawn with analyze_test.sh's stand-in
gnuplot, which keeps each plot's script as REPORT_DIR/NAME.gp: what each plot draws, against
the JSON (re-scorings only where valid, the game unit only in self-play, a style of its own
for each series, no two values in one cell of a sweep).

Exit status 0 when every check passes, 1 otherwise (each failure named on stderr)."""
import base64
import json
import math
import os
import re
import sys

PNG = b"\x89PNG\r\n\x1a\n"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def f4(x):
    return "-" if x is None else "%.4f" % x


def job_blocks(text):
    """The tables of each job, by name."""
    blocks = {}
    for part in re.split(r"^== job ", text, flags=re.M)[1:]:
        name = part.split(":", 1)[0]
        blocks[name] = part.split("\n== between jobs", 1)[0]
    return blocks


def row(block, label):
    """The fields of the first line of a block that starts with the label."""
    for line in block.splitlines():
        if line.startswith("  " + label + " "):
            return line[len(label) + 2:].split()
    return None


def check_job(name, block, job):
    out = job["outcomes"]
    for label, key in (("South won", "south"), ("North won", "north"), ("draw", "draw"),
                       ("endless", "endless"), ("unfinished", "unfinished")):
        r = row(block, label)
        check(r is not None, "%s: no %s row" % (name, label))
        if r is None:
            continue
        check(int(r[0]) == out[key]["count"], "%s: %s count" % (name, label))
        check(r[1] == f4(out[key]["rate"]), "%s: %s rate %s vs %s" % (name, label, r[1],
                                                                         out[key]["rate"]))
        check(r[2] == "[" + f4(out[key]["lo"]) + ",", "%s: %s interval" % (name, label))
    adv = row(block.split("First-player advantage", 1)[1], "all")
    check(int(adv[0]) == job["unit"]["units"], "%s: the advantage's units" % name)
    check(adv[1] == f4(job["advantage"]["value"]), "%s: advantage %s vs %s"
          % (name, adv[1], job["advantage"]["value"]))
    length = row(block, "length (plies)")
    check(int(length[0]) == job["length"]["n"], "%s: length n" % name)
    check(length[1] == "%.2f" % job["length"]["mean"], "%s: length mean" % name)
    conv = row(block, job["variant"]["final_four"] + "*")
    check(conv is not None and conv[0] == f4(job["conventions"][job["variant"]["final_four"]]
                                             ["south"]["rate"]), "%s: own convention" % name)
    check(job["conventions"][job["variant"]["final_four"]]["south"]["count"] ==
          out["south"]["count"], "%s: own convention re-scored as stored" % name)
    agents = block.split("\nAgents:", 1)[1].splitlines()[2].split()
    check(int(agents[0]) == job["agents"]["a_wins"], "%s: A's wins" % name)
    check(agents[4] == "[" + f4(job["agents"]["score"]["lo"]) + ",", "%s: score interval" % name)
    check_pairs(name, block, job)


def check_pairs(name, block, job):
    """The pairs' tables against the JSON: the pentanomial counts and score (two agents), the
    pair-unit advantage."""
    pairs = job["pairs"]
    part = block.split("\nPairs (games 2k and 2k+1", 1)
    check(len(part) == 2, "%s: no pairs table" % name)
    if len(part) < 2:
        return
    text = part[1]
    check(text.startswith(", colours swapped): %d pairs" % pairs["pairs"]), "%s: pairs" % name)
    counts = row(text, "pairs")
    if job["two_agents"]:
        check(counts is not None and [int(c) for c in counts[:5]] == pairs["pentanomial"],
              "%s: pentanomial %s vs %s" % (name, counts, pairs["pentanomial"]))
        check(counts is not None and counts[5] == f4(pairs["score"]["value"]),
              "%s: pair score" % name)
    else:
        check(counts is None, "%s: a pentanomial for one agent" % name)
    label = "opening unit" if pairs["advantage"]["unit"] == "opening" else "pair unit"
    unit = row(text, label)
    check(unit is not None and unit[0] == f4(pairs["advantage"]["value"]),
          "%s: %s advantage" % (name, label))


CONVENTIONS = ["penultimate", "first-final", "lottery"]
VARIANT_KEYS = ["holes", "seeds", "capture", "extra_turn", "skip_origin", "max_plies"]


def near(got, want, tol=1e-9):
    if got is None or want is None:
        return got is None and want is None
    return abs(got - want) <= tol * max(1.0, abs(want))


def read_jobs(path):
    """Every job of a results file in run order: its attributes and its pairs as
    (opening, A's half-points, South's minus North's points + 2), read with h5py."""
    import h5py
    import numpy as np
    jobs = []
    with h5py.File(path, "r") as f:
        for name, g in f["jobs"].items():
            rows = g["games"][()]
            rows = rows[np.argsort(rows["game"], kind="stable")]
            by_game = {int(r["game"]): r for r in rows}
            pairs = []
            for k in range(len(rows) // 2 + 1):
                even, odd = by_game.get(2 * k), by_game.get(2 * k + 1)
                if even is None or odd is None or 4 in (even["outcome"], odd["outcome"]):
                    continue
                def half(r):        # A's half-points in one game
                    if r["outcome"] in (2, 3):
                        return 1
                    return 2 if (r["outcome"] == 0) == bool(r["a_south"]) else 0
                def sn(r):          # South's points minus North's
                    return {0: 1, 1: -1}.get(int(r["outcome"]), 0)
                check(even["opening"] == odd["opening"], "%s: pair %d's games differ in their "
                      "opening" % (name, k))
                # the pair's games South won, North won, drawn
                shares = tuple(int(even["outcome"] == o) + int(odd["outcome"] == o)
                               for o in (0, 1, 2))
                pairs.append((int(odd["opening"]), half(even) + half(odd),
                              sn(even) + sn(odd) + 2, shares))
            attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in g.attrs.items()}
            lines = None              # distinct_lines as analyze should give it
            if "line_hash" in rows.dtype.names:
                _, counts = np.unique(rows["line_hash"], return_counts=True)
                # within each colour assignment (A South, A North): a match of two
                # deterministic agents follows one line in each
                in_colour = max(np.unique(rows["line_hash"][rows["a_south"] == c],
                                          return_counts=True)[1].max(initial=0)
                                / max(1, int((rows["a_south"] == c).sum())) for c in (0, 1))
                lines = {"plies": 10, "games": len(rows), "distinct": len(counts),
                         "top_share": counts.max() / len(rows), "in_colour": in_colour,
                         "few": bool(counts.max() >= len(rows) / 2 or in_colour >= 0.5)}
            outcomes = [int((rows["outcome"] == o).sum()) for o in range(5)]
            jobs.append({"name": name, "attrs": attrs, "pairs": pairs, "games": len(rows),
                         "outcomes": outcomes,
                         "distinct": len(np.unique(rows["moves_hash"])), "lines": lines})
    jobs.sort(key=lambda j: int(j["attrs"]["index"]))
    return jobs


def recompute_pairs(job):
    """The clustered (or pair-unit) score and advantage of a job, and the naive pair-unit
    advantage interval, from stats_reference.py."""
    import stats_reference as ref
    p = job["pairs"]
    o, a, d = [x[0] for x in p], [x[1] for x in p], [x[2] for x in p]
    r = ref.clustered_pairs(len(p), o, a, d, 0.95)
    naive = ref.pair_advantage([d.count(i) for i in range(5)], 0.95)
    return {"unit": "opening" if r[0] else "pair", "units": r[1], "score": r[2], "se": r[3],
            "score_lo": r[4], "score_hi": r[5], "adv": r[6], "adv_lo": r[7], "adv_hi": r[8],
            "degenerate": bool(r[9]), "naive_lo": naive[1], "naive_hi": naive[2]}


def check_job_pairs(job, doc_job):
    """pairs.score and pairs.advantage against the recomputation; where pairs repeat
    openings the interval is wider than the naive pair-unit one, else equal to it."""
    name, r, pairs = job["name"], recompute_pairs(job), doc_job["pairs"]
    adv, score = pairs["advantage"], pairs["score"]
    check(adv["unit"] == r["unit"] and adv["units"] == r["units"], "%s: advantage unit %s %s, "
          "recomputed %s %s" % (name, adv["unit"], adv["units"], r["unit"], r["units"]))
    check(score["unit"] == r["unit"] and score["units"] == r["units"], "%s: score unit" % name)
    check(adv["degenerate"] == r["degenerate"], "%s: advantage degenerate %s, recomputed %s"
          % (name, adv["degenerate"], r["degenerate"]))
    for key, want in (("value", r["adv"]), ("lo", r["adv_lo"]), ("hi", r["adv_hi"])):
        check(near(adv[key], want), "%s: advantage %s %s, recomputed %s"
              % (name, key, adv[key], want))
    for key, want in (("value", r["score"]), ("lo", r["score_lo"]), ("hi", r["score_hi"]),
                      ("se", r["se"])):
        check(near(score[key], want), "%s: score %s %s, recomputed %s"
              % (name, key, score[key], want))
    width, naive = adv["hi"] - adv["lo"], r["naive_hi"] - r["naive_lo"]
    if r["unit"] == "pair":
        check(near(adv["lo"], r["naive_lo"]) and near(adv["hi"], r["naive_hi"]),
              "%s: pair unit, but not the pair-unit interval" % name)
    elif job["distinct"] < job["games"] / 2 and r["naive_hi"] - r["naive_lo"] < 2:
        check(width > naive, "%s: games repeat with their openings, but the opening-unit "
              "interval (%.4f wide) is not wider than the pair-unit one (%.4f)"
              % (name, width, naive))
    return r


def share_design_effect(pairs, unit, k):
    """The design effect of the share of finished games with outcome k (0 South won, 1
    North won, 2 drawn) with the pair or the opening as unit: the cluster-robust (CR1)
    variance of the ratio estimate over the binomial one, at least 1."""
    clusters = {}
    for i, (opening, _, _, shares) in enumerate(pairs):
        key = opening if unit == "opening" and opening >= 0 else ("pair", i)
        x, m = clusters.get(key, (0, 0))
        clusters[key] = (x + shares[k], m + sum(shares))
    xs, ms = [c[0] for c in clusters.values()], [c[1] for c in clusters.values()]
    total = sum(ms)
    if total == 0 or len(xs) < 2:
        return 1.0
    r = sum(xs) / total
    if r * (1 - r) == 0:
        return 1.0
    g = len(xs)
    v = g / (g - 1) * sum((x - r * m) ** 2 for x, m in zip(xs, ms)) / total ** 2
    return max(1.0, v / (r * (1 - r) / total))


def check_job_unit(job, doc_job, r, block):
    """The unit the job's figures are over, recomputed from the file: the game where its
    games are independent (from the start, 95% distinct, not few lines), else the pairs'
    unit; then every share's interval (Wilson over games / design effect), the advantage and
    its test with that unit, in the JSON and the text's first-player advantage block."""
    import stats_reference as ref
    from scipy import stats
    name, got = job["name"], doc_job["unit"]
    few = job["lines"] is not None and job["lines"]["few"]
    independent = (job["attrs"]["openings"] == "start" and not few
                   and job["distinct"] >= 0.95 * job["games"])
    unit = "game" if independent else r["unit"]
    check(got["name"] == unit, "%s: unit %s, recomputed %s" % (name, got["name"], unit))
    o = job["outcomes"]
    finished = o[0] + o[1] + o[2]
    check(got["units"] == (finished if unit == "game" else r["units"]),
          "%s: units %s" % (name, got["units"]))
    out = doc_job["outcomes"]
    for k, key in enumerate(("south", "north", "draw")):
        deff = 1.0 if unit == "game" else share_design_effect(job["pairs"], unit, k)
        check(near(got["share_design_effects"][key], deff, 1e-6), "%s: %s's design effect %s, "
              "recomputed %s" % (name, key, got["share_design_effects"][key], deff))
        if finished:
            lo, hi = ref.wilson_real(o[k] / finished, finished / deff, 0.95)
            check(near(out[key]["lo"], lo, 1e-6) and near(out[key]["hi"], hi, 1e-6),
                  "%s: %s's interval [%s, %s], recomputed [%s, %s]"
                  % (name, key, out[key]["lo"], out[key]["hi"], lo, hi))
    adv = doc_job["advantage"]
    if unit == "game":
        check("p_binomial" in adv and "p_t" not in adv, "%s: a game-unit test" % name)
        return
    pa = doc_job["pairs"]["advantage"]
    for key in ("value", "lo", "hi"):
        check(near(adv[key], pa[key]), "%s: advantage %s %s is not the %s unit's %s"
              % (name, key, adv[key], unit, pa[key]))
    if not pa["degenerate"] and pa["sd"]:
        se = pa["sd"] / math.sqrt(pa["pairs"]) if unit == "pair" else None
        if se:
            p = 2 * stats.t.sf(abs(pa["value"]) / se, pa["pairs"] - 1)
            check(near(adv["p_t"], p, 1e-6), "%s: t test p %s, recomputed %s"
                  % (name, adv["p_t"], p))
    head = block.split("First-player advantage", 1)[1].splitlines()[0]
    check(head.endswith("the %s as unit" % unit), "%s: the advantage's heading %r"
          % (name, head))
    check("game unit " not in block, "%s: a game-unit interval where the games are not "
          "independent" % name)


def expected_skill(jobs, recomputed):
    """The designs of the advantage against skill, from the file: self-play jobs by openings
    and variant but final_four, rungs in run order, conventions in their order."""
    designs = []
    for job in jobs:
        at = job["attrs"]
        if at["agent_a"] != at["agent_b"]:
            continue
        key = (at["openings"], tuple(int(at[k]) for k in VARIANT_KEYS))
        d = next((x for x in designs if x["key"] == key), None)
        if d is None:
            d = {"key": key, "rungs": [], "cells": {}}
            designs.append(d)
        if at["agent_a"] not in d["rungs"]:
            d["rungs"].append(at["agent_a"])
        d["cells"].setdefault((at["agent_a"], at["final_four"]), job)
    out = []
    for d in designs:
        convs = [c for c in CONVENTIONS if any(k[1] == c for k in d["cells"])]
        # A ladder of players, or one player under several conventions.
        if len(d["rungs"]) < 2 and len(convs) < 2:
            continue
        cells = []
        for rung in d["rungs"]:
            row = []
            for c in convs:
                job = d["cells"].get((rung, c))
                if job is None:
                    row.append(None)
                    continue
                r = recomputed[job["name"]]
                row.append({"job": job["name"], "advantage": r["adv"], "lo": r["adv_lo"],
                            "hi": r["adv_hi"], "degenerate": r["degenerate"],
                            "unit": r["unit"], "units": r["units"],
                            "games": job["games"],
                            "distinct_share": job["distinct"] / job["games"]})
            cells.append(row)
        out.append({"openings": d["key"][0], "conventions": convs, "rungs": d["rungs"],
                    "cells": cells})
    return out


def points(x):
    return "%+.1f [%+.1f, %+.1f]" % (100 * x["advantage"], 100 * x["lo"], 100 * x["hi"])


def check_skill(tables, doc, want):
    """The JSON's skill designs against the recomputed ones, and the text's cells."""
    got = doc.get("skill")
    check(got is not None and len(got) == len(want), "skill: %s designs, recomputed %d"
          % (None if got is None else len(got), len(want)))
    section = tables.split("\nFirst-player advantage against skill", 1)
    check(len(section) == 2 or not want, "skill: no section in the tables")
    blocks = re.split(r"\ndesign \d+: ", section[1] if len(section) == 2 else "")[1:]
    check(len(blocks) == len(want), "skill: %d designs in the text" % len(blocks))
    for g, w, text in zip(got or [], want, blocks):
        check(text.startswith("openings %s; " % w["openings"]), "skill: the text's design "
              "%s" % w["openings"])
        where = "skill %s" % w["openings"]
        for key in ("openings", "conventions", "rungs"):
            check(g[key] == w[key], "%s: %s %s, recomputed %s" % (where, key, g[key], w[key]))
        check("final_four" not in g["variant"] and "holes=" in g["variant"],
              "%s: variant %s" % (where, g["variant"]))
        labels = g.get("rung_labels") or []
        check(len(labels) == len(w["rungs"]), "%s: rung_labels %s" % (where, labels))
        for r, (grow, wrow) in enumerate(zip(g["cells"], w["cells"])):
            check(len(grow) == len(wrow), "%s: rung %d's cells" % (where, r))
            # A rung is labelled by its player: the spec as given, and the weight set played.
            label = labels[r] if r < len(labels) else w["rungs"][r]
            check(label.startswith(w["rungs"][r]), "%s: label %s" % (where, label))
            # The rung's row: its label then its cells, or a long label alone, its cells on
            # the next line.
            rows = text.splitlines()
            at = next((k for k, l in enumerate(rows)
                       if l.startswith("  " + label + " ") or l == "  " + label), None)
            line = "" if at is None else rows[at] if rows[at].strip() != label \
                else (rows[at + 1] if at + 1 < len(rows) else "")
            for gc, wc in zip(grow, wrow):
                if wc is None:
                    check(gc is None, "%s: a cell for no job" % where)
                    continue
                if gc is None:
                    check(False, "%s: job %s's cell is null" % (where, wc["job"]))
                    continue
                for key in ("job", "unit", "units", "games", "degenerate"):
                    check(gc[key] == wc[key], "%s: %s %s, recomputed %s"
                          % (where, key, gc[key], wc[key]))
                for key in ("advantage", "lo", "hi", "distinct_share"):
                    check(near(gc[key], wc[key]), "%s: %s's %s %s, recomputed %s"
                          % (where, wc["job"], key, gc[key], wc[key]))
                check(points(gc) in line, "%s: the text's row for %s lacks %s"
                      % (where, w["rungs"][r], points(gc)))


def check_lines(job, doc_job, block):
    """distinct_lines in the JSON and the text (with the warning exactly when the most common
    line has half the games or more) against the recomputation from the file."""
    name, want, got = job["name"], job["lines"], doc_job["distinct_lines"]
    if want is None:
        check(got is None and "distinct 10-ply lines: not known" in block,
              "%s: no line_hash column, but lines are given" % name)
        return
    check(got["plies"] == 10 and got["games"] == want["games"] and
          got["distinct"] == want["distinct"] and got["few"] == want["few"] and
          near(got["top_share"], want["top_share"]) and
          near(got["top_share_in_colour"], want["in_colour"]),
          "%s: distinct_lines %s, recomputed %s" % (name, got, want))
    text = ("distinct 10-ply lines: %d of %d games; the most common is followed by %.1f%% of "
            "them" % (want["distinct"], want["games"], 100 * want["top_share"]))
    check(text in block, "%s: the tables lack '%s'" % (name, text))
    check(("warning: the games follow few lines" in block) == want["few"],
          "%s: the few-lines warning is %s" % (name, "missing" if want["few"] else "given"))


def check_results(path, tables, doc):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    jobs = read_jobs(path)
    by_name = {j["name"]: j for j in doc["jobs"]}
    blocks = job_blocks(tables)
    recomputed = {}
    for job in jobs:
        if job["name"] in by_name:
            recomputed[job["name"]] = check_job_pairs(job, by_name[job["name"]])
            check_job_unit(job, by_name[job["name"]], recomputed[job["name"]],
                           blocks.get(job["name"], ""))
            check_lines(job, by_name[job["name"]], blocks.get(job["name"], ""))
    check_skill(tables, doc, expected_skill(jobs, recomputed))


def expected_answer(job):
    """What a job's answer must be, from the JSON's detail: a match's Elo; a root design's
    best line, by its race's interval where it ran one, else held out; South's advantage
    with the job's unit. In points per 100 games but for the Elo."""
    if job["two_agents"]:
        e = job["agents"]["elo"]
        return "match", e["value"], e["lo"], e["hi"], "Elo"
    race = job.get("root_design")
    if race:
        return ("adaptive_root_design", 100 * race["value"], 100 * race["lo"],
                100 * race["hi"], "points per 100 games")
    if job.get("root"):
        h = job["root"]["held_out"]["advantage"]
        return "root_design", 100 * h["value"], 100 * h["lo"], 100 * h["hi"], \
            "points per 100 games"
    a = job["advantage"]
    return "advantage", 100 * a["value"], 100 * a["lo"], 100 * a["hi"], "points per 100 games"


def answer_text(value, lo, hi):
    return "-" if value is None else "%+.1f [%+.1f, %+.1f]" % (value, lo, hi)


def check_answers(tables, doc, folder):
    """The answers come first, a line per job, in the text (before any job's detail), the
    JSON (`answers`, agreeing with each job's detail) and the report (before the plots)."""
    answers = doc.get("answers")
    check(answers is not None and [w["job"] for w in answers] == [j["name"] for j in
                                                                  doc["jobs"]],
          "answers: not one per job in order")
    head = tables.split("\n== job ", 1)[0]
    check("\nAnswers (" in head, "answers: the text does not begin with them")
    html = open(os.path.join(folder, "index.html"), encoding="utf-8").read() if folder else ""
    check(not folder or 0 <= html.find("<h2>Answers</h2>") < html.find("<h2>Plots</h2>"),
          "answers: the report does not begin with them")
    for w, job in zip(answers or [], doc["jobs"]):
        kind, value, lo, hi, scale = expected_answer(job)
        check(w["kind"] == kind and w["scale"] == scale, "answers: %s is %s in %s, expected "
              "%s in %s" % (w["job"], w["kind"], w["scale"], kind, scale))
        check(near(w["value"], value) and near(w["lo"], lo) and near(w["hi"], hi),
              "answers: %s's figure %s, detail %s" % (w["job"], w, (value, lo, hi)))
        check(w["unit"] == job["unit"]["name"] or kind == "adaptive_root_design",
              "answers: %s's unit %s, the job's %s" % (w["job"], w["unit"], job["unit"]))
        row = [l for l in head.splitlines() if l.startswith("  " + w["job"] + " ")]
        fig = answer_text(w["value"], w["lo"], w["hi"])
        check(len(row) == 1 and fig in row[0] and w["scale"] in row[0],
              "answers: the text's line for %s lacks %s" % (w["job"], fig))
        check(not folder or ('<td class="job">%s</td>' % html_escape(w["job"]) in html
                            and fig in html),
              "answers: the report's row for %s" % w["job"])


def html_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def check_report(folder):
    html = open(os.path.join(folder, "index.html"), encoding="utf-8").read()
    pngs = [f for f in os.listdir(folder) if f.endswith(".png")]
    check(len(pngs) >= 4, "report: %d PNG files" % len(pngs))
    for f in pngs:
        with open(os.path.join(folder, f), "rb") as fh:
            check(fh.read(8) == PNG, "report: %s is not a PNG" % f)
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    check(len(embedded) == len(pngs), "report: %d embedded images, %d files"
          % (len(embedded), len(pngs)))
    for data in embedded:
        check(base64.b64decode(data)[:8] == PNG, "report: an embedded image is not a PNG")
    check("South won" in html, "report: no tables")
    for caption in re.findall(r"<figcaption>(.*?) \(also <a", html, flags=re.S):
        check(caption.endswith("."), "report: a caption is cut: ...%s" % caption[-60:])


CONVENTIONS = ["penultimate", "first-final", "lottery"]


def data_blocks(script):
    """The inline data blocks of a gnuplot script, by name: lists of rows of fields."""
    blocks = {}
    for name, body in re.findall(r"^\$(\w+) << EOD\n(.*?)^EOD$", script, flags=re.M | re.S):
        blocks[name] = [line.split() for line in body.splitlines() if line.strip()]
    return blocks


def read_script(folder, name):
    path = os.path.join(folder, name + ".gp")
    return open(path, encoding="utf-8").read() if os.path.exists(path) else None


def printed(text, value):
    """Whether a number of a script, printed with %g (six significant digits), is value."""
    return abs(float(text) - value) <= 1e-6 + 1e-5 * abs(value)


def pair_shown(job):
    return job["pairs"]["advantage"]["value"] is not None


def check_conventions_script(script, doc):
    """A job's point under convention c is drawn where valid: the convention played, or any
    when both agents are convention-blind in self-play; a match of two agents, played only."""
    blocks = data_blocks(script)
    for i, job in enumerate(doc["jobs"]):
        played = CONVENTIONS.index(job["variant"]["final_four"])
        blind = job["agent_a_blind"] and job["agent_b_blind"]
        for c in range(3):
            # Job i's points stand in its column, within 0.2 of i.
            drawn = any(abs(float(r[0]) - i) < 0.25 for r in blocks.get("C%d" % c, []))
            if job["two_agents"]:
                want = c == played and pair_shown(job)
            else:
                want = c == played or blind
            check(drawn == want, "conventions.gp: job %s under %s: drawn %s, want %s"
                  % (job["name"], CONVENTIONS[c], drawn, want))
            # A self-play job's point is its advantage with its unit, re-scored pair by pair.
            unit = job["conventions"][CONVENTIONS[c]]["advantage_unit"]
            for r in blocks.get("C%d" % c, []):
                if drawn and not job["two_agents"] and abs(float(r[0]) - i) < 0.25:
                    check(printed(r[1], 100 * unit["value"]),
                          "conventions.gp: job %s under %s: %s, want %s"
                          % (job["name"], CONVENTIONS[c], r[1], unit["value"]))
            if c == played:
                same = job["pairs"]["advantage"]
                check(all(near(unit[k], same[k]) for k in ("value", "lo", "hi")) and
                      unit["unit"] == same["unit"], "%s: the played convention's "
                      "advantage_unit %s is not pairs.advantage %s" % (job["name"], unit, same))


def job_tics(script):
    """The x tics of a plot with one column per job: (label, position) in column order."""
    line = re.search(r"^set xtics .*? left \((.*)\)$", script, flags=re.M)
    if not line:
        return []
    return [(label.replace("''", "'"), float(at))
            for label, at in re.findall(r"'((?:[^']|'')*)' (-?[\d.e+-]+)", line.group(1))]


def tic_job(label, doc):
    """The job a tic label names: its name, or its name and players ("rr-1-2: a vs b")."""
    for job in doc["jobs"]:
        if label == job["name"] or label.startswith(job["name"] + ": "):
            return job
    return None


def check_tics_centred(script, name):
    """Each job's label stands under the centre of its column's points (column k: the points
    within 0.45 of k), so that no label is nearer another job's points."""
    xs = [float(r[0]) for rows in data_blocks(script).values() for r in rows]
    for k, (label, at) in enumerate(job_tics(script)):
        mine = [x for x in xs if abs(x - k) < 0.45]
        if mine:
            centre = sum(mine) / len(mine)
            check(abs(at - centre) < 1e-6, "%s.gp: the label of %s at %g, its points' centre "
                  "at %g" % (name, label, at, centre))


def check_advantage_script(script, doc):
    """Self-play jobs only (both agents the same spec), a column each in job order: the game
    unit's point where the games are independent; every job with pairs with its own unit, the
    pair's or the opening's, each block titled with its unit. A match of two different agents
    is not drawn."""
    selfplay = [job for job in doc["jobs"] if not job["two_agents"]]
    check((script is not None) == bool(selfplay),
          "advantage.gp: drawn %s, %d self-play jobs" % (script is not None, len(selfplay)))
    if script is None:
        return
    tics = job_tics(script)
    named = [tic_job(label, doc) for label, _ in tics]
    check([j and j["name"] for j in named] == [j["name"] for j in selfplay],
          "advantage.gp: columns %s, self-play jobs %s"
          % ([label for label, _ in tics], [j["name"] for j in selfplay]))
    blocks = data_blocks(script)
    column = lambda r: round(float(r[0]))
    game = {column(r) for r in blocks.get("A0", [])}
    units = {"pair": {column(r): r for r in blocks.get("A1", [])},
             "opening": {column(r): r for r in blocks.get("A2", [])}}
    check(len(blocks.get("A1", [])) + len(blocks.get("A2", [])) ==
          sum(pair_shown(job) for job in selfplay),
          "advantage.gp: a point of a job that is not self-play")
    for k, job in enumerate(selfplay):
        check((k in game) == job["games_independent"],
              "advantage.gp: job %s: game unit drawn %s" % (job["name"], k in game))
        adv = job["pairs"]["advantage"]
        row = units[adv["unit"]].get(k)
        check((row is not None) == pair_shown(job),
              "advantage.gp: job %s: %s unit drawn %s" % (job["name"], adv["unit"], row))
        if row is not None:
            check(printed(row[1], 100 * adv["value"]),
                  "advantage.gp: job %s: %s, want %s" % (job["name"], row, adv["value"]))
    for b, title in (("A1", "'pair unit'"), ("A2", "'opening unit (pairs repeat openings)'")):
        check((title in script) == bool(blocks.get(b)), "advantage.gp: title %s" % title)
    check_tics_centred(script, "advantage")


def check_lengths_range(script, doc):
    """The length plot's x range ends near the longest game of any job (a game stopped at
    max_plies counts at max_plies), not at the histogram's allocated size, and starts near
    the shortest."""
    lo, hi = (float(x) for x in re.search(r"^set xrange \[([\d.e+-]+):([\d.e+-]+)\]$",
                                          script, flags=re.M).groups())
    played = [job["length"] for job in doc["jobs"] if job["length"]["n"]]
    if not played:
        return
    longest = max(length["max"] for length in played)
    shortest = min(length["min"] for length in played)
    check(longest <= hi <= 1.1 * longest + 1, "lengths.gp: x range ends at %g, the longest "
          "game at %g" % (hi, longest))
    check(shortest / 1.1 - 1 <= lo <= max(shortest, 1), "lengths.gp: x range starts at %g, "
          "the shortest game at %g" % (lo, shortest))
    # A narrow range (under a factor of 1000) has a tic at each 1-2-5 value inside it, where
    # two or more are (else gnuplot's own).
    tics = re.search(r"^set xtics \((.*)\)$", script, flags=re.M)
    got = [float(x) for x in tics.group(1).split(",")] if tics else []
    want = sorted(m * 10 ** e for e in range(8) for m in (1, 2, 5) if lo <= m * 10 ** e <= hi)
    if hi / lo >= 1000 or len(want) < 2:
        want = []
    check(got == want, "lengths.gp: x tics %s over [%g, %g], want %s" % (got, lo, hi, want))


def check_styles(script, name):
    """Every element of a plot command (the script's last, or the one given) has a style of
    its own."""
    plot = script if script.startswith("plot ") else plot_lines(script)[-1]
    styles = re.findall(r"lc rgb '(#\w+)' dt (\d+) pt (\d+)", plot)
    check(len(styles) == plot.count(" title "), "%s.gp: %d styles for %d elements"
          % (name, len(styles), plot.count(" title ")))
    check(len(set(styles)) == len(styles), "%s.gp: a style repeats: %s" % (name, styles))


ORDERED = ("holes", "seeds", "capture", "max_plies")    # the numeric parameters


def check_sweep_script(script):
    """One block per series (a panel or a line), none with two values at one place; over a
    category (a convention, a yes/no) points with intervals, never lines."""
    blocks = data_blocks(script)
    axis = re.search(r"^set xlabel '(\w+)'$", script, flags=re.M)
    if "with boxxyerror" not in script and axis:
        joined = re.search(r"with (yerror)?lines|with linespoints", script) is not None
        check(joined == (axis.group(1) in ORDERED), "sweep.gp: over %s, series joined by "
              "lines: %s" % (axis.group(1), joined))
    for name, rows in blocks.items():
        places = [tuple(r[:2]) if name.startswith("H") else r[0] for r in rows]
        check(len(set(places)) == len(places), "sweep.gp: $%s has two values at one place"
              % name)
        check(len(rows) >= 2, "sweep.gp: $%s has %d point(s)" % (name, len(rows)))
    if "with boxxyerror" in script:      # heat maps: one panel per series
        titles = re.findall(r"^set title ", script, flags=re.M)
        check(len(titles) == len(blocks), "sweep.gp: %d panels, %d titles"
              % (len(blocks), len(titles)))


def plot_lines(script):
    return [line for line in script.splitlines() if line.startswith("plot ")]


def check_every_job_drawn(script, name, prefix, doc):
    """Every job has its data block and is drawn in one of the panels, censored ones too."""
    blocks = data_blocks(script)
    drawn = re.findall(r"\$%s(\d+) using" % prefix, "\n".join(plot_lines(script)))
    for i, job in enumerate(doc["jobs"]):
        check("%s%d" % (prefix, i) in blocks and str(i) in drawn,
              "%s.gp: job %s (%d unfinished) is not drawn"
              % (name, job["name"], job["outcomes"]["unfinished"]["count"]))
    for plot in plot_lines(script):
        check_styles(plot, name)
    check(all(len(re.findall(r"\$%s\d+ using" % prefix, p)) <= 12 for p in plot_lines(script)),
          "%s.gp: a panel with more than 12 jobs" % name)


def check_advantage_range(script, name):
    """The y axis of an advantage plot lies within [-105, 105] points per 100 games, holds
    zero, and its data within it; the zero line is drawn."""
    ranges = re.findall(r"^set yrange \[([-\d.e+]+):([-\d.e+]+)\]$", script, flags=re.M)
    check(ranges, "%s.gp: no y range" % name)
    for lo, hi in ranges:
        check(-105 <= float(lo) <= 0 <= float(hi) <= 105,
              "%s.gp: y range [%s:%s] beyond [-105, 105] or without zero" % (name, lo, hi))
    check("set xzeroaxis" in script, "%s.gp: no zero line" % name)
    check("set ylabel 'advantage (points per 100 games)'" in script,
          "%s.gp: the y axis does not say its unit" % name)


def check_sweep_slots(script):
    """Over final_four, every tic of the x axis has a point of some series."""
    tics = re.search(r"^set xtics \((.*)\)$", script, flags=re.M)
    if not tics or "penultimate" not in tics.group(1) and "first-final" not in tics.group(1):
        return
    places = {int(x) for x in re.findall(r"' (\d+)", tics.group(1))}
    points = {round(float(r[0])) for rows in data_blocks(script).values() for r in rows}
    check(places == points, "sweep.gp: x slots %s, points at %s" % (sorted(places),
                                                                   sorted(points)))


def check_heat_cells(script):
    """Every cell of a heat map says what it rests on (n=...)."""
    for name, rows in data_blocks(script).items():
        if name.startswith("H"):
            for r in rows:
                check(len(r) >= 5 and re.match(r'"n=\d+', r[4]) is not None,
                      "sweep.gp: a cell of $%s without its n: %s" % (name, " ".join(r)))


def check_scripts(doc, folder):
    check_conventions_script(read_script(folder, "conventions"), doc)
    check_tics_centred(read_script(folder, "conventions"), "conventions")
    check_advantage_script(read_script(folder, "advantage"), doc)
    check_every_job_drawn(read_script(folder, "lengths"), "lengths", "L", doc)
    check_lengths_range(read_script(folder, "lengths"), doc)
    check_every_job_drawn(read_script(folder, "margins"), "margins", "M", doc)
    for name in ("advantage", "conventions", "skill"):
        script = read_script(folder, name)
        if script:
            check_advantage_range(script, name)
    sweep = read_script(folder, "sweep")
    check((sweep is not None) == bool(doc["between_jobs"] and doc["between_jobs"]["swept"]),
          "sweep.gp: drawn %s, swept %s" % (sweep is not None, doc["between_jobs"]))
    if sweep:
        check_sweep_script(sweep)
        if "with boxxyerror" in sweep:
            check_heat_cells(sweep)
        else:
            check_advantage_range(sweep, "sweep")
            check_sweep_slots(sweep)
            for plot in plot_lines(sweep):
                check_styles(plot, "sweep")
                check(plot.count("$S") <= 8, "sweep.gp: a panel of %d lines" % plot.count("$S"))


def main():
    if sys.argv[1] == "--scripts":
        doc = json.load(open(sys.argv[2], encoding="utf-8"))
        check_scripts(doc, sys.argv[3])
        for f in failures:
            print("FAIL: " + f, file=sys.stderr)
        print("analyze_check: scripts of %d jobs, %d failures" % (len(doc["jobs"]), len(failures)))
        return 1 if failures else 0
    tables = open(sys.argv[1], encoding="utf-8").read()
    doc = json.load(open(sys.argv[2], encoding="utf-8"))
    check(doc["format"] == "anywoli-analysis", "json: format")
    blocks = job_blocks(tables)
    check(sorted(blocks) == sorted(j["name"] for j in doc["jobs"]), "jobs differ")
    for job in doc["jobs"]:
        if job["name"] in blocks:
            check_job(job["name"], blocks[job["name"]], job)
    if len(doc["jobs"]) > 1:
        check(doc["between_jobs"] is not None and "== between jobs" in tables, "between jobs")
    check_report(sys.argv[3])
    check_answers(tables, doc, sys.argv[3])
    if doc.get("skill"):
        check(os.path.exists(os.path.join(sys.argv[3], "skill.png")), "report: no skill.png")
    if len(sys.argv) > 4:
        check_results(sys.argv[4], tables, doc)
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    print("analyze_check: %d jobs, %d failures" % (len(doc["jobs"]), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
