#!/usr/bin/env bash
# net_train_test.sh: scripts/net_train.py (the network evaluation's training) end to end.
#
#   net_train_test.sh PATH/TO/anywoli PYTHON SOURCE_DIR
#
# A small sampling of the standard board trained twice into the same bytes (and a third time,
# with another seed, into others); the file read back on its own (tests/net_train_check.py:
# net.h's lines, finite numbers and end checksum, the inputs of every row as net.h's, the
# printed test error that of the file); `anywoli learn net-error`'s reading of it: the
# C side's float error on each split equal to the trainer's (the same encoding in both), and
# on the test games of each convention and quarter of the seeds on the board equal to
# net_train_check.py's own, and
# weights at the limits of the training's clip loaded (tests/net_train_clip.py);
# an existing output kept without --force; bad input one line with exit status 2.
# Skipped (77) where Debian's python3-torch is missing (scripts/setup.sh installs it).
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

bin=$1
python=$2
src=$3
script=$src/scripts/net_train.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checks=0

if ! "$python" -c 'import torch, h5py, numpy' 2>err; then
    echo "SKIPPED: $python cannot import torch, h5py and numpy (scripts/setup.sh installs" \
         "python3-torch): $(tail -1 err)"
    exit 77
fi

"$bin" learn sample --games 60 --depth 4 --seed 5 --quiet -o data.h5 >/dev/null 2>err
rc=$?
expect_status 0 "learn sample"

train() {   # OUT ARGS...: a tiny network of data.h5; the printed test error in $test_rmse
    local out=$1
    shift
    "$python" "$script" data.h5 --out "$out" --hidden 16,8 --epochs 3 --quiet "$@" >out.txt 2>err
    rc=$?
    expect_status 0 "net_train.py --out $out $*"
    test_rmse=$(sed -n 's/^test_rmse \([0-9.]*\)$/\1/p' out.txt)
    rmses=$(sed -n 's/^\(train\|validation\|test\)_rmse \([0-9.]*\)$/\2/p' out.txt | xargs)
}

same_errors() {   # RMSES WHAT: cerr.txt's net_float on each split is the trainer's RMSES
    local c_rmses
    c_rmses=$(sed -n 's/^split [a-z]* rows [0-9]* net_float \([0-9.]*\) .*/\1/p' cerr.txt | xargs)
    # Each split's (fitted, choosing, test): net-error prints 4 decimals, so 0.00005 of
    # rounding on top of the 1e-4 allowed.
    checks=$((checks + 1))
    "$python" -c "import sys; c, t = sys.argv[1].split(), sys.argv[2].split()
sys.exit(len(c) != 3 or len(t) != 3 or
         any(abs(float(x) - float(y)) > 1.5e-4 for x, y in zip(c, t)))" "$c_rmses" "$1" ||
        fail "$2: errors '$c_rmses' are not the trainer's '$1': $(cat cerr.txt)"
}

# The same command, the same bytes; another seed, other bytes (so the first is no accident).
train a.net
a_rmse=$test_rmse
a_rmses=$rmses
train b.net
train c.net --seed 2
check "two runs of one command wrote different files" cmp -s a.net b.net
checks=$((checks + 1))
cmp -s a.net c.net && fail "--seed 2 wrote the same file as --seed 1"
checks=$((checks + 1))
[[ -n $a_rmse ]] || fail "no line 'test_rmse X' in: $(cat out.txt)"

# The C side (agents/net.c) reads the file and finds the same float error on the test games.
"$bin" learn net-error a.net data.h5 >cerr.txt 2>err
rc=$?
expect_status 0 "learn net-error"
same_errors "$a_rmses" "learn net-error a.net"

# The file as net.h has it, the encoding as net.h's, the printed error the file's; and
# net-error's test games by convention and quarter of the seeds on the board, the cells'
# rows and errors as computed there.
"$python" "$src/tests/net_train_check.py" "$script" data.h5 a.net "$a_rmse" cerr.txt \
    >check.out 2>&1
rc=$?
expect_status 0 "net_train_check.py: $(cat check.out)"
checks=$((checks + 1))
grep -q "cells of convention" check.out || fail "net_train_check.py did not check the cells"

# Over a base (--base: learn base's values of the same rows): version 2 with the compiled-in
# learned set's digest on its base line, and the C side's whole value (the set's plus the
# network's) as far from the labels as the trainer said.
"$bin" learn base data.h5 >base.txt 2>err
rc=$?
expect_status 0 "learn base data.h5"
train based.net --base base.txt
digest=$(sed -n '1s/^base learned learned digest \([0-9a-f]\{16\}\) rows [0-9]*$/\1/p' base.txt)
checks=$((checks + 1))
[[ -n $digest && $(sed -n 1p based.net) == "anywoli-net 2" &&
   $(sed -n 8p based.net) == "base learned $digest" ]] ||
    fail "based.net's header is not version 2 with the base's digest $digest: $(head -8 based.net)"
"$bin" learn net-error based.net data.h5 >cerr.txt 2>err
rc=$?
expect_status 0 "learn net-error based.net"
same_errors "$rmses" "learn net-error based.net (over a base)"

# Dense inputs (--features: learn base --features's columns; --dense all): version 3 over the
# base, its dense line and the 27 features' rows, the C side's whole value as far from the
# labels as the trainer said (the same features, their standardisation folded into the
# weights); the same bytes from a second run; one group alone (moves.op: 6 inputs).
"$bin" learn base data.h5 --features >feat.txt 2>err
rc=$?
expect_status 0 "learn base data.h5 --features"
train dense.net --base feat.txt --features feat.txt --dense all
dense_rmses=$rmses
checks=$((checks + 1))
[[ $(sed -n 1p dense.net) == "anywoli-net 3" && $(sed -n 8p dense.net) == "base learned $digest" &&
   $(sed -n 9p dense.net) == "dense 27" && $(grep -c '^l1d ' dense.net) == 27 &&
   $(grep -c '^l1d.bias ' dense.net) == 1 ]] ||
    fail "dense.net's header is not version 3 with the base and 27 dense inputs: $(head -9 dense.net)"
"$bin" learn net-error dense.net data.h5 >cerr.txt 2>err
rc=$?
expect_status 0 "learn net-error dense.net"
same_errors "$dense_rmses" "learn net-error dense.net (dense inputs over a base)"
train dense2.net --base feat.txt --features feat.txt --dense all
check "two runs of one dense command wrote different files" cmp -s dense.net dense2.net
train op.net --features feat.txt --dense moves.op
checks=$((checks + 1))
[[ $(sed -n 8,9p op.net | xargs) == "base none dense 6" &&
   $(grep '^l1d ' op.net | cut -d' ' -f2 | xargs) == "op.gain op.gain.pos op.gain.big op.captures op.losses op.extra" ]] ||
    fail "op.net's dense inputs are not moves.op's six: $(grep '^l1d ' op.net | cut -c1-40)"
"$bin" learn net-error op.net data.h5 >cerr.txt 2>err
rc=$?
expect_status 0 "learn net-error op.net"
same_errors "$rmses" "learn net-error op.net (dense inputs, no base)"

# The clip after each step at its limits: the C side loads weights at every bound.
"$python" "$src/tests/net_train_clip.py" "$script" clip.net >clip.out 2>&1
rc=$?
expect_status 0 "net_train_clip.py: $(cat clip.out)"
"$bin" learn net-error clip.net data.h5 >/dev/null 2>err
rc=$?
expect_status 0 "learn net-error of weights at the clip's limits"

# An existing output is kept without --force, replaced with it.
cp c.net seed2.net
"$python" "$script" data.h5 --out c.net --hidden 16,8 --epochs 3 --quiet >/dev/null 2>err
rc=$?
expect_status 2 "an existing --out without --force"
one_line_error "c.net: exists"
check "c.net changed without --force" cmp -s c.net seed2.net
train c.net --force
check "--force did not replace c.net with the first command's file" cmp -s c.net a.net
checks=$((checks + 1))
compgen -G "c.net*.partial" >/dev/null && fail "a c.net partial file left behind"

# Bad input: one line, exit status 2, no file written.
bad() {   # TEXT ARGS...: net_train.py ARGS fails with one line holding TEXT
    local text=$1
    shift
    "$python" "$script" "$@" --out bad.net --epochs 1 --quiet >/dev/null 2>err
    rc=$?
    expect_status 2 "net_train.py $*"
    one_line_error "$text"
    checks=$((checks + 1))
    [[ -e bad.net ]] && fail "net_train.py $* wrote bad.net"
}
echo "not a network's data" >text.h5
"$bin" learn sample --holes 6 --seeds 3 --games 10 --depth 2 --quiet -o small.h5 >/dev/null 2>err ||
    fail "learn sample of 2x6x3: $(cat err)"
"$bin" run --agent-a random --agent-b random --games 2 --quiet -o results.h5 >/dev/null 2>err ||
    fail "run: $(cat err)"
bad "missing.h5: no such file" missing.h5
bad "text.h5: cannot open it as an HDF5 file" text.h5
bad "results.h5: not a learn data file" results.h5
bad "small.h5: another board than data.h5's" data.h5 small.h5
bad "--hidden '16': expected two numbers" data.h5 --hidden 16
bad "--hidden '300,8': expected" data.h5 --hidden 300,8
bad "--buckets 0: expected" data.h5 --buckets 0
head -3 base.txt >short.txt
bad "short.txt: 2 values, not one for each of the data's" data.h5 --base short.txt
bad "text.h5:1: not the output of anywoli learn base" data.h5 --base text.h5
bad "missing.txt: cannot read" data.h5 --base missing.txt
bad "--features FILE and --dense GROUPS go together" data.h5 --features feat.txt
bad "--dense: unknown group 'moves'" data.h5 --features feat.txt --dense moves
bad "--features base.txt: no features line" data.h5 --features base.txt --dense all
head -2 feat.txt >short.txt
bad "short.txt: 0 values, not one for each of the data's" data.h5 --features short.txt --dense all
cp data.h5 data2.h5
"$python" "$script" data2.h5 --out data2.h5 --force --epochs 1 --quiet >/dev/null 2>err
rc=$?
expect_status 2 "--out the data file"
one_line_error "the same file as the data file"
check "--out the data file changed it" cmp -s data.h5 data2.h5

echo "$checks checks, $failures failures"
[[ $failures -eq 0 ]]
