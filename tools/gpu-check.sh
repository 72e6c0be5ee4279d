#!/usr/bin/env bash
# The one script to run on a machine with an NVIDIA GPU, CUDA and Python (no LLVM
# needed): tools/gpu-check.sh [BUNDLE] (default build-gpu-bundle/bundle, made here by
# tools/gpu-bundle.sh). It
#  1. takes the bundle's dlc-run and runtime tests, or rebuilds them from the
#     bundle's sources (cmake -DDLC_BUILD_COMPILER=OFF) when they cannot run here;
#  2. runs the runtime's tests (those of the CUDA device on the fake driver too);
#  3. runs every bundled artifact on the real GPU(s), on 2 logical GPUs remapped
#     onto GPU 0 and on simulated GPUs, against the reference interpreter;
#  4. runs the GPU benchmarks (PyTorch as the peer when installed);
# and prints a short table last. Under 5 minutes on one GPU. Exit 1 on a failure.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUNDLE=${1:-build-gpu-bundle/bundle}
[ -f "$BUNDLE/manifest.tsv" ] || { echo "gpu-check: no bundle at $BUNDLE (tools/gpu-bundle.sh makes one)" >&2; exit 2; }
BUNDLE=$(cd "$BUNDLE" && pwd)
WORK=${GPU_CHECK_WORK:-$(mktemp -d /tmp/gpu-check.XXXXXX)}
mkdir -p "$WORK"
SCRIPTS=$BUNDLE/scripts
[ -f "$SCRIPTS/gpu_check.py" ] || SCRIPTS=$HERE/gpucheck
command -v nvidia-smi > /dev/null && nvidia-smi -L

BIN=$BUNDLE/bin
if ! "$BIN/dlc-run" --version > /dev/null 2>&1; then
  echo "gpu-check: the bundled dlc-run does not run here; building the runtime from the bundle"
  B=$WORK/build-runtime
  cmake -S "$BUNDLE/src" -B "$B" -DDLC_BUILD_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release > "$WORK/cmake.log" 2>&1 \
    && cmake --build "$B" -j "$(nproc)" > "$WORK/build.log" 2>&1 \
    || { echo "gpu-check: the build failed (logs in $WORK)" >&2; exit 2; }
  BIN=$B/bin
  LIB=$B/lib
else
  LIB=$BUNDLE/lib
fi
export DLC_TEST_KERNELS=$LIB/libdlc_test_kernels.so DLC_TEST_KERNELS_NODELETE=$LIB/libdlc_test_kernels_nodelete.so \
  DLC_TEST_FAKE_CUDA=$LIB/libdlc_fake_cuda.so
"$BIN/dlc-run" --version
"$BIN/dlc-run" --list-gpus

status=0
tests=""
for t in dlc-runtime-tests dlc-runtime-cuda-tests dlc-runtime-gpu-tests; do
  if [ -x "$BIN/$t" ]; then
    if timeout 120 "$BIN/$t" > "$WORK/$t.log" 2>&1; then
      skipped=$(grep -o 'SKIPPED \] [0-9]* tests\?,' "$WORK/$t.log" | grep -o '[0-9]*')
      tests="$tests $t: $(grep -o 'PASSED  \] [0-9]* tests\?' "$WORK/$t.log" | grep -o '[0-9].*') passed${skipped:+, $skipped SKIPPED};"
    else
      tests="$tests $t: FAILED (log $WORK/$t.log);"
      status=1
    fi
  fi
done
echo "gpu-check: work files in $WORK"
GPU_CHECK_TESTS="$tests" python3 "$SCRIPTS/gpu_check.py" "$BUNDLE" "$WORK" "$BIN/dlc-run" || status=1
exit $status
