#!/usr/bin/env bash
# writes_test.sh: every file the program writes is made afresh, never through a link, and
# nothing it writes is lost without a word.
#
#   writes_test.sh PATH/TO/anywoli
#
# A symbolic link planted at a name a command writes (OUT.partial, a run's journal on
# --resume, a report's plot, a --dump) never sends the bytes into the file it points to: the
# command refuses (exit 2), or draws its plot elsewhere and renames it into place, and the
# linked file is untouched. A FILE.partial left by a writer killed with kill -9 is
# removed at the next start, with one line saying so. An existing output is refused in one
# wording. A book's `# command:` header stays one line whatever the arguments hold. A
# command whose standard output cannot be written (/dev/full) exits 1 with one line (`play`
# at its first prompt, not after the game). One
# tables file named twice (`-o a.tb --also first-final=./a.tb`) is refused before any work. A
# full disk during `run` is one line, without HDF5's error stack. A config that is not a
# regular file (a FIFO with no writer, a folder), or that @includes one, is one line and exit
# status 2 at once, for `run` and `tune`.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
tmp=$(mktemp -d)
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

# run ARGS...: the command, its stdout in ./out, stderr in ./err, status in $rc.
run() {
    "$bin" "$@" >out 2>err
    rc=$?
}

# refused TEXT ARGS...: the command exits 2 with one line of stderr holding TEXT.
refused() {
    local want=$1
    shift
    run "$@"
    expect_status 2 "anywoli $*"
    one_line_error "$want"
}

# untouched: the planted link's target still holds what it held.
untouched() {
    checks=$((checks + 1))
    [[ $(cat victim) == precious ]] || fail "$1 wrote through a link into another file"
}

printf 'precious\n' >victim
"$bin" run --holes 6 --seeds 3 --games 20 --record-moves --quiet -o ok.h5 >/dev/null 2>err \
    || fail "the small run: $(cat err)"
book=(openings --holes 4 --seeds 2 --plies 2 --window 100)

# --- a link at OUT.partial: refused, nothing written through it ----------------------------
ln -s victim out.csv.partial
refused "out.csv.partial is a symbolic link, not a regular file" export ok.h5 -o out.csv
untouched "export -o"
check "export: no output after the refusal" test ! -e out.csv -a ! -e out.csv.lock
ln -s victim t.tb.partial
refused "t.tb.partial is a symbolic link" tables build --holes 3 --seeds 2 --max-seeds 8 -o t.tb
untouched "tables build"
ln -s victim b.txt.partial
refused "b.txt.partial is a symbolic link" "${book[@]}" -o b.txt
untouched "openings -o"
ln -s victim dump.csv
refused "dump.csv is a symbolic link, not a regular file" fit ok.h5 --dump dump.csv
untouched "fit --dump"
rm -f out.csv.partial t.tb.partial b.txt.partial dump.csv
# run --resume appends to its journal and cuts its torn tail: a link there is refused, even
# to a journal of the same job (another run's, stopped part-way), which is left as it was.
slow=(--agent-a alphabeta:depth=4 --games 400 --batch 4 --threads 1 --quiet)
"$bin" run "${slow[@]}" -o other.h5 >/dev/null 2>&1 &
other=$!
wait_for_journal other.h5.journal 300 || fail "the other run did not start"
kill -INT $other
wait $other
cp other.h5.journal journal.copy
ln -s other.h5.journal j.h5.journal
refused "cannot open j.h5.journal: a symbolic link" run "${slow[@]}" -o j.h5 --resume
check "the linked journal untouched" cmp -s other.h5.journal journal.copy
rm -f j.h5.journal

# A dangling link is refused the same way (it would create the file it points to).
ln -s made-through-link out.csv.partial
refused "out.csv.partial is a symbolic link" export ok.h5 -o out.csv
check "export: nothing created through a dangling link" test ! -e made-through-link
rm -f out.csv.partial

# --- analyze --report: plots drawn where no link can wait, then moved in place -------------
# A link at a plot's name is never written through nor replaced (only a regular file is ever
# replaced, and that with --force): the report is refused whole, nothing put in place.
if command -v gnuplot >/dev/null; then
    mkdir rep
    for p in lengths advantage margins conventions; do ln -s ../victim "rep/$p.png"; done
    run analyze ok.h5 --report rep --force
    expect_status 2 "analyze --report with links at the plots' names"
    untouched "analyze --report"
    check "analyze --report: the links left as they were" test -L rep/lengths.png
    check "analyze --report: no page put in place" test ! -e rep/index.html
    checks=$((checks + 1))
    [[ -z $(find rep -name '.*') ]] || fail "analyze --report left its drawing folder"
    # a plot of the user's without --force: kept, and nothing put in place
    mkdir rep2
    echo mine >rep2/advantage.png
    run analyze ok.h5 --report rep2
    expect_status 2 "analyze --report over a plot of the user's"
    check "analyze --report: the user's plot kept" grep -qx mine rep2/advantage.png
    check "analyze --report: nothing else put in place" test "$(ls rep2)" = advantage.png
else
    echo "writes_test: gnuplot not found, the report's links not checked"
fi

# --- a writer killed with kill -9: its FILE.partial and FILE.lock, next time ---------------
# An export killed part-way leaves its partial CSV and its lock file (the lock itself died
# with it). The next start takes the free lock, removes the stale partial file with one line
# saying so, and writes the whole file; the lock file goes when it ends.
"$bin" run --holes 4 --seeds 2 --games 150000 --quiet -o big.h5 >/dev/null 2>err \
    || fail "the larger run: $(cat err)"
"$bin" export big.h5 -o big.csv 2>/dev/null &
pid=$!
wait_for_journal big.csv.partial 262144 || fail "the export did not start"
kill -9 $pid
wait $pid 2>/dev/null
check "a killed export leaves its partial file and its lock" \
    test -s big.csv.partial -a -e big.csv.lock -a ! -e big.csv
run export big.h5 -o big.csv
expect_status 0 "export after a killed one"
one_line_error "anywoli export: removed big.csv.partial, left by an interrupted export"
checks=$((checks + 1))
[[ $(wc -l <big.csv) -eq 150001 && ! -e big.csv.partial && ! -e big.csv.lock ]] \
    || fail "export after a killed one: $(wc -l <big.csv) lines, $(ls big.csv*)"
rm -f big.csv

# --- one wording for an output that exists --------------------------------------------------
"$bin" export ok.h5 -o out.csv 2>err || fail "export: $(cat err)"
refused "out.csv already exists (--force replaces it)" export ok.h5 -o out.csv
"$bin" tables build --holes 3 --seeds 2 --max-seeds 8 -o t.tb --quiet >/dev/null 2>err \
    || fail "tables build: $(cat err)"
refused "t.tb already exists (--force replaces it)" \
    tables build --holes 3 --seeds 2 --max-seeds 8 -o t.tb
"$bin" "${book[@]}" -o b.txt >/dev/null 2>err || fail "openings: $(cat err)"
refused "b.txt already exists (--force replaces it)" "${book[@]}" -o b.txt
refused "ok.h5 already exists (--force replaces it)" run --holes 4 --seeds 2 --games 2 -o ok.h5

# --- one tables file named twice -------------------------------------------------------------
mkdir sub && ln -s sub lk
for also in ./a.tb "$tmp/a.tb" lk/../a.tb; do
    refused "are one file: each output needs a name of its own" \
        tables build --holes 3 --seeds 2 --max-seeds 8 -o a.tb --also "first-final=$also"
done
refused "sub/a.tb and lk/a.tb are one file" \
    tables build --holes 3 --seeds 2 --max-seeds 8 -o sub/a.tb --also first-final=lk/a.tb
check "a file named twice: nothing left" test -z "$(ls sub; ls a.tb* 2>/dev/null)"

# --- a book's header: the command line, quoted, on one line ---------------------------------
"$bin" "${book[@]}" -o $'b\n0' >/dev/null 2>err || fail "openings -o \$'b\\n0': $(cat err)"
checks=$((checks + 1))
grep -qxF "# command: anywoli openings --holes 4 --seeds 2 --plies 2 --window 100 -o \$'b\\x0a0'" \
    $'b\n0' && ! grep -qx '0' $'b\n0' || fail "openings: the header holds a raw newline: $(head -3 $'b\n0')"
"$bin" "${book[@]}" -o "it's b" >/dev/null 2>err || fail "openings -o \"it's b\": $(cat err)"
eval "set -- $(sed -n 's/^# command: anywoli //p' "it's b")"
checks=$((checks + 1))
[[ $# -eq 11 && ${11} == "it's b" ]] || fail "openings: the header's command does not read back"

# --- standard output that cannot be written: exit 1, one line -------------------------------
lost() {
    "$bin" "$@" >/dev/full 2>err
    rc=$?
    expect_status 1 "anywoli $* >/dev/full"
    one_line_error "cannot write standard output: No space left on device"
}
"$bin" tables build --holes 3 --seeds 2 --final-four first-final --max-seeds 8 -o f.tb --quiet \
    >/dev/null 2>err || fail "tables build: $(cat err)"
cat >tune.cfg <<'CFG'
seed = 3L;
agent = "alphabeta:depth=1";
iterations = 2;
pairs = 1;
a = 5.0;
weights = ( { name = "seeds"; min = -1.0; max = 1.0; step = 0.1; } );
verification = { pairs = 1; };
max_plies = 60;
CFG
lost analyze ok.h5
lost analyze ok.h5 --json
lost replay ok.h5 --job main --game 0
lost export ok.h5
lost tables info t.tb
lost tables compare t.tb f.tb
lost fit ok.h5
lost run --holes 4 --seeds 2 --games 4 --quiet -o run-full.h5
lost tune tune.cfg --quiet -o tune-full.h5
lost "${book[@]}" -o book-full.txt
# Output lost at an early write, not at the final flush: the reason is the write's own, kept
# where it failed (it read "Input/output error" once stdio's errno was gone).
lost perft 3
lost run --help
lost bench --games 50
# `play` waits on a person: the lost board is said at the first prompt, not after the game.
mkfifo wait.fifo   # held open for writing by the command itself: its input never ends
timeout 10 "$bin" play --holes 4 --seeds 2 3<>wait.fifo <wait.fifo >/dev/full 2>err
rc=$?
expect_status 1 "anywoli play >/dev/full, waiting on its input"
one_line_error "anywoli play: cannot write standard output: No space left on device"

# The tuning's report: its plots too are drawn where no link can wait.
if command -v gnuplot >/dev/null; then
    mkdir trep
    ln -s ../victim trep/tuning_weights.png
    ln -s ../victim trep/tuning_matches.png
    run analyze tune-full.h5 --report trep
    expect_status 2 "analyze --report of a tuning, with links at the plots' names"
    untouched "the tuning's report"
    check "the tuning's report: the links left as they were" test -L trep/tuning_weights.png
    check "the tuning's report: no page put in place" test ! -e trep/index.html
    checks=$((checks + 1))
    [[ -z $(find trep -name '.*') ]] || fail "the tuning's report left its drawing folder"
fi

# --- a config that is not a regular file, or @includes one: one line, never a wait ----------
mkfifo fifo.cfg
mkdir folder.cfg
printf 'games = 2;\n' >part.cfg
for inc in fifo.cfg folder.cfg missing.cfg; do
    printf 'seed = 1;\noutput = "i.h5";\n@include "%s"\njobs = ( { holes = 3; seeds = 2; } );\n' \
        "$inc" >"inc-$inc"
done
printf '@include "part.cfg"\n@include "inc-fifo.cfg"\n' >nested.cfg
for cmd in run tune; do
    # timeout: before, both waited for ever on a FIFO with no writer.
    for cfg in fifo.cfg:"fifo.cfg: not a regular file (a FIFO)" \
               inc-fifo.cfg:"inc-fifo.cfg:3: @include: fifo.cfg: not a regular file (a FIFO)" \
               inc-folder.cfg:"inc-folder.cfg:3: @include: folder.cfg: not a regular file (a folder)" \
               inc-missing.cfg:"inc-missing.cfg:3: @include: missing.cfg: cannot open: No such file" \
               nested.cfg:"inc-fifo.cfg:3: @include: fifo.cfg: not a regular file (a FIFO)"; do
        timeout 10 "$bin" $cmd "${cfg%%:*}" -o i.h5 >out 2>err
        rc=$?
        expect_status 2 "anywoli $cmd ${cfg%%:*}"
        one_line_error "anywoli $cmd: ${cfg#*:}"
    done
done
check "a refused config: nothing written" test ! -e i.h5 -a ! -e i.h5.journal
# An @include of a regular file still reads it, as before.
printf 'seed = 1;\noutput = "i.h5";\njobs = ( { holes = 3; seeds = 2;\n@include "part.cfg"\n} );\n' \
    >inc-part.cfg
run run inc-part.cfg --quiet
expect_status 0 "run with an @include"
check "the included setting is read" grep -q '^results: i.h5 (1 job, 2 games' out

# --- a full disk during run: one line, not HDF5's error stack -------------------------------
# A small tmpfs fills while both the journal and the results file grow (HDF5 writes from the
# driver's writer thread). Mounting needs root (as in CI); elsewhere this part is skipped.
mkdir small
if mount -t tmpfs -o size=200k tmpfs small 2>/dev/null; then
    run run --holes 6 --seeds 3 --games 20000 --record-moves --batch 500 --quiet -o small/r.h5
    expect_status 1 "run on a full disk"
    one_line_error "No space left on device"
    check "a full disk: no HDF5 error stack" test "$(grep -c HDF5-DIAG err)" -eq 0
    umount small
else
    echo "writes_test: cannot mount a small tmpfs (root needed): the full disk not checked"
fi

echo "writes_test: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
