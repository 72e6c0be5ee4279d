// Errors in the pass's options and device spec name what is wrong.
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,tpu:0})' 2>&1 | FileCheck %s --check-prefix=DEV
// DEV: error: --devices: unknown device 'tpu:0' (expected cpu or cuda:N, N >= 0)
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{policy=fastest})' 2>&1 | FileCheck %s --check-prefix=POL
// POL: error: unknown --placement 'fastest' (expected cost, cpu, gpu, pipeline:N, data-parallel:N)
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{policy=gpu})' 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: error: --placement=gpu needs a cuda device among --devices (got cpu)
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=pipeline:2})' 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: error: --placement=pipeline:2 needs 2 GPUs among the devices, got 1
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=data-parallel:2})' 2>&1 | FileCheck %s --check-prefix=DP
// DP: error: --placement=data-parallel:2 needs 2 GPUs among the devices, got 1
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 policy=data-parallel:x})' 2>&1 | FileCheck %s --check-prefix=DPX
// DPX: error: unknown --placement 'data-parallel:x'
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{pins=*relu=cuda:0})' 2>&1 | FileCheck %s --check-prefix=REGEX
// REGEX: error: --pin='*relu=cuda:0': invalid regex:
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{pins=relu})' 2>&1 | FileCheck %s --check-prefix=PINSYNTAX
// PINSYNTAX: error: --pin expects REGEX=DEVICE, got 'relu'
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{fallback=gpu})' 2>&1 | FileCheck %s --check-prefix=FALLBACK
// FALLBACK: error: unknown --fallback 'gpu' (expected cpu or error)
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/negative_memory.json})' 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: {{.*}}negative_memory.json: devices[0] (cpu).memory_bytes: must be non-negative, got -1
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/unknown_op.json})' 2>&1 | FileCheck %s --check-prefix=OP
// OP: error: device spec: cpu: supported_ops names 'frobnicate', which is not a dlc op
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/small_gpu.json devices=cuda:1})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown device 'cuda:1': {{.*}}small_gpu.json has cpu, cuda:0
// RUN: not dlc-opt %s --pass-pipeline='builtin.module(dlc-place{device-spec=%S/Inputs/missing.json})' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot read device spec '{{.*}}missing.json'
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = dlc.relu %x : tensor<8xf32>
  return %r : tensor<8xf32>
}
