#!/usr/bin/env bash
# Set everything up and run the whole test suite (CTest: unit, vector, perft, property and
# command-line tests). ANYWOLI_BUILD and ANYWOLI_CMAKE_ARGS select another build, for example
# the sanitizer one; extra arguments go to ctest (-L fast, -R perft, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec ctest --test-dir "${ANYWOLI_BUILD:-build}" --output-on-failure -j "$(nproc)" "$@"
