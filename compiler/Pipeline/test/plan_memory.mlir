// dlc-plan-memory: one arena per device, by liveness over its step list.
// RUN: dlc-opt %s --dlc-schedule --dlc-plan-memory | FileCheck %s
// Without a schedule there is nothing to plan.
// RUN: not dlc-opt %s --dlc-plan-memory 2>&1 | FileCheck %s --check-prefix=NOSCHEDULE

// A chain of three CPU kernels, each value 128 bytes: the input is dead once
// the first kernel has read it and %a once the second has, so %b takes the
// input's bytes and %c takes %a's: two slots, the liveness bound. The
// constant (too large to be cloned into its kernel) lives in a segment.
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %w = dlc.constant dense<0.5> : tensor<128xf32>
  %wv = dlc.reshape %w : tensor<128xf32> -> tensor<4x32xf32>
  %a = dlc.exp %x : tensor<4x8xf32>
  %b = dlc.tanh %a : tensor<4x8xf32>
  %c = dlc.neg %b : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// CHECK: dlc.arena_bytes = array<i64: 256>
// CHECK-SAME: dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = [[X:[0-9]+]]>,
// CHECK-SAME: #dlc.buffer<name = "constant_0", device = 0, offset = 0>,
// CHECK-SAME: #dlc.buffer<name = "reshape_1", device = 0, view_of = 1, offset = 0>,
// CHECK-SAME: #dlc.buffer<name = "exp_2", device = 0, offset = [[A:[0-9]+]]>,
// CHECK-SAME: #dlc.buffer<name = "tanh_3", device = 0, offset = [[X]]>,
// CHECK-SAME: #dlc.buffer<name = "neg_4", device = 0, offset = [[A]]>]
// CHECK-SAME: dlc.peak_live_bytes = array<i64: 256>

// NOSCHEDULE: error: malformed schedule: @main has no dlc.devices, dlc.buffers, dlc.steps and dlc.event_count (run dlc-schedule and dlc-plan-memory first)
