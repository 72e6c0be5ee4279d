#!/usr/bin/env bash
# Quick start, step one: installs what is needed, builds, and runs the main job on an
# example model: compile it to native code, run it, and compare with the reference
# interpreter; then a PyTorch model: exported to ONNX, imported and placed over the CPU
# and two simulated GPUs, run, and compared with PyTorch.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
mkdir -p build/example
build/bin/dlc compile test/models/mlp.mlir -o build/example/mlp.dlcm
build/bin/dlc run build/example/mlp.dlcm --output-dir build/example/out --iterations=100
build/bin/dlc interpret test/models/mlp.mlir --random-inputs --output-dir build/example/reference > /dev/null
echo "outputs: build/example/out/ (native), build/example/reference/ (reference interpreter)"

# A PyTorch transformer encoder (random weights) through ONNX: where each op runs,
# then the run on the CPU and two simulated GPUs next to PyTorch's output.
/usr/bin/python3 test/models/export.py build/example/models --models encoder > /dev/null 2>&1
build/bin/dlc compile build/example/models/encoder/model.onnx --devices=cpu,cuda:0,cuda:1 \
    --placement=cost --no-cuda --print-placement -o build/example/encoder.dlcm
build/bin/dlc run build/example/encoder.dlcm --gpu=sim --input=x=build/example/models/encoder/x.npy \
    --output-dir build/example/encoder-out --iterations=20
/usr/bin/python3 -c "import numpy as n; a = n.load('build/example/encoder-out/y.npy'); \
b = n.load('build/example/models/encoder/y.npy'); \
print('encoder vs PyTorch: max abs difference %.2g' % abs(a - b).max())"
