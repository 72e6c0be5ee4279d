// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul, dlc-tile-and-vectorize, canonicalize))' | FileCheck %s
// The tile's pixels are the target's (CpuTiles.h): with 6, a row of 8 is one
// tile of 6 and one of 2.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6}, dlc-tile-and-vectorize, canonicalize))' | FileCheck %s --check-prefix=SIX
// SIX-LABEL: func.func @bias_residual_relu
// SIX: vector.contract {{.*}} into vector<6x32xf32>
// SIX: vector.contract {{.*}} into vector<2x32xf32>
// When a tile of fewer than steady-pixels waits on its FMAs' latency
// (cpu::splitRow), the row of 8 is two tiles of 4 (8 steps, not 6 + 4).
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=4}, dlc-tile-and-vectorize, canonicalize))' | FileCheck %s --check-prefix=STEADY
// STEADY-LABEL: func.func @bias_residual_relu
// STEADY-NOT: vector<6x32xf32>
// STEADY: vector.contract {{.*}} into vector<4x32xf32>
// STEADY: vector.contract {{.*}} into vector<4x32xf32>
// STEADY-NOT: vector<6x32xf32>
// STEADY-LABEL: func.func @per_pixel_operand

// A pixel-row convolution's epilogue (bias, ReLU, residual add) runs on each
// column of the transposed tile in registers, right before that column's
// store: filter c's bias splat, the residual's row of 8 pixels read as one
// vector. Nothing reads the tile back and no linalg.generic is left. The
// columns are stored as one 32x1x8 block (one write into the tensor, not 32
// chained ones, which made bufferization quadratic; LowerVectors stores
// them row by row once buffers exist: split_row_block_write.mlir).
// CHECK-LABEL: func.func @bias_residual_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x10x10xf32>, %[[P:.*]]: tensor<1x3x3x3x32xf32>, %[[BIAS:.*]]: tensor<32xf32>, %[[RES:.*]]: tensor<1x32x8x8xf32>)
// CHECK: vector.contract
// CHECK: %[[B0:.*]] = tensor.extract %[[BIAS]][%{{.*}}] : tensor<32xf32>
// CHECK: %[[B0V:.*]] = vector.broadcast %[[B0]] : f32 to vector<8xf32>
// CHECK: %[[R0:.*]] = vector.transfer_read %[[RES]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1x32x8x8xf32>, vector<8xf32>
// CHECK: %[[S0:.*]] = arith.addf %{{.*}}, %[[B0V]] : vector<8xf32>
// CHECK: %[[A0:.*]] = arith.addf %[[S0]], %[[R0]] : vector<8xf32>
// CHECK: %[[M0:.*]] = arith.maximumf %[[A0]], %{{.*}} : vector<8xf32>
// CHECK: %[[BLOCK0:.*]] = vector.insert %[[M0]], %{{.*}} [0, 0] : vector<8xf32> into vector<32x1x8xf32>
// CHECK: %[[BLOCK1:.*]] = vector.insert %{{.*}}, %[[BLOCK0]] [1, 0] : vector<8xf32> into vector<32x1x8xf32>
// CHECK: %[[BLOCK:.*]] = vector.insert %{{.*}} [31, 0] : vector<8xf32> into vector<32x1x8xf32>
// CHECK: vector.transfer_write %[[BLOCK]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {in_bounds = [true, true, true]} : vector<32x1x8xf32>, tensor<1x32x8x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @bias_residual_relu(%x: tensor<1x3x10x10xf32>, %panels: tensor<1x3x3x3x32xf32>, %bias: tensor<32xf32>, %res: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x32x3x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<1x3x3x3x32xf32>) outs(%e0 : tensor<1x32x3x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<1x32x3x3x3xf32> into tensor<32x3x3x3xf32>
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<32x3x3x3xf32>) outs(%acc : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias, %res : tensor<32xf32>, tensor<1x32x8x8xf32>) outs(%y : tensor<1x32x8x8xf32>) {
  ^bb0(%b: f32, %q: f32, %v: f32):
    %s = arith.addf %v, %b : f32
    %a = arith.addf %s, %q : f32
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}

// -----

// An operand indexed by pixel (one value per output column, the same for
// every filter) is not a column's splat nor its row: the epilogue stays a
// linalg.generic on the written region, as before.
// CHECK-LABEL: func.func @per_pixel_operand
// CHECK: vector.contract
// CHECK: linalg.generic
// CHECK: arith.mulf
func.func @per_pixel_operand(%x: tensor<1x3x10x10xf32>, %panels: tensor<1x3x3x3x32xf32>, %scale: tensor<8xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x32x3x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<1x3x3x3x32xf32>) outs(%e0 : tensor<1x32x3x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<1x32x3x3x3xf32> into tensor<32x3x3x3xf32>
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<32x3x3x3xf32>) outs(%acc : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scale : tensor<8xf32>) outs(%y : tensor<1x32x8x8xf32>) {
  ^bb0(%k: f32, %v: f32):
    %m = arith.mulf %v, %k : f32
    linalg.yield %m : f32
  } -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}
