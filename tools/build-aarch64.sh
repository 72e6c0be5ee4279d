#!/usr/bin/env bash
# Cross-builds the runtime and dlc-run for AArch64 Linux into build-aarch64/
# (no compiler, no tests: Debian has no GoogleTest for the target), with
# Debian's g++-aarch64-linux-gnu. test/e2e/aarch64.mlir runs its dlc-run under
# qemu-aarch64 on kernels `dlc compile --cpu=neoverse-n1` cross-compiled.
# Skipped, with a message, where the cross compiler is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v aarch64-linux-gnu-g++ > /dev/null; then
  echo "build-aarch64: no aarch64-linux-gnu-g++ (tools/setup.sh installs it); skipped"
  exit 0
fi
# FlatBuffers is header-only: its headers alone, not the host's /usr/include.
mkdir -p build-aarch64/host-headers
rm -rf build-aarch64/host-headers/flatbuffers
cp -r /usr/include/flatbuffers build-aarch64/host-headers/
cmake -S . -B build-aarch64 -G Ninja -DDLC_BUILD_COMPILER=OFF -DDLC_BUILD_TESTS=OFF \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/runtime/cmake/aarch64-linux-gnu.cmake" \
  "-DCMAKE_CXX_FLAGS=-isystem $PWD/build-aarch64/host-headers" > /dev/null
cmake --build build-aarch64 --target dlc-run
