// The same check in the bare `dlc.copy ... to cuda:N` form.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s

// CHECK: {{.*}}negative_cuda_copy.mlir:[[@LINE+3]]:28: error: custom op 'dlc.copy' cuda device index must be non-negative, got -2
// CHECK-NOT: error:
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.copy %x to cuda:-2 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
