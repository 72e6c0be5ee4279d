// The artifact stage writes what the scheduled IR says, and refuses IR whose
// schedule is malformed (edited by hand, or from an older dlc) with an error
// naming what is wrong, never a wrong artifact.
// RUN: not dlc-opt %s --split-input-file --dlc-compile-pipeline='start-after=memory output=%t.dlcm' -o /dev/null 2>&1 | FileCheck %s

// The Call passes the kernel's output as its input.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [1, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>}
  return %n : tensor<4xf32>
}
// CHECK: error: malformed schedule: the Call of kernel 0 does not pass the kernel's inputs and outputs

// -----

// No memory plan.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0>, #dlc.buffer<name = "neg_0", device = 0>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>}
  return %n : tensor<4xf32>
}
// CHECK: error: malformed schedule: buffer 0 has no offset (run dlc-schedule and dlc-plan-memory first)

// -----

// A buffer no value holds.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  }
  return %n : tensor<4xf32>
}
// CHECK: error: malformed schedule: buffer 1 is held by no value (run

// -----

// A step that is not a #dlc.step (a dictionary, as older dlc wrote steps;
// an unknown kind inside one: dialects/dlc/test/schedule_attrs_errors.mlir).
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.steps = [[{buffers = array<i64: 0, 1>, kind = "launch"}]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>}
  return %n : tensor<4xf32>
}
// CHECK: error: malformed schedule: a step of device 0 is not a #dlc.step (run

// -----

// A Call of a kernel the function does not have.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>,
                  #dlc.step<kind = "call", kernel = 1, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>}
  return %n : tensor<4xf32>
}
// CHECK: error: malformed schedule: a Call of kernel 1, but the function has 1 dlc.kernel ops

// -----

// A compute op outside any kernel: the schedule does not say which Call runs it.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 0 : i64,
    dlc.steps = [[#dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.neg %x {dlc.buffer = array<i64: 1>} : tensor<4xf32>
  return %n : tensor<4xf32>
}
// CHECK: error: malformed schedule: 'neg_0' is in no dlc.kernel (run dlc-schedule first)
// -----

// A wait for an event no step records is the schedule verifier's to refuse.
func.func @main(%x: tensor<4xf32> {dlc.buffer = 0 : i64}) -> tensor<4xf32> attributes {
    dlc.arena_bytes = array<i64: 128>, dlc.peak_live_bytes = array<i64: 128>,
    dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
                   #dlc.buffer<name = "neg_0", device = 0, offset = 64>],
    dlc.devices = [#dlc.device<cpu>], dlc.event_count = 1 : i64,
    dlc.steps = [[#dlc.step<kind = "wait", event = 0>, #dlc.step<kind = "call", kernel = 0, buffers = [0, 1], outputs = 1>]]} {
  %n = dlc.kernel -> tensor<4xf32> {
    %v = dlc.neg %x : tensor<4xf32>
    dlc.yield %v : tensor<4xf32>
  } {dlc.buffer = array<i64: 1>}
  return %n : tensor<4xf32>
}
// CHECK: error: internal compiler error: the schedule dlc made is wrong, so no artifact is written

