// A model with no dlc op at all (its output is its input) schedules: the
// pass loads the dialect of the attributes it writes (it crashed before).
// RUN: dlc-opt %s --dlc-schedule --dlc-plan-memory | FileCheck %s
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// CHECK: dlc.buffers = [{device = 0 : i64, name = "input:0", offset = 0 : i64}]
// CHECK-SAME: dlc.devices = [#dlc.device<cpu>]
// CHECK-SAME: dlc.steps = {{\[}}[]]
