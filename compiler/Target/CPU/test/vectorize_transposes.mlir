// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-vectorize-transposes, canonicalize))' | FileCheck %s

// K of an attention head to Kᵀ: the input dim read down (T, 16) goes in
// blocks of 8, the innermost (D, 32) in blocks of 16; each block is one
// 8x16 read, shuffled in registers, and 16 writes of 8 floats down the
// output's rows.
// CHECK-LABEL: func.func @k_transposed
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x3x32xf32>, %[[Y:.*]]: tensor<2x3x32x16xf32>)
// CHECK: scf.for %[[B:[^ ]+]] = %c0 to %c2 step %c1
// CHECK: scf.for %[[T:[^ ]+]] = %c0 to %c16 step %c8
// CHECK: scf.for %[[H:[^ ]+]] = %c0 to %c3 step %c1
// CHECK: scf.for %[[D:[^ ]+]] = %c0 to %c32 step %c16
// CHECK: %[[BLK:.*]] = vector.transfer_read %[[X]][%[[B]], %[[T]], %[[H]], %[[D]]]{{.*}} : tensor<2x16x3x32xf32>, vector<8x16xf32>
// CHECK: vector.shuffle
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[B]], %[[H]], %[[D]], %[[T]]] {in_bounds = [true]} : vector<8xf32>, tensor<2x3x32x16xf32>
// CHECK-COUNT-15: vector.transfer_write %{{.*}} : vector<8xf32>, tensor<2x3x32x16xf32>
// CHECK-NOT: linalg.transpose
func.func @k_transposed(%x: tensor<2x16x3x32xf32>, %y: tensor<2x3x32x16xf32>) -> tensor<2x3x32x16xf32> {
  %t = linalg.transpose ins(%x : tensor<2x16x3x32xf32>) outs(%y : tensor<2x3x32x16xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<2x3x32x16xf32>
}

// -----

// Left as they are: a transpose that keeps the innermost dim (rows move
// whole), one whose dim read down is not a multiple of 8, one whose rows are
// under 16 floats, and one of f16.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: linalg.transpose
// CHECK-NOT: vector.transfer_read
func.func @kept(%a: tensor<4x8x16xf32>, %b: tensor<8x4x16xf32>, %c: tensor<12x16xf32>, %d: tensor<16x12xf32>, %e: tensor<8x16xf16>, %f: tensor<16x8xf16>, %g: tensor<8x12xf32>, %h: tensor<12x8xf32>) -> (tensor<8x4x16xf32>, tensor<16x12xf32>, tensor<16x8xf16>, tensor<12x8xf32>) {
  %0 = linalg.transpose ins(%a : tensor<4x8x16xf32>) outs(%b : tensor<8x4x16xf32>) permutation = [1, 0, 2]
  %1 = linalg.transpose ins(%c : tensor<12x16xf32>) outs(%d : tensor<16x12xf32>) permutation = [1, 0]
  %2 = linalg.transpose ins(%e : tensor<8x16xf16>) outs(%f : tensor<16x8xf16>) permutation = [1, 0]
  %3 = linalg.transpose ins(%g : tensor<8x12xf32>) outs(%h : tensor<12x8xf32>) permutation = [1, 0]
  return %0, %1, %2, %3 : tensor<8x4x16xf32>, tensor<16x12xf32>, tensor<16x8xf16>, tensor<12x8xf32>
}

// -----

// Rows of 37 floats: two whole blocks of 16, then one flush with the row's
// end (columns 21..36), which writes columns 21..31 again.
// CHECK-LABEL: func.func @ragged_rows
// CHECK-SAME: (%[[X:.*]]: tensor<16x37xf32>
// CHECK: scf.for %[[R:[^ ]+]] = %c0 to %c16 step %c8
// CHECK:   scf.for %[[C:[^ ]+]] = %c0 to %c32 step %c16
// CHECK:     vector.transfer_read %[[X]][%[[R]], %[[C]]]{{.*}} : tensor<16x37xf32>, vector<8x16xf32>
// CHECK:   vector.transfer_read %[[X]][%[[R]], %c21]{{.*}} : tensor<16x37xf32>, vector<8x16xf32>
// CHECK-COUNT-16: vector.transfer_write %{{.*}} : vector<8xf32>, tensor<37x16xf32>
// CHECK-NOT: linalg.transpose
func.func @ragged_rows(%x: tensor<16x37xf32>, %y: tensor<37x16xf32>) -> tensor<37x16xf32> {
  %t = linalg.transpose ins(%x : tensor<16x37xf32>) outs(%y : tensor<37x16xf32>) permutation = [1, 0]
  return %t : tensor<37x16xf32>
}
