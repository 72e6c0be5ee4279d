// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-linear-to-matmul))' --split-input-file | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-linear-to-matmul,dlc-partition-kernels))' --split-input-file | FileCheck %s --check-prefix=KERNEL

// A 3-D input: flattened to 2-D, matmul with the transposed constant, bias
// add, reshaped back. The weight [[1,2,3],[4,5,6]] becomes [[1,4],[2,5],[3,6]].
// CHECK-LABEL: func.func @rank3
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x3xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[X2:.*]] = dlc.reshape %[[X]] : tensor<2x4x3xf32> -> tensor<8x3xf32>
// CHECK-DAG: %[[WT:.*]] = dlc.constant dense_resource<fc.weight.T> : tensor<3x2xf32>
// CHECK: %[[M:.*]] = dlc.matmul %[[X2]], %[[WT]] : (tensor<8x3xf32>, tensor<3x2xf32>) -> tensor<8x2xf32>
// CHECK: %[[A:.*]] = dlc.add %[[M]], %[[B]] : (tensor<8x2xf32>, tensor<2xf32>) -> tensor<8x2xf32>
// CHECK: %[[Y:.*]] = dlc.reshape %[[A]] : tensor<8x2xf32> -> tensor<2x4x2xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: dlc.linear
// 64-byte alignment, then 1 4 2 5 3 6 as little-endian f32.
// CHECK: fc.weight.T: "0x400000000000803F00008040000000400000A040000040400000C040"
func.func @rank3(%x: tensor<2x4x3xf32>, %b: tensor<2xf32>) -> tensor<2x4x2xf32> {
  %w = dlc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> loc("fc.weight")
  %y = dlc.linear %x, %w, %b : (tensor<2x4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x4x2xf32>
  return %y : tensor<2x4x2xf32>
}

// -----

// 2-D input, no bias, a pin: no reshapes, the pin kept.
// CHECK-LABEL: func.func @pinned_2d
// CHECK: %[[M:.*]] = dlc.matmul %{{.*}}, %{{.*}} {device = #dlc.device<cuda:0>} : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: return %[[M]]
func.func @pinned_2d(%x: tensor<5x4xf32>) -> tensor<5x3xf32> {
  %w = dlc.constant dense<0.5> : tensor<3x4xf32>
  %y = dlc.linear %x, %w {device = #dlc.device<cuda:0>} : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

// A weight that is an input is left alone.
// CHECK-LABEL: func.func @runtime_weight
// CHECK: dlc.linear
func.func @runtime_weight(%x: tensor<5x4xf32>, %w: tensor<3x4xf32>) -> tensor<5x3xf32> {
  %y = dlc.linear %x, %w : (tensor<5x4xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

// On the CPU with N a multiple of 32 (here 64): Wᵀ is stored as two 32-column
// panels [2, K, 32] and viewed back as [K, N] by a transpose and a reshape
// named after the linear. (The data order is checked in
// passes/unittests/ConstantDataTest.cpp.) The PartitionKernels run puts both
// views in the matmul's kernel.
// CHECK-LABEL: func.func @panels
// CHECK: %[[P:.*]] = dlc.constant dense<2.500000e-01> : tensor<2x8x32xf32>
// CHECK: %[[T:.*]] = dlc.transpose %[[P]] {perm = array<i64: 1, 0, 2>} : tensor<2x8x32xf32> -> tensor<8x2x32xf32>
// CHECK: %[[W:.*]] = dlc.reshape %[[T]] : tensor<8x2x32xf32> -> tensor<8x64xf32>
// CHECK: dlc.matmul %{{.*}}, %[[W]] : (tensor<4x8xf32>, tensor<8x64xf32>) -> tensor<4x64xf32>
// KERNEL-LABEL: func.func @panels
// KERNEL: dlc.kernel
// KERNEL-NEXT: dlc.transpose
// KERNEL-NEXT: dlc.reshape
// KERNEL-NEXT: dlc.matmul
// KERNEL-NEXT: dlc.add
// KERNEL-NEXT: dlc.yield
func.func @panels(%x: tensor<4x8xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %w = dlc.constant dense<0.25> : tensor<64x8xf32>
  %y = dlc.linear %x, %w, %b : (tensor<4x8xf32>, tensor<64x8xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// N = 72, not a multiple of 32: three panels, the last padded with 24 zero
// columns; the [4, 96] product is sliced back to [4, 72] before the bias.
// CHECK-LABEL: func.func @padded_panels
// CHECK: %[[P:.*]] = dlc.constant dense_resource<w.panels> : tensor<3x8x32xf32>
// CHECK: %[[T:.*]] = dlc.transpose %[[P]] {perm = array<i64: 1, 0, 2>} : tensor<3x8x32xf32> -> tensor<8x3x32xf32>
// CHECK: %[[W:.*]] = dlc.reshape %[[T]] : tensor<8x3x32xf32> -> tensor<8x96xf32>
// CHECK: %[[M:.*]] = dlc.matmul %{{.*}}, %[[W]] : (tensor<4x8xf32>, tensor<8x96xf32>) -> tensor<4x96xf32>
// CHECK: %[[S:.*]] = dlc.slice %[[M]] {ends = array<i64: 4, 72>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<4x96xf32> -> tensor<4x72xf32>
// CHECK: dlc.add %[[S]], %{{.*}} : (tensor<4x72xf32>, tensor<72xf32>) -> tensor<4x72xf32>
func.func @padded_panels(%x: tensor<4x8xf32>, %b: tensor<72xf32>) -> tensor<4x72xf32> {
  %w = dlc.constant dense<0.25> : tensor<72x8xf32> loc("w")
  %y = dlc.linear %x, %w, %b : (tensor<4x8xf32>, tensor<72x8xf32>, tensor<72xf32>) -> tensor<4x72xf32>
  return %y : tensor<4x72xf32>
}
