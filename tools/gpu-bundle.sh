#!/usr/bin/env bash
# Prepares, on this machine (LLVM, the compiler, no GPU needed), the bundle that
# tools/gpu-check.sh runs on a machine with an NVIDIA GPU, CUDA and Python but no
# LLVM. Usage: tools/gpu-bundle.sh [OUT] (default build-gpu-bundle/bundle; at most
# 40 MiB, checked: with the working tree it stays within 64 MiB). Takes
# /tmp/dlc-build.lock itself for its builds: do not wrap it in flock.
#
# OUT/bin, OUT/lib  dlc-run and the runtime's tests (libstdc++ linked statically, so
#                   they run on other distributions), the test kernels, the fake driver
# OUT/src           the runtime's sources, to rebuild there when the binaries cannot run
# OUT/artifacts     the example models (mlp, cnn, encoder) in fp32 and mixed precision,
#                   on 1 GPU or pipeline:2 on 2 GPUs; the cnn as a symbolic batch (its
#                   GPU kernels launched once per image); every e2e op test on 1 GPU; the
#                   GPU benchmarks (fused elementwise chain over 256 MiB, f16 GEMM
#                   4096^3); CPU code for x86-64-v3, GPU code for $DLC_CUDA_ARCHS
# OUT/ref           the reference interpreter's outputs on dlc-run's default inputs
# OUT/manifest.tsv  name, artifact, reference, GPUs needed, tolerance class
# OUT/skipped.tsv   what the compiler could not compile for the GPU, with its error
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-build-gpu-bundle/bundle}
DLC=${DLC:-$ROOT/build/bin/dlc}
ARCHS=${DLC_CUDA_ARCHS:-sm_80,sm_90}
CPU=${DLC_BUNDLE_CPU:-x86-64-v3}
LOCK=/tmp/dlc-build.lock

[ -x "$DLC" ] || { echo "gpu-bundle: no compiler at $DLC (build it first)" >&2; exit 1; }
# A private copy, taken under the build lock: others may relink build/bin/dlc meanwhile.
mkdir -p "$ROOT/build-gpu-bundle"
flock "$LOCK" cp "$DLC" "$ROOT/build-gpu-bundle/dlc"
DLC=$ROOT/build-gpu-bundle/dlc
rm -rf "$OUT"
mkdir -p "$OUT"/{bin,lib,artifacts,ref,src,scripts}

echo "== runtime binaries (portable: static libstdc++)"
RT=$ROOT/build-gpu-bundle/rt
static="-static-libstdc++ -static-libgcc"
flock "$LOCK" cmake -S . -B "$RT" -G Ninja -DDLC_BUILD_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_EXE_LINKER_FLAGS=$static" "-DCMAKE_SHARED_LINKER_FLAGS=$static" > /dev/null
flock "$LOCK" ninja -C "$RT" dlc-run dlc-runtime-tests dlc-runtime-cuda-tests \
  dlc-runtime-gpu-tests dlc_fake_cuda dlc_test_kernels dlc_test_kernels_nodelete > /dev/null
cp "$RT"/bin/{dlc-run,dlc-runtime-tests,dlc-runtime-cuda-tests,dlc-runtime-gpu-tests} "$OUT/bin/"
cp "$RT"/lib/{libdlc_fake_cuda.so,libdlc_test_kernels.so,libdlc_test_kernels_nodelete.so} "$OUT/lib/"
strip "$OUT"/bin/* "$OUT"/lib/libdlc_fake_cuda.so

echo "== runtime sources"
git archive HEAD CMakeLists.txt runtime tools/dlc-run test/embed | tar -x -C "$OUT/src"
cp tools/gpu-check.sh tools/gpucheck/gpu_check.py tools/gpucheck/gpu_spec.py test/e2e/Inputs/npy.py "$OUT/scripts/"

MANIFEST=$OUT/manifest.tsv
: > "$MANIFEST"
: > "$OUT/skipped.tsv"
compile() { # NAME MODEL ENTRY GPUS TOLERANCE REF [dlc compile flags...]
  local name=$1 model=$2 entry=$3 gpus=$4 tol=$5 ref=$6
  shift 6
  # A model the CUDA backend cannot compile yet is listed, not fatal.
  if ! "$DLC" compile "$model" --entry="$entry" -o "$OUT/artifacts/$name.dlcm" \
      --cpu="$CPU" --cuda-arch="$ARCHS" "$@" > "$OUT/compile.log" 2>&1; then
    printf '%s\t%s\n' "$name" "$(grep -m1 error "$OUT/compile.log")" >> "$OUT/skipped.tsv"
    echo "  skipped $name: $(grep -m1 error "$OUT/compile.log")"
    return 0
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "artifacts/$name.dlcm" "$ref" "$gpus" "$tol" >> "$MANIFEST"
}
reference() { # DIR MODEL ENTRY
  "$DLC" interpret "$2" --entry="$3" --random-inputs --output-dir "$OUT/ref/$1" > /dev/null
}

echo "== example models"
# Each model in f32 and in mixed precision on real GPUs, and split over 2 GPUs
# (pipeline:2; run on 2 GPUs, remapped onto 1, and simulated). The weights are
# most of the size budget (the working tree travels beside the bundle, 64 MiB in
# all), so the big models get fewer artifacts: the mlp (7.4 MB of f32 weights)
# mixed on 2 GPUs only, the encoder f32 on 2 and mixed on 1; the cnn all three.
for m in mlp cnn encoder; do
  model=test/models/$m.mlir
  reference "$m" "$model" main
  if [ "$m" = cnn ]; then
    compile "$m-gpu1" "$model" main 1 f32 "ref/$m" --devices=cpu,cuda:0 --placement=gpu
  fi
  if [ "$m" != mlp ]; then
    compile "$m-gpu1-mixed" "$model" main 1 mixed "ref/$m" --devices=cpu,cuda:0 \
      --placement=gpu --precision=mixed
    compile "$m-pipe2" "$model" main 2 f32 "ref/$m" --devices=cpu,cuda:0,cuda:1 \
      --placement=pipeline:2
  else
    compile "$m-pipe2-mixed" "$model" main 2 mixed "ref/$m" --devices=cpu,cuda:0,cuda:1 \
      --placement=pipeline:2 --precision=mixed
  fi
done

echo "== a symbolic batch (format 0.8): the cnn's kernels launched once per image"
# dlc-run's random inputs are at the bound (4), the reference's batch.
sed 's/^\(  func.func @main(.*)\) {$/\1 attributes {dlc.symbolic_batch = "batch"} {/' \
  test/models/cnn.mlir > "$ROOT/build-gpu-bundle/cnn_batch.mlir"
compile cnn-batch-gpu1 "$ROOT/build-gpu-bundle/cnn_batch.mlir" main 1 f32 ref/cnn \
  --devices=cpu,cuda:0 --placement=gpu

echo "== op tests"
for f in test/e2e/ops_*.mlir; do
  for entry in $(sed -n 's/.*%check-e2e %s \([A-Za-z0-9_]*\) .*/\1/p' "$f"); do
    base=$(basename "$f" .mlir)-$entry
    reference "$base" "$f" "$entry"
    compile "$base" "$f" "$entry" 1 f32 "ref/$base" --devices=cpu,cuda:0 --placement=gpu
  done
done

echo "== benchmarks"
compile bench-ew-chain tools/gpucheck/ew_chain.mlir main 1 bench-ew - \
  --devices=cpu,cuda:0 --placement=gpu
compile bench-gemm-f16 tools/gpucheck/gemm_f16.mlir main 1 bench-gemm - \
  --devices=cpu,cuda:0 --placement=gpu

rm -f "$OUT/compile.log"
size=$(du -sb "$OUT" | cut -f1)
echo "gpu-bundle: $OUT, $(wc -l < "$MANIFEST") artifacts ($(wc -l < "$OUT/skipped.tsv") skipped:" \
  "skipped.tsv), $((size / 1048576)) MiB"
# The device machine takes 64 MiB of carried files beside the working tree.
if [ "$size" -gt $((40 * 1048576)) ]; then
  echo "gpu-bundle: the bundle exceeds 40 MiB" >&2
  exit 1
fi
