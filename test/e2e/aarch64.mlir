// AArch64: `--cpu=` an AArch64 CPU cross-compiles the kernels (NEON-sized
// tiles from the target description); the runtime cross-built by
// tools/build-aarch64.sh runs them under qemu-aarch64 and matches the
// reference interpreter. Correctness only: qemu's timings mean nothing.
// REQUIRES: aarch64-qemu
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc target --cpu=neoverse-n1 | FileCheck %s --check-prefix=TARGET
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-e2e %models/mlp.mlir main %t/mlp --cpu=neoverse-n1 | FileCheck %s --check-prefix=MLP
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-e2e %models/cnn.mlir main %t/cnn --cpu=cortex-a72 | FileCheck %s --check-prefix=CNN
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-e2e %models/encoder.mlir main %t/enc --cpu=neoverse-v1 | FileCheck %s --check-prefix=ENC
// Mixed precision on simulated GPUs: f16 kernels' host code on AArch64.
// RUN: env DLC_RUN="%dlc-run-aarch64" %python %S/Inputs/check_mixed.py %models/mlp.mlir %t/mlp16 --cpu=neoverse-n1 --devices=cpu,cuda:0 --precision=mixed --no-cuda --gpu=sim | FileCheck %s --check-prefix=MIXED
// RUN: dlc inspect %t/mlp/main.dlcm | FileCheck %s --check-prefix=INSPECT
// On this x86-64 machine the AArch64 code is refused, never run.
// RUN: not dlc run %t/mlp/main.dlcm 2>&1 | FileCheck %s --check-prefix=HOST
// One artifact for both: each machine runs its own variant.
// RUN: dlc compile %models/mlp.mlir --cpu=x86-64-v3,neoverse-n1 -o %t/both.dlcm
// RUN: %dlc-run-aarch64 --inspect %t/both.dlcm | FileCheck %s --check-prefix=ON-ARM
// RUN: dlc inspect %t/both.dlcm | FileCheck %s --check-prefix=ON-X86
// RUN: %dlc-run-aarch64 %t/both.dlcm --output-dir %t/both-arm > /dev/null
// RUN: dlc run %t/both.dlcm --output-dir %t/both-x86 > /dev/null
// RUN: %python %S/Inputs/check_close.py %t/both-arm/probs.npy %t/both-x86/probs.npy | FileCheck %s --check-prefix=SAME

// TARGET: cpu: neoverse-n1 (aarch64): 32 x 128-bit vector registers, neon
// MLP: main probs: ok
// CNN: main {{.*}}: ok
// ENC: main y: ok
// MIXED: probs: ok
// INSPECT: 0: aarch64-unknown-linux-gnu, target_cpu 'neoverse-n1', features [neon,fullfp16,dotprod]
// HOST: is compiled for 'aarch64-unknown-linux-gnu', not for this machine (x86_64)
// ON-ARM: {{^}}   0: x86-64-v3 (x86_64-{{.*}}), features [{{.*}}]; this CPU: is compiled for 'x86_64-{{.*}}', not for this machine (aarch64)
// ON-ARM-NEXT: {{^}}  *1: neoverse-n1 (aarch64-unknown-linux-gnu), features [dotprod,fullfp16,neon]; this CPU: ok
// ON-X86: {{^}}  *0: x86-64-v3
// SAME: close
