// A pointwise convolution on a 7x7 output (8 filter panels or more)
// reads its image transposed to pixel-major ([N, 1, 49, C]: readsPixelMajor
// in ConvToMatmul.cpp), each tile a [pixels, C] slice of it times the panel
// (linalg.matmul, not matmul_transpose_a on the image as stored). On larger
// images the image is read as stored. A strided one
// over 64 channels or more transposes the pixels it reads.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul{tile-pixels=6 steady-pixels=4}),canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @many_panels
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x32x7x7xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x32x49xf32>) outs(%{{.*}} : tensor<2x49x32xf32>) permutation = [0, 2, 1]
// CHECK: %[[PM:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3]] {{.*}} : tensor<2x49x32xf32> into tensor<2x1x49x32xf32>
// CHECK: scf.for %[[N:[^ ]+]] = %c0 to %c2
// CHECK:   scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK:     tensor.extract_slice %[[PM]][%[[N]], 0, %{{.*}}, 0] [1, 1, 6, 32] [1, 1, 1, 1] : tensor<2x1x49x32xf32> to tensor<6x32xf32>
// CHECK:     linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x32xf32>, tensor<32x16xf32>)
// CHECK-NOT: linalg.matmul_transpose_a
// CHECK: return
func.func @many_panels(%x: tensor<2x32x7x7xf32>, %panels: tensor<16x1x1x32x16xf32>) -> tensor<2x256x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x16x32x1x1xf32>
  %t = linalg.transpose ins(%panels : tensor<16x1x1x32x16xf32>) outs(%e0 : tensor<16x16x32x1x1xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<16x16x32x1x1xf32> into tensor<256x32x1x1xf32>
  %e = tensor.empty() : tensor<2x256x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x256x7x7xf32>) -> tensor<2x256x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x32x7x7xf32>, tensor<256x32x1x1xf32>) outs(%acc : tensor<2x256x7x7xf32>) -> tensor<2x256x7x7xf32>
  return %y : tensor<2x256x7x7xf32>
}

// -----

// CHECK-LABEL: func.func @large_image
// CHECK-NOT: permutation = [0, 2, 1]
// CHECK: linalg.matmul_transpose_a
func.func @large_image(%x: tensor<1x32x14x14xf32>, %panels: tensor<16x1x1x32x16xf32>) -> tensor<1x256x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x16x32x1x1xf32>
  %t = linalg.transpose ins(%panels : tensor<16x1x1x32x16xf32>) outs(%e0 : tensor<16x16x32x1x1xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<16x16x32x1x1xf32> into tensor<256x32x1x1xf32>
  %e = tensor.empty() : tensor<1x256x14x14xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256x14x14xf32>) -> tensor<1x256x14x14xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x14x14xf32>, tensor<256x32x1x1xf32>) outs(%acc : tensor<1x256x14x14xf32>) -> tensor<1x256x14x14xf32>
  return %y : tensor<1x256x14x14xf32>
}

// -----

// A strided 1x1 convolution over 64 channels transposes only the pixels it
// reads ([1, 7, 7, 64] of the 14x14 image) and reads them at unit stride.
// CHECK-LABEL: func.func @strided
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x64x14x14xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 64, 7, 7] [1, 1, 2, 2]
// CHECK: tensor.collapse_shape %[[S]]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x64x49xf32>) outs(%{{.*}} : tensor<1x49x64xf32>) permutation = [0, 2, 1]
// CHECK: %[[PM:.*]] = tensor.expand_shape %{{.*}} : tensor<1x49x64xf32> into tensor<1x7x7x64xf32>
// CHECK: tensor.extract_slice %[[PM]][0, %{{.*}}, 0, 0] [1, 1, 6, 64] [1, 1, 1, 1] : tensor<1x7x7x64xf32> to tensor<6x64xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x64xf32>, tensor<64x16xf32>)
func.func @strided(%x: tensor<1x64x14x14xf32>, %panels: tensor<4x1x1x64x16xf32>) -> tensor<1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16x64x1x1xf32>
  %t = linalg.transpose ins(%panels : tensor<4x1x1x64x16xf32>) outs(%e0 : tensor<4x16x64x1x1xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x16x64x1x1xf32> into tensor<64x64x1x1xf32>
  %e = tensor.empty() : tensor<1x64x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x14x14xf32>, tensor<64x64x1x1xf32>) outs(%acc : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  return %y : tensor<1x64x7x7xf32>
}

// -----

// A 3x3 window over 64 channels on an unpadded 30x30 image (a padded one is
// padded as it is transposed: pad_pixel_major.mlir): the image (57,600
// floats, over the 32K of one chunk) transposed in chunks of 30 pixels (the
// smallest divisor of 900 from 900 / 32 up), a loop for the pool, each chunk
// a [1, 64, 30] -> [1, 30, 64] transpose, so that each thread moves pixels
// it then reads.
// CHECK-LABEL: func.func @window_chunks
// CHECK: scf.for %[[P:[^ ]+]] = %c0 to %c900 step %c30
// CHECK:   tensor.extract_slice %{{.*}}[0, 0, %[[P]]] [1, 64, 30] [1, 1, 1] : tensor<1x64x900xf32> to tensor<1x64x30xf32>
// CHECK:   tensor.extract_slice %{{.*}}[0, %[[P]], 0] [1, 30, 64] [1, 1, 1] : tensor<1x900x64xf32> to tensor<1x30x64xf32>
// CHECK:   linalg.transpose ins(%{{.*}} : tensor<1x64x30xf32>) outs(%{{.*}} : tensor<1x30x64xf32>) permutation = [0, 2, 1]
// CHECK: } {dlc.parallel}
// CHECK: tensor.expand_shape %{{.*}} : tensor<1x900x64xf32> into tensor<1x30x30x64xf32>
func.func @window_chunks(%p: tensor<1x64x30x30xf32>, %panels: tensor<4x3x3x64x16xf32>) -> tensor<1x64x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x16x64x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<4x3x3x64x16xf32>) outs(%e0 : tensor<4x16x64x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x16x64x3x3xf32> into tensor<64x64x3x3xf32>
  %e = tensor.empty() : tensor<1x64x28x28xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x64x30x30xf32>, tensor<64x64x3x3xf32>) outs(%acc : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  return %y : tensor<1x64x28x28xf32>
}
