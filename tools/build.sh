#!/usr/bin/env bash
# Configures and builds dlc into build/ (binaries in build/bin/). Extra arguments go
# to the configure step, e.g. -DDLC_BUILD_COMPILER=OFF for the runtime alone.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja "$@"
cmake --build build
