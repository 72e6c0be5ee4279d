// dlc-schedule: buffers and each device's step list, written onto the
// function (compiler/Pipeline/ScheduleIR.h).
// RUN: dlc-opt %s --dlc-schedule | FileCheck %s
// The schedule parses back and schedules the same again.
// RUN: dlc-opt %s --dlc-schedule | dlc-opt | FileCheck %s

// A value to the GPU and back: the copy runs on the source device's list
// and records an event the destination waits for before its first use;
// the reshape of the copied value is a view (no step); a Call's kernel K is
// the K-th dlc.kernel, and an op outside any kernel is a kernel of its own.
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>) {
  %c = dlc.copy %x to cuda:0 : tensor<4x8xf32>
  %b = dlc.kernel on cuda:0 -> tensor<4x8xf32> {
    %a = dlc.relu %c {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
    %e = dlc.exp %a {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
    dlc.yield %e : tensor<4x8xf32>
  }
  %back = dlc.copy %b to cpu : tensor<4x8xf32>
  %flat = dlc.reshape %back : tensor<4x8xf32> -> tensor<32xf32>
  %n = dlc.neg %back : tensor<4x8xf32>
  return %n, %flat : tensor<4x8xf32>, tensor<32xf32>
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: {dlc.buffer = 0 : i64}
// CHECK-SAME: dlc.buffers = [#dlc.buffer<name = "input:0", device = 0>,
// CHECK-SAME: #dlc.buffer<name = "copy_0", device = 1, cross_device = true>,
// CHECK-SAME: #dlc.buffer<name = "exp_2", device = 1>,
// CHECK-SAME: #dlc.buffer<name = "copy_3", device = 0, cross_device = true>,
// CHECK-SAME: #dlc.buffer<name = "reshape_4", device = 0, view_of = 3>,
// CHECK-SAME: #dlc.buffer<name = "neg_5", device = 0>]
// CHECK-SAME: dlc.devices = [#dlc.device<cpu>, #dlc.device<cuda:0>]
// CHECK-SAME: dlc.event_count = 2 : i64
// The CPU: copy in, record, wait for the copy back, the CPU kernel.
// CHECK-SAME: dlc.steps = {{\[\[}}#dlc.step<kind = "copy", buffers = [0, 1]>, #dlc.step<kind = "record", event = 0>,
// CHECK-SAME: #dlc.step<kind = "wait", event = 1>, #dlc.step<kind = "call", kernel = 1, buffers = [3, 5], outputs = 1>],
// The GPU: wait for the input, its kernel, the copy back on its own list.
// CHECK-SAME: [#dlc.step<kind = "wait", event = 0>, #dlc.step<kind = "call", kernel = 0, buffers = [1, 2], outputs = 1>,
// CHECK-SAME: #dlc.step<kind = "copy", buffers = [2, 3]>, #dlc.step<kind = "record", event = 1>]]
// CHECK: dlc.copy %arg0 to cuda:0 {dlc.buffer = array<i64: 1>}
// The relu's value stays inside kernel 0: no buffer; the kernel's result
// has one, named after the op that makes it.
// CHECK-NEXT: dlc.kernel on cuda:0 -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.relu %{{.*}} {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
// CHECK-NEXT: dlc.exp %{{.*}} {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: } {dlc.buffer = array<i64: 2>}
// CHECK: dlc.reshape {{.*}}dlc.buffer = array<i64: 4>
// The neg, wrapped in a kernel of its own.
// CHECK-NEXT: dlc.kernel -> tensor<4x8xf32> {
// CHECK-NEXT: dlc.neg
// CHECK-NEXT: dlc.yield
// CHECK-NEXT: } {dlc.buffer = array<i64: 5>}
