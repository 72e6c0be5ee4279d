// Every kernel the CUDA emitter produces for the example models (f32 and
// mixed precision, all ops on a GPU) and for the op tests of the CPU lowering
// compiles through NVRTC for sm_80 and sm_90; the artifact holds the PTX, a
// CUBIN per architecture and the source.
// REQUIRES: nvrtc
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %models/mlp.mlir --devices=cpu,cuda:0 --placement=gpu --cuda-arch=sm_80,sm_90 -o %t/mlp.dlcm
// RUN: dlc inspect %t/mlp.dlcm | FileCheck %s --check-prefix=MLP
// RUN: dlc compile %models/mlp.mlir --devices=cpu,cuda:0 --placement=gpu --precision=mixed --cuda-arch=sm_90,sm_80 --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: dlc compile %models/cnn.mlir --devices=cpu,cuda:0 --placement=gpu --cuda-arch=sm_80,sm_90 -o %t/cnn.dlcm
// RUN: dlc compile %models/encoder.mlir --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --cuda-arch=sm_80,sm_90 -o %t/enc.dlcm
// RUN: dlc inspect %t/enc.dlcm | FileCheck %s --check-prefix=ENC
// RUN: dlc compile %models/encoder.mlir --devices=cpu,cuda:0 --placement=gpu --precision=mixed --cuda-arch=sm_80,sm_90 -o %t/enc-mixed.dlcm
// RUN: dlc inspect %t/enc-mixed.dlcm | FileCheck %s --check-prefix=MIXED
// RUN: dlc compile %models/cnn.mlir --devices=cpu,cuda:0 --placement=gpu --precision=fp16 --cuda-arch=sm_80,sm_90 -o %t/cnn-fp16.dlcm
// RUN: %python %S/Inputs/compile_functions.py %S/../../CPU/test/numerics_elementwise.mlir --cuda-arch=sm_80,sm_90 | FileCheck %s --check-prefix=OPS
// RUN: %python %S/Inputs/compile_functions.py %S/../../CPU/test/numerics_contractions.mlir --cuda-arch=sm_80,sm_90 | FileCheck %s --check-prefix=OPS
// RUN: %python %S/Inputs/compile_functions.py %S/../../CPU/test/numerics_data_movement.mlir --cuda-arch=sm_80,sm_90 | FileCheck %s --check-prefix=OPS
// RUN: %python %S/Inputs/compile_functions.py %S/../../CPU/test/numerics_pooling_norm.mlir --cuda-arch=sm_80,sm_90 | FileCheck %s --check-prefix=OPS

// MLP: cuda: k0 in module 0, grid 16x1x1, block 16x16x1, 0 bytes shared
// MLP: cuda: k3 in module 0, grid 8x1x1, block 128x1x1, 0 bytes shared
// MLP: cuda module 0: PTX compute_80 ({{[0-9]+}} bytes), CUBIN sm_80 ({{[0-9]+}} bytes), sm_90 ({{[0-9]+}} bytes), source {{[0-9]+}} bytes

// PTX: .target sm_80
// PTX: .visible .entry k{{[0-9]+}}(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// ENC: cuda module 0: PTX compute_80 ({{[0-9]+}} bytes), CUBIN sm_80

// The f16 GEMMs run on tensor cores: 128 threads (4 warps) per block, three
// stages of 64x32 and 32x64 tiles in dynamic shared memory.
// MIXED: 'k1' = k1_entry in library 0; ops: /blocks/blocks.0/attn/qkv/Gemm, /blocks/blocks.0/attn/qkv/Gemm/bias
// MIXED-NEXT: cuda: k1 in module 0, grid 12x4x1, block 128x1x1, 29184 bytes shared

// OPS-NOT: FAIL
// OPS: OK {{.*}} GPU kernels
// OPS-NOT: FAIL
