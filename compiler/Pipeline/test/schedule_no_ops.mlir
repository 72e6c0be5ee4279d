// A model with no dlc op at all (its output is its input) schedules: the
// pass loads the dialect of the attributes it writes (it crashed before).
// RUN: dlc-opt %s --dlc-schedule --dlc-plan-memory | FileCheck %s
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// CHECK: dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>]
// CHECK-SAME: dlc.devices = [#dlc.device<cpu>]
// CHECK-SAME: dlc.steps = {{\[}}[]]
