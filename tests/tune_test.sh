#!/usr/bin/env bash
# tune_test.sh: `anywoli tune` end to end.
#
#   tune_test.sh PATH/TO/anywoli CONFIGS_DIR
#
# A tuning killed with kill -9 (twice) and resumed ends with the tables of an uninterrupted
# one; SIGINT stops it cleanly with exit status 130, and SIGTERM within seconds even in the
# middle of a search that would take hours; `anywoli analyze` shows its trajectory
# and matches as tables, as JSON and as a report with plots; every configs/tune*.cfg loads.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
configs=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

cat >"$tmp/t.cfg" <<'EOF_CFG'
seed = 21L;
output = "unused.h5";
agent = "alphabeta:depth=2,tt=12";
iterations = 300;
pairs = 8;
max_plies = 400;
a = 10.0;
weights = (
  { name = "store"; start = 0.3; min = 0.0; max = 3.0; step = 0.2; },
  { name = "seeds"; start = -0.3; min = -1.0; max = 1.0; step = 0.1; }
);
verification = { pairs = 150; beta = 0.1;
  against_start = { elo0 = 0; elo1 = 50; };
  against_defaults = { elo1 = 10; };
};
EOF_CFG

# The uninterrupted tuning.
"$bin" tune "$tmp/t.cfg" -o "$tmp/whole.h5" --quiet >"$tmp/whole.out" 2>"$tmp/whole.err" \
    || fail "uninterrupted tuning: status $? ($(cat "$tmp/whole.err"))"

# Each verification match is pentanomial over its pairs, with its own SPRT bounds printed
# beside its decision. Here (seed 21) the match against the start stops on its SPRT after a
# few pairs, with the warning that its estimates are biased; the one against the defaults
# does not decide and plays all its 150 pairs.
check_verification_lines() {   # FILE WHAT
    local want
    for want in '^  vs start +[0-9]+ pairs .* Elo [-+][0-9.]+ \[[-+][0-9.]+, [-+][0-9.]+\] \(pentanomial, [0-9]+ pairs\)' \
                '^    SPRT H0 elo 0 vs H1 elo 50 \(alpha 0\.05, beta 0\.1\): accept H[01], LLR -?[0-9.]+ \[-[0-9.]+, [0-9.]+\]$' \
                '^    stopped on its SPRT at pair [0-9]+ of 150; the score, Elo and interval after a sequential stop are biased .* and are not corrected$' \
                '^  vs defaults +150 pairs .*\(pentanomial, 150 pairs\)' \
                '^    SPRT H0 elo 0 vs H1 elo 10 \(alpha 0\.05, beta 0\.1\): ' \
                '^    the SPRT did not stop it: all 150 pairs played$'; do
        checks=$((checks + 1))
        grep -qE "$want" "$1" || fail "$2: no line matching '$want' in: $(grep -A1 '^  vs' "$1")"
    done
}
check_verification_lines "$tmp/whole.out" "tune's summary"

# Killed with -9 twice, resumed each time.
"$bin" tune "$tmp/t.cfg" -o "$tmp/k.h5" --quiet >/dev/null 2>&1 &
pid=$!
wait_for_journal "$tmp/k.h5.journal" 3000
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if [[ -e "$tmp/k.h5" ]]; then
    echo "note: the tuning finished before kill -9; the resume is not exercised" >&2
else
    [[ -e "$tmp/k.h5.journal" ]] || fail "no journal after kill -9"
    "$bin" tune "$tmp/t.cfg" -o "$tmp/k.h5" --resume --quiet >/dev/null 2>&1 &
    pid=$!
    wait_for_journal "$tmp/k.h5.journal" 8000
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    "$bin" tune "$tmp/t.cfg" -o "$tmp/k.h5" --resume --quiet >"$tmp/k.out" 2>"$tmp/k.err" \
        || fail "resume: status $? ($(cat "$tmp/k.err"))"
fi
[[ ! -e "$tmp/k.h5.journal" && ! -e "$tmp/k.h5.partial" ]] || fail "leftovers after the resume"
same_tuning "$tmp/whole.h5" "$tmp/k.h5"
if [[ -e "$tmp/k.out" ]]; then
    grep -q '^tuned spec:' "$tmp/k.out" || fail "resume: no tuned spec printed"
    grep -q 'iterations resumed from the journal' "$tmp/k.out" || fail "resume: nothing resumed"
fi

# SIGINT: a clean stop, exit status 130, the way to continue on stderr.
"$bin" tune "$tmp/t.cfg" -o "$tmp/i.h5" --quiet >/dev/null 2>"$tmp/i.err" &
pid=$!
wait_for_journal "$tmp/i.h5.journal" 3000
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [[ -e "$tmp/i.h5" ]]; then
    echo "note: the tuning finished before SIGINT" >&2
else
    [[ $rc -eq 130 ]] || fail "SIGINT: exit status $rc, expected 130"
    grep -q 'stopped by SIGINT.*--resume' "$tmp/i.err" || fail "SIGINT: message $(cat "$tmp/i.err")"
fi

# SIGTERM in the middle of a search that would take hours (depth 40): the tuning stops
# within seconds, its match abandoned, with exit status 143 and the way to continue.
sed -e 's/alphabeta:depth=2,tt=12/alphabeta:depth=40,tt=12/' -e 's/^iterations = 300;/iterations = 3;/' \
    "$tmp/t.cfg" >"$tmp/deep.cfg"
"$bin" tune "$tmp/deep.cfg" -o "$tmp/d.h5" --threads 2 --quiet >/dev/null 2>"$tmp/d.err" &
pid=$!
sleep 1
kill -TERM "$pid" 2>/dev/null
for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
if kill -0 "$pid" 2>/dev/null; then
    fail "SIGTERM: the tuning still runs 5 s after it"
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
else
    wait "$pid"
    rc=$?
    [[ $rc -eq 143 ]] || fail "SIGTERM in a search: exit status $rc, expected 143"
    grep -q 'stopped by SIGTERM: 0 of 3 iterations are kept in .*d.h5.journal; continue with --resume' \
        "$tmp/d.err" || fail "SIGTERM in a search: message $(cat "$tmp/d.err")"
fi

# analyze: the tables, the JSON, the report.
"$bin" analyze "$tmp/whole.h5" >"$tmp/a.out" 2>"$tmp/a.err" || fail "analyze: status $?"
for want in '^trajectory, sampled' '^weight ' '^  vs start ' '^  vs defaults ' '^tuned spec: '; do
    grep -q "$want" "$tmp/a.out" || fail "analyze: no line matching '$want'"
done
[[ $(grep -cE '^ +[0-9]+ +[0-9.]+ +[0-9.]+ ' "$tmp/a.out") -le 25 ]] \
    || fail "analyze: the trajectory is not sampled"
check_verification_lines "$tmp/a.out" "analyze"
"$bin" analyze "$tmp/whole.h5" --sprt 0,10 >/dev/null 2>"$tmp/a.err"
[[ $? -eq 2 ]] && grep -q 'is a tuning' "$tmp/a.err" || fail "analyze --sprt on a tuning: not refused"
"$bin" analyze "$tmp/whole.h5" --json >"$tmp/a.json" || fail "analyze --json: status $?"
python3 - "$tmp/a.json" <<'EOF_PY' || fail "analyze --json: bad document"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "anywoli-tuning-analysis" and doc["format_version"] == 1
d = doc["tuning"]
assert len(d["trajectory"]) == 300, len(d["trajectory"])
assert [w["name"] for w in d["weights"]] == ["store", "seeds"]
assert [v["against"] for v in d["verification"]] == ["start", "defaults"]
assert d["verification"][0]["sprt"]["decision"] in ("accept_h0", "accept_h1")
# The match against the start stopped on its SPRT, at its last pair; the other played all.
start, defaults = (v["sprt"] for v in d["verification"])
assert start["stopped"] is True and start["stop_pair"] == d["verification"][0]["pairs"] < 150
assert defaults["stopped"] is False and defaults["stop_pair"] is None
assert start["pairs_planned"] == defaults["pairs_planned"] == 150
bounds = [(v["sprt"]["elo0"], v["sprt"]["elo1"], v["sprt"]["alpha"], v["sprt"]["beta"])
          for v in d["verification"]]
assert bounds == [(0, 50, 0.05, 0.1), (0, 10, 0.05, 0.1)], bounds
assert all(v["model"] == "pentanomial" == v["sprt"]["model"] for v in d["verification"])
# In a job's words: A's wins and losses, the pentanomial counts, estimates as {value, lo, hi}.
for v in d["verification"]:
    assert v["a_wins"] + v["draws"] + v["a_losses"] == 2 * v["pairs"] == 2 * sum(v["pentanomial"]), v
    assert v["score"]["lo"] <= v["score"]["value"] <= v["score"]["hi"], v["score"]
    assert v["elo"]["lo"] <= v["elo"]["value"] <= v["elo"]["hi"], v["elo"]
assert d["tuned_spec"].startswith("alphabeta:depth=2,tt=12,w.store=")
EOF_PY
# The /tuning group as h5py reads it (docs/results.md), when Debian's h5py is there.
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    /usr/bin/python3 - "$tmp/whole.h5" <<'EOF_PY' || fail "h5py: /tuning is not as documented"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
assert f.attrs["format"] == "anywoli-results" and f.attrs["format_version"] == 1
t = f["tuning"]
for key in ("agent", "opponent", "start_spec", "default_spec", "tuned_spec", "iterations",
            "pairs", "a", "c", "A", "alpha", "gamma", "elo0", "elo1", "iterations_done"):
    assert key in t.attrs, key
traj = t["trajectory"][:]
assert len(traj) == 300 and list(traj["iteration"]) == list(range(300))
assert set(traj.dtype.names) >= {"a_k", "c_k", "theta.store", "theta.seeds", "delta.store",
                                 "delta.seeds", "plus_wins", "plus_draws", "plus_losses",
                                 "minus_wins", "minus_draws", "minus_losses", "diff"}
assert all(abs(d) == 1 for d in traj["delta.store"])
assert all(w + d + l == 16 for w, d, l in zip(traj["plus_wins"], traj["plus_draws"],
                                              traj["plus_losses"]))
w = t["weights"][:]
assert [n.decode() for n in w["name"]] == ["store", "seeds"]
v = t["verification"][:]
assert [n.decode() for n in v["opponent"]] == ["start", "defaults"]
assert v["pairs"][0] < 150 and v["pairs"][1] == 150 and all(x in (-1, 0, 1) for x in v["decision"])
assert list(v["sprt_stop_pair"]) == [v["pairs"][0], 0], v["sprt_stop_pair"]
# Every pair's games, A's result in each (A South first): they add up to the match's counts.
for row, name in zip(v, ("start", "defaults")):
    games = t["verification_pairs_" + name][:]
    assert games.shape == (row["pairs"], 2) and games.dtype == "int8", games.shape
    assert (games == 1).sum() == row["wins"] and (games == -1).sum() == row["losses"]
assert list(v["sprt_elo1"]) == [50, 10] and list(v["sprt_beta"]) == [0.1, 0.1], v
EOF_PY
    # A tuning written before each match had its own bounds (its verification rows without
    # them, /tuning's elo0 and elo1 for both, trinomial figures) still reads: the bounds from
    # the attributes, the figures worked out again over the pairs.
    cp "$tmp/whole.h5" "$tmp/old.h5"
    /usr/bin/python3 - "$tmp/old.h5" <<'EOF_PY' || fail "h5py: could not write an old-style tuning"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r+")
t = f["tuning"]
v = t["verification"][:]
keep = [n for n in v.dtype.names if not n.startswith("sprt_")]   # and so no stop
old = np.zeros(len(v), dtype=[(n, v.dtype[n]) for n in keep])
for n in keep:
    old[n] = v[n]
old["elo_lo"] = old["llr"] = -99.0                  # not what the pairs say
del t["verification"]
t["verification"] = old
t.attrs["elo0"], t.attrs["elo1"] = -5.0, 25.0
EOF_PY
    "$bin" analyze "$tmp/old.h5" --json >"$tmp/old.json" 2>"$tmp/old.err" \
        || fail "analyze of an old-style tuning: status $? ($(cat "$tmp/old.err"))"
    /usr/bin/python3 - "$tmp/old.json" "$tmp/a.json" <<'EOF_PY' || fail "analyze of an old-style tuning: wrong figures"
import json, sys
old = json.load(open(sys.argv[1]))["tuning"]["verification"]
new = json.load(open(sys.argv[2]))["tuning"]["verification"]
for o, n in zip(old, new):
    assert (o["sprt"]["elo0"], o["sprt"]["elo1"]) == (-5, 25), o["sprt"]
    assert o["elo"]["lo"] == n["elo"]["lo"] and o["model"] == "pentanomial", (o, n)
    assert o["sprt"]["llr"] != -99.0
    assert o["sprt"]["stopped"] is None and o["sprt"]["stop_pair"] is None, o["sprt"]
EOF_PY
fi
if command -v gnuplot >/dev/null; then
    "$bin" analyze "$tmp/whole.h5" --report "$tmp/report" >/dev/null \
        || fail "analyze --report: status $?"
    for f in index.html tuning_weights.png tuning_matches.png; do
        [[ -s "$tmp/report/$f" ]] || fail "analyze --report: no $f"
    done
fi

# An opening_plies that leaves the agents no game (here as many plies as the games' cap) is
# refused as run refuses such a plies:N: one line naming the config and key, exit status 2,
# an existing results file untouched, with or without --dry-run.
sed -e 's/^max_plies = 400;/max_plies = 6;/' -e 's/^pairs = 8;/pairs = 8;\nopening_plies = 6;/' \
    "$tmp/t.cfg" >"$tmp/capped.cfg"
pushd "$tmp" >/dev/null || exit 1
echo "not a tuning" >kept.h5
cp kept.h5 kept.want
for dry in "" --dry-run; do
    "$bin" tune capped.cfg -o kept.h5 --force --quiet $dry >/dev/null 2>err
    rc=$?
    expect_status 2 "opening_plies = max_plies ${dry:-(a tuning)}"
    one_line_error 'anywoli tune: capped.cfg: opening_plies: openings "plies:6": 6 plies reach'
done
cmp -s kept.h5 kept.want && [[ ! -e kept.h5.partial ]] \
    || fail "opening_plies = max_plies: the results file was touched"
popd >/dev/null || exit 1

# A file of another kind is named for what it is, with the command that reads it: a results
# file, and an experiment for run (it has jobs).
pushd "$tmp" >/dev/null || exit 1
"$bin" tune whole.h5 --dry-run >/dev/null 2>err
rc=$?
expect_status 2 "a results file given as the tuning"
one_line_error 'anywoli tune: whole.h5: a results file (HDF5), not a config: `anywoli analyze whole.h5` reads it'
printf 'seed = 1;\noutput = "e.h5";\njobs = ( { games = 10; } );\n' >experiment.cfg
"$bin" tune experiment.cfg --dry-run >/dev/null 2>err
rc=$?
expect_status 2 "an experiment given as the tuning"
one_line_error 'anywoli tune: experiment.cfg:3: jobs: this is an experiment (it has `jobs`), not a tuning: `anywoli run experiment.cfg` reads it'
popd >/dev/null || exit 1

# A bad bound of one match: one line naming the file, the line and the key, exit status 2.
pushd "$tmp" >/dev/null || exit 1
sed -e 's/against_defaults = { elo1 = 10; };/against_defaults = { elo0 = 10; elo1 = 10; };/' \
    t.cfg >badbound.cfg
"$bin" tune badbound.cfg -o never.h5 --quiet >/dev/null 2>err
rc=$?
expect_status 2 "elo1 not above elo0 in against_defaults"
one_line_error 'anywoli tune: badbound.cfg:14: elo1: must be above elo0 (10) for the match against defaults'
[[ ! -e never.h5 && ! -e never.h5.partial ]] || fail "a bad bound: a results file was written"
popd >/dev/null || exit 1

# The ready tunings in configs/ load.
for cfg in "$configs"/tune*.cfg; do
    "$bin" tune "$cfg" --dry-run >"$tmp/plan" 2>&1 || fail "$cfg: $(cat "$tmp/plan")"
    grep -q '^SPSA: [0-9]* iterations' "$tmp/plan" || fail "$cfg: no plan"
    grep -qE '^verification: [0-9]+ pairs against the start weights \(SPRT H0 elo [-0-9.]+ vs H1 elo [0-9.]+\) and the defaults \(H0 elo' \
        "$tmp/plan" || fail "$cfg: the plan does not give each match's bounds: $(cat "$tmp/plan")"
done

if [[ $failures -ne 0 ]]; then
    echo "$failures checks failed" >&2
    exit 1
fi
echo "all tune checks passed"
