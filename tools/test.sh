#!/usr/bin/env bash
# Quick start, step two: installs what is needed, builds, and runs every test: the
# GoogleTest suites and the lit suites through ctest, then the runtime built alone
# (-DDLC_BUILD_COMPILER=OFF, no LLVM/MLIR) with sanitizers, and its own tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
# The runtime cross-built for AArch64: the lit suites run its dlc-run under
# qemu-aarch64 on cross-compiled kernels (test/e2e/aarch64.mlir).
bash tools/build-aarch64.sh
# A hung test (a compiler race once spun forever) fails after 10 minutes
# instead of eating the CI limit.
ctest --test-dir build --output-on-failure --timeout 600

echo "== the runtime alone (no LLVM/MLIR), under AddressSanitizer and UBSan =="
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S . -B build-runtime-asan -G Ninja -DDLC_BUILD_COMPILER=OFF -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_C_FLAGS=$san" "-DCMAKE_CXX_FLAGS=$san" > /dev/null
cmake --build build-runtime-asan
ctest --test-dir build-runtime-asan --output-on-failure

echo "== the runtime alone under ThreadSanitizer (its streams, events and sessions) =="
tsan="-fsanitize=thread -g -O1"
cmake -S . -B build-runtime-tsan -G Ninja -DDLC_BUILD_COMPILER=OFF -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_C_FLAGS=$tsan" "-DCMAKE_CXX_FLAGS=$tsan" > /dev/null
cmake --build build-runtime-tsan --target dlc-runtime-tests dlc-runtime-cuda-tests
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-runtime-tsan --output-on-failure -R '^runtime-(unit|cuda-fake)$'
