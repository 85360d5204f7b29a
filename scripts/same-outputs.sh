#!/usr/bin/env bash
# shellcheck disable=SC2317  # the filters and the trap's function are called indirectly
# same-outputs.sh OLD_BIN NEW_BIN [WORKDIR]
#
# Proves that a change (a refactor: files moved, tables shared, names unified) leaves every
# output of the `anywoli` command unchanged. It runs one fixed set of small commands with
# each binary, each side in a fresh folder of its own (WORKDIR/old and WORKDIR/new), and
# compares what they wrote, printing one line per check, `same: ...` or `DIFFERENT: ...`
# with the first difference. Exit status: 0 when every check is the same, 1 when one differs
# (or a command failed), 2 on a bad invocation.
#
# What it checks (about 20 to 30 s on 2 cores for both sides together):
#   - results files of `anywoli run` (four configs written below, and the quick form of run):
#     every dataset and attribute with h5diff, and the layout (groups, datasets' types,
#     shapes, chunks and filters) with every attribute's value through `h5dump -A -p`; plus
#     run's summary table;
#   - `analyze` of each file, text and --json (and --sprt on one);
#   - `export` (CSV) of two files, one with --moves, and `replay` of one stored game;
#   - endgame tables: `tables build` of the standard board (K = 8), of a small board under
#     the three conventions at once (--also), and with --all-levels; the files byte for byte
#     (cmp), with `tables info`, `tables compare` (text and --json) and `solve --tables`;
#   - `bench`: its signature lines (`Search:`, `Bench:`), the deterministic counts of its
#     other lines, and `--search-depths` without the seconds;
#   - a tiny `tune`: its file as a results file, its summary, `analyze` text and --json;
#   - `search --depth 8` from the start (and --all-moves, --json), `solve` of small boards
#     under each convention, `perft` (with --stats) on three variants.
#
# What it leaves out, and why (nothing else is filtered):
#   - provenance, which says who wrote a file and when, not what it holds: the values of the
#     root attributes `program_version`, `git_commit`, `started`, `finished` and `host`
#     (sim/results.c results_write_root and results_finish, sim/tune_file.c; docs/results.md)
#     are not compared (each attribute must still exist in both files, with the same type and
#     shape). `threads`, `ranks` and `rank_threads` are compared: both sides run with
#     --threads 2, so they are equal. `analyze` repeats the provenance: its text's first line
#     `results file F (program V, commit C; T0 to T1)` has the parenthesis replaced, and its
#     JSON's top-level keys "program_version", "git_commit", "started", "finished" are dropped;
#   - times, rates and memory, which differ from run to run: run's `in X s, Y games/s`, tune's
#     `in X s on`, search's `time T` column (and "time" in --json), tables build's `, X s` and,
#     in its progress lines, `, N updates, X s, peak RSS M MiB` (the updates of a round depend
#     on how the threads interleave; the rounds do not), bench's `seconds=` and `.../s=` fields,
#     solve's last line `cost seconds T peak_mib M` (a binary from before it printed none);
#   - the words of a tuning's verification SPRT decision, unified with analyze's: in JSON
#     H1 -> accept_h1, H0 -> accept_h0, none -> continue, and in text "H1 accepted" ->
#     "accept H1", "H0 accepted" -> "accept H0", "no decision" -> "continue", so the old and
#     the new words compare equal; and its verification's Elo interval, once three keys
#     (elo, elo_lo, elo_hi), now {value, lo, hi} as every estimate in the lab's JSON, its
#     wins, losses and pairs_by_points now a_wins, a_losses and pentanomial as a job's, and its
#     score with an interval (the value compared); so the tuning's JSON is compared as parsed,
#     the old form mapped to the new (same numbers).
#
# Self-test: ANYWOLI_SAME_OUTPUTS_SELFTEST=1 shifts the seeds of the new side's runs and tuning
# by one; the checks of those files must then say DIFFERENT (exit status 1), which shows that
# the comparison sees a game that differs.
#
# WORKDIR (optional) keeps both sides' outputs; it must be empty or not exist. Without it, a
# temporary folder is used and removed when everything is the same (kept, and named, if not).
set -euo pipefail

usage() {
    echo "usage: $0 OLD_BIN NEW_BIN [WORKDIR]" >&2
    exit 2
}
[[ $# -eq 2 || $# -eq 3 ]] || usage
for tool in h5diff h5dump cmp diff awk sed; do
    command -v "$tool" >/dev/null || { echo "$0: $tool not found" >&2; exit 2; }
done

abs_bin() {
    local b=$1
    [[ $b == */* ]] || b=$(command -v "$b" || true)
    [[ -n $b && -f $b && -x $b ]] || { echo "$0: $1: not an executable file" >&2; exit 2; }
    echo "$(cd "$(dirname "$b")" && pwd)/$(basename "$b")"
}
OLD_BIN=$(abs_bin "$1")
NEW_BIN=$(abs_bin "$2")

if [[ $# -eq 3 ]]; then
    WORKDIR=$3
    mkdir -p "$WORKDIR"
    [[ -z $(ls -A "$WORKDIR") ]] || { echo "$0: $WORKDIR is not empty (each side needs a fresh folder)" >&2; exit 2; }
    WORKDIR=$(cd "$WORKDIR" && pwd)
    KEEP=1
else
    WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/same-outputs.XXXXXX")
    KEEP=0
fi
STATUS=1
cleanup() {
    if [[ $KEEP -eq 0 && $STATUS -eq 0 ]]; then
        rm -rf "$WORKDIR"
    else
        echo "outputs kept in $WORKDIR (old/, new/; raw outputs in out/, compared forms in cmp/)"
    fi
}
trap cleanup EXIT

export LC_ALL=C TZ=UTC OMP_NUM_THREADS=2
THREADS=2
SELFTEST=${ANYWOLI_SAME_OUTPUTS_SELFTEST:-0}
[[ $SELFTEST == 0 || $SELFTEST == 1 ]] || { echo "$0: ANYWOLI_SAME_OUTPUTS_SELFTEST must be 0 or 1" >&2; exit 2; }

# ---------------------------------------------------------------------------------------
# Inputs: the same configs on both sides (the self-test shifts the new side's seeds).

write_inputs() {
    local shift=$1
    local s1=$((11 + shift)) s2=$((12 + shift)) s3=$((13 + shift)) s4=$((14 + shift))
    local s5=$((15 + shift)) s6=$((6 + shift))

    cat > random.cfg <<EOF
description = "same-outputs: random against random, the conventions and a board sweep";
seed = ${s1}L;
output = "random.h5";
defaults = { agent_a = "random"; agent_b = "random"; games = 300L; };
jobs = (
  { name = "conv"; final_four = ["penultimate", "first-final", "lottery"]; games = 200L; },
  { name = "board"; holes = [3, 5, 8]; seeds = [2, 3, 5]; },
  { name = "small-moves"; holes = 6; seeds = 3; openings = "plies:3"; record_moves = true; }
);
EOF

    cat > search.cfg <<EOF
description = "same-outputs: greedy against alpha-beta from openings";
seed = ${s2}L;
output = "search.h5";
defaults = { agent_a = "greedy"; agent_b = "alphabeta:depth=2"; record_moves = true; };
jobs = (
  { name = "plies"; openings = "plies:4"; games = 16L; },
  { name = "all"; openings = "all:1"; games = 24L; },
  { name = "all-ff"; openings = "all:1"; games = 12L; final_four = "first-final"; }
);
EOF

    cat > mcts.cfg <<EOF
description = "same-outputs: MCTS with a small playout budget";
seed = ${s3}L;
output = "mcts.h5";
jobs = (
  { name = "mcts"; agent_a = "mcts:playouts=50"; agent_b = "greedy"; openings = "plies:2";
    games = 6L; record_moves = true; },
  { name = "mcts-small"; agent_a = "mcts:playouts=40,policy=random"; agent_b = "alphabeta:depth=1";
    holes = 6; seeds = 3; final_four = "lottery"; games = 8L; }
);
EOF

    cat > rules.cfg <<EOF
description = "same-outputs: sowing that skips its origin, no extra turn, a ply cap";
seed = ${s4}L;
output = "rules.h5";
defaults = { skip_origin = true; extra_turn = false; max_plies = 300; };
jobs = (
  { name = "random"; agent_a = "random"; agent_b = "random"; games = 200L; },
  { name = "greedy"; agent_a = "greedy"; agent_b = "greedy"; games = 20L; record_moves = true; },
  { name = "small"; agent_a = "random"; agent_b = "alphabeta:depth=3"; holes = 5; seeds = 3;
    final_four = "first-final"; games = 40L; }
);
EOF

    # Two matches (the start differs from the defaults) with loose SPRT bounds, so that the
    # decisions are reached with few pairs.
    cat > tune.cfg <<EOF
description = "same-outputs: a tiny tuning";
seed = ${s6}L;
output = "tune.h5";
variant = "anywoli";
agent = "alphabeta:depth=2,weights=plain";
opponent = "self";
iterations = 5;
pairs = 4;
opening_plies = 4;
max_plies = 300;
a = 20.0;
weights = (
  { name = "seeds"; start = 0.3; min = -1.0; max = 1.0; step = 0.05; },
  { name = "threes"; start = 0.0; min = -2.0; max = 2.0; step = 0.1; },
  { name = "final"; start = 0.0; min = -5.0; max = 5.0; step = 0.5; }
);
verification = {
  pairs = 24;
  against_start = { elo0 = 0.0; elo1 = 30.0; alpha = 0.3; beta = 0.3; };
  against_defaults = { elo0 = 300.0; elo1 = 400.0; alpha = 0.3; beta = 0.3; };
};
EOF
    QUICK_SEED=$s5
}

# ---------------------------------------------------------------------------------------
# One side: every command, in its own folder; stdout, stderr and exit status kept apart.

rec() {  # rec NAME COMMAND...: run it, keep out/NAME.out, out/NAME.err, out/NAME.rc
    local name=$1
    shift
    local rc=0
    "$@" > "out/$name.out" 2> "out/$name.err" || rc=$?
    echo "$rc" > "out/$name.rc"
}

produce() {
    local bin=$1 dir=$2 shift=$3
    mkdir -p "$dir/out"
    cd "$dir"
    write_inputs "$shift"
    local A=("$bin")

    # 1. results files.
    for c in random search mcts rules; do
        rec "run-$c" "${A[@]}" run "$c.cfg" --threads "$THREADS" --quiet
    done
    rec run-quick "${A[@]}" run --holes 7 --seeds 3 --capture 3 --final-four first-final \
        --games 400 --seed "$QUICK_SEED" -o quick.h5 --threads "$THREADS" --quiet

    # 2. analyze, text and JSON.
    for f in random search mcts rules quick; do
        rec "analyze-$f" "${A[@]}" analyze "$f.h5"
        rec "analyze-json-$f" "${A[@]}" analyze --json "$f.h5"
    done
    rec analyze-sprt-search "${A[@]}" analyze search.h5 --job plies --sprt 0,100
    rec analyze-json-sprt-search "${A[@]}" analyze --json search.h5 --sprt -50,50,0.1,0.1

    # 3. export and replay.
    rec export-search-moves "${A[@]}" export search.h5 --moves
    rec export-rules "${A[@]}" export rules.h5
    rec replay-search "${A[@]}" replay search.h5 --job plies --game 5

    # 4. endgame tables.
    rec tables-build-std8 "${A[@]}" tables build --max-seeds 8 -o std8.tb --threads "$THREADS"
    rec tables-build-53 "${A[@]}" tables build --holes 5 --seeds 3 --max-seeds 14 -o t53.tb \
        --also first-final=t53-ff.tb --also lottery=t53-lot.tb --threads "$THREADS"
    rec tables-build-42-all "${A[@]}" tables build --holes 4 --seeds 2 --max-seeds 10 \
        --all-levels --skip-origin yes -o t42.tb --threads "$THREADS"
    for t in std8 t53 t53-ff t53-lot t42; do
        rec "tables-info-$t" "${A[@]}" tables info "$t.tb"
    done
    rec tables-compare-53 "${A[@]}" tables compare t53.tb t53-ff.tb t53-lot.tb --show 2
    rec tables-compare-json-53 "${A[@]}" tables compare --json t53.tb t53-ff.tb t53-lot.tb
    rec solve-tables-53 "${A[@]}" solve --holes 5 --seeds 3 --tables t53.tb --start

    # 5. bench: quick mode (games only), games and searches, the searches by depth.
    rec bench-quick "${A[@]}" bench --games 500 --threads "$THREADS"
    rec bench-search "${A[@]}" bench --games 200 --search --threads "$THREADS"
    rec bench-depths "${A[@]}" bench --search-depths 3,5 --threads "$THREADS"

    # 6. a tiny tuning.
    rec tune "${A[@]}" tune tune.cfg --threads "$THREADS" --quiet
    rec analyze-tune "${A[@]}" analyze tune.h5
    rec analyze-json-tune "${A[@]}" analyze --json tune.h5

    # 7. search, solve, perft.
    rec search-d8 "${A[@]}" search --depth 8
    rec search-all-moves-json "${A[@]}" search --depth 5 --all-moves --json
    rec search-small "${A[@]}" search --holes 6 --seeds 3 --final-four lottery --depth 9 --multipv 3
    for ff in penultimate first-final lottery; do
        rec "solve-33-$ff" "${A[@]}" solve --holes 3 --seeds 3 --final-four "$ff" --start
    done
    rec solve-42-noextra "${A[@]}" solve --holes 4 --seeds 2 --extra-turn no --start
    rec perft-std "${A[@]}" perft 6
    rec perft-rules "${A[@]}" perft --skip-origin yes --extra-turn no --stats 5
    rec perft-yit-jani "${A[@]}" perft --variant yit-jani 5
    cd - >/dev/null
}

# ---------------------------------------------------------------------------------------
# Normal forms: each check's output with only what may differ taken out (see the header).

filter_plain() { cat; }
filter_solve() { sed -E '/^cost seconds [0-9.]+ peak_mib [0-9.]+$/d'; }
filter_run() { sed -E 's/ in [0-9.]+ s, [0-9.]+ games\/s/ in (time) s, (rate) games\/s/'; }
filter_sprt_words() { sed -E 's/: H1 accepted, LLR/: accept H1, LLR/; s/: H0 accepted, LLR/: accept H0, LLR/;
                                s/: no decision, LLR/: continue, LLR/'; }
filter_tune_out() { sed -E 's/ in [0-9.]+ s on / in (time) s on /' | filter_sprt_words; }
filter_analyze() {
    sed -E '1s/^(results file .*) \(program [^,]*, commit [^;]*; .* to .*\)$/\1 (provenance)/'
}
filter_json() { sed -E '/^  "(program_version|git_commit|started|finished)": /d'; }
filter_tune_json() {
    filter_json | /usr/bin/python3 -c '
import json, sys
words = {"H1": "accept_h1", "H0": "accept_h0", "none": "continue"}
text = sys.stdin.read()
if not text.strip():             # stderr: nothing to parse
    sys.exit(0)
doc = json.loads(text)
for v in doc.get("tuning", {}).get("verification", []):
    if "elo_lo" in v:
        v["elo"] = {"value": v["elo"], "lo": v.pop("elo_lo"), "hi": v.pop("elo_hi")}
    for old, new in (("wins", "a_wins"), ("losses", "a_losses"), ("pairs_by_points", "pentanomial")):
        if old in v:
            v[new] = v.pop(old)
    if isinstance(v["score"], dict):   # its interval is new: the value is compared
        v["score"] = v["score"]["value"]
    v["sprt"]["decision"] = words.get(v["sprt"]["decision"], v["sprt"]["decision"])
print(json.dumps(doc, indent=2, sort_keys=True))'
}
filter_search() { sed -E 's/ time [0-9.]+ / time (time) /; s/"time": [0-9.]+/"time": (time)/'; }
filter_tables_build() {
    sed -E 's/, [0-9.]+ s$/, (time) s/;
            s/, [0-9]+ updates, [0-9.]+ s, peak RSS [0-9]+ MiB$/, (updates, time, memory)/'
}
filter_bench_signature() { grep -E '^(Search|Bench):' || true; }
filter_bench_counts() { { grep -v -E '^(Search|Bench):' || true; } | sed -E 's/ seconds=[0-9.]+//; s/ [a-z]+\/s=[0-9.]+//'; }

# `h5dump -A -p`: every group, dataset (type, shape, chunks, filters, fill value) and
# attribute with its value, but no dataset's values (h5diff compares those). The root
# attributes whose values are provenance have their DATA blocks replaced by a marker (the
# attribute, its type and its shape stay and are compared). Left out too: the storage SIZE of
# a dataset (the bytes its chunks take once deflated, which follows from its values and its
# filters, both compared) and a contiguous dataset's OFFSET in the file (where HDF5 put it).
PROVENANCE_ATTRS='program_version|git_commit|started|finished|host'
h5dump_filtered() {
    h5dump -A -p "$1" | awk -v names="^   ATTRIBUTE \"($PROVENANCE_ATTRS)\" [{]\$" '
        /^ +SIZE [0-9]+( [(].*[)])?$/ || /^ +OFFSET [0-9]+$/ { next }
        $0 ~ names { prov = 1 }
        prov && /^      DATA [{]$/ { print "      DATA { (provenance: not compared) }"; skip = 1; next }
        skip { if ($0 ~ /^      [}]$/) skip = 0; next }
        /^   [}]$/ { prov = 0 }
        { print }'
}

# ---------------------------------------------------------------------------------------
# Comparison.

NCHECKS=0
NDIFF=0
same() { NCHECKS=$((NCHECKS + 1)); echo "same: $1"; }
different() { NCHECKS=$((NCHECKS + 1)); NDIFF=$((NDIFF + 1)); echo "DIFFERENT: $1"; }

OLD=$WORKDIR/old
NEW=$WORKDIR/new
CMP=$WORKDIR/cmp

# first_line_diff A B: where two text files first differ, in one line.
first_line_diff() {
    local a=$1 b=$2 line
    line=$(cmp "$a" "$b" 2>/dev/null | sed -nE 's/.* line ([0-9]+)$/\1/p' || true)
    if [[ -z $line ]]; then  # one is a prefix of the other
        local na nb
        na=$(wc -l < "$a")
        nb=$(wc -l < "$b")
        echo "old has $na lines, new $nb; the shorter ends where the longer goes on"
        return
    fi
    local la lb
    la=$(sed -n "${line}p" "$a" | cut -c1-160)
    lb=$(sed -n "${line}p" "$b" | cut -c1-160)
    echo "line $line: old '$la' new '$lb'"
}

# check_text NAME FILTER: a command's stdout and stderr (each through FILTER) and exit status.
check_text() {
    local name=$1 filter=$2 rc_old rc_new
    rc_old=$(cat "$OLD/out/$name.rc")
    rc_new=$(cat "$NEW/out/$name.rc")
    if [[ $rc_old != 0 ]]; then
        different "$name: the old binary failed (exit status $rc_old): $(head -c 200 "$OLD/out/$name.err")"
        return
    fi
    if [[ $rc_new != 0 ]]; then
        different "$name: exit status old 0, new $rc_new: $(head -c 200 "$NEW/out/$name.err")"
        return
    fi
    local stream
    for stream in out err; do
        "$filter" < "$OLD/out/$name.$stream" > "$CMP/$name.$stream.old"
        "$filter" < "$NEW/out/$name.$stream" > "$CMP/$name.$stream.new"
        if ! cmp -s "$CMP/$name.$stream.old" "$CMP/$name.$stream.new"; then
            local which=stdout
            [[ $stream == err ]] && which=stderr
            different "$name ($which): $(first_line_diff "$CMP/$name.$stream.old" "$CMP/$name.$stream.new")"
            return
        fi
    done
    same "$name ($(wc -l < "$CMP/$name.out.old") lines$([[ $filter == filter_plain ]] || echo ", $filter"))"
}

# check_bytes FILE: a file both sides wrote, byte for byte.
check_bytes() {
    local f=$1
    if [[ ! -f $OLD/$f || ! -f $NEW/$f ]]; then
        different "$f: missing on the $([[ -f $OLD/$f ]] && echo new || echo old) side"
        return
    fi
    local d
    if d=$(cmp "$OLD/$f" "$NEW/$f" 2>&1); then
        same "$f ($(wc -c < "$OLD/$f") bytes, cmp)"
    else
        different "$f: $d"
    fi
}

# check_h5 FILE: a results (or tuning) file, in two checks: its layout and every attribute
# (h5dump -A, provenance values left out) and every value (h5diff; the root's attributes,
# which the first check covers, left out).
check_h5() {
    local f=$1
    if [[ ! -f $OLD/$f || ! -f $NEW/$f ]]; then
        different "$f: missing on the $([[ -f $OLD/$f ]] && echo new || echo old) side"
        return
    fi
    # Layout, storage and attributes.
    (cd "$OLD" && h5dump_filtered "$f") > "$CMP/$f.dump.old"
    (cd "$NEW" && h5dump_filtered "$f") > "$CMP/$f.dump.new"
    if cmp -s "$CMP/$f.dump.old" "$CMP/$f.dump.new"; then
        same "$f: layout, storage and attributes (h5dump -A -p; provenance values left out)"
    else
        local line where
        line=$(cmp "$CMP/$f.dump.old" "$CMP/$f.dump.new" | sed -nE 's/.* line ([0-9]+)$/\1/p' || true)
        where=$(head -n "${line:-1}" "$CMP/$f.dump.old" |
                { grep -E '(GROUP|DATASET|ATTRIBUTE) "' || true; } | tail -n 1 | sed -E 's/^ +//; s/ [{]$//')
        different "$f: layout, storage and attributes: in $where: $(first_line_diff "$CMP/$f.dump.old" "$CMP/$f.dump.new")"
    fi
    # Values: h5diff's exit status alone is not enough, since objects it cannot compare
    # (different shapes) count 0 differences; any of them but empty datasets (whose shape
    # the first check compares) is a difference.
    local rc=0
    h5diff -r -c --exclude-attribute / "$OLD/$f" "$NEW/$f" > "$CMP/$f.h5diff" 2>&1 || rc=$?
    local odd
    odd=$(grep -E '^Not comparable' "$CMP/$f.h5diff" | grep -v 'is an empty dataset$' | head -n 1 || true)
    if [[ $rc -eq 0 && -z $odd ]]; then
        same "$f: every dataset and attribute below the root (h5diff)"
    elif [[ $rc -gt 1 ]]; then
        different "$f: h5diff failed (exit status $rc): $(grep -v '^$' "$CMP/$f.h5diff" | tail -n 1)"
    else
        local first
        first=$(awk '
            /^(attribute|dataset|group): / { hdr = $0; row = ""; dash = 0; next }
            /^Not comparable/ && $0 !~ /is an empty dataset$/ { print hdr ": " $0; exit }
            /^-+$/ { dash = 1; next }
            dash && row == "" { row = $0 }
            /^[0-9]+ differences? found$/ && $1 > 0 { gsub(/ +/, " ", row); print hdr ": " $1 " differences, first: " row; exit }
        ' "$CMP/$f.h5diff")
        different "$f: values (h5diff): ${first:-$odd}"
    fi
}

# ---------------------------------------------------------------------------------------

START=$(date +%s)
mkdir -p "$OLD" "$NEW" "$CMP"
echo "old: $OLD_BIN"
echo "new: $NEW_BIN"
[[ $SELFTEST == 1 ]] && echo "self-test: the new side's seeds are shifted by 1; its results files must differ"
T0=$(date +%s)
produce "$OLD_BIN" "$OLD" 0
T1=$(date +%s)
produce "$NEW_BIN" "$NEW" "$SELFTEST"
T2=$(date +%s)
echo "ran the commands: old side $((T1 - T0)) s, new side $((T2 - T1)) s"

# 1. results files, and run's summaries.
for c in random search mcts rules quick; do
    check_h5 "$c.h5"
    check_text "run-$c" filter_run
done
# 2. analyze.
for f in random search mcts rules quick; do
    check_text "analyze-$f" filter_analyze
    check_text "analyze-json-$f" filter_json
done
check_text analyze-sprt-search filter_analyze
check_text analyze-json-sprt-search filter_json
# 3. export and replay.
check_text export-search-moves filter_plain
check_text export-rules filter_plain
check_text replay-search filter_plain
# 4. endgame tables.
for b in tables-build-std8 tables-build-53 tables-build-42-all; do
    check_text "$b" filter_tables_build
done
for t in std8 t53 t53-ff t53-lot t42; do
    check_bytes "$t.tb"
    check_text "tables-info-$t" filter_plain
done
check_text tables-compare-53 filter_plain
check_text tables-compare-json-53 filter_plain
check_text solve-tables-53 filter_solve
# 5. bench.
check_text bench-quick filter_bench_signature
check_text bench-search filter_bench_signature
check_text bench-quick filter_bench_counts
check_text bench-search filter_bench_counts
check_text bench-depths filter_bench_counts
# 6. tune.
check_h5 tune.h5
check_text tune filter_tune_out
check_text analyze-tune filter_sprt_words
check_text analyze-json-tune filter_tune_json
# 7. search, solve, perft.
check_text search-d8 filter_search
check_text search-all-moves-json filter_search
check_text search-small filter_search
for ff in penultimate first-final lottery; do
    check_text "solve-33-$ff" filter_solve
done
check_text solve-42-noextra filter_solve
check_text perft-std filter_plain
check_text perft-rules filter_plain
check_text perft-yit-jani filter_plain

END=$(date +%s)
if [[ $NDIFF -eq 0 ]]; then
    echo "all $NCHECKS checks the same ($((END - START)) s)"
    STATUS=0
else
    echo "$NDIFF of $NCHECKS checks DIFFERENT ($((END - START)) s)"
    STATUS=1
fi
exit "$STATUS"
