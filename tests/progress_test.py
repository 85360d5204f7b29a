#!/usr/bin/env python3
"""progress_test.py: `anywoli run --progress json`, end to end.

    progress_test.py PATH/TO/anywoli DOCS_DIR

Every stderr line of a run with --progress json is a JSON object whose keys are exactly those
docs/commands.md's table lists for its record; the first record is the start, the last the
end, whose games equal the games played (a run of 1,000 games, shorter than one interval,
used to write nothing at all, and a longer one ended on a figure short of its last games);
progress records come in between at the interval; a run its SPRT stops ends "stopped_early"
naming the job; a run stopped by SIGTERM ends "interrupted" with the signal; and the file is
the same with and without the records.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
DOCS = os.path.abspath(sys.argv[2])
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


def documented_keys():
    """{record: set of keys} from the table of docs/commands.md's section on the records."""
    text = open(os.path.join(DOCS, "commands.md")).read()
    section = text.split("### Progress as JSON lines", 1)[1].split("\n### ", 1)[0]
    keys = {"start": set(), "progress": set(), "end": set()}
    for key, records in re.findall(r"^\| `(\w+)` \| ([a-z, ]+) \|", section, re.M):
        for r in records.split(", "):
            keys[r].add(key)
    return keys


def run(*args, env=None):
    return subprocess.run([BIN, "run", *args], capture_output=True, text=True, env=env)


def records(stderr, what):
    """The stderr lines as JSON objects; a line that is not one is a failure."""
    out = []
    for line in stderr.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            check(False, f"{what}: not a JSON line: {line!r}")
    return out


def check_keys(recs, keys, what):
    bad = [r for r in recs if r.get("record") not in keys or set(r) != keys[r["record"]]]
    check(not bad, f"{what}: every record has the documented keys of its kind"
          + (f" (first bad: {bad[0]}, documented {keys.get(bad[0].get('record'))})" if bad
             else ""))


def check_frame(recs, games, outcome, what):
    check(len(recs) >= 2 and recs[0]["record"] == "start" and recs[-1]["record"] == "end" and
          all(r["record"] == "progress" for r in recs[1:-1]),
          f"{what}: a start record first, an end record last, progress records between")
    end = recs[-1] if recs else {}
    check(end.get("games") == games and end.get("outcome") == outcome and
          sum(j["games"] for j in end.get("jobs", [])) == games,
          f"{what}: the end record says {outcome}, {games} games (it says "
          f"{end.get('outcome')}, {end.get('games')})")


keys = documented_keys()
check(all(keys.values()) and "outcome" in keys["end"] and "figure" in keys["progress"],
      f"docs/commands.md documents the keys of each record: {keys}")
work = tempfile.TemporaryDirectory(prefix="anywoli-progress-")
os.chdir(work.name)

# A short run (well under one interval): a start and an end record, the end with its games.
r = run("--games", "1000", "-o", "short.h5", "--progress", "json")
recs = records(r.stderr, "1,000 games")
check(r.returncode == 0, f"1,000 games: exit status {r.returncode}")
check_frame(recs, 1000, "complete", "1,000 games")
check_keys(recs, keys, "1,000 games")
check(bool(recs) and recs[0].get("planned") == 1000 and recs[0].get("in_file") == 0 and
      recs[-1].get("planned") == 1000 and recs[-1].get("played") == 1000 and
      recs[-1]["signal"] is None and recs[-1]["error"] is None and
      recs[-1]["jobs"][0]["stopped_by"] is None, "1,000 games: the start and end figures")

# A longer run, at a short interval: progress records between, each with its elapsed time,
# and the end record counts every game, not the last progress record's.
env = dict(os.environ, ANYWOLI_PROGRESS_SECONDS="0.05")
r = run("--agent-a", "alphabeta:depth=2", "--agent-b", "greedy", "--games", "2000",
        "--threads", "1", "--batch", "20", "-o", "long.h5", "--progress", "json", env=env)
recs = records(r.stderr, "2,000 games")
check(r.returncode == 0, f"2,000 games: exit status {r.returncode}")
check_frame(recs, 2000, "complete", "2,000 games")
check_keys(recs, keys, "2,000 games")
progress = [x for x in recs if x["record"] == "progress"]
check(len(progress) >= 2 and all(0 < x["games"] <= 2000 for x in progress) and
      [x["elapsed_s"] for x in recs] == sorted(x["elapsed_s"] for x in recs),
      f"2,000 games: {len(progress)} progress records, elapsed_s in order")

# The records are display only: the same file with and without them.
r2 = run("--agent-a", "alphabeta:depth=2", "--agent-b", "greedy", "--games", "2000",
         "--threads", "1", "--batch", "20", "-o", "quiet.h5", "--quiet")
e1 = subprocess.run([BIN, "export", "long.h5"], capture_output=True, text=True).stdout
e2 = subprocess.run([BIN, "export", "quiet.h5"], capture_output=True, text=True).stdout
check(r2.returncode == 0 and e1 and e1 == e2, "the same games with and without the records")

# A job its sequential test stops: the end record says so, with the games kept.
r = run("--agent-a", "alphabeta:depth=2", "--agent-b", "random", "--games", "4000",
        "--openings", "plies:2", "--seed", "5", "--sprt", "0,100", "-o", "sprt.h5",
        "--progress", "json")
recs = records(r.stderr, "sprt")
kept = recs[-1].get("games") if recs else None
check(r.returncode == 0 and isinstance(kept, int) and 0 < kept < 4000,
      f"sprt: stopped before its 4000 games ({kept})")
check_frame(recs, kept, "stopped_early", "sprt")
check_keys(recs, keys, "sprt")
check(recs and recs[-1]["jobs"] == [{"job": "main", "games": kept, "planned": 4000,
                                     "stopped_by": "sprt"}],
      f"sprt: the end record names the job its test stopped: {recs[-1] if recs else None}")

# SIGTERM: the end record says interrupted, by signal 15, with the games kept.
p = subprocess.Popen([BIN, "run", "--agent-a", "alphabeta:depth=3", "--agent-b", "greedy",
                      "--games", "1000000", "--threads", "1", "-o", "term.h5", "--progress",
                      "json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
first = p.stderr.readline()
time.sleep(0.5)
p.send_signal(signal.SIGTERM)
rest = p.stderr.read()
p.wait(timeout=60)
recs = records(first + rest.split("\nanywoli run:")[0], "SIGTERM")
end = recs[-1] if recs else {}
check(p.returncode == 128 + 15 and end.get("record") == "end" and
      end.get("outcome") == "interrupted" and end.get("signal") == 15 and
      0 <= end.get("games", -1) < 1000000,
      f"SIGTERM: the end record says interrupted by signal 15 (exit {p.returncode}, {end})")
check_keys(recs, keys, "SIGTERM")

os.chdir("/")
work.cleanup()
print(f"progress_test: {failures} failed")
sys.exit(1 if failures else 0)
