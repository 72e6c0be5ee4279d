// Operand shapes that do not broadcast: the verifier's message, at the op.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s
// RUN: not dlc verify %s 2>/dev/null | count 0

// CHECK: {{.*}}mismatched_shapes.mlir:[[@LINE+3]]:8: error: 'dlc.add' op operand shapes 4x8 and 4 do not broadcast: dimension 1 is 8 versus 4
// CHECK-NOT: error:
func.func @main(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  %0 = dlc.add %a, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
