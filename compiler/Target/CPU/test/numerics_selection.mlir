// scatter_elements and top_k (LowerSelection.cpp), run by the reference
// interpreter and as lowered code (Inputs/check_numerics.py).
// RUN: %python %S/Inputs/check_numerics.py %s | FileCheck %s

// Every reduction, duplicates (6 updates into 3 rows), negative indices, an
// index broadcast along the columns (ScatterND's rows), f16 and i32 data.
// CHECK: OK scatter:
// RANGE: %rows -3 2
// RANGE: %cols -5 4
// RANGE: %ints -4 4
// RANGE: %row -3 2
func.func @scatter(%d: tensor<3x5xf32>, %rows: tensor<6x5xi64>, %u: tensor<6x5xf32>, %cols: tensor<3x2xi32>, %v: tensor<3x2xf32>, %row: tensor<4x1xi64>, %w: tensor<4x5xf32>, %h: tensor<3x5xf16>, %hu: tensor<6x5xf16>, %ints: tensor<3x5xi32>, %iu: tensor<6x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf16>, tensor<3x5xi32>, tensor<3x5xi32>) {
  %0 = dlc.scatter_elements %d, %rows, %u {axis = 0 : i64} : (tensor<3x5xf32>, tensor<6x5xi64>, tensor<6x5xf32>) -> tensor<3x5xf32>
  %1 = dlc.scatter_elements %d, %rows, %u {axis = 0 : i64, reduction = "add"} : (tensor<3x5xf32>, tensor<6x5xi64>, tensor<6x5xf32>) -> tensor<3x5xf32>
  %2 = dlc.scatter_elements %d, %rows, %u {axis = 0 : i64, reduction = "mul"} : (tensor<3x5xf32>, tensor<6x5xi64>, tensor<6x5xf32>) -> tensor<3x5xf32>
  %3 = dlc.scatter_elements %d, %cols, %v {axis = -1 : i64, reduction = "max"} : (tensor<3x5xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x5xf32>
  %4 = dlc.scatter_elements %d, %cols, %v {axis = 1 : i64, reduction = "min"} : (tensor<3x5xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x5xf32>
  %5 = dlc.scatter_elements %d, %row, %w {axis = 0 : i64} : (tensor<3x5xf32>, tensor<4x1xi64>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %6 = dlc.scatter_elements %h, %rows, %hu {axis = 0 : i64, reduction = "add"} : (tensor<3x5xf16>, tensor<6x5xi64>, tensor<6x5xf16>) -> tensor<3x5xf16>
  %7 = dlc.scatter_elements %ints, %rows, %iu {axis = 0 : i64, reduction = "max"} : (tensor<3x5xi32>, tensor<6x5xi64>, tensor<6x5xi32>) -> tensor<3x5xi32>
  %8 = dlc.scatter_elements %ints, %rows, %iu {axis = 0 : i64, reduction = "mul"} : (tensor<3x5xi32>, tensor<6x5xi64>, tensor<6x5xi32>) -> tensor<3x5xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf16>, tensor<3x5xi32>, tensor<3x5xi32>
}

// -----

// Largest and smallest along each axis, k = n (a full sort), ties among
// small integers (the lower index first), f16.
// CHECK: OK top_k:
// RANGE: %ties -2 2
func.func @top_k(%x: tensor<4x7x3xf32>, %ties: tensor<3x9xi32>, %h: tensor<2x6xf16>, %r: tensor<7xf32>) -> (tensor<4x3x3xf32>, tensor<4x3x3xi64>, tensor<4x7x2xf32>, tensor<4x7x2xi64>, tensor<3x9xi32>, tensor<3x9xi64>, tensor<2x9xi32>, tensor<2x9xi64>, tensor<2x4xf16>, tensor<2x4xi64>, tensor<1xf32>, tensor<1xi64>) {
  %v0, %i0 = dlc.top_k %x {axis = 1 : i64, k = 3 : i64} : tensor<4x7x3xf32> -> tensor<4x3x3xf32>, tensor<4x3x3xi64>
  %v1, %i1 = dlc.top_k %x {axis = -1 : i64, k = 2 : i64, largest = false} : tensor<4x7x3xf32> -> tensor<4x7x2xf32>, tensor<4x7x2xi64>
  %v2, %i2 = dlc.top_k %ties {axis = 1 : i64, k = 9 : i64} : tensor<3x9xi32> -> tensor<3x9xi32>, tensor<3x9xi64>
  %v3, %i3 = dlc.top_k %ties {axis = 0 : i64, k = 2 : i64, largest = false} : tensor<3x9xi32> -> tensor<2x9xi32>, tensor<2x9xi64>
  %v4, %i4 = dlc.top_k %h {axis = 1 : i64, k = 4 : i64} : tensor<2x6xf16> -> tensor<2x4xf16>, tensor<2x4xi64>
  %v5, %i5 = dlc.top_k %r {axis = 0 : i64, k = 1 : i64, largest = false} : tensor<7xf32> -> tensor<1xf32>, tensor<1xi64>
  return %v0, %i0, %v1, %i1, %v2, %i2, %v3, %i3, %v4, %i4, %v5, %i5 : tensor<4x3x3xf32>, tensor<4x3x3xi64>, tensor<4x7x2xf32>, tensor<4x7x2xi64>, tensor<3x9xi32>, tensor<3x9xi64>, tensor<2x9xi32>, tensor<2x9xi64>, tensor<2x4xf16>, tensor<2x4xi64>, tensor<1xf32>, tensor<1xi64>
}
