#!/usr/bin/env bash
# solve_auto_test.sh: `anywoli solve --tables auto` builds the board's endgame tables into the
# cache folder and solves above them, with the values of the solver without tables.
#
#   solve_auto_test.sh PATH/TO/anywoli
#
# Under each convention, on 4 x 2 (16 seeds) from the start and from a composed position:
# the value and every move's value are those of `solve` without tables, whether K climbs its
# ladder (tables to 8 suffice; with --max-states 10 the searches above 8 and 12 run out and
# tables to 16, the start's own level, answer) or is fixed by --table-seeds (12 from the
# start, a search above the tables; 8 from the composed position of 12 seeds); the first run
# builds the three conventions' files at once, the next ones open them (`cached`); the cost
# is the last line. A composed position on a level no
# game from the start reaches gets tables of every level, in a file of their own. A search
# with long lines runs on its own stack: a 1 MiB stack of the caller's does not crash it. Refused with
# one line and exit status 2: --table-seeds out of range, not a number, without --tables
# auto, and a K below every level the position's play reaches.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0
export ANYWOLI_CACHE=$tmp/cache OMP_NUM_THREADS=1

# run ARGS...: the command, stdout in ./out, stderr in ./err, status in $rc.
run() {
    "$bin" "$@" >out 2>err
    rc=$?
}

# The value and the moves' lines of ./out: what must not depend on the tables.
values() { grep -E '^(value|move) ' out; }

board=(--holes 4 --seeds 2)
first=yes
for ff in penultimate first-final lottery; do
    for pos in --start "2,0,1,3/1,0,2,3 0/4 S - -"; do
        # The start (16 seeds) searched above tables to 12, the composed position (12) above 8.
        k=12
        [[ $pos == --start ]] || k=8
        run solve "${board[@]}" --final-four "$ff" "$pos"
        expect_status 0 "solve $ff $pos without tables"
        values >plain
        run solve "${board[@]}" --final-four "$ff" "$pos" --tables auto
        expect_status 0 "solve $ff $pos --tables auto"
        check "$ff $pos: --tables auto gives the values without tables ($(values | head -1))" \
            cmp -s plain <(values)
        if [[ $pos == --start ]]; then
            # The smallest K first: the search above tables to 8 suffices.
            if [[ $first == yes ]]; then
                check "the first run builds the tables: $(grep '^tables' out)" \
                    grep -qE '^tables max_seeds 8 built [0-9]+\.[0-9]{2}$' out
                files=("$ANYWOLI_CACHE"/tables-k8-*.awt)
                checks=$((checks + 1))
                [[ ${#files[@]} -eq 3 ]] || fail "three files (a convention each): ${files[*]}"
                first=no
            else
                check "$ff: the tables come from the cache: $(grep '^tables' out)" \
                    grep -qx 'tables max_seeds 8 cached' out
            fi
            # A search cut short climbs the ladder, 8, 12, then 16: the start's own level,
            # a probe of the tables.
            run solve "${board[@]}" --final-four "$ff" --start --tables auto --max-states 10
            expect_status 0 "solve $ff --start --tables auto --max-states 10"
            check "$ff: up the ladder, the values without tables" cmp -s plain <(values)
            check "$ff: K 16 at last: $(grep '^tables' out)" \
                grep -qE '^tables max_seeds 16 (built|cached)' out
            check "$ff: the start is a probe of the tables" grep -qx 'states 0 nodes 0' out
            check "$ff: a note for each K passed: $(cat err)" \
                grep -q 'above tables to 12 seeds passed --max-states; tables to 16' err
        fi
        check "$ff $pos: the cost is the last line: $(tail -n 1 out)" \
            grep -qE '^cost seconds [0-9]+\.[0-9]{2} peak_mib [1-9][0-9]*\.[0-9]$' <(tail -n 1 out)
        run solve "${board[@]}" --final-four "$ff" "$pos" --tables auto --table-seeds $k
        expect_status 0 "solve $ff $pos --tables auto --table-seeds $k"
        check "$ff $pos: tables to $k give the values without tables" cmp -s plain <(values)
        check "$ff $pos: K is $k" grep -qE "^tables max_seeds $k (built|cached)" out
        [[ $pos == --start ]] &&
            check "$ff: a search above the tables" grep -qE '^states [0-9]+ nodes [1-9]' out
    done
done

# A composed position of 11 seeds (the start's levels are 16, 12, 8, 5 .. 7 never): every level.
apn="2,0,1,3/1,0,1,3 0/5 S - -"
run solve "${board[@]}" "$apn"
expect_status 0 "solve of an 11-seed position without tables"
values >plain
run solve "${board[@]}" "$apn" --tables auto
expect_status 0 "solve of an 11-seed position --tables auto"
check "11 seeds: --tables auto gives the values without tables" cmp -s plain <(values)
all=("$ANYWOLI_CACHE"/tables-k5-all-*.awt)
checks=$((checks + 1))
[[ ${#all[@]} -eq 3 && -f ${all[0]} ]] || fail "every level's tables have files of their own: ${all[*]}"

# The search recurses once a position of its line, and lines without captures are long (6 x 1
# above tables to 8): it runs on a stack of its own, so a small stack of the caller's (1 MiB
# here; 8 MiB usually, which 8 x 1's lines overflowed) still ends in "too large", not a crash.
bash -c 'ulimit -s 1024 && exec "$0" solve --holes 6 --seeds 1 --start --tables auto \
    --table-seeds 8 --max-states 300000' "$bin" >out 2>err
rc=$?
expect_status 1 "a deep search on a 1 MiB stack"
check "a deep search on a 1 MiB stack: too large" grep -q 'too large' err

# Refusals: one line, exit status 2, nothing built.
before=$(ls "$ANYWOLI_CACHE" | wc -l)
refuse() {
    local want=$1
    shift
    run solve "$@"
    expect_status 2 "solve $*"
    one_line_error "$want"
}
refuse "--table-seeds: 0 is out of range (1 to 127)" "${board[@]}" --start --tables auto --table-seeds 0
refuse "--table-seeds: 'x' is not a whole number" "${board[@]}" --start --tables auto \
    --table-seeds x
refuse "--table-seeds: 128 is out of range (1 to 127)" "${board[@]}" --start --tables auto \
    --table-seeds 128
refuse "--table-seeds 4 is out of range (5 to 127)" "${board[@]}" --start --tables auto \
    --table-seeds 4
refuse "--table-seeds 12: only with --tables auto" "${board[@]}" --start --table-seeds 12
refuse "--table-seeds 7: no level from 5 to 7 occurs in play from this position" \
    "${board[@]}" --start --tables auto --table-seeds 7
checks=$((checks + 1))
[[ $(ls "$ANYWOLI_CACHE" | wc -l) -eq $before ]] || fail "a refusal left a file in the cache"

echo "solve_auto_test: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
