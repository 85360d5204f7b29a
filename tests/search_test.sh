#!/usr/bin/env bash
# search_test.sh: `anywoli search` end to end.
#
#   search_test.sh PATH/TO/anywoli TESTS_DIR PYTHON
#
# The text lines' format (South's value the negation when North is to move, the pv no longer
# than the depth and legal when `anywoli move` replays it), --json as JSON lines that parse,
# --multipv and --all-moves, --nodes within its budget, the same output twice but for the
# time, and every bad input: one stderr line, exit status 2.
set -u

bin=$1
tests=$2
python=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
# shellcheck source=lib.sh
source "$tests/lib.sh"
cd "$tmp" || exit 1

# search ARGS...: run anywoli search, stdout in ./out, stderr in ./err, status in $rc.
search() {
    "$bin" search "$@" >out 2>err
    rc=$?
}

# refused TEXT ARGS...: exit status 2, one stderr line holding TEXT, nothing on stdout.
refused() {
    local want=$1
    shift
    search "$@"
    expect_status 2 "search $*"
    one_line_error "$want"
    checks=$((checks + 1))
    [[ ! -s out ]] || fail "search $*: printed $(head -c 200 out)"
}

# without_time FILE: the output with its time fields dropped.
without_time() {
    sed -E 's/ time [0-9.]+//; s/"time": [0-9.]+, //' "$1"
}

num='[+-][0-9]+\.[0-9]{2}'
hole='[SN](1[0-2]|[1-9])'
line_re="^depth [0-9]+ value $num south $num nodes [0-9]+ time [0-9]+\.[0-9]{2}( moves $hole=$num(,$hole=$num)*)? pv( $hole)+$"
north="5,5,5,5,1,5,5,5,0,5,5,5/5,0,5,5,5,5,0,5,5,5,5,0 0/0 N - -"

# Text: one line per depth, 1 to D, in the documented format; cumulative nodes.
search --depth 6
expect_status 0 "search --depth 6"
checks=$((checks + 1))
[[ $(wc -l <out) -eq 6 ]] && [[ $(grep -cE "$line_re" out) -eq 6 ]] &&
    [[ "$(cut -d' ' -f2 out | tr '\n' ' ')" == "1 2 3 4 5 6 " ]] && [[ ! -s err ]] ||
    fail "search --depth 6: $(cat out err)"
checks=$((checks + 1))
awk '{ if ($8 < last) bad = 1; last = $8 } END { exit bad }' out ||
    fail "search --depth 6: the node counts are not cumulative: $(cut -d' ' -f7,8 out)"
# Each pv is no longer than its depth, and legal: `anywoli move` plays it from the start.
while read -r line; do
    depth=$(cut -d' ' -f2 <<<"$line")
    pv=${line#* pv }
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    [[ $(wc -w <<<"$pv") -le $depth ]] && "$bin" move $pv >/dev/null 2>err ||
        fail "depth $depth: pv '$pv' too long or illegal: $(cat err)"
done <out

# North to move: the value is North's, `south` its negation.
search --depth 4 "$north"
expect_status 0 "search (North to move)"
checks=$((checks + 1))
[[ $(grep -cE "$line_re" out) -eq 4 ]] &&
    awk '{ v = $4 + 0; s = $6 + 0; if (v != -s) bad = 1 } END { exit bad }' out ||
    fail "search (North to move): south is not -value: $(cat out)"

# The same twice, but for the time; --all-moves lists every legal move (12), --multipv 3
# three of them.
search --depth 7 --all-moves
cp out all1
search --depth 7 --all-moves
check "search --all-moves twice: the same but for the time" \
    cmp -s <(without_time all1) <(without_time out)
checks=$((checks + 1))
[[ $(grep -cE "$line_re" all1) -eq 7 ]] &&
    [[ $(tail -1 all1 | sed -E 's/.* moves ([^ ]*) .*/\1/' | tr ',' '\n' | wc -l) -eq 12 ]] ||
    fail "search --all-moves: $(tail -1 all1)"
search --depth 5 --multipv 3
checks=$((checks + 1))
[[ $(tail -1 out | sed -E 's/.* moves ([^ ]*) .*/\1/' | tr ',' '\n' | wc -l) -eq 3 ]] ||
    fail "search --multipv 3: $(tail -1 out)"
# The best value alone is the first of --all-moves' list, at every depth.
search --depth 7
checks=$((checks + 1))
[[ "$(cut -d' ' -f2,4 out)" == "$(cut -d' ' -f2,4 all1)" ]] &&
    [[ "$(cut -d' ' -f2,4 out)" == "$(sed -E 's/^depth ([0-9]+) .* moves [SN][0-9]+=([^,]*),.*/\1 \2/' all1)" ]] ||
    fail "search: the values differ from --all-moves' best"

# JSON lines: each line parses, with the fields named; the same values as the text.
search --depth 5 --multipv 2 --json
expect_status 0 "search --json"
check "search --json: JSON lines with the documented fields" "$python" -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["depth"] for r in rows] == [1, 2, 3, 4, 5], rows
for r in rows:
    assert set(r) == {"depth", "value", "south", "nodes", "time", "moves", "pv", "pv_names"}, r
    assert r["value"] == r["south"] and len(r["moves"]) == 2 and 1 <= len(r["pv"]) <= r["depth"]
    assert r["moves"][0]["value"] == r["value"] and r["pv"][0] == r["moves"][0]["move"], r
    # "move" and "pv" are indices from 0; "name" and "pv_names" the same holes by name.
    name = lambda m: "S%d" % (m + 1) if m < 12 else "N%d" % (m - 11)
    assert all(m["name"] == name(m["move"]) for m in r["moves"]), r
    assert r["pv_names"] == [name(m) for m in r["pv"]], r
' out
# The text names the holes the JSON numbers: the same pv and moves, index m as S(m+1) or N(m-11).
cp out json5
search --depth 5 --multipv 2
check "search: the text's hole names are the JSON's indices" "$python" -c '
import json, sys
name = lambda m: "S%d" % (m + 1) if m < 12 else "N%d" % (m - 11)
for j, t in zip(open(sys.argv[1]), open(sys.argv[2])):
    j, t = json.loads(j), t.split()
    assert t[t.index("pv") + 1:] == [name(m) for m in j["pv"]], (j, t)
    want = ",".join("%s=%+.2f" % (name(m["move"]), m["value"]) for m in j["moves"])
    assert t[t.index("moves") + 1] == want, (j, t)
' json5 out
search --depth 5 --json
check "search --json: no moves without --multipv" "$python" -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 5 and all("moves" not in r for r in rows), rows
' out

# --nodes K: the depths whose cumulative count stays within K, and not the next one.
search --nodes 20000
expect_status 0 "search --nodes 20000"
checks=$((checks + 1))
last=$(tail -1 out | cut -d' ' -f2)
[[ $(grep -cE "$line_re" out) -ge 3 ]] && [[ $(tail -1 out | cut -d' ' -f8) -le 20000 ]] ||
    fail "search --nodes 20000: $(cat out)"
search --depth $((last + 1))
checks=$((checks + 1))
[[ $(tail -1 out | cut -d' ' -f8) -gt 20000 ]] ||
    fail "search --nodes 20000 stopped at depth $last, but depth $((last + 1)) fits"

# --nodes 1: depth 1 alone needs 12 nodes, yet a search always answers with a move: depth 1
# is printed (it used to print nothing and exit 0).
search --nodes 1
expect_status 0 "search --nodes 1"
checks=$((checks + 1))
[[ $(wc -l <out) -eq 1 ]] && grep -qE "$line_re" out && [[ $(cut -d' ' -f2,8 out) == "1 12" ]] ||
    fail "search --nodes 1: $(cat out err)"

# Other options of the spec: tuned weights, quiescence, a small table; tables of a small
# variant give exact values where they cover the position.
search --depth 4 --agent "alphabeta:weights=tuned,quiesce=2,tt=10"
expect_status 0 "search --agent alphabeta:weights=tuned,quiesce=2,tt=10"
"$bin" tables build --holes 3 --seeds 2 --max-seeds 8 -o t.tb >/dev/null 2>err ||
    fail "tables build: $(cat err)"
search --holes 3 --seeds 2 --depth 2 --agent alphabeta:tables=t.tb "1,2,1/2,0,2 4/0 S S -"
expect_status 0 "search with tables"
solved=$("$bin" solve --holes 3 --seeds 2 "1,2,1/2,0,2 4/0 S S -" | sed -n 's/^value //p')
checks=$((checks + 1))
[[ "$(tail -1 out | cut -d' ' -f4)" == "$(printf '%+.2f' "$solved")" ]] ||
    fail "search with tables: $(tail -1 out), solver value $solved"

# The strong player searches too: depth by depth within its nodes, each line a depth one more
# than the last, the same twice.
search --agent 'strong:tables=' --nodes 200000
expect_status 0 "search --agent strong --nodes 200000"
checks=$((checks + 1))
strong_depths=$(awk '$1 == "depth" {print $2}' out | tr '\n' ' ')
[[ $(awk '$1 == "depth"' out | wc -l) -ge 8 && $strong_depths == "$(seq -s ' ' 1 "$(awk '$1 == "depth" {d = $2} END {print d}' out)") " ]] ||
    fail "search --agent strong: depths $strong_depths"
first=$(cut -d" " -f1-8 out)
search --agent 'strong:tables=' --nodes 200000
checks=$((checks + 1))
[[ "$(cut -d" " -f1-8 out)" == "$first" ]] || fail "search --agent strong: not the same twice"

# Bad input: one line, exit status 2.
refused "--depth" --depth 0
refused "--depth" --depth 65
refused "--depth" --depth x
refused "--nodes" --nodes 0
refused "not both" --depth 3 --nodes 100
refused "not both" --multipv 2 --all-moves
refused "--multipv" --multipv 0
refused "only an alphabeta or strong spec" --agent greedy
refused "only an alphabeta or strong spec" --agent "mcts:playouts=100"
refused "--agent" --agent "alphabeta:wieghts=plain"
refused "unequal length" --depth 3 "4,4,4/4,4 0/0 S - -"
refused "game is over" --holes 3 "0,0,1/0,1,0 6/4 S S -"
refused "unexpected argument" --depth 3 "$north" extra
search --help
expect_status 0 "search --help"

echo "search_test: $((checks - failures)) passed, $failures failed"
[[ $failures -eq 0 ]]
