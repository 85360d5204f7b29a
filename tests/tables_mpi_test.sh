#!/usr/bin/env bash
# tables_mpi_test.sh: `anywoli tables build` under mpirun (a build with -DANYWOLI_MPI=ON).
#
#   tables_mpi_test.sh PATH/TO/anywoli MPIEXEC
#
# For 1, 2 and 3 ranks (threads 1 and 2 a rank) the tables files are byte for byte those
# of one process without mpirun: small boards, --also, --all-levels, a variant whose levels
# need several rounds. The ranks' line of figures comes once per level and the placements
# owned add up to the level's; an error (an existing file, a missing work directory, a bad
# option) comes once, from rank 0, with exit status 2.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$(realpath "$1")
mpiexec=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0
mpi_launcher "$mpiexec"

# build NAME RANKS THREADS OPTIONS...: tables build into NAME.tb (stderr in NAME.err), one
# process without mpirun when RANKS is 0; "--also C=FILE" names FILE under NAME's prefix.
build() {
    local name=$1 ranks=$2 threads=$3
    shift 3
    local args=("$@") i
    for i in "${!args[@]}"; do
        [[ ${args[$i]} == *=also.tb ]] && args[$i]=${args[$i]/also.tb/$name-also.tb}
    done
    local run=("$bin")
    [[ $ranks -gt 0 ]] && run=("${mpi[@]}" -np "$ranks" "$bin")
    "${run[@]}" tables build "${args[@]}" --threads "$threads" -o "$name.tb" \
        >"$name.out" 2>"$name.err"
    rc=$?
}

# same_build LABEL OPTIONS...: the files of 1, 2 and 3 ranks against one process's.
same_build() {
    local label=$1
    shift
    build "$label-plain" 0 2 "$@"
    expect_status 0 "$label, one process"
    local levels
    levels=$(grep -c '^level [0-9]*:' "$label-plain.err")
    check "$label, one process: no line of ranks" test "$(grep -c ' ranks (busiest' \
        "$label-plain.err")" -eq 0
    local ranks threads
    for ranks in 1 2 3; do
        for threads in 1 2; do
            local name=$label-$ranks-$threads
            build "$name" $ranks $threads "$@"
            expect_status 0 "$label, $ranks ranks of $threads threads"
            check "$label, $ranks x $threads: the same file" cmp -s "$label-plain.tb" "$name.tb"
            if [[ -e $label-plain-also.tb ]]; then
                check "$label, $ranks x $threads: the same --also file" \
                    cmp -s "$label-plain-also.tb" "$name-also.tb"
            fi
            check "$label, $ranks x $threads: a level line each" \
                test "$(grep -c '^level [0-9]*:' "$name.err")" -eq "$levels"
            check "$label, $ranks x $threads: a line of figures per level" \
                test "$(grep -c "^level [0-9]* on $ranks ranks (busiest/all): " "$name.err")" \
                -eq "$levels"
            check "$label, $ranks x $threads: one summary per file" \
                test "$(grep -c '^tables ' "$name.out")" -eq "$(grep -c '^tables ' \
                "$label-plain.out")"
            # Every placement owned once: the sum is the level's count.
            check "$label, $ranks x $threads: the placements owned add up" awk '
                /^level [0-9]+:/ { want[$2 + 0] = $3 }
                / ranks \(busiest/ { split($7, p, "/"); got[$2 + 0] = p[2] }
                END { for (l in want) if (got[l] != want[l]) exit 1 }' "$name.err"
        done
    done
}

same_build small --holes 3 --seeds 3 --max-seeds 9
same_build all --holes 3 --seeds 2 --max-seeds 8 --all-levels
same_build also --holes 3 --seeds 3 --max-seeds 9 --final-four first-final \
    --also penultimate=also.tb
same_build yit --variant yit-nuri --max-seeds 8 --final-four first-final

# once_error TEXT: the last run's stderr holds TEXT on exactly one line, from rank 0 (mpirun
# adds its own lines about the status).
once_error() {
    checks=$((checks + 1))
    [[ $(grep -c '^anywoli' err) -eq 1 && $(grep -c -F -- "$1" err) -eq 1 ]] &&
        grep -q '^anywoli tables: ' err ||
        fail "expected one line from rank 0 with '$1', got: $(head -c 400 err)"
}

# Errors: once, from rank 0, status 2, nothing written.
touch taken.tb
for ranks in 1 3; do
    "${mpi[@]}" -np $ranks "$bin" tables build --holes 3 --seeds 3 --max-seeds 9 \
        -o taken.tb >out 2>err
    rc=$?
    expect_status 2 "an existing file, $ranks ranks"
    once_error "taken.tb already exists (--force replaces it)"
    "${mpi[@]}" -np $ranks "$bin" tables build --holes 3 --seeds 3 --max-seeds 9 \
        -o work.tb --work-dir "$tmp/none" >out 2>err
    rc=$?
    expect_status 2 "a missing work directory, $ranks ranks"
    once_error "$tmp/none: cannot create a work file"
    check "a missing work directory, $ranks ranks: no file" test ! -e work.tb
    "${mpi[@]}" -np $ranks "$bin" tables build --holes 3 --seeds 3 --max-seeds 2 \
        -o bad.tb >out 2>err
    rc=$?
    expect_status 2 "--max-seeds out of range, $ranks ranks"
    once_error "--max-seeds: 2 is out of range"
done

# Ranks given other tables to build (each reads its own command line): refused before any
# work, once, from rank 0, nothing written (a file of mixed values, a crash or a hang before).
opts=(--holes 3 --seeds 3 --max-seeds 9 --quiet -o mixed.tb)
for other in "--holes 3 --seeds 2 --max-seeds 9" "--holes 3 --seeds 3 --max-seeds 9 \
--final-four lottery" "--holes 3 --seeds 3 --max-seeds 8" "--holes 3 --seeds 3 --max-seeds 9 \
--all-levels" "--holes 3 --seeds 3 --max-seeds 9 --also lottery=x.tb"; do
    # shellcheck disable=SC2086
    "${mpi[@]}" -np 1 "$bin" tables build "${opts[@]}" : -np 1 "$bin" tables build $other \
        --quiet -o mixed.tb >out 2>err
    rc=$?
    expect_status 2 "other options on rank 1 ($other)"
    once_error "rank 1 was given other tables to build than rank 0"
    check "other options on rank 1 ($other): no file" test ! -e mixed.tb -a ! -e x.tb
done

# A frozen rank (SIGSTOP: a stalled node) ends the build after --peer-timeout seconds, with
# one line from rank 0 and no file (the ranks used to wait for ever, silent). Rank 1 is
# stopped while level 20 is solved (about 9 s of the build's 11 here), once level 16's line
# shows that every rank is past MPI's start and the options' check (the watch runs from
# there; a rank frozen inside MPI_Init cannot be told from a slow one).
"${mpi[@]}" -np 2 "$bin" tables build --holes 5 --seeds 4 --max-seeds 20 --threads 1 \
    --peer-timeout 2 -o frozen.tb >out 2>err &
pid=$!
for ((i = 0; i < 1200; i++)); do
    grep -q '^level 16:' err 2>/dev/null && break
    sleep 0.05
done
kill -STOP "$(rank_pid frozen.tb 1)"
wait_stopped $pid 30
checks=$((checks + 1))
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "a frozen rank in tables build: exit status $rc"
once_error "rank 1 has not been heard from for"
check "a frozen rank in tables build: no file" test ! -e frozen.tb
end_ranks frozen.tb

echo "tables_mpi_test: $checks checks, $failures failures"
[[ $failures -eq 0 ]]
