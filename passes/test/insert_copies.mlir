// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-insert-copies))' --split-input-file --verify-diagnostics | FileCheck %s

// One copy per (value, destination device), shared by every consumer there,
// right after the value's definition; none on same-device edges; arguments
// and results live on the cpu.
// CHECK-LABEL: func.func @fan_out
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[X0:.*]] = dlc.copy %[[X]] to cuda:0 : tensor<4xf32>
// CHECK-NEXT: %[[H:.*]] = dlc.relu %[[X0]] {device = #dlc.device<cuda:0>}
// CHECK-NEXT: %[[H1:.*]] = dlc.copy %[[H]] to cuda:1 : tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = dlc.add %[[H]], %[[H]] {device = #dlc.device<cuda:0>}
// CHECK-NEXT: %[[A0:.*]] = dlc.copy %[[A]] to cpu : tensor<4xf32>
// CHECK-NEXT: %[[B:.*]] = dlc.exp %[[H1]] {device = #dlc.device<cuda:1>}
// CHECK-NEXT: %[[C:.*]] = dlc.add %[[H1]], %[[B]] {device = #dlc.device<cuda:1>}
// CHECK-NEXT: %[[C0:.*]] = dlc.copy %[[C]] to cpu : tensor<4xf32>
// CHECK-NEXT: return %[[A0]], %[[C0]], %[[X]]
func.func @fan_out(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %h = dlc.relu %x {device = #dlc.device<cuda:0>} : tensor<4xf32>
  %a = dlc.add %h, %h {device = #dlc.device<cuda:0>} : tensor<4xf32>
  %b = dlc.exp %h {device = #dlc.device<cuda:1>} : tensor<4xf32>
  %c = dlc.add %h, %b {device = #dlc.device<cuda:1>} : tensor<4xf32>
  return %a, %c, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// All on the cpu: nothing to do.
// CHECK-LABEL: func.func @same_device
// CHECK-NOT: dlc.copy
func.func @same_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h = dlc.relu %x {device = #dlc.device<cpu>} : tensor<4xf32>
  return %h : tensor<4xf32>
}

// -----

func.func @unplaced(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{op 'relu_0' has no device: run dlc-place first}}
  %h = dlc.relu %x : tensor<4xf32>
  return %h : tensor<4xf32>
}

// -----

// A copy the model itself wrote after an op on its destination that reads the
// same value: the op shares it, and it moves up to its value so that it
// dominates that op (it was reused where it was, and the IR was invalid).
// Found by test/diff (seed 1059).
// CHECK-LABEL: func.func @model_copy_after_reader
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[C:.*]] = dlc.clip %[[X]]
// CHECK-NEXT: %[[C0:.*]] = dlc.copy %[[C]] to cuda:0 : tensor<2xf32>
// CHECK-NEXT: %[[C01:.*]] = dlc.copy %[[C0]] to cpu
// CHECK-NEXT: %[[N:.*]] = dlc.neg %[[C0]] {device = #dlc.device<cuda:0>}
// CHECK-NEXT: %[[N1:.*]] = dlc.copy %[[N]] to cpu
// CHECK-NEXT: return %[[N1]], %[[C01]]
func.func @model_copy_after_reader(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c = dlc.clip %x {min = 0.0, max = 1.0, device = #dlc.device<cpu>} : tensor<2xf32>
  %n = dlc.neg %c {device = #dlc.device<cuda:0>} : tensor<2xf32>
  %c0 = dlc.copy %c to cuda:0 : tensor<2xf32>
  return %n, %c0 : tensor<2xf32>, tensor<2xf32>
}
