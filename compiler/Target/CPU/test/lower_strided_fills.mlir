// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-lower-strided-fills))' --split-input-file | FileCheck %s

// The left border of a padded 4-channel 8x8 image (1x4x6x1 of 1x4x8x8):
// rows of one element, 64 apart. Loops over channels and rows, both kept
// (no LLVM unrolling or vectorising), around one row store each; the unit
// batch dim gets no loop.
// CHECK-LABEL: func.func @left_border
// CHECK-NOT: linalg.fill
// CHECK: %[[ROW:.*]] = vector.splat %{{.*}} : vector<1xf32>
// CHECK: scf.for %[[C:.*]] = %c0 to %c4 step %c1 {
// CHECK: scf.for %[[H:.*]] = %c0 to %c6 step %c1 {
// CHECK: vector.transfer_write %[[ROW]], %{{.*}}[%c0, %[[C]], %[[H]], %c0] {in_bounds = [true]} : vector<1xf32>, memref<1x4x6x1xf32, strided<[256, 64, 8, 1], offset: 8>>
// CHECK: } {dlc.kept_loop}
// CHECK: } {dlc.kept_loop}
func.func @left_border(%padded: memref<1x4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %left = memref.subview %padded[0, 0, 1, 0] [1, 4, 6, 1] [1, 1, 1, 1]
      : memref<1x4x8x8xf32> to memref<1x4x6x1xf32, strided<[256, 64, 8, 1], offset: 8>>
  linalg.fill ins(%zero : f32) outs(%left : memref<1x4x6x1xf32, strided<[256, 64, 8, 1], offset: 8>>)
  return
}

// -----

// Left alone: a contiguous region (LLVM's memset), rows over 16 elements,
// rows that are not unit-stride, i1 (bit-packed as vectors), and a single row.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-5: linalg.fill
// CHECK-NOT: scf.for
func.func @left_alone(%a: memref<2x4x8xf32>, %b: memref<4x8x40xf32>, %c: memref<4x8x8xi1>,
                      %d: memref<4x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %false = arith.constant false
  linalg.fill ins(%zero : f32) outs(%a : memref<2x4x8xf32>)
  %rows = memref.subview %b[0, 0, 0] [4, 8, 17] [1, 1, 1]
      : memref<4x8x40xf32> to memref<4x8x17xf32, strided<[320, 40, 1]>>
  linalg.fill ins(%zero : f32) outs(%rows : memref<4x8x17xf32, strided<[320, 40, 1]>>)
  %bits = memref.subview %c[0, 0, 0] [4, 8, 2] [1, 1, 1]
      : memref<4x8x8xi1> to memref<4x8x2xi1, strided<[64, 8, 1]>>
  linalg.fill ins(%false : i1) outs(%bits : memref<4x8x2xi1, strided<[64, 8, 1]>>)
  %column = memref.subview %d[0, 0, 0] [4, 8, 2] [1, 1, 2]
      : memref<4x8x8xf32> to memref<4x8x2xf32, strided<[64, 8, 2]>>
  linalg.fill ins(%zero : f32) outs(%column : memref<4x8x2xf32, strided<[64, 8, 2]>>)
  %one = memref.subview %d[1, 2, 0] [1, 1, 4] [1, 1, 1]
      : memref<4x8x8xf32> to memref<1x1x4xf32, strided<[64, 8, 1], offset: 80>>
  linalg.fill ins(%zero : f32) outs(%one : memref<1x1x4xf32, strided<[64, 8, 1], offset: 80>>)
  return
}
