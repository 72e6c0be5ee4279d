// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/no_softmax_gpu.json devices=cpu,cuda:0 pins=tanh_0=cuda:2,softmax_0=cuda:0 fallback=error})' --split-input-file --verify-diagnostics

// An attribute pin to a device not among --devices.
func.func @pin_not_in_devices(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{op 'relu_0' is pinned to cuda:3 by its device attribute, which is not among the devices (cpu, cuda:0)}}
  %r = dlc.relu %x {device = #dlc.device<cuda:3>} : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A pattern pin to a device not among --devices names the op and the pin
// (ops without a location name are named <op>_<n>).
func.func @pattern_not_in_devices(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{op 'tanh_0' is pinned to cuda:2 by --pin='tanh_0=cuda:2', which is not among the devices (cpu, cuda:0)}}
  %r = dlc.tanh %x : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// An attribute pin on an op its device cannot run.
func.func @pin_unsupported(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{op 'softmax_0' is pinned to cuda:0, which cannot run dlc.softmax}}
  %s = dlc.softmax %x {device = #dlc.device<cuda:0>} : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

// --fallback=error: a pattern pin that would fall back is refused.
func.func @pattern_unsupported_strict(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{op 'softmax_0' matches --pin='softmax_0=cuda:0', but cuda:0 cannot run dlc.softmax and --fallback=error refuses the CPU}}
  %s = dlc.softmax %x : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
