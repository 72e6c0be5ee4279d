// Pooling, softmax, normalisation and reductions: reductions are generics
// with reduction iterators into filled accumulators; the rest elementwise.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg))' | FileCheck %s

// Max pooling pads with -inf, so padding never wins, and maxes the 9 taps
// (strided views of the padded input) in one elementwise generic, a `>` and
// a select per pair, then a NaN if any tap is one; avg_pool
// divides the window sum by the count of non-padding elements, from
// linalg.index.
// CHECK-LABEL: func.func @pools
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x5xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NINF]] : f32
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 2, 2] : tensor<1x2x7x7xf32> to tensor<1x2x3x3xf32>
// CHECK: %[[T8:.*]] = tensor.extract_slice %[[P]][0, 0, 2, 2] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[T0]], {{.*}}, %[[T8]] : {{.*}}) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK-COUNT-8: arith.cmpf ogt
// CHECK-COUNT-5: arith.cmpf uno
// CHECK: %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: arith.select %{{.*}}, %[[QNAN]], %{{.*}} : f32
// CHECK-NOT: linalg.pooling_nchw_max
// CHECK: %[[P0:.*]] = tensor.pad %[[X]]
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum {{.*}} ins(%[[P0]], %{{.*}} : tensor<1x2x7x7xf32>, tensor<3x3xf32>)
// CHECK: %[[AVG:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x5x5xf32>)
// CHECK: linalg.index 2 : index
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: linalg.index 3 : index
// CHECK: %[[N:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: arith.divf %{{.*}}, %[[N]] : f32
// CHECK: return %[[MAX]], %[[AVG]]
func.func @pools(%x: tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>) {
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  %1 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x2x5x5xf32> -> tensor<1x2x5x5xf32>
  return %0, %1 : tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>
}

// -----

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MI:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<3x5xf32>) outs(%[[MI]] : tensor<3xf32>)
// The reductions' combiners may reassociate (so LLVM vectorises them).
// CHECK: arith.maximumf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: %[[E:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}} ins(%[[X]], %[[MAX]] :
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[E]] :
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[E]], %[[SUM]] :
// CHECK: arith.divf
// CHECK: return %[[Y]]
func.func @softmax(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = dlc.softmax %x : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Biased variance over [axis, rank), epsilon inside the sqrt.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>, %[[G:.*]]: tensor<5xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<3x5xf32>)
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[SUM]] :
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[SUM]], %[[SQ]], %[[G]] :
// CHECK: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[VE:.*]] = arith.addf %{{.*}}, %[[EPS]] : f32
// CHECK: math.sqrt %[[VE]] : f32
// CHECK: return %[[Y]]
func.func @layer_norm(%x: tensor<3x5xf32>, %g: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = dlc.layer_norm %x, %g : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Per channel first (scale / sqrt(var + eps), then bias - mean * that),
// then one multiply-add per element: no square root or division per element.
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xf32>)
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[S]] : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[CH]], #[[CH]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}}, %[[S]], %[[T]] :
// CHECK-NOT: math.sqrt
// CHECK-NOT: arith.divf
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
func.func @batch_norm(%x: tensor<2x3x4xf32>, %p: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.batch_norm %x, %p, %p, %p, %p : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// f16 reductions accumulate in f32; keepdims is a reshape of the result.
// CHECK-LABEL: func.func @reduce_mean_f16
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x6xf16>) outs(%[[Z]] : tensor<4xf32>)
// CHECK: arith.extf
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf16>)
// CHECK: %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[D:.*]] = arith.divf %{{.*}}, %[[SIX]] : f32
// CHECK: arith.truncf %[[D]] : f32 to f16
// CHECK: %[[R:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1]] output_shape [4, 1]
// CHECK: return %[[R]]
func.func @reduce_mean_f16(%x: tensor<4x6xf16>) -> tensor<4x1xf16> {
  %0 = dlc.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : tensor<4x6xf16> -> tensor<4x1xf16>
  return %0 : tensor<4x1xf16>
}

// -----

// Integer reductions: maxsi from the type's minimum, truncating mean.
// CHECK-LABEL: func.func @reduce_int
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK: arith.addi
// CHECK: arith.divsi
func.func @reduce_int(%x: tensor<4x6xi32>) -> (tensor<i32>, tensor<4xi32>) {
  %0 = dlc.reduce_max %x : tensor<4x6xi32> -> tensor<i32>
  %1 = dlc.reduce_mean %x {axes = array<i64: -1>} : tensor<4x6xi32> -> tensor<4xi32>
  return %0, %1 : tensor<i32>, tensor<4xi32>
}
