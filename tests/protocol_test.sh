#!/usr/bin/env bash
# protocol_test.sh: programs that play over the line protocol (docs/protocol.md), end to end.
#
#   protocol_test.sh PATH/TO/anywoli PATH/TO/first_move SOURCE_DIR
#
# `anywoli engine` behind the external agent plays the games the same agent plays in-process,
# game for game (random, greedy, a randomized alpha-beta and MCTS, from random openings, on two
# threads), and two engines meet through `external:`; the example programs (C, Python, the
# package's anywoli.serve) play real matches; a program that will not start, or refuses a set=
# option, is refused before any game (exit status 2); every fault in play (a program that
# crashes, hangs, answers an illegal move or garbage, floods) stops the run with one line and
# exit status 1, the finished games kept, and --resume once the program is mended gives the
# uninterrupted run's tables; kill -9 in a run with external agents, then --resume, likewise,
# with no program left running; SIGINT while a program thinks; tune against an external
# opponent; play with an external agent, and its fault; the spec's
# repeated keys.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
first_move=$2
src=$3
python=/usr/bin/python3
faulty=$src/tests/agents/faulty.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

# engine SPEC: the external agent whose program is `anywoli engine --agent SPEC` (the spec's
# commas cannot be inside an arg=, so SPEC has none).
engine() {
    echo "external:cmd=$bin,arg=engine,arg=--agent,arg=$1"
}

# run_ok DESCRIPTION ARGS...: `anywoli run ARGS` must succeed.
run_ok() {
    local what=$1
    shift
    "$bin" run --quiet "$@" >out 2>err
    rc=$?
    expect_status 0 "$what"
}

# --- the engine plays the in-process agent's games, game for game -------------------------
for agent in random greedy alphabeta:depth=2 mcts:playouts=30; do
    name=${agent%%:*}
    run_ok "in-process $agent" --agent-a "$agent" --agent-b greedy --games 12 --seed 5 \
        --openings plies:3 --threads 2 -o "in-$name.h5"
    run_ok "engine $agent" --agent-a "$(engine "$agent")" --agent-b greedy --games 12 --seed 5 \
        --openings plies:3 --threads 2 -o "ext-$name.h5"
    same_tables "in-$name.h5" "ext-$name.h5"
done
# alpha-beta's random ties (ties=random is its default) drew from the stream: a seed of its
# own plays other games, so the equality above is the stream's, not a deterministic agent's.
run_ok "engine, another seed" --agent-a "$(engine alphabeta:depth=2)" --agent-b greedy \
    --games 12 --seed 6 --openings plies:3 --threads 2 -o other-seed.h5
checks=$((checks + 1))
cmp -s <(game_tables ext-alphabeta.h5) <(game_tables other-seed.h5) &&
    fail "another seed played the same games"
# Two engines meet through external: the games of greedy against random in-process.
run_ok "two engines" --agent-a "$(engine greedy)" --agent-b "$(engine random)" --games 10 \
    --seed 2 -o two-engines.h5
run_ok "two agents in-process" --agent-a greedy --agent-b random --games 10 --seed 2 \
    -o two-agents.h5
same_tables two-agents.h5 two-engines.h5

# bench --protocol: the program's moves a second, and the in-process baseline's.
"$bin" bench --protocol "external:cmd=$first_move" --games 20 >out 2>err
rc=$?
expect_status 0 "bench --protocol"
check "bench --protocol: two lines" test "$(grep -c '^protocol .* moves/s=[0-9]' out)" -eq 2

# --- the example programs in real matches -------------------------------------------------
run_ok "the C example" --agent-a "external:cmd=$first_move" --agent-b greedy --games 10 \
    --threads 2 -o c-example.h5
check "the C example's match is stored" grep -q "external:cmd=$first_move" out
biggest="external:cmd=$python,arg=$src/examples/agents/biggest.py"
run_ok "the Python example" --agent-a "$biggest" --agent-b random --games 10 --seed 4 \
    --threads 2 -o py-example.h5
run_ok "the Python example again" --agent-a "$biggest" --agent-b random --games 10 --seed 4 \
    --threads 1 -o py-example-again.h5
same_tables py-example.h5 py-example-again.h5
# The package's helper: one line serves a function; set= reaches the options it declares.
cat >served.py <<'EOF'
import anywoli

def choose(position, legal_moves, game):
    assert game.variant["holes"] == 6 and game.side in "SN"
    return legal_moves[-1] if game.options["pick"] == "last" else game.random.choice(legal_moves)

anywoli.serve(choose, name="served", options={"pick": "random"})
EOF
served="external:cmd=$python,arg=$tmp/served.py"
export PYTHONPATH=$src/python
run_ok "anywoli.serve" --agent-a "$served" --agent-b greedy --holes 6 --games 6 -o served.h5
run_ok "anywoli.serve, set=pick=last" --agent-a "$served,set=pick=last" --agent-b greedy \
    --holes 6 --games 6 -o served-last.h5
"$bin" run --quiet --agent-a "$served,set=depth=3" --agent-b greedy --holes 6 --games 2 \
    -o served-bad.h5 >out 2>err
rc=$?
expect_status 2 "set= of an option the program does not declare (refused before any game)"
one_line_error "set=depth=3: the program declares no option 'depth'"

# --- faults: one line, exit status 1, the finished games kept, --resume once mended -------
echo "ok 0" >ok
run_ok "the mended program, uninterrupted" --agent-a "external:cmd=$faulty,arg=$tmp/ok" \
    --agent-b random --games 16 --batch 2 --threads 1 --seed 1 -o whole.h5
declare -A message=(
    [crash]="the program exited with status 3 while the lab waited for a move"
    [hang]="the program wrote nothing for 1 s (timeout=1) while the lab waited for a move"
    [illegal]="answered move 99, which is not legal in "
    [garbage]="answered 'banana' where a move was due (expected move N)"
    [flood]="the program wrote a line longer than 4095 bytes while the lab waited for a move"
)
for mode in crash hang illegal garbage flood; do
    echo "$mode 150" >ok
    spec="external:cmd=$faulty,arg=$tmp/ok,timeout=1"
    start=$SECONDS
    "$bin" run --quiet --agent-a "$spec" --agent-b random --games 16 --batch 2 --threads 1 \
        --seed 1 -o "$mode.h5" >out 2>err
    rc=$?
    expect_status 1 "$mode"
    one_line_error "job 'main', game "
    one_line_error "agent '$spec': ${message[$mode]}"
    check "$mode: no hang ($((SECONDS - start)) s)" test $((SECONDS - start)) -lt 20
    check "$mode: the journal is kept" test -s "$mode.h5.journal"
    echo "ok 0" >ok
    run_ok "$mode: --resume, mended" --agent-a "$spec" --agent-b random --games 16 --batch 2 \
        --threads 1 --seed 1 -o "$mode.h5" --resume
    same_tables whole.h5 "$mode.h5"
done
"$bin" run --quiet --agent-a "external:cmd=$tmp/nothing-here" --agent-b random --games 2 \
    -o none.h5 >out 2>err
rc=$?
expect_status 2 "a program that will not start (refused before any game)"
one_line_error "cannot start '$tmp/nothing-here': No such file or directory"

# --- kill -9 in a run with external agents, then --resume ---------------------------------
echo "ok 0" >ok
marker="$tmp/ok"
"$bin" run --quiet --agent-a "external:cmd=$faulty,arg=$marker" --agent-b "$(engine greedy)" \
    --games 40 --batch 2 --threads 2 --seed 9 -o killed.h5 >out 2>err &
pid=$!
wait_for_journal killed.h5.journal 2000 || fail "kill -9: the journal did not grow"
kill -9 "$pid"
wait "$pid" 2>/dev/null
# The programs see the end of their input and leave by themselves.
for ((i = 0; i < 100; i++)); do
    pgrep -f -- "$marker" >/dev/null || break
    sleep 0.1
done
checks=$((checks + 1))
pgrep -f -- "$marker" >/dev/null && fail "kill -9: a program of the run is still running"
run_ok "kill -9, then --resume" --agent-a "external:cmd=$faulty,arg=$marker" \
    --agent-b "$(engine greedy)" --games 40 --batch 2 --threads 2 --seed 9 -o killed.h5 --resume
run_ok "uninterrupted" --agent-a "external:cmd=$faulty,arg=$marker" \
    --agent-b "$(engine greedy)" --games 40 --batch 2 --threads 2 --seed 9 -o unkilled.h5
same_tables unkilled.h5 killed.h5

# --- SIGINT while a program thinks: a clean stop at once, not the program's fault ----------
echo "hang 100" >ok
"$bin" run --quiet --agent-a "external:cmd=$faulty,arg=$marker,timeout=60" --agent-b random \
    --games 20 --batch 2 --threads 1 -o stopped.h5 >out 2>err &
pid=$!
sleep 2
kill -INT "$pid"
wait_stopped "$pid" 5
expect_status 130 "SIGINT while a program thinks"
one_line_error "stopped by SIGINT"
sleep 0.2
checks=$((checks + 1))
pgrep -f -- "$marker" >/dev/null && fail "SIGINT: a program of the run is still running"

# --- tune's matches: an external opponent is the in-process one; its fault stops the tuning
# tune_config OPPONENT: a short tuning against OPPONENT, as t.cfg.
tune_config() {
    cat >t.cfg <<EOF
seed = 21L;
output = "unused.h5";
agent = "alphabeta:depth=2,tt=12";
opponent = "$1";
iterations = 4;
pairs = 4;
max_plies = 400;
a = 10.0;
weights = (
  { name = "store"; start = 0.3; min = 0.0; max = 3.0; step = 0.2; },
  { name = "seeds"; start = -0.3; min = -1.0; max = 1.0; step = 0.1; }
);
verification = { pairs = 6; };
EOF
}
tune_config greedy
"$bin" tune t.cfg -o tune-in.h5 --quiet --threads 2 >out 2>err
rc=$?
expect_status 0 "tune against greedy"
tune_config "$(engine greedy)"
"$bin" tune t.cfg -o tune-ext.h5 --quiet --threads 2 >out 2>err
rc=$?
expect_status 0 "tune against the engine's greedy"
same_tuning tune-in.h5 tune-ext.h5
echo "crash 50" >ok
tune_config "external:cmd=$faulty,arg=$tmp/ok"
"$bin" tune t.cfg -o tune-fault.h5 --quiet --threads 2 >out 2>err
rc=$?
expect_status 1 "tune against a program that crashes"
one_line_error "the program exited with status 3 while the lab waited for a move"

# --- play, and the spec -------------------------------------------------------------------
"$bin" play --south "$(engine greedy)" --north random --seed 3 --quiet >out 2>err
rc=$?
expect_status 0 "play with an external agent"
check "play: the game ends" grep -q 'Game over' out
echo "crash 20" >ok
"$bin" play --south "external:cmd=$faulty,arg=$tmp/ok" --north random --seed 3 --quiet \
    >out 2>err
rc=$?
expect_status 1 "play: a program that crashes"
one_line_error "the program exited with status 3 while the lab waited for a move"
"$bin" agents "external:arg=a b,cmd=prog,arg=--c=d,timeout=2.5" >out 2>err
rc=$?
expect_status 0 "agents: an external spec"
check "agents: every arg= in order" grep -qx "external:cmd=prog,arg=a b,arg=--c=d,timeout=2.5" out
"$bin" agents external >out 2>err
rc=$?
expect_status 2 "agents: external without cmd="
one_line_error "cmd= is required"

echo "protocol_test: $checks checks, $failures failed"
[[ $failures -eq 0 ]]
