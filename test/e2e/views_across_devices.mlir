// Views (reshape, flatten, squeeze) on another device than their source, and
// copies of views: a view of a value copied in has no step of its own, so a
// copy reading it must wait for the copy that brought the value (it did not:
// NaN from the encoder and wrong CNN logits under random placements, and a
// PyTorch encoder whose cost placement put one Squeeze alone on cuda:1).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s squeeze_alone %t --devices=cpu,cuda:0,cuda:1 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=SQUEEZE
// RUN: %check-e2e %s flatten_then_copy %t --devices=cpu,cuda:0,cuda:1 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=FLATTEN
// RUN: dlc compile %s --entry=squeeze_alone --devices=cpu,cuda:0,cuda:1 --no-cuda -o %t/s.dlcm
// RUN: dlc run %t/s.dlcm --gpu=sim --check-ordering --verify-schedule | FileCheck %s --check-prefix=VERIFIED
// SQUEEZE: squeeze_alone y: ok
// FLATTEN: flatten_then_copy y: ok
// VERIFIED: output 0 'y'

// cpu -> Squeeze on cuda:1 -> cpu: the squeeze's input arrives by a copy
// recorded on the cpu; the squeeze is a view of it, read back by a copy on
// cuda:1's stream, which must wait for that event first.
func.func @squeeze_alone(%x: tensor<4x1x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %a = dlc.tanh %x {device = #dlc.device<cpu>} : tensor<4x1x8xf32> loc("/a/Tanh")
  %s = dlc.reshape %a {device = #dlc.device<cuda:1>} : tensor<4x1x8xf32> -> tensor<4x8xf32> loc("/pool/Squeeze")
  %y = dlc.exp %s {device = #dlc.device<cpu>} : tensor<4x8xf32> loc("/b/Exp")
  return %y : tensor<4x8xf32>
}

// cuda:0 -> Flatten on the cpu (a view of the copied-back value) -> cuda:1.
func.func @flatten_then_copy(%x: tensor<2x3x4xf32> {dlc.name = "x"}) -> (tensor<2x12xf32> {dlc.name = "y"}) {
  %a = dlc.relu %x {device = #dlc.device<cuda:0>} : tensor<2x3x4xf32> loc("/conv/Relu")
  %f = dlc.reshape %a {device = #dlc.device<cpu>} : tensor<2x3x4xf32> -> tensor<2x12xf32> loc("/Flatten")
  %y = dlc.neg %f {device = #dlc.device<cuda:1>} : tensor<2x12xf32> loc("/fc/Neg")
  return %y : tensor<2x12xf32>
}
