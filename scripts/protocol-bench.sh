#!/usr/bin/env bash
# protocol-bench.sh: what the line protocol (docs/protocol.md) costs a move. Plays the same
# match three times with agent A a trivial external C program (examples/agents/first_move.c:
# the first legal move, no thought) and three times with agent A the in-process `random`
# (one draw a move), B `greedy` in both, on one thread, and prints the moves A chose a second
# (the median of the three), from the results file's choices_a and the wall time of the run.
# The difference is the protocol's round trip: a position line written, read and answered,
# the answer read and checked, on a socket and a pipe, two processes taking turns.
#
#   scripts/protocol-bench.sh [BUILD_DIR [GAMES]]     (default: build, 2000)
set -eu
build=${1:-build}
games=${2:-2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# rate SPEC: the moves agent A chose a second in one run of the match, as a number.
rate() {
    local t0 t1
    t0=$(date +%s.%N)
    "$build/anywoli" run --quiet --agent-a "$1" --agent-b greedy --games "$games" --seed 1 \
        --threads 1 -o "$tmp/bench.h5" --force >/dev/null
    t1=$(date +%s.%N)
    /usr/bin/python3 - "$tmp/bench.h5" "$t0" "$t1" <<'PY'
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    moves = sum(int(f["jobs"][j]["games"]["choices_a"].sum()) for j in f["jobs"])
print("%.0f %d" % (moves / (float(sys.argv[3]) - float(sys.argv[2])), moves))
PY
}

# median3 A B C: the middle one.
median3() {
    printf '%s\n' "$@" | sort -n | sed -n 2p
}

for who in external in-process; do
    spec=$([[ $who == external ]] && echo "external:cmd=$build/first_move" || echo random)
    r=()
    for i in 1 2 3; do
        read -r per_second moves < <(rate "$spec")
        r+=("$per_second")
    done
    printf '%-11s %-40s %9s moves/s (median of %s %s %s; %s moves a run)\n' "$who" "$spec" \
        "$(median3 "${r[@]}")" "${r[@]}" "$moves"
done
