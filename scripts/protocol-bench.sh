#!/usr/bin/env bash
# protocol-bench.sh: what the line protocol (docs/protocol.md) costs a move. Runs
# `anywoli bench --protocol` three times with a trivial external C program as agent A
# (examples/agents/first_move.c: the first legal move, no thought) against random, and prints
# each run's moves a second for the program and for the in-process random through the same
# game loop, then the medians. The difference is the protocol's round trip: a position line
# written, read and answered, the answer read and checked, two processes taking turns on a
# socket and a pipe.
#
#   scripts/protocol-bench.sh [BUILD_DIR [GAMES]]     (default: build, 2000)
set -eu
build=${1:-build}
games=${2:-2000}
ext=()
own=()
for i in 1 2 3; do
    out=$("$build/anywoli" bench --protocol "external:cmd=$build/first_move" --games "$games")
    echo "$out"
    ext+=("$(sed -n '1s/.*moves\/s=//p' <<<"$out")")
    own+=("$(sed -n '2s/.*moves\/s=//p' <<<"$out")")
done
median() {
    printf '%s\n' "$@" | sort -n | sed -n 2p
}
printf 'median moves/s: external C program %s, in-process random %s (%s, %s cores)\n' \
    "$(median "${ext[@]}")" "$(median "${own[@]}")" "$(uptime | sed 's/.*load/load/')" "$(nproc)"
