// An op the dlc dialect does not have, in the custom form.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s
// RUN: not dlc verify %s 2>/dev/null | count 0

// CHECK: {{.*}}unknown_op.mlir:[[@LINE+3]]:8: error: custom op 'dlc.frobnicate' is unknown
// CHECK-NOT: error:
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.frobnicate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
