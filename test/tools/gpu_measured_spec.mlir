// A GPU check's figures become a measured GPU spec (tools/gpucheck/gpu_spec.py);
// dlc probe-devices --base puts this host's measured CPU in place of its
// placeholder, and placement uses both, naming each profile.
//
// RUN: %python %S/../../tools/gpucheck/gpu_spec.py %S/Inputs/gpu_figures.json %t-gpu.json | FileCheck %s --check-prefix=WROTE
// WROTE: wrote {{.*}}-gpu.json (2 GPUs)
// RUN: dlc probe-devices %t-merged.json --quick --base=%t-gpu.json > /dev/null
// RUN: dlc compile %models/mlp.mlir --device-spec=%t-merged.json --devices=cpu,cuda:0,cuda:1 --print-placement -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=PROFILES
// PROFILES: profiles:
// PROFILES-NEXT: cpu {{.*}}-merged.json: dlc probe-devices on
// PROFILES-NEXT: cuda:0 {{.*}}-merged.json: gpu-check on NVIDIA H200, 2026-12-02: PyTorch GEMMs and copies, dlc's GEMM
// PROFILES-NEXT: cuda:1 {{.*}}-merged.json: gpu-check on NVIDIA H200
// RUN: FileCheck %s --check-prefix=SPEC < %t-merged.json
// SPEC: "kind": "cuda"
// SPEC: "kernel_flops": {
// SPEC-NEXT: "matmul": {{(2.56e\+13|25600000000000)}}
//
// Figures that lack a field are refused, naming it.
// RUN: echo '{"gpu_name": "x"}' > %t-bad.json
// RUN: not %python %S/../../tools/gpucheck/gpu_spec.py %t-bad.json %t-x.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: gpu_spec: {{.*}}-bad.json: figures lack date, gpus, memory_bytes
