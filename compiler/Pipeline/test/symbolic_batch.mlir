// A symbolic batch (dlc.symbolic_batch): the inputs' dim 0 is its bound (4
// here), and every kernel that carries the batch is outlined at one unit of
// it, the code a batch-1 compile makes. The artifact (format 0.8) records
// rows per unit of every buffer carrying the batch (test/e2e/symbolic_batch.mlir
// runs such artifacts at several batches).
// RUN: dlc compile %s --emit=mlir | FileCheck %s
// The same kernels as the model compiled at a batch of 1 (then the chunk
// bodies, c*: the kernels whose matmul has few rows per unit, at 8 rows):
// RUN: dlc compile %s --emit=mlir | sed -n '/func.func @c[0-9]/q;p' | grep -v '^}\?$' > %t.unit.mlir
// RUN: dlc compile %S/Inputs/symbolic_batch_unit.mlir --emit=mlir | grep -v '^}\?$' | diff - %t.unit.mlir
// RUN: dlc compile %s -o %t.dlcm
// RUN: dlc inspect %t.dlcm | FileCheck %s --check-prefix=ARTIFACT
// GPU kernels are emitted at one unit too (the runtime launches them once
// per unit): the CUDA C++ of the conv is for one image.
// RUN: dlc compile %s --devices=cpu,cuda:0 --placement=gpu --emit=cuda | FileCheck %s --check-prefix=GPU
// RUN: not dlc compile %S/Inputs/symbolic_batch_mixed.mlir -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=MIXED

// CHECK-LABEL: func.func @k0(
// CHECK-SAME: memref<1x3x8x8xf32>
// CHECK: dlc.conv2d {{.*}} -> tensor<1x6x8x8xf32>
// The linear as a matmul on [B*2, 3]: 2 rows per unit.
// CHECK: func.func @k2(%arg0: memref<2x3xf32>, %arg1: memref<2x12xf32>)
// CHECK: dlc.matmul {{.*}} -> tensor<2x12xf32>
// CHECK: func.func @k3(%arg0: memref<1x2x12xf32>, %arg1: memref<1x2x12xf32>)
// CHECK: dlc.softmax {{.*}} : tensor<1x2x12xf32>
// The linear's chunk body: 4 units (the bound) of 2 rows.
// CHECK: func.func @c2(%arg0: memref<8x3xf32>, %arg1: memref<8x12xf32>)
// CHECK: dlc.matmul {{.*}} -> tensor<8x12xf32>
// ARTIFACT: format: 0.8
// ARTIFACT: symbolic batch: 'batch', 1 to 4 per run
// ARTIFACT: input  0 'arg0': f32 [?,3,8,8] at most [4,3,8,8], 3072 bytes, dim 0 = 1 x batch
// ARTIFACT: output 0 'result0': f32 [?,12] at most [8,12], 384 bytes, dim 0 = 2 x batch
// The flattened linear's input: 2 rows per unit.
// ARTIFACT: ('linear_7/flatten') on cpu: F32 [?,3], 96 bytes, sized for at most [8,3], 2 rows per unit of the batch
// GPU: __global__ void __launch_bounds__(256) k0(
// GPU-NEXT: // 1 x [64 x 27] * [27 x 6] (conv2d as an implicit GEMM
// MIXED: error: symbolic batch 'batch': op 'reduce_mean_0' (dlc.reduce_mean) mixes the rows of the batch: it reduces over axis 0, the batch
func.func @main(%x: tensor<4x3x8x8xf32>) -> tensor<8x12xf32> attributes {dlc.symbolic_batch = "batch"} {
  %w = dlc.constant dense<0.5> : tensor<6x3x3x3xf32>
  %c = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<4x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<4x6x8x8xf32>
  %r = dlc.relu %c : tensor<4x6x8x8xf32>
  %p = dlc.global_avg_pool %r : tensor<4x6x8x8xf32> -> tensor<4x6x1x1xf32>
  %t = dlc.reshape %p : tensor<4x6x1x1xf32> -> tensor<4x2x3xf32>
  %fw = dlc.constant dense<0.25> : tensor<12x3xf32>
  %fb = dlc.constant dense<0.0> : tensor<12xf32>
  %h = dlc.linear %t, %fw, %fb : (tensor<4x2x3xf32>, tensor<12x3xf32>, tensor<12xf32>) -> tensor<4x2x12xf32>
  %f = dlc.reshape %h : tensor<4x2x12xf32> -> tensor<8x12xf32>
  %s = dlc.softmax %f {axis = 1 : i64} : tensor<8x12xf32>
  return %s : tensor<8x12xf32>
}
