#!/usr/bin/env bash
# fit_test.sh: `anywoli fit` (Texel's method) end to end.
#
#   fit_test.sh PATH/TO/anywoli PYTHON TESTS_DIR
#
# The fit of self-play positions agrees with an independent scipy fit of the rows it dumps
# (weights, clustered standard errors, log-losses: tests/fit_check.py); labels from tables
# replace the games' results exactly where the tables hold the position; every bad input is
# one line with exit status 2, and an existing --dump file is left as it was.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
python=$2
tests=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

"$bin" run --agent-a alphabeta:depth=2 --agent-b alphabeta:depth=1 --games 120 \
    --openings plies:4 --record-moves --seed 3 -o games.h5 --quiet >/dev/null 2>err ||
    fail "run: $(cat err)"
"$bin" run --agent-a greedy --agent-b random --games 10 -o nomoves.h5 --quiet >/dev/null 2>err ||
    fail "run without moves: $(cat err)"

# The fit, as JSON and as the rows it fitted; scipy fits the same rows.
"$bin" fit games.h5 --json --dump rows.csv >fit.json 2>err
rc=$?
expect_status 0 "fit --json --dump"
"$python" "$tests/fit_check.py" rows.csv fit.json >check.out 2>&1
rc=$?
if [[ $rc -ne 77 ]]; then
    expect_status 0 "fit_check.py: $(cat check.out)"
fi

# The text: every fitted term with its error, the log-losses, and a spec that loads.
"$bin" fit games.h5 >fit.out 2>err
rc=$?
expect_status 0 "fit"
for want in '^positions: [0-9]+ fitted, [0-9]+ held out' '^threes +-?[0-9.]+ +[0-9.]+ +-?[0-9.]+$' \
            '^log-loss, held out: fitted 0\.[0-9]+, defaults 0\.[0-9]+' '^spec: alphabeta:w\.store=1\.000,'; do
    checks=$((checks + 1))
    grep -qE "$want" fit.out || fail "fit's text: no line matching '$want' in: $(cat fit.out)"
done
spec=$(sed -n 's/^spec: //p' fit.out)
check "the printed spec loads" "$bin" agents "$spec,depth=2" >/dev/null

# Fewer terms: the others keep their defaults (in the base column) and are not reported.
"$bin" fit games.h5 --terms threes,empty --dump two.csv --json >two.json 2>err
rc=$?
expect_status 0 "fit --terms threes,empty"
checks=$((checks + 1))
[[ $(head -1 two.csv) == game,ply,held_out,tabled,label,base,threes,empty ]] ||
    fail "--terms: dump header $(head -1 two.csv)"
"$python" "$tests/fit_check.py" two.csv two.json >check.out 2>&1
rc=$?
[[ $rc -eq 77 ]] || expect_status 0 "fit_check.py on two terms: $(cat check.out)"

# Labels from the tables: exactly the rows the tables hold change, to a win, draw or loss;
# a board of 6 holes of 3 seeds, whose tables to 8 seeds cover the games' last positions.
"$bin" tables build --holes 6 --seeds 3 --max-seeds 8 -o small.tab >/dev/null 2>err ||
    fail "tables build: $(cat err)"
"$bin" run --holes 6 --seeds 3 --agent-a alphabeta:depth=2 --agent-b greedy --games 200 \
    --openings plies:2 --record-moves -o small.h5 --quiet >/dev/null 2>err || fail "run: $(cat err)"
"$bin" fit small.h5 --skip 2 --dump plain.csv >/dev/null 2>err || fail "fit: $(cat err)"
"$bin" fit small.h5 --skip 2 --tables small.tab --dump tabled.csv >tabled.out 2>err ||
    fail "fit --tables: $(cat err)"
checks=$((checks + 1))
paste -d, plain.csv tabled.csv | awk -F, 'NR > 1 {
        if ($4 != 0) { bad = 1 }                          # no tables: nothing tabled
        n = 12                                            # the columns of one file
        if ($(n + 4) == 0 && $5 != $(n + 5)) { bad = 1 }  # not tabled: the same label
        if ($(n + 4) == 1) { tabled++; if ($5 != $(n + 5)) changed++ }
        if ($(n + 5) != 0 && $(n + 5) != 0.5 && $(n + 5) != 1) { bad = 1 }
    } END { exit !(bad == 0 && tabled > 100 && changed > 0) }' ||
    fail "--tables: the labels of the rows not tabled changed, or none tabled or changed"
checks=$((checks + 1))
grep -qE '; [1-9][0-9]+ labelled by the tables$' tabled.out || fail "--tables: $(cat tabled.out)"

# Bad input: one line, status 2.
bad() {   # WANT ARGS...
    local want=$1
    shift
    "$bin" fit "$@" >/dev/null 2>err
    rc=$?
    expect_status 2 "fit $*"
    one_line_error "$want"
}
bad "missing.h5" missing.h5
bad "expected RESULTS" --json
bad "unknown term 'bogus'" games.h5 --terms seeds,bogus
bad "store is the unit" games.h5 --terms store,seeds
bad "term 'seeds' is given twice" games.h5 --terms seeds,seeds
bad "missing after the last comma" games.h5 --terms seeds,
bad "mobility is opp_empty - empty" games.h5 --terms mobility,empty,opp_empty
bad "job main has no stored moves" nomoves.h5 --job main
bad "no job has stored moves" nomoves.h5
bad "no job 'nosuch'" games.h5 --job nosuch
bad "--skip" games.h5 --skip -1
bad "no held-out positions" games.h5 --skip 100000
bad "no job of games.h5 has the tables' variant" games.h5 --tables small.tab
bad "small.h5" games.h5 --tables small.h5
echo keep >kept.csv
bad "kept.csv already exists (--force replaces it)" games.h5 --dump kept.csv
checks=$((checks + 1))
[[ $(cat kept.csv) == keep ]] || fail "--dump overwrote an existing file"

echo "fit_test: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
