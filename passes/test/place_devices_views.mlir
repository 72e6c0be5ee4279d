// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 policy=cost})' --split-input-file | FileCheck %s
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 policy=gpu})' --split-input-file | FileCheck %s --check-prefix=GPU

// A view placed by a policy follows its source (reason `view`), a chain of
// views its head, whatever device its consumers are on: no view stands
// alone on a device (the cost policy once put a Squeeze alone on cuda:1).
// CHECK-LABEL: func.func @views_follow
// CHECK: dlc.matmul {{.*}}device = #dlc.device<cuda:0>
// CHECK: dlc.reshape {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.reason = "view"
// CHECK: dlc.reshape {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.reason = "view"
// CHECK: dlc.relu {{.*}}device = #dlc.device<cuda:1>{{.*}}dlc.reason = "pinned"
func.func @views_follow(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = dlc.matmul %x, %w {device = #dlc.device<cuda:0>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = dlc.reshape %a : tensor<64x64xf32> -> tensor<4096xf32>
  %s = dlc.reshape %r : tensor<4096xf32> -> tensor<64x64xf32>
  %b = dlc.relu %s {device = #dlc.device<cuda:1>} : tensor<64x64xf32>
  return %b : tensor<64x64xf32>
}

// -----

// A view of an argument follows it to the cpu; a pinned view stays where
// the user put it (a copy materialises it).
// CHECK-LABEL: func.func @argument_and_pinned
// CHECK: dlc.reshape {{.*}}device = #dlc.device<cpu>{{.*}}dlc.reason = "view"
// CHECK: dlc.reshape {{.*}}device = #dlc.device<cuda:1>{{.*}}dlc.reason = "pinned"
// GPU-LABEL: func.func @argument_and_pinned
// GPU: dlc.reshape {{.*}}device = #dlc.device<cpu>{{.*}}dlc.reason = "view"
// GPU: dlc.exp {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.reason = "default"
// GPU: dlc.reshape {{.*}}device = #dlc.device<cuda:1>{{.*}}dlc.reason = "pinned"
func.func @argument_and_pinned(%x: tensor<8x8xf32>) -> tensor<64xf32> {
  %r = dlc.reshape %x : tensor<8x8xf32> -> tensor<64xf32>
  %e = dlc.exp %r : tensor<64xf32>
  %p = dlc.reshape %e {device = #dlc.device<cuda:1>} : tensor<64xf32> -> tensor<8x8xf32>
  %y = dlc.reshape %p : tensor<8x8xf32> -> tensor<64xf32>
  return %y : tensor<64xf32>
}
