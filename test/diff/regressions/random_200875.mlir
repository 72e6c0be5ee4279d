// Shrunk by test/diff/difftest.py from seed 200875 (wrong).
// dlc-sink-reshapes paired the 6x1 operand with the wrong elements (6x4 -> 2x6x2
// keeps a 6 second to last, of another stride); on the CPU too.
// RUN: %check-e2e %s main %t --devices=cpu,cuda:0 --no-cuda --gpu-host-code=emulated --gpu=sim --check-ordering | FileCheck %s
// CHECK: main out0: ok
func.func @main(%a0: tensor<6x1xf32> {dlc.name = "in0"}, %a1: tensor<6x4xf32> {dlc.name = "in1"}) -> (tensor<2x6x2xf32> {dlc.name = "out0"}) {
  %v2 = dlc.reshape %a1 {device = #dlc.device<cuda:0>} : tensor<6x4xf32> -> tensor<2x6x2xf32> loc("op0")
  %v4 = dlc.add %a0, %v2 {device = #dlc.device<cuda:0>} : (tensor<6x1xf32>, tensor<2x6x2xf32>) -> tensor<2x6x2xf32> loc("op1")
  return %v4 : tensor<2x6x2xf32>
}
