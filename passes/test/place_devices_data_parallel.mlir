// data-parallel:N: the batch (dim 0 of the inputs) sliced on the CPU, one
// replica per GPU on its slice, weights once per GPU, outputs concatenated on
// the CPU; every op's reason is `default`.
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 policy=data-parallel:2},func.func(dlc-insert-copies))' | FileCheck %s
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1,cuda:2 policy=data-parallel:3})' | FileCheck %s --check-prefix=THREE
// RUN: dlc-opt %s --split-input-file --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 policy=data-parallel:2 print=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TABLE

// Uneven: 5 over 2 is 3 + 2.
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: dlc.placement = "data-parallel:2"
// CHECK-DAG: %[[W1:.*]] = dlc.constant dense<5.000000e-01> : tensor<4x8xf32> {device = #dlc.device<cuda:1>, dlc.reason = "default"}
// CHECK-DAG: %[[W0:.*]] = dlc.constant dense<5.000000e-01> : tensor<4x8xf32> {device = #dlc.device<cuda:0>, dlc.reason = "default"}
// CHECK: %[[S0:.*]] = dlc.slice %arg0 {device = #dlc.device<cpu>, dlc.order = {{[0-9]+}} : i64, dlc.reason = "default", ends = array<i64: 3, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<5x8xf32> -> tensor<3x8xf32>
// CHECK: %[[C0:.*]] = dlc.copy %[[S0]] to cuda:0 : tensor<3x8xf32>
// CHECK: %[[S1:.*]] = dlc.slice %arg0 {{.*}}ends = array<i64: 5, 8>, starts = array<i64: 3, 0>{{.*}} : tensor<5x8xf32> -> tensor<2x8xf32>
// CHECK: %[[C1:.*]] = dlc.copy %[[S1]] to cuda:1 : tensor<2x8xf32>
// CHECK: %[[H0:.*]] = dlc.linear %[[C0]], %[[W0]], {{.*}} {device = #dlc.device<cuda:0>, {{.*}}dlc.reason = "default"} : (tensor<3x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: %[[R0:.*]] = dlc.reshape %{{.*}} {device = #dlc.device<cuda:0>{{.*}} : tensor<3x4xf32> -> tensor<3x2x2xf32>
// CHECK: dlc.softmax {{.*}}device = #dlc.device<cuda:0>{{.*}} : tensor<3x2x2xf32>
// CHECK: %[[O0:.*]] = dlc.copy %{{.*}} to cpu : tensor<3x2x2xf32>
// CHECK: %[[H1:.*]] = dlc.linear %[[C1]], %[[W1]], {{.*}} -> tensor<2x4xf32>
// CHECK: %[[O1:.*]] = dlc.copy %{{.*}} to cpu : tensor<2x2x2xf32>
// CHECK: %[[Y:.*]] = dlc.concat %[[O0]], %[[O1]] {axis = 0 : i64, device = #dlc.device<cpu>, {{.*}}dlc.reason = "default"} : (tensor<3x2x2xf32>, tensor<2x2x2xf32>) -> tensor<5x2x2xf32>
// CHECK: return %[[Y]]
// THREE-LABEL: func.func @uneven
// THREE-DAG: ends = array<i64: 2, 8>, starts = array<i64: 0, 0>{{.*}} -> tensor<2x8xf32>
// THREE-DAG: ends = array<i64: 4, 8>, starts = array<i64: 2, 0>{{.*}} -> tensor<2x8xf32>
// THREE-DAG: ends = array<i64: 5, 8>, starts = array<i64: 4, 0>{{.*}} -> tensor<1x8xf32>
// THREE-DAG: dlc.concat {{.*}} : (tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<1x2x2xf32>) -> tensor<5x2x2xf32>
// TABLE: placement of @uneven (policy data-parallel:2)
// TABLE: cpu       default {{.*}} dlc.slice         x/dp0/slice
// TABLE: cuda:0    default {{.*}} dlc.linear        fc/dp0
// TABLE: cuda:1    default {{.*}} dlc.linear        fc/dp1
// TABLE: cpu       default {{.*}} dlc.concat        y/dp/concat
func.func @uneven(%x: tensor<5x8xf32> {dlc.name = "x"}) -> (tensor<5x2x2xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<0.5> : tensor<4x8xf32> loc("w")
  %b = dlc.constant dense<0.1> : tensor<4xf32> loc("b")
  %h = dlc.linear %x, %w, %b : (tensor<5x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<5x4xf32> loc("fc")
  %r = dlc.reshape %h : tensor<5x4xf32> -> tensor<5x2x2xf32> loc("rs")
  %s = dlc.softmax %r {axis = -1 : i64} : tensor<5x2x2xf32> loc("sm")
  return %s : tensor<5x2x2xf32>
}

// -----

// Batch 4, a convolution, two inputs: 2 + 2.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: dlc.slice %arg0 {{.*}}starts = array<i64: 0, 0, 0, 0>{{.*}} : tensor<4x3x8x8xf32> -> tensor<2x3x8x8xf32>
// CHECK-DAG: dlc.slice %arg0 {{.*}}starts = array<i64: 2, 0, 0, 0>{{.*}} : tensor<4x3x8x8xf32> -> tensor<2x3x8x8xf32>
// CHECK-DAG: dlc.slice %arg1 {{.*}}starts = array<i64: 0, 0, 0, 0>{{.*}} : tensor<4x4x8x8xf32> -> tensor<2x4x8x8xf32>
// CHECK-DAG: dlc.slice %arg1 {{.*}}starts = array<i64: 2, 0, 0, 0>{{.*}} : tensor<4x4x8x8xf32> -> tensor<2x4x8x8xf32>
// CHECK: dlc.conv2d {{.*}}device = #dlc.device<cuda:0>{{.*}} -> tensor<2x4x8x8xf32>
// CHECK: dlc.add {{.*}}device = #dlc.device<cuda:0>{{.*}} : tensor<2x4x8x8xf32>
// CHECK: dlc.conv2d {{.*}}device = #dlc.device<cuda:1>{{.*}} -> tensor<2x4x8x8xf32>
// CHECK: dlc.concat {{.*}} : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<4x4x8x8xf32>
func.func @conv(%x: tensor<4x3x8x8xf32>, %z: tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32> {
  %f = dlc.constant dense<0.5> : tensor<4x3x3x3xf32>
  %c = dlc.conv2d %x, %f {pads = array<i64: 1, 1, 1, 1>} : (tensor<4x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x4x8x8xf32>
  %a = dlc.add %c, %z : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
  return %a : tensor<4x4x8x8xf32>
}

// -----

// An embedding: each replica gathers its slice of the token ids from its own
// copy of the table.
// CHECK-LABEL: func.func @embedding
// CHECK-DAG: %[[T0:.*]] = dlc.constant {{.*}} : tensor<10x3xf32> {device = #dlc.device<cuda:0>
// CHECK-DAG: %[[T1:.*]] = dlc.constant {{.*}} : tensor<10x3xf32> {device = #dlc.device<cuda:1>
// CHECK: dlc.gather %[[T0]], %{{.*}} {device = #dlc.device<cuda:0>{{.*}} : (tensor<10x3xf32>, tensor<2x7xi64>) -> tensor<2x7x3xf32>
// CHECK: dlc.gather %[[T1]], %{{.*}} {device = #dlc.device<cuda:1>{{.*}} : (tensor<10x3xf32>, tensor<2x7xi64>) -> tensor<2x7x3xf32>
// CHECK: dlc.concat {{.*}} -> tensor<4x7x3xf32>
func.func @embedding(%ids: tensor<4x7xi64>) -> tensor<4x7x3xf32> {
  %table = dlc.constant dense<1.0> : tensor<10x3xf32>
  %e = dlc.gather %table, %ids {axis = 0 : i64} : (tensor<10x3xf32>, tensor<4x7xi64>) -> tensor<4x7x3xf32>
  return %e : tensor<4x7x3xf32>
}
