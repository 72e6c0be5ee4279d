// A convolution over 4 panels of 16 filters splits its 16 rows into 8
// chunks of 2 for the pool (parallelRowChunks: about 32 pieces, so that a
// thread that starts late or loses its core is evened out): one parallel
// loop of 32 pieces, each a panel's chunk of rows [2k, min(2k + 2, 16)).
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=4}))' | FileCheck %s
// With 32 panels (8 per piece count) there is nothing to split.
// RUN: sed -e 's/4x3x3x4x16/32x3x3x4x16/g; s/4x16x4x3x3/32x16x4x3x3/g; s/1x64x16x16/1x512x16x16/g; s/64x4x3x3/512x4x3x3/g' %s | dlc-opt --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=4}))' | FileCheck %s --check-prefix=PANELS

// CHECK-LABEL: func.func @four_panels
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[PIECE:.*]] = %{{.*}} to %[[C32]] step %{{.*}} iter_args
// CHECK: %[[PANEL:.*]] = arith.divui %[[PIECE]], %[[C8]]
// CHECK: %[[CHUNK:.*]] = arith.remui %[[PIECE]], %[[C8]]
// CHECK: %[[J:.*]] = arith.muli %[[PANEL]], %[[C16]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %[[C2]]
// CHECK: %[[PAST:.*]] = arith.addi %[[FIRST]], %[[C2]]
// CHECK: %[[END:.*]] = arith.minui %[[PAST]], %[[C16]]
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[END]] step
// CHECK: } {dlc.parallel}
// PANELS-LABEL: func.func @four_panels
// PANELS-NOT: arith.remui
// PANELS: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16{{.*}} iter_args
// PANELS-NOT: arith.remui
// PANELS: } {dlc.parallel}
func.func @four_panels(%x: tensor<1x4x16x16xf32>, %panels: tensor<4x3x3x4x16xf32>) -> tensor<1x64x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16x4x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<4x3x3x4x16xf32>) outs(%e0 : tensor<4x16x4x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x16x4x3x3xf32> into tensor<64x4x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
  %e = tensor.empty() : tensor<1x64x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x4x18x18xf32>, tensor<64x4x3x3xf32>) outs(%acc : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
  return %y : tensor<1x64x16x16xf32>
}

// -----

// A pointwise convolution over 4 panels is flattened into 8 rows of 392
// pixels (pointwiseRows: 8 x (64 x 6 + 4 + 4) steps, as many as one row of
// 3136), each a piece of the panels' loop: 32 pieces, not 4.
// CHECK-LABEL: func.func @pointwise_pieces
// CHECK: tensor.expand_shape {{.*}} : tensor<1x8x3136xf32> into tensor<1x8x8x392xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32{{.*}} step %c1{{.*}} iter_args
// CHECK: scf.for %{{.*}} = %c0 to %c384 step %c6
// CHECK: } {dlc.parallel}
// CHECK: tensor.expand_shape {{.*}} : tensor<1x64x3136xf32> into tensor<1x64x56x56xf32>
func.func @pointwise_pieces(%x: tensor<1x8x56x56xf32>, %panels: tensor<4x1x1x8x16xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16x8x1x1xf32>
  %t = linalg.transpose ins(%panels : tensor<4x1x1x8x16xf32>) outs(%e0 : tensor<4x16x8x1x1xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x16x8x1x1xf32> into tensor<64x8x1x1xf32>
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x56x56xf32>, tensor<64x8x1x1xf32>) outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}
