#!/usr/bin/env bash
# cli_test.sh: end-to-end checks of the `anywoli` command line.
#
#   cli_test.sh PATH/TO/anywoli VECTORS_DIR
#
# Exact output of perft and move, exit status 2 with one stderr line for every bad input,
# --help, -h and `anywoli help CMD` of each subcommand (the same text), and the bench signature
# for one and two threads. Every command
# that `anywoli --help` lists must be tested here (the list `tested` below).
set -u

bin=$1
vectors=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
tested=()

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: run the binary; status in $rc, output in $tmp/out and $tmp/err.
run() {
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    checks=$((checks + 1))
}

# expect_out WANT ARGS...: exit status 0, stdout exactly WANT (a newline after each line),
# nothing on stderr.
expect_out() {
    local want=$1
    shift
    run "$@"
    if [[ $rc -ne 0 ]]; then
        fail "anywoli $*: exit status $rc (stderr: $(head -c 300 "$tmp/err"))"
    elif [[ "$(cat "$tmp/out")" != "$want" ]]; then
        fail "anywoli $*: output
$(cat "$tmp/out")
expected
$want"
    elif [[ -s "$tmp/err" ]]; then
        fail "anywoli $*: unexpected stderr: $(cat "$tmp/err")"
    fi
}

# expect_error SUBSTRING ARGS...: exit status 2, exactly one stderr line that starts with
# the program's name and contains SUBSTRING, and on stdout only $out_before (default none:
# the lines printed for moves before the bad one).
out_before=
expect_error() {
    local want=$1
    shift
    run "$@"
    local lines
    lines=$(wc -l <"$tmp/err")
    if [[ $rc -ne 2 ]]; then
        fail "anywoli $*: exit status $rc, expected 2 (stderr: $(head -c 300 "$tmp/err"))"
    elif [[ $lines -ne 1 ]]; then
        fail "anywoli $*: $lines stderr lines, expected 1: $(cat "$tmp/err")"
    elif ! grep -q '^anywoli' "$tmp/err"; then
        fail "anywoli $*: stderr does not start with 'anywoli': $(cat "$tmp/err")"
    elif ! grep -qF -- "$want" "$tmp/err"; then
        fail "anywoli $*: stderr '$(cat "$tmp/err")' lacks '$want'"
    elif [[ "$(cat "$tmp/out")" != "$out_before" ]]; then
        fail "anywoli $*: stdout '$(head -c 300 "$tmp/out")', expected '$out_before'"
    fi
    out_before=
}

start12="4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -"

# --- perft: `perft <d> <count>` per depth, the docs/rules.md table ---------------------------
tested+=(perft)
expect_out "perft 1 12
perft 2 116
perft 3 1214
perft 4 12377" perft 4
expect_out "perft 1 7
perft 2 40
perft 3 250" perft --variant yit-nuri 3
expect_out "perft 1 13
perft 2 113" perft --variant yit-jani 2
expect_out "perft 1 12
perft 2 116" perft --position "$start12" 2
# A non-preset variant and a position holding an endless move (not a path).
expect_out "perft 1 3
perft 2 5
perft 3 7
perft 4 9" perft --holes 3 --seeds 3 4
expect_out "perft 1 3
perft 2 12
perft 3 49" perft --position "2,1,0,2,1,0/1,0,2,1,2,0 16/20 N N N" 3
expect_out "perft 1 0" perft --position "2,0/2,1 1/2 S - -" 1
# --stats adds one stderr line per depth and leaves stdout as it was.
run perft --stats 2
if [[ $rc -ne 0 || "$(cat "$tmp/out")" != $'perft 1 12\nperft 2 116' \
      || $(wc -l <"$tmp/err") -ne 2 ]] || ! grep -q '^depth 1: laps' "$tmp/err"; then
    fail "anywoli perft --stats 2: status $rc, stdout $(cat "$tmp/out"), stderr $(cat "$tmp/err")"
fi
expect_error "DEPTH" perft
expect_error "DEPTH" perft 0
expect_error "DEPTH" perft x
expect_error "DEPTH" perft 2 3
expect_error "unknown option '--frobnicate' (see --help)" perft --frobnicate 2
expect_error "option '--position' needs a value" perft 2 --position
expect_error "option '--stats' takes no value" perft --stats=1 2
expect_error "unknown option '-x'" perft -x 2

# --- move: `<APN after> <event>` per move -----------------------------------------------
tested+=(move)
# The first lines of each moves vectors file.
for preset in anywoli yit-nuri yit-jani; do
    n=0
    while IFS='|' read -r before move after event; do
        expect_out "$after $event" move --variant "$preset" --position "$before" "$move"
        n=$((n + 1))
        [[ $n -ge 3 ]] && break
    done <"$vectors/moves-$preset.txt"
    # One move of each event kind.
    for ev in next extra over; do
        line=$(grep -m 1 "|$ev\$" "$vectors/moves-$preset.txt")
        IFS='|' read -r before move after event <<<"$line"
        expect_out "$after $event" move --variant "$preset" --position "$before" "$move"
    done
done
# Several moves from the start, one line each (South 0, North 12, South 6; the results of
# tests/perft/perft_reference.py move 0 12 6).
expect_out "1,5,5,5,0,5,5,5,5,0,5,5/5,5,0,5,5,5,5,0,5,5,5,5 0/0 N - - next
2,6,6,6,1,0,6,6,6,1,6,0/1,7,2,7,7,1,6,1,6,6,6,0 0/0 S - - next
3,7,7,7,0,1,1,7,7,2,7,1/0,8,0,8,8,0,7,0,7,0,7,1 0/0 N - - next" move 0 12 6
# An endless move reports the position unchanged; any move after it is refused.
IFS='|' read -r apn move <"$vectors/endless.txt"
expect_out "$apn endless" move --position "$apn" "$move"
out_before="$apn endless"
expect_error "the game is over" move --position "$apn" "$move" "$move"
# A move in which the cycle check finds no repeat in 2^32 laps (capture 64) is endless by the
# bound on seeds sown, at once (it used to crash after minutes, when the lap count wrapped).
apn="0,1,6,3,2,1,6,3,25,3,0,1/8,2,1,5,2,1,2,3,5,4,11,1 0/0 N - -"
expect_out "$apn endless" move --capture 64 --position "$apn" 22
# A move that ends the game with four seeds left; a move after it is refused.
expect_out "0,0,0,1/0,1,1,1 12/16 S N S over" move --position "0,0,3,0/3,0,1,1 12/12 S S S" 2
out_before="0,0,0,1/0,1,1,1 12/16 S N S over"
expect_error "the game is over" move --position "0,0,3,0/3,0,1,1 12/12 S S S" 2 3
expect_error "the game is over" move --position "0,0,0,1/0,1,1,1 12/16 S N S" 3
# The third move of the game above is an empty hole, after two lines of output.
out_before="1,5,5,5,0,5,5,5,5,0,5,5/5,5,0,5,5,5,5,0,5,5,5,5 0/0 N - - next
2,6,6,6,1,0,6,6,6,1,6,0/1,7,2,7,7,1,6,1,6,6,6,0 0/0 S - - next"
expect_error "move 5: hole S6 is empty" move 0 12 5
# Illegal moves.
expect_error "is empty" move --position "0,2,0,1/3,0,1,1 10/6 N - -" 5
expect_error "South's" move --position "0,2,0,1/3,0,1,1 10/6 N - -" 1
expect_error "North's" move 12
expect_error "no such hole" move 24
expect_error "no such hole" move --variant yit-nuri 14
expect_error "'x' is not a hole" move x
expect_error "out of range" move -- -1
expect_error "MOVE" move
# An empty or malformed MOVE says what a move is, before any move is played.
expect_error "anywoli move: MOVE 1 is empty (a move is a hole: S1 to S12, N1 to N12, or its index 0 to 23)" move ''
expect_error "anywoli move: MOVE 2 is empty (a move is a hole: S1 to S12, N1 to N12, or its index 0 to 23)" move 3 ''
expect_error "MOVE 1: ' 3' is not a hole (a move is a hole: S1 to S7, N1 to N7, or its index 0 to 13)" \
    move --variant yit-nuri ' 3'
expect_error "MOVE 2: '0x4' is not a hole" move 0 0x4
expect_error "MOVE 1: -1 is out of range (a move is a hole: S1 to S12, N1 to N12, or its index 0 to 23)" move -- -1
# A hole's name (S4, N4, either case) is the same move as its index; a name beyond the row
# or of the wrong form is not a hole.
expect_out "$("$bin" move 0 12 4)" move S1 n1 S5
expect_error "move 12: hole N1 is North's, and South is to move" move N1
expect_error "MOVE 1: 'S13' is not a hole" move S13
expect_error "MOVE 1: 'S0' is not a hole" move S0
expect_error "MOVE 1: 'S04' is not a hole" move S04
# Bad variant options and positions.
expect_error "holes: 99 is out of range" move --holes 99 0
expect_error "anywoli move: --holes 99: holes: 99 is out of range (2 to 32)" move --holes 99 0
expect_error "anywoli perft: --variant: unknown preset 'oware' (expected anywoli, yit-nuri or yit-jani)" \
    perft --variant oware 1
expect_error "anywoli run: --variant: unknown preset 'oware' (expected anywoli, yit-nuri or yit-jani)" \
    run --variant oware -o "$tmp/x.h5"
expect_error "holes: 1 is out of range" perft --holes 1 1
expect_error "seeds" perft --seeds 0 1
expect_error "capture" perft --capture 65 1
expect_error "is not a convention" move --final-four bogus 0
expect_error "is not yes or no" move --extra-turn maybe 0
expect_error "is not yes or no" perft --skip-origin 2 1
expect_error "max_plies" perft --max-plies 0 1
expect_error "unknown preset 'oware'" perft --variant oware 1
expect_error "--position" move --position "4,4/4,4 0/0 S -" 0
expect_error "--position" move --position "4,4,4/4,4 0/0 S - -" 0
expect_error "rows of 12 holes, but the variant has 7" \
    move --variant yit-nuri --position "$start12" 0
expect_error "but the variant has" perft --seeds 3 --position "4,4/4,4 0/0 S - -" 1
expect_error "--position" perft --position "" 1

# --- bench: the same signature for one and two threads ----------------------------------
tested+=(bench)
run bench --games 200 --threads 1
rc1=$rc
sig1=$(grep '^Bench: ' "$tmp/out")
boards1=$(grep -cE '^bench (anywoli|yit-nuri|yit-jani) games=200 plies=[0-9]+ ' "$tmp/out")
run bench --games 200 --threads 2
sig2=$(grep '^Bench: ' "$tmp/out")
if [[ $rc1 -ne 0 || $rc -ne 0 ]]; then
    fail "anywoli bench: exit status $rc1 / $rc"
elif ! [[ $sig1 =~ ^Bench:\ [0-9]+\ [0-9a-f]{16}$ ]]; then
    fail "anywoli bench: signature line '$sig1'"
elif [[ "$sig1" != "$sig2" ]]; then
    fail "anywoli bench: '$sig1' with 1 thread, '$sig2' with 2"
elif [[ $boards1 -ne 3 ]]; then
    fail "anywoli bench: $boards1 board lines, expected one for each of the 3 presets"
fi
# A different number of games plays other games: another signature.
run bench --games 100 --threads 1
sig3=$(grep '^Bench: ' "$tmp/out")
[[ "$sig3" != "$sig1" ]] || fail "anywoli bench: 100 and 200 games give the same signature"
expect_error "--games" bench --games 0
expect_error "--threads" bench --threads x
expect_error "unexpected argument" bench extra

# --- agents and play ----------------------------------------------------------------------
tested+=(agents play)
run agents
[[ $rc -eq 0 ]] && grep -q '^random ' "$tmp/out" && grep -q '^alphabeta ' "$tmp/out" \
    || fail "anywoli agents: status $rc, output $(head -c 200 "$tmp/out")"
expect_error "unknown" agents nobody
# The defaults `anywoli agents` states are the ones each agent plays: every option line's
# key=value, and every key=value a summary names, equal the agent's full default spec (`anywoli
# agents NAME`), unless the summary names a value other than the default, which must then be
# followed by the default ("expand=all; default expand=one"; mcts' summary used to say
# minimax=alpha and expand=all with both off by default).
/usr/bin/python3 - "$bin" <<'PY' || fail "anywoli agents: a stated default is not the agent's"
import re, subprocess, sys
binary = sys.argv[1]
out = subprocess.run([binary, "agents"], capture_output=True, text=True, check=True).stdout
kinds, bad = [], []
for line in out.splitlines():
    if not line.startswith(" "):
        name, summary = line.split(None, 1)
        kinds.append([name, summary, []])
    else:
        kinds[-1][2].append(line.split()[0])
for name, summary, options in kinds:
    if name == "external":
        continue   # it needs a program (cmd=PROGRAM): no default spec to compare
    full = subprocess.run([binary, "agents", name], capture_output=True, text=True, check=True)
    given = full.stdout.strip().partition(":")[2]
    spec = dict(kv.split("=", 1) for kv in given.split(",") if kv)
    for kv in options:
        k, v = kv.split("=", 1)
        if spec.get(k, "") != v:   # an option with no default (a file) is left out
            bad.append(f"{name}: option line {kv}, the spec plays {k}={spec.get(k)}")
    if "{" in summary or "}" in summary:
        bad.append(f"{name}: summary not expanded: {summary}")
    for m in re.finditer(r"\b([a-z_.]+)=([^\s,;)]+)", summary):
        k, v = m.groups()
        if k not in spec or spec[k] == v:
            continue
        if not summary[m.end():].startswith(f"; default {k}={spec[k]}"):
            bad.append(f"{name}: the summary names {k}={v} without its default {k}={spec[k]}")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
checks=$((checks + 1))
expect_error "depth" agents alphabeta:depth=0
# A person's answers: a name of the other side's row, a name beyond the row, an empty hole
# (named), then the name in either case and the bare number; each bad one is one stderr line
# and the question comes again.
printf 'N3\nS13\nS4\ns4\n4\nquit\n' | "$bin" play --north greedy --quiet >"$tmp/out" 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
[[ $rc -eq 0 && "$(cat "$tmp/err")" == "'N3' is not one of South's holes
'S13': type a hole of South's, S1 to S12
S4 is empty" ]] && grep -qx "South plays S4: 5 laps; no capture. North to move." "$tmp/out" \
    && grep -qx "South plays S4: 3 laps; no capture. North to move." "$tmp/out" \
    && grep -qx "South quits after 4 plies." "$tmp/out" \
    || fail "anywoli play (a person's answers): status $rc, $(cat "$tmp/err" "$tmp/out")"
# Two agents play a whole game to its end; the same seed gives the same game.
run play --south greedy --north random --seed 3 --quiet
[[ $rc -eq 0 ]] && grep -q 'Game over' "$tmp/out" || fail "anywoli play (agents): status $rc"
cp "$tmp/out" "$tmp/game1"
run play --south greedy --north random --seed 3 --quiet
cmp -s "$tmp/out" "$tmp/game1" || fail "anywoli play: the same seed gave another game"
# A person through a pipe: a bad label gets a message, not a crash.
printf 'x\n99\n1\nquit\n' | "$bin" play --north random --seed 1 >"$tmp/out" 2>"$tmp/err"; rc=$?
checks=$((checks + 1))
[[ $rc -eq 0 ]] && grep -q 'South plays S1' "$tmp/out" && [[ -s "$tmp/err" ]] \
    || fail "anywoli play (piped person): status $rc"

# --- engine: an agent over the line protocol (the rest: tests/protocol_test.sh) -----------
tested+=(engine)
printf 'anywoli protocol 1\ngame seed 1 side S holes 6\nposition 4,4,4,4,4,4/4,4,4,4,4,4 0/0 S - -\nquit\n' \
    | "$bin" engine --agent greedy >"$tmp/out" 2>"$tmp/err"; rc=$?
checks=$((checks + 1))
[[ $rc -eq 0 && "$(sed -n 2p "$tmp/out")" == "protocol 1" ]] && grep -q '^move [0-5]' "$tmp/out" \
    || fail "anywoli engine: status $rc, output $(head -c 200 "$tmp/out")"
expect_error "--agent" engine
expect_error "unknown" engine --agent nobody

# --- run and replay: their help and bad inputs (the rest: tests/driver_test.sh) ------------
tested+=(run replay)
expect_error "unknown option '--frobnicate' (see --help)" run --frobnicate
# A slip of an option, a key, an agent or an option of an agent names the nearest one;
# a prefix of several options lists them.
expect_error "anywoli run: unknown option '--agnet-a'; did you mean '--agent-a'? (see --help)" \
    run --agnet-a greedy
expect_error "unknown option '--agnet-a'; did you mean '--agent-a'?" run --agnet-a=greedy
expect_error "unknown option '--theads'; did you mean '--threads'?" run --theads 2
expect_error "anywoli run: unknown option '-z' (see --help)" run --force -zq   # not '--force'
expect_error "unknown option '--holse'; did you mean '--holes'?" run --holse 5
expect_error "ambiguous option '--agent': --agent-a or --agent-b" run --agent greedy
expect_error "agent 'alphabeat': unknown; did you mean 'alphabeta'?" \
    run --agent-a alphabeat:depth=4 --games 2 -o "$tmp/x.h5"
expect_error "agent 'alphabeta': unknown option 'dept'; did you mean 'depth'?" \
    run --agent-a alphabeta:dept=4 --games 2 -o "$tmp/x.h5"
expect_error "unknown preset 'yit-nuir'; did you mean 'yit-nuri'?" \
    run --variant yit-nuir --games 2 -o "$tmp/x.h5"
expect_error "'lotery' is not a convention; did you mean 'lottery'?" \
    run --final-four lotery --games 2 -o "$tmp/x.h5"
expect_error "did you mean 'plies'?" run --openings plise:2 --games 2 -o "$tmp/x.h5"
# A book is read a bounded line at a time: a line of 600 MB (NUL bytes, no line break) read
# within 400 MB of address space is a one-line error naming it, never the end of the book
# (it used to end the book there: a run of its first 2 openings, exit status 0).
printf '3 14 7\n11 23\n' >"$tmp/huge-book.txt"
truncate -s 600M "$tmp/huge-book.txt"
if ! grep -qa __asan_init "$bin"; then
    (ulimit -v 400000; exec "$bin" run --openings "file:$tmp/huge-book.txt" --games 4 \
        -o "$tmp/hb.h5" --quiet >"$tmp/out" 2>"$tmp/err")
    rc=$?
    checks=$((checks + 1))
    [[ $rc -eq 2 && $(wc -l <"$tmp/err") -eq 1 && ! -e "$tmp/hb.h5" ]] \
        && grep -qF "anywoli run: --openings: $tmp/huge-book.txt:3: longer than 4096 characters" "$tmp/err" \
        || fail "a book with a line of 600 MB: status $rc, $(head -c 300 "$tmp/err")"
fi
rm -f "$tmp/huge-book.txt"
cat >"$tmp/slip.cfg" <<'EOF_CFG'
sede = 1L;
output = "unused.h5";
jobs = ( { name = "a"; agent_a = "random"; agent_b = "random";
           gmaes = 10L; } );
EOF_CFG
expect_error "slip.cfg:1: sede: unknown setting; did you mean 'seed'? (expected seed, output" \
    run --dry-run "$tmp/slip.cfg"
sed -i 's/^sede = /seed = /' "$tmp/slip.cfg"
expect_error "slip.cfg:4: gmaes: unknown setting; did you mean 'games'? (expected variant" \
    run --dry-run "$tmp/slip.cfg"
# No hint where no name is near.
expect_error "agent 'frobnicate': unknown (expected" run --agent-a frobnicate -o "$tmp/x.h5"
expect_error "cannot" run "$tmp/no-such-config.cfg"
expect_error "games" run --agent-a random --agent-b random --games 0 -o "$tmp/x.h5"
# A game counts its plies in 32 bits; a larger cap used to be taken, and the count would wrap
# (the cap is lower still: it bounds the memory of a job's length histogram).
expect_error "max_plies: 5000000000 is out of range (at most 10000000)" \
    run --max-plies 5000000000 --games 1 -o "$tmp/x.h5"
[[ ! -e "$tmp/x.h5" && ! -e "$tmp/x.h5.partial" ]] || fail "anywoli run: a refused run left a file"
run run --agent-a random --agent-b random --games 40 --seed 5 --holes 5 -o "$tmp/r.h5" --quiet
[[ $rc -eq 0 && -s "$tmp/r.h5" ]] || fail "anywoli run (quick form): status $rc"
# An odd number of games where the pair is the unit (two agents, or openings) splits the last
# pair: one note on stderr before play, one line in the summary (it used to say nothing); an
# even number, or one agent from the start (no pair to split), says nothing.
run run --agent-a greedy --agent-b random --games 5 --seed 5 --holes 5 -o "$tmp/odd.h5"
[[ $rc -eq 0 && $(wc -l <"$tmp/err") -eq 1 ]] \
    && grep -qx "anywoli run: note: job 'main': 5 games is odd, so its last game (game 4) has no colour-swapped partner and the paired figures (analyze's pairs, the SPRT) leave it out; an even number keeps every pair whole" "$tmp/err" \
    && grep -qx "note: job main: its last game has no colour-swapped partner (5 games, an odd number): the paired figures leave it out" "$tmp/out" \
    || fail "anywoli run with an odd paired games count: status $rc, $(cat "$tmp/err" "$tmp/out")"
run run --games 5 --openings plies:2 --seed 5 --holes 5 -o "$tmp/odd2.h5" --dry-run
[[ $rc -eq 0 ]] && grep -q "note: job 'main': 5 games is odd" "$tmp/err" \
    || fail "anywoli run --dry-run, odd games from openings: no note ($(cat "$tmp/err"))"
for args in "--agent-a greedy --agent-b random --games 6" "--games 5"; do
    # shellcheck disable=SC2086
    run run $args --seed 5 --holes 5 -o "$tmp/even.h5" --force
    [[ $rc -eq 0 && ! -s "$tmp/err" ]] && ! grep -q "^note:" "$tmp/out" \
        || fail "anywoli run $args: a note where no pair is split: $(cat "$tmp/err")"
done
run replay "$tmp/r.h5" --job main --game 3
[[ $rc -eq 0 ]] || fail "anywoli replay: status $rc"
# capture 64: games whose moves reach the bound on seeds sown end `endless` (they used to
# crash); replaying one repeats its endless move.
run run --capture 64 --games 4 --seed 1 --threads 1 -o "$tmp/c64.h5" --quiet
[[ $rc -eq 0 ]] && grep -q '^main  *4 .* 2  50.0%  *2  50.0%' "$tmp/out" \
    || fail "anywoli run --capture 64: status $rc, $(cat "$tmp/out")"
run replay "$tmp/c64.h5" --job main --game 1
[[ $rc -eq 0 ]] && grep -q '^32534 N N5 .* endless$' "$tmp/out" \
    && grep -q '^check: the stored row matches' "$tmp/out" \
    || fail "anywoli replay of an endless capture-64 game: status $rc"
expect_error "job" replay "$tmp/r.h5" --job nosuchjob --game 0
# A job the file lacks: every command that takes --job lists the jobs there are (analyze used
# to say only "try without --job"), with the nearest as a hint where it looks like a slip.
expect_error "r.h5: no job 'd4' (its jobs: main)" analyze "$tmp/r.h5" --job d4
expect_error "r.h5: no job 'mian'; did you mean 'main'? (its jobs: main)" analyze "$tmp/r.h5" --job mian
expect_error "r.h5: no job 'd4' (its jobs: main)" replay "$tmp/r.h5" --job d4 --game 0
expect_error "r.h5: no job 'd4' (its jobs: main)" export "$tmp/r.h5" --job d4
# The pages of replay --html and search --html (read in Chromium by board_page_test.py): their
# option errors.
expect_error "--force: only with --html OUT.html" replay "$tmp/r.h5" --job main --game 3 --force
expect_error "--force: only with --html OUT.html" search --holes 4 --depth 1 --force

# --- export: a row per game and its bad inputs (the rest: tests/export_test.sh) -----------
tested+=(export)
run export "$tmp/r.h5"
[[ $rc -eq 0 && $(wc -l <"$tmp/out") -eq 41 ]] && grep -q '^job,game,outcome,' "$tmp/out" \
    || fail "anywoli export: status $rc, $(wc -l <"$tmp/out") lines (expected 1 + 40)"
expect_error "no job 'nosuchjob'" export "$tmp/r.h5" --job nosuchjob
expect_error "missing the results FILE" export
expect_error "anywoli export: unknown option '--jbo'; did you mean '--job'? (see --help)" \
    export "$tmp/r.h5" --jbo main

# --- merge: its bad inputs (the rest: tests/grow_test.sh) ---------------------------------
tested+=(merge)
expect_error "-o OUT is required" merge "$tmp/r.h5" "$tmp/r.h5"
expect_error "give at least two results files" merge -o "$tmp/m.h5" "$tmp/r.h5"
expect_error "both hold games 0..39 of job main" merge -o "$tmp/m.h5" "$tmp/r.h5" "$tmp/r.h5"
expect_error "anywoli merge: unknown option '--forse'; did you mean '--force'? (see --help)" \
    merge --forse -o "$tmp/m.h5" "$tmp/r.h5" "$tmp/r.h5"
[[ ! -e "$tmp/m.h5" && ! -e "$tmp/m.h5.journal" ]] || fail "a refused merge left files"

# --- analyze: its help and bad inputs (the rest: tests/analyze_test.sh) -------------------
tested+=(analyze)
run analyze --help
[[ $rc -eq 0 ]] && grep -q '^usage: anywoli analyze' "$tmp/out" && [[ ! -s "$tmp/err" ]] \
    || fail "anywoli analyze --help: status $rc"
printf 'not an HDF5 file\n' >"$tmp/not-results.h5"
expect_error "not an anywoli results file" analyze "$tmp/not-results.h5"
expect_error "no-such-file.h5: cannot open: No such file or directory" analyze "$tmp/no-such-file.h5"
mkfifo "$tmp/fifo.h5"
expect_error "$tmp/fifo.h5: not a regular file (a FIFO)" analyze "$tmp/fifo.h5"
expect_error "$tmp/fifo.h5: not a regular file (a FIFO)" replay "$tmp/fifo.h5" --job main \
    --game 0
expect_error "missing the results FILE" analyze
expect_error "--sprt" analyze --sprt 5,1 "$tmp/not-results.h5"

# --- solve: the value, then every move with its value, best first -------------------------
tested+=(solve)
# expect_solved WANT ARGS...: solve's output is WANT, then its cost, last.
expect_solved() {
    local want=$1
    shift
    run "$@"
    if [[ $rc -ne 0 ]]; then
        fail "anywoli $*: exit status $rc (stderr: $(head -c 300 "$tmp/err"))"
    elif [[ "$(sed '$d' "$tmp/out")" != "$want" ]] \
        || ! tail -n 1 "$tmp/out" | grep -qE '^cost seconds [0-9]+\.[0-9]{2} peak_mib [1-9][0-9]*\.[0-9]$'
    then
        fail "anywoli $*: output
$(cat "$tmp/out")
expected
$want
cost seconds T peak_mib M"
    fi
}
expect_solved "value 12
move S2 12 next
move S3 -4 next
states 11 components 11 largest 1" solve --holes 3 "0,2,2/0,2,2 4/0 S S -"
expect_solved "value -4
move N1 -4 over
move N2 -12 next
states 2 components 2 largest 1" solve --holes 3 --final-four first-final "1,0,1/3,3,0 4/0 N S S"
run solve --start --holes 3 --seeds 2
[[ $rc -eq 0 ]] && grep -qE '^value -?[0-9]+$' "$tmp/out" || fail "anywoli solve --start: status $rc"
run solve --max-states 1000
[[ $rc -eq 1 ]] && grep -q 'too large' "$tmp/err" || fail "anywoli solve (too large): status $rc"
expect_error "not both" solve --start --holes 3 "0,2,2/0,2,2 4/0 S S -"
expect_error "--max-states" solve --max-states 0
expect_error "unexpected argument" solve "0,2,2/0,2,2 4/0 S S -" extra

# --- search: a line per depth (search_test.sh checks it in full) ---------------------------
tested+=(search)
run search --depth 3 --holes 3 --seeds 2
[[ $rc -eq 0 ]] && [[ "$(sed -E 's/ time [0-9.]+//' "$tmp/out")" == "depth 1 value +3.60 south +3.60 nodes 3 pv S1
depth 2 value -4.00 south -4.00 nodes 10 pv S1 N1
depth 3 value -4.00 south -4.00 nodes 21 pv S1 N1" ]] || fail "anywoli search --depth 3: $(cat "$tmp/out")"
expect_error "only an alphabeta or strong spec" search --agent random

# --- tables: build, info, and solve with them ---------------------------------------------
tested+=(tables)
# 18 seeds in all, captures of 4: from the start only level 6 (of 5 to 9) can occur.
run tables build --holes 3 --seeds 3 --max-seeds 9 -o "$tmp/t33.tb"
[[ $rc -eq 0 ]] && grep -q '^tables .*: max_seeds 9, levels 6, 462 positions' "$tmp/out" \
    && grep -qE '^level 6: 462 placements, 462 values, [0-9]+ edges \(in-degree at most [0-9]+\), list file [0-9]+ bytes, [0-9]+ rounds, [0-9]+ updates, [0-9.]+ s, peak RSS [0-9]+ MiB$' "$tmp/err" \
    && ! grep -q '^level [5789] ' "$tmp/err" \
    && [[ -f "$tmp/t33.tb" && ! -e "$tmp/t33.tb.partial" ]] \
    || fail "anywoli tables build: status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
run tables info "$tmp/t33.tb"
[[ $rc -eq 0 ]] && grep -q '^variant holes=3 seeds=3 capture=4 final_four=penultimate' "$tmp/out" \
    && grep -q '^max_seeds 9$' "$tmp/out" && grep -qE '^ +6 +462 +[0-9]+ ' "$tmp/out" \
    && grep -qx 'levels 6 (those a game from the start reaches)' "$tmp/out" \
    && ! grep -qE '^ +[5789] +[0-9]+ ' "$tmp/out" \
    || fail "anywoli tables info: status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
run tables build --holes 3 --seeds 3 --max-seeds 9 --all-levels -o "$tmp/t33all.tb" --quiet
[[ $rc -eq 0 ]] && grep -q '^tables .*: max_seeds 9, levels 5, 6, 7, 8, 9, 4795 positions' \
    "$tmp/out" || fail "anywoli tables build --all-levels: status $rc, $(head -c 300 "$tmp/out")"
run tables info "$tmp/t33all.tb"
[[ $rc -eq 0 ]] && grep -qx 'levels 5, 6, 7, 8, 9 (every level)' "$tmp/out" \
    && grep -qE '^ +9 +[0-9]+ +[0-9]+ ' "$tmp/out" \
    || fail "anywoli tables info (all levels): status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
# A composed position on a level the file does not hold (7 seeds; or 11, whose play reaches
# 7) is refused with the levels the file holds; with every level it is solved.
expect_error "--tables $tmp/t33.tb: the position (7 seeds on the board) reaches level 7, which the file does not hold (it holds levels 6;" \
    solve --holes 3 --seeds 3 --tables "$tmp/t33.tb" "1,2,1/3,0,0 4/7 S - -"
expect_error "the position (11 seeds on the board) reaches level 7" \
    solve --holes 3 --seeds 3 --tables "$tmp/t33.tb" "1,2,1/3,3,1 4/3 S - -"
# alphabeta:tables= and mcts:tables= say so when play starts from such a position (and are
# silent from the start, which reaches only held levels).
run play --holes 3 --seeds 3 --south "alphabeta:tables=$tmp/t33.tb" \
    --north "mcts:playouts=50,tables=$tmp/t33.tb" --position "1,2,1/3,0,0 4/7 S - -" --quiet
[[ $rc -eq 0 ]] \
    && grep -qx "anywoli play: --south: note: agent 'alphabeta': tables=$tmp/t33.tb do not hold level 7, which this position reaches (they hold levels 6): positions there are searched without them" "$tmp/err" \
    && grep -q "^anywoli play: --north: note: agent 'mcts': tables=$tmp/t33.tb do not hold level 7" "$tmp/err" \
    || fail "anywoli play, tables without the position's level: status $rc, $(cat "$tmp/err")"
run play --holes 3 --seeds 3 --south "alphabeta:tables=$tmp/t33.tb" --north random --quiet
[[ $rc -eq 0 && ! -s "$tmp/err" ]] \
    || fail "anywoli play from the start with reachable tables: status $rc, $(cat "$tmp/err")"
run solve --holes 3 --seeds 3 "1,2,1/3,0,0 4/7 S - -"
head -1 "$tmp/out" >"$tmp/solve-7"
run solve --holes 3 --seeds 3 --tables "$tmp/t33all.tb" "1,2,1/3,0,0 4/7 S - -"
[[ $rc -eq 0 ]] && [[ "$(head -1 "$tmp/out")" == "$(cat "$tmp/solve-7")" ]] \
    || fail "anywoli solve --tables (all levels) on level 7: status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
# The same file for one thread and for two.
# The work files: in --work-dir (default: FILE's folder), unlinked at once, none left; a
# work directory that cannot be written is a one-line error, exit 2, and no file.
mkdir "$tmp/work"
run tables build --holes 3 --seeds 3 --final-four first-final --max-seeds 9 \
    --work-dir "$tmp/work" -o "$tmp/t33ff.tb"
[[ $rc -eq 0 ]] && grep -q '^level 6: 462 placements, 1386 values' "$tmp/err" \
    && [[ -z "$(ls -A "$tmp/work")" ]] \
    || fail "anywoli tables build --work-dir: status $rc, $(ls -A "$tmp/work") $(head -c 300 "$tmp/err")"
expect_error "anywoli tables: $tmp/no-such-dir: cannot create a work file (No such file or directory)" \
    tables build --holes 3 --seeds 3 --max-seeds 9 --work-dir "$tmp/no-such-dir" -o "$tmp/x.tb"
expect_error "anywoli tables: $tmp/t33.tb: cannot create a work file (Not a directory)" \
    tables build --holes 3 --seeds 3 --max-seeds 9 --work-dir "$tmp/t33.tb" -o "$tmp/x.tb"
[[ ! -e "$tmp/x.tb" && ! -e "$tmp/x.tb.partial" && ! -e "$tmp/x.tb.lock" ]] \
    || fail "anywoli tables build --work-dir: a file was left after an I/O error"
# A work file that cannot grow (as on a full disk; here a file size limit of 2 KiB, the
# signal ignored so that the write fails instead): one line, exit 2, no file left.
( trap '' XFSZ; ulimit -f 2; exec "$bin" tables build --holes 3 --seeds 3 --max-seeds 9 \
    --work-dir "$tmp/work" -o "$tmp/x.tb" ) >"$tmp/out" 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
[[ $rc -eq 2 && $(wc -l <"$tmp/err") -eq 1 && ! -e "$tmp/x.tb" && ! -e "$tmp/x.tb.partial" ]] \
    && grep -qx "anywoli tables: $tmp/work: cannot write a work file (File too large)" "$tmp/err" \
    && [[ -z "$(ls -A "$tmp/work")" ]] \
    || fail "anywoli tables build, a work file that cannot grow: status $rc, $(cat "$tmp/err")"
run tables build --variant yit-nuri --max-seeds 8 -o "$tmp/n1.tb" --threads 1 --quiet
run tables build --variant yit-nuri --max-seeds 8 -o "$tmp/n2.tb" --threads 2 --quiet
[[ $rc -eq 0 ]] && cmp -s "$tmp/n1.tb" "$tmp/n2.tb" \
    || fail "anywoli tables build --threads 1 and 2: different files (status $rc)"
# --also: the board's tables under other conventions from the same build, each file the
# same byte for byte as its own build's; a convention or a file named twice, a bad
# CONVENTION=FILE, or a file that exists is refused before any work, no file or lock left.
run tables build --variant yit-nuri --max-seeds 8 --final-four first-final -o "$tmp/nf.tb" --quiet
run tables build --variant yit-nuri --max-seeds 8 --final-four lottery -o "$tmp/nl.tb" --quiet
run tables build --variant yit-nuri --max-seeds 8 -o "$tmp/s1.tb" --also "lottery=$tmp/s3.tb" \
    --also "first-final=$tmp/s2.tb"
[[ $rc -eq 0 ]] && cmp -s "$tmp/n1.tb" "$tmp/s1.tb" && cmp -s "$tmp/nf.tb" "$tmp/s2.tb" \
    && cmp -s "$tmp/nl.tb" "$tmp/s3.tb" \
    && grep -q "^tables $tmp/s2.tb (first-final): max_seeds 8, levels 8," "$tmp/out" \
    && grep -qE '^level 8: [0-9]+ placements, [0-9]+ values' "$tmp/err" \
    && [[ $(grep -c '^level 8: ' "$tmp/err") -eq 1 ]] \
    || fail "anywoli tables build --also: status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
expect_error "--also penultimate: that convention is built already" \
    tables build --holes 3 --seeds 3 --max-seeds 9 -o "$tmp/x.tb" --also "penultimate=$tmp/y.tb"
expect_error "$tmp/x.tb and $tmp/x.tb are one file: each output needs a name of its own" \
    tables build --holes 3 --seeds 3 --max-seeds 9 -o "$tmp/x.tb" --also "lottery=$tmp/x.tb"
expect_error "--also: 'first-last' is not a convention" \
    tables build --holes 3 --seeds 3 --max-seeds 9 -o "$tmp/x.tb" --also "first-last=$tmp/y.tb"
expect_error "--also: 'lottery' is not CONVENTION=FILE" \
    tables build --holes 3 --seeds 3 --max-seeds 9 -o "$tmp/x.tb" --also lottery
expect_error "$tmp/t33.tb already exists (--force replaces it)" \
    tables build --holes 3 --seeds 3 --max-seeds 9 -o "$tmp/x.tb" --also "lottery=$tmp/t33.tb"
[[ ! -e "$tmp/x.tb" && ! -e "$tmp/x.tb.lock" && ! -e "$tmp/y.tb" && ! -e "$tmp/t33.tb.lock" ]] \
    || fail "anywoli tables build --also: a file or lock was left after a refusal"
# With tables, the same value and moves as without, from fewer states.
run solve --holes 3 --seeds 3 --start
grep -v '^states\|^cost' "$tmp/out" >"$tmp/solve-plain"
plain_states=$(awk '/^states/ {print $2}' "$tmp/out")
run solve --holes 3 --seeds 3 --tables "$tmp/t33.tb" --start
grep -v '^states\|^cost' "$tmp/out" >"$tmp/solve-tables"
tables_states=$(awk '/^states/ {print $2}' "$tmp/out")
[[ $rc -eq 0 ]] && cmp -s "$tmp/solve-plain" "$tmp/solve-tables" \
    && [[ $tables_states -lt $plain_states ]] \
    || fail "anywoli solve --tables: status $rc, $(cat "$tmp/solve-tables") ($tables_states states)"
expect_error "t33.tb already exists (--force replaces it)" tables build --holes 3 --seeds 3 --max-seeds 9 -o "$tmp/t33.tb"
expect_error "--max-seeds K is required" tables build --holes 3 -o "$tmp/x.tb"
expect_error "-o FILE is required" tables build --holes 3 --max-seeds 8
expect_error "--max-seeds: 4 is out of range" tables build --holes 3 --max-seeds 4 -o "$tmp/x.tb"
expect_error "--max-seeds: 19 is out of range" tables build --holes 3 --seeds 3 --max-seeds 19 \
    -o "$tmp/x.tb"
[[ ! -e "$tmp/x.tb" ]] || fail "anywoli tables build: a file was left after an error"
expect_error "the tables are for holes=3 seeds=3" solve --holes 3 --seeds 2 \
    --tables "$tmp/t33.tb" --start
echo "not tables" >"$tmp/not.tb"
expect_error "not an Anywoli tables file" tables info "$tmp/not.tb"
expect_error "cannot open" tables info "$tmp/missing.tb"
expect_error "--tables $tmp/missing.tb: cannot open" solve --holes 3 \
    --tables "$tmp/missing.tb" --start
# A FIFO (or any file that is not a regular one) is refused at once, never waited on.
mkfifo "$tmp/fifo.tb"
expect_error "$tmp/fifo.tb: not a regular file (a FIFO)" tables info "$tmp/fifo.tb"
expect_error "--tables $tmp/fifo.tb: not a regular file (a FIFO)" solve --holes 3 \
    --tables "$tmp/fifo.tb" --start
expect_error "tables=$tmp/fifo.tb: not a regular file (a FIFO)" agents \
    "alphabeta:tables=$tmp/fifo.tb"
expect_error "$tmp: not a regular file (a folder)" tables info "$tmp"
head -c 4500 "$tmp/t33.tb" >"$tmp/cut.tb"
expect_error "expected" tables info "$tmp/cut.tb"
# alphabeta with tables: the spec names them; a missing file or another variant is refused.
run agents "alphabeta:depth=2,tables=$tmp/t33.tb"
[[ $rc -eq 0 ]] && grep -qF "tables=$tmp/t33.tb" "$tmp/out" \
    || fail "anywoli agents alphabeta:tables=: status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
expect_error "agent 'alphabeta': tables=$tmp/missing.tb: cannot open" agents \
    "alphabeta:tables=$tmp/missing.tb"
expect_error "the tables are for holes=3 seeds=3" play --holes 4 --seeds 3 --quiet \
    --south "alphabeta:tables=$tmp/t33.tb" --north random
expect_error "--agent-a: agent 'alphabeta': tables=$tmp/t33.tb: the tables are for" run \
    --holes 4 --seeds 3 --agent-a "alphabeta:tables=$tmp/t33.tb" --games 10 -o "$tmp/x.h5"
expect_error "unknown action 'frob'" tables frob
expect_error "expected build, info, agree or compare" tables
# tables agree: a hand-checked position (holes=3 seeds=3): hole 1 is worth +6 (a final-seed
# capture, the 2 seeds left to South), hole 0 -6 (a relay into North's mid-sow capture, the 2
# left to North). Every game of a one-line book starts there and ends with its first move, so
# a position's loss is 0 or 12: random's mean loss is 12 times its share of other moves.
echo "1,2,0/3,0,0 6/6 S - -" >"$tmp/agree-book.txt"
run run --holes 3 --seeds 3 --openings "file:$tmp/agree-book.txt" --games 20 --record-moves \
    --quiet -o "$tmp/agree.h5"
run tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent random --agent alphabeta:depth=1 \
    --threads 1
cp "$tmp/out" "$tmp/agree1"
awk '$NF == "random" && $1 == 20 && $6 == 20 && ($4 - 12 * (1 - $2))^2 < 1e-6 { r++ }
     $NF == "alphabeta:depth=1" && $1 == 20 && $2 == 1 && $4 == 0 && $7 == 1 { a++ }
     END { exit !(r == 1 && a == 1) }' "$tmp/agree1" \
    && grep -q '^positions 20: every position with 5 to 9 seeds' "$tmp/agree1" \
    || fail "anywoli tables agree: status $rc, $(cat "$tmp/agree1" "$tmp/err")"
# --min-seeds: the book's position has 6 seeds.
run tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent random --min-seeds 7
[[ $rc -eq 0 ]] && grep -q '^positions 0: every position with 7 to 9 seeds' "$tmp/out" \
    && grep -qE '^ +0 ' "$tmp/out" \
    || fail "anywoli tables agree --min-seeds 7: status $rc, $(cat "$tmp/out" "$tmp/err")"
run tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent random --min-seeds 6
grep -q '^positions 20: every position with 6 to 9 seeds' "$tmp/out" \
    || fail "anywoli tables agree --min-seeds 6: status $rc, $(cat "$tmp/out" "$tmp/err")"
expect_error "--min-seeds" tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent random \
    --min-seeds 200
# --show: random's misses, each the hand-checked position.
run tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent random --show 2
[[ $rc -eq 0 && $(grep -c '^  miss ' "$tmp/out") -eq 2 ]] \
    && ! grep '^  miss ' "$tmp/out" | grep -vqxF '  miss 1,2,0/3,0,0 6/6 S - -: played S1 (-6), best S2 (+6)' \
    || fail "anywoli tables agree --show: status $rc, $(cat "$tmp/out" "$tmp/err")"
# The same figures for 1 and 2 threads, on random games of many positions.
run run --holes 3 --seeds 3 --games 30 --record-moves --quiet -o "$tmp/agree30.h5"
run tables agree "$tmp/t33.tb" "$tmp/agree30.h5" --agent random --agent alphabeta:depth=2 \
    --threads 1
cp "$tmp/out" "$tmp/agree30-1"
run tables agree "$tmp/t33.tb" "$tmp/agree30.h5" --agent random --agent alphabeta:depth=2 \
    --threads 2
[[ $rc -eq 0 ]] && cmp -s "$tmp/out" "$tmp/agree30-1" && grep -qE '^positions [0-9]{2,}' "$tmp/out" \
    || fail "anywoli tables agree --threads 1 and 2: status $rc, $(cat "$tmp/agree30-1" "$tmp/out")"
run tables agree "$tmp/t33.tb" "$tmp/agree30.h5" --agent random --first
grep -q '^positions 30: the first of each game' "$tmp/out" \
    || fail "anywoli tables agree --first: status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
# A composed opening on level 7, which t33.tb does not hold: those positions are counted
# and left out; alphabeta with the same tables searches there instead.
echo "1,2,1/3,0,0 4/7 S - -" >"$tmp/agree-book7.txt"
run run --holes 3 --seeds 3 --openings "file:$tmp/agree-book7.txt" --games 4 --record-moves \
    --quiet -o "$tmp/agree7.h5"
run tables agree "$tmp/t33.tb" "$tmp/agree7.h5" --agent random
[[ $rc -eq 0 ]] && grep -qE '^not measured: [1-9][0-9]* positions on levels the tables do not hold \(they hold 6;' "$tmp/out" \
    || fail "anywoli tables agree (level not held): status $rc, $(cat "$tmp/out" "$tmp/err")"
run run --holes 3 --seeds 3 --openings "file:$tmp/agree-book7.txt" --games 4 --quiet \
    --agent-a "alphabeta:depth=3,tables=$tmp/t33.tb" --agent-b random -o "$tmp/ab7t.h5"
rc_t=$rc
run run --holes 3 --seeds 3 --openings "file:$tmp/agree-book7.txt" --games 4 --quiet \
    --agent-a "alphabeta:depth=3" --agent-b random -o "$tmp/ab7.h5"
[[ $rc_t -eq 0 && $rc -eq 0 ]] \
    || fail "anywoli run with alphabeta:tables= on a level not held: status $rc_t, $(cat "$tmp/err")"
run run --holes 3 --seeds 3 --games 4 --quiet -o "$tmp/agree-nomoves.h5"
run run --holes 3 --seeds 2 --games 4 --record-moves --quiet -o "$tmp/agree32.h5"
expect_error "--agent SPEC is required" tables agree "$tmp/t33.tb" "$tmp/agree.h5"
expect_error "expected TABLES and RESULTS" tables agree "$tmp/t33.tb" --agent random
expect_error "--agent frob: " tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent frob
expect_error "cannot open" tables agree "$tmp/missing.tb" "$tmp/agree.h5" --agent random
expect_error "$tmp/missing.h5" tables agree "$tmp/t33.tb" "$tmp/missing.h5" --agent random
expect_error "job main has no stored moves" tables agree "$tmp/t33.tb" \
    "$tmp/agree-nomoves.h5" --agent random --job main
expect_error "no job has stored moves and the tables' variant" tables agree "$tmp/t33.tb" \
    "$tmp/agree32.h5" --agent random
expect_error "agree32.h5: job main: $tmp/t33.tb: the tables are for holes=3 seeds=3" \
    tables agree "$tmp/t33.tb" "$tmp/agree32.h5" --agent random --job main
expect_error "nosuch" tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent random --job nosuch
expect_error "--max-seeds 6: no level from 5 to 6 occurs in a game from the start" \
    tables build --holes 3 --seeds 2 --max-seeds 6 --quiet -o "$tmp/t32.tb"
[[ ! -e "$tmp/t32.tb" ]] || fail "anywoli tables build: a file was left after an error"
run tables build --holes 3 --seeds 2 --max-seeds 6 --all-levels --quiet -o "$tmp/t32.tb"
expect_error "--agent alphabeta:tables=$tmp/t32.tb: agent 'alphabeta': tables=$tmp/t32.tb: the tables are for" \
    tables agree "$tmp/t33.tb" "$tmp/agree.h5" --agent "alphabeta:tables=$tmp/t32.tb"
# tables compare: the three conventions of holes=3 seeds=3 (level 6): a row per pair, four
# for each pair with first-final; the JSON's examples (one per difference) have, under each
# convention, the value `anywoli solve` gives them; --show N adds a row's N largest.
for ff in penultimate first-final lottery; do
    run tables build --holes 3 --seeds 3 --final-four $ff --max-seeds 9 --quiet -o "$tmp/c-$ff.tb"
done
cmp_files=("$tmp/c-penultimate.tb" "$tmp/c-first-final.tb" "$tmp/c-lottery.tb")
run tables compare "${cmp_files[@]}"
[[ $rc -eq 0 ]] && grep -q '^board holes=3 seeds=3 capture=4 extra_turn=yes skip_origin=no, max_seeds 9, levels 6$' "$tmp/out" \
    && [[ $(grep -cE '^ +6 (penultimate/first-final|first-final/lottery) ' "$tmp/out") -eq 8 ]] \
    && grep -qE '^ +6 penultimate/lottery +- +434 ' "$tmp/out" \
    || fail "anywoli tables compare: status $rc, $(head -c 600 "$tmp/out" "$tmp/err")"
run tables compare "${cmp_files[@]}" --json
cp "$tmp/out" "$tmp/compare.json"
/usr/bin/python3 - "$tmp/compare.json" >"$tmp/examples" <<'PY' || fail "anywoli tables compare --json: $(head -c 300 "$tmp/compare.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [f["final_four"] for f in d["files"]] == ["penultimate", "first-final", "lottery"]
assert d["max_seeds"] == 9 and d["levels"] == "6" and len(d["rows"]) == 9
for r in d["rows"]:
    assert r["value_differs"] <= r["positions"] and r["result_differs"] <= r["value_differs"]
    assert sum(x["positions"] for x in r["differences"]) == r["value_differs"]
    assert [x["by"] for x in r["differences"]][:1] == ([r["largest"]] if r["largest"] else [])
    for x in r["differences"]:
        assert abs(x["value_a"] - x["value_b"]) == x["by"]
        print(r["a"], r["b"], x["value_a"], x["value_b"], x["apn"])
PY
[[ -s "$tmp/examples" ]] || fail "anywoli tables compare --json: no example"
while read -r fa fb va vb apn; do
    run solve --holes 3 --seeds 3 --final-four "$fa" "$apn"
    got_a=$(awk '$1 == "value" {print $2}' "$tmp/out")
    run solve --holes 3 --seeds 3 --final-four "$fb" "$apn"
    got_b=$(awk '$1 == "value" {print $2}' "$tmp/out")
    [[ $got_a -eq $va && $got_b -eq $vb ]] \
        || fail "anywoli tables compare: example $apn: $fa $va/$got_a, $fb $vb/$got_b"
done <"$tmp/examples"
# In play: each game of agree30.h5 replayed (`anywoli replay`) to its first position with at
# most 9 seeds on the board, solved (`anywoli solve`) under each convention: the results for
# South and the pairs that differ, as compare --games counts them.
run tables compare "${cmp_files[@]}" --games "$tmp/agree30.h5" --json
cp "$tmp/out" "$tmp/compare-games.json"
/usr/bin/python3 - "$bin" "$tmp/agree30.h5" "$tmp/compare-games.json" <<'PY' \
    || fail "anywoli tables compare --games: $(head -c 600 "$tmp/compare-games.json" "$tmp/err")"
import json, subprocess, sys
binary, results, got = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))["games"]
convs = ["penultimate", "first-final", "lottery"]
def run(*args):
    return subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout
def south_result(apn, ff):
    v = int(run("solve", "--holes", "3", "--seeds", "3", "--final-four", ff, apn).split()[1])
    v = v if apn.split()[2] == "S" else -v
    return (v > 0) - (v < 0)
def first_within(game, k=9):
    for line in run("replay", results, "--job", "main", "--game", str(game)).splitlines():
        f = line.split()
        if f[0] == "start" or (f[0].isdigit() and f[-1] != "endless"):
            apn = " ".join(f[1:6] if f[0] == "start" else f[3:8])
            if sum(int(x) for x in apn.split()[0].replace("/", ",").split(",")) <= k:
                return apn
        if f[-1] == "endless":
            return None
counts = {c: [0, 0, 0] for c in convs}
differs = {}
reached = 0
for game in range(30):
    apn = first_within(game)
    if apn is None:
        continue
    reached += 1
    r = {c: south_result(apn, c) for c in convs}
    for c in convs:
        counts[c][1 - r[c]] += 1
    for i in range(3):
        for j in range(i + 1, 3):
            key = convs[i] + "/" + convs[j]
            differs[key] = differs.get(key, 0) + (r[convs[i]] != r[convs[j]])
assert got["games"] == 30 and got["reached"] == reached > 0 and got["unheld"] == 0, got
for c in got["conventions"]:
    assert [c["south"], c["draw"], c["north"]] == counts[c["final_four"]], (c, counts)
for p in got["pairs"]:
    assert p["games"] == reached and p["differs"] == differs[p["pair"]], (p, differs)
assert any(p["differs"] for p in got["pairs"])
PY
run tables compare "${cmp_files[@]}" --games "$tmp/agree30.h5"
[[ $rc -eq 0 ]] && grep -qE '^in play: .*agree30.h5: 1 job, 30 games; [0-9]+ reach at most 9 seeds' "$tmp/out" \
    && grep -qE '^penultimate/lottery +[0-9]+ +[0-9]+ ' "$tmp/out" \
    || fail "anywoli tables compare --games: status $rc, $(tail -c 600 "$tmp/out") $(cat "$tmp/err")"
# --by-job: a row per job, in the file's order, whose games and differences add up to the
# totals (two jobs of 24 games, moves stored).
cat >"$tmp/two-jobs.cfg" <<'CFG'
seed = 5L;
defaults = { holes = 3; seeds = 3; record_moves = true; games = 24L; };
jobs = ( { name = "rnd"; agent_a = "random"; agent_b = "random"; },
         { name = "ab"; agent_a = "alphabeta:depth=2"; agent_b = "random"; } );
CFG
run run "$tmp/two-jobs.cfg" --quiet -o "$tmp/two-jobs.h5"
run tables compare "${cmp_files[@]}" --games "$tmp/two-jobs.h5" --by-job --json
cp "$tmp/out" "$tmp/by-job.json"
/usr/bin/python3 - "$tmp/by-job.json" <<'PY' || fail "anywoli tables compare --by-job: $(head -c 600 "$tmp/by-job.json" "$tmp/err")"
import json, sys
d = json.load(open(sys.argv[1]))
jobs, games = d["jobs"], d["games"]
assert [j["job"] for j in jobs] == ["rnd", "ab"], jobs
assert sum(j["games"] for j in jobs) == games["reached"] > 0
for k, p in enumerate(games["pairs"]):
    assert sum(j["pairs"][k]["differs"] for j in jobs) == p["differs"]
    for j in jobs:
        q = j["pairs"][k]
        assert q["pair"] == p["pair"] and abs(q["share"]["value"] - q["differs"] / j["games"]) < 1e-12
PY
run tables compare "${cmp_files[@]}" --games "$tmp/two-jobs.h5" --by-job --job ab
[[ $rc -eq 0 ]] && grep -qE '^ab +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$tmp/out" \
    && ! grep -q '^rnd ' "$tmp/out" \
    || fail "anywoli tables compare --by-job --job: status $rc, $(tail -c 400 "$tmp/out")"
expect_error "--by-job needs --games RESULTS" tables compare "${cmp_files[@]}" --by-job
expect_error "no job has stored moves and the tables' variant (holes=3 seeds=3" \
    tables compare "${cmp_files[@]}" --games "$tmp/agree32.h5"
expect_error "job main has no stored moves" \
    tables compare "${cmp_files[@]}" --games "$tmp/agree-nomoves.h5" --job main
expect_error "--games $tmp/missing.h5" tables compare "${cmp_files[@]}" --games "$tmp/missing.h5"
expect_error "--job needs --games RESULTS" tables compare "${cmp_files[@]}" --job main
run tables compare "$tmp/c-penultimate.tb" "$tmp/c-first-final.tb" --show 2
[[ $rc -eq 0 && $(grep -cE '^      by [0-9]+: [0-9]+ positions, the first ' "$tmp/out") -eq 3 ]] \
    && grep -qE '^ +6 penultimate/first-final +mover .*$' "$tmp/out" \
    || fail "anywoli tables compare --show: status $rc, $(head -c 900 "$tmp/out" "$tmp/err")"
expect_error "--show" tables compare "${cmp_files[@]}" --show -1
expect_error "compare takes two FILEs or more" tables compare "$tmp/c-lottery.tb"
expect_error "not an Anywoli tables file" tables compare "$tmp/c-lottery.tb" "$tmp/not.tb"
expect_error "$tmp/t33.tb: final_four penultimate, as $tmp/c-penultimate.tb" \
    tables compare "$tmp/c-penultimate.tb" "$tmp/t33.tb"
expect_error "$tmp/c-lottery.tb: levels 6, $tmp/t33all.tb holds 5, 6, 7, 8, 9" \
    tables compare "$tmp/t33all.tb" "$tmp/c-lottery.tb"
run tables build --holes 3 --seeds 3 --final-four lottery --max-seeds 8 --quiet -o "$tmp/c8.tb"
expect_error "$tmp/c8.tb: max_seeds 8, $tmp/c-penultimate.tb has 9" \
    tables compare "$tmp/c-penultimate.tb" "$tmp/c8.tb"
expect_error "$tmp/t32.tb: the tables are for holes=3 seeds=2" \
    tables compare "$tmp/c-lottery.tb" "$tmp/t32.tb"

# --- openings: a balanced book (the values: tests/test_book.c) ----------------------------
tested+=(openings)
book=(openings --plies 2 --depth 2 --window 1)
run "${book[@]}" --threads 1 -o "$tmp/book1.txt"
[[ $rc -eq 0 ]] && grep -qx "book $tmp/book1.txt: [0-9]* of 116 lines kept ([0-9]* within the window)" \
    "$tmp/out" && [[ -f "$tmp/book1.txt" && ! -e "$tmp/book1.txt.partial" \
    && ! -e "$tmp/book1.txt.lock" ]] \
    || fail "anywoli openings: status $rc, $(head -c 300 "$tmp/out" "$tmp/err")"
grep -qx "# command: anywoli ${book[*]} --threads 1 -o $tmp/book1.txt" "$tmp/book1.txt" \
    && grep -qx "# kept: [1-9][0-9]* of 116 lines, in list order" "$tmp/book1.txt" \
    || fail "anywoli openings: the header lacks the command or the counts"
# Every line: a legal move list (4 .. 6 fields with the comment) valued within the window.
awk '!/^#/ && !($3 == "#" && $4 ~ /^[-+][01]\.[0-9][0-9]$/ && ($4 + 0 <= 1 && $4 + 0 >= -1)) {
     bad = 1 } END { exit bad }' "$tmp/book1.txt" || fail "anywoli openings: a line out of the window"
run "${book[@]}" --threads 2 -o "$tmp/book2.txt"
sed -i 's/--threads 2 -o .*book2.txt$/--threads 1 -o BOOK/' "$tmp/book2.txt"
sed 's/--threads 1 -o .*book1.txt$/--threads 1 -o BOOK/' "$tmp/book1.txt" | cmp -s - "$tmp/book2.txt" \
    || fail "anywoli openings: another book for 2 threads"
run "${book[@]}" --max 3 -o "$tmp/book3.txt"
[[ $rc -eq 0 && $(grep -vc '^#' "$tmp/book3.txt") -eq 3 ]] && grep -q '^# max: at most 3' "$tmp/book3.txt" \
    || fail "anywoli openings --max 3: status $rc, $(grep -vc '^#' "$tmp/book3.txt") lines"
cp "$tmp/book3.txt" "$tmp/keep.txt"
expect_error "book3.txt already exists (--force replaces it)" "${book[@]}" -o "$tmp/book3.txt"
cmp -s "$tmp/book3.txt" "$tmp/keep.txt" || fail "anywoli openings: a refused book replaced the file"
run "${book[@]}" --force -o "$tmp/book3.txt"
[[ $rc -eq 0 && $(grep -vc '^#' "$tmp/book3.txt") -gt 3 ]] || fail "anywoli openings --force: status $rc"
mkdir "$tmp/dir.txt"
expect_error "dir.txt" "${book[@]}" --force -o "$tmp/dir.txt"
expect_error "--plies N is required" openings --depth 2 -o "$tmp/b.txt"
expect_error "--plies" openings --plies 0 -o "$tmp/b.txt"
expect_error "--plies" openings --plies 65 -o "$tmp/b.txt"
expect_error "-o BOOK is required" openings --plies 2
expect_error "not both" openings --plies 2 --depth 2 --nodes 100 -o "$tmp/b.txt"
expect_error "--depth" openings --plies 2 --depth 0 -o "$tmp/b.txt"
expect_error "--nodes" openings --plies 2 --nodes 0 -o "$tmp/b.txt"
expect_error "--window: expected a number of seeds from 0 to 10000, got 'x'" openings --plies 2 --window x -o "$tmp/b.txt"
expect_error "--window" openings --plies 2 --window -1 -o "$tmp/b.txt"
expect_error "--window" openings --plies 2 --window nan -o "$tmp/b.txt"
expect_error "--max" openings --plies 2 --max 0 -o "$tmp/b.txt"
expect_error "--threads" openings --plies 2 --threads 0 -o "$tmp/b.txt"
expect_error "unknown option '--frob'" openings --plies 2 --frob -o "$tmp/b.txt"
expect_error "unexpected argument 'extra'" openings --plies 2 -o "$tmp/b.txt" extra
expect_error "all:7" openings --plies 7 -o "$tmp/b.txt"
expect_error "--window 0.00: no line of 12 is within it (the nearest is 0.40 seeds from 0)" \
    openings --plies 1 --depth 1 --window 0 -o "$tmp/b.txt"
[[ ! -e "$tmp/b.txt" && ! -e "$tmp/b.txt.partial" ]] || fail "anywoli openings: a refused book left a file"

# --- tune: a tiny tuning, its summary and tuned spec, bad configs (the rest: tune_test.sh) -
tested+=(tune)
cat >"$tmp/tune.cfg" <<'EOF_CFG'
seed = 3L;
output = "unused.h5";
agent = "alphabeta:depth=1";
iterations = 4;
pairs = 2;
a = 5.0;
weights = ( { name = "seeds"; min = -1.0; max = 1.0; step = 0.1; } );
verification = { pairs = 4; };
EOF_CFG
run tune "$tmp/tune.cfg" -o "$tmp/tune.h5" --threads 2 --quiet
[[ $rc -eq 0 && -s "$tmp/tune.h5" ]] && grep -q '^tuned spec: alphabeta:depth=1,w.seeds=' "$tmp/out" \
    || fail "anywoli tune: status $rc, output $(head -c 300 "$tmp/out") $(head -c 300 "$tmp/err")"
expect_error "already exists" tune "$tmp/tune.cfg" -o "$tmp/tune.h5"
expect_error "missing the tuning CONFIG" tune
expect_error "no-such-config.cfg: cannot open" tune "$tmp/no-such-config.cfg"
expect_error "--threads" tune "$tmp/tune.cfg" --threads 0
sed 's/iterations = 4;/iterations = -4;/' "$tmp/tune.cfg" >"$tmp/tune-bad.cfg"
expect_error "tune-bad.cfg:4: iterations: -4 is out of range" tune "$tmp/tune-bad.cfg" -o "$tmp/b.h5"
sed 's/iterations = 4;/itrations = 4;/' "$tmp/tune.cfg" >"$tmp/tune-slip.cfg"
expect_error "tune-slip.cfg:4: itrations: unknown key; did you mean 'iterations'? (expected" \
    tune "$tmp/tune-slip.cfg" -o "$tmp/b.h5"
expect_error "unknown option '--forse'; did you mean '--force'?" tune --forse "$tmp/tune.cfg"
[[ ! -e "$tmp/b.h5" && ! -e "$tmp/b.h5.partial" && ! -e "$tmp/b.h5.journal" ]] \
    || fail "anywoli tune: a refused tuning left a file"

# --- fit: its errors in brief (the fit itself: fit_test.sh) -------------------------------
tested+=(fit)
expect_error "expected RESULTS" fit
expect_error "unknown term 'bogus'" fit "$tmp/no-such.h5" --terms bogus
expect_error "no-such.h5" fit "$tmp/no-such.h5"

# --- learn: its errors in brief (sampling and fitting: learn_test.sh) ---------------------
tested+=(learn)
expect_error "expected an action: sample, fit or net-error" learn
expect_error "unknown action 'smaple' (expected sample, fit, net-error or base)" learn smaple
expect_error "expected DATA files" learn fit
expect_error "-o FILE is required" learn sample

# --- help, unknown commands --------------------------------------------------------------
# check_help_text WHAT: $tmp/out reads as text on an 80-column terminal: no line over 80
# columns, no escape written out literally (a `\n` that was meant as a line break).
check_help_text() {
    local long
    long=$(awk 'length($0) > 80 { print NR ": " $0; exit }' "$tmp/out")
    [[ -z $long ]] || fail "$1: a line over 80 columns: $long"
    ! grep -qF '\n' "$tmp/out" || fail "$1: a literal \\n: $(grep -F '\n' "$tmp/out")"
}
for cmd in perft move bench agents play run replay export merge analyze solve tables openings tune fit learn; do
    run "$cmd" --help
    if [[ $rc -ne 0 ]] || ! grep -q "^usage: anywoli $cmd" "$tmp/out" || [[ -s "$tmp/err" ]]; then
        fail "anywoli $cmd --help: status $rc, output $(head -c 200 "$tmp/out")"
    fi
    check_help_text "anywoli $cmd --help"
    # -h and `anywoli help CMD` print the same help (they were an unknown option and the
    # top-level help).
    cp "$tmp/out" "$tmp/help"
    for form in "$cmd -h" "help $cmd"; do
        run $form
        [[ $rc -eq 0 && ! -s "$tmp/err" ]] && cmp -s "$tmp/out" "$tmp/help" \
            || fail "anywoli $form: status $rc, not the --help text: $(head -c 200 "$tmp/out" "$tmp/err")"
    done
done
# The tables actions have help of their own.
for action in build agree compare; do
    run tables "$action" --help
    [[ $rc -eq 0 ]] && grep -q "^usage: anywoli tables $action" "$tmp/out" && [[ ! -s "$tmp/err" ]] \
        || fail "anywoli tables $action --help: status $rc, output $(head -c 200 "$tmp/out")"
    check_help_text "anywoli tables $action --help"
    cp "$tmp/out" "$tmp/help"
    for form in "tables $action -h" "help tables $action"; do
        run $form
        [[ $rc -eq 0 && ! -s "$tmp/err" ]] && cmp -s "$tmp/out" "$tmp/help" \
            || fail "anywoli $form: status $rc, not the --help text: $(head -c 200 "$tmp/out" "$tmp/err")"
    done
done
# bench's help says what its lines are in whole sentences (it once ran two together).
run bench --help
grep -q 'then the signature$' "$tmp/out" && fail "anywoli bench --help: a sentence runs on"
run --help
[[ $rc -eq 0 ]] && grep -q '^usage: anywoli' "$tmp/out" || fail "anywoli --help: status $rc"
check_help_text "anywoli --help"
# Every command the help lists has tests above.
commands=$(sed -n '/^Commands:/,/^$/p' "$tmp/out" | awk 'NF >= 2 && $1 != "Commands:" {print $1}')
[[ -n $commands ]] || fail "anywoli --help lists no commands"
for cmd in $commands; do
    [[ " ${tested[*]} " == *" $cmd "* ]] || fail "command '$cmd' has no test in cli_test.sh"
done
expect_error "unknown command 'frobnicate' (try" frobnicate
expect_error "unknown command 'rnu'; did you mean 'run'?" rnu
expect_error "unknown command 'rnu'; did you mean 'run'?" help rnu
run
[[ $rc -eq 2 ]] || fail "anywoli with no command: exit status $rc, expected 2"

if [[ $failures -ne 0 ]]; then
    echo "$failures of $checks checks failed" >&2
    exit 1
fi
echo "all $checks checks passed"
