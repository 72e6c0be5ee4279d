// RUN: dlc-opt %s --canonicalize --split-input-file | FileCheck %s

// The folders and canonicalization patterns of the dlc ops, and that none of
// them merges ops pinned to different devices.

// reshape(reshape(x)) -> reshape(x): one data movement.
// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = dlc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = dlc.reshape %0 : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// A chain of three collapses to one; equal pins merge and the pin stays.
// CHECK-LABEL: func.func @reshape_chain_same_pin
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = dlc.reshape %[[X]] {device = #dlc.device<cuda:1>} : tensor<2x3x4xf32> -> tensor<3x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain_same_pin(%x: tensor<2x3x4xf32>) -> tensor<3x8xf32> {
  %0 = dlc.reshape %x {device = #dlc.device<cuda:1>} : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = dlc.reshape %0 {device = #dlc.device<cuda:1>} : tensor<24xf32> -> tensor<6x4xf32>
  %2 = dlc.reshape %1 {device = #dlc.device<cuda:1>} : tensor<6x4xf32> -> tensor<3x8xf32>
  return %2 : tensor<3x8xf32>
}

// -----

// A reshape back to the input's type folds away entirely.
// CHECK-LABEL: func.func @reshape_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = dlc.reshape %0 : tensor<6xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// A reshape to the same type is the identity.
// CHECK-LABEL: func.func @reshape_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: dlc.reshape
// CHECK: return %[[X]]
func.func @reshape_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A reshape of a dense constant is a constant of the new shape.
// CHECK-LABEL: func.func @reshape_of_constant
// CHECK-NEXT: %[[C:.*]] = dlc.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @reshape_of_constant() -> tensor<2x3xf32> {
  %c = dlc.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %0 = dlc.reshape %c : tensor<6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A splat stays a splat; integer constants fold too.
// CHECK-LABEL: func.func @reshape_of_splat
// CHECK-NEXT: %[[C:.*]] = dlc.constant dense<7> : tensor<2x2xi64>
// CHECK-NEXT: return %[[C]]
func.func @reshape_of_splat() -> tensor<2x2xi64> {
  %c = dlc.constant dense<7> : tensor<4xi64>
  %0 = dlc.reshape %c : tensor<4xi64> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// A pinned reshape of a constant is not folded into an (unpinned) constant.
// CHECK-LABEL: func.func @reshape_of_constant_pinned_reshape
// CHECK-NEXT: %[[C:.*]] = dlc.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = dlc.reshape %[[C]] {device = #dlc.device<cuda:1>} : tensor<2xf32> -> tensor<2x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_constant_pinned_reshape() -> tensor<2x1xf32> {
  %c = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = dlc.reshape %c {device = #dlc.device<cuda:1>} : tensor<2xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// Nor is a reshape of a pinned constant.
// CHECK-LABEL: func.func @reshape_of_pinned_constant
// CHECK-NEXT: %[[C:.*]] = dlc.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32> {device = #dlc.device<cuda:0>}
// CHECK-NEXT: %[[R:.*]] = dlc.reshape %[[C]] : tensor<2xf32> -> tensor<1x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_pinned_constant() -> tensor<1x2xf32> {
  %c = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32> {device = #dlc.device<cuda:0>}
  %0 = dlc.reshape %c : tensor<2xf32> -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

// A dense_resource blob is not folded (its bytes are not copied).
// CHECK-LABEL: func.func @reshape_of_resource
// CHECK-NEXT: %[[C:.*]] = dlc.constant dense_resource<blob> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = dlc.reshape %[[C]] : tensor<2xf32> -> tensor<1x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_resource() -> tensor<1x2xf32> {
  %c = dlc.constant dense_resource<blob> : tensor<2xf32>
  %0 = dlc.reshape %c : tensor<2xf32> -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Reshapes pinned to different devices are not merged.
// CHECK-LABEL: func.func @reshape_different_pins
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[A:.*]] = dlc.reshape %[[X]] {device = #dlc.device<cuda:0>} : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-NEXT: %[[B:.*]] = dlc.reshape %[[A]] {device = #dlc.device<cuda:1>} : tensor<24xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[B]]
func.func @reshape_different_pins(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = dlc.reshape %x {device = #dlc.device<cuda:0>} : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = dlc.reshape %0 {device = #dlc.device<cuda:1>} : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// A pinned and an unpinned reshape differ too.
// CHECK-LABEL: func.func @reshape_pinned_and_unpinned
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[A:.*]] = dlc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-NEXT: %[[B:.*]] = dlc.reshape %[[A]] {device = #dlc.device<cpu>} : tensor<24xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[B]]
func.func @reshape_pinned_and_unpinned(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = dlc.reshape %0 {device = #dlc.device<cpu>} : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// The inner reshape stays while it has other users.
// CHECK-LABEL: func.func @reshape_inner_used
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-DAG: %[[A:.*]] = dlc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-DAG: %[[B:.*]] = dlc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK: return %[[A]], %[[B]]
func.func @reshape_inner_used(%x: tensor<2x3x4xf32>) -> (tensor<24xf32>, tensor<4x6xf32>) {
  %0 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = dlc.reshape %0 : tensor<24xf32> -> tensor<4x6xf32>
  return %0, %1 : tensor<24xf32>, tensor<4x6xf32>
}

// -----

// transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2): [1, 2, 0] then
// [1, 0, 2] is x dimensions [2, 1, 0].
// CHECK-LABEL: func.func @transpose_compose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = dlc.transpose %[[X]] {perm = array<i64: 2, 1, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = dlc.transpose %0 {perm = array<i64: 1, 0, 2>} : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// -----

// A transpose and its inverse compose to the identity, which folds away.
// CHECK-LABEL: func.func @transpose_inverse
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_inverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = dlc.transpose %0 {perm = array<i64: 2, 0, 1>} : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// An identity permutation folds away.
// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi1>)
// CHECK-NOT: dlc.transpose
// CHECK: return %[[X]]
func.func @transpose_identity(%x: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = dlc.transpose %x {perm = array<i64: 0, 1>} : tensor<2x3xi1> -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// Transposes pinned to different devices are not composed.
// CHECK-LABEL: func.func @transpose_different_pins
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[A:.*]] = dlc.transpose %[[X]] {device = #dlc.device<cuda:0>, perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[B:.*]] = dlc.transpose %[[A]] {device = #dlc.device<cpu>, perm = array<i64: 1, 0>} : tensor<3x2xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[B]]
func.func @transpose_different_pins(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>, device = #dlc.device<cuda:0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = dlc.transpose %0 {perm = array<i64: 1, 0>, device = #dlc.device<cpu>} : tensor<3x2xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Equal pins compose; the composed op keeps the pin.
// CHECK-LABEL: func.func @transpose_same_pin
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = dlc.transpose %[[X]] {device = #dlc.device<cuda:2>, perm = array<i64: 2, 1, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_same_pin(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 1, 2, 0>, device = #dlc.device<cuda:2>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = dlc.transpose %0 {perm = array<i64: 1, 0, 2>, device = #dlc.device<cuda:2>} : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// -----

// A cast to the same type is the identity; a real cast stays.
// CHECK-LABEL: func.func @cast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[H:.*]] = dlc.cast %[[X]] : tensor<4xf32> -> tensor<4xf16>
// CHECK-NEXT: return %[[X]], %[[H]]
func.func @cast_same_type(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf16>) {
  %0 = dlc.cast %x : tensor<4xf32> -> tensor<4xf32>
  %1 = dlc.cast %0 : tensor<4xf32> -> tensor<4xf16>
  return %0, %1 : tensor<4xf32>, tensor<4xf16>
}

// -----

// Two casts in a row are not merged: f32 -> f16 -> f32 rounds.
// CHECK-LABEL: func.func @cast_round_trip_kept
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[H:.*]] = dlc.cast %[[X]] : tensor<4xf32> -> tensor<4xf16>
// CHECK-NEXT: %[[F:.*]] = dlc.cast %[[H]] : tensor<4xf16> -> tensor<4xf32>
// CHECK-NEXT: return %[[F]]
func.func @cast_round_trip_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.cast %x : tensor<4xf32> -> tensor<4xf16>
  %1 = dlc.cast %0 : tensor<4xf16> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Equal constants are uniqued (ConstantLike) and dead ops go (Pure); the
// copies, which carry their destination, stay.
// CHECK-LABEL: func.func @constants_and_copies
// CHECK-NEXT: %[[C:.*]] = dlc.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[G:.*]] = dlc.copy %[[C]] to cuda:1 : tensor<2xf32>
// CHECK-NEXT: return %[[C]], %[[C]], %[[G]]
func.func @constants_and_copies(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = dlc.constant dense<1.0> : tensor<2xf32>
  %b = dlc.constant dense<1.0> : tensor<2xf32>
  %dead = dlc.relu %x : tensor<2xf32>
  %g = dlc.copy %a to cuda:1 : tensor<2xf32>
  return %a, %b, %g : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
