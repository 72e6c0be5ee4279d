#!/usr/bin/env bash
# Quick start, step one: installs what is needed, builds, and runs the main job on an
# example model (verify it, then run it in the reference interpreter).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
build/bin/dlc verify test/models/mlp.mlir
build/bin/dlc interpret test/models/mlp.mlir --random-inputs --output-dir build/example-out
echo "outputs written to build/example-out/"
