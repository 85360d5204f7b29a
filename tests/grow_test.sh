#!/usr/bin/env bash
# grow_test.sh: a run that grows (`run --extend`), slices of a run (`--first-game`) and
# `merge`, end to end.
#
#   grow_test.sh PATH/TO/anywoli PATH/TO/tests
#
# A run of N games extended to M equals a run of M, game for game (tests/same_games.py: every
# row of every games table, the moves, the openings tables, the histograms and summaries), for
# 1 and 2 threads, a job that records its moves, random openings (plies:N) and a book
# (file:PATH), and a config of several jobs; kill -9 during an extend, then the same command,
# equals it too; extend refuses another experiment, a shrink, a slice moved and an incomplete
# file (status 2, one line, FILE unchanged, nothing left beside it). Slices [0, N) and
# [N, M) merged (in any order) equal a run of M; merge refuses other experiments, overlaps,
# gaps, an incomplete file, a job stopped early and an existing OUT (status 2, one line, no
# OUT).
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
tests=$2
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

# same A B WHAT: the two files hold the same games.
same() {
    checks=$((checks + 1))
    "$py" "$tests/same_games.py" "$1" "$2" 2>same.err || fail "$3: $(head -c 400 same.err)"
}

# run_ok FILE ARGS...: a run into FILE that must succeed.
run_ok() {
    local out=$1
    shift
    "$bin" run --quiet -o "$out" "$@" >/dev/null 2>err
    rc=$?
    expect_status 0 "run -o $out $*"
}

# --- extend: N then M equals M --------------------------------------------------------
printf '0\n1\n2\n3 14\n' >book.txt
forms=(
    "--threads 1"
    "--threads 2"
    "--threads 2 --record-moves --agent-b greedy"
    "--threads 1 --openings plies:3 --record-moves"
    "--threads 2 --openings file:book.txt --agent-a greedy"
)
for i in "${!forms[@]}"; do
    read -r -a args <<<"${forms[$i]}"
    run_ok whole$i.h5 --games 90 --seed 7 "${args[@]}"
    run_ok grown$i.h5 --games 30 --seed 7 "${args[@]}"
    run_ok grown$i.h5 --games 90 --seed 7 "${args[@]}" --extend
    same grown$i.h5 whole$i.h5 "extend (${forms[$i]})"
    check "no leftovers (${forms[$i]})" test ! -e grown$i.h5.journal -a ! -e grown$i.h5.partial
done
check "the extended file keeps its start time" test "$("$py" -c '
import h5py, sys
print(h5py.File(sys.argv[1], "r").attrs["started"])' grown0.h5)" != ""
check "the extended file stores the new experiment" \
    "$py" -c 'import h5py, sys; assert "games = 90L" in h5py.File(sys.argv[1], "r").attrs["config"]' grown0.h5

# A config of several jobs, one growing and one not; an extended file extended again.
cat >two.cfg <<'EOF'
seed = 3; output = "two.h5";
jobs = ( { name = "a"; games = 40; record_moves = true; openings = "plies:2"; },
         { name = "b"; games = 20; agent_b = "greedy"; } );
EOF
sed 's/games = 40/games = 100/' two.cfg >two-big.cfg
sed 's/games = 40/games = 70/' two.cfg >two-mid.cfg
run_ok two-whole.h5 two-big.cfg
run_ok two.h5 two.cfg
run_ok two.h5 two-mid.cfg --extend
run_ok two.h5 two-big.cfg --extend
same two.h5 two-whole.h5 "a config's jobs extended twice"

# --- kill -9 during an extend, then the same command ------------------------------------
big=(--games 100000 --seed 11 --batch 500 --threads 1)
run_ok killed-whole.h5 "${big[@]}"
run_ok killed.h5 --games 2000 --seed 11 --batch 500 --threads 1
seeded=$(($(stat -c %s killed.h5) / 4))
before=$(md5sum killed.h5)
"$bin" run --quiet -o killed.h5 "${big[@]}" --extend >/dev/null 2>err &
pid=$!
wait_for_journal killed.h5.journal $((seeded + 200000))
kill -9 $pid
wait $pid 2>/dev/null
check "killed mid-extend: the file is as it was" test "$(md5sum killed.h5)" == "$before"
check "killed mid-extend: the journal is left" test -e killed.h5.journal
"$bin" run --quiet -o killed.h5 "${big[@]}" --resume >/dev/null 2>err
rc=$?
expect_status 2 "--resume of a stopped extend"
run_ok killed.h5 "${big[@]}" --extend
same killed.h5 killed-whole.h5 "kill -9 during an extend, then --extend again"
check "no leftovers after the extend's resume" test ! -e killed.h5.journal

# The comparison itself sees games that differ (another seed, another size).
check "same_games.py sees other games" bash -c "! '$py' '$tests/same_games.py' whole0.h5 killed-whole.h5 2>/dev/null"

# --- extend refusals: FILE unchanged ---------------------------------------------------
refused_extend() {   # WHAT TEXT ARGS...: the extend of grown0.h5 is refused
    local what=$1 text=$2 before
    shift 2
    before=$(md5sum grown0.h5)
    "$bin" run --quiet -o grown0.h5 "$@" --extend >out 2>err
    rc=$?
    expect_status 2 "$what"
    one_line_error "$text"
    check "$what: the file is unchanged" test "$(md5sum grown0.h5)" == "$before"
    check "$what: nothing left beside it" test ! -e grown0.h5.journal -a ! -e grown0.h5.partial
}
refused_extend "another agent" "not the same experiment as the experiment given (job main: agent_b 'random', not 'greedy')" \
    --games 120 --seed 7 --threads 1 --agent-b greedy
refused_extend "another seed" "seed 7, not 8" --games 120 --seed 8
refused_extend "a shrink" "job main holds 90 games; --extend never shrinks a job (given 60)" \
    --games 60 --seed 7
refused_extend "a slice moved" "first_game 0, not 2" --games 120 --seed 7 --first-game 2
refused_extend "adjudication added" "adjudicate false, not true" --games 120 --seed 7 \
    --adjudicate
rm -f nothing.h5
"$bin" run --quiet -o nothing.h5 --games 10 --extend >out 2>err
rc=$?
expect_status 2 "extend of no file"
one_line_error "nothing to extend: nothing.h5 does not exist"
check "extend of no file writes nothing" test ! -e nothing.h5 -a ! -e nothing.h5.journal

# An incomplete file: the .partial of a run stopped by SIGTERM (readable) under a final name.
"$bin" run --quiet -o cut.h5 "${big[@]}" >/dev/null 2>err &
pid=$!
wait_for_journal cut.h5.journal 100000
kill -TERM $pid
wait_stopped $pid 30
cp cut.h5.partial incomplete.h5
before=$(md5sum incomplete.h5)
"$bin" run --quiet -o incomplete.h5 "${big[@]}" --extend >out 2>err
rc=$?
expect_status 2 "extend of an incomplete file"
one_line_error "incomplete.h5: incomplete"
check "the incomplete file is unchanged" test "$(md5sum incomplete.h5)" == "$before"

# --- slices and merge -----------------------------------------------------------------
slice=(--seed 5 --threads 2 --record-moves --openings plies:2 --agent-b greedy)
run_ok all.h5 --games 100 "${slice[@]}"
run_ok s0.h5 --games 40 "${slice[@]}"
run_ok s1.h5 --games 36 --first-game 40 "${slice[@]}"
run_ok s2.h5 --games 24 --first-game 76 "${slice[@]}"
check "a slice records its first game" "$py" -c '
import h5py, sys
g = h5py.File(sys.argv[1], "r")["jobs/main"]
assert g.attrs["first_game"] == 40 and g["games"]["game"][0] == 40' s1.h5
"$bin" export s1.h5 >s1.csv 2>err
rc=$?
expect_status 0 "export of a slice"
check "export numbers a slice's games from its first" grep -q '^main,40,' s1.csv
"$bin" analyze s1.h5 >/dev/null 2>err
rc=$?
expect_status 0 "analyze of a slice"
"$bin" replay s1.h5 --job main --game 41 --quiet >/dev/null 2>err
rc=$?
expect_status 0 "replay of a slice's game"
check "the Python package reads a slice" "$py" -c '
import sys; sys.path.insert(0, sys.argv[2])
import anywoli
r = anywoli.Results(sys.argv[1])
assert list(r.columns("main")["game"][:2]) == [40, 41]
assert len(r.moves("main", 41)) > 0' s1.h5 "$tests/../python"

"$bin" merge -o merged.h5 s2.h5 s0.h5 s1.h5 >out 2>err
rc=$?
expect_status 0 "merge of three slices"
same merged.h5 all.h5 "three slices merged"
check "merge leaves nothing beside OUT" test ! -e merged.h5.journal -a ! -e merged.h5.partial
"$bin" merge -o merged2.h5 s0.h5 s1.h5 >/dev/null 2>err
rc=$?
expect_status 0 "merge of two slices"
run_ok two-slices.h5 --games 76 "${slice[@]}"
same merged2.h5 two-slices.h5 "two slices merged"
run_ok merged2.h5 --games 100 "${slice[@]}" --extend
same merged2.h5 all.h5 "a merged file extended"

refused_merge() {   # WHAT TEXT FILES...: merge -o bad.h5 FILES is refused
    local what=$1 text=$2
    shift 2
    "$bin" merge -o bad.h5 "$@" >out 2>err
    rc=$?
    expect_status 2 "$what"
    one_line_error "anywoli merge: "
    one_line_error "$text"
    check "$what: no OUT" test ! -e bad.h5 -a ! -e bad.h5.journal -a ! -e bad.h5.partial
}
run_ok other.h5 --games 36 --first-game 40 --seed 5 --threads 2 --record-moves \
    --openings plies:2 --agent-b random
refused_merge "another experiment" "other.h5: not the same experiment as s0.h5 (job main: agent_b 'random', not 'greedy')" \
    s0.h5 other.h5
run_ok over.h5 --games 20 --first-game 30 "${slice[@]}"
refused_merge "an overlap" "s0.h5 and over.h5 both hold games 30..39 of job main" s0.h5 over.h5 s1.h5
refused_merge "a gap" "no file holds games 40..75 of job main" s0.h5 s2.h5
refused_merge "the same file twice" "both hold games 0..39" s0.h5 s0.h5
refused_merge "an incomplete file" "incomplete.h5: incomplete" incomplete.h5 killed.h5
cp s1.h5 stopped.h5
"$py" -c 'import h5py, sys; h5py.File(sys.argv[1], "r+")["jobs/main"].attrs["stopped"] = 1' stopped.h5
refused_merge "a job stopped early" "stopped.h5: job main stopped on its sequential test" s0.h5 stopped.h5
before=$(md5sum merged.h5)
"$bin" merge -o merged.h5 s0.h5 s1.h5 s2.h5 >out 2>err
rc=$?
expect_status 2 "merge over an existing OUT"
one_line_error "merged.h5 already exists (--force replaces it)"
check "the existing OUT is unchanged" test "$(md5sum merged.h5)" == "$before"
"$bin" merge -o merged.h5 --force s0.h5 s1.h5 s2.h5 >out 2>err
rc=$?
expect_status 0 "merge --force over an existing OUT"
same merged.h5 all.h5 "merge --force"

echo "$checks checks, $failures failed"
[[ $failures -eq 0 ]]
