// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/no_softmax_gpu.json devices=cpu,cuda:0 policy=gpu pins=softmax_2=cuda:0})' --split-input-file --verify-diagnostics | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/small_gpu.json policy=gpu})' --split-input-file | FileCheck %s --check-prefix=CAP

// unsupported: the GPU of this spec runs no softmax, so the gpu policy leaves
// it on the CPU; a pattern pin that matches it warns and does the same.
// CHECK-LABEL: func.func @unsupported
// CHECK: dlc.relu {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.reason = "default"
// CHECK: dlc.softmax {{.*}}device = #dlc.device<cpu>{{.*}}dlc.reason = "unsupported"
// CHECK: dlc.softmax {{.*}}device = #dlc.device<cpu>{{.*}}dlc.reason = "unsupported"
func.func @unsupported(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = dlc.relu %x : tensor<8x8xf32>
  %s = dlc.softmax %r : tensor<8x8xf32>
  // expected-warning @below {{op 'softmax_2' matches --pin='softmax_2=cuda:0', but cuda:0 cannot run dlc.softmax: placed on the cpu}}
  %t = dlc.softmax %s : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}

// -----

// capacity: the 40000-byte GPU holds the first two 16 KiB activations; the
// third goes to the CPU. A result and its input stay live until the end.
// CAP-LABEL: func.func @capacity
// CAP: dlc.relu {{.*}}device = #dlc.device<cuda:0>, dlc.order = 0 : i64, dlc.reason = "default"
// CAP: dlc.exp {{.*}}device = #dlc.device<cuda:0>, dlc.order = 1 : i64, dlc.reason = "default"
// CAP: dlc.tanh {{.*}}device = #dlc.device<cpu>, dlc.order = 2 : i64, dlc.reason = "capacity"
func.func @capacity(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = dlc.relu %x : tensor<64x64xf32>
  %b = dlc.exp %a : tensor<64x64xf32>
  %c = dlc.tanh %b : tensor<64x64xf32>
  return %a, %b, %c : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
