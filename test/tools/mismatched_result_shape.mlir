// A matmul whose declared result shape is wrong.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s

// CHECK: {{.*}}mismatched_result_shape.mlir:[[@LINE+4]]:8: error: 'dlc.matmul' op result shape 32x10 does not match the expected 32x64
// CHECK-NOT: error:
func.func @main(%x: tensor<32x128xf32>, %w: tensor<128x64xf32>) -> tensor<32x10xf32> {
  %0 = dlc.relu %x : tensor<32x128xf32>
  %1 = dlc.matmul %0, %w : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x10xf32>
  return %1 : tensor<32x10xf32>
}
