// A negative GPU index: the column is the index's.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s
// RUN: not dlc verify %s 2>/dev/null | count 0

// CHECK: {{.*}}negative_cuda_index.mlir:[[@LINE+3]]:47: error: cuda device index must be non-negative, got -1
// CHECK-NOT: error:
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.relu %x {device = #dlc.device<cuda:-1>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
