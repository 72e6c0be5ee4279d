// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-conv-to-matmul))' | FileCheck %s

// A strided 3x3 convolution over 2 images: per image, im2col of the windows
// (affine reads at oh*2+kh, ow*2+kw) and one F x (C*KH*KW) by
// (C*KH*KW) x (OH*OW) matmul into that image's rows of the output.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3 * 2 + d1, d4 * 2 + d2)>
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x9x9xf32>, %[[W:.*]]: tensor<5x3x3x3xf32>, %[[ACC:.*]]: tensor<2x5x4x4xf32>)
// CHECK: %[[W2:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<5x3x3x3xf32> into tensor<5x27xf32>
// CHECK: %[[A3:.*]] = tensor.collapse_shape %[[ACC]] {{\[}}[0], [1], [2, 3]] : tensor<2x5x4x4xf32> into tensor<2x5x16xf32>
// CHECK: %[[LOOP:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[A3]])
// CHECK:   %[[IMG:.*]] = tensor.extract_slice %[[X]][%[[N]], 0, 0, 0] [1, 3, 9, 9] [1, 1, 1, 1] : tensor<2x3x9x9xf32> to tensor<3x9x9xf32>
// CHECK:   %[[COL:.*]] = linalg.generic {indexing_maps = [#[[READ]], {{.*}}]{{.*}} ins(%[[IMG]] : tensor<3x9x9xf32>) outs(%{{.*}} : tensor<3x3x3x4x4xf32>)
// CHECK:   %[[COL2:.*]] = tensor.collapse_shape %[[COL]] {{.*}} into tensor<27x16xf32>
// CHECK:   %[[ROWS:.*]] = tensor.extract_slice %[[A]][%[[N]], 0, 0] [1, 5, 16] [1, 1, 1] : tensor<2x5x16xf32> to tensor<5x16xf32>
// CHECK:   %[[MM:.*]] = linalg.matmul ins(%[[W2]], %[[COL2]] : tensor<5x27xf32>, tensor<27x16xf32>) outs(%[[ROWS]] : tensor<5x16xf32>)
// CHECK:   tensor.insert_slice %[[MM]] into %[[A]][%[[N]], 0, 0] [1, 5, 16] [1, 1, 1]
// CHECK: tensor.expand_shape %[[LOOP]] {{\[}}[0], [1], [2, 3]]{{.*}} : tensor<2x5x16xf32> into tensor<2x5x4x4xf32>
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
// CHECK:   %[[ROWS:.*]] = tensor.extract_slice %{{.*}} to tensor<5x49xf32>
// CHECK:   %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<27x64xf32>)
// CHECK:   %[[WCOL:.*]] = tensor.insert_slice %[[COL]] into %[[Z1]][0, 0] [27, 49] [1, 1]
// CHECK:   %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x64xf32>)
// CHECK:   %[[WROWS:.*]] = tensor.insert_slice %[[ROWS]] into %[[Z2]][0, 0] [5, 49] [1, 1]
// CHECK:   %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %[[WCOL]] : tensor<5x27xf32>, tensor<27x64xf32>) outs(%[[WROWS]] : tensor<5x64xf32>)
// CHECK:   %[[BACK:.*]] = tensor.extract_slice %[[MM]][0, 0] [5, 49] [1, 1] : tensor<5x64xf32> to tensor<5x49xf32>
// CHECK:   tensor.insert_slice %[[BACK]] into
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
