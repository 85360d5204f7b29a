#!/usr/bin/env python3
"""root_design_test.py: the adaptive root design (`root_design`), end to end.

    root_design_test.py PATH/TO/anywoli

On small boards that `anywoli solve` settles exactly, the design (alpha-beta at depth 8,
diverse as configs/strong-play-root.cfg plays it) ends in a first move whose exact result is
the best one's (a win where South wins: on 4x3 the one winning move among three draws), and
its root's interval has the exact value's sign. The schedule is checked from the stored games
with its own code: round 0 plays line p mod K for pair p; each round's pairs play its lines in
ascending order, over and over, its lines a subset of the round before's, as many pairs as
its lines times ROUND_PAIRS (but a last round cut by the budget); a stopped job ends at its
last round's last pair. The same games, rounds and stop for 1 and 2 threads and any batch
size, and after kill -9 and --resume; analyze's text and JSON report it; bad uses are one
line and exit status 2. Exit status 77 (skipped) without h5py.
"""
import json
import os
import re
import shutil
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
AB8 = "alphabeta:depth=8,weights=plain,margin=1,choice_moves=20"
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True)


def job_of(path, job="race"):
    with h5py.File(path, "r") as f:
        g = f["jobs"][job]
        return g["games"][...], {k: g.attrs[k] for k in g.attrs}


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def config(path, out, board, openings, rule, games, agent=AB8, seed=5):
    with open(path, "w") as f:
        f.write(f'seed = {seed}L;\noutput = "{out}";\njobs = ( {{ name = "race"; {board} '
                f'max_plies = 300; agent_a = "{agent}"; agent_b = "{agent}"; '
                f'openings = "{openings}"; root_design = "{rule}"; games = {games}L; }} );\n')


def schedule_faults(games, attrs, nlines):
    """What in the stored games and rounds breaks the schedule's rule (empty: nothing)."""
    rp = int(text(attrs["root_design"]).split(",")[0])
    firsts, counts = list(attrs["root_round_first"]), list(attrs["root_round_lines"])
    pairs = len(games) // 2
    opening = [int(games[2 * p]["opening"]) for p in range(pairs)]
    faults = []
    if any(int(games[2 * p + 1]["opening"]) != opening[p] for p in range(pairs)):
        faults.append("a pair's games start from different lines")
    before = set(range(nlines))
    for r, (first, n) in enumerate(zip(firsts, counts)):
        end = firsts[r + 1] if r + 1 < len(firsts) else pairs
        if r + 1 < len(firsts) and end - first != n * rp:
            faults.append(f"round {r}: {end - first} pairs, not {n} lines x {rp}")
        lines = opening[first:first + n]
        if lines != sorted(set(lines)) or not set(lines) <= before:
            faults.append(f"round {r}: its lines {lines} are not ascending within the last")
        if any(opening[p] != lines[(p - first) % n] for p in range(first, end)):
            faults.append(f"round {r}: a pair off its lines' cycle")
        if r == 0 and lines != list(range(nlines)):
            faults.append("round 0 does not play every line in order")
        before = set(lines)
    if "stop_pair" in attrs and attrs["stop_pair"] != firsts[-1] + counts[-1] * rp - 1:
        faults.append("the stop is not at its last round's last pair")
    return faults


def exact_moves(*variant):
    """South's first moves with their exact values (solve --start), by hole index from 0 (the
    text names them S1, S2, ...)."""
    r = run("solve", *variant, "--start")
    return {int(m) - 1: int(v) for m, v in re.findall(r"^move S(\d+) (-?\d+)", r.stdout, re.M)}


os.chdir(tempfile.mkdtemp(prefix="anywoli-root-design-"))

# --- exact small boards: the design ends in a best first move, with the value's sign ------
boards = [("3x3 penultimate, all:2", "holes = 3; seeds = 3; final_four = \"penultimate\";",
           ["--holes", "3", "--seeds", "3", "--final-four", "penultimate"], "all:2"),
          ("4x2 first-final, all:1", "holes = 4; seeds = 2; final_four = \"first-final\";",
           ["--holes", "4", "--seeds", "2", "--final-four", "first-final"], "all:1"),
          ("4x3 penultimate, all:1", "holes = 4; seeds = 3; final_four = \"penultimate\";",
           ["--holes", "4", "--seeds", "3", "--final-four", "penultimate"], "all:1")]
for name, board, variant, openings in boards:
    exact = exact_moves(*variant)
    best = max(exact.values())
    config("b.cfg", "b.h5", board, openings, "4,10", 2000)
    r = run("run", "b.cfg", "--quiet", "--force", "--threads", "2")
    j = json.loads(run("analyze", "--json", "b.h5").stdout)["jobs"][0]["root_design"]
    line = j["lines"][j["best_line"]] if j["best_line"] is not None else None
    # The games score wins, not margins: a best first move is one whose exact result (win,
    # draw or loss) is the best's.
    sgn = lambda v: (v > 0) - (v < 0)
    check(r.returncode == 0 and line is not None and
          sgn(exact.get(line["moves"][0], -999)) == sgn(best),
          f"{name}: best line {line and line['moves']}, exact values {exact} (best {best})")
    sign = (j["lo"] > 0) - (j["hi"] < 0)
    check(sign == (best > 0) - (best < 0),
          f"{name}: the root's interval [{j['lo']:.3f}, {j['hi']:.3f}] has the exact "
          f"value's sign ({best:+d}); stopped: {j['stopped']}")
    games, attrs = job_of("b.h5")
    faults = schedule_faults(games, attrs, len(j["lines"]))
    check(not faults, f"{name}: the schedule's rule holds {faults}")

# --- the same games, rounds and stop for any threads and batch; the stop where it says ----
AB3 = "alphabeta:depth=3,weights=plain,margin=1,choice_moves=20"
files = []
for threads, batch in [(1, 5), (2, 64), (2, 0)]:
    out = f"t{threads}-{batch}.h5"
    config("t.cfg", out, "", "all:1", "4,25", 3000, agent=AB3, seed=3)
    r = run("run", "t.cfg", "--quiet", "--threads", str(threads),
            *(["--batch", str(batch)] if batch else []))
    check(r.returncode == 0, f"{threads} threads, batch {batch or 'adaptive'}: {r.stderr.strip()}")
    files.append(out)
g0, a0 = job_of(files[0])
for other in files[1:]:
    g, a = job_of(other)
    check(len(g) == len(g0) and (g == g0).all() and
          list(a["root_round_first"]) == list(a0["root_round_first"]) and
          a.get("stop_pair") == a0.get("stop_pair"), f"{other}: the same games, rounds, stop")
check(text(a0.get("stopped", "")) == "root_halfwidth" and len(g0) < 3000,
      f"the half-width stops the job early ({len(g0)} of 3000 games, stop pair "
      f"{a0.get('stop_pair')})")
check(not schedule_faults(g0, a0, 12), f"the schedule's rule holds {schedule_faults(g0, a0, 12)}")
j = json.loads(run("analyze", "--json", files[0]).stdout)["jobs"][0]["root_design"]
check(j["stopped"] == "half-width reached" and (j["hi"] - j["lo"]) / 2 * 100 <= 25 and
      j["pairs"] == len(g0) // 2, f"analyze: stopped at half-width {(j['hi'] - j['lo']) * 50:.1f}")
out = run("analyze", files[0]).stdout
check("Adaptive root design" in out and "stopped: half-width reached" in out,
      "analyze's text shows the design and its stop")
# Its answer is the best line's mean with the race's interval; its pooled pairs, spread over
# the lines as the race chose, estimate nothing and are not given as the job's advantage.
doc = json.loads(run("analyze", "--json", files[0]).stdout)
w, job = doc["answers"][0], doc["jobs"][0]
check(w["kind"] == "adaptive_root_design" and abs(w["value"] - 100 * j["value"]) < 1e-9 and
      abs(w["lo"] - 100 * j["lo"]) < 1e-9 and abs(w["hi"] - 100 * j["hi"]) < 1e-9 and
      w["line"] == " ".join(j["lines"][j["best_line"]]["names"]),
      f"analyze: the answer is the race's ({w})")
check(job["advantage"]["value"] is None and "its pooled advantage estimates nothing" not in out
      and "so their pooled advantage estimates nothing" in out,
      "analyze: no pooled advantage for the race's job")
if shutil.which("gnuplot"):
    with tempfile.TemporaryDirectory() as rep:
        run("analyze", files[0], "--report", rep, "--force")
        page = open(os.path.join(rep, "index.html"), encoding="utf-8").read()
        check("adaptive root design, whose pairs were spread" in page,
              "report: the race's job left out of the pooled plots, and said so")

# --- the Python reader reads the design back ---------------------------------------------
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
try:
    from anywoli.results import Results
    d = Results(files[0]).job("race")["root_design"]
    check(d["round_pairs"] == 4 and d["halfwidth"] == 25 and d["stopped"] and
          d["stop_pair"] == a0["stop_pair"] and
          [f for f, _ in d["rounds"]] == list(a0["root_round_first"]),
          "the Python reader reads the rule, the rounds and the stop")
except ImportError as err:
    print(f"(the Python reader not checked: {err})")

# --- a budget spent: every planned game, and analyze says so ------------------------------
config("u.cfg", "u.h5", "", "all:1", "4,1", 400, agent=AB3, seed=3)
r = run("run", "u.cfg", "--quiet", "--threads", "2")
g, a = job_of("u.h5")
j = json.loads(run("analyze", "--json", "u.h5").stdout)["jobs"][0]["root_design"]
check(r.returncode == 0 and len(g) == 400 and "stopped" not in a and
      j["stopped"] == "budget spent" and not schedule_faults(g, a, 12),
      "a budget spent plays every game; analyze says so")

# --- kill -9, then --resume: the same games and stop --------------------------------------
config("k.cfg", "whole.h5", "", "all:1", "4,10", 3000, agent=AB3, seed=3)
slow = ["run", "k.cfg", "--quiet", "--threads", "2", "--batch", "6"]
r = run(*slow)
whole, whole_attrs = job_of("whole.h5")
p = subprocess.Popen([BIN, *slow, "-o", "killed.h5"], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
deadline = time.time() + 60
while time.time() < deadline and p.poll() is None:
    if os.path.exists("killed.h5.journal") and os.path.getsize("killed.h5.journal") > 20000:
        break
    time.sleep(0.01)
killed = p.poll() is None
if killed:
    p.send_signal(signal.SIGKILL)
p.wait()
check(killed, "the run was killed part-way")
r = run(*slow, "-o", "killed.h5", "--resume")
games, attrs = job_of("killed.h5")
check(r.returncode == 0 and len(games) == len(whole) and (games == whole).all() and
      list(attrs["root_round_first"]) == list(whole_attrs["root_round_first"]) and
      attrs.get("stop_pair") == whole_attrs.get("stop_pair"),
      f"kill -9 and --resume: the same games, rounds and stop ({len(games)} games)")

# --- the command line's --root-design: the same games as the config's key ----------------
r = run("run", "--agent-a", AB3, "--agent-b", AB3, "--openings", "all:1", "--root-design", "4,25",
        "--games", "3000", "--seed", "3", "--threads", "2", "-o", "quick.h5")
g, a = job_of("quick.h5", "main")
check(r.returncode == 0 and "root_design main:" in r.stdout and len(g) == len(g0) and
      (g["opening"] == g0["opening"]).all() and text(a["root_design"]) == "4,25,0.95",
      "run --root-design plays the config's design (the same lines, the same stop)")

# --- bad uses: one line, exit status 2 ----------------------------------------------------
for openings, rule, extra, want in [("plies:2", "4,10", "", "not all:N"),
                                    ("all:1", "1,10", "", "ROUND_PAIRS"),
                                    ("all:1", "4,10", 'sprt = "0,10";', "sequential test")]:
    with open("bad.cfg", "w") as f:
        f.write(f'seed = 1L;\njobs = ( {{ name = "x"; agent_a = "random"; agent_b = "random"; '
                f'openings = "{openings}"; root_design = "{rule}"; {extra} games = 100L; }} );\n')
    r = run("run", "bad.cfg", "-o", "bad.h5", "--quiet")
    check(r.returncode == 2 and want in r.stderr and r.stderr.count("\n") == 1,
          f"refused: {r.stderr.strip()}")

print("failures:", failures)
sys.exit(1 if failures else 0)
