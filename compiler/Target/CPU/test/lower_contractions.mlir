// matmul, linear and conv2d: named linalg ops (batched matmul: one matmul
// per batch element in loops) into a filled accumulator of the compute type; bias and rounding
// are separate elementwise generics.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x2xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x2xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x2xf32>) outs(%[[F]] : tensor<4x2xf32>)
// CHECK: return %[[M]]
func.func @matmul_2d(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = dlc.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Batch dims broadcast: one linalg.matmul per batch element in loops over
// the batch dims; the lhs batch dim of size 1 reads index 0, the missing
// leading rhs dim is dropped. f16 accumulates in f32, then rounds once.
// Each matrix is zeroed inside the loops (the fill then fuses into the tiles).
// CHECK-LABEL: func.func @matmul_batched_f16
// CHECK-SAME: (%[[L:.*]]: tensor<2x1x3x5xf16>, %[[RB:.*]]: tensor<3x5x4xf16>)
// CHECK-NOT: linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x3x4xf32>
// CHECK: %[[ACC:.*]] = scf.for %[[I:.*]] = {{.*}} iter_args(%[[A0:.*]] = %[[E]])
// CHECK: scf.for %[[J:.*]] = {{.*}} iter_args(%[[A1:.*]] = %[[A0]])
// CHECK: %[[T:.*]] = tensor.extract_slice %[[A1]][%[[I]], %[[J]], 0, 0] [1, 1, 3, 4]
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[T]] : tensor<3x4xf32>)
// CHECK: %[[LM:.*]] = tensor.extract_slice %[[L]][%[[I]], 0, 0, 0] [1, 1, 3, 5]
// CHECK: %[[RM:.*]] = tensor.extract_slice %[[RB]][%[[J]], 0, 0] [1, 5, 4]
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[LM]], %[[RM]] : tensor<3x5xf16>, tensor<5x4xf16>) outs(%[[Z]] : tensor<3x4xf32>)
// CHECK: tensor.insert_slice %[[P]] into %[[A1]][%[[I]], %[[J]], 0, 0]
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: ins(%[[ACC]] : tensor<2x3x3x4xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: return %[[R]]
func.func @matmul_batched_f16(%a: tensor<2x1x3x5xf16>, %b: tensor<3x5x4xf16>) -> tensor<2x3x3x4xf16> {
  %0 = dlc.matmul %a, %b : (tensor<2x1x3x5xf16>, tensor<3x5x4xf16>) -> tensor<2x3x3x4xf16>
  return %0 : tensor<2x3x3x4xf16>
}

// -----

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @linear_f16
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8xf16>, %[[W:.*]]: tensor<5x8xf16>, %[[B:.*]]: tensor<5xf16>)
// CHECK: %[[X2:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x3x8xf16> into tensor<6x8xf16>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<6x5xf32>)
// CHECK: %[[ACC:.*]] = linalg.matmul_transpose_b ins(%[[X2]], %[[W]] : tensor<6x8xf16>, tensor<5x8xf16>) outs(%[[F]] : tensor<6x5xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK-SAME: ins(%[[ACC]], %[[B]] : tensor<6x5xf32>, tensor<5xf16>)
// CHECK: %[[BF:.*]] = arith.extf
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[BF]] : f32
// CHECK: arith.truncf %[[S]] : f32 to f16
// CHECK: %[[R:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2]] output_shape [2, 3, 5]
// CHECK: return %[[R]]
func.func @linear_f16(%x: tensor<2x3x8xf16>, %w: tensor<5x8xf16>, %b: tensor<5xf16>) -> tensor<2x3x5xf16> {
  %0 = dlc.linear %x, %w, %b : (tensor<2x3x8xf16>, tensor<5x8xf16>, tensor<5xf16>) -> tensor<2x3x5xf16>
  return %0 : tensor<2x3x5xf16>
}

// -----

// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x6x5xf32>, %[[W:.*]]: tensor<6x4x3x3xf32>, %[[B:.*]]: tensor<6xf32>, %[[G:.*]]: tensor<6x2x3x3xf32>)
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: } : tensor<1x4x6x5xf32> to tensor<1x4x8x7xf32>
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%[[P]], %[[W]] : {{.*}}) outs(%[[F]] : tensor<1x6x3x5xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[CH]], #{{.*}}]
// CHECK-SAME: ins(%[[C]], %[[B]] : tensor<1x6x3x5xf32>, tensor<6xf32>)
// CHECK: arith.addf
// Groups: grouped views and linalg.conv_2d_ngchw_gfchw.
// CHECK: %[[P2:.*]] = tensor.pad %[[X]]
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[P2]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 7]
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[G]] {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
// CHECK: %[[CG:.*]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[XG]], %[[WG]] : tensor<1x2x2x8x7xf32>, tensor<2x3x2x3x3xf32>) outs(%{{.*}} : tensor<1x2x3x6x5xf32>)
// CHECK: %[[YG:.*]] = tensor.collapse_shape %[[CG]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x3x6x5xf32> into tensor<1x6x6x5xf32>
// CHECK: return %[[Y]], %[[YG]]
func.func @conv(%x: tensor<1x4x6x5xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<6xf32>, %g: tensor<6x2x3x3xf32>) -> (tensor<1x6x3x5xf32>, tensor<1x6x6x5xf32>) {
  %0 = dlc.conv2d %x, %w, %b {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x5xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x5xf32>
  %1 = dlc.conv2d %x, %g {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x5xf32>
  return %0, %1 : tensor<1x6x3x5xf32>, tensor<1x6x6x5xf32>
}

// -----

// Depthwise (groups = channels = filters), stride 2, dilation (1, 2): one
// elementwise generic over the output with the 9 taps unrolled, each tap a
// strided view of the padded input (offsets kh, 2*kw; steps 2, 2) and a
// per-channel scalar of the filter; no convolution op, no fill.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH2:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x9x10xf32>, %[[W:.*]]: tensor<4x1x3x3xf32>)
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 4, 5, 4] [1, 1, 2, 2] : tensor<1x4x11x12xf32> to tensor<1x4x5x4xf32>
// CHECK: %[[T8:.*]] = tensor.extract_slice %[[P]][0, 0, 2, 4] [1, 4, 5, 4] [1, 1, 2, 2] : tensor<1x4x11x12xf32> to tensor<1x4x5x4xf32>
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [4, 1, 1, 1] [1, 1, 1, 1] : tensor<4x1x3x3xf32> to tensor<4xf32>
// CHECK: %[[W8:.*]] = tensor.extract_slice %[[W]][0, 0, 2, 2] [4, 1, 1, 1] [1, 1, 1, 1] : tensor<4x1x3x3xf32> to tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], {{.*}}#[[CH2]], #[[ID]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%[[T0]], {{.*}}%[[T8]], %[[W0]], {{.*}}%[[W8]] :
// CHECK-NEXT: ^bb0
// One multiply-add chain per filter row, the rows added as a tree.
// CHECK: arith.mulf
// CHECK-NEXT: math.fma
// CHECK-NEXT: math.fma
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: math.fma
// CHECK-NEXT: math.fma
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: math.fma
// CHECK-NEXT: math.fma
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: linalg.yield
// CHECK-NOT: linalg.conv
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @depthwise(%x: tensor<1x4x9x10xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x5x4xf32> {
  %0 = dlc.conv2d %x, %w {groups = 4 : i64, strides = array<i64: 2, 2>, dilations = array<i64: 1, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x9x10xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x4xf32>
  return %0 : tensor<1x4x5x4xf32>
}

// -----

// Depthwise, stride 1, short rows (5x6 output): the same 2-D taps of the
// padded image as any other (VectorizeRows reads their rows from the image
// itself), and the bias as a generic of its own that fusion merges later.
// CHECK-LABEL: func.func @depthwise_short_rows
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x5x6xf32>, %[[W:.*]]: tensor<4x1x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: } : tensor<1x4x5x6xf32> to tensor<1x4x7x8xf32>
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 4, 5, 6] [1, 1, 1, 1]
// CHECK: %[[T8:.*]] = tensor.extract_slice %[[P]][0, 0, 2, 2] [1, 4, 5, 6] [1, 1, 1, 1]
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[T0]], {{.*}}%[[T8]], {{.*}}) outs(%{{.*}} : tensor<1x4x5x6xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[G]], %[[B]] : tensor<1x4x5x6xf32>, tensor<4xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
func.func @depthwise_short_rows(%x: tensor<1x4x5x6xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x5x6xf32> {
  %0 = dlc.conv2d %x, %w, %b {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x6xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x5x6xf32>
  return %0 : tensor<1x4x5x6xf32>
}

// -----

// A batched matmul whose operand is a transpose keeping the last dim (the
// heads of attention, PartitionKernels puts it in the matmul's kernel) reads
// each matrix as a strided slice of the transpose's input; the transpose is
// left unused.
// CHECK-LABEL: func.func @matmul_through_transpose
// CHECK-SAME: (%[[Q:.*]]: tensor<2x8x4x16xf32>, %[[K:.*]]: tensor<2x4x16x8xf32>)
// CHECK: scf.for %[[B:[a-z0-9]+]] =
// CHECK: scf.for %[[H:[a-z0-9]+]] =
// CHECK: tensor.extract_slice %[[Q]][%[[B]], 0, %[[H]], 0] [1, 8, 1, 16] [1, 1, 1, 1] : tensor<2x8x4x16xf32> to tensor<8x16xf32>
// CHECK: tensor.extract_slice %[[K]][%[[B]], %[[H]], 0, 0] [1, 1, 16, 8]
// CHECK: linalg.matmul
func.func @matmul_through_transpose(%q: tensor<2x8x4x16xf32>, %k: tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32> {
  %qt = dlc.transpose %q {perm = array<i64: 0, 2, 1, 3>} : tensor<2x8x4x16xf32> -> tensor<2x4x8x16xf32>
  %0 = dlc.matmul %qt, %k : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  return %0 : tensor<2x4x8x8xf32>
}
