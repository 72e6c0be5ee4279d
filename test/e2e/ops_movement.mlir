// Data movement ops, views, constants and pass-through outputs compiled to
// native code against the reference interpreter.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s transpose %t
// RUN: %check-e2e %s transpose_blocks %t
// RUN: %check-e2e %s reshape_views %t
// RUN: %check-e2e %s concat %t
// RUN: %check-e2e %s slice_split %t
// RUN: %check-e2e %s gather %t
// The index input reaches its gathers through a copy to the GPU: random inputs
// must still be drawn below the gathered dimension.
// RUN: %check-e2e %s gather %t/gpu --devices=cpu,cuda:0 --placement=gpu --gpu=sim --check-ordering
// RUN: %check-e2e %s passthrough %t
// RUN: %check-e2e %s big_constant %t

func.func @transpose(%x: tensor<2x3x5x7xf32>) -> tensor<5x2x7x3xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 2, 0, 3, 1>} : tensor<2x3x5x7xf32> -> tensor<5x2x7x3xf32>
  return %0 : tensor<5x2x7x3xf32>
}

// Transposes that move the innermost dim in 8x16 blocks
// (VectorizeTransposes.cpp): attention's K^T, a 2-D one, one whose
// innermost dim goes to the outermost, and one big enough to be split into
// parallel chunks first.
func.func @transpose_blocks(%k: tensor<2x16x3x32xf32>, %m: tensor<24x48xf32>, %c: tensor<16x5x32xf32>, %big: tensor<4x64x4x64xf32>) -> (tensor<2x3x32x16xf32>, tensor<48x24xf32>, tensor<32x5x16xf32>, tensor<4x4x64x64xf32>) {
  %0 = dlc.transpose %k {perm = array<i64: 0, 2, 3, 1>} : tensor<2x16x3x32xf32> -> tensor<2x3x32x16xf32>
  %1 = dlc.transpose %m {perm = array<i64: 1, 0>} : tensor<24x48xf32> -> tensor<48x24xf32>
  %2 = dlc.transpose %c {perm = array<i64: 2, 1, 0>} : tensor<16x5x32xf32> -> tensor<32x5x16xf32>
  %3 = dlc.transpose %big {perm = array<i64: 0, 2, 3, 1>} : tensor<4x64x4x64xf32> -> tensor<4x4x64x64xf32>
  return %0, %1, %2, %3 : tensor<2x3x32x16xf32>, tensor<48x24xf32>, tensor<32x5x16xf32>, tensor<4x4x64x64xf32>
}

func.func @reshape_views(%x: tensor<6x10xf32>) -> (tensor<3x20xf32>, tensor<60xf32>) {
  %0 = dlc.relu %x : tensor<6x10xf32>
  %1 = dlc.reshape %0 : tensor<6x10xf32> -> tensor<3x20xf32>
  %2 = dlc.reshape %x : tensor<6x10xf32> -> tensor<60xf32>
  %3 = dlc.neg %2 : tensor<60xf32>
  return %1, %3 : tensor<3x20xf32>, tensor<60xf32>
}

func.func @concat(%a: tensor<2x3x5xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x10x5xf32> {
  %c = dlc.constant dense<0.5> : tensor<2x3x5xf32>
  %0 = dlc.concat %a, %b, %c {axis = 1 : i64} : (tensor<2x3x5xf32>, tensor<2x4x5xf32>, tensor<2x3x5xf32>) -> tensor<2x10x5xf32>
  return %0 : tensor<2x10x5xf32>
}

func.func @slice_split(%x: tensor<7x12xf32>) -> (tensor<3x4xf32>, tensor<7x5xf32>, tensor<7x7xf32>) {
  %0 = dlc.slice %x {starts = array<i64: 1, 0>, ends = array<i64: 7, 11>, steps = array<i64: 2, 3>} : tensor<7x12xf32> -> tensor<3x4xf32>
  %1, %2 = dlc.split %x {axis = 1 : i64, sizes = array<i64: 5, 7>} : tensor<7x12xf32> -> tensor<7x5xf32>, tensor<7x7xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<7x5xf32>, tensor<7x7xf32>
}

func.func @gather(%table: tensor<10x6xf32>, %ids: tensor<2x3xi64>) -> (tensor<2x3x6xf32>, tensor<10x2x3xf32>) {
  %0 = dlc.gather %table, %ids {axis = 0 : i64} : (tensor<10x6xf32>, tensor<2x3xi64>) -> tensor<2x3x6xf32>
  %1 = dlc.gather %table, %ids {axis = 1 : i64} : (tensor<10x6xf32>, tensor<2x3xi64>) -> tensor<10x2x3xf32>
  return %0, %1 : tensor<2x3x6xf32>, tensor<10x2x3xf32>
}

// Outputs that are an input, a constant, and a copy of an input.
func.func @passthrough(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<2xf32>, tensor<3x4xf32>) {
  %c = dlc.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %0 = dlc.copy %x to cpu : tensor<3x4xf32>
  return %x, %c, %0 : tensor<3x4xf32>, tensor<2xf32>, tensor<3x4xf32>
}

// A weight large enough to be a buffer of its own (not inlined into the kernel).
func.func @big_constant(%x: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %w = dlc.constant dense<0.01> : tensor<100xf32>
  %0 = dlc.mul %x, %w : (tensor<4x100xf32>, tensor<100xf32>) -> tensor<4x100xf32>
  return %0 : tensor<4x100xf32>
}
