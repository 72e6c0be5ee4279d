// Identical kernels are compiled once: two blocks of the same shapes and
// fused ops, their weights passed as buffers, run the first one's code (a
// transformer's layers, ResNet's repeated blocks); a kernel that differs
// only in a splat (or a constant of at most 16 values) cloned into its code
// gets code of its own. Each
// kernel keeps its own name, step and buffers.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %s -o %t/m.dlcm
// RUN: dlc inspect %t/m.dlcm | FileCheck %s
// RUN: dlc run %t/m.dlcm --compare-reference %s | FileCheck %s --check-prefix=REF
// On simulated GPUs too (the CPU path's code is their host code).
// RUN: dlc compile %s --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda -o %t/gpu.dlcm
// RUN: dlc run %t/gpu.dlcm --gpu=sim --compare-reference %s | FileCheck %s --check-prefix=REF

// CHECK: kernels:
// CHECK-NEXT: 0: 'k0' = k0_entry in library 0; ops: block1
// CHECK-NEXT: 1: 'k1' = k0_entry in library 0; ops: block2
// CHECK-NEXT: 2: 'k2' = k2_entry in library 0; ops: scaled
// CHECK-NEXT: 3: 'k3' = k2_entry in library 0; ops: scaled_again
// CHECK-NEXT: 4: 'k4' = k4_entry in library 0; ops: scaled_other
// A bias (a constant of more than 16 values, not a splat) is a buffer the
// Call passes: kernels differing in their biases share code.
// CHECK-NEXT: 5: 'k5' = k5_entry in library 0; ops: biased
// CHECK-NEXT: 6: 'k6' = k5_entry in library 0; ops: biased_again
// REF: compare-reference: {{[0-9]+}} step outputs compared with the reference, all within

func.func @main(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %w1 = dlc.constant dense<0.01> : tensor<64x64xf32>
  %w2 = dlc.constant dense<-0.02> : tensor<64x64xf32>
  %h1 = dlc.matmul %x, %w1 : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32> loc("block1")
  %h2 = dlc.matmul %h1, %w2 : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32> loc("block2")
  %r0 = dlc.reshape %h2 : tensor<16x64xf32> -> tensor<1024xf32>
  %f0 = dlc.reshape %r0 : tensor<1024xf32> -> tensor<16x64xf32>
  %half = dlc.constant dense<0.5> : tensor<64xf32>
  %third = dlc.constant dense<0.33> : tensor<64xf32>
  %s1 = dlc.mul %f0, %half : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32> loc("scaled")
  %r1 = dlc.reshape %s1 : tensor<16x64xf32> -> tensor<1024xf32>
  %f1 = dlc.reshape %r1 : tensor<1024xf32> -> tensor<16x64xf32>
  %s2 = dlc.mul %f1, %half : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32> loc("scaled_again")
  %r2 = dlc.reshape %s2 : tensor<16x64xf32> -> tensor<1024xf32>
  %f2 = dlc.reshape %r2 : tensor<1024xf32> -> tensor<16x64xf32>
  %s3 = dlc.mul %f2, %third : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32> loc("scaled_other")
  %r3 = dlc.reshape %s3 : tensor<16x64xf32> -> tensor<1024xf32>
  %f3 = dlc.reshape %r3 : tensor<1024xf32> -> tensor<16x64xf32>
  %bias1 = dlc.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0]> : tensor<64xf32>
  %bias2 = dlc.constant dense<[-0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6, -0.8, -0.0, -0.2, -0.4, -0.6]> : tensor<64xf32>
  %a1 = dlc.add %f3, %bias1 : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32> loc("biased")
  %r4 = dlc.reshape %a1 : tensor<16x64xf32> -> tensor<1024xf32>
  %f4 = dlc.reshape %r4 : tensor<1024xf32> -> tensor<16x64xf32>
  %a2 = dlc.add %f4, %bias2 : (tensor<16x64xf32>, tensor<64xf32>) -> tensor<16x64xf32> loc("biased_again")
  return %a2 : tensor<16x64xf32>
}
