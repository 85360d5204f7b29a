#!/usr/bin/env python3
"""analyze_check.py: check that `anywoli analyze`'s tables and JSON agree, and that a report
holds valid PNG images.

    analyze_check.py TABLES JSON REPORT_DIR

Exit status 0 when every check passes, 1 otherwise (each failure named on stderr)."""
import base64
import json
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
    check(int(adv[0]) == out["finished"], "%s: finished games" % name)
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


def main():
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
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    print("analyze_check: %d jobs, %d failures" % (len(doc["jobs"]), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
