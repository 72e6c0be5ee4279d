// A syntax error: both tools name the file, line and column, and fail.
// RUN: not dlc verify %s 2>&1 | FileCheck %s
// RUN: not dlc-opt %s 2>&1 | FileCheck %s
// Nothing reaches stdout: no summary, no partial module.
// RUN: not dlc verify %s 2>/dev/null | count 0
// RUN: not dlc-opt %s 2>/dev/null | count 0

// CHECK: {{.*}}bad_syntax.mlir:[[@LINE+5]]:12: error: expected ':'
// CHECK-NEXT: return %0 tensor<2x3xf32>
// CHECK-NOT: error:
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.relu %x : tensor<2x3xf32>
  return %0 tensor<2x3xf32>
}
