// Pooling, normalisation, softmax and reductions, run by the reference
// interpreter and as lowered code (Inputs/check_numerics.py).
// RUN: %python %S/Inputs/check_numerics.py %s | FileCheck %s

// CHECK: OK pooling:
func.func @pooling(%x: tensor<2x3x7x6xf32>) -> (tensor<2x3x3x3xf32>, tensor<2x3x4x3xf32>, tensor<2x3x7x6xf32>, tensor<2x3x7x6xf32>, tensor<2x3x1x1xf32>, tensor<2x3x3x2xf32>) {
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x3x7x6xf32> -> tensor<2x3x3x3xf32>
  %1 = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 0>, dilations = array<i64: 1, 2>} : tensor<2x3x7x6xf32> -> tensor<2x3x4x3xf32>
  %2 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<2x3x7x6xf32> -> tensor<2x3x7x6xf32>
  %3 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : tensor<2x3x7x6xf32> -> tensor<2x3x7x6xf32>
  %4 = dlc.global_avg_pool %x : tensor<2x3x7x6xf32> -> tensor<2x3x1x1xf32>
  %5 = dlc.avg_pool2d %x {kernel_shape = array<i64: 2, 3>, strides = array<i64: 3, 2>, pads = array<i64: 1, 0, 0, 0>} : tensor<2x3x7x6xf32> -> tensor<2x3x3x2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x3x3xf32>, tensor<2x3x4x3xf32>, tensor<2x3x7x6xf32>, tensor<2x3x7x6xf32>, tensor<2x3x1x1xf32>, tensor<2x3x3x2xf32>
}

// -----

// A NaN anywhere in a window wins (sqrt of the inputs below zero, about one
// in four): max pooling compares with one `>` per pair and checks the window
// for NaNs once.
// CHECK: OK pooling_nan:
// RANGE: %x -0.3 1.0
func.func @pooling_nan(%x: tensor<2x3x7x6xf32>, %h: tensor<1x2x5x5xf16>) -> (tensor<2x3x4x3xf32>, tensor<2x3x3x3xf32>, tensor<2x3x7x6xf32>, tensor<1x2x3x3xf16>) {
  %s = dlc.sqrt %x : tensor<2x3x7x6xf32>
  %0 = dlc.max_pool2d %s {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : tensor<2x3x7x6xf32> -> tensor<2x3x4x3xf32>
  %1 = dlc.max_pool2d %s {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x3x7x6xf32> -> tensor<2x3x3x3xf32>
  %2 = dlc.max_pool2d %s {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<2x3x7x6xf32> -> tensor<2x3x7x6xf32>
  %sh = dlc.sqrt %h : tensor<1x2x5x5xf16>
  %3 = dlc.max_pool2d %sh {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x2x5x5xf16> -> tensor<1x2x3x3xf16>
  return %0, %1, %2, %3 : tensor<2x3x4x3xf32>, tensor<2x3x3x3xf32>, tensor<2x3x7x6xf32>, tensor<1x2x3x3xf16>
}

// -----

// CHECK: OK pooling_half:
func.func @pooling_half(%x: tensor<1x2x5x5xf16>) -> (tensor<1x2x3x3xf16>, tensor<1x2x5x5xf16>, tensor<1x2x1x1xf16>) {
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x2x5x5xf16> -> tensor<1x2x3x3xf16>
  %1 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x2x5x5xf16> -> tensor<1x2x5x5xf16>
  %2 = dlc.global_avg_pool %x : tensor<1x2x5x5xf16> -> tensor<1x2x1x1xf16>
  return %0, %1, %2 : tensor<1x2x3x3xf16>, tensor<1x2x5x5xf16>, tensor<1x2x1x1xf16>
}

// -----

// CHECK: OK norms:
// RANGE: %var 0.1 2.0
func.func @norms(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>, %g: tensor<4x5xf32>, %beta: tensor<4x5xf32>, %g1: tensor<5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) {
  %0 = dlc.batch_norm %x, %s, %b, %mean, %var {epsilon = 1.0e-03 : f64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %1 = dlc.layer_norm %x, %g, %beta {axis = 2 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = dlc.layer_norm %x, %g1 {epsilon = 1.0e-02 : f64} : (tensor<2x3x4x5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
  return %0, %1, %2 : tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>
}

// -----

// CHECK: OK norms_half:
// RANGE: %var 0.1 2.0
func.func @norms_half(%x: tensor<3x2x7xf16>, %s: tensor<2xf16>, %b: tensor<2xf16>, %mean: tensor<2xf16>, %var: tensor<2xf16>, %g: tensor<7xf16>) -> (tensor<3x2x7xf16>, tensor<3x2x7xf16>, tensor<3x2x7xf16>) {
  %0 = dlc.batch_norm %x, %s, %b, %mean, %var : (tensor<3x2x7xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) -> tensor<3x2x7xf16>
  %1 = dlc.layer_norm %x, %g, %g : (tensor<3x2x7xf16>, tensor<7xf16>, tensor<7xf16>) -> tensor<3x2x7xf16>
  %2 = dlc.softmax %x {axis = 1 : i64} : tensor<3x2x7xf16>
  return %0, %1, %2 : tensor<3x2x7xf16>, tensor<3x2x7xf16>, tensor<3x2x7xf16>
}

// -----

// CHECK: OK softmax:
// RANGE: %x -30.0 30.0
func.func @softmax(%x: tensor<3x4x5xf32>) -> (tensor<3x4x5xf32>, tensor<3x4x5xf32>, tensor<3x4x5xf32>) {
  %0 = dlc.softmax %x : tensor<3x4x5xf32>
  %1 = dlc.softmax %x {axis = 1 : i64} : tensor<3x4x5xf32>
  %2 = dlc.softmax %x {axis = -3 : i64} : tensor<3x4x5xf32>
  return %0, %1, %2 : tensor<3x4x5xf32>, tensor<3x4x5xf32>, tensor<3x4x5xf32>
}

// -----

// CHECK: OK reductions:
func.func @reductions(%x: tensor<3x4x5xf32>, %i: tensor<3x4xi32>, %h: tensor<6x5xf16>) -> (tensor<3x5xf32>, tensor<1x4x1xf32>, tensor<f32>, tensor<3x4x1xf32>, tensor<4xi32>, tensor<3x1xi32>, tensor<i32>, tensor<5xf16>, tensor<6xf16>) {
  %0 = dlc.reduce_sum %x {axes = array<i64: 1>} : tensor<3x4x5xf32> -> tensor<3x5xf32>
  %1 = dlc.reduce_mean %x {axes = array<i64: 0, -1>, keepdims = true} : tensor<3x4x5xf32> -> tensor<1x4x1xf32>
  %2 = dlc.reduce_max %x : tensor<3x4x5xf32> -> tensor<f32>
  %3 = dlc.reduce_max %x {axes = array<i64: 2>, keepdims = true} : tensor<3x4x5xf32> -> tensor<3x4x1xf32>
  %4 = dlc.reduce_sum %i {axes = array<i64: 0>} : tensor<3x4xi32> -> tensor<4xi32>
  %5 = dlc.reduce_mean %i {axes = array<i64: 1>, keepdims = true} : tensor<3x4xi32> -> tensor<3x1xi32>
  %6 = dlc.reduce_max %i : tensor<3x4xi32> -> tensor<i32>
  %7 = dlc.reduce_mean %h {axes = array<i64: 0>} : tensor<6x5xf16> -> tensor<5xf16>
  %8 = dlc.reduce_sum %h {axes = array<i64: 1>} : tensor<6x5xf16> -> tensor<6xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3x5xf32>, tensor<1x4x1xf32>, tensor<f32>, tensor<3x4x1xf32>, tensor<4xi32>, tensor<3x1xi32>, tensor<i32>, tensor<5xf16>, tensor<6xf16>
}

// -----

// Stride-2 windows whose taps read the image's even and odd columns, split
// once (DeinterleaveStridedTaps.cpp: 25 taps, or rows of 56 outputs and
// more): a 3x3 max pool on rows of 58 outputs with NaNs in it (sqrt of the
// inputs below zero), 5x5 max and average pools with asymmetric padding on
// an odd image, and a 5x5 max pool without padding.
// CHECK: OK pooling_split_columns:
// RANGE: %x -0.3 1.0
func.func @pooling_split_columns(%x: tensor<1x2x9x115xf32>, %y: tensor<2x3x11x13xf32>) -> (tensor<1x2x5x58xf32>, tensor<2x3x5x6xf32>, tensor<2x3x5x6xf32>, tensor<2x3x4x5xf32>) {
  %s = dlc.sqrt %x : tensor<1x2x9x115xf32>
  %0 = dlc.max_pool2d %s {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x2x9x115xf32> -> tensor<1x2x5x58xf32>
  %1 = dlc.max_pool2d %y {kernel_shape = array<i64: 5, 5>, strides = array<i64: 2, 2>, pads = array<i64: 2, 1, 1, 2>} : tensor<2x3x11x13xf32> -> tensor<2x3x5x6xf32>
  %2 = dlc.avg_pool2d %y {kernel_shape = array<i64: 5, 5>, strides = array<i64: 2, 2>, pads = array<i64: 1, 2, 2, 1>} : tensor<2x3x11x13xf32> -> tensor<2x3x5x6xf32>
  %3 = dlc.max_pool2d %y {kernel_shape = array<i64: 5, 5>, strides = array<i64: 2, 2>} : tensor<2x3x11x13xf32> -> tensor<2x3x4x5xf32>
  return %0, %1, %2, %3 : tensor<1x2x5x58xf32>, tensor<2x3x5x6xf32>, tensor<2x3x5x6xf32>, tensor<2x3x4x5xf32>
}
