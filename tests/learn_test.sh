#!/usr/bin/env bash
# learn_test.sh: `anywoli learn` (the learned evaluation's data and fit) end to end.
#
#   learn_test.sh PATH/TO/anywoli PYTHON
#
# A sampling is the same for any thread count and its slices add up (the rows compared by
# h5py); positions the tables hold are labelled exactly by them; a fit
# reports its errors and writes weights that alpha-beta plays (learned=FILE) and a C table;
# every bad input is one line with exit status 2, and existing outputs are kept.
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

sample() {   # OUT ARGS...: a small sampling of a small board, depth 3
    local out=$1
    shift
    "$bin" learn sample --holes 6 --seeds 3 --depth 3 --rate 0.5 --quiet -o "$out" "$@" \
        >/dev/null 2>err
    rc=$?
    expect_status 0 "learn sample -o $out $*"
}

# The rows are read with h5py (scripts/setup.sh installs it): without it the test fails
# rather than passing with its row checks left out.
"$python" -c 'import h5py, numpy' 2>/dev/null || { echo "learn_test: $python has no h5py" >&2; exit 1; }

# The same rows for any thread count; games 0-9 and 10-19 add up to games 0-19.
sample one.h5 --games 20 --threads 1
sample two.h5 --games 20 --threads 2
sample lo.h5 --games 10 --threads 2
sample hi.h5 --games 10 --first-game 10 --threads 1
checks=$((checks + 1))
"$python" - one.h5 two.h5 lo.h5 hi.h5 <<'EOF' || fail "the rows differ by threads or slices"
import sys, h5py, numpy as np
one, two, lo, hi = (h5py.File(p, "r")["positions"][:] for p in sys.argv[1:])
assert len(one) > 20, len(one)
assert (one == two).all()
assert (np.concatenate([lo, hi]) == one).all()
assert set(one["convention"]) == {0, 1, 2}           # every convention by default
assert (one["depth"] == 3).all() and (one["source"] == 0).all()
EOF

# --max-plies caps the sampling's games (it is also a variant option, which getopt sees
# first: it was once read there and the cap silently left at 1000).
sample capped.h5 --games 20 --threads 1 --max-plies 6
checks=$((checks + 1))
"$python" - one.h5 capped.h5 <<'EOF' || fail "--max-plies 6 did not cap the games at 6 plies"
import sys, h5py
one, capped = (h5py.File(p, "r") for p in sys.argv[1:])
assert int(one.attrs["max_plies"]) == 1000 and int(capped.attrs["max_plies"]) == 6
assert one["positions"]["ply"].max() >= 6          # without the cap, later positions too
rows = capped["positions"][:]
assert len(rows) > 0 and rows["ply"].max() <= 5, rows["ply"].max()
EOF

# Labels from the tables: exactly the positions they hold, labelled as `solve` values them.
"$bin" tables build --holes 6 --seeds 3 --max-seeds 8 -o pen.tb --quiet >/dev/null 2>err ||
    fail "tables build: $(cat err)"
sample tabled.h5 --games 20 --conventions penultimate --tables pen.tb --per-level 0
checks=$((checks + 1))
"$python" - tabled.h5 >apns.txt <<'EOF' || fail "--tables: rows on the tables' levels not labelled by them"
import sys, h5py
d = h5py.File(sys.argv[1], "r")["positions"][:]
left = d["pits"].sum(axis=1)
assert ((left <= 8) == (d["source"] == 1)).all()
assert (d["source"] == 1).sum() > 10
for r in d[d["source"] == 1][:5]:
    rows = ",".join(str(x) for x in r["pits"][:6]) + "/" + ",".join(str(x) for x in r["pits"][6:])
    who = lambda x: "-" if x < 0 else "SN"[x]
    print(f'{rows} {r["store_south"]}/{r["store_north"]} {"SN"[r["side"]]} '
          f'{who(r["last_capturer"])} {who(r["first_final"])}|{int(r["label"]) // 100}')
EOF
while IFS='|' read -r apn want; do
    checks=$((checks + 1))
    got=$("$bin" solve --holes 6 --seeds 3 --tables pen.tb "$apn" 2>err | sed -n 's/^value +*\(-*[0-9]*\)$/\1/p')
    [[ -n $got ]] && ((got == want)) || fail "tabled $apn: label $want, solve says '$got' $(cat err)"
done <apns.txt

# The files the players read, by content hash: the labeller's tables under the convention
# they serve; the compiled-in network's hash where a labeller plays weights=net without a file.
attr() { h5dump -a "/$2" "$1" | sed -n 's/.*(0): "\(.*\)"$/\1/p'; }
check "labeller_files has a hash" grep -qE '^penultimate:tables=[0-9a-f]{16}$' <(attr tabled.h5 labeller_files)
check "labeller_files: nothing read, nothing named" \
    test "$(attr one.h5 labeller_files)" = "penultimate:;first-final:;lottery:"
sample netlab.h5 --holes 12 --seeds 8 --games 1 --conventions lottery --label alphabeta:weights=net \
    --depth 1
"$bin" run --agent-a alphabeta:depth=1,weights=net --games 2 --quiet -o netrun.h5 >/dev/null 2>err
rc=$?
expect_status 0 "a run with the compiled-in network"
check "labeller_files names the compiled-in network, as a run's agent_a_files does" \
    test "$(attr netlab.h5 labeller_files)" = "lottery:$(attr netrun.h5 jobs/main/agent_a_files)"
check "a network's hash is a hash" grep -qE '^lottery:net=[0-9a-f]{16}$' <(attr netlab.h5 labeller_files)

# The fit: its report, a weights file alpha-beta plays, the C table.
"$bin" learn fit one.h5 --weights-out w.txt --c-out w.c --top 5 >fit.out 2>err
rc=$?
expect_status 0 "learn fit"
for want in '^lambda [0-9.e+-]+ ' '^test +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ ' \
            '^fixed point \(learned_eval\): test error [0-9.]+ seeds' '^feature +knot'; do
    checks=$((checks + 1))
    grep -qE "$want" fit.out || fail "fit's text: no line matching '$want' in: $(cat fit.out)"
done
checks=$((checks + 1))
head -1 w.txt | grep -qx 'anywoli-learned 1' && grep -q '^holes 6$' w.txt ||
    fail "--weights-out: $(head -5 w.txt)"
checks=$((checks + 1))
grep -q 'const LearnedSet \*const learned_builtin_sets\[\] = { &set, NULL };' w.c ||
    fail "--c-out: $(tail -3 w.c)"
"$bin" run --holes 6 --seeds 3 --agent-a "alphabeta:depth=2,weights=learned,learned=w.txt" \
    --agent-b alphabeta:depth=2 --games 4 -o play.h5 --quiet >/dev/null 2>err
rc=$?
expect_status 0 "a match with the fitted weights"
"$bin" learn fit one.h5 two.h5 --lambda 1 --top 0 >fixed.out 2>err
rc=$?
expect_status 0 "learn fit --lambda"
checks=$((checks + 1))
grep -q '^lambda 1 (given' fixed.out || fail "--lambda: $(cat fixed.out)"

# --without: the groups left out weigh nothing, so the file names none of their features.
"$bin" learn fit one.h5 --without moves.me,moves.op,laps.me,laps.op --weights-out lean.txt \
    --top 0 >/dev/null 2>err
rc=$?
expect_status 0 "learn fit --without"
checks=$((checks + 1))
grep -q '^w me.h' lean.txt && ! grep -qE '^w (me|op)\.(gain|captures|losses|extra|lap)' lean.txt ||
    fail "--without: $(grep -cE '^w ' lean.txt) weights, $(grep -E '^w (me|op)\.(gain|lap)' lean.txt | head -2)"

# Bad input: one line, status 2; outputs that exist are kept.
bad() {   # WANT ARGS...
    local want=$1
    shift
    "$bin" learn "$@" >/dev/null 2>err
    rc=$?
    expect_status 2 "learn $*"
    one_line_error "$want"
}
bad "expected an action" 
bad "unknown action 'frob'" frob
bad "-o FILE is required" sample --games 2
bad "--rate 2: expected a number from 0 to 1" sample -o x.h5 --rate 2
bad "unknown convention 'penultimat'" sample -o x.h5 --conventions penultimat
bad "'lottery' is given twice" sample -o x.h5 --conventions lottery,lottery
bad "--random 0.5: expected P,MAX" sample -o x.h5 --random 0.5
bad "--depth" sample -o x.h5 --depth 0
bad "the labeller must be alphabeta" sample -o x.h5 --label greedy --holes 6 --seeds 3
bad "unknown option 'dpth'" sample -o x.h5 --sampler alphabeta:dpth=3
bad "--tables" sample -o x.h5 --tables pen.tb
bad "--openings" sample -o x.h5 --openings plies:x
bad "one.h5 already exists" sample -o one.h5 --holes 6 --seeds 3 --games 2
bad "expected DATA files" fit
bad "missing.h5: cannot open: No such file or directory" fit missing.h5
bad "play.h5: not a learn data file" fit play.h5
bad "--target x: expected depth or mean" fit one.h5 --target x
bad "--lambda -1" fit one.h5 --lambda -1
bad "--without: unknown group 'moves'" fit one.h5 --without moves
bad "--without: a group is missing after the last comma" fit one.h5 --without seeds,
bad "w.txt already exists" fit one.h5 --weights-out w.txt
sample three.h5 --games 3
bad "too few positions" fit three.h5 --top 0 --lambda 1
"$bin" learn sample --games 2 --depth 2 -o std.h5 --quiet >/dev/null 2>&1 ||
    fail "a sampling of the standard board"
bad "another board" fit one.h5 std.h5
checks=$((checks + 1))
head -1 w.txt | grep -qx 'anywoli-learned 1' || fail "an existing --weights-out was changed"

# net-error: a network of one constant output, 1.5 seeds, against the rows' targets as h5py
# computes them on each split (games 0-2, 3 and 4 mod 5): the float network's error and the
# integers' the same, to the printed digits.
"$python" - <<'EOF' >const.net
inputs = 2 * 6 * 1 + 6
lines = ["anywoli-net 1", "name const", "about 1.5 seeds everywhere", "holes 6", "capture 4",
         "buckets 1", "hidden 1 1"] + ["l1 %d 0" % i for i in range(inputs)] + \
        ["l1.bias 0", "l2 0 0 0", "l2.bias 0", "out 0", "out.bias 1.5"]
text = ("\n".join(lines) + "\n").encode()
h = 0xCBF29CE484222325
for b in text:
    h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
print(text.decode() + "end %016x" % h)
EOF
"$bin" learn net-error const.net one.h5 >net.out 2>err
rc=$?
expect_status 0 "learn net-error const.net one.h5"
checks=$((checks + 1))
"$python" - one.h5 net.out <<'EOF' || fail "net-error: $(cat net.out)"
import sys, h5py, numpy as np
d = h5py.File(sys.argv[1], "r")["positions"][:]
side = d["side"].astype(int)
rows = np.arange(len(d))
stores = np.stack([d["store_south"], d["store_north"]], axis=1).astype(float)
target = d["label"] / 100.0 - (stores[rows, side] - stores[rows, 1 - side])
split = np.where(d["game"] % 5 < 3, 0, np.where(d["game"] % 5 == 3, 1, 2))
lines = {l.split()[1]: l.split() for l in open(sys.argv[2]) if l.startswith("split ")}
for s, name in enumerate(["fit", "choose", "test"]):
    l = lines[name]
    rms = np.sqrt(np.mean((1.5 - target[split == s]) ** 2))
    assert int(l[3]) == (split == s).sum() > 0, (name, l)
    assert l[4] == "net_float" and abs(float(l[5]) - rms) < 1e-3, (name, l, rms)
    assert l[6] == "net_int" and l[7] == l[5], (name, l)
    assert l[8] == "learned" and l[9] == "-", (name, l)   # 6 holes: not the learned set's
assert open(sys.argv[2]).readline().startswith("net const digest ")
EOF
"$bin" learn net-error builtin std.h5 >net.out 2>err
rc=$?
expect_status 0 "learn net-error builtin std.h5"
for want in '^net net digest [0-9a-f]{16} holes 12 capture 4 buckets 16 hidden 64 16$' \
            '^split fit rows [0-9]+ net_float [0-9.]+ net_int [0-9.]+ learned [0-9.]+$' \
            '^split test rows [0-9]+ net_float [0-9.]+ net_int [0-9.]+ learned [0-9.]+$' \
            '^cost net_full_ns [0-9]+ learned_ns [0-9]+$'; do
    checks=$((checks + 1))
    grep -qE "$want" net.out || fail "net-error's text: no line matching '$want' in: $(cat net.out)"
done
bad "expected NET and DATA files" net-error builtin
bad "w.txt:1: not a network file" net-error w.txt one.h5
bad "missing.net: cannot open" net-error missing.net one.h5
bad "builtin: network 'net' is for holes=12 capture=4, not holes=6 capture=4" \
    net-error builtin one.h5
bad "another board" net-error builtin std.h5 one.h5
bad "net.out:1: not a network file" net-error net.out std.h5

# learn base: a header and one value a row, each the compiled-in set's learned_positional: the
# root mean squared error of the values against the rows' targets is net-error's `learned`.
"$bin" learn base std.h5 >base.txt 2>err
rc=$?
expect_status 0 "learn base std.h5"
checks=$((checks + 1))
"$python" - std.h5 base.txt net.out <<'EOF' || fail "learn base: $(head -2 base.txt)"
import sys, h5py, numpy as np
d = h5py.File(sys.argv[1], "r")["positions"][:]
lines = open(sys.argv[2]).read().split("\n")
head = lines[0].split()
assert head[:4] == ["base", "learned", "learned", "digest"] and len(head[4]) == 16, head
assert head[5] == "rows" and int(head[6]) == len(d) > 0, head
base = np.array([int(x) for x in lines[1:] if x]) / 100.0
assert len(base) == len(d), (len(base), len(d))
side = d["side"].astype(int)
rows = np.arange(len(d))
stores = np.stack([d["store_south"], d["store_north"]], axis=1).astype(float)
target = d["label"] / 100.0 - (stores[rows, side] - stores[rows, 1 - side])
split = np.where(d["game"] % 5 < 3, 0, np.where(d["game"] % 5 == 3, 1, 2))
out = {l.split()[1]: l.split() for l in open(sys.argv[3]) if l.startswith("split ")}
for s, name in enumerate(["fit", "choose", "test"]):
    if (split == s).sum():
        rms = np.sqrt(np.mean((base[split == s] - target[split == s]) ** 2))
        assert abs(float(out[name][9]) - rms) < 1e-3, (name, out[name], rms)
EOF
bad "expected DATA files" base
bad "the compiled-in learned set is not for this board (holes=6 capture=4)" base one.h5
bad "missing.h5: cannot open" base missing.h5

echo "learn_test: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
