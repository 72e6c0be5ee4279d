// A device spec's kernel_flops give an op kind its own rate: the same spec
// with linear at half the peak (Inputs/kernel_flops_linear.json) doubles the
// linears' estimates and leaves every other op's alone; the dump names the
// profile (file: source).
//
// The same spec without kernel_flops and source:
// RUN: grep -v '"kernel_flops"' %S/Inputs/kernel_flops_linear.json | sed 's/"launch_overhead_us": 0,/"launch_overhead_us": 0}]}/' > %t-peak.json
// RUN: dlc compile %models/mlp.mlir --device-spec=%t-peak.json --print-placement -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=PEAK
// RUN: dlc compile %models/mlp.mlir --device-spec=%S/Inputs/kernel_flops_linear.json --print-placement -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=HALF
// PEAK: 0  cpu       cost              514.130  f32   dlc.linear        /fc1/Gemm
// PEAK: 1  cpu       cost                3.277  f32   dlc.gelu          /act1/Gelu
// PEAK: profiles:
// PEAK-NEXT: cpu {{.*}}-peak.json{{$}}
// HALF: 0  cpu       cost             1028.260  f32   dlc.linear        /fc1/Gemm
// HALF: 1  cpu       cost                3.277  f32   dlc.gelu          /act1/Gelu
// HALF: profiles:
// HALF-NEXT: cpu {{.*}}kernel_flops_linear.json: a hand-written test profile
