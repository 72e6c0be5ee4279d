// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/small_gpu.json})' --split-input-file --verify-diagnostics
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/no_softmax_gpu.json devices=cpu,cuda:0 policy=gpu fallback=error})' --split-input-file 2>&1 | FileCheck %s --check-prefix=STRICT

// Pins that exceed a device's memory: 3 x 16 KiB pinned to a 40000-byte GPU.
func.func @pins_exceed_memory(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %a = dlc.relu %x {device = #dlc.device<cuda:0>} : tensor<64x64xf32>
  %b = dlc.exp %a {device = #dlc.device<cuda:0>} : tensor<64x64xf32>
  // expected-error @below {{pins exceed the memory of cuda:0: op 'tanh_2' needs 16384 more bytes with 32768 of 40000 in use}}
  %c = dlc.tanh %b {device = #dlc.device<cuda:0>} : tensor<64x64xf32>
  return %a, %b, %c : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// STRICT: error: op 'softmax_0' (dlc.softmax) cannot run on cuda:0 and --fallback=error refuses the CPU
func.func @policy_unsupported_strict(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = dlc.softmax %x : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
