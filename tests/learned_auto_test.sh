#!/usr/bin/env bash
# learned_auto_test.sh: weights=learned on a board the compiled-in set is not for (and
# learned=auto on any board) fits a set on first use, cached like tables=auto.
#
#   learned_auto_test.sh PATH/TO/anywoli PYTHON
#
# On a small board in a temporary $ANYWOLI_CACHE: the first use fits and caches the set (one
# note on stderr); a second use reads the same file (no fit, the same bytes); the fit's file
# is the same for 1 and 2 threads; two runs needing it at once fit it once; a run's fingerprint holds the set's content hash, so that
# a run extended after the cached file changed is refused; a cached file of another variant
# under the board's name is refused with one line; a dry run fits nothing and builds no
# tables (it only lists the jobs); the standard board still plays the
# compiled-in set (no fit, no hash, a known search value).
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
python=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0
export ANYWOLI_CACHE=$tmp/cache

# run ARGS...: the command, stdout in ./out, stderr in ./err, status in $rc.
run() {
    "$bin" "$@" >out 2>err
    rc=$?
}

small=(--holes 5 --seeds 2)
match=("${small[@]}" --agent-b greedy --games 10 --threads 1 --seed 3 --quiet)
strong='strong:nodes=2000'

# --- a dry run lists the job and builds nothing ------------------------------------------
ANYWOLI_CACHE=$tmp/dry run run "${match[@]}" --agent-a "$strong" --agent-b strong -o dry.h5 \
    --dry-run
expect_status 0 "a dry run of strong on 2x5x2"
check "the dry run lists the job" grep -q '^job main: holes=5 seeds=2' out
check "the dry run fits no set and builds no tables" test -z "$(ls -A "$tmp/dry" 2>/dev/null)"
checks=$((checks + 1))
grep -q 'fitted' err && fail "the dry run fitted: $(cat err)"

# --- first use: fitted and cached, with a note -------------------------------------------
OMP_NUM_THREADS=2 run run "${match[@]}" --agent-a "$strong" -o first.h5
expect_status 0 "a run of strong on 2x5x2"
fitted=("$ANYWOLI_CACHE"/learned-*.txt)
check "one fitted file in the cache" test "${#fitted[@]}" -eq 1 -a -f "${fitted[0]}"
checks=$((checks + 1))
grep -q '^anywoli: learned=auto: fitted the evaluation of holes=5 seeds=2 .* in [0-9]* s' err ||
    fail "no note of the fit on stderr: $(head -c 400 err)"
check "the file names its variant" grep -q '^variant holes=5 seeds=2 capture=4 final_four=penultimate' "${fitted[0]}"
cp "${fitted[0]}" fit2.txt
hash=$(sed -n 's/^end //p' fit2.txt)

# --- second use: read, not fitted again ---------------------------------------------------
run run "${match[@]}" --agent-a "$strong" -o second.h5
expect_status 0 "a second run"
checks=$((checks + 1))
grep -q 'fitted' err && fail "fitted again: $(cat err)"
check "the cached file is unchanged" cmp -s fit2.txt "${fitted[0]}"

# --- the same file for 1 thread ----------------------------------------------------------
ANYWOLI_CACHE=$tmp/one OMP_NUM_THREADS=1 run run "${match[@]}" --agent-a "$strong" -o one.h5
expect_status 0 "a run fitting on one thread"
check "the fit on 1 thread is the fit on 2" cmp -s fit2.txt "$tmp/one/$(basename "${fitted[0]}")"

# --- the fingerprint holds the set's hash -------------------------------------------------
if "$python" -c 'import h5py' 2>/dev/null; then
    checks=$((checks + 1))
    files=$("$python" -c '
import sys, h5py
f = h5py.File(sys.argv[1], "r")
for g in f["jobs"].values() if "jobs" in f else [f]:
    for k, v in g.attrs.items():
        if k == "agent_a_files":
            print(v.decode() if isinstance(v, bytes) else v)
' first.h5 2>&1)
    [[ $files == *"learned=$hash"* ]] || fail "agent_a_files is '$files', not learned=$hash"
fi
# The cached file changed (other weights, a valid checksum): extending the run is refused.
"$python" - "${fitted[0]}" <<'PYEOF' || fail "could not rewrite the cached file"
import sys
path = sys.argv[1]
text = open(path).read()
body = text[:text.rindex("end ")]
lines = body.split("\n")
for i, l in enumerate(lines):
    if l.startswith("w bias "):
        lines[i] = "w bias 1 1 1 1"
body = "\n".join(lines)
h = 0xcbf29ce484222325
for b in body.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
open(path, "w").write(body + "end %016x\n" % h)
PYEOF
run run "${match[@]}" --agent-a "$strong" --games 20 -o first.h5 --extend
expect_status 2 "extend after the cached set changed"
one_line_error "a file it names has changed"
cp fit2.txt "${fitted[0]}"
run run "${match[@]}" --agent-a "$strong" --games 20 -o first.h5 --extend
expect_status 0 "extend with the set it was played with"

# --- learned=auto on alphabeta and mcts's weights=learned use the same file ----------------
run run "${match[@]}" --agent-a 'alphabeta:depth=2,weights=learned,learned=auto' -o ab.h5
expect_status 0 "alphabeta with learned=auto"
run run "${match[@]}" --agent-a 'mcts:playouts=50,weights=learned' -o mcts.h5
expect_status 0 "mcts with weights=learned"
check "still one fitted file" test "$(ls "$ANYWOLI_CACHE"/learned-*.txt | wc -l)" -eq 1

# --- two runs needing the same fit at once: one fits (under the lock), the other reads it ---
export ANYWOLI_CACHE=$tmp/both
"$bin" run "${match[@]}" --agent-a "$strong" -o both1.h5 >/dev/null 2>both1.err &
p1=$!
"$bin" run "${match[@]}" --agent-a "$strong" -o both2.h5 >/dev/null 2>both2.err &
p2=$!
wait $p1
rc1=$?
wait $p2
rc=$?
expect_status 0 "the second of two runs at once"
check "the first of two runs at once" test "$rc1" -eq 0
check "one fit for two runs at once" test "$(cat both1.err both2.err | grep -c 'fitted the evaluation')" -eq 1
check "their file is the fit's" cmp -s fit2.txt "$ANYWOLI_CACHE/$(basename "${fitted[0]}")"
export ANYWOLI_CACHE=$tmp/cache

# --- a cached file of another variant under the board's name -------------------------------
other=(--holes 5 --seeds 3)
run run "${other[@]}" --agent-b greedy --games 2 --threads 1 --quiet --agent-a "$strong" -o o.h5
expect_status 0 "a run on 2x5x3"
name3=$(ls -t "$ANYWOLI_CACHE"/learned-*.txt | head -1)
cp "${fitted[0]}" "$name3"
run run "${other[@]}" --agent-b greedy --games 2 --threads 1 --quiet --agent-a "$strong" -o o2.h5
expect_status 2 "a cached file of another variant"
one_line_error "fitted for holes=5 seeds=2"
checks=$((checks + 1))
grep -q "remove it to have it fitted again" err || fail "no advice: $(cat err)"

# --- the standard board: the compiled-in set, no fit, no hash ------------------------------
rm -rf "$ANYWOLI_CACHE"
run search --depth 6 --agent alphabeta:weights=learned,ties=first
expect_status 0 "search on the standard board"
checks=$((checks + 1))
grep -q '^depth 6 value -0.19 south -0.19 nodes 7114 ' out || fail "the compiled-in set's value at depth 6 changed: $(tail -1 out)"
check "no fit on the standard board" test -z "$(ls "$ANYWOLI_CACHE"/learned-* 2>/dev/null)"

echo "learned_auto: $checks checks, $failures failures"
((failures == 0))
