// Persistent state in the scheduled IR: a state argument (dlc.state) gets a
// persistent buffer that the memory plan never shares, and the CPU's step
// list ends with a copy of the state's next value into it (the update in
// place that the next run starts from).
// RUN: dlc-opt %s --split-input-file --dlc-schedule --dlc-plan-memory | FileCheck %s
// The plan parses back: the artifact stage writes it.
// RUN: dlc-opt %s --split-input-file --dlc-schedule --dlc-plan-memory | dlc-opt --split-input-file | FileCheck %s

// An optimizer-like step: w <- w - 0.5 * g on the GPU, the step counter
// t <- t + 1 on the CPU, and `loss` an ordinary output. The GPU's copy of w
// and the CPU's kernel both read the old values before the write-backs.
func.func @main(%w: tensor<4xf32> {dlc.state = "w"}, %t: tensor<1xf32> {dlc.state = "t"},
                %g: tensor<4xf32>) -> (tensor<4xf32> {dlc.state = "w"}, tensor<4xf32>,
                                       tensor<1xf32> {dlc.state = "t"}) {
  %wg = dlc.copy %w to cuda:0 : tensor<4xf32>
  %gg = dlc.copy %g to cuda:0 : tensor<4xf32>
  %half = dlc.constant dense<0.5> : tensor<4xf32> {device = #dlc.device<cuda:0>}
  %next = dlc.kernel on cuda:0 -> tensor<4xf32> {
    %step = dlc.mul %gg, %half {device = #dlc.device<cuda:0>} : tensor<4xf32>
    %n = dlc.sub %wg, %step {device = #dlc.device<cuda:0>} : tensor<4xf32>
    dlc.yield %n : tensor<4xf32>
  }
  %back = dlc.copy %next to cpu : tensor<4xf32>
  %one = dlc.constant dense<1.0> : tensor<1xf32>
  %t1 = dlc.add %t, %one : tensor<1xf32>
  %loss = dlc.neg %back : tensor<4xf32>
  return %back, %loss, %t1 : tensor<4xf32>, tensor<4xf32>, tensor<1xf32>
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: dlc.buffers = [#dlc.buffer<name = "w", device = 0, persistent = true, offset = [[W:[0-9]+]]>,
// CHECK-SAME: #dlc.buffer<name = "t", device = 0, persistent = true, offset = [[T:[0-9]+]]>,
// The CPU: copies out, its kernels, then waits for the GPU's result and
// copies each next value into its state, in argument order.
// CHECK-SAME: dlc.steps = [{{\[}}#dlc.step<kind = "copy", buffers = [0, [[WG:[0-9]+]]]>,
// CHECK-SAME: #dlc.step<kind = "record", event = [[W_EVENT:[0-9]+]]>,
// CHECK-SAME: #dlc.step<kind = "call", kernel = 1, buffers = [1, [[T1:[0-9]+]]], outputs = 1>,
// CHECK-SAME: #dlc.step<kind = "wait", event = [[BACK_EVENT:[0-9]+]]>,
// CHECK-SAME: #dlc.step<kind = "call", kernel = 2, buffers = [[[BACK:[0-9]+]], [[LOSS:[0-9]+]]], outputs = 1>,
// CHECK-SAME: #dlc.step<kind = "copy", buffers = [[[BACK]], 0]>,
// CHECK-SAME: #dlc.step<kind = "copy", buffers = [[[T1]], 1]>],
// The GPU: the old w, then w - 0.5 g copied back.
// CHECK-SAME: [#dlc.step<kind = "wait", event = {{[0-9]+}}>, #dlc.step<kind = "wait", event = [[W_EVENT]]>,
// CHECK-SAME: #dlc.step<kind = "call", kernel = 0, buffers = [{{[0-9]+}}, [[WG]], [[NEXT:[0-9]+]]], outputs = 1>,
// CHECK-SAME: #dlc.step<kind = "copy", buffers = [[[NEXT]], [[BACK]]]>,
// CHECK-SAME: #dlc.step<kind = "record", event = [[BACK_EVENT]]>]]

// -----

// A state the step leaves as it is needs no copy.
func.func @main(%w: tensor<4xf32> {dlc.state = "w", dlc.initial = dense<2.0> : tensor<4xf32>},
                %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32> {dlc.state = "w"}) {
  %y = dlc.mul %x, %w : tensor<4xf32>
  return %y, %w : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @main
// CHECK-SAME: dlc.steps = [{{\[}}#dlc.step<kind = "call", kernel = 0, buffers = [1, 0, 2], outputs = 1>]]

// -----

// An output that views the old value (a reshape of it) gets bytes of its
// own, copied first: the host reads outputs after the update.
func.func @main(%w: tensor<4xf32> {dlc.state = "w"}) -> (tensor<2x2xf32>, tensor<4xf32> {dlc.state = "w"}) {
  %old = dlc.reshape %w : tensor<4xf32> -> tensor<2x2xf32>
  %n = dlc.neg %w : tensor<4xf32>
  return %old, %n : tensor<2x2xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @main
// CHECK-SAME: dlc.buffers = [#dlc.buffer<name = "w", device = 0, persistent = true, offset = 0>,
// CHECK-SAME: #dlc.buffer<name = "reshape_0", device = 0, offset = 64>,
// CHECK-SAME: dlc.steps = {{\[}}[#dlc.step<kind = "copy", buffers = [0, 1]>,
// CHECK-SAME: #dlc.step<kind = "call", kernel = 0, buffers = [0, 2], outputs = 1>,
// CHECK-SAME: #dlc.step<kind = "copy", buffers = [2, 0]>]]
