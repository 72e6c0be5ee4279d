#!/usr/bin/env bash
# Quick start, step two: installs what is needed, builds, and runs every test: the
# GoogleTest suites and the lit suites through ctest, then the runtime built alone
# (-DDLC_BUILD_COMPILER=OFF, no LLVM/MLIR) with its own tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
ctest --test-dir build --output-on-failure

echo "== the runtime alone (no LLVM/MLIR) =="
cmake -S . -B build-runtime -G Ninja -DDLC_BUILD_COMPILER=OFF > /dev/null
cmake --build build-runtime
ctest --test-dir build-runtime --output-on-failure
