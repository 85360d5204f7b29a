#!/usr/bin/env bash
# start-value.sh: the value of the start by depth, as docs/strong-play.md shows it. For the
# plain, the tuned and the learned evaluation (and the network, on request) under each of the
# three conventions, `anywoli search` deepens from the start one ply at a time within a node
# budget, with the three best first moves' exact values at each depth; the tables (markdown)
# go to standard output.
#
#   scripts/start-value.sh [--nodes K] [--jobs J] [--weights LIST] [--binary PATH]
#
# --nodes K   the node budget of each search (default 3000000000: about five minutes on one
#             core with the plain or tuned set, about twelve with the learned one); every
#             figure but the time is the same on any machine
# --weights   the evaluations, a comma-separated list of plain, tuned, learned and net (the
#             compiled-in network, about half the learned set's nodes a second; default
#             plain,tuned,learned)
# --jobs J    searches run at once (default: the number of cores)
# --binary    the anywoli binary (default build/anywoli)
set -euo pipefail
cd "$(dirname "$0")/.."

nodes=3000000000
jobs=$(nproc)
weights_list=plain,tuned,learned
binary=build/anywoli
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --weights) weights_list=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "start-value.sh: unknown option '$1' (expected --nodes, --jobs, --weights or --binary)" >&2
       exit 2 ;;
  esac
done
[ -x "$binary" ] || { echo "start-value.sh: $binary: no such binary (run scripts/setup.sh)" >&2; exit 2; }

IFS=, read -r -a evaluations <<<"$weights_list"
for weights in "${evaluations[@]}"; do
  case "$weights" in
    plain|tuned|learned|net) ;;
    *) echo "start-value.sh: --weights: '$weights' is not plain, tuned, learned or net" >&2; exit 2 ;;
  esac
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One search an evaluation and a convention, at most $jobs at once (each one thread).
for weights in "${evaluations[@]}"; do
  for conv in penultimate first-final lottery; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    "$binary" search --final-four "$conv" --agent "alphabeta:weights=$weights" \
      --nodes "$nodes" --multipv 3 --json >"$out/$weights-$conv.jsonl" &
  done
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || exit 1; done
/usr/bin/python3 - "$out" "$nodes" "${evaluations[@]}" <<'PY'
import json, os, sys
folder, budget, evaluations = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
convs = ["penultimate", "first-final", "lottery"]

def cell(x):
    moves = x.get("moves", [])
    best = moves[0]["name"] if moves else "?"
    rest = ", ".join("%s %+.2f" % (m["name"], m["value"]) for m in moves[1:])
    return "%+.2f %s (%s)" % (x["south"], best, rest)

for weights in evaluations:
    runs = {c: [json.loads(l) for l in open(os.path.join(folder, "%s-%s.jsonl" % (weights, c)))]
            for c in convs}
    deepest = max(len(r) for r in runs.values())
    # The conventions differ only where a search reaches the end of a game: one column
    # while they agree at every depth.
    alike = all(len(runs[c]) == deepest and
                [cell(x) for x in runs[c]] == [cell(x) for x in runs[convs[0]]] for c in convs)
    cols = [convs[0]] if alike else convs
    print("\n**%s evaluation** (`alphabeta:weights=%s`): South's value of the start in seeds "
          "at each depth, its best first move, and the next two first moves with their values%s\n"
          % (weights, weights, "; the same under the three conventions" if alike else ""))
    print("| depth | " + " | ".join("value, best (next two)" if alike else c for c in cols) +
          " | nodes | time (s) |")
    print("| --- | " + " | ".join("---" for _ in cols) + " | --- | --- |")
    for d in range(deepest):
        cells = [cell(runs[c][d]) if d < len(runs[c]) else "-" for c in cols]
        p = runs[cols[0]][d] if d < len(runs[cols[0]]) else None
        print("| %d | %s | %s | %s |" % (d + 1, " | ".join(cells),
              "{:,}".format(p["nodes"]) if p else "-", "%.1f" % p["time"] if p else "-"))
    print("\n(nodes and time: cumulative, the %s search's; deepest depth within %s nodes: %s)"
          % (cols[0], "{:,}".format(budget),
             ", ".join("%s %d" % (c, len(runs[c])) for c in convs)))
print()
PY
