// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul))' | FileCheck %s

// A strided 3x3 convolution over 2 images: per image, im2col of the windows
// (affine reads at oh*2+kh, ow*2+kw) and one F x (C*KH*KW) by
// (C*KH*KW) x (OH*OW) matmul into that image's rows of the output.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3 * 2 + d1, d4 * 2 + d2)>
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x9x9xf32>, %[[W:.*]]: tensor<5x3x3x3xf32>, %[[ACC:.*]]: tensor<2x5x4x4xf32>)
// CHECK: %[[W2:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<5x3x3x3xf32> into tensor<5x27xf32>
// CHECK: %[[LOOP:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (tensor<2x5x4x4xf32>)
// CHECK:   %[[IMG:.*]] = tensor.extract_slice %[[X]][%[[N]], 0, 0, 0] [1, 3, 9, 9] [1, 1, 1, 1] : tensor<2x3x9x9xf32> to tensor<3x9x9xf32>
// CHECK:   %[[COL:.*]] = linalg.generic {indexing_maps = [#[[READ]], {{.*}}]{{.*}} ins(%[[IMG]] : tensor<3x9x9xf32>) outs(%{{.*}} : tensor<3x3x3x4x4xf32>)
// CHECK:   %[[COL2:.*]] = tensor.collapse_shape %[[COL]] {{.*}} into tensor<27x16xf32>
// CHECK:   %[[PLANE:.*]] = tensor.extract_slice %[[A]][%[[N]], 0, 0, 0] [1, 5, 4, 4] [1, 1, 1, 1] : tensor<2x5x4x4xf32> to tensor<5x4x4xf32>
// CHECK:   %[[ROWS:.*]] = tensor.collapse_shape %[[PLANE]] {{\[}}[0], [1, 2]] : tensor<5x4x4xf32> into tensor<5x16xf32>
// CHECK:   %[[MM:.*]] = linalg.matmul ins(%[[W2]], %[[COL2]] : tensor<5x27xf32>, tensor<27x16xf32>) outs(%[[ROWS]] : tensor<5x16xf32>)
// CHECK:   %[[BACK:.*]] = tensor.expand_shape %[[MM]] {{\[}}[0], [1, 2]] {{.*}} : tensor<5x16xf32> into tensor<5x4x4xf32>
// CHECK:   tensor.insert_slice %[[BACK]] into %[[A]][%[[N]], 0, 0, 0] [1, 5, 4, 4] [1, 1, 1, 1]
// The accumulator keeps its NCHW type: no reshape between it and the result.
// CHECK: return %[[LOOP]] : tensor<2x5x4x4xf32>
func.func @conv(%x: tensor<2x3x9x9xf32>, %w: tensor<5x3x3x3xf32>, %acc: tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x9x9xf32>, tensor<5x3x3x3xf32>) outs(%acc : tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32>
  return %y : tensor<2x5x4x4xf32>
}

// A ragged OH*OW (7x7 = 49 columns): Col and the output rows are widened with
// zero columns to 64 (a multiple of 16, so no register tile is ragged), and
// the 49 real columns of the product are sliced back.
// CHECK-LABEL: func.func @ragged
// CHECK:   %[[COL:.*]] = tensor.collapse_shape %{{.*}} into tensor<27x49xf32>
// CHECK:   %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} into tensor<5x49xf32>
// CHECK:   %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<27x64xf32>)
// CHECK:   %[[WCOL:.*]] = tensor.insert_slice %[[COL]] into %[[Z1]][0, 0] [27, 49] [1, 1]
// CHECK:   %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x64xf32>)
// CHECK:   %[[WROWS:.*]] = tensor.insert_slice %[[ROWS]] into %[[Z2]][0, 0] [5, 49] [1, 1]
// CHECK:   %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %[[WCOL]] : tensor<5x27xf32>, tensor<27x64xf32>) outs(%[[WROWS]] : tensor<5x64xf32>)
// CHECK:   %[[BACK:.*]] = tensor.extract_slice %[[MM]][0, 0] [5, 49] [1, 1] : tensor<5x64xf32> to tensor<5x49xf32>
// CHECK:   %[[PLANE:.*]] = tensor.expand_shape %[[BACK]] {{\[}}[0], [1, 2]] {{.*}} : tensor<5x49xf32> into tensor<5x7x7xf32>
// CHECK:   tensor.insert_slice %[[PLANE]] into
func.func @ragged(%x: tensor<1x3x9x9xf32>, %w: tensor<5x3x3x3xf32>, %acc: tensor<1x5x7x7xf32>) -> tensor<1x5x7x7xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x9xf32>, tensor<5x3x3x3xf32>) outs(%acc : tensor<1x5x7x7xf32>) -> tensor<1x5x7x7xf32>
  return %y : tensor<1x5x7x7xf32>
}

// A 1x1 stride-1 convolution: Col is the image collapsed to C x H*W (no
// im2col generic, no copy).
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: linalg.generic
// CHECK:   %[[IMG:.*]] = tensor.extract_slice %{{.*}} to tensor<3x4x8xf32>
// CHECK:   %[[COL:.*]] = tensor.collapse_shape %[[IMG]] {{\[}}[0], [1, 2]] : tensor<3x4x8xf32> into tensor<3x32xf32>
// CHECK:   linalg.matmul ins(%{{.*}}, %[[COL]] : tensor<5x3xf32>, tensor<3x32xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @pointwise(%x: tensor<1x3x4x8xf32>, %w: tensor<5x3x1x1xf32>, %acc: tensor<1x5x4x8xf32>) -> tensor<1x5x4x8xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x4x8xf32>, tensor<5x3x1x1xf32>) outs(%acc : tensor<1x5x4x8xf32>) -> tensor<1x5x4x8xf32>
  return %y : tensor<1x5x4x8xf32>
}

// A zero-filled accumulator (as the conv2d lowering makes): the widened rows
// are a fill of zeros, without copying the zeros of the real columns in.
// CHECK-LABEL: func.func @ragged_zero_init
// CHECK:   linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<27x64xf32>)
// CHECK:   %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x64xf32>)
// CHECK-NOT: tensor.insert_slice %{{.*}} into %[[Z2]]
// CHECK:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<5x27xf32>, tensor<27x64xf32>) outs(%[[Z2]] : tensor<5x64xf32>)
func.func @ragged_zero_init(%x: tensor<1x3x9x9xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<1x5x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x7x7xf32>) -> tensor<1x5x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x9xf32>, tensor<5x3x3x3xf32>) outs(%acc : tensor<1x5x7x7xf32>) -> tensor<1x5x7x7xf32>
  return %y : tensor<1x5x7x7xf32>
}

// A stride-1 3x3 convolution with 16 channels and 8 filters over a padded
// 6x6 image (Hp = Wp = 8, OH = OW = 6): no im2col. On the image flattened per
// channel, tap (kh, kw) reads columns kh*8 + kw + j, so each tap is a 16 x 48
// view (Npad = OH*Wp = 48) and one matmul accumulates into the 8 x 48 result
// on the padded width. The zero padding gains a row at the bottom (the last
// tap reads 2 floats past the 8x8 image), and the 6 real columns of each row
// are sliced back.
// CHECK-LABEL: func.func @shifted
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x6x6xf32>, %[[W:.*]]: tensor<8x16x3x3xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8x6x6xf32>
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 2, 1]
// CHECK: tensor<2x16x6x6xf32> to tensor<2x16x9x8xf32>
// CHECK: scf.for %[[N:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[E]])
// CHECK:   %[[IMG:.*]] = tensor.extract_slice %[[PAD]][%[[N]], 0, 0, 0] [1, 16, 9, 8]
// CHECK:   %[[FLAT:.*]] = tensor.collapse_shape %[[IMG]] {{\[}}[0], [1, 2]] : tensor<16x9x8xf32> into tensor<16x72xf32>
// CHECK:   %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x48xf32>)
// CHECK:   %[[TAPS:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[WIDE:.*]] = %[[Z]])
// CHECK:     %[[KH:.*]] = arith.divui %[[T]], %{{.*}}
// CHECK:     %[[KW:.*]] = arith.remui %[[T]], %{{.*}}
// CHECK:     %[[A:.*]] = tensor.extract_slice %[[W]][0, 0, %[[KH]], %[[KW]]] [8, 16, 1, 1] [1, 1, 1, 1] : tensor<8x16x3x3xf32> to tensor<8x16xf32>
// CHECK:     %[[B:.*]] = tensor.extract_slice %[[FLAT]][0, %{{.*}}] [16, 48] [1, 1] : tensor<16x72xf32> to tensor<16x48xf32>
// CHECK:     linalg.matmul ins(%[[A]], %[[B]] : tensor<8x16xf32>, tensor<16x48xf32>) outs(%[[WIDE]] : tensor<8x48xf32>)
// CHECK:   %[[GRID:.*]] = tensor.expand_shape %[[TAPS]] {{\[}}[0], [1, 2]] {{.*}} : tensor<8x48xf32> into tensor<8x6x8xf32>
// CHECK:   %[[REAL:.*]] = tensor.extract_slice %[[GRID]][0, 0, 0] [8, 6, 6] [1, 1, 1] : tensor<8x6x8xf32> to tensor<8x6x6xf32>
// CHECK:   tensor.insert_slice %[[REAL]] into %[[ACC]][%[[N]], 0, 0, 0] [1, 8, 6, 6]
// CHECK-NOT: linalg.conv_2d
func.func @shifted(%x: tensor<2x16x6x6xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<2x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x16x6x6xf32> to tensor<2x16x8x8xf32>
  %e = tensor.empty() : tensor<2x8x6x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x16x8x8xf32>, tensor<8x16x3x3xf32>) outs(%acc : tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32>
  return %y : tensor<2x8x6x6xf32>
}

// A convolution whose weight PackConvWeights stored in 32-filter panels
// ([F/32, KH, KW, C, 32] behind a transpose and a collapse) runs on rows of
// output pixels: for each panel of 32 filters and output row, 8-pixel
// register tiles (then the 3 left over of 11), each reduced over both taps
// loops by a C x T (strided: stride 2 reads every other column) by C x 32
// matmul_transpose_a, and written back transposed into the NCHW output.
// With 2 panels the pool's loop runs over pieces (chunk of rows, panel),
// rows-major: here 5 chunks of one row times 2 panels.
// CHECK-LABEL: func.func @pixel_rows
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x11x23xf32>, %[[P:.*]]: tensor<2x3x3x3x32xf32>)
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x64x5x11xf32>
// CHECK: scf.for %[[N:.*]] = {{.*}} iter_args(%[[A0:.*]] = %[[E]])
// CHECK:   scf.for %[[PC:.*]] = %{{.*}} to %[[C10]] step %{{.*}} iter_args(%[[A1:.*]] = %[[A0]])
// CHECK:     %[[PANEL:.*]] = arith.remui %[[PC]], %[[C2]]
// CHECK:     %[[CHUNK:.*]] = arith.divui %[[PC]], %[[C2]]
// CHECK:     %[[J:.*]] = arith.muli %[[PANEL]], %[[C32]]
// CHECK:     scf.for %[[OH:.*]] = %[[CHUNK]] to %{{.*}} step %{{.*}} iter_args(%[[A2:.*]] = %[[A1]])
// CHECK:       scf.for %[[OW:.*]] = {{.*}} iter_args(%[[A3:.*]] = %[[A2]])
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x32xf32>)
// CHECK:         scf.for %[[KH:.*]] = {{.*}} iter_args(%[[T0:.*]] = %[[Z]])
// CHECK:           scf.for %[[KW:.*]] = {{.*}} iter_args(%[[T1:.*]] = %[[T0]])
// CHECK:             %[[A:.*]] = tensor.extract_slice %[[X]][%[[N]], 0, %{{.*}}, %{{.*}}] [1, 3, 1, 8] [1, 1, 1, 2] : tensor<1x3x11x23xf32> to tensor<3x8xf32>
// CHECK:             %[[B:.*]] = tensor.extract_slice %[[P]][%{{.*}}, %[[KH]], %[[KW]], 0, 0] [1, 1, 1, 3, 32] [1, 1, 1, 1, 1] : tensor<2x3x3x3x32xf32> to tensor<3x32xf32>
// CHECK:             linalg.matmul_transpose_a ins(%[[A]], %[[B]] : tensor<3x8xf32>, tensor<3x32xf32>) outs(%[[T1]] : tensor<8x32xf32>)
// CHECK:         %[[D:.*]] = tensor.extract_slice %[[A3]][%[[N]], %[[J]], %[[OH]], %[[OW]]] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<1x64x5x11xf32> to tensor<32x8xf32>
// CHECK:         %[[TR:.*]] = linalg.transpose ins(%{{.*}} : tensor<8x32xf32>) outs(%[[D]] : tensor<32x8xf32>) permutation = [1, 0]
// CHECK:         tensor.insert_slice %[[TR]] into %[[A3]]
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x32xf32>)
// CHECK:       linalg.matmul_transpose_a ins(%{{.*}}, %{{.*}} : tensor<3x3xf32>, tensor<3x32xf32>) outs(%{{.*}} : tensor<3x32xf32>)
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<3x32xf32>) outs(%{{.*}} : tensor<32x3xf32>) permutation = [1, 0]
// CHECK:     } {dlc.parallel}
// CHECK-NOT: linalg.conv_2d
func.func @pixel_rows(%x: tensor<1x3x11x23xf32>, %panels: tensor<2x3x3x3x32xf32>) -> tensor<1x64x5x11xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x32x3x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<2x3x3x3x32xf32>) outs(%e0 : tensor<2x32x3x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<2x32x3x3x3xf32> into tensor<64x3x3x3xf32>
  %e = tensor.empty() : tensor<1x64x5x11xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x5x11xf32>) -> tensor<1x64x5x11xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x11x23xf32>, tensor<64x3x3x3xf32>) outs(%acc : tensor<1x64x5x11xf32>) -> tensor<1x64x5x11xf32>
  return %y : tensor<1x64x5x11xf32>
}

// An epilogue that updates the convolution's result in place (bias and ReLU,
// as ReuseProducerBuffer leaves it) runs on each tile after its write-back,
// on the tile's 32 x 1 x T region, with the bias sliced to the tile's
// filters; no pass over the whole output follows.
// CHECK-LABEL: func.func @pixel_rows_epilogue
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x10x10xf32>, %[[P:.*]]: tensor<1x3x3x3x32xf32>, %[[BIAS:.*]]: tensor<32xf32>)
// CHECK:     scf.for %[[N:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:       scf.for %[[J:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:         scf.for %[[OH:[^ ]+]] =
// CHECK:           linalg.transpose
// CHECK:           %[[ACC:.*]] = tensor.insert_slice
// CHECK:           %[[REGION:.*]] = tensor.extract_slice %[[ACC]][%{{.*}}, %[[J]], %[[OH]], %{{.*}}] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<1x32x8x8xf32> to tensor<1x32x1x8xf32>
// CHECK:           %[[B:.*]] = tensor.extract_slice %[[BIAS]][%[[J]]] [32] [1] : tensor<32xf32> to tensor<32xf32>
// CHECK:           %[[E:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<32xf32>) outs(%[[REGION]] : tensor<1x32x1x8xf32>)
// CHECK:             arith.addf
// CHECK:             arith.maximumf
// CHECK:           tensor.insert_slice %[[E]] into %[[ACC]][%{{.*}}, %[[J]], %[[OH]], %{{.*}}] [1, 32, 1, 8]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @pixel_rows_epilogue(%x: tensor<1x3x10x10xf32>, %panels: tensor<1x3x3x3x32xf32>, %bias: tensor<32xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x32x3x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<1x3x3x3x32xf32>) outs(%e0 : tensor<1x32x3x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<1x32x3x3x3xf32> into tensor<32x3x3x3xf32>
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<32x3x3x3xf32>) outs(%acc : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<32xf32>) outs(%y : tensor<1x32x8x8xf32>) {
  ^bb0(%b: f32, %v: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}

// A 1x1 stride-1 convolution on pixel rows (a ragged 7x7 image, 4 panels)
// runs on its image seen as one row of 49 pixels: 6 tiles of 8 and one of
// 1, no loop over output rows; its residual epilogue reads the residual
// flattened the same way, and the result is seen as 7x7 again.
// CHECK-LABEL: func.func @pointwise_rows
// CHECK-SAME: (%[[X:.*]]: tensor<1x32x7x7xf32>, %[[P:.*]]: tensor<4x1x1x32x32xf32>, %[[R:.*]]: tensor<1x128x7x7xf32>)
// CHECK: %[[XC:.*]] = tensor.collapse_shape %[[X]]
// CHECK: %[[XF:.*]] = tensor.expand_shape %[[XC]] {{.*}} : tensor<1x32x49xf32> into tensor<1x32x1x49xf32>
// CHECK: %[[RC:.*]] = tensor.collapse_shape %[[R]]
// CHECK: %[[RF:.*]] = tensor.expand_shape %[[RC]] {{.*}} : tensor<1x128x49xf32> into tensor<1x128x1x49xf32>
// CHECK-NOT: to %c7
// CHECK: scf.for %[[OW:[^ ]+]] = %c0 to %c48 step %c8
// CHECK: tensor.extract_slice %[[XF]][%{{.*}}, 0, %{{.*}}, %{{.*}}] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<1x32x1x49xf32> to tensor<32x8xf32>
// CHECK: tensor.extract_slice %[[RF]][%{{.*}}, %{{.*}}, %{{.*}}, %[[OW]]] [1, 32, 1, 8]
// CHECK: linalg.generic
// CHECK: tensor.extract_slice %[[XF]][%{{.*}}, 0, %{{.*}}, %{{.*}}] [1, 32, 1, 1]
// CHECK: } {dlc.parallel}
// CHECK: %[[BACK:.*]] = tensor.expand_shape %{{.*}} : tensor<1x128x49xf32> into tensor<1x128x7x7xf32>
// CHECK-NOT: to %c7
// CHECK: return %[[BACK]]
func.func @pointwise_rows(%x: tensor<1x32x7x7xf32>, %panels: tensor<4x1x1x32x32xf32>, %res: tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x32x32x1x1xf32>
  %t = linalg.transpose ins(%panels : tensor<4x1x1x32x32xf32>) outs(%e0 : tensor<4x32x32x1x1xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<4x32x32x1x1xf32> into tensor<128x32x1x1xf32>
  %e = tensor.empty() : tensor<1x128x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x7x7xf32>, tensor<128x32x1x1xf32>) outs(%acc : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%res : tensor<1x128x7x7xf32>) outs(%y : tensor<1x128x7x7xf32>) {
  ^bb0(%q: f32, %v: f32):
    %s = arith.addf %v, %q : f32
    linalg.yield %s : f32
  } -> tensor<1x128x7x7xf32>
  return %r : tensor<1x128x7x7xf32>
}

// The im2col path takes an in-place epilogue into its image loop, on the
// matmul's [F, H*W] rows (where TileAndVectorize fuses it into the register
// tiles): a residual is read as this image's plane, collapsed to rows, and
// the loop goes where the epilogue was, since the residual is computed after
// the convolution.
// CHECK-LABEL: func.func @im2col_epilogue
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x8xf32>, %[[W:.*]]: tensor<5x3x1x1xf32>, %[[R:.*]]: tensor<2x5x4x8xf32>)
// CHECK: %[[RES:.*]] = math.exp %[[R]]
// CHECK: scf.for %[[N:[^ ]+]] =
// CHECK:   %[[MM:.*]] = linalg.matmul
// CHECK:   %[[PLANE:.*]] = tensor.extract_slice %[[RES]][%[[N]], 0, 0, 0] [1, 5, 4, 8] [1, 1, 1, 1] : tensor<2x5x4x8xf32> to tensor<5x4x8xf32>
// CHECK:   %[[ROWS:.*]] = tensor.collapse_shape %[[PLANE]] {{\[}}[0], [1, 2]] : tensor<5x4x8xf32> into tensor<5x32xf32>
// CHECK:   linalg.generic {{.*}} ins(%[[ROWS]] : tensor<5x32xf32>) outs(%[[MM]] : tensor<5x32xf32>)
// CHECK:     arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @im2col_epilogue(%x: tensor<2x3x4x8xf32>, %w: tensor<5x3x1x1xf32>, %r: tensor<2x5x4x8xf32>) -> tensor<2x5x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x4x8xf32>) -> tensor<2x5x4x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x4x8xf32>, tensor<5x3x1x1xf32>) outs(%acc : tensor<2x5x4x8xf32>) -> tensor<2x5x4x8xf32>
  %res = math.exp %r : tensor<2x5x4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%res : tensor<2x5x4x8xf32>) outs(%y : tensor<2x5x4x8xf32>) {
  ^bb0(%a: f32, %v: f32):
    %s = arith.addf %v, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x5x4x8xf32>
  return %sum : tensor<2x5x4x8xf32>
}

// Two convolutions in one kernel (PartitionKernels chains a padded one after
// the op computing its image): the second's padded buffer and its border
// fills come first in the function, before the first convolution's loops,
// and the first's result is inserted into its interior, so that empty-tensor
// elimination can have the first write the interior itself (no copy).
// CHECK-LABEL: func.func @chained
// CHECK: %[[PADDED:.*]] = tensor.empty() : tensor<1x32x10x10xf32>
// CHECK-COUNT-4: linalg.fill
// CHECK: %[[FIRST:.*]] = scf.for
// CHECK: tensor.insert_slice %[[FIRST]] into %{{.*}}[0, 0, 1, 1] [1, 32, 8, 8] [1, 1, 1, 1] : tensor<1x32x8x8xf32> into tensor<1x32x10x10xf32>
// CHECK: scf.for
func.func @chained(%x: tensor<1x3x10x10xf32>, %panels: tensor<1x3x3x3x32xf32>, %panels2: tensor<1x3x3x32x32xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x32x3x3x3xf32>
  %t = linalg.transpose ins(%panels : tensor<1x3x3x3x32xf32>) outs(%e0 : tensor<1x32x3x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<1x32x3x3x3xf32> into tensor<32x3x3x3xf32>
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<32x3x3x3xf32>) outs(%acc : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %p = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x32x8x8xf32> to tensor<1x32x10x10xf32>
  %e2 = tensor.empty() : tensor<1x32x32x3x3xf32>
  %t2 = linalg.transpose ins(%panels2 : tensor<1x3x3x32x32xf32>) outs(%e2 : tensor<1x32x32x3x3xf32>) permutation = [0, 4, 3, 1, 2]
  %w2 = tensor.collapse_shape %t2 [[0, 1], [2], [3], [4]] : tensor<1x32x32x3x3xf32> into tensor<32x32x3x3xf32>
  %e3 = tensor.empty() : tensor<1x32x8x8xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %y2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w2 : tensor<1x32x10x10xf32>, tensor<32x32x3x3xf32>) outs(%acc2 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %y2 : tensor<1x32x8x8xf32>
}

// A zero-filled accumulator (what the conv2d lowering makes): the zeros are
// filled per image on the matmul's rows, where TileAndVectorize fuses the fill
// into the register tiles, and the loop carries the empty tensor under the
// fill, so the output is never zeroed in memory first.
// CHECK-LABEL: func.func @zero_filled
// CHECK:   %[[EMPTY:.*]] = tensor.empty() : tensor<2x5x4x8xf32>
// CHECK-NOT: linalg.fill
// CHECK:   scf.for %[[N:.*]] = %{{.*}} iter_args(%[[A:.*]] = %[[EMPTY]]) -> (tensor<2x5x4x8xf32>)
// CHECK:     %[[PLANE:.*]] = tensor.extract_slice %[[A]][%[[N]], 0, 0, 0] [1, 5, 4, 8]
// CHECK:     %[[ROWS:.*]] = tensor.collapse_shape %[[PLANE]] {{.*}} into tensor<5x32xf32>
// CHECK:     %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ROWS]] : tensor<5x32xf32>)
// CHECK:     linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<5x3xf32>, tensor<3x32xf32>) outs(%[[ZEROS]] : tensor<5x32xf32>)
func.func @zero_filled(%x: tensor<2x3x4x8xf32>, %w: tensor<5x3x1x1xf32>) -> tensor<2x5x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x5x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x5x4x8xf32>) -> tensor<2x5x4x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x4x8xf32>, tensor<5x3x1x1xf32>) outs(%acc : tensor<2x5x4x8xf32>) -> tensor<2x5x4x8xf32>
  return %y : tensor<2x5x4x8xf32>
}
