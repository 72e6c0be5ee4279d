// What dlc compile says when GPU code cannot be made: an architecture it does
// not generate for, and no NVRTC: a warning and host code only (the artifact
// runs on simulated GPUs), an error when GPU code was asked for explicitly
// (--cuda-arch, --emit=ptx); --no-cuda gives host code without a word.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not dlc compile %s --cuda-arch=sm_75 -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not dlc compile %s --cuda-arch=compute_90 -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: env DLC_NVRTC=%t/no-such-libnvrtc.so not dlc compile %s --cuda-arch=sm_90 -o %t/a.dlcm 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env DLC_NVRTC=%t/no-such-libnvrtc.so not dlc compile %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env DLC_NVRTC=%t/no-such-libnvrtc.so dlc compile %s -o %t/warned.dlcm 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: dlc inspect %t/warned.dlcm | FileCheck %s --check-prefix=HOST
// RUN: dlc run %t/warned.dlcm --gpu=sim > /dev/null
// RUN: env DLC_NVRTC=%t/no-such-libnvrtc.so dlc compile %s --no-cuda -o %t/host.dlcm
// RUN: dlc inspect %t/host.dlcm | FileCheck %s --check-prefix=HOST
// RUN: not dlc compile %s --emit=ptx --no-cuda 2>&1 | FileCheck %s --check-prefix=PTX
// A model without GPU kernels needs no NVRTC.
// RUN: env DLC_NVRTC=%t/no-such-libnvrtc.so dlc compile %models/mlp.mlir -o %t/cpu.dlcm

// ARCH: error: --cuda-arch: 'sm_75' is not an architecture dlc generates for (sm_80 or newer, e.g. sm_90)
// NAME: error: --cuda-arch: 'compute_90' is not an architecture dlc generates for
// NONE: error: GPU targets unavailable: NVRTC not found (tried {{.*}}no-such-libnvrtc.so)
// WARN: warning: GPU targets unavailable: NVRTC not found (tried {{.*}}no-such-libnvrtc.so); the GPU kernels get host code only (the artifact runs on simulated GPUs: --gpu=sim). --no-cuda silences this; --cuda-arch makes it an error
// PTX: error: --emit=ptx needs the CUDA code that --no-cuda leaves out
// HOST: 'k0' = k0_entry in library 0; ops: /softmax
// HOST-NOT: cuda module
func.func @main(%x: tensor<4x8xf32> {dlc.name = "x"}) -> (tensor<4x8xf32> {dlc.name = "y"}) {
  %c = dlc.copy %x to cuda:0 : tensor<4x8xf32>
  %s = dlc.softmax %c {device = #dlc.device<cuda:0>} : tensor<4x8xf32> loc("/softmax")
  %b = dlc.copy %s to cpu : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
