// matmul, linear and conv2d, run by the reference interpreter and as lowered
// code (Inputs/check_numerics.py), on ragged shapes, in f32, f16 and i32.
// RUN: %python %S/Inputs/check_numerics.py %s | FileCheck %s

// CHECK: OK matmul_2d:
func.func @matmul_2d(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>, %i: tensor<3x4xi32>, %j: tensor<4x2xi32>) -> (tensor<5x3xf32>, tensor<3x2xi32>) {
  %0 = dlc.matmul %a, %b : (tensor<5x7xf32>, tensor<7x3xf32>) -> tensor<5x3xf32>
  %1 = dlc.matmul %i, %j : (tensor<3x4xi32>, tensor<4x2xi32>) -> tensor<3x2xi32>
  return %0, %1 : tensor<5x3xf32>, tensor<3x2xi32>
}

// -----

// CHECK: OK matmul_batched:
func.func @matmul_batched(%a: tensor<2x1x3x5xf32>, %b: tensor<3x5x4xf32>, %m: tensor<3x5xf32>, %h: tensor<2x3x5xf16>, %hb: tensor<5x6xf16>) -> (tensor<2x3x3x4xf32>, tensor<3x3x4xf32>, tensor<2x3x6xf16>) {
  %0 = dlc.matmul %a, %b : (tensor<2x1x3x5xf32>, tensor<3x5x4xf32>) -> tensor<2x3x3x4xf32>
  %1 = dlc.matmul %m, %b : (tensor<3x5xf32>, tensor<3x5x4xf32>) -> tensor<3x3x4xf32>
  %2 = dlc.matmul %h, %hb : (tensor<2x3x5xf16>, tensor<5x6xf16>) -> tensor<2x3x6xf16>
  return %0, %1, %2 : tensor<2x3x3x4xf32>, tensor<3x3x4xf32>, tensor<2x3x6xf16>
}

// -----

// CHECK: OK linear:
func.func @linear(%x: tensor<2x3x7xf32>, %w: tensor<5x7xf32>, %b: tensor<5xf32>, %v: tensor<7xf32>, %xh: tensor<4x7xf16>, %wh: tensor<5x7xf16>, %bh: tensor<5xf16>) -> (tensor<2x3x5xf32>, tensor<5xf32>, tensor<4x5xf16>, tensor<4x5xf16>) {
  %0 = dlc.linear %x, %w, %b : (tensor<2x3x7xf32>, tensor<5x7xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  %1 = dlc.linear %v, %w : (tensor<7xf32>, tensor<5x7xf32>) -> tensor<5xf32>
  %2 = dlc.linear %xh, %wh, %bh : (tensor<4x7xf16>, tensor<5x7xf16>, tensor<5xf16>) -> tensor<4x5xf16>
  %3 = dlc.linear %xh, %wh : (tensor<4x7xf16>, tensor<5x7xf16>) -> tensor<4x5xf16>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<5xf32>, tensor<4x5xf16>, tensor<4x5xf16>
}

// -----

// CHECK: OK conv_plain:
func.func @conv_plain(%x: tensor<2x3x7x6xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<4xf32>) -> (tensor<2x4x5x5xf32>, tensor<2x4x4x3xf32>) {
  %0 = dlc.conv2d %x, %w, %b : (tensor<2x3x7x6xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>) -> tensor<2x4x5x5xf32>
  %1 = dlc.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 2, 1>, dilations = array<i64: 1, 2>} : (tensor<2x3x7x6xf32>, tensor<4x3x3x2xf32>) -> tensor<2x4x4x3xf32>
  return %0, %1 : tensor<2x4x5x5xf32>, tensor<2x4x4x3xf32>
}

// -----

// CHECK: OK conv_grouped:
func.func @conv_grouped(%x: tensor<1x6x5x7xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %dw: tensor<6x1x3x3xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x6x5x7xf32>) {
  %0 = dlc.conv2d %x, %w, %b {groups = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 0>} : (tensor<1x6x5x7xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %1 = dlc.conv2d %x, %dw {groups = 6 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x6x5x7xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x5x7xf32>
  return %0, %1 : tensor<1x4x3x3xf32>, tensor<1x6x5x7xf32>
}

// -----

// CHECK: OK conv_half:
func.func @conv_half(%x: tensor<1x4x6x5xf16>, %w: tensor<6x2x3x3xf16>, %b: tensor<6xf16>) -> (tensor<1x6x6x5xf16>, tensor<1x6x4x3xf16>) {
  %0 = dlc.conv2d %x, %w, %b {groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x5xf16>, tensor<6x2x3x3xf16>, tensor<6xf16>) -> tensor<1x6x6x5xf16>
  %x2 = dlc.slice %x {starts = array<i64: 0, 0, 0, 0>, ends = array<i64: 1, 2, 6, 5>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x4x6x5xf16> -> tensor<1x2x6x5xf16>
  %1 = dlc.conv2d %x2, %w : (tensor<1x2x6x5xf16>, tensor<6x2x3x3xf16>) -> tensor<1x6x4x3xf16>
  return %0, %1 : tensor<1x6x6x5xf16>, tensor<1x6x4x3xf16>
}

// -----

// Stride-2 depthwise windows whose taps read the image's even and odd
// columns, split once (DeinterleaveStridedTaps.cpp: 25 taps, or rows of 56
// outputs and more): a 5x5 window with asymmetric padding on an odd image,
// with SiLU after it; a 3x3 one on rows of 60 outputs.
// CHECK: OK conv_split_columns:
func.func @conv_split_columns(%x: tensor<1x4x13x11xf32>, %w: tensor<4x1x5x5xf32>, %b: tensor<4xf32>, %x2: tensor<1x2x6x120xf32>, %w2: tensor<2x1x3x3xf32>) -> (tensor<1x4x6x5xf32>, tensor<1x2x3x60xf32>) {
  %0 = dlc.conv2d %x, %w, %b {groups = 4 : i64, strides = array<i64: 2, 2>, pads = array<i64: 2, 1, 1, 2>} : (tensor<1x4x13x11xf32>, tensor<4x1x5x5xf32>, tensor<4xf32>) -> tensor<1x4x6x5xf32>
  %s = dlc.sigmoid %0 : tensor<1x4x6x5xf32>
  %1 = dlc.mul %0, %s : (tensor<1x4x6x5xf32>, tensor<1x4x6x5xf32>) -> tensor<1x4x6x5xf32>
  %2 = dlc.conv2d %x2, %w2 {groups = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x120xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x3x60xf32>
  return %1, %2 : tensor<1x4x6x5xf32>, tensor<1x2x3x60xf32>
}
