#!/usr/bin/env bash
# export_test.sh: `anywoli export` end to end.
#
#   export_test.sh PATH/TO/anywoli TESTS_DIR PYTHON
#
# Runs a small experiment (a job whose name and agent spec need CSV quoting, a job from
# openings with its moves recorded, a quick run with --record-moves), exports it to stdout and with -o, and checks
# with export_check.py that the rows equal the file read by h5py (counts, every column, the
# moves), and a file without the later columns. Then the bad inputs: an unknown job, --moves on a job without moves, OUT existing
# without --force, not a results file, a bad option: one stderr line each, exit status 2,
# and OUT untouched.
set -u

bin=$1
tests=$2
python=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
# shellcheck source=lib.sh
source "$tests/lib.sh"
cd "$tmp" || exit 1

# export ARGS...: run anywoli export, stdout in ./out, stderr in ./err, status in $rc.
export_() {
    "$bin" export "$@" >out 2>err
    rc=$?
}

cat >e.cfg <<'CFG'
seed = 11L;
output = "e.h5";
jobs = (
  { name = "ab,c=2+x"; agent_a = "random"; agent_b = "alphabeta:depth=1,w.store=1.5";
    games = 30L; },
  { name = "small"; holes = 6; final_four = "lottery"; agent_a = "random"; agent_b = "random";
    games = 41L; openings = "plies:2"; record_moves = true; skip_origin = true; }
);
CFG
"$bin" run e.cfg >/dev/null 2>err || fail "run e.cfg: $(head -c 300 err)"
"$bin" run --games 25 --holes 5 --agent-a random --agent-b greedy --record-moves -o m.h5 \
    >/dev/null 2>err || fail "run --record-moves: $(head -c 300 err)"

# Every job, to stdout: the rows equal the file's.
export_ e.h5
expect_status 0 "export e.h5"
check "export e.h5 equals the file" "$python" "$tests/export_check.py" e.h5 out
# The quoted job name and agent spec come back as one field each.
checks=$((checks + 1))
grep -q '^"ab,c=2+x",0,' out && grep -q ',"alphabeta:depth=1,w.store=1.5"' out ||
    fail "the job name and agent spec with commas are not quoted: $(sed -n 2p out)"
# The yes/no parameters read as a config writes them (they were written 1 and 0).
checks=$((checks + 1))
grep -q '^"ab,c=2+x",0,.*,12,4,4,penultimate,yes,no,100000,' out &&
    grep -q '^small,0,.*,6,4,4,lottery,yes,yes,100000,' out ||
    fail "extra_turn and skip_origin are not yes or no: $(sed -n 2p out)"
# One job, and the row count of the header plus its games.
export_ e.h5 --job small
expect_status 0 "export --job small"
check "export --job small equals the file" "$python" "$tests/export_check.py" e.h5 out
checks=$((checks + 1))
[[ $(wc -l <out) -eq 42 ]] || fail "export --job small: $(wc -l <out) lines, expected 1 + 41"

# -o OUT: written whole, no partial file left; the same as stdout.
export_ e.h5 -o all.csv
expect_status 0 "export -o all.csv"
"$bin" export e.h5 >stdout.csv 2>/dev/null
check "-o writes what stdout gets" cmp -s all.csv stdout.csv
checks=$((checks + 1))
[[ ! -e all.csv.partial && ! -e all.csv.lock ]] || fail "export -o left all.csv.partial or .lock"
# An existing OUT is refused without --force and left as it was; --force replaces it.
echo keep >kept.csv
export_ e.h5 -o kept.csv
expect_status 2 "export -o over an existing file"
one_line_error "kept.csv already exists (--force replaces it)"
check "the existing OUT is untouched" grep -qx keep kept.csv
export_ e.h5 -o kept.csv --force
expect_status 0 "export -o --force"
check "--force replaces OUT" cmp -s kept.csv stdout.csv

# Bad inputs: one line, exit status 2, no OUT written.
export_ e.h5 --job nope -o bad.csv
expect_status 2 "an unknown job"
one_line_error "e.h5: no job 'nope' (its jobs: ab,c=2+x, small)"
export_ e.h5 --moves -o bad.csv
expect_status 2 "--moves on a file without moves"
one_line_error "e.h5: job ab,c=2+x has no stored moves (run it with record_moves = true, or --record-moves, to export them)"
export_ e.cfg -o bad.csv
expect_status 2 "not a results file"
checks=$((checks + 1))
[[ $(wc -l <err) -eq 1 ]] && grep -q '^anywoli export: e.cfg: ' err || fail "not a results file: $(head -c 300 err)"
export_ e.h5 --bogus
expect_status 2 "a bad option"
one_line_error "unknown option '--bogus' (see --help)"
export_ e.h5 --force
expect_status 2 "--force without -o"
one_line_error "--force: only with -o OUT"
# A damaged row or moves index part-way through: the export stops with the reader's line,
# and the partial OUT is removed.
cp e.h5 damaged.h5
cp e.h5 damaged-moves.h5
"$python" -c 'import h5py, sys
with h5py.File(sys.argv[1], "r+") as f:
    g = f["jobs/small/games"]; row = g[30]; row["outcome"] = 9; g[30] = row
with h5py.File(sys.argv[2], "r+") as f:
    f["jobs/small/moves_index"][20] = 10**9' damaged.h5 damaged-moves.h5 ||
    fail "damaging a file"
export_ damaged.h5 -o bad.csv
expect_status 2 "a damaged row"
one_line_error "damaged.h5: job small: game 30: damaged row (outcome"
export_ damaged-moves.h5 --job small --moves -o bad.csv
expect_status 2 "a damaged moves index"
one_line_error "damaged-moves.h5: job small: game 19: damaged moves (moves_index"
# Offsets in order that give a game one move fewer than its row's plies.
cp e.h5 short-moves.h5
"$python" -c 'import h5py, sys
with h5py.File(sys.argv[1], "r+") as f:
    i = f["jobs/small/moves_index"]; i[8] = i[8] - 1' short-moves.h5 || fail "damaging a file"
export_ short-moves.h5 --job small --moves -o bad.csv
expect_status 2 "moves that are not the row's plies"
one_line_error "short-moves.h5: job small: game 7: damaged moves ("
checks=$((checks + 1))
grep -q "stored, the row has" err || fail "moves not the row's plies: $(cat err)"
checks=$((checks + 1))
[[ ! -e bad.csv && ! -e bad.csv.partial ]] || fail "a refused export left bad.csv or bad.csv.partial"

# A file written before the later columns and the moves (made old by h5py) still exports,
# without the nodes columns, its rows from the variant's start.
if "$python" "$tests/../python/tests/helpers.py" make-old e.h5 old.h5 2>err; then
    export_ old.h5
    expect_status 0 "export of an old file"
    check "the old file's export equals the file" "$python" "$tests/export_check.py" old.h5 out
    checks=$((checks + 1))
    head -1 out | grep -q 'nodes_a' && fail "an old file's export has the nodes columns"
else
    fail "making an old file: $(head -c 300 err)"
fi
# One job old, one new: the nodes columns are there, empty in the old job's rows.
if "$python" "$tests/../python/tests/helpers.py" make-old e.h5 mixed.h5 'ab,c=2+x' 2>err; then
    export_ mixed.h5
    expect_status 0 "export of a file with an old job and a new one"
    check "the mixed file's export equals the file" "$python" "$tests/export_check.py" mixed.h5 out
    checks=$((checks + 1))
    head -1 out | grep -q ',nodes_a,nodes_b,choices_a,choices_b$' &&
        grep -q '^"ab,c=2+x",0,.*,,,,$' out &&
        grep -q '^small,0,.*,[0-9][0-9]*,[0-9][0-9]*,[0-9][0-9]*,[0-9][0-9]*$' out ||
        fail "a mixed file's nodes columns: $(head -2 out)"
else
    fail "making a mixed file: $(head -c 300 err)"
fi

# Moves: the column equals the file's moves datasets, for every game, openings included; a
# game's moves played by `anywoli move` end the game as its row says.
export_ m.h5 --moves
expect_status 0 "export --moves"
check "export --moves equals the moves datasets" "$python" "$tests/export_check.py" m.h5 out --moves
row=$(sed -n 2p out)
IFS=' ' read -r -a played <<<"${row##*,}"
"$bin" move --holes 5 "${played[@]}" >moved 2>err
checks=$((checks + 1))
[[ ${row#*,*,} == north,* || ${row#*,*,} == south,* || ${row#*,*,} == draw,* ]] &&
    tail -1 moved | grep -q ' over$' || fail "game 0's exported moves do not end the game: $row"
export_ e.h5 --moves --job small
expect_status 0 "export --moves of the job with moves (from openings)"
check "export --moves --job small equals the moves datasets" \
    "$python" "$tests/export_check.py" e.h5 out --moves

echo "export_test: $((checks - failures)) passed, $failures failed"
[[ $failures -eq 0 ]]
