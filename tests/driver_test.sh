#!/usr/bin/env bash
# driver_test.sh: `anywoli run` and `anywoli replay` end to end.
#
#   driver_test.sh PATH/TO/anywoli CONFIGS_DIR
#
# kill -9 at several moments (during play, during the rebuild of a resume) then --resume: the
# same tables as an uninterrupted run; SIGINT and SIGTERM: a clean stop, a readable .partial
# file and a message on how to resume; the first SIGTERM abandons a search of 10^8 playouts
# within seconds (its tree not reserved up front), and a stop in the middle of a batch keeps
# its whole games, which --resume completes to the uninterrupted tables; a job of 4e8 games
# from random openings stops as fast (its openings are written with its games, not ahead of
# them), and resumes to the uninterrupted tables; a search tree beyond
# the memory limit is a one-line failure; existing files never overwritten without --force; an
# unwritable path and a bad config touch nothing; a full disk (a file size limit) is a clear
# error that keeps the finished batches; progress lines; replay of stored games; every config
# in configs/ loads.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
configs=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

quick=(--games 80000 --seed 42 --batch 2000 --quiet)

# --- an uninterrupted run ----------------------------------------------------------------
"$bin" run "${quick[@]}" -o full.h5 >out 2>err
rc=$?
expect_status 0 "uninterrupted run"
check "summary names the job" grep -q '^main  *80000 ' out
check "summary names the file" grep -q '^results: full.h5 (1 job, 80000 games' out
check "no leftovers" test ! -e full.h5.partial -a ! -e full.h5.journal

# --- kill -9 at several moments, then --resume --------------------------------------------
# The journal grows by about 12 KB a batch (2000 games), to about 480 KB.
"$bin" run "${quick[@]}" -o k.h5 >/dev/null 2>&1 &
pid=$!
wait_for_journal k.h5.journal 100000
kill -9 $pid
wait $pid 2>/dev/null
check "a killed run leaves its journal" test -s k.h5.journal
check "a killed run leaves no results file" test ! -e k.h5
"$bin" run "${quick[@]}" -o k.h5 --resume >/dev/null 2>&1 &
pid=$!
sleep 0.02                                   # most likely while the file is rebuilt
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
"$bin" run "${quick[@]}" -o k.h5 --resume >/dev/null 2>&1 &
pid=$!
wait_for_journal k.h5.journal 250000
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
check "still not complete after three kills" test ! -e k.h5
"$bin" run "${quick[@]}" -o k.h5 --resume >out 2>err
rc=$?
expect_status 0 "resume after kill -9"
check "the resume counted games from the journal" grep -q 'resumed from the journal' out
same_tables full.h5 k.h5
check "no leftovers after resume" test ! -e k.h5.partial -a ! -e k.h5.journal

# --- SIGINT and SIGTERM -------------------------------------------------------------------
resume=()
size=100000
for sig in INT TERM; do
    "$bin" run "${quick[@]}" -o s.h5 "${resume[@]}" >out 2>err &
    pid=$!
    wait_for_journal s.h5.journal $size
    kill -$sig $pid
    wait $pid
    rc=$?
    [[ $sig == INT ]] && want=130 || want=143
    expect_status $want "SIG$sig"
    check "SIG$sig: says how to resume" grep -q "stopped by SIG$sig: [0-9]* of 80000 games are kept in s.h5.partial; continue with: anywoli run .* --resume" err
    check "SIG$sig: the .partial file is readable" h5dump -H s.h5.partial >/dev/null
    resume=(--resume)
    size=250000
done
"$bin" run "${quick[@]}" -o s.h5 --resume >/dev/null 2>err
rc=$?
expect_status 0 "resume after SIGTERM"
same_tables full.h5 s.h5

# --- a stop in the middle of a search, and of a batch ------------------------------------
# One search of 10^8 playouts takes hours: the first SIGTERM abandons it within seconds. Its
# tree grows as it is used: no gigabytes reserved up front (the address space stays small).
"$bin" run --agent-a mcts:playouts=100000000 --games 1 --threads 1 --quiet -o m.h5 >out 2>err &
pid=$!
sleep 1
vm=$(awk '/^VmSize:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
if grep -qa __asan_init "$bin"; then
    echo "note: AddressSanitizer reserves terabytes of address space; its size is not checked" >&2
else
    checks=$((checks + 1))
    [[ $vm -gt 0 && $vm -lt 500000 ]] || fail "mcts:playouts=1e8: $vm kB of address space after 1 s"
fi
kill -TERM $pid
wait_stopped $pid 5
expect_status 143 "SIGTERM during a long search"
check "SIGTERM during a search: the game in flight is not kept" \
    grep -q "stopped by SIGTERM: 0 of 1 games are kept in m.h5.partial; continue with: anywoli run .* --resume" err
# A tree that outgrows the memory allowed is a failure (status 1) that names the agents;
# the game is not kept.
if ! grep -qa __asan_init "$bin"; then
    (ulimit -v 250000; exec "$bin" run --agent-a mcts:playouts=100000000 --games 1 --threads 1 \
        --quiet -o n.h5 >out 2>err)
    rc=$?
    expect_status 1 "mcts tree beyond the memory limit"
    check "out of memory: one line naming the agents" \
        grep -q "^anywoli run: job 'main': out of memory in a search (mcts:playouts=100000000 vs random) (the finished batches are kept in n.h5.journal" err
fi
# A stop part-way through a batch keeps the batch's whole games from its start (no batch
# completes here): the journal holds them, and --resume plays exactly the rest.
part=(--agent-a alphabeta:depth=6 --agent-b greedy --games 100 --batch 100 --threads 2 --seed 3)
"$bin" run "${part[@]}" --quiet -o b-full.h5 >/dev/null 2>&1
ANYWOLI_PROGRESS_SECONDS=0.05 "$bin" run "${part[@]}" -o b.h5 >out 2>err &
pid=$!
for ((i = 0; i < 600; i++)); do
    [[ $(grep -o '[0-9]*/100 games' err | tail -1 | cut -d/ -f1) -ge 10 ]] 2>/dev/null && break
    sleep 0.05
done
kill -TERM $pid
wait_stopped $pid 5
expect_status 143 "SIGTERM part-way through a batch"
kept=$(grep -o 'stopped by SIGTERM: [0-9]* of 100 games' err | awk '{print $4}')
checks=$((checks + 1))
[[ ${kept:-0} -gt 0 && ${kept:-0} -lt 100 ]] || fail "a stop in the batch kept ${kept:-no} games ($(tail -c 300 err))"
"$bin" run "${part[@]}" --quiet -o b.h5 --resume >out 2>err
rc=$?
expect_status 0 "resume after a stop part-way through a batch"
check "the resume took the kept games from the journal" grep -q "${kept:-x} resumed from the journal" out
same_tables b-full.h5 b.h5

# --- openings of a long job: written with the games that name them ------------------------
# A job of 4e8 games from random openings (2e8 pairs) starts playing at once: its openings
# table is not written ahead of its games, so SIGTERM stops it within seconds and the file
# holds the openings of the pairs played, not gigabytes. A resume writes them again, and a
# run stopped at batches that split pairs ends with the uninterrupted run's tables.
"$bin" run --games 400000000 --openings plies:4 --threads 1 --quiet -o big.h5 >out 2>err &
pid=$!
wait_for_journal big.h5.journal 1000
sleep 1
kill -TERM $pid
wait_stopped $pid 5
expect_status 143 "SIGTERM a job of 4e8 games from random openings"
checks=$((checks + 1))
[[ $(stat -c %s big.h5.partial 2>/dev/null || echo 0) -lt 50000000 ]] \
    || fail "a stopped job of 4e8 games: big.h5.partial holds $(stat -c %s big.h5.partial) bytes"
kept=$(grep -o 'stopped by SIGTERM: [0-9]* of' err | awk '{print $4}')
rows=$(h5ls big.h5.partial/jobs/main/openings | grep -o '{[0-9]*' | tr -d '{')
checks=$((checks + 1))
[[ -n $kept && $rows -eq $(((kept + 1) / 2)) ]] \
    || fail "a stopped job: ${rows:-no} openings rows for ${kept:-no} games (one a pair begun)"
opening_job=(--games 10001 --openings plies:3 --batch 301 --seed 8 --quiet)
"$bin" run "${opening_job[@]}" -o of.h5 >/dev/null 2>&1
"$bin" run "${opening_job[@]}" -o oi.h5 >/dev/null 2>&1 &
pid=$!
wait_for_journal oi.h5.journal 20000
kill -9 $pid
wait $pid 2>/dev/null
check "a job from random openings killed before its end" test ! -e oi.h5
"$bin" run "${opening_job[@]}" -o oi.h5 --resume >/dev/null 2>err
rc=$?
expect_status 0 "resume of a job from random openings"
same_tables of.h5 oi.h5

# --- existing files, unwritable paths, bad configs ----------------------------------------
before=$(md5sum full.h5)
"$bin" run --games 10 -o full.h5 >out 2>err
rc=$?
expect_status 2 "existing file"
one_line_error "full.h5 already exists (--force replaces it)"
check "existing file untouched" test "$(md5sum full.h5)" == "$before"
check "no .partial made" test ! -e full.h5.partial -a ! -e full.h5.journal
# --resume of a finished file: nothing to resume, said as such (it used to say the file
# exists, as if --resume had not been given); the file untouched.
"$bin" run "${quick[@]}" -o full.h5 --resume >out 2>err
rc=$?
expect_status 2 "--resume of a finished file"
one_line_error "anywoli run: nothing to resume: full.h5 is finished (no full.h5.partial or full.h5.journal is left); --force replaces it"
check "a finished file is left as it is by --resume" test "$(md5sum full.h5)" == "$before"
check "--resume of a finished file makes nothing" test ! -e full.h5.partial -a ! -e full.h5.journal
touch left.h5.partial
"$bin" run --games 10 -o left.h5 >out 2>err
rc=$?
expect_status 2 "left .partial"
one_line_error "left.h5.partial is left from an interrupted run (--resume continues it, --force starts again)"
"$bin" run --games 10 -o left.h5 --force --quiet >out 2>err
rc=$?
expect_status 0 "--force over a left .partial"
"$bin" run --games 10 -o left.h5 --force --quiet >out 2>err
rc=$?
expect_status 0 "--force over a results file"
for path in /nonexistent-anywoli/x.h5 full.h5/x.h5 /proc/anywoli.h5; do
    "$bin" run --games 10 -o "$path" >out 2>err
    rc=$?
    expect_status 2 "unwritable $path"
    one_line_error "cannot write results to $path"
done
check "nothing made next to an unwritable path" test ! -e full.h5/x.h5.journal
printf 'seed = 1;\noutput = "full.h5";\njobs = ( { games = 10; holes = 99; } );\n' >bad.cfg
"$bin" run bad.cfg --force >out 2>err
rc=$?
expect_status 2 "bad config"
one_line_error "bad.cfg:3: holes: 99 is out of range (2 to 32) (job job1)"
check "a bad config touches nothing" test "$(md5sum full.h5)" == "$before" -a ! -e full.h5.partial
# A file of another kind is named for what it is, with the command that reads it: a results
# file, and a tuning (it has weights).
"$bin" run full.h5 >out 2>err
rc=$?
expect_status 2 "a results file given as the config"
one_line_error 'full.h5: a results file (HDF5), not a config: `anywoli analyze full.h5` reads it'
printf 'seed = 1;\noutput = "t.h5";\nagent = "alphabeta:depth=2";\nweights = ( { name = "store"; start = 1.0; min = 0.0; max = 2.0; step = 0.1; } );\n' >tuning.cfg
"$bin" run tuning.cfg >out 2>err
rc=$?
expect_status 2 "a tuning given as the config"
one_line_error 'tuning.cfg:4: weights: this is a tuning (it has `weights`), not an experiment: `anywoli tune tuning.cfg` reads it'
check "a file of another kind touches nothing" test "$(md5sum full.h5)" == "$before" -a ! -e t.h5
"$bin" run --holes 1 -o q.h5 >out 2>err
rc=$?
expect_status 2 "bad quick option"
one_line_error "holes"
check "bad option: no file" test ! -e q.h5 -a ! -e q.h5.journal

# --- a full disk: a file size limit makes writes fail part-way -----------------------------
(ulimit -f 64; exec "$bin" run "${quick[@]}" -o d.h5 >out 2>err)
rc=$?
expect_status 1 "file size limit"
one_line_error "File too large"
check "full disk: no results file" test ! -e d.h5
check "full disk: the journal is kept" test -e d.h5.journal
"$bin" run "${quick[@]}" -o d.h5 --resume >/dev/null 2>err
rc=$?
expect_status 0 "resume after a full disk"
same_tables full.h5 d.h5

# --- progress -----------------------------------------------------------------------------
ANYWOLI_PROGRESS_SECONDS=0.2 "$bin" run --games 30000 -o p.h5 >out 2>err
rc=$?
expect_status 0 "run with progress"
check "plain progress lines" grep -q '^run: \[1/1\] main: [0-9]*/30000 games ([0-9.]*%), [0-9]* games/s, [0-9:?]* left' err
# An agent against itself: the figure is South's advantage, over pairs (each from the start).
check "progress shows the figure" grep -q "left; South's advantage [-+][0-9.]* \[[-+][0-9.]*, [-+][0-9.]*\] over [0-9]* pairs$" err
# The time left counts a job like one timed (the same agents on the same board) at that one's
# rate, and names a job like none timed yet instead of guessing it from the random games.
cat >eta.cfg <<'EOF'
seed = 1L;
output = "eta.h5";
jobs = ( { name = "r"; agent_a = "random"; agent_b = "random"; games = 100000L; },
         { name = "r2"; agent_a = "random"; agent_b = "random"; games = 20000L;
           final_four = "lottery"; },
         { name = "s"; agent_a = "alphabeta:depth=2"; agent_b = "random"; games = 40L; } );
EOF
ANYWOLI_PROGRESS_SECONDS=0.2 "$bin" run eta.cfg -o eta.h5 >out 2>err
rc=$?
expect_status 0 "run with progress over unlike jobs"
check "a job like none timed is named, not guessed" \
    grep -q '^run: \[1/3\] r: .* [0-9:]* left + 1 job not timed yet; ' err
"$bin" run --games 30000 -o p.h5 --force --quiet >out 2>err
check "--quiet: nothing on stderr" test ! -s err
if script -qc true /dev/null >/dev/null 2>&1; then
    script -qc "$bin run --games 30000 -o t.h5" /dev/null >tty.out 2>&1
    check "live progress on a terminal" grep -q $'\r\033\[Krun: \[1/1\] main: ' tty.out
fi

# --- a config with sweeps, and replay -----------------------------------------------------
cat >sweep.cfg <<'EOF'
# a sweep over boards and conventions
seed = 5000000000L;
output = "sweep.h5";
defaults = { games = 300; seeds = 3; };
jobs = (
  { name = "board"; holes = [5, 7]; final_four = ["first-final", "lottery"]; },
  { name = "std"; variant = "anywoli"; games = 40; max_plies = 500; agent_b = "random:"; }
);
EOF
"$bin" run sweep.cfg --quiet >out 2>err
rc=$?
expect_status 0 "sweep config"
for job in board-holes=5-final_four=first-final board-holes=7-final_four=lottery std; do
    check "summary row $job" grep -q "^$job " out
done
for g in 0 1 17 39; do
    "$bin" replay sweep.h5 --job std --game $g >out 2>err
    rc=$?
    expect_status 0 "replay std $g"
    check "replay std $g matches" grep -q '^check: the stored row matches' out
done
"$bin" replay sweep.h5 --job board-holes=5-final_four=lottery --game 299 --quiet >out 2>err
rc=$?
expect_status 0 "replay a sweep job"
check "replay prints every move" bash -c "'$bin' replay sweep.h5 --job std --game 3 | grep -c ' S \| N ' | grep -qv '^0$'"
"$bin" replay sweep.h5 --job nosuch --game 1 >out 2>err
rc=$?
expect_status 2 "replay an unknown job"
one_line_error "no job 'nosuch' (its jobs: board-holes=5-final_four=first-final, "
"$bin" replay sweep.h5 --job std --game 40 >out 2>err
rc=$?
expect_status 2 "replay beyond the table"
one_line_error "game: 40 is beyond the 40 games stored for job std"
# A stored row the reader accepts but the game does not give (passes off by one): the games
# table's checksum refuses it (status 2, one line); in a file without the checksum (written
# before it), replay names the field, both values, and fails with status 1.
cp sweep.h5 tampered.h5
if /usr/bin/python3 - tampered.h5 >want 2>&1 <<'EOF_PY'
import sys
import h5py
with h5py.File(sys.argv[1], "r+") as f:
    games = f["jobs/std/games"]
    row = games[5]
    old = int(row["passes"])
    row["passes"] = old + 1 if old < row["plies"] else old - 1
    games[5] = row
    print(f"anywoli replay: passes: replayed {old}, stored {int(row['passes'])}")
EOF_PY
then
    "$bin" replay tampered.h5 --job std --game 5 --quiet >out 2>err
    rc=$?
    expect_status 2 "replay a tampered row, the checksum kept"
    one_line_error "tampered.h5: job std: damaged results file (its games table's checksum is"
    /usr/bin/python3 -c 'import h5py, sys; del h5py.File(sys.argv[1], "r+")["jobs/std"].attrs["games_checksum"]' tampered.h5
    "$bin" replay tampered.h5 --job std --game 5 --quiet >out 2>err
    rc=$?
    expect_status 1 "replay a tampered row"
    check "replay names the tampered field" grep -qxF "$(cat want)" err
    check "replay counts the fields" grep -q 'game 5 of job std does not match its stored row (1 field)$' err
else
    echo "skipped: the tampered-row replay needs python3-h5py ($(tail -1 want))"
fi
"$bin" replay bad.cfg --job std --game 1 >out 2>err
rc=$?
expect_status 2 "replay a file that is not HDF5"

# --- openings: kill -9 and --resume, replay, bad specs and books --------------------------
# Random plies per pair (greedy against random) and every 2-ply line (the random fast path):
# killed and resumed, the same tables and openings tables as an uninterrupted run.
cat >open.cfg <<'EOF'
seed = 5; output = "open.h5";
defaults = { holes = 8; seeds = 3; games = 6000; };
jobs = ( { name = "plies"; agent_a = "greedy"; openings = "plies:4"; },
         { name = "all"; openings = "all:2"; } );
EOF
"$bin" run open.cfg --batch 500 --quiet -o open-full.h5 >/dev/null 2>err
rc=$?
expect_status 0 "openings: an uninterrupted run"
"$bin" run open.cfg --batch 500 --quiet >/dev/null 2>&1 &
pid=$!
wait_for_journal open.h5.journal 60000
kill -9 $pid
wait $pid 2>/dev/null
check "openings: the killed run is not complete" test ! -e open.h5
"$bin" run open.cfg --batch 500 --quiet --resume --threads 1 >out 2>err
rc=$?
expect_status 0 "openings: resume after kill -9"
same_tables open-full.h5 open.h5
lines=$(h5ls open.h5/jobs/all/openings | grep -o '{[0-9]*/' | tr -d '{/')
for g in 0 1 2501 5999; do
    for job in plies all; do
        "$bin" replay open.h5 --job $job --game $g >out 2>err
        rc=$?
        expect_status 0 "replay $job $g from its opening"
        check "replay $job $g matches" grep -q '^check: the stored row matches' out
        want=$((g / 2))
        [[ $job == all ]] && want=$((g / 2 % lines))
        check "replay $job $g names its opening" grep -q "^opening $want of " out
    done
done
# A book of a position and a move list; its games replay too.
printf '# a position\n0,5,5,5,5,4,4,4/4,4,4,4,4,4,4,4 0/0 N - -\n\n3 10\n' >book.txt
"$bin" run --holes 8 --games 8 --openings file:book.txt --agent-b greedy -o book.h5 \
    --quiet >out 2>err
rc=$?
expect_status 0 "a book of openings"
for g in 0 3 5; do
    "$bin" replay book.h5 --job main --game $g --quiet >out 2>err
    rc=$?
    expect_status 0 "replay book game $g"
done
for spec in bogus plies:0 all:65 file:nosuch.txt; do
    "$bin" run --games 4 --openings "$spec" -o never.h5 >out 2>err
    rc=$?
    expect_status 2 "--openings $spec"
    one_line_error "anywoli run: --openings: "
done
printf '3 14\n5 99\n' >badbook.txt
"$bin" run --games 4 --openings file:badbook.txt -o never.h5 >out 2>err
rc=$?
expect_status 2 "a bad book line"
one_line_error "--openings: badbook.txt:2: "
printf 'seed = 1; output = "never.h5";\njobs = ( { games = 4;\n  openings = "file:badbook.txt"; } );\n' >badopen.cfg
"$bin" run badopen.cfg >out 2>err
rc=$?
expect_status 2 "a bad book in a config"
one_line_error "badopen.cfg:3: openings: badbook.txt:2: "
check "bad openings write nothing" test ! -e never.h5 -a ! -e never.h5.partial
# A config's book named by a relative path is read beside the config, wherever the command runs
# from; one given by --openings is read from the current folder, as the shell's paths are (its
# errors name --openings, not the config), and so is the config's output (config.h, "Paths").
mkdir beside && printf '3 14\n' >beside/near.txt
printf 'seed = 1; output = "near.h5";\njobs = ( { games = 4;\n  openings = "file:near.txt"; } );\n' \
    >beside/near.cfg
"$bin" run beside/near.cfg --quiet >out 2>err
rc=$?
expect_status 0 "a book beside its config, run from another folder"
check "the book beside the config is played" test -e near.h5
"$bin" run beside/near.cfg --openings file:near.txt --force --quiet >out 2>err
rc=$?
expect_status 2 "--openings file:PATH is read from the current folder"
one_line_error "anywoli run: --openings: near.txt: cannot open: No such file or directory (job job1)"
check "a config's output is written in the current folder" test ! -e beside/near.h5
"$bin" run beside/near.cfg --openings file:beside/near.txt --force --quiet >out 2>err
rc=$?
expect_status 0 "--openings file:PATH from the current folder, with a config"
# A book is the only path a config resolves from its own folder: a file an agent spec names
# (tables=PATH) is taken from the current folder, as the config's output is.
"$bin" tables build --holes 3 --seeds 2 --max-seeds 8 -o t3.tables >/dev/null 2>&1
printf 'seed = 1; output = "tab.h5";\njobs = ( { games = 2; holes = 3; seeds = 2;\n  agent_a = "alphabeta:depth=1,tables=t3.tables"; } );\n' \
    >beside/tab.cfg
"$bin" run beside/tab.cfg --quiet >out 2>err
rc=$?
expect_status 0 "an agent's tables=PATH in a config, from the current folder"
check "the config's output in the current folder" test -e tab.h5 -a ! -e beside/tab.h5
mv t3.tables beside/
"$bin" run beside/tab.cfg --quiet --force >out 2>err
rc=$?
expect_status 2 "an agent's tables=PATH is not read beside the config"
one_line_error "beside/tab.cfg:3: agent_a: agent 'alphabeta': tables=t3.tables: cannot open"

# --- move records: kill -9 and --resume, replay, bad values -------------------------------
# Random games (the agents' loop, not the fast path, keeps the moves) and greedy ones from
# random openings: killed and resumed, the same tables and move records as an uninterrupted
# run; a job without record_moves keeps none and still replays.
cat >moves.cfg <<'EOF'
seed = 9; output = "mv.h5";
defaults = { holes = 8; seeds = 3; games = 6000; record_moves = true; };
jobs = ( { name = "random"; },
         { name = "greedy"; agent_a = "greedy"; openings = "plies:3"; },
         { name = "plain"; games = 400; record_moves = false; } );
EOF
"$bin" run moves.cfg --batch 400 --quiet -o mv-full.h5 >/dev/null 2>err
rc=$?
expect_status 0 "moves: an uninterrupted run"
"$bin" run moves.cfg --batch 400 --quiet >/dev/null 2>&1 &
pid=$!
wait_for_journal mv.h5.journal 150000
kill -9 $pid
wait $pid 2>/dev/null
check "moves: the killed run is not complete" test ! -e mv.h5
"$bin" run moves.cfg --batch 400 --quiet --resume --threads 1 >out 2>err
rc=$?
expect_status 0 "moves: resume after kill -9"
check "moves: the resume took games from the journal" grep -q 'resumed from the journal' out
same_tables mv-full.h5 mv.h5
check "moves: the tables hold the moves" grep -q 'DATASET "/jobs/greedy/moves"' \
    <(game_tables mv.h5)
check "moves: none for a job without record_moves" \
    test -z "$(h5ls mv.h5/jobs/plain | grep '^moves')"
for g in 0 1 2999 5999; do
    for job in random greedy; do
        "$bin" replay mv.h5 --job $job --game $g --quiet >out 2>err
        rc=$?
        expect_status 0 "moves: replay $job $g"
        check "moves: replay $job $g checks the stored moves" \
            grep -q '^check: the stored moves match the replay' out
    done
done
"$bin" replay mv.h5 --job plain --game 7 --quiet >out 2>err
rc=$?
expect_status 0 "moves: replay of a job without moves"
check "moves: no moves to check" test -z "$(grep 'stored moves' out)"
# A stored move changed so that the moves after it break the rules: the reader refuses them
# as damage, one line naming the job, the game and the ply (status 2).
cp mv.h5 mv-bad.h5
if /usr/bin/python3 - 2>/dev/null <<'EOF'
import h5py
with h5py.File("mv-bad.h5", "r+") as f:
    g = f["jobs/greedy"]
    at = int(g["moves_index"][6]) + 4
    g["moves"][at] = (int(g["moves"][at]) + 1) % 16
EOF
then
    "$bin" replay mv-bad.h5 --job greedy --game 6 --quiet >out 2>err
    rc=$?
    expect_status 2 "moves: replay of a changed move"
    one_line_error "mv-bad.h5: job greedy: game 6: damaged moves (ply "
fi
# Game 6's moves made game 7's (the same opening, the colours swapped; its row's plies
# theirs): moves the rules allow, but not the game's. replay names the first ply where they
# part from the game played again, and fails (status 1).
cp mv.h5 mv-bad.h5
if /usr/bin/python3 - 2>/dev/null <<'EOF'
import h5py, numpy as np
with h5py.File("mv-bad.h5", "r+") as f:
    g = f["jobs/greedy"]
    ix, mv = g["moves_index"][()].astype("i8"), g["moves"][()]
    seven = mv[ix[7]:ix[8]]
    moves = np.concatenate([mv[:ix[6]], seven, mv[ix[7]:]]).astype("u1")
    ix[7:] += len(seven) - (ix[7] - ix[6])
    ix = ix.astype("u8")
    del g["moves"], g["moves_index"]
    g["moves"], g["moves_index"] = moves, ix
    row = g["games"][6]
    row["plies"] = len(seven)
    g["games"][6] = row
    del g.attrs["games_checksum"]   # as in a file written before it: replay's own check
EOF
then
    "$bin" replay mv-bad.h5 --job greedy --game 6 --quiet >out 2>err
    rc=$?
    expect_status 1 "moves: replay of another game's moves"
    check "moves: the first move that differs is named" grep -q "^anywoli replay: mv-bad.h5: job greedy: game 6: ply [0-9]*: stored move [SN][0-9]*, the replay moves [SN][0-9]*$" err
fi
# Damaged offsets (a game's end before its start, one beyond the moves) are refused before
# anything is read: one line naming the job and the game, exit status 2.
for damage in 'ix[7] = ix[8] + 1' 'ix[8] = len(g["moves"]) + 1'; do
    cp mv.h5 mv-bad.h5
    if /usr/bin/python3 - "$damage" 2>/dev/null <<'EOF'
import sys, h5py
with h5py.File("mv-bad.h5", "r+") as f:
    g = f["jobs/greedy"]
    ix = g["moves_index"]
    exec(sys.argv[1])
EOF
    then
        "$bin" replay mv-bad.h5 --job greedy --game 7 --quiet >out 2>err
        rc=$?
        expect_status 2 "moves: replay with $damage"
        one_line_error "mv-bad.h5: job greedy: game 7: damaged moves (moves_index gives moves"
    fi
done
# The quick form: --record-moves, written into the stored config.
"$bin" run --record-moves --games 50 --holes 6 --quiet -o mq.h5 >out 2>err
rc=$?
expect_status 0 "moves: run --record-moves"
check "moves: the stored config says record_moves" \
    grep -q 'record_moves = true;' <(h5dump -a /config mq.h5)
check "moves: 51 offsets for 50 games" grep -q '{51/' <(h5ls mq.h5/jobs/main/moves_index)
# A bad value: one line naming file, line and key; exit status 2; nothing made.
for bad in 'record_moves = 1;' 'record_moves = "yes";' 'record_moves = [true];'; do
    printf 'seed = 1; output = "mb.h5";\njobs = ( { games = 10;\n %s } );\n' "$bad" >mb.cfg
    "$bin" run mb.cfg >out 2>err
    rc=$?
    expect_status 2 "moves: bad value $bad"
    one_line_error "mb.cfg:3: record_moves: expected"
    check "moves: a bad value makes no file" test ! -e mb.h5 -a ! -e mb.h5.journal
done

# --- help, and the configs in configs/ ----------------------------------------------------
for cmd in run replay; do
    "$bin" $cmd --help >out 2>err
    rc=$?
    expect_status 0 "$cmd --help"
    check "$cmd --help usage" grep -q "^usage: anywoli $cmd" out
done
for cfg in "$configs"/*.cfg; do
    [[ $(basename "$cfg") == tune* ]] && continue   # tunings: tests/tune_test.sh
    "$bin" run "$cfg" --dry-run >out 2>err
    rc=$?
    expect_status 0 "config $cfg"
    check "$cfg lists its jobs" grep -q '^experiment: [0-9]* jobs\?, ' out
done
"$bin" run sweep.cfg --dry-run >out 2>err
check "--dry-run lists the sweep" grep -q '^job board-holes=7-final_four=lottery: holes=7 seeds=3 .*final_four=lottery.*; random vs random; 300 games$' out

if [[ $failures -ne 0 ]]; then
    echo "$failures of $checks checks failed" >&2
    exit 1
fi
echo "all $checks checks passed"
