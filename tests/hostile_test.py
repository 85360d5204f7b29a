#!/usr/bin/env python3
"""hostile_test.py: the readers of results files against damaged and hostile files
(hostile_files.py's variants of a fresh file).

    hostile_test.py PATH/TO/anywoli TESTS_DIR

For every variant: `anywoli analyze`, `export --moves --job j`, `replay --job j --game
GAME`, `fit --job j`, `tables agree` and `tables compare --games` (tables of j's board) end
with status 0, or 2 with one line on stderr naming the file (never a crash, a signal, a
hang, or status 2 without its line), and with 2 where the variant lists them; the Python
reader (python/anywoli) reads it or raises ResultsError naming the file, nothing else, and
raises it where the variant lists it, in analyze's words where both refuse it (but for
OWN_WORDS). Exit status 77 (skipped) without h5py, numpy or pandas.
"""
import os
import subprocess
import sys
import tempfile

try:
    import h5py  # noqa: F401  (hostile_files needs it)
    import numpy  # noqa: F401
    import pandas  # noqa: F401
except ImportError as err:
    print(f"skipped: {err}")
    sys.exit(77)

TESTS = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else ""
sys.path.insert(0, TESTS)
sys.path.insert(0, os.path.join(os.path.dirname(TESTS), "python"))
import anywoli  # noqa: E402
import hostile_files  # noqa: E402

CONFIG = """seed = 5L;
output = "good.h5";
jobs = (
  { name = "j"; holes = 6; agent_a = "random"; agent_b = "greedy"; games = 16L;
    openings = "plies:2"; record_moves = true; },
  { name = "k"; holes = 5; agent_a = "random"; agent_b = "random"; games = 6L; }
);
"""
GAME = str(hostile_files.GAME)
COMMANDS = {
    "a": ["analyze"],
    "e": ["export", "--moves", "--job", "j"],
    "r": ["replay", "--job", "j", "--game", GAME, "--quiet"],
    "f": ["fit", "--job", "j"],
    "t": ["tables", "agree", "t.tb", "--agent", "greedy", "--job", "j"],
    "c": ["tables", "compare", "t.tb", "tl.tb", "--job", "j", "--games"],
}
# fit, tables agree and tables compare --games replay every stored game of j
# (rf_walk_games): they must refuse what export --moves refuses.
REFUSED_LIKE = {"f": "e", "t": "e", "c": "e"}
TABLES = [["tables", "build", "--holes", "6", "--seeds", "4", "--max-seeds", "8", "-o", "t.tb"],
          ["tables", "build", "--holes", "6", "--seeds", "4", "--max-seeds", "8",
           "--final-four", "lottery", "-o", "tl.tb"]]

# The variants the Python reader refuses in words of its own; it says the others as
# analyze does.
OWN_WORDS = {"not_hdf5", "empty", "truncated", "truncated_header", "format_missing",
             "format_version_2", "games_ints", "games_column_missing", "openings_table_2d"}

failures = []


def fail(what):
    failures.append(what)
    print("FAIL:", what, file=sys.stderr)


def check_command(binary, key, path, name, must_refuse):
    """One C reader on one variant: its error line, without the program's name."""
    command = COMMANDS[key]
    # the results file after the command's word(s) and its tables, or last (after --games)
    at = len(command) if command[-1] == "--games" else 3 if key == "t" else 1
    args = [binary, *command[:at], path, *command[at:]]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=60,
                              cwd=os.path.dirname(path))
    except subprocess.TimeoutExpired:
        fail(f"{name}: {' '.join(COMMANDS[key])} did not end in 60 s")
        return
    lines = done.stderr.splitlines()
    said = lines[0].split(": ", 1)[-1] if len(lines) == 1 else ""
    what = f"{name}: {' '.join(COMMANDS[key])}"
    if done.returncode not in (0, 2):
        fail(f"{what}: status {done.returncode} (stderr: {done.stderr[:300]!r})")
    elif done.returncode == 2 and (len(lines) != 1 or path not in lines[0]):
        fail(f"{what}: status 2 without one line naming the file: {done.stderr[:300]!r}")
    elif must_refuse and done.returncode != 2:
        fail(f"{what}: status {done.returncode}, expected 2 (a damaged file)")
    return said


def read_everything(path):
    """What the Python reader offers, on every job; the moves of game GAME of j."""
    r = anywoli.load(path)
    r.jobs
    for job in r.job_names:
        r.job(job)
        r.columns(job)
        r.games(job)
    if "j" in r.job_names and r.job("j")["has_moves"]:
        r.moves("j", hostile_files.GAME)


def check_python(path, name, must_refuse, analyze_says):
    """The Python reader on one variant: read, or ResultsError naming the file; a damaged
    row said in analyze's words."""
    try:
        read_everything(path)
    except anywoli.ResultsError as e:
        message = str(e)
        if path not in message or "\n" in message:
            fail(f"{name}: python: a ResultsError not one line naming the file: {message!r}")
        if analyze_says and message != analyze_says:
            fail(f"{name}: python says {message!r}, analyze {analyze_says!r}")
        return
    except BaseException as e:   # anything else is the failure this test looks for
        fail(f"{name}: python: {type(e).__name__}: {str(e)[:200]}")
        return
    if must_refuse:
        fail(f"{name}: python: read without a ResultsError (a damaged file)")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: hostile_test.py PATH/TO/anywoli TESTS_DIR")
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "good.cfg"), "w") as f:
            f.write(CONFIG)
        for command in [["run", "good.cfg", "--quiet"], *TABLES]:
            subprocess.run([binary, *command], cwd=tmp, check=True, capture_output=True)
        good = os.path.join(tmp, "good.h5")
        # The good file reads everywhere: the failures below are the variants'.
        for key in COMMANDS:
            check_command(binary, key, good, "good", False)
        check_python(good, "good", False, "")
        if failures:
            return 1
        for name, change, refuse in hostile_files.VARIANTS:
            path = hostile_files.make(good, tmp, name, change)
            said = {key: check_command(binary, key, path, name,
                                       REFUSED_LIKE.get(key, key) in refuse)
                    for key in COMMANDS}
            check_python(path, name, "p" in refuse,
                         "" if name in OWN_WORDS else said["a"])
            os.remove(path)
    print(f"hostile_test: {len(hostile_files.VARIANTS)} variants, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
