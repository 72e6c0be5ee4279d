// Models split by hand over the CPU and simulated GPUs (explicit pins and
// copies, as the placement passes write them) give the reference
// interpreter's outputs; --check-ordering verifies every read is ordered
// after its write across the streams.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s two_devices %t --gpu=sim --check-ordering | FileCheck %s --check-prefix=TWO
// RUN: %check-e2e %s three_devices %t --gpu=sim --check-ordering | FileCheck %s --check-prefix=THREE
// RUN: dlc inspect %t/three_devices.dlcm | FileCheck %s --check-prefix=INSPECT
// TWO: two_devices y: ok
// THREE: three_devices y: ok
// INSPECT: steps of cpu
// INSPECT: copy
// INSPECT: record event
// INSPECT: steps of cuda:0
// INSPECT: wait event
// INSPECT: steps of cuda:1
// Without --gpu=sim an artifact with GPUs says what it needs.
// RUN: not dlc run %t/three_devices.dlcm 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: {{GPU|gpu}}

func.func @two_devices(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %a = dlc.relu %x : tensor<4x8xf32>
  %g = dlc.copy %a to cuda:0 : tensor<4x8xf32>
  %b = dlc.exp %g {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %c = dlc.neg %b {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %h = dlc.copy %c to cpu : tensor<4x8xf32>
  %d = dlc.add %h, %a : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// A two-stage pipeline over two GPUs: a linear layer each, GPU to GPU copy.
func.func @three_devices(%x: tensor<8x16xf32> {dlc.name = "x"}, %w1: tensor<16x32xf32>, %w2: tensor<32x8xf32>)
    -> (tensor<8x8xf32> {dlc.name = "y"}) {
  %x0 = dlc.copy %x to cuda:0 : tensor<8x16xf32>
  %w10 = dlc.copy %w1 to cuda:0 : tensor<16x32xf32>
  %h = dlc.matmul %x0, %w10 {device = #dlc.device<cuda:0>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %r = dlc.gelu %h {device = #dlc.device<cuda:0>} : tensor<8x32xf32>
  %r1 = dlc.copy %r to cuda:1 : tensor<8x32xf32>
  %w21 = dlc.copy %w2 to cuda:1 : tensor<32x8xf32>
  %y = dlc.matmul %r1, %w21 {device = #dlc.device<cuda:1>} : (tensor<8x32xf32>, tensor<32x8xf32>) -> tensor<8x8xf32>
  %p = dlc.softmax %y {device = #dlc.device<cuda:1>} : tensor<8x8xf32>
  %out = dlc.copy %p to cpu : tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}

// A copy nobody reads still gets bytes of its own on its destination.
// RUN: %check-e2e %s dead_copy %t --gpu=sim --check-ordering | FileCheck %s --check-prefix=DEAD
// DEAD: dead_copy y: ok
func.func @dead_copy(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %g = dlc.copy %x to cuda:0 : tensor<4x8xf32>
  %a = dlc.relu %x : tensor<4x8xf32>
  %g2 = dlc.copy %a to cuda:0 : tensor<4x8xf32>
  %b = dlc.exp %g2 {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  %h = dlc.copy %b to cpu : tensor<4x8xf32>
  return %h : tensor<4x8xf32>
}
