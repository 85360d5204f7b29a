#!/usr/bin/env bash
# external_test.sh: the external agent's processes, faults and strict lines (agents/external.c,
# docs/protocol.md), end to end.
#
#   external_test.sh PATH/TO/anywoli SOURCE_DIR
#
# The program's whole process group ends at every end of the program (the run's end, a fault,
# a stop), so nothing it started outlives the run nor holds the lab's standard error open; a
# fault says how the program ended (its exit status, its signal, its output closed) with the
# last line it wrote; a NUL byte in a line, a key given twice and an answer written ahead of
# its question are faults; a program that will not start, fails its handshake or refuses a
# set= option is refused before any game, with exit status 2, one line and no file made,
# starting the program once for a spec however many jobs name it.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
src=$2
python=/usr/bin/python3
scripted=$src/tests/agents/scripted.py
tmp=$(mktemp -d)
cd "$tmp" || exit 1
# The programs below start a copy of sleep under this name, so that it is known as theirs.
sleeper=$tmp/sleeper
cp "$(command -v sleep)" "$sleeper"
trap 'pkill -KILL -f -- "$sleeper" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
checks=0

# wrapped MODE SECONDS: a program that starts a sleeper of SECONDS in the background (holding
# the lab's standard output and error, as a forked helper would) and then becomes scripted.py.
wrapped() {
    cat >"wrap-$1.sh" <<EOS
#!/bin/sh
"$sleeper" $2 &
exec $python $scripted $1
EOS
    chmod +x "wrap-$1.sh"
    echo "external:cmd=$tmp/wrap-$1.sh,timeout=2"
}

# no_sleeper WHAT: no sleeper is left (a moment given to the kernel to finish the kills).
no_sleeper() {
    local i
    for ((i = 0; i < 20; i++)); do
        pgrep -f -- "$sleeper" >/dev/null || break
        sleep 0.05
    done
    checks=$((checks + 1))
    if pgrep -f -- "$sleeper" >/dev/null; then
        fail "$1: $(pgrep -c -f -- "$sleeper") process(es) of the program's group outlived it"
        pkill -KILL -f -- "$sleeper"
    fi
}

# --- the process group ends with the program ----------------------------------------------
start=$SECONDS
"$bin" run --quiet --agent-a "$(wrapped ok 30)" --agent-b random --games 8 --threads 2 \
    -o group.h5 2>&1 | cat >out
rc=${PIPESTATUS[0]}
expect_status 0 "a wrapped program's run"
check "a pipe on the run's stderr closes with the run ($((SECONDS - start)) s)" \
    test $((SECONDS - start)) -lt 15
no_sleeper "the run's normal end, two threads"

# A stop of the run (SIGINT) while the program thinks ends its group too.
"$bin" run --quiet --agent-a "$(wrapped think 30)" --agent-b random --games 2 -o stop.h5 \
    >out 2>err &
pid=$!
sleep 2
kill -INT "$pid"
wait_stopped "$pid" 5
expect_status 130 "SIGINT while a wrapped program thinks"
no_sleeper "a stop by SIGINT"

# --- a fault says how the program ended, and its group goes with it -----------------------
declare -A message=(
    [exit4]="the program exited with status 4 while the lab waited for a move (its last line: 'protocol 1')"
    [kill9]="the program was killed by signal 9 (Killed) while the lab waited for a move (its last line: 'protocol 1')"
    [close]="the program closed its standard output while the lab waited for a move"
)
for mode in exit4 kill9 close; do
    start=$SECONDS
    spec=$(wrapped $mode 30)
    # An output closed is seen only when no other process holds it: this one is not wrapped.
    [[ $mode == close ]] && spec="external:cmd=$python,arg=$scripted,arg=close,timeout=2"
    "$bin" run --quiet --agent-a "$spec" --agent-b random --games 2 -o "$mode.h5" >out 2>err
    rc=$?
    expect_status 1 "$mode"
    one_line_error "agent '$spec': ${message[$mode]}"
    check "$mode: found at once ($((SECONDS - start)) s)" test $((SECONDS - start)) -lt 10
    no_sleeper "$mode"
done

# --- strict lines: a NUL byte, a key twice, an answer ahead of its question ----------------
declare -A strict=(
    [nul]="the program wrote a NUL byte in its line"
    [twice]="each at most once"
    [ahead]="before the lab sent a position (an answer ahead of its question)"
)
for mode in nul twice ahead; do
    spec="external:cmd=$python,arg=$scripted,arg=$mode,timeout=2"
    "$bin" run --quiet --agent-a "$spec" --agent-b random --games 2 -o "$mode.h5" >out 2>err
    rc=$?
    expect_status 1 "$mode"
    one_line_error "agent '$spec': "
    one_line_error "${strict[$mode]}"
done

# --- a program refused before any game: exit status 2, one line, no file --------------------
# refused WHAT SPEC TEXT [ARGS...]: `run` of SPEC (or a config, ARGS) in an empty folder fails
# with status 2 and one line holding TEXT, and leaves the folder empty.
refused() {
    local what=$1 spec=$2 text=$3
    shift 3
    rm -rf empty && mkdir empty && cd empty || exit 1
    if [[ $# -gt 0 ]]; then
        "$bin" run --quiet "$@" -o r.h5 >../out 2>../err
    else
        "$bin" run --quiet --agent-a "$spec" --agent-b random --games 2 -o r.h5 >../out 2>../err
    fi
    rc=$?
    cd .. || exit 1
    expect_status 2 "$what"
    one_line_error "$text"
    check "$what: no file made ($(ls -A empty | tr '\n' ' '))" test -z "$(ls -A empty)"
}
printf 'echo nothing\n' >not-executable
refused "a command not found" "external:cmd=no-such-program-$$" \
    "cannot start 'no-such-program-$$': No such file or directory"
refused "a command not executable" "external:cmd=$tmp/not-executable" \
    "cannot start '$tmp/not-executable': Permission denied"
refused "a program that speaks protocol 2" "external:cmd=$python,arg=$scripted,arg=version2" \
    "speaks protocol 2; the lab speaks protocol 1"
refused "an option line with junk" "external:cmd=$python,arg=$scripted,arg=badoption" \
    "expected option NAME DEFAULT"
refused "a set= the program does not declare" \
    "external:cmd=$python,arg=$scripted,arg=options,set=width=3" \
    "set=width=3: the program declares no option 'width'"
refused "a gauntlet's program" "" "--gauntlet: agent 'external:cmd=no-such-program-$$" \
    --gauntlet random --gauntlet "external:cmd=no-such-program-$$" --games 2

# A config's jobs naming one spec start its program once, at the check: the fourth job's
# error comes after the first three's checks, before any game.
spec="external:cmd=$python,arg=$scripted,arg=options,arg=$tmp/starts.log,set=depth=5"
cat >three.cfg <<EOS
seed = 1;
jobs = (
  { name = "a"; agent_a = "$spec"; games = 2; },
  { name = "b"; agent_a = "$spec"; games = 2; },
  { name = "c"; agent_b = "$spec"; games = 2; }
  ,{ name = "d"; games = 0; }
);
EOS
rm -f starts.log
refused "a config's error after three jobs of one program" "" "games: 0 is out of range" \
    "$tmp/three.cfg"
check "one start for the three jobs' spec ($(wc -l <starts.log 2>/dev/null || echo 0))" \
    test "$(wc -l <starts.log 2>/dev/null)" = 1
# A spec that passes its check plays: the check's start and the run's.
rm -f starts.log
head -n 5 three.cfg >two.cfg
echo ');' >>two.cfg
"$bin" run --quiet two.cfg -o three.h5 >out 2>err
rc=$?
expect_status 0 "three jobs of one program"
check "the check's start and the run's ($(wc -l <starts.log) starts)" \
    test "$(wc -l <starts.log)" -ge 2

echo "external_test: $checks checks, $failures failed"
[[ $failures -eq 0 ]]
