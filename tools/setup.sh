#!/usr/bin/env bash
# Installs every dependency of dlc on Debian 12 with apt-get. Idempotent: when every
# package is already installed it only checks and returns in about a second.
# The CUDA toolkit is not a Debian package; it is detected at build time (/usr/local/cuda
# or CUDA_HOME) and GPU parts are left out when it is absent.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git python3
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  flatbuffers-compiler libflatbuffers-dev
  libgtest-dev
  liblld-19-dev zlib1g-dev
  # ONNX import (compiler/Import/ONNX), its conformance data and test models
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-onnx
  python3-torch python3-torchvision
  # AArch64: the runtime cross-built (tools/build-aarch64.sh) and its tests run
  # under qemu (test/e2e/aarch64.mlir); the compiler's LLVM cross-compiles kernels
  g++-aarch64-linux-gnu qemu-user
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
