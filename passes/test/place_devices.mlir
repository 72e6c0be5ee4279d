// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=cpu})' --split-input-file | FileCheck %s --check-prefix=CPU
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=gpu})' --split-input-file | FileCheck %s --check-prefix=GPU
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 policy=cost pins=relu=cuda:1})' --split-input-file | FileCheck %s --check-prefix=COST

// Each policy writes device, reason and order on every op; constants follow
// their consumers; an attribute pin is kept with reason pinned.
// CPU-LABEL: func.func @chain
// CPU-SAME: dlc.placement = "cpu"
// CPU: %[[W:.*]] = dlc.constant {{.*}}device = #dlc.device<cpu>, dlc.reason = "default"
// CPU: %[[M:.*]] = dlc.matmul {{.*}}device = #dlc.device<cpu>, dlc.order = 0 : i64, dlc.reason = "default"
// CPU: dlc.relu %[[M]] {device = #dlc.device<cpu>, dlc.order = 1 : i64, dlc.reason = "default"}
// CPU: dlc.exp {{.*}}device = #dlc.device<cuda:0>, dlc.order = 2 : i64, dlc.reason = "pinned"
// GPU-LABEL: func.func @chain
// GPU: dlc.constant {{.*}}device = #dlc.device<cuda:0>, dlc.reason = "default"
// GPU: dlc.matmul {{.*}}device = #dlc.device<cuda:0>, dlc.order = 0 : i64, dlc.reason = "default"
// GPU: dlc.relu {{.*}}device = #dlc.device<cuda:0>, dlc.order = 1 : i64, dlc.reason = "default"
// GPU: dlc.exp {{.*}}device = #dlc.device<cuda:0>, dlc.order = 2 : i64, dlc.reason = "pinned"
// COST-LABEL: func.func @chain
// The matmul joins the relu pinned to cuda:1 (the refinement's move: one GPU to GPU
// copy fewer than the list schedule's cuda:0).
// COST: dlc.matmul {{.*}}device = #dlc.device<cuda:1>, dlc.order = 0 : i64, dlc.reason = "cost"
// COST: dlc.relu {{.*}}device = #dlc.device<cuda:1>, dlc.order = 1 : i64, dlc.reason = "pinned"
// COST: dlc.exp {{.*}}device = #dlc.device<cuda:0>, dlc.order = 2 : i64, dlc.reason = "pinned"
func.func @chain(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %w = dlc.constant dense<0.5> : tensor<1024x1024xf32>
  %m = dlc.matmul %x, %w : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = dlc.relu %m : tensor<1024x1024xf32>
  %e = dlc.exp %r {device = #dlc.device<cuda:0>} : tensor<1024x1024xf32>
  return %e : tensor<1024x1024xf32>
}

// -----

// A constant used on two devices is duplicated, one per device.
// COST-LABEL: func.func @shared_weight
// COST-DAG: dlc.constant dense<1.000000e+00> : tensor<64x64xf32> {device = #dlc.device<cpu>, dlc.reason = "default"}
// COST-DAG: dlc.constant dense<1.000000e+00> : tensor<64x64xf32> {device = #dlc.device<cuda:1>, dlc.reason = "default"}
func.func @shared_weight(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %w = dlc.constant dense<1.0> : tensor<64x64xf32>
  %a = dlc.add %x, %w {device = #dlc.device<cpu>} : tensor<64x64xf32>
  %b = dlc.relu %w : tensor<64x64xf32>
  return %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
}
