// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-tile-and-vectorize), loop-invariant-subset-hoisting, canonicalize)' | FileCheck %s

// 20x16 by 16x40: full 8x32 tiles become vector code with C carried in
// registers through the K loop; the ragged last row and column of tiles are
// peeled off as static tiles (columns first, so the last row's columns are
// peeled too) and vectorised the same way: no scalar code.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C:.*]] = %{{.*}}) -> (vector<8x32xf32>)
// CHECK: vector.contract {{.*}} %[[C]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// The last 8 columns are a static tile too.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C8:.*]] = %{{.*}}) -> (vector<8x8xf32>)
// CHECK: vector.contract {{.*}} %[[C8]] : vector<8x1xf32>, vector<1x8xf32> into vector<8x8xf32>
// The last 4 rows: a 4x32 tile and a 4x8 one.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C4:.*]] = %{{.*}}) -> (vector<4x32xf32>)
// CHECK: vector.contract {{.*}} %[[C4]] : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C48:.*]] = %{{.*}}) -> (vector<4x8xf32>)
// CHECK: vector.contract {{.*}} %[[C48]] : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<20x16xf32>, %b: tensor<16x40xf32>) -> tensor<20x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<20x40xf32>) -> tensor<20x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<20x16xf32>, tensor<16x40xf32>) outs(%acc : tensor<20x40xf32>) -> tensor<20x40xf32>
  return %mm : tensor<20x40xf32>
}

// Fewer than 8 rows (a batch-1 classifier): the register tile is 1x32, full
// and vectorised, instead of leaving the one row to the scalar edge; with
// that single row of tiles, the loop over columns of tiles is the parallel
// one.
// CHECK-LABEL: func.func @one_row
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}}) -> (tensor<1x64xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C1:.*]] = %{{.*}}) -> (vector<1x32xf32>)
// CHECK: vector.contract {{.*}} %[[C1]] : vector<1x1xf32>, vector<1x32xf32> into vector<1x32xf32>
// CHECK: } {dlc.parallel}
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @one_row(%a: tensor<1x16xf32>, %b: tensor<16x64xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<1x16xf32>, tensor<16x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %mm : tensor<1x64xf32>
}

// N a multiple of 256 (B rows 1 KiB apart) with 32+ rows: B is copied one
// 32-column panel at a time into a contiguous K x 32 buffer (vector rows),
// the zero fill of C moves into each panel, and the panel loop is the
// parallel one. The copy is not fused into the register tiles: it runs once
// per panel.
// CHECK-LABEL: func.func @packed_b
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<32x256xf32>)
// CHECK:   %[[PANEL:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x32xf32>)
// CHECK:     vector.transfer_read {{.*}} : tensor<16x256xf32>, vector<32xf32>
// CHECK:     vector.transfer_write {{.*}} : vector<32xf32>, tensor<16x32xf32>
// CHECK:   scf.for {{.*}} -> (tensor<32x32xf32>)
// CHECK-NOT: vector.transfer_write {{.*}} tensor<16x32xf32>
// CHECK:     vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK: } {dlc.parallel}
func.func @packed_b(%a: tensor<32x16xf32>, %b: tensor<16x256xf32>) -> tensor<32x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x256xf32>) -> tensor<32x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x16xf32>, tensor<16x256xf32>) outs(%acc : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %mm : tensor<32x256xf32>
}

// B packed at compile time (LinearToMatmul: collapse(transpose(panels))):
// each panel is sliced out of the packed tensor as it is, with no copy, and
// the transpose is gone.
// CHECK-LABEL: func.func @prepacked_b
// CHECK-SAME: (%{{.*}}: tensor<16x16xf32>, %[[P:.*]]: tensor<2x16x32xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:   %[[I:.*]] = arith.divui %[[J]], %{{.*}} : index
// CHECK-NOT: vector.transfer_write {{.*}} tensor<16x32xf32>
// CHECK:   vector.transfer_read %[[P]][%[[I]], %{{.*}}, %{{.*}}]
// CHECK: } {dlc.parallel}
func.func @prepacked_b(%a: tensor<16x16xf32>, %panels: tensor<2x16x32xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<16x2x32xf32>
  %t = linalg.transpose ins(%panels : tensor<2x16x32xf32>) outs(%te : tensor<16x2x32xf32>) permutation = [1, 0, 2]
  %b = tensor.collapse_shape %t [[0], [1, 2]] : tensor<16x2x32xf32> into tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %mm : tensor<16x64xf32>
}

// An epilogue that updates C in place (bias and ReLU, as ReuseProducerBuffer
// leaves it) is tiled with the matmul fused into each tile and vectorised
// whole: every 8x32 register tile gets its bias and ReLU in registers right
// after its K loop, then the one write of the tile; no pass over the whole of
// C follows. The bias is per row (C's rows are a 1x1 convolution's filters):
// each element splat along its row, not a row broadcast and a transpose.
// CHECK-LABEL: func.func @epilogue
// C is wider than tall: the columns of tiles are the outer loop, the one
// split over threads (each then reads its own columns of B, and all of A).
// CHECK-SAME: (%[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<8x64xf32>, %[[BIAS:.*]]: tensor<16xf32>)
// CHECK: scf.for %[[J:[^ ]+]] =
// CHECK:   scf.for %[[I:[^ ]+]] =
// CHECK:     %[[SUMS:.*]] = scf.for
// CHECK:       vector.contract
// CHECK:     %[[BV:.*]] = vector.transfer_read %[[BIAS]][%[[I]]]{{.*}} : tensor<16xf32>, vector<8xf32>
// CHECK:     %[[COL:.*]] = vector.shape_cast %[[BV]] : vector<8xf32> to vector<8x1xf32>
// CHECK:     %[[BB:.*]] = vector.broadcast %[[COL]] : vector<8x1xf32> to vector<8x32xf32>
// CHECK:     %[[ADD:.*]] = arith.addf %[[SUMS]], %[[BB]] : vector<8x32xf32>
// CHECK:     %[[RELU:.*]] = arith.maximumf %[[ADD]], %{{.*}} : vector<8x32xf32>
// CHECK:     vector.transfer_write %[[RELU]], %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT: vector.transpose
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @epilogue(%a: tensor<16x8xf32>, %b: tensor<8x64xf32>, %bias: tensor<16xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<16xf32>) outs(%mm : tensor<16x64xf32>) {
  ^bb0(%bv: f32, %v: f32):
    %s = arith.addf %v, %bv : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
