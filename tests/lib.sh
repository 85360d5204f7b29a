# lib.sh: what the end-to-end test scripts share (sourced, not run). A script sets `failures`
# and `checks` to 0, runs commands with stderr in ./err and their status in $rc, and ends
# with a non-zero status when `failures` is not 0.

# fail MESSAGE: count a failed check and say which.
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# check DESCRIPTION COMMAND...: run a command that must succeed.
check() {
    local what=$1
    shift
    checks=$((checks + 1))
    "$@" || fail "$what"
}

# expect_status WANT DESCRIPTION: the last command's status ($rc).
expect_status() {
    checks=$((checks + 1))
    [[ $rc -eq $1 ]] || fail "$2: exit status $rc, expected $1 (stderr: $(head -c 400 err))"
}

# one_line_error TEXT: the last command's stderr (./err) is exactly one line holding TEXT.
one_line_error() {
    checks=$((checks + 1))
    [[ $(wc -l <err) -eq 1 ]] && grep -qF -- "$1" err ||
        fail "expected one line with '$1', got: $(head -c 400 err)"
}

# wait_stopped PID SECONDS: wait until PID has ended, at most SECONDS; its status in $rc, or
# 124 after killing it when it did not end.
wait_stopped() {
    local i
    for ((i = 0; i < $2 * 20; i++)); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$1" 2>/dev/null; then
        kill -9 "$1"
        wait "$1" 2>/dev/null
        rc=124
    else
        wait "$1"
        rc=$?
    fi
}

# wait_for_journal FILE BYTES: wait (up to 60 s) until FILE holds BYTES or more, so that
# signals land part-way through a run however fast the machine is.
wait_for_journal() {
    local i
    for ((i = 0; i < 6000; i++)); do
        [[ $(stat -c %s "$1" 2>/dev/null || echo 0) -ge $2 ]] && return 0
        sleep 0.01
    done
    return 1
}

# game_tables FILE: every job's games table, length histogram, openings table and move
# records, and its summary attributes.
game_tables() {
    local jobs j a
    jobs=$(h5ls "$1/jobs" | awk '{print $1}')
    for j in $jobs; do
        h5dump -d "/jobs/$j/games" -d "/jobs/$j/length_histogram" "$1" | tail -n +2
        # The openings table, in files that have one (written since openings exist).
        if h5ls "$1/jobs/$j/openings" >/dev/null 2>&1; then
            h5dump -d "/jobs/$j/openings" "$1" | tail -n +2
        fi
        # The move records, in jobs that keep them (record_moves).
        if h5ls "$1/jobs/$j/moves" >/dev/null 2>&1; then
            h5dump -d "/jobs/$j/moves" -d "/jobs/$j/moves_index" "$1" | tail -n +2
        fi
        for a in south_wins north_wins draws endless unfinished a_wins b_wins longest mean_plies; do
            h5dump -a "/jobs/$j/$a" "$1" | grep '(0)'
        done
        # A job's sequential test, where it had one (run with sprt): where it stopped.
        for a in sprt_llr sprt_decision stopped stop_pair; do
            if h5dump -a "/jobs/$j/$a" "$1" >/dev/null 2>&1; then
                echo "$a" "$(h5dump -a "/jobs/$j/$a" "$1" | grep '(0)')"
            fi
        done
    done
}

# same_tables A B: the two results files have equal game tables.
same_tables() {
    checks=$((checks + 1))
    if ! cmp -s <(game_tables "$1") <(game_tables "$2"); then
        fail "$1 and $2 differ in their tables"
    fi
}

# tuning_tables FILE: the /tuning tables, each verification match's pairs included (h5dump's
# first line, the file's name, left out).
tuning_tables() {
    local pairs=() d
    for d in $(h5ls "$1/tuning" 2>/dev/null | awk '/^verification_pairs_/ {print $1}'); do
        pairs+=(-d "/tuning/$d")
    done
    h5dump -d /tuning/trajectory -d /tuning/weights -d /tuning/verification "${pairs[@]}" "$1" |
        tail -n +2
}

# same_tuning A B: the two tuning files have equal /tuning tables.
same_tuning() {
    checks=$((checks + 1))
    if ! cmp -s <(tuning_tables "$1") <(tuning_tables "$2"); then
        fail "$1 and $2 differ in their tuning tables"
    fi
}

# mpi_launcher MPIEXEC: how the MPI tests start ranks, into the array `mpi`. As root in a
# container, with more ranks than cores; single-copy shared memory is not always allowed.
mpi_launcher() {
    export OMPI_MCA_btl_vader_single_copy_mechanism=none
    mpi=("$1" --oversubscribe --allow-run-as-root --bind-to none)
}

# rank_pid OUTPUT RANK: the process of that rank (under mpirun) in the run, tuning or tables
# build writing OUTPUT.
rank_pid() {
    local p
    for p in $(pgrep -f "anywoli (run|tune|tables build) .*-o $1"); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# end_ranks OUTPUT: kill -9 what is left of the ranks writing OUTPUT (a frozen rank that a
# failed check left behind).
end_ranks() {
    local r
    for r in 0 1 2; do
        kill -9 "$(rank_pid "$1" $r)" 2>/dev/null
    done
}
