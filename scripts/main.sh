#!/usr/bin/env bash
# Set everything up and run the lab's main job, printing its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/anywoli bench
