// A 7x7 output with 6-pixel tiles (AVX2, steady 4): each row's first 6
// pixels are one tile, and the last column runs as tiles down the column
// (4 + 3 pixels from rows 0-3 and 4-6), 50 latency-bound steps instead of
// the 56 of 4 + 3 per row (cpu::tailColumns). The column tiles read the
// image down a column (sizes [1, C, n, 1], the stride's rows apart) and
// write, and run the epilogue on, [1, P, n, 1] regions.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=4}))' | FileCheck %s
// Without the FMA timing (steady 1) the two cost the same and rows win.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=1}))' | FileCheck %s --check-prefix=ROWS

// CHECK-LABEL: func.func @seven_by_seven
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0, %{{.*}}, %{{.*}}] [1, 4, 1, 6] [1, 1, 1, 1] : tensor<1x4x9x9xf32> to tensor<4x6xf32>
// CHECK: linalg.matmul_transpose_a {{.*}} -> tensor<6x16xf32>
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0, %{{.*}}, %{{.*}}] [1, 4, 4, 1] [1, 1, 1, 1] : tensor<1x4x9x9xf32> to tensor<4x4xf32>
// CHECK: linalg.matmul_transpose_a {{.*}} -> tensor<4x16xf32>
// CHECK: tensor.insert_slice %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] [1, 16, 4, 1] [1, 1, 1, 1] : tensor<16x4xf32> into tensor<1x64x7x7xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x16x4x1xf32>)
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0, %{{.*}}, %{{.*}}] [1, 4, 3, 1] [1, 1, 1, 1] : tensor<1x4x9x9xf32> to tensor<4x3xf32>
// CHECK: tensor.insert_slice %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] [1, 16, 3, 1] [1, 1, 1, 1] : tensor<16x3xf32> into tensor<1x64x7x7xf32>
// ROWS-LABEL: func.func @seven_by_seven
// ROWS-NOT: [1, 4, 4, 1]
// ROWS: [1, 4, 1, 6]
// ROWS: [1, 4, 1, 1]
// ROWS-NOT: [1, 4, 4, 1]
func.func @seven_by_seven(%x: tensor<1x4x7x7xf32>, %panels: tensor<4x3x3x4x16xf32>, %bias: tensor<64xf32>) -> tensor<1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16x4x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<4x3x3x4x16xf32>) outs(%e0 : tensor<4x16x4x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x16x4x3x3xf32> into tensor<64x4x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x7x7xf32> to tensor<1x4x9x9xf32>
  %e = tensor.empty() : tensor<1x64x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x4x9x9xf32>, tensor<64x4x3x3xf32>) outs(%acc : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<64xf32>) outs(%y : tensor<1x64x7x7xf32>) {
  ^bb0(%b: f32, %v: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x7x7xf32>
  return %r : tensor<1x64x7x7xf32>
}

// -----

// At stride 2 a column tile's pixels are two image rows apart.
// CHECK-LABEL: func.func @strided
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0, %{{.*}}, %{{.*}}] [1, 4, 4, 1] [1, 1, 2, 1] : tensor<1x4x15x15xf32> to tensor<4x4xf32>
func.func @strided(%x: tensor<1x4x13x13xf32>, %panels: tensor<4x3x3x4x16xf32>) -> tensor<1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16x4x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<4x3x3x4x16xf32>) outs(%e0 : tensor<4x16x4x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x16x4x3x3xf32> into tensor<64x4x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x13x13xf32> to tensor<1x4x15x15xf32>
  %e = tensor.empty() : tensor<1x64x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x4x15x15xf32>, tensor<64x4x3x3xf32>) outs(%acc : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  return %y : tensor<1x64x7x7xf32>
}
