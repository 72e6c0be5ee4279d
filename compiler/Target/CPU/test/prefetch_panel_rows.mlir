// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-prefetch-panel-rows))' | FileCheck %s

// A K loop reading one 32-float row of a packed panel per step (a strided
// view of a 768 KB [P, C, 32] weight, as a pixel-row tile's B): the row 8 KB
// ahead (64 rows of 128 bytes) is prefetched, one prefetch per 64-byte line.
// CHECK-LABEL: func.func @panel_rows
// CHECK-SAME: (%[[W:.*]]: memref<64x96x32xf32>
// CHECK: %[[P:.*]] = memref.subview %[[W]]
// CHECK: scf.for %[[K:[a-z0-9_]+]] =
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[K]], %[[C64]] : index
// CHECK-NEXT: %[[L0:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.prefetch %[[P]][%[[AHEAD]], %[[L0]]], read, locality<3>, data
// CHECK-NEXT: %[[L1:.*]] = arith.constant 16 : index
// CHECK-NEXT: memref.prefetch %[[P]][%[[AHEAD]], %[[L1]]], read, locality<3>, data
// CHECK-NEXT: vector.transfer_read %[[P]][%[[K]], %{{.*}}]
func.func @panel_rows(%w: memref<64x96x32xf32>, %j: index) -> vector<1x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<1x32xf32>
  %panel = memref.subview %w[%j, 0, 0] [1, 96, 32] [1, 1, 1] : memref<64x96x32xf32> to memref<96x32xf32, strided<[32, 1], offset: ?>>
  %r = scf.for %k = %c0 to %c96 step %c1 iter_args(%acc = %zero) -> (vector<1x32xf32>) {
    %b = vector.transfer_read %panel[%k, %c0], %pad {in_bounds = [true, true]} : memref<96x32xf32, strided<[32, 1], offset: ?>>, vector<1x32xf32>
    %s = arith.addf %acc, %b : vector<1x32xf32>
    scf.yield %s : vector<1x32xf32>
  }
  return %r : vector<1x32xf32>
}

// -----

// Not streams of whole rows: a row indexed by something other than the
// loop's induction variable, a part of a row, rows that are not contiguous
// (every other row of the view), and a read outside any loop. Nor a stream
// of whole rows through a weight under 256 KB (%small: 12 KB).
// CHECK-LABEL: func.func @not_streams
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @not_streams(%w: memref<4096x32xf32>, %v: memref<4096x64xf32>, %small: memref<96x32xf32>, %i: index) -> vector<1x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<1x32xf32>
  %every_other = memref.subview %v[0, 0] [48, 32] [2, 1] : memref<4096x64xf32> to memref<48x32xf32, strided<[128, 1]>>
  %outside = vector.transfer_read %w[%i, %c0], %pad {in_bounds = [true, true]} : memref<4096x32xf32>, vector<1x32xf32>
  %r = scf.for %k = %c0 to %c48 step %c1 iter_args(%acc = %outside) -> (vector<1x32xf32>) {
    %fixed = vector.transfer_read %w[%i, %c0], %pad {in_bounds = [true, true]} : memref<4096x32xf32>, vector<1x32xf32>
    %half = vector.transfer_read %w[%k, %c0], %pad {in_bounds = [true, true]} : memref<4096x32xf32>, vector<1x16xf32>
    %cached = vector.transfer_read %small[%k, %c0], %pad {in_bounds = [true, true]} : memref<96x32xf32>, vector<1x32xf32>
    %strided = vector.transfer_read %every_other[%k, %c0], %pad {in_bounds = [true, true]} : memref<48x32xf32, strided<[128, 1]>>, vector<1x32xf32>
    %h = vector.broadcast %half : vector<1x16xf32> to vector<2x1x16xf32>
    %s0 = arith.addf %acc, %fixed : vector<1x32xf32>
    %s1 = arith.addf %s0, %strided : vector<1x32xf32>
    %s2 = arith.addf %s1, %cached : vector<1x32xf32>
    scf.yield %s2 : vector<1x32xf32>
  }
  return %r : vector<1x32xf32>
}
