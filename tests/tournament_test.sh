#!/usr/bin/env bash
# tournament_test.sh: `anywoli run --gauntlet / --round-robin` and `--openings-order`.
#
#   tournament_test.sh PATH/TO/anywoli PYTHON
#
# --dry-run lists a gauntlet's and a round robin's jobs; a small real tournament's file holds
# the jobs of the equivalent hand-written config (the same games tables, and its stored text
# runs the same experiment); the refusals (one line, exit status 2, no file); a shuffled
# book plays every opening once per cycle, in an order that depends on the seed and is the
# same when run again (PYTHON reads the openings tables with h5py), and analyze's root design
# of a shuffled all:N job names each line by its row of the job's openings table.
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

# --- the jobs a tournament makes ------------------------------------------------------------
"$bin" run --dry-run --games 6 --gauntlet random --gauntlet greedy \
    --gauntlet alphabeta:depth=1,ties=first --gauntlet mcts:playouts=10 >out 2>err
rc=$?
expect_status 0 "gauntlet --dry-run"
check "gauntlet: three jobs" test "$(grep -c '^job ' out)" -eq 3
check "gauntlet: 1 against 2" grep -q '^job gauntlet-1-2: .*; random vs greedy; 6 games$' out
check "gauntlet: 1 against 3" grep -q '^job gauntlet-1-3: .*; random vs alphabeta:depth=1,ties=first; 6 games$' out
check "gauntlet: 1 against 4" grep -q '^job gauntlet-1-4: .*; random vs mcts:playouts=10; 6 games$' out
check "gauntlet: the totals" grep -q '^experiment: 3 jobs, 18 games, seed 0' out

"$bin" run --dry-run --round-robin random --round-robin greedy \
    --round-robin alphabeta:depth=1 --openings all:1 --seed 3 >out 2>err
rc=$?
expect_status 0 "round robin --dry-run"
check "round robin: three jobs" test "$(grep -c '^job ' out)" -eq 3
check "round robin: 1-2" grep -q '^job rr-1-2: .*; random vs greedy; 10000 games; openings all:1$' out
check "round robin: 1-3" grep -q '^job rr-1-3: .*; random vs alphabeta:depth=1; 10000 games; openings all:1$' out
check "round robin: 2-3" grep -q '^job rr-2-3: .*; greedy vs alphabeta:depth=1; 10000 games; openings all:1$' out
check "round robin: in that order" test "$(grep '^job ' out | cut -d: -f1 | tr '\n' ' ')" = \
    "job rr-1-2 job rr-1-3 job rr-2-3 "

# --- a real tournament equals the hand-written config -----------------------------------------
"$bin" run --quiet --seed 7 --games 6 --openings all:1 --holes 6 --seeds 3 --max-plies 400 \
    --round-robin random --round-robin greedy --round-robin alphabeta:depth=1 -o rr.h5 >out 2>err
rc=$?
expect_status 0 "a small round robin"
cat >rr.cfg <<'EOF'
seed = 7;
output = "cfg.h5";
defaults = { holes = 6; seeds = 3; max_plies = 400; openings = "all:1"; games = 6; };
jobs = (
  { name = "rr-1-2"; agent_a = "random"; agent_b = "greedy"; },
  { name = "rr-1-3"; agent_a = "random"; agent_b = "alphabeta:depth=1"; },
  { name = "rr-2-3"; agent_a = "greedy"; agent_b = "alphabeta:depth=1"; }
);
EOF
"$bin" run --quiet rr.cfg >out 2>err
rc=$?
expect_status 0 "the equivalent config"
same_tables rr.h5 cfg.h5
check "the same jobs" test "$(h5ls rr.h5/jobs)" = "$(h5ls cfg.h5/jobs)"
# The stored text is a config of the same experiment: run again, the same tables.
h5dump -a /config rr.h5 | awk '/\(0\): "/ {on = 1; sub(/.*\(0\): "/, "")} on' |
    sed -e 's/^           //' -e '/^"$/,$d' | sed -e 's/\\"/"/g' -e 's/output = "rr.h5"/output = "again.h5"/' >again.cfg
"$bin" run --quiet again.cfg >out 2>err
rc=$?
expect_status 0 "the stored text runs (again.cfg)"
same_tables rr.h5 again.h5

# --- refusals: one line, status 2, no file ----------------------------------------------------
refuse() {
    local want=$1
    shift
    "$bin" run "$@" -o refused.h5 >out 2>err
    rc=$?
    expect_status 2 "refused: $*"
    one_line_error "$want"
    check "refused: no file ($*)" test ! -e refused.h5 -a ! -e refused.h5.journal
}
refuse "--gauntlet: 1 agent spec given; a tournament needs 2 or more" --gauntlet random
refuse "--round-robin: 'greedy' (spec 3) is the same agent as 'greedy' (spec 2)" \
    --round-robin random --round-robin greedy --round-robin greedy
refuse "--round-robin: 'alphabeta:depth=6' (spec 2) is the same agent as 'alphabeta' (spec 1)" \
    --round-robin alphabeta --round-robin alphabeta:depth=6
refuse "--gauntlet and --round-robin: give one of them" --gauntlet random --round-robin greedy
refuse "--gauntlet: not with a CONFIG ('rr.cfg' lists its own jobs)" \
    --gauntlet random --gauntlet greedy rr.cfg
refuse "--round-robin: not with --agent-a" --round-robin random --round-robin greedy \
    --agent-a greedy
refuse "--gauntlet: not with --agent-b" --gauntlet random --gauntlet greedy --agent-b greedy
refuse "--games: 7 is odd; a tournament's jobs play whole pairs" --games 7 \
    --gauntlet random --gauntlet greedy
refuse "--gauntlet: agent 'nosuch': unknown" --gauntlet random --gauntlet nosuch
refuse "--openings-order: expected in-order or shuffled, not 'random'" --openings-order random
refuse "--openings-order: openings_order \"shuffled\": only a list of openings" \
    --openings-order shuffled --openings plies:2

# --- a shuffled book --------------------------------------------------------------------------
# all:1 on the standard board has 12 lines: 48 games are 24 pairs, two cycles.
for run in a:1 b:1 c:2; do
    "$bin" run --quiet --seed "${run#*:}" --games 48 --openings all:1 --openings-order shuffled \
        --gauntlet random --gauntlet greedy -o "${run%:*}.h5" >/dev/null 2>err
    rc=$?
    expect_status 0 "shuffled book, $run"
done
"$bin" run --quiet --seed 1 --games 48 --openings all:1 --gauntlet random --gauntlet greedy \
    -o inorder.h5 >/dev/null 2>err
rc=$?
expect_status 0 "the book in order"
check "shuffled: every opening once per cycle, seed-dependent, reproducible" \
    "$python" - a.h5 b.h5 c.h5 inorder.h5 <<'EOF'
import sys
import h5py

def played(path):
    """Each game's opening, as the moves of its row, and the job's order attribute."""
    with h5py.File(path, "r") as f:
        g = f["jobs/gauntlet-1-2"]
        table = g["openings"][:]
        games = g["games"][:]
        order = g.attrs.get("openings_order", "in-order")
        moves = [table["moves"][o].decode() for o in games["opening"]]
    return moves[::2], moves[1::2], order

first, again, other, inorder = (played(p) for p in sys.argv[1:5])
lines = [str(h) for h in range(12)]
for pairs_even, pairs_odd, order in (first, again, other):
    assert order == "shuffled", order
    assert pairs_even == pairs_odd, "both games of a pair play its opening"
    assert sorted(pairs_even[:12], key=int) == lines, pairs_even[:12]
    assert pairs_even[12:] == pairs_even[:12], "every cycle plays the same order"
assert first[0] == again[0], "the same seed, the same order"
assert first[0] != other[0], "another seed, another order"
assert first[0] != lines, "shuffled, not in order"
assert inorder[0][:12] == lines and inorder[2] == "in-order", "in order by default"
EOF
# analyze's root design (self-play from all:N) names each line by its row of the shuffled list.
"$bin" run --quiet --seed 3 --games 48 --openings all:1 --openings-order shuffled -o root.h5 \
    >/dev/null 2>err && "$bin" analyze --json root.h5 >root.json 2>err
rc=$?
expect_status 0 "a shuffled self-play job, analysed"
check "shuffled: analyze's root lines are the rows of the openings table" \
    "$python" - root.h5 root.json <<'EOF'
import json
import sys
import h5py

with h5py.File(sys.argv[1], "r") as f:
    table = f["jobs/main/openings"][:]
lines = json.load(open(sys.argv[2]))["jobs"][0]["root"]["lines"]
assert len(lines) == 12
for line in lines:
    assert " ".join(map(str, line["moves"])) == table["moves"][line["opening"]].decode(), line
EOF
"$bin" run --dry-run --seed 1 --games 48 --openings all:1 --openings-order shuffled >out 2>err
check "--dry-run says shuffled" grep -q '; openings all:1 shuffled$' out

if [[ $failures -ne 0 ]]; then
    echo "$failures of $checks checks failed" >&2
    exit 1
fi
echo "all $checks checks passed"
