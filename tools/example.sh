#!/usr/bin/env bash
# Quick start, step one: installs what is needed, builds, and runs the main job on an
# example model: compile it to native code, run it, and compare with the reference
# interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
mkdir -p build/example
build/bin/dlc compile test/models/mlp.mlir -o build/example/mlp.dlcm
build/bin/dlc run build/example/mlp.dlcm --output-dir build/example/out --iterations=100
build/bin/dlc interpret test/models/mlp.mlir --random-inputs --output-dir build/example/reference > /dev/null
echo "outputs: build/example/out/ (native), build/example/reference/ (reference interpreter)"
