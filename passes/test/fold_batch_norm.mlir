// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-fold-batch-norm))' --split-input-file | FileCheck %s

// Two filters: gamma = [4, 3], var = [4, 9], eps = 0 give
// s = gamma / sqrt(var + eps) = [2, 1], so
// w' = [[1, 2] * 2, [3, 4] * 1] = [2, 4, 3, 4]; the conv had no bias, so
// b' = (0 - mean) * s + beta = [(0 - 1) * 2 + 10, (0 - 2) * 1 + 20] = [8, 18].
// The batch norm and its parameters are gone; its users read the conv.
// CHECK-LABEL: func.func @folded
// CHECK-DAG: %[[W:.*]] = dlc.constant dense_resource<conv.w.bn> : tensor<2x2x1x1xf32>
// CHECK-DAG: %[[B:.*]] = dlc.constant dense_resource<conv.bias.bn> : tensor<2xf32>
// CHECK: %[[C:.*]] = dlc.conv2d %{{.*}}, %[[W]], %[[B]]
// CHECK-NOT: dlc.batch_norm
// CHECK: %[[R:.*]] = dlc.relu %[[C]]
// CHECK: return %[[R]]
// 2, 4, 3, 4 and 8, 18 as little-endian f32 (after the alignment, 64).
// CHECK: conv.w.bn: "0x4000000000000040000080400000404000008040"
// CHECK: conv.bias.bn: "0x400000000000004100009041"
func.func @folded(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = dlc.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32> loc("conv.w")
  %gamma = dlc.constant dense<[4.0, 3.0]> : tensor<2xf32>
  %beta = dlc.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %mean = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = dlc.constant dense<[4.0, 9.0]> : tensor<2xf32>
  %c = dlc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n = dlc.batch_norm %c, %gamma, %beta, %mean, %var {epsilon = 0.0 : f64} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %r = dlc.relu %n : tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

// -----

// Left alone: parameters that are inputs, a convolution with another user,
// and a batch norm on another device than its convolution.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-3: dlc.batch_norm
func.func @unchanged(%x: tensor<1x2x3x3xf32>, %g: tensor<2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = dlc.constant dense<1.0> : tensor<2x2x1x1xf32>
  %p = dlc.constant dense<1.0> : tensor<2xf32>
  %c0 = dlc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n0 = dlc.batch_norm %c0, %g, %p, %p, %p : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %c1 = dlc.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n1 = dlc.batch_norm %c1, %p, %p, %p, %p : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %c2 = dlc.conv2d %x, %w {device = #dlc.device<cuda:0>} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n2 = dlc.batch_norm %c2, %p, %p, %p, %p : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %n0, %c1, %n1, %n2 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
