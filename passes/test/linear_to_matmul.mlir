// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-linear-to-matmul))' --split-input-file | FileCheck %s

// A 3-D input: flattened to 2-D, matmul with the transposed constant, bias
// add, reshaped back. The weight [[1,2,3],[4,5,6]] becomes [[1,4],[2,5],[3,6]].
// CHECK-LABEL: func.func @rank3
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x3xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[X2:.*]] = dlc.reshape %[[X]] : tensor<2x4x3xf32> -> tensor<8x3xf32>
// CHECK-DAG: %[[WT:.*]] = dlc.constant dense_resource<fc.weight.T> : tensor<3x2xf32>
// CHECK: %[[M:.*]] = dlc.matmul %[[X2]], %[[WT]] : (tensor<8x3xf32>, tensor<3x2xf32>) -> tensor<8x2xf32>
// CHECK: %[[A:.*]] = dlc.add %[[M]], %[[B]] : (tensor<8x2xf32>, tensor<2xf32>) -> tensor<8x2xf32>
// CHECK: %[[Y:.*]] = dlc.reshape %[[A]] : tensor<8x2xf32> -> tensor<2x4x2xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: dlc.linear
// 64-byte alignment, then 1 4 2 5 3 6 as little-endian f32.
// CHECK: fc.weight.T: "0x400000000000803F00008040000000400000A040000040400000C040"
func.func @rank3(%x: tensor<2x4x3xf32>, %b: tensor<2xf32>) -> tensor<2x4x2xf32> {
  %w = dlc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> loc("fc.weight")
  %y = dlc.linear %x, %w, %b : (tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x4x2xf32>
  return %y : tensor<2x4x2xf32>
}

// -----

// 2-D input, no bias, a pin: no reshapes, the pin kept.
// CHECK-LABEL: func.func @pinned_2d
// CHECK: %[[M:.*]] = dlc.matmul %{{.*}}, %{{.*}} {device = #dlc.device<cuda:0>} : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: return %[[M]]
func.func @pinned_2d(%x: tensor<5x4xf32>) -> tensor<5x3xf32> {
  %w = dlc.constant dense<0.5> : tensor<3x4xf32>
  %y = dlc.linear %x, %w {device = #dlc.device<cuda:0>} : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

// A weight that is an input is left alone.
// CHECK-LABEL: func.func @runtime_weight
// CHECK: dlc.linear
func.func @runtime_weight(%x: tensor<5x4xf32>, %w: tensor<3x4xf32>) -> tensor<5x3xf32> {
  %y = dlc.linear %x, %w : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}
