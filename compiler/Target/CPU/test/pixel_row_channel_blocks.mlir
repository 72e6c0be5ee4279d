// A pointwise convolution on a 7x7 output whose filter panel (64 channels x
// 16 filters) is over the channel-block budget (1 KiB here) runs its
// channels in blocks of 16 (channelBlock in ConvToMatmul.cpp): a first sweep
// of the tiles from zeros into a scratch of the piece's pixels [1, 49, 16]
// (tile layout, no transpose), the middle blocks (1 and 2) in a loop that
// reads and writes the scratch, and a last sweep from the scratch that
// writes each tile back transposed with its epilogue.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=4 channel-block-bytes=1024}),canonicalize)' | FileCheck %s
// Without a budget (the pass's default) all 64 channels at once.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=4}),canonicalize)' | FileCheck %s --check-prefix=WHOLE

// CHECK-LABEL: func.func @pointwise
// CHECK: scf.for %[[J:.*]] = %c0 to %c64 step %c16 iter_args(%{{.*}}) -> (tensor<1x64x1x49xf32>)
// CHECK:   %[[SCRATCH:.*]] = tensor.empty() : tensor<1x49x16xf32>
// CHECK:   scf.for %{{.*}} = %c0 to %c42 step %c6 iter_args(%{{.*}} = %[[SCRATCH]])
// CHECK:     linalg.fill
// CHECK:     linalg.matmul_transpose_a ins(%{{.*}} : tensor<16x6xf32>, tensor<16x16xf32>)
// CHECK:     tensor.insert_slice %{{.*}}[0, %{{.*}}, 0] [1, 6, 16] [1, 1, 1] : tensor<6x16xf32> into tensor<1x49x16xf32>
// CHECK:   tensor.insert_slice %{{.*}}[0, 42, 0] [1, 4, 16]
// CHECK:   tensor.insert_slice %{{.*}}[0, 46, 0] [1, 3, 16]
// CHECK:   scf.for %{{.*}} = %c1 to %c3 step %c1 iter_args(%{{.*}}) -> (tensor<1x49x16xf32>)
// CHECK:     scf.for
// CHECK:       %[[PART:.*]] = tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [1, 6, 16] [1, 1, 1] : tensor<1x49x16xf32> to tensor<6x16xf32>
// CHECK:       linalg.matmul_transpose_a {{.*}} outs(%[[PART]] : tensor<6x16xf32>)
// CHECK:   scf.for %{{.*}} = %c0 to %c42 step %c6 iter_args(%{{.*}}) -> (tensor<1x64x1x49xf32>)
// CHECK:     linalg.matmul_transpose_a
// CHECK:     linalg.transpose
// CHECK:     linalg.generic
// CHECK: } {dlc.parallel}
// WHOLE-LABEL: func.func @pointwise
// WHOLE-NOT: tensor<1x49x16xf32>
// WHOLE: linalg.matmul_transpose_a ins(%{{.*}} : tensor<64x6xf32>, tensor<64x16xf32>)
// WHOLE-NOT: tensor<1x49x16xf32>
// WHOLE: return
func.func @pointwise(%x: tensor<1x64x7x7xf32>, %panels: tensor<4x1x1x64x16xf32>, %bias: tensor<64xf32>) -> tensor<1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16x64x1x1xf32>
  %t = linalg.transpose ins(%panels : tensor<4x1x1x64x16xf32>) outs(%e0 : tensor<4x16x64x1x1xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x16x64x1x1xf32> into tensor<64x64x1x1xf32>
  %e = tensor.empty() : tensor<1x64x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x7x7xf32>, tensor<64x64x1x1xf32>) outs(%acc : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<64xf32>) outs(%y : tensor<1x64x7x7xf32>) {
  ^bb0(%b: f32, %v: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x7x7xf32>
  return %r : tensor<1x64x7x7xf32>
}
