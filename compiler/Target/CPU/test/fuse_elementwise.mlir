// dlc-fuse-elementwise fuses elementwise chains as linalg-fuse-elementwise-ops
// does, but keeps a costly producer (math ops, a division) that its consumer
// reads broadcast in its own nest, where fused it would run once per
// consumer iteration: an SE block's sigmoid(s[1,C,1,1]) times x[1,C,H,W].
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dlc-lower-to-linalg,dlc-fuse-elementwise))' | FileCheck %s

// CHECK-LABEL: func.func @squeeze_excite_scale
// CHECK: %[[S:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x1x1xf32>)
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<1x4x1x1xf32>, tensor<1x4x8x8xf32>)
// CHECK-NOT: arith.divf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @squeeze_excite_scale(%s: tensor<1x4x1x1xf32>, %x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %g = dlc.sigmoid %s : tensor<1x4x1x1xf32>
  %y = dlc.mul %g, %x : (tensor<1x4x1x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

// A cheap broadcast producer (an add) still fuses: recomputing it costs less
// than its buffer.
// CHECK-LABEL: func.func @cheap_broadcast
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @cheap_broadcast(%s: tensor<1x4x1x1xf32>, %x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %g = dlc.add %s, %s : tensor<1x4x1x1xf32>
  %y = dlc.mul %g, %x : (tensor<1x4x1x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// -----

// Same shapes: a costly producer fuses (it runs once per element either way).
// CHECK-LABEL: func.func @same_shape
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @same_shape(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %g = dlc.sigmoid %x : tensor<1x4x8x8xf32>
  %y = dlc.mul %x, %g : tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}
