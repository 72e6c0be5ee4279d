// A copy that reads a view (a reshape) of a copied value waits for that
// copy's event itself: the view has no step that could wait for it.
// RUN: dlc-opt %s --dlc-schedule | FileCheck %s

func.func @main(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %g = dlc.copy %x to cuda:0 : tensor<4x8xf32>
  %v = dlc.reshape %g {device = #dlc.device<cuda:0>} : tensor<4x8xf32> -> tensor<32xf32>
  %h = dlc.copy %v to cuda:1 : tensor<32xf32>
  %r = dlc.relu %h {device = #dlc.device<cuda:1>} : tensor<32xf32>
  %back = dlc.copy %r to cpu : tensor<32xf32>
  return %back : tensor<32xf32>
}

// CHECK: dlc.buffers = [#dlc.buffer<name = "input:0", device = 0>, #dlc.buffer<name = "copy_0", device = 1, cross_device = true>,
// CHECK-SAME: #dlc.buffer<name = "reshape_1", device = 1, view_of = 1>, #dlc.buffer<name = "copy_2", device = 2, cross_device = true>,
// CHECK-SAME: #dlc.buffer<name = "relu_3", device = 2>, #dlc.buffer<name = "copy_4", device = 0, cross_device = true>]
// CHECK-SAME: dlc.devices = [#dlc.device<cpu>, #dlc.device<cuda:0>, #dlc.device<cuda:1>]
// CHECK-SAME: dlc.steps = [
// CHECK-SAME: [#dlc.step<kind = "copy", buffers = [0, 1]>, #dlc.step<kind = "record", event = 0>],
// cuda:0 has no kernel, only the copy of the view, after waiting for event 0.
// CHECK-SAME: [#dlc.step<kind = "wait", event = 0>, #dlc.step<kind = "copy", buffers = [2, 3]>, #dlc.step<kind = "record", event = 1>],
// CHECK-SAME: [#dlc.step<kind = "wait", event = 1>, #dlc.step<kind = "call", kernel = 0, buffers = [3, 4], outputs = 1>,
// CHECK-SAME: #dlc.step<kind = "copy", buffers = [4, 5]>, #dlc.step<kind = "record", event = 2>]]
