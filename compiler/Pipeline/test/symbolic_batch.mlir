// A symbolic batch (dlc.symbolic_batch): the inputs' dim 0 is its bound (4
// here), and every kernel that carries the batch is outlined at one unit of
// it, the code a batch-1 compile makes. The artifact cannot express it yet:
// a clear refusal, not an artifact that runs at the wrong size.
// RUN: dlc compile %s --emit=mlir | FileCheck %s
// The same kernels as the model compiled at a batch of 1:
// RUN: dlc compile %s --emit=mlir > %t.unit.mlir
// RUN: dlc compile %S/Inputs/symbolic_batch_unit.mlir --emit=mlir | diff - %t.unit.mlir
// RUN: not dlc compile %s -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not dlc compile %s --devices=cpu,cuda:0 --placement=gpu --no-cuda -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not dlc compile %S/Inputs/symbolic_batch_mixed.mlir -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=MIXED

// CHECK-LABEL: func.func @k0(
// CHECK-SAME: memref<1x3x8x8xf32>
// CHECK: dlc.conv2d {{.*}} -> tensor<1x6x8x8xf32>
// The linear as a matmul on [B*2, 3]: 2 rows per unit.
// CHECK: func.func @k2(%arg0: memref<2x3xf32>, %arg1: memref<2x12xf32>)
// CHECK: dlc.matmul {{.*}} -> tensor<2x12xf32>
// CHECK: func.func @k3(%arg0: memref<1x2x12xf32>, %arg1: memref<1x2x12xf32>)
// CHECK: dlc.softmax {{.*}} : tensor<1x2x12xf32>
// REFUSED: error: symbolic batch 'batch': its kernels are compiled per unit of the batch (dlc compile --emit=mlir shows them), but the artifact format and the runtime cannot run them yet
// GPU: error: symbolic batch 'batch': kernel 0 is on a GPU, and GPU kernels per unit of the batch are not built yet: place the model on the CPU
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
