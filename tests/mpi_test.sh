#!/usr/bin/env bash
# mpi_test.sh: `anywoli run` under mpirun (a build with -DANYWOLI_MPI=ON), --extend included.
#
#   mpi_test.sh PATH/TO/anywoli MPIEXEC
#
# For 2 and 3 ranks: the same tables as one process, for random games and for searching
# agents, in several jobs; the file says how many ranks wrote it. A killed MPI run (kill -9
# of one rank, which makes mpirun end them all) resumes with other rank counts, or with no
# MPI at all, to the uninterrupted tables; SIGTERM stops every rank cleanly, within seconds
# in the middle of searches, keeping the whole games at the start of the batch in flight. Ranks
# given another run are refused, tables files of one name and other content in the ranks'
# folders among them. Errors come
# once, from rank 0; progress lines likewise. `anywoli tune` shares each match's pairs
# between ranks: the same trajectory and matches as one process, and resume after a kill.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$(realpath "$1")
mpiexec=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0
mpi_launcher "$mpiexec"

# ranks_attr FILE: the root's `ranks` attribute.
ranks_attr() {
    h5dump -a /ranks "$1" | grep '(0)' | awk '{print $2}'
}

# An experiment with random games (the engine's fast path) and searching agents, in jobs of
# sizes that do not divide evenly between ranks, from the start and from openings; two jobs
# keep their moves (record_moves), which same_tables compares too.
cat >mixed.cfg <<'EOF'
seed = 11L;
output = "mixed.h5";
defaults = { variant = "anywoli"; max_plies = 3000; };
jobs = (
  { name = "random"; games = 5003L; },
  { name = "search"; games = 301L; agent_a = "alphabeta:depth=2"; agent_b = "greedy";
    record_moves = true; },
  { name = "small"; games = 7L; holes = 4; seeds = 2; agent_a = "mcts:playouts=50"; },
  { name = "open-all"; games = 503L; openings = "all:2"; record_moves = true; },
  { name = "open-plies"; games = 101L; agent_a = "greedy"; openings = "plies:3"; }
);
EOF

"$bin" run mixed.cfg --batch 97 --quiet -o one.h5 >out 2>err
rc=$?
expect_status 0 "one process"
for np in 2 3; do
    "${mpi[@]}" -np $np "$bin" run mixed.cfg --batch 97 --threads 1 --quiet -o np$np.h5 >out 2>err
    rc=$?
    expect_status 0 "$np ranks"
    same_tables one.h5 np$np.h5
    check "$np ranks: the file records them" test "$(ranks_attr np$np.h5)" == "$np"
    check "$np ranks: one summary" test "$(grep -c '^results: ' out)" -eq 1
    check "$np ranks: the summary names them" grep -q "on $np ranks x 1 thread" out
done
# Adaptive batches (sized from timings, so differently in each run) change nothing either.
"${mpi[@]}" -np 2 "$bin" run mixed.cfg --threads 2 --quiet -o adaptive.h5 >out 2>err
rc=$?
expect_status 0 "2 ranks, adaptive batches"
same_tables one.h5 adaptive.h5

# --- jobs that stop on their sequential tests (sprt), one after the other: the same pair and
# games for every rank count (same_tables compares the stop too), batches splitting pairs.
cat >sprt.cfg <<'EOF'
seed = 3L;
output = "sprt.h5";
defaults = { openings = "plies:2"; sprt = "0,10"; games = 1001L; };
jobs = (
  { name = "h1"; agent_a = "alphabeta:depth=2"; agent_b = "alphabeta:depth=1"; },
  { name = "h0"; agent_a = "alphabeta:depth=1"; agent_b = "greedy"; }
);
EOF
"$bin" run sprt.cfg --batch 7 --quiet -o sprt1.h5 >out 2>err
rc=$?
expect_status 0 "sequential stops, one process"
for j in h1 h0; do
    check "job $j stopped on its sequential test" grep -q "stop_pair" <(h5dump -A -g "/jobs/$j" sprt1.h5)
done
for np in 2 3; do
    "${mpi[@]}" -np $np "$bin" run sprt.cfg --batch 7 --threads 1 --quiet -o sprt$np.h5 >out 2>err
    rc=$?
    expect_status 0 "sequential stops, $np ranks"
    same_tables sprt1.h5 sprt$np.h5
done

# --- an adaptive root design (root_design): rank 0 tells the other ranks each round's lines;
# the same games, rounds and stop for every rank count, batches splitting pairs and rounds.
# rounds_of FILE: the race job's root_round_first, its values.
rounds_of() {
    h5dump -a /jobs/race/root_round_first "$1" | grep -E '^ *\([0-9]+\)'
}
cat >race.cfg <<'EOF'
seed = 3L;
output = "race.h5";
jobs = (
  { name = "race"; games = 1200L; agent_a = "alphabeta:depth=2"; agent_b = "alphabeta:depth=2";
    openings = "all:1"; root_design = "4,25"; }
);
EOF
"$bin" run race.cfg --batch 7 --quiet -o race1.h5 >out 2>err
rc=$?
expect_status 0 "root design, one process"
check "the root design stopped on its half-width" \
    grep -q "root_halfwidth" <(h5dump -A -g /jobs/race race1.h5)
for np in 2 3; do
    "${mpi[@]}" -np $np "$bin" run race.cfg --batch 7 --threads 1 --quiet -o race$np.h5 >out 2>err
    rc=$?
    expect_status 0 "root design, $np ranks"
    same_tables race1.h5 race$np.h5
    check "root design, $np ranks: the same rounds" cmp <(rounds_of race1.h5) <(rounds_of race$np.h5)
done

# --- run --extend under mpirun: part of every job's games (one process), grown by 2 ranks to
# the whole experiment, equals one process's run of the whole; a refusal is said once.
sed 's/games = 5003L/games = 2001L/; s/games = 301L/games = 100L/; s/games = 503L/games = 50L/' \
    mixed.cfg >part.cfg
"$bin" run part.cfg --batch 97 --quiet -o grown.h5 >out 2>err
rc=$?
expect_status 0 "part of the experiment, one process"
"${mpi[@]}" -np 2 "$bin" run mixed.cfg --batch 97 --threads 1 --quiet -o grown.h5 --extend \
    >out 2>err
rc=$?
expect_status 0 "2 ranks: --extend"
same_tables one.h5 grown.h5
"${mpi[@]}" -np 2 "$bin" run part.cfg --seed 12 --quiet -o grown.h5 --extend >out 2>err
rc=$?
expect_status 2 "2 ranks: --extend of another experiment"
check "the extend's refusal is said once" test "$(grep -c 'not the same experiment' err)" -eq 1

# --- kill -9 of a rank (1, then 0): mpirun ends them all; --resume with 3 ranks, then 1 ---
# Long enough that a signal sent once the journal has grown lands well before the end, even
# on a many-core machine: one thread a rank, 400,000 games (a few seconds on 3 ranks). The
# single-process runs, whose timing does not matter, take every core.
quick=(--games 400000 --seed 5 --batch 1000 --threads 1 --quiet)
"$bin" run "${quick[@]}" --threads "$(nproc)" -o full.h5 >/dev/null 2>&1
"${mpi[@]}" -np 2 "$bin" run "${quick[@]}" -o k.h5 >/dev/null 2>&1 &
pid=$!
wait_for_journal k.h5.journal 60000
kill -9 "$(rank_pid k.h5 1)"
wait $pid 2>/dev/null
check "a killed MPI run leaves its journal" test -s k.h5.journal
check "a killed MPI run leaves no results file" test ! -e k.h5
# The resumed journal starts at what the killed run left (often past 200 kB on a fast
# machine, where the ranks write on while mpirun ends them): wait until the new ranks have
# added to it, so the kill lands in their run, not before it.
left=$(stat -c %s k.h5.journal)
"${mpi[@]}" -np 3 "$bin" run "${quick[@]}" -o k.h5 --resume >/dev/null 2>&1 &
pid=$!
wait_for_journal k.h5.journal $((left + 100000))
kill -9 "$(rank_pid k.h5 0)"
wait $pid 2>/dev/null
check "still not complete after two kills" test ! -e k.h5
"$bin" run "${quick[@]}" --threads "$(nproc)" -o k.h5 --resume >out 2>err
rc=$?
expect_status 0 "resume of an MPI run in one process"
check "the resume counted games from the journal" grep -q 'resumed from the journal' out
same_tables full.h5 k.h5

# --- SIGTERM to every rank: a clean stop, then --resume with 2 ranks ----------------------
"${mpi[@]}" -np 2 "$bin" run "${quick[@]}" -o s.h5 >out 2>err &
pid=$!
wait_for_journal s.h5.journal 60000
pkill -TERM -f "anywoli run .*-o s.h5" 2>/dev/null
wait $pid
rc=$?
checks=$((checks + 1))
[[ $rc -ne 0 ]] || fail "SIGTERM: mpirun exited 0"
check "SIGTERM: says how to resume under mpirun, once" test "$(grep -c 'continue with: mpirun -np 2 anywoli run .* --resume' err)" -eq 1
check "SIGTERM: the .partial file is readable" h5dump -H s.h5.partial >/dev/null
"${mpi[@]}" -np 2 "$bin" run "${quick[@]}" -o s.h5 --resume >out 2>err
rc=$?
expect_status 0 "resume after SIGTERM with 2 ranks"
same_tables full.h5 s.h5

# --- SIGTERM to every rank in the middle of searches and of a batch ---------------------
# term_ranks OUTPUT: SIGTERM to each rank of the run writing OUTPUT (as srun or scancel do).
term_ranks() {
    local r
    for r in 0 1; do
        kill -TERM "$(rank_pid "$1" $r)" 2>/dev/null
    done
}
# Searches of 10^8 playouts on both ranks: every rank stops within seconds.
"${mpi[@]}" -np 2 "$bin" run --agent-a mcts:playouts=100000000 --games 2 --threads 1 --quiet \
    -o deep.h5 >out 2>err &
pid=$!
# Rank 0 creates the journal after both ranks have started and it catches signals; a signal
# before that (a slow start on a loaded machine) would end a rank by the default action.
for ((i = 0; i < 600; i++)); do
    [[ -e deep.h5.journal ]] && rank_pid deep.h5 1 >/dev/null && break
    sleep 0.05
done
sleep 1
term_ranks deep.h5
wait_stopped $pid 10
checks=$((checks + 1))
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "SIGTERM in a search under mpirun: exit status $rc"
checks=$((checks + 1))
[[ $(grep -c 'stopped by SIGTERM: 0 of 2 games are kept' err) -eq 1 ]] ||
    fail "SIGTERM in a search: nothing kept, said once ($(tail -c 300 err))"
# A signal to one rank alone (rank 1, then rank 0) reaches the other within seconds, however
# long its search would run; rank 0 says once that the run stopped, and how to resume it
# under mpirun.
for r in 1 0; do
    "${mpi[@]}" -np 2 "$bin" run --agent-a mcts:playouts=100000000 --games 2 --threads 1 \
        --quiet -o alone$r.h5 >out 2>err &
    pid=$!
    for ((i = 0; i < 600; i++)); do
        [[ -e alone$r.h5.journal ]] && rank_pid alone$r.h5 1 >/dev/null && break
        sleep 0.05
    done
    sleep 1
    kill -TERM "$(rank_pid alone$r.h5 $r)"
    wait_stopped $pid 10
    checks=$((checks + 1))
    [[ $rc -ne 0 && $rc -ne 124 ]] || fail "SIGTERM to rank $r alone: exit status $rc"
    check "SIGTERM to rank $r alone: rank 0 says so once, with mpirun in the hint" \
        test "$(grep -c "^anywoli run: stopped by SIGTERM: 0 of 2 games .*continue with: mpirun -np 2 anywoli run .* --resume" err)" -eq 1
done
# A stop part-way through the only batch keeps its whole games from the start, in rank
# order; --resume with 2 ranks then ends as one uninterrupted process.
part=(--agent-a alphabeta:depth=8 --agent-b greedy --games 100 --batch 100 --threads 1 --seed 3)
"$bin" run "${part[@]}" --quiet -o b-one.h5 >/dev/null 2>&1
ANYWOLI_PROGRESS_SECONDS=0.05 "${mpi[@]}" -np 2 "$bin" run "${part[@]}" -o b.h5 >out 2>err &
pid=$!
for ((i = 0; i < 1200; i++)); do
    [[ $(grep -o '[0-9]*/100 games' err | tail -1 | cut -d/ -f1) -ge 10 ]] 2>/dev/null && break
    sleep 0.05
done
term_ranks b.h5
wait_stopped $pid 10
kept=$(grep -o 'stopped by SIGTERM: [0-9]* of 100 games' err | awk '{print $4}')
checks=$((checks + 1))
[[ ${kept:-0} -gt 0 && ${kept:-0} -lt 100 ]] || fail "2 ranks: a stop in the batch kept ${kept:-no} games ($(tail -c 300 err))"
"${mpi[@]}" -np 2 "$bin" run "${part[@]}" --quiet -o b.h5 --resume >out 2>err
rc=$?
expect_status 0 "2 ranks: resume after a stop part-way through a batch"
same_tables b-one.h5 b.h5

# --- a frozen rank (SIGSTOP: a stalled node) ends the job, the journal kept ---------------
# After --peer-timeout seconds unheard, rank 0 says so on one line (with the resume hint)
# and every rank ends; --resume then completes the uninterrupted tables.
"${mpi[@]}" -np 2 "$bin" run "${quick[@]}" --batch 100 --peer-timeout 2 -o frozen.h5 >out 2>err &
pid=$!
wait_for_journal frozen.h5.journal 20000
kill -STOP "$(rank_pid frozen.h5 1)"
wait_stopped $pid 30
checks=$((checks + 1))
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "a frozen rank: exit status $rc"
checks=$((checks + 1))
[[ $(grep -c '^anywoli' err) -eq 1 ]] &&
    grep -q '^anywoli run: rank 1 has not been heard from for [0-9]* s.*continue with: mpirun -np 2 anywoli run .* --resume$' err ||
    fail "a frozen rank: expected one line from rank 0, got: $(head -c 400 err)"
check "a frozen rank: the journal is kept" test -s frozen.h5.journal -a ! -e frozen.h5
end_ranks frozen.h5
"${mpi[@]}" -np 2 "$bin" run "${quick[@]}" -o frozen.h5 --resume >out 2>err
rc=$?
expect_status 0 "resume after a frozen rank"
same_tables full.h5 frozen.h5
# SIGTERM while a rank is frozen (the time limit of a batch system): honoured within seconds
# (the other rank cannot answer), before the peer timeout.
"${mpi[@]}" -np 2 "$bin" run "${quick[@]}" --batch 100 --peer-timeout 600 -o frozen2.h5 \
    >out 2>err &
pid=$!
wait_for_journal frozen2.h5.journal 20000
kill -STOP "$(rank_pid frozen2.h5 1)"
kill -TERM "$(rank_pid frozen2.h5 0)"
wait_stopped $pid 30
expect_status 143 "SIGTERM with a frozen rank"
checks=$((checks + 1))
[[ $(grep -c '^anywoli' err) -eq 1 ]] &&
    grep -q '^anywoli run: stopped by SIGTERM, but another rank did not answer' err ||
    fail "SIGTERM with a frozen rank: expected one line from rank 0, got: $(head -c 400 err)"
check "SIGTERM with a frozen rank: the journal is kept" test -s frozen2.h5.journal
end_ranks frozen2.h5

# --- errors once, from rank 0; progress from rank 0 alone ---------------------------------
"${mpi[@]}" -np 3 "$bin" run mixed.cfg -o one.h5 >out 2>err
rc=$?
expect_status 2 "existing file under mpirun"
check "the refusal is said once" test "$(grep -c 'one.h5 already exists' err)" -eq 1
printf 'seed = 1;\noutput = "x.h5";\njobs = ( { games = 10; holes = 99; } );\n' >bad.cfg
"${mpi[@]}" -np 3 "$bin" run bad.cfg >out 2>err
rc=$?
expect_status 2 "bad config under mpirun"
check "the config error is said once" test "$(grep -c 'bad.cfg:3: holes' err)" -eq 1
check "a bad config makes no file" test ! -e x.h5 -a ! -e x.h5.journal
ANYWOLI_PROGRESS_SECONDS=0.1 "${mpi[@]}" -np 2 "$bin" run --games 100000 --batch 500 -o p.h5 \
    >out 2>err
rc=$?
expect_status 0 "progress run"
check "progress lines for the whole run" grep -q '^run: \[1/1\] main: [0-9]*/100000 games' err
# One rank reports: its counts (the whole run's) only grow; a second reporter's would not.
check "progress lines from one rank" \
    awk -F'[ /]' '/^run:/ { if ($4 + 0 < last) exit 1; last = $4 + 0 }' err

# --- ranks given other work (each reads its own config and command line): refused -------
# refused_mpmd LABEL TEXT: the last MPMD launch stopped with status 2, one line from rank 0
# holding TEXT, and no results file, .partial or journal.
refused_mpmd() {
    expect_status 2 "$1"
    checks=$((checks + 1))
    [[ $(grep -c '^anywoli' err) -eq 1 ]] && grep -q "^anywoli [a-z]*: .*$2" err ||
        fail "$1: expected one line from rank 0 with '$2', got: $(head -c 400 err)"
    check "$1: no file" test ! -e cfg.h5 -a ! -e cfg.h5.partial -a ! -e cfg.h5.journal
}
mkdir -p n0 n1
printf 'seed = 1L;\noutput = "cfg.h5";\njobs = ( { games = 1000L; } );\n' >n0/exp.cfg
sed 's/seed = 1L/seed = 2L/' n0/exp.cfg >n1/exp.cfg
"${mpi[@]}" -np 1 "$bin" run n0/exp.cfg --quiet : -np 1 "$bin" run n1/exp.cfg --quiet >out 2>err
rc=$?
refused_mpmd "configs with other seeds" "rank 1 was given another run than rank 0"
"${mpi[@]}" -np 2 "$bin" run n0/exp.cfg --quiet : -np 1 "$bin" run n0/exp.cfg --seed 2 \
    --quiet >out 2>err
rc=$?
refused_mpmd "--seed on one rank" "rank 2 was given another run than rank 0"
"${mpi[@]}" -np 1 "$bin" run n0/exp.cfg --quiet : -np 1 "$bin" run n0/exp.cfg --agent-a greedy \
    --quiet >out 2>err
rc=$?
refused_mpmd "an agent on one rank" "rank 1 was given another run than rank 0"
# One config naming tables=t.tb, each rank in its own folder where t.tb is another file: the
# tables' content is in the run's fingerprint, so the ranks do not mix games of two tables.
mkdir -p w0 w1
"$bin" tables build --max-seeds 5 --all-levels --threads 1 --quiet -o w0/t.tb >/dev/null 2>err &&
    "$bin" tables build --max-seeds 6 --all-levels --threads 1 --quiet -o w1/t.tb >/dev/null 2>err
rc=$?
expect_status 0 "two tables files for the ranks' folders"
printf 'seed = 1L;\noutput = "cfg.h5";\njobs = ( { games = 200L; agent_a = "alphabeta:depth=2,tables=t.tb"; } );\n' >w0/exp.cfg
cp w0/exp.cfg w1/exp.cfg
"${mpi[@]}" -np 1 -wdir w0 "$bin" run exp.cfg --quiet : -np 1 -wdir w1 "$bin" run exp.cfg \
    --quiet >out 2>err
rc=$?
expect_status 2 "tables files of one name and other content on the ranks"
checks=$((checks + 1))
[[ $(grep -c '^anywoli' err) -eq 1 ]] && grep -q "rank 1 was given another run than rank 0" err ||
    fail "tables of other content on rank 1: expected one line from rank 0, got: $(head -c 400 err)"
check "tables of other content on rank 1: no file" test ! -e w0/cfg.h5 -a ! -e w0/cfg.h5.partial \
    -a ! -e w0/cfg.h5.journal
cp w0/t.tb w1/t.tb
"${mpi[@]}" -np 1 -wdir w0 "$bin" run exp.cfg --quiet : -np 1 -wdir w1 "$bin" run exp.cfg \
    --quiet >out 2>err
rc=$?
expect_status 0 "the same tables file in both folders"
check "the same tables: rank 0's file is written" test -s w0/cfg.h5
# Threads, --batch, -o and --quiet are rank 0's to decide (or the rank's own): accepted.
"${mpi[@]}" -np 1 "$bin" run n0/exp.cfg --threads 2 --batch 100 --quiet : -np 1 "$bin" run \
    n0/exp.cfg --threads 1 -o elsewhere.h5 >out 2>err
rc=$?
expect_status 0 "ranks with their own threads and -o"
check "rank 0's output is written" test -s cfg.h5 -a ! -e elsewhere.h5
check "each rank's threads are recorded" grep -q '(0): 2, 1$' <(h5dump -a /rank_threads cfg.h5)
check "the summary counts every rank's threads" grep -q 'on 2 ranks, 3 threads in all' out
rm -f cfg.h5
# Another build on one rank: a copy of the binary whose commit reads otherwise.
commit=$("$bin" --version | sed 's/.*(\(.*\))/\1/')
/usr/bin/python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
old = sys.argv[3].encode()
new = old[:-1] + (b"y" if old.endswith(b"x") else b"x")
open(sys.argv[2], "wb").write(data.replace(old, new))' "$bin" other-anywoli "$commit"
chmod +x other-anywoli
"${mpi[@]}" -np 1 "$bin" run n0/exp.cfg --quiet : -np 1 ./other-anywoli run n0/exp.cfg \
    --quiet >out 2>err
rc=$?
refused_mpmd "another build on one rank" "rank 1 runs another build of anywoli than rank 0's"

# --- tune: each match's pairs shared between ranks ---------------------------------------
cat >tune.cfg <<'EOF'
seed = 21L;
output = "unused.h5";
agent = "alphabeta:depth=1";
iterations = 40;
pairs = 5;
max_plies = 300;
a = 10.0;
weights = (
  { name = "store"; start = 0.3; min = 0.0; max = 3.0; step = 0.2; },
  { name = "seeds"; start = -0.3; min = -1.0; max = 1.0; step = 0.1; }
);
verification = { pairs = 70; };
EOF
"$bin" tune tune.cfg -o t1.h5 --quiet >out 2>err
rc=$?
expect_status 0 "tune, one process"
for np in 2 3; do
    "${mpi[@]}" -np $np "$bin" tune tune.cfg -o t$np.h5 --threads 1 --quiet >out 2>err
    rc=$?
    expect_status 0 "tune, $np ranks"
    same_tuning t1.h5 t$np.h5
    check "tune, $np ranks: one summary" test "$(grep -c '^tuned spec: ' out)" -eq 1
    check "tune, $np ranks: the summary names them" grep -q "on each of $np ranks" out
done
# Killed (kill -9 of rank 1) part-way, resumed with 3 ranks.
sed 's/iterations = 40;/iterations = 400;/' tune.cfg >tune-long.cfg
"$bin" tune tune-long.cfg -o long1.h5 --quiet >/dev/null 2>&1
"${mpi[@]}" -np 2 "$bin" tune tune-long.cfg -o tk.h5 --threads 1 --quiet >/dev/null 2>&1 &
pid=$!
wait_for_journal tk.h5.journal 3000
kill -9 "$(rank_pid tk.h5 1)"
wait $pid 2>/dev/null
check "a killed MPI tuning leaves its journal" test -s tk.h5.journal -a ! -e tk.h5
"${mpi[@]}" -np 3 "$bin" tune tune-long.cfg -o tk.h5 --threads 1 --quiet --resume >out 2>err
rc=$?
expect_status 0 "tune resumed with 3 ranks"
check "the resume resumed" grep -q 'resumed from the journal' out
same_tuning long1.h5 tk.h5

# A tuning whose seed differs on one rank: refused like a run.
sed 's/seed = 21L;/seed = 22L;/' tune.cfg >tune-other.cfg
"${mpi[@]}" -np 1 "$bin" tune tune.cfg -o cfg.h5 --quiet : -np 1 "$bin" tune tune-other.cfg \
    -o cfg.h5 --quiet >out 2>err
rc=$?
refused_mpmd "tunings with other seeds" "rank 1 was given another tuning than rank 0"

echo "mpi_test: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
