#!/usr/bin/env bash
# analyze_atlas_test.sh: `anywoli analyze`'s variant atlas end to end.
#
#   analyze_atlas_test.sh PATH/TO/anywoli TESTS_DIR PYTHON
#
# Runs tests/data/atlas/atlas.cfg (self-play rungs over solved boards and conventions, one
# from openings, a match), analyses it as tables, JSON and a report (gnuplot's scripts
# logged on the way), and checks with atlas_check.py every cell's answer and interval, exact
# value and verdict, the counts, the fairest ordering, the text and the heat maps against a
# recomputation from the file. Then a file without an atlas (one board; a match over two):
# no atlas in its text or JSON.
set -u

bin=$1
tests=$2
python=${3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

cp "$tests/data/atlas/atlas.cfg" "$tmp/"
(cd "$tmp" && "$bin" run atlas.cfg -o atlas.h5 --quiet --threads 2 >/dev/null) \
    || { echo "FAIL: anywoli run (atlas)" >&2; exit 1; }
f=$tmp/atlas.h5
"$bin" analyze "$f" >"$tmp/atlas.txt" 2>"$tmp/err" || fail "analyze: $(cat "$tmp/err")"
"$bin" analyze "$f" --json >"$tmp/atlas.json" 2>"$tmp/err" || fail "analyze --json: $(cat "$tmp/err")"
if command -v gnuplot >/dev/null; then
    # gnuplot's scripts logged on their way to it, so that the maps' data can be checked.
    mkdir "$tmp/gpbin"
    printf '#!/bin/sh\ntee -a "%s" | "%s" "$@"\n' "$tmp/gp.log" "$(command -v gnuplot)" \
        >"$tmp/gpbin/gnuplot"
    chmod +x "$tmp/gpbin/gnuplot"
    PATH="$tmp/gpbin:$PATH" "$bin" analyze "$f" --report "$tmp/report" >"$tmp/atlas2.txt" \
        2>"$tmp/err" || fail "analyze --report: $(cat "$tmp/err")"
    cmp -s "$tmp/atlas.txt" "$tmp/atlas2.txt" || fail "--report changed the tables"
    "$python" "$tests/atlas_check.py" "$f" "$tmp/atlas.txt" "$tmp/atlas.json" "$tmp/report" \
        "$tmp/gp.log" || fail "the atlas and its recomputation disagree"
else
    echo "analyze_atlas_test: gnuplot missing: the report is not checked" >&2
    "$python" "$tests/atlas_check.py" "$f" "$tmp/atlas.txt" "$tmp/atlas.json" \
        || fail "the atlas and its recomputation disagree"
fi

# No atlas: self-play on one board under two conventions, a match over two boards.
cat >"$tmp/none.cfg" <<'CFG'
seed = 3L;
output = "none.h5";
jobs = (
  { name = "one-board"; holes = 4; seeds = 2; final_four = ["penultimate", "lottery"];
    agent_a = "random"; agent_b = "random"; games = 40L; },
  { name = "match"; holes = [3, 4]; seeds = 2; agent_a = "random"; agent_b = "greedy"; games = 20L; }
);
CFG
(cd "$tmp" && "$bin" run none.cfg -o none.h5 --quiet --threads 2 >/dev/null) \
    || fail "anywoli run (none)"
"$bin" analyze "$tmp/none.h5" >"$tmp/none.txt" 2>"$tmp/err" || fail "analyze (none): $(cat "$tmp/err")"
"$bin" analyze "$tmp/none.h5" --json >"$tmp/none.json" 2>"$tmp/err" \
    || fail "analyze --json (none): $(cat "$tmp/err")"
"$python" "$tests/atlas_check.py" --none "$tmp/none.txt" "$tmp/none.json" \
    || fail "a file without an atlas shows one"

if [ "$failures" -ne 0 ]; then
    echo "analyze_atlas_test: $failures failure(s)" >&2
    exit 1
fi
echo "analyze_atlas_test: all checks passed"
