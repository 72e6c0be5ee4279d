// Every dlc op lowers: no dlc op is left, the output verifies, and it fuses and
// bufferizes with upstream passes; likewise the example models.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg))' | FileCheck %s
// RUN: dlc-opt %s --dlc-lower-to-linalg | mlir-opt --linalg-fuse-elementwise-ops --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF
// RUN: dlc-opt %models/mlp.mlir --dlc-lower-to-linalg | mlir-opt --linalg-fuse-elementwise-ops --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF
// RUN: dlc-opt %models/cnn.mlir --dlc-lower-to-linalg | mlir-opt --linalg-fuse-elementwise-ops --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF
// RUN: dlc-opt %models/encoder.mlir --dlc-lower-to-linalg | mlir-opt --linalg-fuse-elementwise-ops --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// CHECK-LABEL: func.func @all
// CHECK-NOT: dlc.{{[a-z_0-9]+}} %
// CHECK-NOT: = dlc.
// CHECK: return
// BUF-LABEL: func.func @
// BUF-NOT: {{ tensor\.[a-z_]+ }}
// BUF-NOT: -> tensor<
// BUF: return
func.func @all(%a: tensor<2x3xf32>, %row: tensor<3xf32>, %h: tensor<2x3xf16>, %i: tensor<2x3xi32>,
               %x4: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>, %bias: tensor<4xf32>,
               %ids: tensor<2xi64>, %c: tensor<4xf32>, %c5: tensor<5xf32>) -> (tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xi32>) {
  %k = dlc.constant dense<1.5> : tensor<f32>
  %0 = dlc.add %a, %row : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = dlc.sub %0, %k : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = dlc.mul %1, %a : tensor<2x3xf32>
  %3 = dlc.div %2, %a : tensor<2x3xf32>
  %4 = dlc.pow %3, %a : tensor<2x3xf32>
  %5 = dlc.max %4, %a : tensor<2x3xf32>
  %mn = dlc.min %5, %a : tensor<2x3xf32>
  %lt = dlc.compare "lt", %mn, %row : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %6 = dlc.select %lt, %mn, %a : tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %7 = dlc.neg %6 : tensor<2x3xf32>
  %8 = dlc.abs %7 : tensor<2x3xf32>
  %9 = dlc.exp %8 : tensor<2x3xf32>
  %10 = dlc.log %9 : tensor<2x3xf32>
  %11 = dlc.sqrt %10 : tensor<2x3xf32>
  %12 = dlc.rsqrt %11 : tensor<2x3xf32>
  %13 = dlc.tanh %12 : tensor<2x3xf32>
  %14 = dlc.sigmoid %13 : tensor<2x3xf32>
  %15 = dlc.erf %14 : tensor<2x3xf32>
  %16 = dlc.relu %15 : tensor<2x3xf32>
  %17 = dlc.gelu %16 : tensor<2x3xf32>
  %18 = dlc.gelu %17 {tanh_approximation = true} : tensor<2x3xf32>
  %19 = dlc.clip %18 {min = 0.0, max = 6.0} : tensor<2x3xf32>
  %t = dlc.transpose %19 {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %20 = dlc.matmul %19, %t : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %b3 = dlc.reshape %19 : tensor<2x3xf32> -> tensor<1x2x3xf32>
  %21 = dlc.matmul %b3, %t : (tensor<1x2x3xf32>, tensor<3x2xf32>) -> tensor<1x2x2xf32>
  %wl = dlc.constant dense<0.5> : tensor<4x3xf32>
  %22 = dlc.linear %b3, %wl, %c : (tensor<1x2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<1x2x4xf32>
  %23 = dlc.conv2d %x4, %w, %bias {pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64, strides = array<i64: 2, 1>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x5xf32>
  %24 = dlc.max_pool2d %23 {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : tensor<1x4x3x5xf32> -> tensor<1x4x3x5xf32>
  %25 = dlc.avg_pool2d %24 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x4x3x5xf32> -> tensor<1x4x3x5xf32>
  %26 = dlc.global_avg_pool %25 : tensor<1x4x3x5xf32> -> tensor<1x4x1x1xf32>
  %27 = dlc.batch_norm %25, %c, %c, %c, %c : (tensor<1x4x3x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3x5xf32>
  %28 = dlc.layer_norm %27, %c5, %c5 {axis = -1 : i64} : (tensor<1x4x3x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<1x4x3x5xf32>
  %29 = dlc.softmax %28 {axis = 1 : i64} : tensor<1x4x3x5xf32>
  %30 = dlc.reduce_sum %29 {axes = array<i64: 1, 3>} : tensor<1x4x3x5xf32> -> tensor<1x3xf32>
  %31 = dlc.reduce_mean %29 {keepdims = true} : tensor<1x4x3x5xf32> -> tensor<1x1x1x1xf32>
  %32 = dlc.reduce_max %29 {axes = array<i64: -1>} : tensor<1x4x3x5xf32> -> tensor<1x4x3xf32>
  %33 = dlc.concat %19, %19 {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %34 = dlc.slice %33 {starts = array<i64: 0, 1>, ends = array<i64: 4, 3>, steps = array<i64: 2, 1>} : tensor<4x3xf32> -> tensor<2x2xf32>
  %35:2 = dlc.split %33 {axis = 0 : i64, sizes = array<i64: 1, 3>} : tensor<4x3xf32> -> tensor<1x3xf32>, tensor<3x3xf32>
  %36 = dlc.gather %33, %ids {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %37 = dlc.cast %36 : tensor<2x3xf32> -> tensor<2x3xf16>
  %38 = dlc.add %37, %h : tensor<2x3xf16>
  %39 = dlc.copy %38 to cuda:0 : tensor<2x3xf16>
  %40 = dlc.cast %39 : tensor<2x3xf16> -> tensor<2x3xi32>
  %41 = dlc.add %40, %i : tensor<2x3xi32>
  return %36, %39, %41 : tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xi32>
}
