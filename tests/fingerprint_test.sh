#!/usr/bin/env bash
# fingerprint_test.sh: every input that makes a game belongs to the experiment, and nothing
# else does.
#
#   fingerprint_test.sh PATH/TO/anywoli
#
# A weights file (learned=FILE) changed between two slices, before --extend, or before a
# --resume after kill -9 makes another experiment: merge, extend and resume refuse it (status
# 2, one line, nothing written). A weights file cut short or edited is refused, naming the
# file. A network file (net=FILE) likewise: merge and extend refuse one changed, and one cut
# short is refused naming the file. A limit that changes no move (the external agent's timeout) may change on --resume
# and --extend.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

# weights FILE BIAS [HOLES]: a weights file of the 6-hole board (or HOLES), its end line's
# checksum right.
weights() {
    "$py" - "$1" "$2" "${3:-6}" <<'PY'
import sys
body = (f"anywoli-learned 1\nname t\nabout a test\nholes {sys.argv[3]}\ncapture 4\n"
        f"w bias {sys.argv[2]} 0 0 0\nw me.h0.b1 1 0.5 0.2 0.1\nw op.h3.b2 -1 0.5 2 0.1\n").encode()
h = 0xcbf29ce484222325
for c in body:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
open(sys.argv[1], "wb").write(body + b"end %016x\n" % h)
PY
}

# refused WHAT TEXT FILE ARGS...: `anywoli ARGS` exits 2 with one line holding TEXT, and FILE
# (if not "-") is left as it was.
refused() {
    local what=$1 text=$2 file=$3
    shift 3
    local before=none
    [[ $file != - && -e $file ]] && before=$(md5sum <"$file")
    "$bin" "$@" >/dev/null 2>err
    rc=$?
    expect_status 2 "$what"
    one_line_error "$text"
    if [[ $file != - ]]; then
        local after=none
        [[ -e $file ]] && after=$(md5sum <"$file")
        checks=$((checks + 1))
        [[ $after == "$before" ]] || fail "$what: $file changed"
    fi
}

spec="alphabeta:depth=3,weights=learned,learned=L.txt"
board=(--holes 6 --seeds 4 --agent-b alphabeta:depth=2 --seed 5 --quiet)

# --- slices merged, one played with other weights --------------------------------------
weights L.txt 0.5
"$bin" run "${board[@]}" --agent-a "$spec" --games 20 -o s1.h5 >/dev/null 2>err
rc=$?
expect_status 0 "the first slice"
weights L.txt 3
"$bin" run "${board[@]}" --agent-a "$spec" --games 20 --first-game 20 -o s2.h5 >/dev/null 2>err
rc=$?
expect_status 0 "the second slice, other weights"
refused "merge of slices played with two weights files" "agent_a's files hashed" merged.h5 \
    merge -o merged.h5 s1.h5 s2.h5
check "merge refused: no output" test ! -e merged.h5

# --- extend after the weights changed ----------------------------------------------------
refused "extend with other weights" "a file it names has changed" s1.h5 \
    run "${board[@]}" --agent-a "$spec" --games 40 -o s1.h5 --extend
check "extend refused: nothing left beside the file" test ! -e s1.h5.journal
weights L.txt 0.5
"$bin" run "${board[@]}" --agent-a "$spec" --games 40 -o s1.h5 --extend >/dev/null 2>err
rc=$?
expect_status 0 "extend with the same weights"

# --- a network file changed: merge and extend refuse it -----------------------------------
nspec="alphabeta:depth=2,weights=net,net=N.net"
"$py" "$here/net_file.py" N.net 6 0.5
"$bin" run "${board[@]}" --agent-a "$nspec" --games 10 -o n1.h5 >/dev/null 2>err
rc=$?
expect_status 0 "a slice with a network file"
"$py" "$here/net_file.py" N.net 6 3
"$bin" run "${board[@]}" --agent-a "$nspec" --games 10 --first-game 10 -o n2.h5 >/dev/null 2>err
rc=$?
expect_status 0 "the second slice, another network under the same name"
refused "merge of slices played with two network files" "agent_a's files hashed" nmerged.h5 \
    merge -o nmerged.h5 n1.h5 n2.h5
refused "extend with another network" "a file it names has changed" n1.h5 \
    run "${board[@]}" --agent-a "$nspec" --games 20 -o n1.h5 --extend
"$py" "$here/net_file.py" N.net 6 0.5
"$bin" run "${board[@]}" --agent-a "$nspec" --games 20 -o n1.h5 --extend >/dev/null 2>err
rc=$?
expect_status 0 "extend with the same network"
head -c 100 N.net >cut.net
refused "a network file cut short" "cut.net" - \
    run "${board[@]}" --agent-a "${nspec/N.net/cut.net}" --games 2 -o ncut.h5

# --- kill -9, the weights changed, --resume ---------------------------------------------
long=(--holes 6 --seeds 4 --agent-b alphabeta:depth=4 --seed 5 --quiet --games 200000
      --threads 1 --batch 64)
"$bin" run "${long[@]}" --agent-a "$spec" -o killed.h5 >/dev/null 2>&1 &
pid=$!
wait_for_journal killed.h5.journal 20000
kill -9 $pid
wait $pid 2>/dev/null
check "killed: the journal is left" test -e killed.h5.journal
weights L.txt 3
refused "resume with other weights" "the journal's 'files_a=" killed.h5.journal \
    run "${long[@]}" --agent-a "$spec" -o killed.h5 --resume

# --- weights files cut short or edited ---------------------------------------------------
weights L.txt 0.5
head -c 100 L.txt >cut.txt
refused "a weights file cut short" "cut.txt: no end line" - \
    run "${board[@]}" --agent-a "${spec/L.txt/cut.txt}" --games 2 -o cut.h5
sed 's/^w bias 0.5/w bias 0.6/' L.txt >edited.txt
refused "a weights file edited" "edited.txt: the end line's checksum" - \
    run "${board[@]}" --agent-a "${spec/L.txt/edited.txt}" --games 2 -o edited.h5

# --- a limit that changes no move: the external agent's timeout --------------------------
ext() { echo "external:cmd=$bin,arg=engine,arg=--agent,arg=alphabeta:depth=2,timeout=$1"; }
slow=(--holes 6 --seeds 4 --agent-b alphabeta:depth=3 --seed 5 --quiet --games 200000
      --threads 1 --batch 16)
"$bin" run "${slow[@]}" --agent-a "$(ext 10)" -o ext.h5 >/dev/null 2>&1 &
pid=$!
wait_for_journal ext.h5.journal 8000
kill -9 $pid
wait $pid 2>/dev/null
check "killed: the external run's journal is left" test -e ext.h5.journal
"$bin" run "${slow[@]}" --agent-a "$(ext 300)" -o ext.h5 --resume >/dev/null 2>err &
pid=$!
wait_stopped $pid 2
checks=$((checks + 1))
[[ $rc -eq 124 && ! -s err ]] ||
    fail "--resume with timeout=300 instead of 10: exit status $rc, still playing after 2 s expected ($(head -c 300 err))"
rm -f ext.h5.journal ext.h5.partial ext.h5.lock
"$bin" run "${board[@]}" --agent-a "$(ext 10)" --games 10 -o ext2.h5 >/dev/null 2>err
rc=$?
expect_status 0 "an external agent's run"
"$bin" run "${board[@]}" --agent-a "$(ext 300)" --games 20 -o ext2.h5 --extend >/dev/null 2>err
rc=$?
expect_status 0 "--extend with timeout=300 instead of 10"
refused "--extend with another depth (a limit that changes moves)" "not the same experiment" \
    ext2.h5 run "${board[@]}" --agent-a "$(ext 300 | sed 's/depth=2/depth=3/')" --games 40 \
    -o ext2.h5 --extend

# --- a tuning resumed after its agent's weights changed ------------------------------------
weights L7.txt 0.5 7
cat >tune.cfg <<'CFG'
seed = 3L;
variant = "yit-nuri";
agent = "alphabeta:depth=2,weights=learned,learned=L7.txt";
iterations = 100000;
pairs = 2;
a = 5.0;
weights = ( { name = "seeds"; min = -1.0; max = 1.0; step = 0.1; } );
verification = { pairs = 2; };
CFG
"$bin" tune tune.cfg -o tune.h5 --threads 1 --quiet >/dev/null 2>&1 &
pid=$!
wait_for_journal tune.h5.journal 2000
kill -9 $pid
wait $pid 2>/dev/null
check "killed: the tuning's journal is left" test -e tune.h5.journal
weights L7.txt 3 7
refused "a tuning resumed with other weights" "different" tune.h5.journal \
    tune tune.cfg -o tune.h5 --resume

echo "fingerprint: $checks checks, $failures failures"
((failures == 0))
