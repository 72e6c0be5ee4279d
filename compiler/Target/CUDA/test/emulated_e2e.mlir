// The generated CUDA code run end to end inside the multi-device executor:
// --gpu-host-code=emulated makes the GPU kernels' host code their CUDA C++,
// compiled against the emulation (threads as fibers, shuffles, mma.sync), so
// simulated GPUs run the same kernels a real GPU would (no NVRTC needed:
// --no-cuda). Compared with the reference interpreter.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %models/mlp.mlir main %t/mlp --devices=cpu,cuda:0,cuda:1 --placement=data-parallel:2 --no-cuda --gpu-host-code=emulated --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: dlc inspect %t/mlp/main.dlcm | FileCheck %s --check-prefix=LIB
// Mixed precision: the f16 GEMMs on the emulated tensor cores, softmax and
// layer_norm as warp/block row reductions, split, transposes, over two GPUs.
// RUN: %python %S/../../../../test/e2e/Inputs/check_mixed.py %models/encoder.mlir %t/enc --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --precision=mixed --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s --check-prefix=ENC
// The CNN in f16: its convolutions as implicit GEMMs on the tensor cores.
// RUN: %python %S/../../../../test/e2e/Inputs/check_mixed.py %models/cnn.mlir %t/cnn --devices=cpu,cuda:0 --placement=gpu --precision=fp16 --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s --check-prefix=CNN
// RUN: not dlc compile %models/mlp.mlir --gpu-host-code=ptx -o %t/x.dlcm 2>&1 | FileCheck %s --check-prefix=BAD

// MLP: main probs: ok
// LIB: 1: x86_64-pc-linux-gnu, target_cpu 'generic', features []
// LIB: 'k2' = k2_entry in library 1; ops: /fc1/Gemm/dp0, /fc1/Gemm/dp0/bias, /act1/Gelu/dp0
// ENC: y: ok (painted
// CNN: logits: ok (painted
// BAD: error: --gpu-host-code expects llvm or emulated, got 'ptx'
