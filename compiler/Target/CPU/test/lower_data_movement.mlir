// Data movement: linalg.transpose and tensor ops; gather wraps and clamps
// its indices so that generated code never reads out of bounds.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @transpose_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// No single reassociation: through the flat tensor.
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [3, 8] : tensor<24xf32> into tensor<3x8xf32>
// CHECK: return %[[T]], %[[C]], %[[R]]
func.func @transpose_reshape(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x12xf32>, tensor<3x8xf32>) {
  %0 = dlc.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<2x12xf32>
  %2 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<3x8xf32>
  return %0, %1, %2 : tensor<4x2x3xf32>, tensor<2x12xf32>, tensor<3x8xf32>
}

// -----

// CHECK-LABEL: func.func @concat_slice_split
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][0, 3] [2, 5] [1, 1]
// CHECK: %[[S:.*]] = tensor.extract_slice %[[I1]][0, 1] [2, 3] [1, 2] : tensor<2x8xf32> to tensor<2x3xf32>
// CHECK: %[[P0:.*]] = tensor.extract_slice %[[B]][0, 0] [2, 2] [1, 1] : tensor<2x5xf32> to tensor<2x2xf32>
// CHECK: %[[P1:.*]] = tensor.extract_slice %[[B]][0, 2] [2, 3] [1, 1] : tensor<2x5xf32> to tensor<2x3xf32>
// CHECK: return %[[I1]], %[[S]], %[[P0]], %[[P1]]
func.func @concat_slice_split(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> (tensor<2x8xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x3xf32>) {
  %0 = dlc.concat %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1 = dlc.slice %0 {starts = array<i64: 0, 1>, ends = array<i64: 2, 6>, steps = array<i64: 1, 2>} : tensor<2x8xf32> -> tensor<2x3xf32>
  %2:2 = dlc.split %b {axis = 1 : i64, sizes = array<i64: 2, 3>} : tensor<2x5xf32> -> tensor<2x2xf32>, tensor<2x3xf32>
  return %0, %1, %2#0, %2#1 : tensor<2x8xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x3xf32>
}

// -----

// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[T:.*]]: tensor<2x5x3xf32>, %[[I:.*]]: tensor<4xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[I]] : tensor<4xi64>)
// CHECK: ^bb0(%[[V:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[V]], %{{.*}} : i64
// CHECK: %[[FIVE:.*]] = arith.constant 5 : i64
// CHECK: %[[W:.*]] = arith.addi %[[V]], %[[FIVE]] : i64
// CHECK: %[[SEL:.*]] = arith.select %[[NEG]], %[[W]], %[[V]] : i64
// CHECK: %[[LO:.*]] = arith.maxsi %[[SEL]], %{{.*}} : i64
// CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %[[FOUR]] : i64
// CHECK: %[[AT:.*]] = arith.index_cast %[[HI]] : i64 to index
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[D2:.*]] = linalg.index 2 : index
// CHECK: %[[R:.*]] = tensor.extract %[[T]][%[[D0]], %[[AT]], %[[D2]]] : tensor<2x5x3xf32>
// CHECK: linalg.yield %[[R]] : f32
func.func @gather(%t: tensor<2x5x3xf32>, %i: tensor<4xi64>) -> tensor<2x4x3xf32> {
  %0 = dlc.gather %t, %i {axis = 1 : i64} : (tensor<2x5x3xf32>, tensor<4xi64>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// More than 16 inputs: a concat of concats (10 pairs, then the 10 pieces), as
// bufferization's analysis of one long chain of insert_slices grows about
// cubically with its length.
// CHECK-LABEL: func.func @wide_concat
// CHECK-COUNT-10: tensor.empty() : tensor<2x{{[0-9]+}}xf32>
// CHECK: tensor.empty() : tensor<2x39xf32>
// CHECK-COUNT-10: tensor.insert_slice %{{.*}} into %{{.*}}[0, {{[0-9]+}}] [2, {{[0-9]+}}] [1, 1] : tensor<2x{{[0-9]+}}xf32> into tensor<2x39xf32>
// CHECK-NEXT: return
func.func @wide_concat(%a0: tensor<2x1xf32>, %a1: tensor<2x2xf32>, %a2: tensor<2x3xf32>, %a3: tensor<2x1xf32>, %a4: tensor<2x2xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x1xf32>, %a7: tensor<2x2xf32>, %a8: tensor<2x3xf32>, %a9: tensor<2x1xf32>, %a10: tensor<2x2xf32>, %a11: tensor<2x3xf32>, %a12: tensor<2x1xf32>, %a13: tensor<2x2xf32>, %a14: tensor<2x3xf32>, %a15: tensor<2x1xf32>, %a16: tensor<2x2xf32>, %a17: tensor<2x3xf32>, %a18: tensor<2x1xf32>, %a19: tensor<2x2xf32>) -> tensor<2x39xf32> {
  %0 = dlc.concat %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19 {axis = 1 : i64} : (tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x39xf32>
  return %0 : tensor<2x39xf32>
}
