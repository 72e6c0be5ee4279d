// transpose, reshape, concat, slice, split, gather and gather_elements, run by the reference
// interpreter and as lowered code (Inputs/check_numerics.py).
// RUN: %python %S/Inputs/check_numerics.py %s | FileCheck %s

// CHECK: OK movement:
func.func @movement(%x: tensor<2x3x4xf32>, %y: tensor<2x1x4xf32>, %b: tensor<3x2xi1>) -> (tensor<4x2x3xf32>, tensor<3x8xf32>, tensor<4x6xf32>, tensor<f32>, tensor<2x4x4xf32>, tensor<1x2x2xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>, tensor<2x3xi1>, tensor<6x1xi1>) {
  %0 = dlc.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<3x8xf32>
  %2 = dlc.reshape %0 : tensor<4x2x3xf32> -> tensor<4x6xf32>
  %s = dlc.slice %x {starts = array<i64: 1, 2, 3>, ends = array<i64: 2, 3, 4>, steps = array<i64: 1, 1, 1>} : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  %3 = dlc.reshape %s : tensor<1x1x1xf32> -> tensor<f32>
  %4 = dlc.concat %x, %y {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x4x4xf32>
  %5 = dlc.slice %x {starts = array<i64: 1, 0, 1>, ends = array<i64: 2, 3, 4>, steps = array<i64: 1, 2, 2>} : tensor<2x3x4xf32> -> tensor<1x2x2xf32>
  %6:2 = dlc.split %x {axis = 1 : i64, sizes = array<i64: 1, 2>} : tensor<2x3x4xf32> -> tensor<2x1x4xf32>, tensor<2x2x4xf32>
  %7 = dlc.transpose %b {perm = array<i64: 1, 0>} : tensor<3x2xi1> -> tensor<2x3xi1>
  %8 = dlc.reshape %b : tensor<3x2xi1> -> tensor<6x1xi1>
  return %0, %1, %2, %3, %4, %5, %6#0, %6#1, %7, %8 : tensor<4x2x3xf32>, tensor<3x8xf32>, tensor<4x6xf32>, tensor<f32>, tensor<2x4x4xf32>, tensor<1x2x2xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>, tensor<2x3xi1>, tensor<6x1xi1>
}

// -----

// gather_elements along each axis, negative indices, f16 data, i32 indices.
// CHECK: OK gather_elements:
// RANGE: %rows -3 2
// RANGE: %cols -5 4
func.func @gather_elements(%t: tensor<3x5xf32>, %rows: tensor<4x5xi64>, %cols: tensor<3x7xi32>, %h: tensor<3x5xf16>) -> (tensor<4x5xf32>, tensor<3x7xf32>, tensor<3x7xf16>) {
  %0 = dlc.gather_elements %t, %rows {axis = 0 : i64} : (tensor<3x5xf32>, tensor<4x5xi64>) -> tensor<4x5xf32>
  %1 = dlc.gather_elements %t, %cols {axis = -1 : i64} : (tensor<3x5xf32>, tensor<3x7xi32>) -> tensor<3x7xf32>
  %2 = dlc.gather_elements %h, %cols {axis = 1 : i64} : (tensor<3x5xf16>, tensor<3x7xi32>) -> tensor<3x7xf16>
  return %0, %1, %2 : tensor<4x5xf32>, tensor<3x7xf32>, tensor<3x7xf16>
}

// -----

// Negative indices count from the end.
// CHECK: OK gather:
// RANGE: %ids -5 4
// RANGE: %cols -3 2
// RANGE: %one -5 4
func.func @gather(%t: tensor<5x3xf32>, %ids: tensor<2x3xi64>, %cols: tensor<4xi32>, %h: tensor<2x3x2xf16>, %one: tensor<i64>) -> (tensor<2x3x3xf32>, tensor<5x4xf32>, tensor<2x4x2xf16>, tensor<3xf32>) {
  %0 = dlc.gather %t, %ids {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2x3xi64>) -> tensor<2x3x3xf32>
  %1 = dlc.gather %t, %cols {axis = 1 : i64} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<5x4xf32>
  %2 = dlc.gather %h, %cols {axis = -2 : i64} : (tensor<2x3x2xf16>, tensor<4xi32>) -> tensor<2x4x2xf16>
  %3 = dlc.gather %t, %one : (tensor<5x3xf32>, tensor<i64>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x3x3xf32>, tensor<5x4xf32>, tensor<2x4x2xf16>, tensor<3xf32>
}

// -----

// More than 16 pieces: built as a concat of concats.
// CHECK: OK wide_concat:
func.func @wide_concat(%a0: tensor<2x1xf32>, %a1: tensor<2x2xf32>, %a2: tensor<2x3xf32>, %a3: tensor<2x1xf32>, %a4: tensor<2x2xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x1xf32>, %a7: tensor<2x2xf32>, %a8: tensor<2x3xf32>, %a9: tensor<2x1xf32>, %a10: tensor<2x2xf32>, %a11: tensor<2x3xf32>, %a12: tensor<2x1xf32>, %a13: tensor<2x2xf32>, %a14: tensor<2x3xf32>, %a15: tensor<2x1xf32>, %a16: tensor<2x2xf32>, %a17: tensor<2x3xf32>, %a18: tensor<2x1xf32>, %a19: tensor<2x2xf32>) -> tensor<2x39xf32> {
  %0 = dlc.concat %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19 {axis = 1 : i64} : (tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x39xf32>
  return %0 : tensor<2x39xf32>
}
