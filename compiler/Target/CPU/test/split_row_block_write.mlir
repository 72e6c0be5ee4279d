// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-lower-vectors, canonicalize))' | FileCheck %s

// A block of columns (TileAndVectorize's write-back into an NCHW output, one
// transfer so that bufferization sees one write) is stored once buffers
// exist as one 8-float store per column, at channel c + row: each row is
// the vector inserted for it.
// CHECK-LABEL: func.func @block
// CHECK-SAME: (%[[OUT:.*]]: memref<1x4x2x8xf32>, %[[A:.*]]: vector<8xf32>, %[[B:.*]]: vector<8xf32>, %[[C:.*]]: index, %[[H:.*]]: index)
// CHECK-NOT: vector.insert
// CHECK: vector.store %[[A]], %[[OUT]][%{{.*}}, %[[C]], %[[H]], %{{.*}}] : memref<1x4x2x8xf32>, vector<8xf32>
// CHECK: %[[C1:.*]] = arith.addi %[[C]], %{{.*}} : index
// CHECK: vector.store %[[B]], %[[OUT]][%{{.*}}, %[[C1]], %[[H]], %{{.*}}] : memref<1x4x2x8xf32>, vector<8xf32>
// CHECK-NEXT: return
func.func @block(%out: memref<1x4x2x8xf32>, %a: vector<8xf32>, %b: vector<8xf32>, %c: index, %h: index) {
  %zero = arith.constant dense<0.0> : vector<2x1x8xf32>
  %i = arith.constant 0 : index
  %0 = vector.insert %a, %zero [0, 0] : vector<8xf32> into vector<2x1x8xf32>
  %1 = vector.insert %b, %0 [1, 0] : vector<8xf32> into vector<2x1x8xf32>
  vector.transfer_write %1, %out[%i, %c, %h, %i] {in_bounds = [true, true, true]} : vector<2x1x8xf32>, memref<1x4x2x8xf32>
  return
}

// Left alone: a block that is not C x 1 x T (a 2x2x8 write is a tile, not
// columns), and a write that may run out of bounds.
// CHECK-LABEL: func.func @not_columns
// CHECK-NOT: vector.store
// CHECK: return
func.func @not_columns(%out: memref<1x4x2x8xf32>, %v: vector<2x2x8xf32>, %w: vector<2x1x8xf32>, %c: index) {
  %i = arith.constant 0 : index
  vector.transfer_write %v, %out[%i, %c, %i, %i] {in_bounds = [true, true, true]} : vector<2x2x8xf32>, memref<1x4x2x8xf32>
  vector.transfer_write %w, %out[%i, %c, %i, %i] {in_bounds = [false, true, true]} : vector<2x1x8xf32>, memref<1x4x2x8xf32>
  return
}
