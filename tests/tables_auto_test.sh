#!/usr/bin/env bash
# tables_auto_test.sh: an agent's `tables=auto` builds the variant's endgame tables once into
# the cache folder and plays as with the same tables given by file.
#
#   tables_auto_test.sh PATH/TO/anywoli
#
# The first run builds the standard board's tables to 8 seeds into $ANYWOLI_CACHE, the same
# bytes as `tables build --max-seeds 8`, and its games equal those of tables=FILE; a second
# run reuses the file (not rebuilt); MCTS takes the option too, and the strong player by
# default; another variant gets a file
# of its own. Refused with one line and exit status 2: a cache folder that cannot be made, a
# board too large for tables built on demand, a damaged cached file and a cached file of
# another variant under the board's name (each with a word on how to have it built again).
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
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

match=(--agent-b greedy --games 40 --threads 2)
run run --agent-a 'alphabeta:depth=4,tables=auto' "${match[@]}" -o auto.h5
expect_status 0 "a run with tables=auto"
cached=("$ANYWOLI_CACHE"/tables-k8-*.awt)
checks=$((checks + 1))
[[ ${#cached[@]} -eq 1 && -f ${cached[0]} ]] || fail "one tables file in the cache: ${cached[*]}"
run tables build --max-seeds 8 --threads 1 --quiet -o k8.awt
expect_status 0 "tables build --max-seeds 8"
check "the cached tables are tables build's, byte for byte" cmp -s k8.awt "${cached[0]}"
run run --agent-a 'alphabeta:depth=4,tables=k8.awt' "${match[@]}" -o file.h5
expect_status 0 "a run with tables=FILE"
checks=$((checks + 1))
[[ -n $(game_tables auto.h5) && "$(game_tables auto.h5)" == "$(game_tables file.h5)" ]] ||
    fail "tables=auto and tables=FILE play different games"
run run --agent-a 'alphabeta:depth=4' "${match[@]}" -o none.h5
expect_status 0 "a run without tables"
checks=$((checks + 1))
[[ "$(game_tables auto.h5)" != "$(game_tables none.h5)" ]] ||
    fail "tables=auto plays as without tables: the check above shows nothing"
stamp=$(stat -c %Y.%i "${cached[0]}")
sleep 1
run run --agent-a 'alphabeta:depth=4,tables=auto' "${match[@]}" -o again.h5
expect_status 0 "a second run with tables=auto"
checks=$((checks + 1))
[[ $(stat -c %Y.%i "${cached[0]}") == "$stamp" ]] || fail "the second run built the tables again"
run run --agent-a 'mcts:playouts=50,tables=auto' "${match[@]}" -o mcts.h5
expect_status 0 "mcts with tables=auto"
run run --agent-a 'strong:nodes=3000' "${match[@]}" -o strong.h5
expect_status 0 "strong, whose tables are auto by default"
run run --agent-a 'alphabeta:depth=2,tables=auto' --holes 6 "${match[@]}" -o small.h5
expect_status 0 "tables=auto on a board of 6 holes"
checks=$((checks + 1))
[[ $(find "$ANYWOLI_CACHE" -name 'tables-k8-*.awt' | wc -l) -eq 2 ]] ||
    fail "another variant has no tables file of its own: $(ls "$ANYWOLI_CACHE")"

run run --agent-a 'alphabeta:depth=2,tables=auto' --holes 32 "${match[@]}" -o big.h5
expect_status 2 "tables=auto on a board of 32 holes"
one_line_error "too large for tables built on demand"
ANYWOLI_CACHE=/proc/no-such-folder run run --agent-a 'alphabeta:depth=2,tables=auto' \
    "${match[@]}" -o nofolder.h5
expect_status 2 "tables=auto with a cache folder that cannot be made"
one_line_error "tables=auto: cannot create /proc/no-such-folder"
small=$(find "$ANYWOLI_CACHE" -name 'tables-k8-*.awt' ! -name "$(basename "${cached[0]}")")
cp "$small" "${cached[0]}"
run run --agent-a 'alphabeta:depth=2,tables=auto' "${match[@]}" -o other.h5
expect_status 2 "tables=auto with a cached file of another variant under the board's name"
one_line_error "${cached[0]}: the tables are for holes=6"
one_line_error "not holes=12"
one_line_error "remove it to have it built again"
printf 'not tables' >"${cached[0]}"
run run --agent-a 'alphabeta:depth=2,tables=auto' "${match[@]}" -o damaged.h5
expect_status 2 "tables=auto with a damaged cached file"
one_line_error "remove it to have it built again"
checks=$((checks + 1))
[[ ! -e nofolder.h5 && ! -e damaged.h5 && ! -e big.h5 && ! -e other.h5 ]] ||
    fail "a refused run left a file"

echo "tables_auto: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
