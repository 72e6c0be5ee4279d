// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg,canonicalize,linalg-fuse-elementwise-ops,canonicalize,dlc-parallelize-loop-nests,dlc-pad-per-chunk))' | FileCheck %s

// A depthwise convolution split into one chunk per channel: each chunk pads
// its own channel's plane, as fills of its four borders and a copy of the
// interior (no fill of the whole buffer), shared by the taps, which become
// slices of it (the centre one folds to the plane itself); the whole-tensor
// pad is gone.
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x32x40x40xf32>
// CHECK-NOT: tensor.pad
// CHECK: scf.for %[[C:[^ ]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:   %[[PLANE:.*]] = tensor.extract_slice %[[X]][0, %[[C]], 0, 0] [1, 1, 40, 40] [1, 1, 1, 1]
// CHECK:   tensor.empty() : tensor<1x1x42x42xf32>
// CHECK:   linalg.fill {{.*}} -> tensor<1x1x1x42xf32>
// CHECK:   linalg.fill {{.*}} -> tensor<1x1x1x42xf32>
// CHECK:   linalg.fill {{.*}} -> tensor<1x1x40x1xf32>
// CHECK:   linalg.fill {{.*}} -> tensor<1x1x40x1xf32>
// CHECK:   %[[P:.*]] = tensor.insert_slice %[[PLANE]] into %{{.*}}[0, 0, 1, 1] [1, 1, 40, 40] [1, 1, 1, 1]
// CHECK:   tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 1, 40, 40] [1, 1, 1, 1]
// CHECK-COUNT-7: tensor.extract_slice %[[P]][0, 0,
// CHECK-NOT: tensor.pad
// CHECK:   linalg.generic
// CHECK: } {dlc.parallel}
func.func @depthwise(%x: tensor<1x32x40x40xf32>, %w: tensor<32x1x3x3xf32>) -> tensor<1x32x40x40xf32> {
  %y = dlc.conv2d %x, %w {groups = 32 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x40x40xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x40x40xf32>
  return %y : tensor<1x32x40x40xf32>
}

// -----

// Max pooling at stride 2: the chunk's taps are strided slices of its own
// padded planes (bordered with -inf).
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for %[[C:[^ ]+]] =
// CHECK:   linalg.fill ins(%[[NINF]] : f32)
// CHECK:   %[[P:.*]] = tensor.insert_slice %{{.*}}[0, 0, 1, 1] [1, 1, 64, 64] [1, 1, 1, 1]
// CHECK:   tensor.extract_slice %[[P]][0, 0, 2, 2] [1, 1, 32, 32] [1, 1, 2, 2]
// CHECK: } {dlc.parallel}
func.func @max_pool(%x: tensor<1x64x64x64xf32>) -> tensor<1x64x32x32xf32> {
  %y = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x64x64x64xf32> -> tensor<1x64x32x32xf32>
  return %y : tensor<1x64x32x32xf32>
}

// -----

// Too small to be split into chunks: the whole-tensor pad stays.
// CHECK-LABEL: func.func @small
// CHECK: tensor.pad
// CHECK-NOT: scf.for
// CHECK: linalg.generic
func.func @small(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %y = dlc.conv2d %x, %w {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}
