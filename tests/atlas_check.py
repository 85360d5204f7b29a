"""atlas_check.py: `anywoli analyze`'s variant atlas against a recomputation from the results
file (tests/analyze_atlas_test.sh).

    atlas_check.py FILE.h5 TABLES.txt DOC.json [REPORT_DIR GNUPLOT_LOG]
    atlas_check.py --none TABLES.txt DOC.json

From the file, read with h5py: the self-play jobs grouped by agent spec, openings and every
variant parameter but holes, seeds and final_four, a group over two boards or more an atlas;
each cell's answer (South's advantage in points per 100 games with its 95% interval, over
games by Tango's interval where the job's games are independent, else over pairs,
stats_reference.py); the exact value of the start from docs/commands.md's "Small variants
solved" (hard-coded below, for the jobs from the start or a root design); each verdict and
the counts of the check. Then that the JSON's `atlas` holds exactly those, that its fairest cells are the
first 10 by the documented ranking, that the text's grids, fairest lists and counts say the
same, and, with a report, that each heat map is a PNG the page names and whose gnuplot data
holds the cells' values. With --none: that a file without an atlas has none in its text and
JSON.
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyze_check as ac          # noqa: E402  (read_jobs, recompute_pairs)
import stats_reference as ref       # noqa: E402

failures = []
CONVENTIONS = ["penultimate", "first-final", "lottery"]
PNG = b"\x89PNG\r\n\x1a\n"

# South's exact margin from the start (docs/commands.md, "Small variants solved"):
# (holes, seeds) -> (penultimate, first-final, lottery).
EXACT = {
    (3, 1): (0, 0, 0), (3, 2): (-4, -4, 0), (3, 3): (6, 10, 8),
    (4, 1): (8, 8, 4), (4, 2): (0, -8, -4), (4, 3): (8, 8, 4),
    (5, 1): (4, 4, 4), (5, 2): (12, 12, 8), (5, 3): (6, 6, 4),
}
REST = ("capture", "extra_turn", "skip_origin", "max_plies")


def check(ok, what):
    if not ok:
        failures.append(what)


def near(got, want, tol=1e-6):
    return got is not None and abs(got - want) <= tol * max(1.0, abs(want))


def answer(job, detail):
    """A self-play job's answer from its games, in points per 100 games: over games (Tango)
    where they are independent (from the start, 95% distinct, not following few lines),
    else over its pairs (or openings). A root design's (all:N) is its best line, held out,
    or the adaptive race's: taken from the JSON's detail of the job (detail), which
    root_check.py recomputes from the file in analyze_cli."""
    a = job["attrs"]
    if a["openings"].startswith("all:"):
        r = detail["root_design"] or detail["root"]["held_out"]["advantage"]
        return 100 * r["value"], 100 * r["lo"], 100 * r["hi"]
    few = job["lines"] is not None and job["lines"]["few"]
    if a["openings"] == "start" and not few and job["distinct"] >= 0.95 * job["games"]:
        south, north, draw = job["outcomes"][:3]
        v, lo, hi = ref.tango(south, north, south + north + draw, 0.95)
    else:
        r = ac.recompute_pairs(job)
        v, lo, hi = r["adv"], r["adv_lo"], r["adv_hi"]
    return 100 * v, 100 * lo, 100 * hi


def sign(lo, hi):
    return 1 if lo > 0 else -1 if hi < 0 else 0


def verdict(lo, hi, exact):
    s, want = sign(lo, hi), (exact > 0) - (exact < 0)
    return "agrees" if s == want else "undecided" if s == 0 else "contradicts"


def expected_atlases(path, doc):
    """The atlases of the file: a dict per atlas with its rung, axes and cells."""
    jobs = ac.read_jobs(path)
    detail = {j["name"]: j for j in doc["jobs"]}
    groups = {}
    for job in jobs:
        a = job["attrs"]
        if a["agent_a"] != a["agent_b"]:
            continue
        key = (a["agent_a"], a["openings"], a.get("openings_order", "")) + \
            tuple(int(a[k]) for k in REST)
        groups.setdefault(key, []).append(job)
    atlases = []
    for key, members in groups.items():
        boards = {(int(j["attrs"]["holes"]), int(j["attrs"]["seeds"])) for j in members}
        if len(boards) < 2:
            continue
        cells = {}
        for job in members:
            a = job["attrs"]
            c = (a["final_four"], int(a["holes"]), int(a["seeds"]))
            if c in cells:
                continue
            v, lo, hi = answer(job, detail[job["name"]])
            exact = None
            if (a["openings"] == "start" or a["openings"].startswith("all:")) and (c[1], c[2]) in EXACT:
                exact = EXACT[(c[1], c[2])][CONVENTIONS.index(c[0])]
            cells[c] = {"job": job["name"], "value": v, "lo": lo, "hi": hi, "exact": exact,
                        "verdict": None if exact is None else verdict(lo, hi, exact)}
        atlases.append({"rung": key[0], "openings": key[1],
                        "holes": sorted({b[0] for b in boards}),
                        "seeds": sorted({b[1] for b in boards}),
                        "conventions": [c for c in CONVENTIONS
                                        if any(k[0] == c for k in cells)],
                        "cells": cells, "first": int(members[0]["attrs"]["index"])})
    atlases.sort(key=lambda t: t["first"])
    for t in atlases:
        t["ratings"] = expected_ratings(jobs, t)
    return atlases


def expected_ratings(jobs, t):
    """The rung's rating in each cell of atlas t (convention, holes, then seeds): the first
    match on its board under its convention with the rung as agent A, under the same rules
    of play (the ply cap aside)."""
    rung = next(j for j in jobs if int(j["attrs"]["index"]) == t["first"])["attrs"]
    ratings = []
    for c in t["conventions"]:
        for h in t["holes"]:
            for s in t["seeds"]:
                for job in jobs:
                    a = job["attrs"]
                    if a["agent_a"] != a["agent_b"] and a["agent_a"] == t["rung"] and \
                            (a["final_four"], int(a["holes"]), int(a["seeds"])) == (c, h, s) and \
                            all(int(a[k]) == int(rung[k]) for k in REST if k != "max_plies"):
                        ratings.append((c, h, s, job["name"]))
                        break
    return ratings


def fairness_key(cell, order):
    a = cell["answer"]
    return (sign(a["lo"], a["hi"]) != 0, max(abs(a["lo"]), abs(a["hi"])), abs(a["value"]),
            order)


def check_json(doc, want):
    got = doc.get("atlas")
    check(got is not None and len(got) == len(want), "json: %s atlases, recomputed %d"
          % (None if got is None else len(got), len(want)))
    for g, w in zip(got or [], want):
        where = "atlas %s" % w["rung"]
        check(g["rung"] == w["rung"] and g["openings"] == w["openings"], where + ": rung")
        check(g["holes"] == w["holes"] and g["seeds"] == w["seeds"], where + ": axes %s %s"
              % (g["holes"], g["seeds"]))
        check([c["convention"] for c in g["conventions"]] == w["conventions"],
              where + ": conventions")
        every = []
        for grid in g["conventions"]:
            conv = grid["convention"]
            counts = {"exact": 0, "agrees": 0, "undecided": 0, "contradicts": 0}
            want_cells = sorted((k for k in w["cells"] if k[0] == conv), key=lambda k: k[1:])
            check([(conv, c["holes"], c["seeds"]) for c in grid["cells"]] == want_cells,
                  where + ": %s's cells" % conv)
            for c in grid["cells"]:
                r = w["cells"].get((conv, c["holes"], c["seeds"]))
                if r is None:
                    continue
                every.append(c)
                cw = "%s %s %dx%d" % (where, conv, c["holes"], c["seeds"])
                check(c["job"] == r["job"], cw + ": job %s, recomputed %s" % (c["job"], r["job"]))
                for k in ("value", "lo", "hi"):
                    check(near(c["answer"][k], r[k]), cw + ": %s %s, recomputed %s"
                          % (k, c["answer"][k], r[k]))
                check(c["exact"] == r["exact"], cw + ": exact %s, recomputed %s"
                      % (c["exact"], r["exact"]))
                check(c["verdict"] == r["verdict"], cw + ": verdict %s, recomputed %s"
                      % (c["verdict"], r["verdict"]))
                check(c["agrees"] == (None if r["verdict"] is None else r["verdict"] == "agrees"),
                      cw + ": agrees")
                if r["verdict"]:
                    counts["exact"] += 1
                    counts[r["verdict"]] += 1
            check(grid["check"] == counts, where + ": %s's check %s, recomputed %s"
                  % (conv, grid["check"], counts))
        # The ratings: each cell's first match of the rung, its answer (A's Elo).
        answers = {x["job"]: x for x in doc["answers"]}
        got_r = g.get("ratings", [])
        got_cells = [(r["convention"], r["holes"], r["seeds"], r["job"]) for r in got_r]
        check(got_cells == w["ratings"],
              where + ": ratings %s, expected %s" % (got_cells, w["ratings"]))
        for r in got_r:
            x = answers.get(r["job"])
            check(x is not None and all(near(r["elo"][k], x[k]) for k in ("value", "lo", "hi")),
                  where + ": rating of %s %s, its answer %s" % (r["job"], r["elo"], x))
        # The fairest: the first 10 of every cell by the documented ranking, ties in the
        # atlas's order (convention, holes, seeds).
        ranked = sorted(range(len(every)), key=lambda i: fairness_key(every[i], i))[:10]
        check([c["job"] for c in g["fairest"]] == [every[i]["job"] for i in ranked],
              where + ": fairest %s, expected %s" % ([c["job"] for c in g["fairest"]],
                                                     [every[i]["job"] for i in ranked]))


def text_atlases(tables):
    """The text's atlas blocks, each its lines."""
    section = tables.split("\nVariant atlas (", 1)
    check(len(section) == 2, "text: no variant atlas")
    if len(section) < 2:
        return []
    body = section[1].split("\n== job ", 1)[0]
    return [b.splitlines() for b in re.split(r"\natlas \d+: ", body)[1:]]


def compact(c):
    a = c["answer"]
    e = "" if c["exact"] is None else " =0" if c["exact"] == 0 else " =%+d" % c["exact"]
    mark = {"contradicts": " !", "undecided": " ?"}.get(c["verdict"], "")
    return "%+.0f [%+.0f,%+.0f]%s%s" % (a["value"], a["lo"], a["hi"], e, mark)


def check_text(tables, doc):
    blocks = text_atlases(tables)
    check(len(blocks) == len(doc.get("atlas", [])), "text: %d atlases" % len(blocks))
    for lines, g in zip(blocks, doc.get("atlas", [])):
        where = "text atlas %s" % g["rung"]
        check(lines[0].startswith(g["rung_label"] + "; openings " + g["openings"] + "; "),
              where + ": heading %r" % lines[0])
        for grid in g["conventions"]:
            head = [i for i, l in enumerate(lines) if l.startswith("  %-12s  seeds" %
                                                                    grid["convention"])]
            check(len(head) == 1, where + ": no grid for " + grid["convention"])
            if not head:
                continue
            rows = lines[head[0] + 1:head[0] + 1 + len(g["holes"])]
            for c in grid["cells"]:
                row = [r for r in rows if r.startswith("  holes %-6d" % c["holes"])]
                cells = re.split(r"\s{2,}", row[0].strip()) if row else []
                col = g["seeds"].index(c["seeds"]) + 1
                check(len(cells) > col and cells[col] == compact(c), where + ": %s %dx%d is %r, "
                      "expected %r" % (grid["convention"], c["holes"], c["seeds"],
                                       cells[col] if len(cells) > col else None, compact(c)))
            x = grid["check"]
            if x["exact"]:
                want = "    %-12s %d with an exact value: %d agree, %d undecided, %d contradict" \
                    % (grid["convention"], x["exact"], x["agrees"], x["undecided"],
                       x["contradicts"])
                check(want in lines, where + ": no line %r" % want)
        start = [i for i, l in enumerate(lines) if l.startswith("  fairest variants")]
        check(len(start) == 1, where + ": no fairest list")
        fair = lines[start[0] + 1:start[0] + 1 + len(g["fairest"])] if start else []
        for r, (line, c) in enumerate(zip(fair, g["fairest"])):
            check(line.startswith("    %2d  holes %d, seeds %d, %s " % (r + 1, c["holes"],
                                                                        c["seeds"],
                                                                        c["convention"]))
                  and line.endswith(" job " + c["job"]), where + ": fairest line %r" % line)
        missed = [c for grid in g["conventions"] for c in grid["cells"]
                  if c["verdict"] in ("undecided", "contradicts")]
        listed = [l for l in lines if l.startswith("      holes ")]
        check(len(listed) == len(missed) and all(l.endswith(" job " + c["job"]) and c["verdict"]
                                                 in l for l, c in zip(listed, missed)),
              where + ": the cells that do not agree: %s" % listed)


def check_report(folder, log, doc):
    html = open(os.path.join(folder, "index.html"), encoding="utf-8").read()
    script = open(log, encoding="utf-8").read()
    check("<h2>Variant atlas</h2>" in html, "report: no atlas section")
    for n, g in enumerate(doc.get("atlas", [])):
        for grid in g["conventions"]:
            name = "atlas_%d_%s" % (n + 1, grid["convention"])
            path = os.path.join(folder, name + ".png")
            check(os.path.exists(path) and open(path, "rb").read(8) == PNG,
                  "report: %s.png is not there or not a PNG" % name)
            check('href="%s.png"' % name in html, "report: the page does not name %s.png" % name)
            # the map's data: each cell's value where gnuplot drew it (x seeds, y holes)
            m = re.search(r"set output '[^']*/%s\.png'\n(.*?)\nplot " % re.escape(name), script,
                          flags=re.S)
            check(m is not None, "report: no gnuplot script for %s" % name)
            if not m:
                continue
            rows = re.search(r"^\$C << EOD\n(.*?)^EOD$", m.group(1), flags=re.M | re.S)
            drawn = {(int(r.split()[1]), int(r.split()[0])): float(r.split()[2])
                     for r in rows.group(1).splitlines()} if rows else {}
            for c in grid["cells"]:
                v = drawn.get((c["holes"], c["seeds"]))
                check(v is not None and abs(v - c["answer"]["value"]) <= 1e-4 *
                      max(1, abs(v)), "report: %s draws %dx%d as %s" % (name, c["holes"],
                                                                       c["seeds"], v))
            exact = re.search(r"^\$E << EOD\n(.*?)^EOD$", m.group(1), flags=re.M | re.S)
            bordered = {tuple(int(x) for x in r.split()[::-1])
                        for r in (exact.group(1).splitlines() if exact else [])}
            check(bordered == {(c["holes"], c["seeds"]) for c in grid["cells"]
                               if c["exact"] is not None},
                  "report: %s borders %s" % (name, sorted(bordered)))
    for caption in re.findall(r"<figcaption>(Atlas .*?) \(also <a", html, flags=re.S):
        check("95% interval" in caption and "exact" in caption, "report: caption %r" % caption)


def main():
    if sys.argv[1] == "--none":
        tables = open(sys.argv[2], encoding="utf-8").read()
        doc = json.load(open(sys.argv[3], encoding="utf-8"))
        check("atlas" not in doc, "json: an atlas where there is none")
        check("Variant atlas" not in tables, "text: an atlas where there is none")
    else:
        tables = open(sys.argv[2], encoding="utf-8").read()
        doc = json.load(open(sys.argv[3], encoding="utf-8"))
        want = expected_atlases(sys.argv[1], doc)
        check(len(want) >= 2, "the test's file has %d atlases, not 2 or more" % len(want))
        check_json(doc, want)
        check_text(tables, doc)
        verdicts = {c["verdict"] for g in doc.get("atlas", []) for grid in g["conventions"]
                    for c in grid["cells"]}
        check({"agrees", "contradicts", None} <= verdicts,
              "the test's file lacks a kind of cell: %s" % verdicts)
        if len(sys.argv) > 5:
            check_report(sys.argv[4], sys.argv[5], doc)
    failures.extend(ac.failures)     # what analyze_check's reader found wrong in the file
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    print("atlas_check: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
