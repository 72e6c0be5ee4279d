// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-pack-conv-weights))' --split-input-file --mlir-print-debuginfo | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-pack-conv-weights,dlc-partition-kernels))' --split-input-file | FileCheck %s --check-prefix=KERNEL
// AVX-512's threshold (KernelTiles::stridedIm2colPixels): im2col at every size.
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-pack-conv-weights{strided-im2col-pixels=0}))' --split-input-file | FileCheck %s --check-prefix=ANY

// A stride-1 3x3 convolution with 16 channels and 8 filters on the CPU: its
// constant weight is packed [KH, KW, F, C] and transposed back in front of
// it (named after the convolution); the old constant is gone. The
// transpose joins the convolution's kernel. (A splat stays a splat; the
// data order is checked by passes/unittests/ConstantDataTest.cpp.)
// CHECK-LABEL: func.func @packed
// CHECK: %[[P:.*]] = dlc.constant dense<5.000000e-01> : tensor<3x3x8x16xf32>
// CHECK: %[[T:.*]] = dlc.transpose %[[P]] {perm = array<i64: 2, 3, 0, 1>} : tensor<3x3x8x16xf32> -> tensor<8x16x3x3xf32> loc(#[[NAME:.*]])
// CHECK: dlc.conv2d %{{.*}}, %[[T]]
// CHECK-NOT: tensor<8x16x3x3xf32> loc("conv.w")
// CHECK: #[[NAME]] = loc("/c/Conv/packed_weight")
// KERNEL-LABEL: func.func @packed
// KERNEL-NEXT: dlc.constant
// KERNEL-NEXT: dlc.kernel
// KERNEL-NEXT: dlc.transpose
// KERNEL-NEXT: dlc.conv2d
// KERNEL-NEXT: dlc.relu
// KERNEL-NEXT: dlc.yield
func.func @packed(%x: tensor<1x16x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w = dlc.constant dense<0.5> : tensor<8x16x3x3xf32> loc("conv.w")
  %y = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x6x6xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x6x6xf32> loc("/c/Conv")
  %r = dlc.relu %y : tensor<1x8x6x6xf32>
  return %r : tensor<1x8x6x6xf32>
}

// -----

// 32 filters (stride 1 and stride 2 alike): packed in 32-filter panels,
// [F/32, KH, KW, C, 32], viewed back through a transpose and a reshape that
// both join the convolution's kernel.
// CHECK-LABEL: func.func @panels
// CHECK: %[[P:.*]] = dlc.constant dense<5.000000e-01> : tensor<1x3x3x16x32xf32>
// CHECK: %[[T:.*]] = dlc.transpose %[[P]] {perm = array<i64: 0, 4, 3, 1, 2>} : tensor<1x3x3x16x32xf32> -> tensor<1x32x16x3x3xf32> loc(#[[NAME:.*]])
// CHECK: %[[V:.*]] = dlc.reshape %[[T]] : tensor<1x32x16x3x3xf32> -> tensor<32x16x3x3xf32> loc(#[[VIEW:.*]])
// CHECK: dlc.conv2d %{{.*}}, %[[V]] {{.*}}strides = array<i64: 2, 2>
// CHECK: #[[NAME]] = loc("/s/Conv/packed_weight")
// CHECK: #[[VIEW]] = loc("/s/Conv/packed_weight/view")
// KERNEL-LABEL: func.func @panels
// KERNEL-NEXT: dlc.constant
// KERNEL-NEXT: dlc.kernel
// KERNEL-NEXT: dlc.transpose
// KERNEL-NEXT: dlc.reshape
// KERNEL-NEXT: dlc.conv2d
func.func @panels(%x: tensor<1x16x6x6xf32>) -> tensor<1x32x3x3xf32> {
  %w = dlc.constant dense<0.5> : tensor<32x16x3x3xf32>
  %y = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x6x6xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x3x3xf32> loc("/s/Conv")
  return %y : tensor<1x32x3x3xf32>
}

// -----

// 1x1 convolutions with 32 or more channels: packed when the output is
// ragged (7x7 = 49 pixels) or strided; a 4x4 stride-1 one (16 pixels) stays a
// plain matmul on the image, as does one with 16 channels.
// CHECK-LABEL: func.func @pointwise
// CHECK: dlc.constant dense<5.000000e-01> : tensor<1x1x1x32x32xf32>
// CHECK: dlc.conv2d %{{.*}} : (tensor<1x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x7x7xf32>
// CHECK: dlc.constant dense<5.000000e-01> : tensor<1x1x1x32x32xf32>
// CHECK: dlc.conv2d %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x4x4xf32>
// CHECK-NOT: dlc.transpose
// CHECK: return
func.func @pointwise(%x: tensor<1x32x7x7xf32>, %x4: tensor<1x32x4x4xf32>, %x16: tensor<1x16x7x7xf32>) -> (tensor<1x32x7x7xf32>, tensor<1x32x4x4xf32>, tensor<1x32x4x4xf32>, tensor<1x32x7x7xf32>) {
  %w = dlc.constant dense<0.5> : tensor<32x32x1x1xf32>
  %w16 = dlc.constant dense<0.5> : tensor<32x16x1x1xf32>
  %0 = dlc.conv2d %x, %w : (tensor<1x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x7x7xf32>
  %1 = dlc.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x4x4xf32>
  %2 = dlc.conv2d %x4, %w : (tensor<1x32x4x4xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x4x4xf32>
  %3 = dlc.conv2d %x16, %w16 : (tensor<1x16x7x7xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x7x7xf32>
  return %0, %1, %2, %3 : tensor<1x32x7x7xf32>, tensor<1x32x4x4xf32>, tensor<1x32x4x4xf32>, tensor<1x32x7x7xf32>
}

// -----

// A strided 1x1 convolution over 64 channels and 784 output pixels is left
// to im2col and one matmul (ConvStrategy.h); with 196 output pixels, or 32
// channels, it is packed.
// CHECK-LABEL: func.func @strided_pointwise_wide
// CHECK: dlc.constant dense<5.000000e-01> : tensor<32x64x1x1xf32>
// CHECK-NEXT: dlc.conv2d {{.*}} -> tensor<1x32x28x28xf32>
// CHECK: dlc.constant dense<5.000000e-01> : tensor<1x1x1x256x32xf32>
// CHECK: dlc.conv2d {{.*}} -> tensor<1x32x14x14xf32>
// CHECK: dlc.constant dense<5.000000e-01> : tensor<1x1x1x32x32xf32>
// CHECK: dlc.conv2d {{.*}} -> tensor<1x32x28x28xf32>
// ANY-LABEL: func.func @strided_pointwise_wide
// ANY: dlc.constant dense<5.000000e-01> : tensor<32x64x1x1xf32>
// ANY-NEXT: dlc.conv2d {{.*}} -> tensor<1x32x28x28xf32>
// ANY: dlc.constant dense<5.000000e-01> : tensor<32x256x1x1xf32>
// ANY-NEXT: dlc.conv2d {{.*}} -> tensor<1x32x14x14xf32>
// ANY: dlc.constant dense<5.000000e-01> : tensor<1x1x1x32x32xf32>
func.func @strided_pointwise_wide(%x: tensor<1x64x56x56xf32>, %x28: tensor<1x256x28x28xf32>, %x32: tensor<1x32x56x56xf32>) -> (tensor<1x32x28x28xf32>, tensor<1x32x14x14xf32>, tensor<1x32x28x28xf32>) {
  %w = dlc.constant dense<0.5> : tensor<32x64x1x1xf32>
  %0 = dlc.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x64x56x56xf32>, tensor<32x64x1x1xf32>) -> tensor<1x32x28x28xf32>
  %w2 = dlc.constant dense<0.5> : tensor<32x256x1x1xf32>
  %1 = dlc.conv2d %x28, %w2 {strides = array<i64: 2, 2>} : (tensor<1x256x28x28xf32>, tensor<32x256x1x1xf32>) -> tensor<1x32x14x14xf32>
  %w3 = dlc.constant dense<0.5> : tensor<32x32x1x1xf32>
  %2 = dlc.conv2d %x32, %w3 {strides = array<i64: 2, 2>} : (tensor<1x32x56x56xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x28x28xf32>
  return %0, %1, %2 : tensor<1x32x28x28xf32>, tensor<1x32x14x14xf32>, tensor<1x32x28x28xf32>
}

// -----

// Left alone: a GPU convolution, a strided one with 8 filters, one with too
// few channels, one whose filter count is not a multiple of 8, a 1x1, and a
// weight that is an input.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: dlc.transpose
// CHECK: return
func.func @unchanged(%x: tensor<1x16x6x6xf32>, %x8: tensor<1x8x6x6xf32>, %win: tensor<8x16x3x3xf32>) -> (tensor<1x8x6x6xf32>, tensor<1x8x3x3xf32>, tensor<1x8x6x6xf32>, tensor<1x12x6x6xf32>, tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) {
  %w = dlc.constant dense<0.5> : tensor<8x16x3x3xf32>
  %w8 = dlc.constant dense<0.5> : tensor<8x8x3x3xf32>
  %w12 = dlc.constant dense<0.5> : tensor<12x16x3x3xf32>
  %w1 = dlc.constant dense<0.5> : tensor<8x16x1x1xf32>
  %0 = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, device = #dlc.device<cuda:0>} : (tensor<1x16x6x6xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = dlc.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x6x6xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x3x3xf32>
  %2 = dlc.conv2d %x8, %w8 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %3 = dlc.conv2d %x, %w12 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x6x6xf32>, tensor<12x16x3x3xf32>) -> tensor<1x12x6x6xf32>
  %4 = dlc.conv2d %x, %w1 : (tensor<1x16x6x6xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x6x6xf32>
  %5 = dlc.conv2d %x, %win {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x6x6xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x8x6x6xf32>, tensor<1x8x3x3xf32>, tensor<1x8x6x6xf32>, tensor<1x12x6x6xf32>, tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>
}
