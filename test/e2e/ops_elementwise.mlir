// Every elementwise op compiled to native code against the reference
// interpreter, on ragged shapes, with broadcasting, in f32, f16, bf16 and ints.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %s add %t | FileCheck %s --check-prefix=ADD
// RUN: %check-e2e %s sub_broadcast %t
// RUN: %check-e2e %s mul_scalar %t
// RUN: %check-e2e %s div %t
// RUN: %check-e2e %s pow %t
// RUN: %check-e2e %s max_min %t
// RUN: %check-e2e %s unary_chain %t
// RUN: %check-e2e %s transcendental %t
// RUN: %check-e2e %s gelu_both %t
// RUN: %check-e2e %s clip_relu %t
// RUN: %check-e2e %s f16_chain %t
// RUN: %check-e2e %s bf16_chain %t
// RUN: %check-e2e %s int_ops %t
// RUN: %check-e2e %s casts %t
// The trigonometric, hyperbolic and rounding functions, native and as CUDA
// C++ run by the emulation on a simulated GPU.
// RUN: %check-e2e %s trig_hyperbolic %t | FileCheck %s --check-prefix=TRIG
// RUN: %check-e2e %s rounding_sign %t
// RUN: %check-e2e %s trig_hyperbolic %t/gpu --devices=cpu,cuda:0 --placement=gpu --no-cuda --gpu-host-code=emulated --gpu=sim | FileCheck %s --check-prefix=TRIG
// RUN: %check-e2e %s rounding_sign %t/gpu --devices=cpu,cuda:0 --placement=gpu --no-cuda --gpu-host-code=emulated --gpu=sim
// TRIG-COUNT-11: ok (rel-L2
// ADD: add y: ok (rel-L2

func.func @add(%a: tensor<3x5x7xf32>, %b: tensor<3x5x7xf32>) -> (tensor<3x5x7xf32> {dlc.name = "y"}) {
  %0 = dlc.add %a, %b : tensor<3x5x7xf32>
  return %0 : tensor<3x5x7xf32>
}

func.func @sub_broadcast(%a: tensor<4x1x9xf32>, %b: tensor<5x1xf32>) -> tensor<4x5x9xf32> {
  %0 = dlc.sub %a, %b : (tensor<4x1x9xf32>, tensor<5x1xf32>) -> tensor<4x5x9xf32>
  return %0 : tensor<4x5x9xf32>
}

func.func @mul_scalar(%a: tensor<17x3xf32>) -> tensor<17x3xf32> {
  %s = dlc.constant dense<2.5> : tensor<f32>
  %0 = dlc.mul %a, %s : (tensor<17x3xf32>, tensor<f32>) -> tensor<17x3xf32>
  return %0 : tensor<17x3xf32>
}

func.func @div(%a: tensor<6x11xf32>, %b: tensor<11xf32>) -> tensor<6x11xf32> {
  %one = dlc.constant dense<1.5> : tensor<11xf32>
  %d = dlc.add %b, %one : tensor<11xf32>
  %0 = dlc.div %a, %d : (tensor<6x11xf32>, tensor<11xf32>) -> tensor<6x11xf32>
  return %0 : tensor<6x11xf32>
}

func.func @pow(%a: tensor<5x13xf32>) -> tensor<5x13xf32> {
  %x = dlc.abs %a : tensor<5x13xf32>
  %e = dlc.constant dense<[1.5]> : tensor<1xf32>
  %0 = dlc.pow %x, %e : (tensor<5x13xf32>, tensor<1xf32>) -> tensor<5x13xf32>
  return %0 : tensor<5x13xf32>
}

func.func @max_min(%a: tensor<9x7xf32>, %b: tensor<7xf32>) -> (tensor<9x7xf32>, tensor<9x7xf32>) {
  %0 = dlc.max %a, %b : (tensor<9x7xf32>, tensor<7xf32>) -> tensor<9x7xf32>
  %1 = dlc.min %a, %b : (tensor<9x7xf32>, tensor<7xf32>) -> tensor<9x7xf32>
  return %0, %1 : tensor<9x7xf32>, tensor<9x7xf32>
}

func.func @unary_chain(%a: tensor<33x5xf32>) -> tensor<33x5xf32> {
  %0 = dlc.neg %a : tensor<33x5xf32>
  %1 = dlc.abs %0 : tensor<33x5xf32>
  %2 = dlc.sqrt %1 : tensor<33x5xf32>
  %c = dlc.constant dense<0.25> : tensor<f32>
  %3 = dlc.add %1, %c : (tensor<33x5xf32>, tensor<f32>) -> tensor<33x5xf32>
  %4 = dlc.rsqrt %3 : tensor<33x5xf32>
  %5 = dlc.mul %2, %4 : tensor<33x5xf32>
  return %5 : tensor<33x5xf32>
}

func.func @transcendental(%a: tensor<7x19xf32>) -> (tensor<7x19xf32>, tensor<7x19xf32>, tensor<7x19xf32>, tensor<7x19xf32>, tensor<7x19xf32>) {
  %0 = dlc.exp %a : tensor<7x19xf32>
  %1 = dlc.log %0 : tensor<7x19xf32>
  %2 = dlc.tanh %a : tensor<7x19xf32>
  %3 = dlc.sigmoid %a : tensor<7x19xf32>
  %4 = dlc.erf %a : tensor<7x19xf32>
  return %0, %1, %2, %3, %4 : tensor<7x19xf32>, tensor<7x19xf32>, tensor<7x19xf32>, tensor<7x19xf32>, tensor<7x19xf32>
}

func.func @gelu_both(%a: tensor<3x100xf32>) -> (tensor<3x100xf32>, tensor<3x100xf32>) {
  %s = dlc.constant dense<3.0> : tensor<f32>
  %x = dlc.mul %a, %s : (tensor<3x100xf32>, tensor<f32>) -> tensor<3x100xf32>
  %0 = dlc.gelu %x : tensor<3x100xf32>
  %1 = dlc.gelu %x {tanh_approximation = true} : tensor<3x100xf32>
  return %0, %1 : tensor<3x100xf32>, tensor<3x100xf32>
}

func.func @clip_relu(%a: tensor<2x3x5x7xf32>) -> (tensor<2x3x5x7xf32>, tensor<2x3x5x7xf32>) {
  %0 = dlc.clip %a {min = -0.5, max = 0.25} : tensor<2x3x5x7xf32>
  %1 = dlc.relu %a : tensor<2x3x5x7xf32>
  return %0, %1 : tensor<2x3x5x7xf32>, tensor<2x3x5x7xf32>
}

func.func @f16_chain(%a: tensor<5x9xf16>, %b: tensor<9xf16>) -> tensor<5x9xf16> {
  %0 = dlc.mul %a, %b : (tensor<5x9xf16>, tensor<9xf16>) -> tensor<5x9xf16>
  %1 = dlc.tanh %0 : tensor<5x9xf16>
  %2 = dlc.add %1, %a : tensor<5x9xf16>
  return %2 : tensor<5x9xf16>
}

func.func @bf16_chain(%a: tensor<5x9xbf16>) -> tensor<5x9xbf16> {
  %0 = dlc.exp %a : tensor<5x9xbf16>
  %1 = dlc.sub %0, %a : tensor<5x9xbf16>
  return %1 : tensor<5x9xbf16>
}

func.func @int_ops(%a: tensor<4x6xi32>, %b: tensor<6xi32>) -> (tensor<4x6xi32>, tensor<4x6xi32>, tensor<4x6xi32>) {
  %0 = dlc.add %a, %b : (tensor<4x6xi32>, tensor<6xi32>) -> tensor<4x6xi32>
  %1 = dlc.mul %0, %a : tensor<4x6xi32>
  %2 = dlc.max %1, %b : (tensor<4x6xi32>, tensor<6xi32>) -> tensor<4x6xi32>
  %3 = dlc.neg %2 : tensor<4x6xi32>
  return %1, %2, %3 : tensor<4x6xi32>, tensor<4x6xi32>, tensor<4x6xi32>
}

func.func @casts(%a: tensor<3x7xf32>) -> (tensor<3x7xf16>, tensor<3x7xbf16>, tensor<3x7xi32>, tensor<3x7xf32>) {
  %s = dlc.constant dense<10.0> : tensor<f32>
  %x = dlc.mul %a, %s : (tensor<3x7xf32>, tensor<f32>) -> tensor<3x7xf32>
  %0 = dlc.cast %x : tensor<3x7xf32> -> tensor<3x7xf16>
  %1 = dlc.cast %x : tensor<3x7xf32> -> tensor<3x7xbf16>
  %2 = dlc.cast %x : tensor<3x7xf32> -> tensor<3x7xi32>
  %3 = dlc.cast %2 : tensor<3x7xi32> -> tensor<3x7xf32>
  return %0, %1, %2, %3 : tensor<3x7xf16>, tensor<3x7xbf16>, tensor<3x7xi32>, tensor<3x7xf32>
}

// Each function on its domain: asin, acos and atanh on (-1, 1), acosh from 1.
func.func @trig_hyperbolic(%a: tensor<6x17xf32>) -> (tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>) {
  %s = dlc.constant dense<3.0> : tensor<f32>
  %x = dlc.mul %a, %s : (tensor<6x17xf32>, tensor<f32>) -> tensor<6x17xf32>
  %u = dlc.clip %a {min = -0.99, max = 0.99} : tensor<6x17xf32>
  %one = dlc.constant dense<1.0> : tensor<f32>
  %ax = dlc.abs %x : tensor<6x17xf32>
  %g = dlc.add %ax, %one : (tensor<6x17xf32>, tensor<f32>) -> tensor<6x17xf32>
  %0 = dlc.sin %x : tensor<6x17xf32>
  %1 = dlc.cos %x : tensor<6x17xf32>
  %2 = dlc.tan %u : tensor<6x17xf32>
  %3 = dlc.asin %u : tensor<6x17xf32>
  %4 = dlc.acos %u : tensor<6x17xf32>
  %5 = dlc.atan %x : tensor<6x17xf32>
  %6 = dlc.sinh %x : tensor<6x17xf32>
  %7 = dlc.cosh %x : tensor<6x17xf32>
  %8 = dlc.asinh %x : tensor<6x17xf32>
  %9 = dlc.acosh %g : tensor<6x17xf32>
  %10 = dlc.atanh %u : tensor<6x17xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>
}

func.func @rounding_sign(%a: tensor<6x17xf32>, %i: tensor<9xi32>) -> (tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<9xi32>) {
  %s = dlc.constant dense<4.0> : tensor<f32>
  %x = dlc.mul %a, %s : (tensor<6x17xf32>, tensor<f32>) -> tensor<6x17xf32>
  %0 = dlc.ceil %x : tensor<6x17xf32>
  %1 = dlc.floor %x : tensor<6x17xf32>
  %2 = dlc.round %x : tensor<6x17xf32>
  %3 = dlc.sign %x : tensor<6x17xf32>
  %4 = dlc.sign %i : tensor<9xi32>
  return %0, %1, %2, %3, %4 : tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<6x17xf32>, tensor<9xi32>
}
