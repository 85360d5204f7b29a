#!/usr/bin/env bash
# Set everything up and run the lab's main job, configs/default.cfg (the standard game with
# random, greedy and alpha-beta players), printing its summary; the results file is
# build/default.h5 (replaced on each run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/anywoli run configs/default.cfg -o build/default.h5 --force
