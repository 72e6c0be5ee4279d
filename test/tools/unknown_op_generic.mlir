// An op the dlc dialect does not have, in the generic form: the dialect is
// known and does not allow unregistered ops.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s

// CHECK: {{.*}}unknown_op_generic.mlir:[[@LINE+3]]:8: error: unregistered operation 'dlc.frobnicate' found in dialect ('dlc') that does not allow unknown operations
// CHECK-NOT: error:
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dlc.frobnicate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
