#!/usr/bin/env bash
# Set everything up and run the whole test suite (CTest: unit, vector, perft, property and
# command-line tests); then the fast tests again in the checking build, build-checks/
# (-DANYWOLI_CHECKS=ON: asserts kept, every move's position and every game's record checked as
# the tests play them); then the MPI tests from a third build with -DANYWOLI_MPI=ON
# (build-mpi: only the binary). ANYWOLI_BUILD and ANYWOLI_CMAKE_ARGS select another build, for
# example the sanitizer one; extra arguments go to ctest (-L fast, -R perft, ...). Either skips
# the checking and MPI parts.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir "${ANYWOLI_BUILD:-build}" --output-on-failure -j "$(nproc)" "$@"
if [ -z "${ANYWOLI_BUILD:-}" ] && [ $# -eq 0 ]; then
  cmake -S . -B build-checks -DCMAKE_BUILD_TYPE=Release -DANYWOLI_CHECKS=ON >/dev/null
  cmake --build build-checks -j "$(nproc)" >/dev/null
  ctest --test-dir build-checks --output-on-failure -L fast -j "$(nproc)"
  cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DANYWOLI_MPI=ON >/dev/null
  cmake --build build-mpi -j "$(nproc)" --target anywoli >/dev/null
  ctest --test-dir build-mpi --output-on-failure -L mpi
fi
