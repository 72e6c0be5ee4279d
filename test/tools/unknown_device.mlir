// A device kind that does not exist: the column is the kind's.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s
// RUN: not dlc verify %s 2>/dev/null | count 0

// CHECK: {{.*}}unknown_device.mlir:[[@LINE+3]]:42: error: unknown device kind 'tpu': expected 'cpu' or 'cuda:N'
// CHECK-NOT: error:
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dlc.relu %x {device = #dlc.device<tpu:0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
