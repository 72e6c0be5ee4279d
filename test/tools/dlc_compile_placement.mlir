// dlc compile with placement options: --emit=mlir prints the placed IR with
// its copies and stops; a CPU-only placement compiles on; GPU ops are refused
// until GPU code generation exists.
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
// RUN: not dlc compile %models/mlp.mlir --devices=cpu,cuda:0 -o %t-gpu.dlcm 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: error: the placement puts ops on GPUs, but GPU code generation is not available yet (issues 5 and 7)
//
// RUN: not dlc compile %models/mlp.mlir --devices=cpu --pin=fc1=cuda:0 --emit=mlir 2>&1 | FileCheck %s --check-prefix=PIN
// PIN: error: {{.*}}op '/fc1/Gemm' is pinned to cuda:0 by --pin='fc1=cuda:0', which is not among the devices (cpu)
