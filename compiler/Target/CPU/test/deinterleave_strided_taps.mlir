// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg,canonicalize,linalg-fuse-elementwise-ops,canonicalize,dlc-parallelize-loop-nests,dlc-deinterleave-strided-taps,canonicalize))' | FileCheck %s

// A 5x5 window at stride 2 (25 taps): the image's even and odd columns are
// copied out once, into buffers with the zero padding's borders (the even
// columns have one padding column before and after them, the odd ones one
// before: the window reaches image columns -2 to 28), and every tap reads
// them at unit stride along the row (still stride 2 down the columns). Rows
// are whole 64-byte lines and each interior starts on one (the padding
// column before it at 15, 32 floats a row), so that the copy's stores each
// write one line.
// CHECK-LABEL: func.func @depthwise5x5
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x16x28x28xf32>
// CHECK-DAG: %[[EVEN:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 16, 28, 14] [1, 1, 1, 2]
// CHECK-DAG: tensor.empty() : tensor<1x16x32x32xf32>
// CHECK-DAG: %[[E:.*]] = tensor.insert_slice %[[EVEN]] into %{{.*}}[0, 0, 2, 16] [1, 16, 28, 14] [1, 1, 1, 1]
// CHECK-DAG: %[[ODD:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 1] [1, 16, 28, 14] [1, 1, 1, 2]
// CHECK-DAG: %[[O:.*]] = tensor.insert_slice %[[ODD]] into %{{.*}}[0, 0, 2, 16] [1, 16, 28, 14] [1, 1, 1, 1]
// Tap (0, 0) reads image column -2: even padding column 0; tap (0, 1) odd
// column -1 (the odd copy's padding column 0); tap (0, 4) even column 1.
// CHECK: tensor.extract_slice %[[E]][0, 0, 0, 15] [1, 16, 14, 14] [1, 1, 2, 1]
// CHECK: tensor.extract_slice %[[O]][0, 0, 0, 15] [1, 16, 14, 14] [1, 1, 2, 1]
// CHECK: tensor.extract_slice %[[E]][0, 0, 0, 16] [1, 16, 14, 14] [1, 1, 2, 1]
// CHECK-NOT: [1, 1, 2, 2]
// CHECK: linalg.generic
func.func @depthwise5x5(%x: tensor<1x16x28x28xf32>, %w: tensor<16x1x5x5xf32>) -> tensor<1x16x14x14xf32> {
  %y = dlc.conv2d %x, %w {groups = 16 : i64, pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x28x28xf32>, tensor<16x1x5x5xf32>) -> tensor<1x16x14x14xf32>
  return %y : tensor<1x16x14x14xf32>
}

// -----

// A 3x3 max pool with rows of 56 outputs: split too, its borders -inf.
// CHECK-LABEL: func.func @max_pool_wide
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: tensor.empty() : tensor<1x4x114x64xf32>
// CHECK-DAG: tensor.empty() : tensor<1x4x114x80xf32>
// CHECK: linalg.fill ins(%[[NINF]] : f32)
// CHECK-NOT: [1, 1, 2, 2]
// CHECK-DAG: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 4, 56, 56] [1, 1, 2, 1] : tensor<1x4x114x64xf32>
// CHECK-DAG: tensor.extract_slice %{{.*}}[0, 0, 0, 15] [1, 4, 56, 56] [1, 1, 2, 1] : tensor<1x4x114x80xf32>
// CHECK: linalg.generic
func.func @max_pool_wide(%x: tensor<1x4x112x112xf32>) -> tensor<1x4x56x56xf32> {
  %y = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x4x112x112xf32> -> tensor<1x4x56x56xf32>
  return %y : tensor<1x4x56x56xf32>
}

// -----

// 3x3 taps on rows of 14 outputs: the copy would cost more than the
// shuffles it saves (DeinterleaveStridedTaps.cpp); the taps stay strided.
// CHECK-LABEL: func.func @depthwise3x3_narrow
// CHECK-NOT: [1, 1, 1, 2]
// CHECK-COUNT-9: [1, 16, 14, 14] [1, 1, 2, 2]
// CHECK: linalg.generic
func.func @depthwise3x3_narrow(%x: tensor<1x16x28x28xf32>, %w: tensor<16x1x3x3xf32>) -> tensor<1x16x14x14xf32> {
  %y = dlc.conv2d %x, %w {groups = 16 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x28x28xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x14x14xf32>
  return %y : tensor<1x16x14x14xf32>
}
