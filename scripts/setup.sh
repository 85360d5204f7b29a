#!/usr/bin/env bash
# Set up Anywoli lab on Debian 12: install what the build and tests need (as root, or with
# sudo; Open MPI too, though only a build asked for with -DANYWOLI_MPI=ON uses it), then
# configure and build the release binary in build/. Safe to run again: it
# installs only what is missing and rebuilds only what changed. python3-torch (the network
# evaluation's training, scripts/net_train.py, and its test) is the largest: with what it
# needs, about 155 packages, 140 MB to download and 580 MB installed on Debian 12.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config git python3
          libgsl-dev libhdf5-dev hdf5-tools libconfig-dev libcmocka-dev zlib1g-dev
          python3-h5py python3-numpy python3-scipy python3-pandas python3-venv python3-setuptools
          python3-wheel
          python3-torch
          clang libclang-rt-14-dev libomp-dev llvm-14
          gnuplot-nox libopenmpi-dev openmpi-bin procps
          chromium)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

build=${ANYWOLI_BUILD:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${ANYWOLI_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
echo "setup: built $build/anywoli" >&2
