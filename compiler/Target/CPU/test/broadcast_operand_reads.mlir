// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-lower-vectors, canonicalize))' | FileCheck %s

// A pixel-row tile's A operand: T contiguous floats of an image row per
// channel, each broadcast against the filters. With T >= 4 it is read as
// 4-float vectors, the last overlapping the one before so that no read leaves
// the T floats (T = 6: at w and w + 2), which the backend turns into one
// broadcast from memory per float; below 4, float by float.
// CHECK-LABEL: func.func @six_pixels
// CHECK-SAME: (%[[IMG:.*]]: memref<1x8x10x10xf32>, %[[B:.*]]: vector<1x16xf32>, %[[ACC:.*]]: vector<6x16xf32>, %[[C:.*]]: index, %[[H:.*]]: index, %[[W:.*]]: index)
// CHECK-NOT: memref.load
// CHECK: %[[R0:.*]] = vector.load %[[IMG]][%{{.*}}, %[[C]], %[[H]], %[[W]]] : memref<1x8x10x10xf32>, vector<4xf32>
// CHECK-COUNT-4: vector.extract %[[R0]][{{[0-3]}}] : f32 from vector<4xf32>
// CHECK: %[[W2:.*]] = arith.addi %[[W]], %c2
// CHECK: %[[R1:.*]] = vector.load %[[IMG]][%{{.*}}, %[[C]], %[[H]], %[[W2]]] : memref<1x8x10x10xf32>, vector<4xf32>
// CHECK-NEXT: vector.extract %[[R1]][2]
// CHECK-NEXT: vector.extract %[[R1]][3]
// CHECK-NOT: vector.load
// CHECK-COUNT-6: vector.fma
// CHECK: return
#lhs = affine_map<(m, n, k) -> (k, m)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @six_pixels(%img: memref<1x8x10x10xf32>, %b: vector<1x16xf32>, %acc: vector<6x16xf32>,
                      %c: index, %h: index, %w: index) -> vector<6x16xf32> {
  %i = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %img[%i, %c, %h, %w], %pad
      {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1, d3)>}
      : memref<1x8x10x10xf32>, vector<1x6xf32>
  %r = vector.contract {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %a, %b, %acc : vector<1x6xf32>, vector<1x16xf32> into vector<6x16xf32>
  return %r : vector<6x16xf32>
}

// CHECK-LABEL: func.func @two_pixels
// CHECK-NOT: vector.load
// CHECK-COUNT-2: memref.load
// CHECK-NOT: vector.load
// CHECK: return
func.func @two_pixels(%img: memref<1x8x10x10xf32>, %b: vector<1x16xf32>, %acc: vector<2x16xf32>,
                      %c: index, %h: index, %w: index) -> vector<2x16xf32> {
  %i = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %img[%i, %c, %h, %w], %pad
      {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1, d3)>}
      : memref<1x8x10x10xf32>, vector<1x2xf32>
  %r = vector.contract {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %a, %b, %acc : vector<1x2xf32>, vector<1x16xf32> into vector<2x16xf32>
  return %r : vector<2x16xf32>
}
