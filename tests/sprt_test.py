#!/usr/bin/env python3
"""sprt_test.py: a run's sequential stop (`sprt`), end to end, against an independent check.

    sprt_test.py PATH/TO/anywoli

A job with a sequential test must keep the first 2(k+1) of its planned games, k the first
pair (in game order, from the 50th pair on) at which the pentanomial GSPRT leaves its bounds;
the same games and the same k for any thread count and batch size (odd batches split pairs),
and after kill -9 and --resume. The LLR is recomputed here from the stored games with its own
code (the normal approximation of the generalised SPRT, zero counts regularised to 0.001). A
test that never decides plays every game. analyze reports the stop with its warning; the
progress JSON lines carry the LLR; bad bounds are one line and exit status 2. Exit status 77
(skipped) without h5py.
"""
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

try:
    import h5py
except ImportError as err:
    print(f"skipped: {err} (Debian: python3-h5py)")
    sys.exit(77)

BIN = os.path.abspath(sys.argv[1])
MIN_PAIRS = 50
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


def run(*args, env=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=env)


def score(e):
    return 1 / (1 + 10 ** (-e / 400))


def llr(counts, elo0, elo1):
    """The pentanomial GSPRT's LLR, normal approximation, zero counts 0.001."""
    c = [x if x else 0.001 for x in counts]
    n = sum(c)
    values = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(ci * v for ci, v in zip(c, values)) / n
    var = sum(ci * (v - mean) ** 2 for ci, v in zip(c, values)) / n
    s0, s1 = score(elo0), score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def a_half(row):
    """A's half-points in a game: 2 a win, 1 a draw or endless game, 0 a loss, None unfinished."""
    outcome, a_south = int(row["outcome"]), int(row["a_south"])
    if outcome == 4:
        return None
    if outcome not in (0, 1):
        return 1
    return 2 if (outcome == 0) == (a_south == 1) else 0


def first_stop(games, elo0, elo1, alpha=0.05, beta=0.05):
    """The first pair at which the test stops the job, or None."""
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    counts = [0] * 5
    for k in range(len(games) // 2):
        a, b = a_half(games[2 * k]), a_half(games[2 * k + 1])
        if a is None or b is None:
            continue
        counts[a + b] += 1
        if sum(counts) >= MIN_PAIRS:
            t = llr(counts, elo0, elo1)
            if t >= upper or t <= lower:
                return k
    return None


def games_of(path, job="main"):
    with h5py.File(path, "r") as f:
        return f[f"jobs/{job}/games"][()], dict(f[f"jobs/{job}"].attrs)


def attr_text(attrs, key):
    v = attrs.get(key)
    return v.decode() if isinstance(v, bytes) else v


tmp = tempfile.mkdtemp()
os.chdir(tmp)

# --- the stop against the independent check, the same for any threads and batch -----------
for name, a, b, bounds, decision in [
        ("h1", "alphabeta:depth=2", "alphabeta:depth=1", (0, 10), "accept_h1"),
        ("h0", "alphabeta:depth=1", "greedy", (0, 10), "accept_h0")]:
    files = []
    for threads, batch in [(1, 7), (2, 64), (2, None)]:
        out = f"{name}-{threads}-{batch}.h5"
        args = ["run", "--agent-a", a, "--agent-b", b, "--games", "2000", "--openings",
                "plies:2", "--seed", "5", "--sprt", f"{bounds[0]},{bounds[1]}", "--threads",
                str(threads), "--quiet", "-o", out]
        if batch:
            args += ["--batch", str(batch)]
        r = run(*args)
        check(r.returncode == 0, f"{name}: run with {threads} threads, batch {batch}")
        files.append(out)
    games, attrs = games_of(files[0])
    for other in files[1:]:
        g2, a2 = games_of(other)
        check((g2 == games).all() if len(g2) == len(games) else False,
              f"{name}: {other} holds the same games as {files[0]}")
        check(a2.get("stop_pair") == attrs.get("stop_pair"), f"{name}: {other}: same stop pair")
    full, _ = games_of(files[0])
    k = first_stop(full, *bounds)
    check(k is not None and attrs.get("stop_pair") == k,
          f"{name}: stops at pair {attrs.get('stop_pair')}, the independent check says {k}")
    check(k is not None and k >= MIN_PAIRS - 1 and len(games) == 2 * (k + 1),
          f"{name}: keeps games 0 .. 2k+1 ({len(games)} games)")
    check(attr_text(attrs, "stopped") == "sprt" and attr_text(attrs, "sprt_decision") == decision,
          f"{name}: the file says it stopped with {decision}")
    check(attrs.get("games") == 2000, f"{name}: the planned games stay 2000")
    # The games kept are those a run without the test plays first.
    plain = f"{name}-plain.h5"
    r = run("run", "--agent-a", a, "--agent-b", b, "--games", str(len(games)), "--openings",
            "plies:2", "--seed", "5", "--quiet", "-o", plain)
    g3, _ = games_of(plain)
    check(r.returncode == 0 and (g3 == games).all(),
          f"{name}: the games kept are the first {len(games)} of the planned ones")

# --- jobs one after another, each stopping on its test: a gauntlet with --sprt -------------
gauntlet = ["run", "--gauntlet", "alphabeta:depth=3", "--gauntlet", "alphabeta:depth=2",
            "--gauntlet", "greedy", "--gauntlet", "alphabeta:depth=1", "--games", "2000",
            "--openings", "plies:2", "--sprt", "0,20", "--quiet"]
files = []
for threads, batch in [(1, 5), (2, 64)]:
    out = f"gauntlet-{threads}.h5"
    r = run(*gauntlet, "--threads", str(threads), "--batch", str(batch), "-o", out)
    check(r.returncode == 0, f"gauntlet with --sprt, {threads} threads: {r.stderr.strip()}")
    files.append(out)
for job in ["gauntlet-1-2", "gauntlet-1-3", "gauntlet-1-4"]:
    g1, a1 = games_of(files[0], job)
    g2, a2 = games_of(files[1], job)
    k = first_stop(g1, 0, 20)
    check(len(g1) == len(g2) and (g1 == g2).all() and a1.get("stop_pair") == k ==
          a2.get("stop_pair") and k is not None,
          f"{job}: stopped at pair {k} with 1 and 2 threads alike")

# --- a test that does not decide plays every game ----------------------------------------
r = run("run", "--agent-a", "alphabeta:depth=1", "--agent-b", "alphabeta:depth=1", "--games",
        "120", "--openings", "plies:2", "--sprt", "-3,3", "--quiet", "-o", "undecided.h5")
games, attrs = games_of("undecided.h5")
check(r.returncode == 0 and len(games) == 120 and "stopped" not in attrs and
      attr_text(attrs, "sprt_decision") == "continue",
      "an undecided test plays all 120 games and says continue")
check("no decision after all 120 games" in r.stdout, "the summary says no decision")

# --- kill -9, then --resume: the same stop and games ---------------------------------------
slow = ["run", "--agent-a", "alphabeta:depth=4", "--agent-b", "alphabeta:depth=3", "--games",
        "4000", "--openings", "plies:2", "--sprt", "0,15", "--batch", "6", "--threads", "2",
        "--quiet"]
r = run(*slow, "-o", "whole.h5")
whole, whole_attrs = games_of("whole.h5")
check(r.returncode == 0 and "stop_pair" in whole_attrs, "the slow job stops uninterrupted")
p = subprocess.Popen([BIN, *slow, "-o", "killed.h5"], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
deadline = time.time() + 60
while time.time() < deadline and p.poll() is None:
    if os.path.exists("killed.h5.journal") and os.path.getsize("killed.h5.journal") > 2000:
        break
    time.sleep(0.01)
killed = p.poll() is None
if killed:
    p.send_signal(signal.SIGKILL)
p.wait()
check(killed, "the slow job was killed part-way")
r = run(*slow, "-o", "killed.h5", "--resume")
games, attrs = games_of("killed.h5")
check(r.returncode == 0 and len(games) == len(whole) and (games == whole).all() and
      attrs.get("stop_pair") == whole_attrs.get("stop_pair"),
      "kill -9 and --resume: the same games and stop pair")

# --- analyze reports the stop and warns --------------------------------------------------
r = run("analyze", "h1-1-7.h5")
check(r.returncode == 0 and "it stopped the job after" in r.stdout and
      "are not corrected" in r.stdout, "analyze reports the stop and its bias")
r = run("analyze", "--json", "h1-1-7.h5")
seq = json.loads(r.stdout)["jobs"][0]["sequential_test"]
_, attrs = games_of("h1-1-7.h5")
check(seq["stopped"] and seq["stop_pair"] == attrs["stop_pair"] and
      seq["decision"] == "accept_h1" and seq["estimates_corrected"] is False,
      "analyze --json: sequential_test")
r = run("analyze", "--json", "undecided.h5")
seq = json.loads(r.stdout)["jobs"][0]["sequential_test"]
check(not seq["stopped"] and seq["stop_pair"] is None and seq["decision"] == "continue",
      "analyze --json: an undecided test")

# --- live figures as JSON lines ------------------------------------------------------------
env = dict(os.environ, ANYWOLI_PROGRESS_SECONDS="0.05")
r = run(*[x for x in slow if x != "--quiet"], "-o", "live.h5", "--progress", "json", env=env)
lines = [json.loads(x) for x in r.stderr.splitlines() if x.startswith("{")]
check(r.returncode == 0 and len(lines) >= 1, f"--progress json: {len(lines)} JSON lines")
late = [x for x in lines if x["record"] == "progress" and x["figure"]]
check(bool(late) and late[-1]["figure"]["name"] == "score" and
      late[-1]["sprt"]["upper"] > 2.9 and "llr" in late[-1]["sprt"],
      "--progress json: the score and the LLR with its bounds")

# --- a job its test stopped has decided: --extend refuses it, and another test's bounds ---
before = open("h1-1-7.h5", "rb").read()
r = run("run", "--agent-a", "alphabeta:depth=2", "--agent-b", "alphabeta:depth=1", "--games",
        "4000", "--openings", "plies:2", "--seed", "5", "--sprt", "0,10", "--threads", "1",
        "--quiet", "-o", "h1-1-7.h5", "--extend")
check(r.returncode == 2 and "stopped on its sequential test" in r.stderr and
      open("h1-1-7.h5", "rb").read() == before, "--extend of a stopped job: refused, file kept")
r = run("run", "--agent-a", "alphabeta:depth=1", "--agent-b", "alphabeta:depth=1", "--games",
        "240", "--openings", "plies:2", "--sprt", "-2,2", "--quiet", "-o", "undecided.h5",
        "--extend")
check(r.returncode == 2 and "sprt" in r.stderr, "--extend with other bounds: refused")
r = run("run", "--agent-a", "alphabeta:depth=1", "--agent-b", "alphabeta:depth=1", "--games",
        "240", "--openings", "plies:2", "--sprt", "-3,3", "--quiet", "-o", "grown.h5")
r2 = run("run", "--agent-a", "alphabeta:depth=1", "--agent-b", "alphabeta:depth=1", "--games",
         "240", "--openings", "plies:2", "--sprt", "-3,3", "--quiet", "-o", "undecided.h5",
         "--extend")
g1, a1 = games_of("grown.h5")
g2, a2 = games_of("undecided.h5")
check(r.returncode == 0 and r2.returncode == 0 and len(g1) == len(g2) and (g1 == g2).all() and
      a1.get("stop_pair") == a2.get("stop_pair") and a1.get("sprt_llr") == a2.get("sprt_llr"),
      "an undecided job extended equals the larger run, its test continued")

# Pairs that repeat openings (all:1, cycled): the opening is the unit, as analyze has it.
r = run("run", "--agent-a", "alphabeta:depth=4", "--agent-b", "alphabeta:depth=3", "--games",
        "600", "--openings", "all:1", "--batch", "6", "--threads", "2", "-o", "book.h5",
        "--progress", "json", env=env)
lines = [json.loads(x) for x in r.stderr.splitlines() if x.startswith("{")]
late = [x for x in lines
        if x["record"] == "progress" and x["figure"] and x["figure"]["pairs"] > 40]
check(r.returncode == 0 and bool(late) and late[-1]["figure"]["unit"] == "opening" and
      late[-1]["figure"]["units"] < late[-1]["figure"]["pairs"],
      "--progress json: the opening as unit where pairs repeat openings")
r = run("analyze", "--json", "book.h5")
job = json.loads(r.stdout)["jobs"][0]
check(r.returncode == 0 and job["pairs"]["score"]["unit"] == "opening" and
      job["pairs"]["score"]["units"] == late[-1]["figure"]["units"],
      "analyze too takes the opening as unit there, over as many openings")

# --- bad bounds: one line, exit 2 ----------------------------------------------------------
for bad in ["10,0", "0,5,0.7,0.05", "0", "nan,5"]:
    r = run("run", "--sprt", bad, "--games", "10", "-o", "bad.h5")
    check(r.returncode == 2 and r.stderr.count("\n") == 1 and "--sprt:" in r.stderr and
          not os.path.exists("bad.h5"), f"--sprt {bad}: one line, exit 2")
with open("bad.cfg", "w") as f:
    f.write('seed = 1;\noutput = "bad.h5";\njobs = ({ name = "x"; games = 10;\n  sprt = "5,1"; });\n')
r = run("run", "bad.cfg")
check(r.returncode == 2 and "bad.cfg:4: sprt:" in r.stderr, "a config's bad sprt: FILE:LINE")

print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
