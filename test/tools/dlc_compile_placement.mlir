// dlc compile with placement options: --emit=mlir prints the placed IR with
// its copies and stops; a CPU-only placement compiles on; a placement over
// GPUs compiles to an artifact that simulated GPUs run.
//
// RUN: dlc compile %models/mlp.mlir --devices=cpu,cuda:0 --print-placement --dump-placement=%t.json --emit=mlir 2>%t.err | FileCheck %s --check-prefix=IR
// IR: func.func @main{{.*}}dlc.placement = "cost"
// IR: dlc.copy %{{.*}} to cuda:0
// IR: dlc.linear {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.reason = "cost"
// IR: dlc.copy %{{.*}} to cpu
// RUN: FileCheck %s --check-prefix=TABLE < %t.err
// TABLE: placement of @main (policy cost)
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "schema": "dlc-placement/1",
// JSON: "makespan_us":
//
// RUN: dlc compile %models/mlp.mlir --placement=cpu --pin=fc1=cpu -o %t.dlcm
// RUN: dlc inspect %t.dlcm | FileCheck %s --check-prefix=ART
// ART: cpu
//
// RUN: dlc compile %models/mlp.mlir --devices=cpu,cuda:0 -o %t-gpu.dlcm
// RUN: dlc inspect %t-gpu.dlcm | FileCheck %s --check-prefix=GPU
// GPU: steps of cuda:0
// GPU: dlc.copy {{.*}} (estimated {{[0-9.]+}} us)
// GPU: links (2):
// GPU-NEXT: cpu -> cuda:0: {{[0-9.]+}} GB/s, latency {{[0-9.]+}} us
// GPU-NEXT: cuda:0 -> cpu:
// RUN: dlc run %t-gpu.dlcm --gpu=sim --sim-links --iterations=2 | FileCheck %s --check-prefix=SIMLINKS
// SIMLINKS: op kinds (per run; estimated: the cost model, measured: kernels split over their ops by estimate):
// SIMLINKS: dlc.copy: {{[0-9]+}} ops, estimated {{[0-9.]+}} us, measured {{[0-9.]+}} us
// SIMLINKS: throughput:
// SIMLINKS-NEXT: latency:
// RUN: not dlc run %t-gpu.dlcm 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: {{.*}}--gpu=sim
//
// RUN: not dlc compile %models/mlp.mlir --devices=cpu --pin=fc1=cuda:0 --emit=mlir 2>&1 | FileCheck %s --check-prefix=PIN
// PIN: error: {{.*}}op '/fc1/Gemm' is pinned to cuda:0 by --pin='fc1=cuda:0', which is not among the devices (cpu)
