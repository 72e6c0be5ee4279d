// dlc-split-cuda-kernels: a GPU kernel the CUDA backend cannot emit as one (a
// squeeze-excitation multiply broadcasting the anchor's result) becomes the
// longest runs it can emit, each a dlc.kernel; one it can emit stays whole.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-split-cuda-kernels))' | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[SE:.*]] = dlc.kernel on cuda:0 -> tensor<1x8x1x1xf32> {
// CHECK-NEXT: dlc.reduce_mean
// CHECK-NEXT: dlc.sigmoid
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[Y:.*]] = dlc.kernel on cuda:0 -> tensor<1x8x4x4xf32> {
// CHECK-NEXT: dlc.mul %arg0, %[[SE]]
// CHECK-NEXT: dlc.relu
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[Z:.*]] = dlc.kernel on cuda:0 -> tensor<1x8x4x4xf32> {
// CHECK-NEXT: dlc.exp %[[Y]]
// CHECK-NEXT: dlc.neg
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[Z]]
func.func @main(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %k = dlc.kernel on cuda:0 -> tensor<1x8x4x4xf32> {
    %m = dlc.reduce_mean %x {axes = array<i64: 2, 3>, keepdims = true, device = #dlc.device<cuda:0>} : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
    %s = dlc.sigmoid %m {device = #dlc.device<cuda:0>} : tensor<1x8x1x1xf32>
    %y = dlc.mul %x, %s {device = #dlc.device<cuda:0>} : (tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf32>
    %z = dlc.relu %y {device = #dlc.device<cuda:0>} : tensor<1x8x4x4xf32>
    dlc.yield %z : tensor<1x8x4x4xf32>
  }
  %w = dlc.kernel on cuda:0 -> tensor<1x8x4x4xf32> {
    %e = dlc.exp %k {device = #dlc.device<cuda:0>} : tensor<1x8x4x4xf32>
    %n = dlc.neg %e {device = #dlc.device<cuda:0>} : tensor<1x8x4x4xf32>
    dlc.yield %n : tensor<1x8x4x4xf32>
  }
  return %w : tensor<1x8x4x4xf32>
}
