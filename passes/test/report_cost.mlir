// RUN: dlc-opt %s --pass-pipeline='builtin.module(func.func(dlc-report-cost))' --split-input-file --verify-diagnostics | FileCheck %s

// The cost interface: 2*M*N*K for matmul, 1 op per element for add; bytes are
// operands plus results; the fp16 policy of each op kind.
// CHECK-LABEL: func.func @costs
// expected-remark @+1 {{total: 51609600 flops, 4360192 bytes}}
func.func @costs(%a: tensor<32x784xf32>, %b: tensor<784x1024xf32>, %c: tensor<32x1024xf32>) -> tensor<32x1024xf32> {
  // expected-remark @below {{dlc.matmul: 51380224 flops, 3442688 bytes, fp16 allow}}
  %m = dlc.matmul %a, %b : (tensor<32x784xf32>, tensor<784x1024xf32>) -> tensor<32x1024xf32>
  // expected-remark @below {{dlc.add: 32768 flops, 393216 bytes, fp16 infer}}
  %s = dlc.add %m, %c : tensor<32x1024xf32>
  // expected-remark @below {{dlc.softmax: 163840 flops, 262144 bytes, fp16 deny}}
  %p = dlc.softmax %s : tensor<32x1024xf32>
  // expected-remark @below {{dlc.relu: 32768 flops, 262144 bytes, fp16 clear}}
  %r = dlc.relu %p : tensor<32x1024xf32>
  return %r : tensor<32x1024xf32>
}
