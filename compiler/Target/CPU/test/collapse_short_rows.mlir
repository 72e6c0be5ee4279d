// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-collapse-short-rows))' --split-input-file | FileCheck %s

// A bias add and ReLU6 over 1x576x14x14: the two innermost dims (rows of 14)
// become one of 196; the bias still broadcasts along channels.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @epilogue
// CHECK: %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<1x576x14x14xf32> into tensor<1x576x196xf32>
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]]]{{.*}}ins(%[[X]], %{{.*}} : tensor<1x576x196xf32>, tensor<576xf32>)
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]]{{.*}} : tensor<1x576x196xf32> into tensor<1x576x14x14xf32>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @epilogue(%x: tensor<1x576x14x14xf32>, %b: tensor<576xf32>) -> tensor<1x576x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x576x14x14xf32>
  %y = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x576x14x14xf32>, tensor<576xf32>) outs(%e : tensor<1x576x14x14xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x576x14x14xf32>
  return %y : tensor<1x576x14x14xf32>
}

// -----

// Left alone: rows of 32 or more; an operand that is a strided view; a
// transposing map; a broadcast written with constant-0 results (a [1, 8, 1, 1]
// statistic).
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @unchanged(%long: tensor<1x8x4x32xf32>, %big: tensor<1x8x16x16xf32>, %t: tensor<1x8x14x14xf32>, %stat: tensor<1x8x1x1xf32>) -> (tensor<1x8x4x32xf32>, tensor<1x8x8x8xf32>, tensor<1x8x14x14xf32>, tensor<1x8x14x14xf32>) {
  %e0 = tensor.empty() : tensor<1x8x4x32xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%long : tensor<1x8x4x32xf32>) outs(%e0 : tensor<1x8x4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x8x4x32xf32>
  %view = tensor.extract_slice %big[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 2, 2] : tensor<1x8x16x16xf32> to tensor<1x8x8x8xf32>
  %e1 = tensor.empty() : tensor<1x8x8x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%view : tensor<1x8x8x8xf32>) outs(%e1 : tensor<1x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x8x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x14x14xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x8x14x14xf32>) outs(%e2 : tensor<1x8x14x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x8x14x14xf32>
  %e3 = tensor.empty() : tensor<1x8x14x14xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t, %stat : tensor<1x8x14x14xf32>, tensor<1x8x1x1xf32>) outs(%e3 : tensor<1x8x14x14xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<1x8x14x14xf32>
  return %0, %1, %2, %3 : tensor<1x8x4x32xf32>, tensor<1x8x8x8xf32>, tensor<1x8x14x14xf32>, tensor<1x8x14x14xf32>
}
