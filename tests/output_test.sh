#!/usr/bin/env bash
# output_test.sh: a long job's output is never lost or overwritten, whatever else runs.
#
#   output_test.sh PATH/TO/anywoli
#
# For `run`, `tune` and `tables build`: a second process on a live job's output is refused
# (--force and --resume included) with the holder named, and the first job's results survive;
# a file that appears at the output during the job is never replaced (the complete file is
# kept beside it); only regular files are ever replaced (a device, a FIFO, a folder are
# refused with --force too); an unwritable folder and a too-large table are refused before
# any work. For `run` and `tune`: a stop after the final rename (FILE and FILE.journal left)
# is finished by --resume, and a stray FILE.journal.new is removed.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

# A run of a few seconds (alpha-beta), small batches so that its journal grows early.
slow=(--agent-a alphabeta:depth=5 --agent-b alphabeta:depth=4 --games 400 --batch 8 --threads 1
      --quiet)

# start_slow FILE: a slow run into FILE in the background ($pid), once its journal has data.
start_slow() {
    "$bin" run "${slow[@]}" -o "$1" >/dev/null 2>"$1.err" &
    pid=$!
    wait_for_journal "$1.journal" 200 || fail "the run into $1 did not start"
}

# --- run: a second process on a live run's output -----------------------------------------
"$bin" run "${slow[@]}" -o whole.h5 >/dev/null 2>&1 || fail "the reference run failed"
start_slow k.h5
for extra in "" --force --resume "--resume --force"; do
    # shellcheck disable=SC2086
    "$bin" run "${slow[@]}" -o k.h5 $extra >out 2>err
    rc=$?
    expect_status 2 "a second run ($extra) on a live output"
    one_line_error "k.h5 is in use by anywoli run, pid $pid on "
done
check "the live run's journal is still there" test -s k.h5.journal
wait $pid
rc=$?
expect_status 0 "the first run, after the second's attempts"
same_tables whole.h5 k.h5
check "no lock left behind" test ! -e k.h5.lock

# --- run: a file appearing at the output during the run is never replaced ----------------
rm -f k.h5
start_slow k.h5
echo precious >k.h5
wait $pid
rc=$?
expect_status 1 "a run whose output appeared meanwhile"
check "the file that appeared is untouched" grep -qx precious k.h5
check "the message says where the results are" grep -q "k.h5 was created while anywoli run was writing it, and is left as it is; the complete file is k.h5.partial" k.h5.err
check "the journal is kept" test -s k.h5.journal
rm k.h5
"$bin" run "${slow[@]}" -o k.h5 --resume >out 2>err
rc=$?
expect_status 0 "resume once the stray file is moved away"
same_tables whole.h5 k.h5

# With --force, the file there at the start is replaced, but not one put there meanwhile.
echo old >f.h5
"$bin" run "${slow[@]}" -o f.h5 --force >/dev/null 2>f.h5.err &
pid=$!
wait_for_journal f.h5.journal 200
rm f.h5 && echo new >f.h5
wait $pid
rc=$?
expect_status 1 "--force: a file replaced meanwhile"
check "--force: the new file is untouched" grep -qx new f.h5
check "--force: says so" grep -q "f.h5 was replaced while anywoli run was writing it" f.h5.err

# --- only regular files are replaced -------------------------------------------------------
mkfifo fifo.h5
mkdir folder.h5
for node in fifo.h5 folder.h5 /dev/null; do
    "$bin" run --games 10 -o "$node" --force >out 2>err
    rc=$?
    expect_status 2 "-o $node --force"
    one_line_error "$node is a"
    one_line_error "not a regular file: anywoli writes its output only to regular files"
done
check "/dev/null is still a character device" test -c /dev/null
check "the FIFO is still a FIFO" test -p fifo.h5
check "nothing is left beside the FIFO" test ! -e fifo.h5.partial -a ! -e fifo.h5.lock

# --- run: a stop after the final rename, and a stray journal.new --------------------------
rm -f k.h5
start_slow k.h5
ln k.h5.journal saved.journal          # the same file: it sees the seal the run appends
wait $pid
mv saved.journal k.h5.journal          # as if the run was killed right after its rename
before=$(md5sum <k.h5)
"$bin" run "${slow[@]}" -o k.h5 >out 2>err
rc=$?
expect_status 2 "FILE and its journal, without --resume"
one_line_error "k.h5 already exists (--force replaces it)"
"$bin" run "${slow[@]}" -o k.h5 --resume >out 2>err
rc=$?
expect_status 0 "--resume finishes the bookkeeping"
one_line_error "k.h5 is complete (the run had finished when it was stopped); its leftover journal is removed"
check "the journal is gone" test ! -e k.h5.journal
check "the results are untouched" test "$(md5sum <k.h5)" == "$before"
# An unsealed journal beside FILE is not taken for a finished run.
rm -f k.h5
start_slow k.h5
cp k.h5.journal torn.journal
wait $pid
mv torn.journal k.h5.journal
"$bin" run "${slow[@]}" -o k.h5 --resume >out 2>err
rc=$?
expect_status 2 "an unsealed journal beside FILE"
one_line_error "k.h5 already exists (--force replaces it)"
rm -f k.h5 k.h5.journal
# A kill between the journal's link and the removal of its temporary name.
start_slow j.h5
kill -INT $pid
wait $pid
touch j.h5.journal.new
"$bin" run "${slow[@]}" -o j.h5 --resume >out 2>err
rc=$?
expect_status 0 "resume beside a stray journal.new"
check "the stray journal.new is removed" test ! -e j.h5.journal.new
same_tables whole.h5 j.h5

# --- tune ----------------------------------------------------------------------------------
cat >t.cfg <<'EOF_CFG'
seed = 5L;
output = "unused.h5";
agent = "alphabeta:depth=3";
iterations = 60;
pairs = 8;
a = 10.0;
max_plies = 400;
weights = ( { name = "store"; start = 0.3; min = 0.0; max = 3.0; step = 0.2; } );
verification = { pairs = 50; };
EOF_CFG
"$bin" tune t.cfg -o t.h5 --quiet --threads 1 >/dev/null 2>t.h5.err &
pid=$!
wait_for_journal t.h5.journal 200
"$bin" tune t.cfg -o t.h5 --force --quiet >out 2>err
rc=$?
expect_status 2 "a second tuning with --force"
one_line_error "t.h5 is in use by anywoli tune, pid $pid on "
ln t.h5.journal saved.journal
wait $pid
rc=$?
expect_status 0 "the first tuning"
mv saved.journal t.h5.journal
"$bin" tune t.cfg -o t.h5 --resume --quiet >out 2>err
rc=$?
expect_status 0 "tune --resume finishes the bookkeeping"
one_line_error "t.h5 is complete (the tuning had finished when it was stopped); its leftover journal is removed"
check "the tuning journal is gone" test ! -e t.h5.journal

# --- tables build ---------------------------------------------------------------------------
# A build that takes about half a second on one thread, so that a file can appear meanwhile.
tb=(tables build --holes 5 --seeds 3 --max-seeds 14 --threads 1 --quiet)
"$bin" "${tb[@]}" -o whole.tb >/dev/null 2>&1 || fail "the reference tables build failed"
"$bin" "${tb[@]}" -o t.tb >/dev/null 2>t.tb.err &
pid=$!
for ((i = 0; i < 500; i++)); do [[ -e t.tb.lock ]] && break; sleep 0.01; done
"$bin" "${tb[@]}" -o t.tb --force >out 2>err
rc=$?
expect_status 2 "a second tables build with --force"
one_line_error "t.tb is in use by anywoli tables build, pid $pid on "
echo precious >t.tb
wait $pid
rc=$?
expect_status 1 "a tables build whose output appeared meanwhile"
check "tables: the file that appeared is untouched" grep -qx precious t.tb
check "tables: the complete tables are kept" cmp -s whole.tb t.tb.partial
check "tables: says where they are" grep -q "t.tb was created while anywoli tables build was writing it, and is left as it is; the complete file is t.tb.partial" t.tb.err
"$bin" tables build --max-seeds 8 -o /missing/dir/t.tb >out 2>err
rc=$?
expect_status 2 "tables build into a missing folder"
one_line_error "cannot write results to /missing/dir/t.tb: No such file or directory"
SECONDS=0
"$bin" tables build --holes 6 --seeds 4 --max-seeds 40 -o big.tb >out 2>err
rc=$?
expect_status 2 "tables too large for a level"
one_line_error "--max-seeds 40: level 40 alone has"
check "refused before any work" test $SECONDS -lt 5
check "nothing left of the refused build" test ! -e big.tb -a ! -e big.tb.partial -a ! -e big.tb.lock

echo "output: $checks checks, $failures failed"
[[ $failures -eq 0 ]]
