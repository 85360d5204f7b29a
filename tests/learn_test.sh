#!/usr/bin/env bash
# learn_test.sh: `anywoli learn` (the learned evaluation's data and fit) end to end.
#
#   learn_test.sh PATH/TO/anywoli PYTHON
#
# A sampling is the same for any thread count and its slices add up (the rows compared by
# h5py, skipped without it); positions the tables hold are labelled exactly by them; a fit
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

# The same rows for any thread count; games 0-9 and 10-19 add up to games 0-19.
sample one.h5 --games 20 --threads 1
sample two.h5 --games 20 --threads 2
sample lo.h5 --games 10 --threads 2
sample hi.h5 --games 10 --first-game 10 --threads 1
if "$python" -c 'import h5py' 2>/dev/null; then
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
fi

# Labels from the tables: exactly the positions they hold, labelled as `solve` values them.
"$bin" tables build --holes 6 --seeds 3 --max-seeds 8 -o pen.tb --quiet >/dev/null 2>err ||
    fail "tables build: $(cat err)"
sample tabled.h5 --games 20 --conventions penultimate --tables pen.tb --per-level 0
if "$python" -c 'import h5py' 2>/dev/null; then
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
fi

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

echo "learn_test: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
