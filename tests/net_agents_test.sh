#!/usr/bin/env bash
# net_agents_test.sh: the network evaluation's agents (weights=net) through the command line.
#
#   net_agents_test.sh PATH/TO/anywoli TESTS_DIR
#
# A run of alphabeta, strong and mcts with weights=net is the same game for game with 1 and
# 2 threads (tests/same_games.py), and its results file holds a network file's hash
# (agent_a_files, net=HASH) as a weights file's, the compiled-in network's too; net= without weights=net, a file that is not
# a network and a board the network is not for are refused (status 2, one line naming the
# agent or the file).
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
tests=$2
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

# --- the same games with 1 and 2 threads ---------------------------------------------------
cat >net.cfg <<'CFG'
seed = 7L;
jobs = (
  { name = "ab"; agent_a = "alphabeta:depth=3,weights=net"; agent_b = "strong:tables=,nodes=2000,weights=net"; games = 6L; },
  { name = "mcts"; agent_a = "mcts:playouts=100,weights=net"; agent_b = "mcts:playouts=100,weights=net,expand=all,policy=none,minimax=1"; games = 6L; }
);
CFG
for t in 1 2; do
    "$bin" run net.cfg -o t$t.h5 --threads $t --record-moves --quiet >/dev/null 2>err
    rc=$?
    expect_status 0 "weights=net's run with $t threads"
done
check "weights=net: the same games with 1 and 2 threads" "$py" "$tests/same_games.py" t1.h5 t2.h5

# --- a network file's hash in the results file ---------------------------------------------
"$py" "$tests/net_file.py" six.net 6 0.5
"$bin" run --holes 6 --agent-a mcts:playouts=50,weights=net,net=six.net --agent-b random \
    --games 2 --seed 1 -o six.h5 --quiet >/dev/null 2>err
rc=$?
expect_status 0 "mcts with a 6-hole network file"
# files_of H5 JOB ATTR NET: the job's attribute ATTR is net=HASH, NET's end line.
files_of() {
    checks=$((checks + 1))
    "$py" - "$@" >files 2>&1 <<'PY' || fail "$1: job $2: $3: $(head -c 300 files)"
import sys, h5py
h5, job, attr, net = sys.argv[1:5]
with h5py.File(h5) as f:
    files = f["jobs"][job].attrs[attr]
    files = files.decode() if isinstance(files, bytes) else str(files)
    want = "net=" + open(net).read().splitlines()[-1].split()[1]
    print(files, "not", want)
    sys.exit(0 if files == want else 1)
PY
}
files_of six.h5 main agent_a_files six.net
# The compiled-in network's hash as a file's: a build with another network plays other games.
files_of t1.h5 ab agent_a_files "$tests/../agents/net_default.net"
files_of t1.h5 ab agent_b_files "$tests/../agents/net_default.net"
files_of t1.h5 mcts agent_b_files "$tests/../agents/net_default.net"

# --- refusals --------------------------------------------------------------------------------
refused() {
    local what=$1 text=$2
    shift 2
    "$bin" "$@" >/dev/null 2>err
    rc=$?
    expect_status 2 "$what"
    one_line_error "$text"
}
refused "net= without weights=net" "agent 'alphabeta': net=six.net needs weights=net" \
    agents alphabeta:net=six.net
refused "net= with weights=learned" "agent 'mcts': net=six.net needs weights=net" \
    agents mcts:weights=learned,net=six.net
printf 'anywoli-learned 1\nname x\n' >weights.txt
refused "a file that is not a network" "weights.txt" agents strong:weights=net,net=weights.txt
refused "the compiled-in network on 6 holes" "agent 'alphabeta': weights=net" \
    run --holes 6 --agent-a alphabeta:depth=2,weights=net --agent-b random --games 2 -o r.h5
refused "a 6-hole network on the standard board" "agent 'strong': weights=net" \
    run --agent-a strong:tables=,weights=net,net=six.net --agent-b random --games 2 -o r.h5
checks=$((checks + 1))
[[ ! -e r.h5 ]] || fail "a refused run left r.h5"

echo "net agents: $checks checks, $failures failures"
((failures == 0))
