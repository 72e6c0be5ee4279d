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

// CHECK: dlc.buffers = [{device = 0 : i64, name = "input:0"}, {cross_device, device = 1 : i64, name = "copy_0"},
// CHECK-SAME: {device = 1 : i64, name = "reshape_1", view_of = 1 : i64}, {cross_device, device = 2 : i64, name = "copy_2"},
// CHECK-SAME: {device = 2 : i64, name = "relu_3"}, {cross_device, device = 0 : i64, name = "copy_4"}]
// CHECK-SAME: dlc.devices = [#dlc.device<cpu>, #dlc.device<cuda:0>, #dlc.device<cuda:1>]
// CHECK-SAME: dlc.steps = [
// CHECK-SAME: [{buffers = array<i64: 0, 1>, kind = "copy"}, {event = 0 : i64, kind = "record"}],
// cuda:0 has no kernel, only the copy of the view, after waiting for event 0.
// CHECK-SAME: [{event = 0 : i64, kind = "wait"}, {buffers = array<i64: 2, 3>, kind = "copy"}, {event = 1 : i64, kind = "record"}],
// CHECK-SAME: [{event = 1 : i64, kind = "wait"}, {buffers = array<i64: 3, 4>, kernel = 0 : i64, kind = "call", outputs = 1 : i64},
// CHECK-SAME: {buffers = array<i64: 4, 5>, kind = "copy"}, {event = 2 : i64, kind = "record"}]]
