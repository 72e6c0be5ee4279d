// RUN: dlc-opt %s | FileCheck %s
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// #dlc.buffer and #dlc.step round-trip; fields at their defaults (no view,
// not cross-device, not persistent, no max shape, no offset; a step's
// fields of other kinds) are not printed, and fields may come in any order.
// CHECK-LABEL: func.func @attrs
// CHECK-SAME: dlc.buffers = [#dlc.buffer<name = "input:0", device = 0>,
// CHECK-SAME: #dlc.buffer<name = "copy_0", device = 1, cross_device = true, offset = 64>,
// CHECK-SAME: #dlc.buffer<name = "/flat", device = 1, view_of = 1, offset = 64>,
// CHECK-SAME: #dlc.buffer<name = "s", device = 0, persistent = true, max_shape = [8, 4], offset = 0>]
// CHECK-SAME: dlc.steps = {{\[\[}}#dlc.step<kind = "copy", buffers = [0, 1]>, #dlc.step<kind = "record", event = 0>],
// CHECK-SAME: [#dlc.step<kind = "wait", event = 0>, #dlc.step<kind = "call", kernel = 0, buffers = [1, 2], outputs = 1>]]
func.func @attrs() attributes {
    dlc.buffers = [#dlc.buffer<device = 0, name = "input:0">,
                   #dlc.buffer<name = "copy_0", device = 1, cross_device = true, offset = 64>,
                   #dlc.buffer<name = "/flat", device = 1, view_of = 1, offset = 64, cross_device = false>,
                   #dlc.buffer<name = "s", device = 0, persistent = true, max_shape = [8, 4], offset = 0>],
    dlc.steps = [[#dlc.step<buffers = [0, 1], kind = "copy">, #dlc.step<kind = "record", event = 0>],
                 [#dlc.step<kind = "wait", event = 0>,
                  #dlc.step<kind = "call", outputs = 1, kernel = 0, buffers = [1, 2]>]]} {
  return
}
