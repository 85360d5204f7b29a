"""variant_params_test.py: every consumer of the variant parameters visits every entry of the
table (variant_params, variants/variant.c), so a parameter cannot be forgotten by one of them
and pass. The table comes from variant_params_dump; for each parameter, a variant that differs
from the standard game (or from a small board, for tables) in that parameter alone goes
through the command line's option, a results file's attribute, analyze's text and JSON,
export's columns, the Python package, analyze's sweep detection and, for the rules of play,
a tables file's header and its match, and a learn data file's attributes as learn fit reads
them. The Python package's copy of the table, and its words
for conventions and outcomes, are held equal to the C ones.

usage: variant_params_test.py ANYWOLI DUMP PYTHON_PACKAGE_DIR
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

import h5py

ANYWOLI, DUMP, PACKAGE = sys.argv[1:4]
sys.path.insert(0, PACKAGE)
from anywoli import codes  # noqa: E402
import anywoli  # noqa: E402

FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print("FAIL:", what)


def run(*args, expect=0):
    r = subprocess.run([ANYWOLI, *args], capture_output=True, text=True)
    if r.returncode != expect:
        raise SystemExit(f"anywoli {' '.join(args)}: exit {r.returncode}, expected {expect}:"
                         f"\n{r.stderr}")
    return r


WORDS = {}


def table():
    rows = []
    for line in subprocess.run([DUMP], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        if line.startswith(("conventions ", "outcomes ")):
            WORDS[line.split()[0]] = tuple(line.split()[1:])
            continue
        name, kind, low, high, standard, play, cost, option = line.split()
        rows.append(dict(name=name, kind=kind, low=int(low), high=int(high),
                         standard=int(standard), play=play == "1", cost=cost == "1",
                         option=option))
    return rows


def other_value(p):
    """A value of p that is not the standard game's: (as a number, as the options write it)."""
    if p["kind"] == "bool":
        x = 1 - p["standard"]
        return x, "yes" if x else "no"
    if p["kind"] == "convention":
        x = (p["standard"] + 1) % len(codes.CONVENTIONS)
        return x, codes.CONVENTIONS[x]
    x = p["standard"] + 1 if p["standard"] < p["high"] else p["standard"] - 1
    return x, str(x)


def stored(p, x):
    """What a results file's attribute and analyze's JSON hold for value x of p."""
    return codes.CONVENTIONS[x] if p["kind"] == "convention" else x


def test_python_copy(rows):
    mine = [(r["name"], r["kind"], r["low"], r["high"]) for r in rows]
    check(list(codes.VARIANT_PARAMS) == mine,
          f"python/anywoli/codes.py VARIANT_PARAMS {codes.VARIANT_PARAMS} is not the C "
          f"table {mine}")
    check(codes.CONVENTIONS == WORDS["conventions"], f"python's CONVENTIONS {codes.CONVENTIONS}"
          f" are not the C names {WORDS['conventions']}")
    check(codes.OUTCOMES == WORDS["outcomes"], f"python's OUTCOMES {codes.OUTCOMES} are not "
          f"the C words {WORDS['outcomes']}")


def test_run_to_outputs(p, tmp):
    """One run with the parameter's option set: every output says the value."""
    x, text = other_value(p)
    name = p["name"]
    path = os.path.join(tmp, f"{name}.h5")
    run("run", "--games", "4", "--seed", "7", "--threads", "1", "--quiet",
        f"--{p['option']}", text, "-o", path)
    with h5py.File(path, "r") as f:
        job = f["jobs"][list(f["jobs"].keys())[0]]
        attr = job.attrs[name]
        attr = attr.decode() if isinstance(attr, bytes) else attr
        if not isinstance(attr, str):
            attr = int(attr)
        check(attr == stored(p, x), f"{name}: results attribute {attr!r}, expected "
              f"{stored(p, x)!r}")
    doc = json.loads(run("analyze", path, "--json").stdout)
    got = doc["jobs"][0]["variant"].get(name)
    check(got == stored(p, x), f"{name}: analyze --json variant {got!r}")
    shown = f"{name} {codes.CONVENTIONS[x] if p['kind'] == 'convention' else x}"
    variant_line = [line for line in run("analyze", path).stdout.splitlines()
                    if line.startswith("variant:")]
    check(variant_line and shown in variant_line[0], f"{name}: analyze's text {variant_line}")
    rows = list(csv.DictReader(io.StringIO(run("export", path).stdout)))
    check(rows and rows[0].get(name) == text, f"{name}: export column {rows[0].get(name)!r}, "
          f"expected {text!r}")
    jobs = anywoli.load(path).jobs
    want = bool(x) if p["kind"] == "bool" else stored(p, x)
    check(jobs[name].iloc[0] == want, f"{name}: anywoli.load jobs() {jobs[name].iloc[0]!r}")


def test_sweep(p, tmp):
    """Two jobs one parameter apart: analyze finds the sweep over it."""
    x, text = other_value(p)
    value = {"bool": "true" if x else "false", "convention": f'"{text}"'}.get(p["kind"], text)
    cfg = os.path.join(tmp, f"sweep-{p['name']}.cfg")
    out = os.path.join(tmp, f"sweep-{p['name']}.h5")
    with open(cfg, "w") as f:
        f.write(f'seed = 5;\noutput = "{out}";\ndefaults = {{ games = 4; }};\n'
                f'jobs = ( {{ name = "a"; }}, {{ name = "b"; {p["name"]} = {value}; }} );\n')
    run("run", cfg, "--quiet", "--threads", "1")
    doc = json.loads(run("analyze", out, "--json").stdout)
    between = doc["between_jobs"]
    check(p["name"] in between["swept"], f"{p['name']}: analyze found no sweep over it")
    check([q["differs_in"] for q in between["pairs"]] == [p["name"]],
          f"{p['name']}: analyze's pair of jobs {between['pairs']}")


def test_tables(p, tmp):
    """Tables of a small board changed in p: the header keeps p, and tables fit the board
    without the change only when p is not a rule of play."""
    base = ["--holes", "3", "--seeds", "2", "--capture", "2"]
    x, text = other_value(p)
    if p["name"] in ("holes", "seeds", "capture"):
        x = {"holes": 4, "seeds": 3, "capture": 3}[p["name"]]
        text = str(x)
    changed = [a for a in base]
    if f"--{p['option']}" in changed:
        changed[changed.index(f"--{p['option']}") + 1] = text
    else:
        changed += [f"--{p['option']}", text]
    path = os.path.join(tmp, f"{p['name']}.tables")
    run("tables", "build", *changed, "--max-seeds", "5", "--all-levels", "--quiet", "-o", path)
    info = run("tables", "info", path).stdout
    check(f"{p['name']}={text}" in info, f"{p['name']}: tables info does not show "
          f"{p['name']}={text}:\n{info}")
    fits = subprocess.run([ANYWOLI, "solve", *base, "--tables", path, "--start"],
                          capture_output=True, text=True)
    check((fits.returncode == 0) == (not p["play"]),
          f"{p['name']}: tables for {text} used on the board without it: exit "
          f"{fits.returncode} ({fits.stderr.strip()})")


def test_learn_data(p, tmp):
    """A learn data file of a board changed in p, a rule of play stored with the board (not the
    convention, which goes with each game): the root's attribute holds it, and learn fit reads
    it back, refusing to fit it with the board without the change."""
    if not p["play"] or p["kind"] == "convention":
        return
    base = ["--holes", "3", "--seeds", "2", "--capture", "2"]
    x, text = other_value(p)
    if p["name"] in ("holes", "seeds", "capture"):
        x = {"holes": 4, "seeds": 3, "capture": 3}[p["name"]]
        text = str(x)
    changed = [a for a in base]
    if f"--{p['option']}" in changed:
        changed[changed.index(f"--{p['option']}") + 1] = text
    else:
        changed += [f"--{p['option']}", text]
    sample = ["learn", "sample", "--games", "8", "--depth", "2", "--rate", "1", "--quiet",
              "--sampler", "alphabeta:depth=1"]
    ours, plain = (os.path.join(tmp, f"{p['name']}{n}.learn") for n in ("", "-base"))
    run(*sample, *changed, "-o", ours)
    run(*sample, *base, "-o", plain)
    with h5py.File(ours, "r") as f:
        check(f.attrs.get(p["name"]) == x, f"{p['name']}: the learn data file's attribute is "
              f"{f.attrs.get(p['name'])}, not {x}")
    fit = subprocess.run([ANYWOLI, "learn", "fit", ours, plain, "--lambda", "1", "--top", "0"],
                         capture_output=True, text=True)
    check(fit.returncode == 2, f"{p['name']}: learn fit of two boards apart in it: exit "
          f"{fit.returncode} ({fit.stderr.strip()})")


def main():
    rows = table()
    check(len(rows) >= 7, "the dump lists the parameters")
    test_python_copy(rows)
    with tempfile.TemporaryDirectory() as tmp:
        for p in rows:
            test_run_to_outputs(p, tmp)
            test_sweep(p, tmp)
            test_tables(p, tmp)
            test_learn_data(p, tmp)
    print(f"{len(rows)} parameters, {len(FAILURES)} failures")
    sys.exit(1 if FAILURES else 0)


main()
