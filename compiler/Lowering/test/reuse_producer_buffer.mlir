// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-reuse-producer-buffer))' --split-input-file | FileCheck %s

// The bias add writes over the matmul's result instead of a new tensor.
// CHECK-LABEL: func.func @epilogue
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<16xf32>) outs(%[[MM]] : tensor<8x16xf32>)
// CHECK-NEXT: ^bb0(%[[BIAS:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[BIAS]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @epilogue(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %bias: tensor<16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%c: f32, %bb: f32, %out: f32):
    %s = arith.addf %c, %bb : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A result with another use must stay intact: nothing changes.
// CHECK-LABEL: func.func @shared
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d1)>
func.func @shared(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %bias: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%c: f32, %bb: f32, %out: f32):
    %s = arith.addf %c, %bb : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %y, %mm : tensor<8x16xf32>, tensor<8x16xf32>
}
