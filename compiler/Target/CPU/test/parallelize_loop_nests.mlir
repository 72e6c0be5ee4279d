// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-parallelize-loop-nests))' --split-input-file | FileCheck %s

// A 1x64x56x56 elementwise nest: the unit batch dim is skipped, the 64
// channels become 64 parallel chunks of one channel each, static shapes.
// CHECK-LABEL: func.func @relu
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %{{.*}}) -> (tensor<1x64x56x56xf32>)
// CHECK:   %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, %[[C]], 0, 0] [1, 1, 56, 56] [1, 1, 1, 1]
// CHECK:   %[[T:.*]] = linalg.generic {{.*}} ins(%[[IN]] : tensor<1x1x56x56xf32>)
// CHECK:   tensor.insert_slice %[[T]] into %[[O]][0, %[[C]], 0, 0] [1, 1, 56, 56]
// CHECK: } {dlc.parallel}
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @relu(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x64x56x56xf32>) outs(%e : tensor<1x64x56x56xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}

// -----

// Rows of a row reduction (softmax's max, 1000 x 128): chunks of 4 rows
// (the smallest divisor of 1000 giving at most 256 chunks); the reduction dim
// stays whole.
// CHECK-LABEL: func.func @row_max
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP:.*]] iter_args
// CHECK:   linalg.generic {{.*}} ins(%{{.*}} : tensor<4x128xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: } {dlc.parallel}
func.func @row_max(%x: tensor<1000x128xf32>, %init: tensor<1000xf32>) -> tensor<1000xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1000x128xf32>) outs(%init : tensor<1000xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}

// -----

// Left alone: under 32K elements, and a reduction over the outer dim.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: dlc.parallel
// CHECK: return
func.func @unchanged(%small: tensor<16x64xf32>, %cols: tensor<512x128xf32>, %init: tensor<128xf32>) -> (tensor<16x64xf32>, tensor<128xf32>) {
  %e = tensor.empty() : tensor<16x64xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%small : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%cols : tensor<512x128xf32>) outs(%init : tensor<128xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  return %0, %1 : tensor<16x64xf32>, tensor<128xf32>
}
