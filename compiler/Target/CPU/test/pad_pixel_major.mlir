// A window over 64 channels (windowReadsPixelMajor) reads its image
// pixel-major, and its padding is built that way (padToPixelMajor in
// ConvToMatmul.cpp): the [N, Hp, Wp, C] image's top and bottom rows filled,
// then per row of the unpadded image its side borders (runs of whole pixels)
// and its [C, W] pixels transposed in, the rows a parallel loop. No padded
// NCHW image is made (it cost a copy of every row and a scalar store per
// line of each side border, on one thread).
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul))' | FileCheck %s
// Under 64 channels the image is padded as stored, borders and all.
// RUN: sed -e 's/64x32x30/48x32x30/g; s/64x34x33/48x34x33/g; s/2x3x3x64x32/2x3x3x48x32/g; s/2x32x64x3x3/2x32x48x3x3/g; s/64x64x3x3/64x48x3x3/g' %s | dlc-opt --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul))' | FileCheck %s --check-prefix=NCHW

// CHECK-LABEL: func.func @window_pixel_major
// CHECK-SAME: (%[[X:.*]]: tensor<1x64x32x30xf32>
// CHECK-NOT: tensor<1x64x34x33xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x34x33x64xf32>
// CHECK: %[[TOP:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 1, 33, 64]
// CHECK: linalg.fill {{.*}} outs(%[[TOP]] : tensor<1x1x33x64xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 33, 0, 0] [1, 1, 33, 64]
// CHECK: linalg.fill
// CHECK: scf.for %[[FIRST:.*]] = %c0 to %c32 step %c1
// CHECK: scf.for %[[R:.*]] = %[[FIRST]] to
// CHECK: %[[AT:.*]] = arith.addi %[[R]], %c1
// CHECK: tensor.extract_slice %{{.*}}[0, %[[AT]], 0, 0] [1, 1, 2, 64]
// CHECK: linalg.fill {{.*}} -> tensor<1x1x2x64xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, %[[AT]], 32, 0] [1, 1, 1, 64]
// CHECK: linalg.fill {{.*}} -> tensor<1x1x1x64xf32>
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]][0, 0, %[[R]], 0] [1, 64, 1, 30]
// CHECK: %[[FROM:.*]] = tensor.collapse_shape %[[ROW]] {{\[}}[0], [1], [2, 3]] : tensor<1x64x1x30xf32> into tensor<1x64x30xf32>
// CHECK: %[[INTO:.*]] = tensor.extract_slice %{{.*}}[0, %[[AT]], 2, 0] [1, 1, 30, 64] [1, 1, 1, 1] : tensor<1x34x33x64xf32> to tensor<1x30x64xf32>
// CHECK: linalg.transpose ins(%[[FROM]] : tensor<1x64x30xf32>) outs(%[[INTO]] : tensor<1x30x64xf32>) permutation = [0, 2, 1]
// CHECK: } {dlc.parallel}
// CHECK-NOT: tensor<1x64x34x33xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x32xf32>)
// NCHW-LABEL: func.func @window_pixel_major
// NCHW: tensor.empty() : tensor<1x48x34x33xf32>
// NCHW: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 2] [1, 48, 32, 30]
// NCHW-NOT: linalg.transpose
// NCHW: linalg.matmul_transpose_a
func.func @window_pixel_major(%x: tensor<1x64x32x30xf32>, %panels: tensor<2x3x3x64x32xf32>) -> tensor<1x64x32x31xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x32x64x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<2x3x3x64x32xf32>) outs(%e0 : tensor<2x32x64x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<2x32x64x3x3xf32> into tensor<64x64x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 2] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x32x30xf32> to tensor<1x64x34x33xf32>
  %e = tensor.empty() : tensor<1x64x32x31xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x32x31xf32>) -> tensor<1x64x32x31xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x64x34x33xf32>, tensor<64x64x3x3xf32>) outs(%acc : tensor<1x64x32x31xf32>) -> tensor<1x64x32x31xf32>
  return %y : tensor<1x64x32x31xf32>
}
