// dlc-run --probe-devices measures this machine (short) and writes a device
// spec in the schema of passes/README.md, which dlc compile --device-spec reads.
//
// RUN: dlc-run --probe-devices=%t.json | FileCheck %s --check-prefix=OUT
// OUT: probed in {{[0-9.]+}} s
// OUT: cpu: f32 {{[0-9.]+}} GFLOP/s
// OUT: no real GPU
// OUT: links between arenas:
// OUT: wrote
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "devices": [
// JSON: {"kind": "cpu", "memory_bytes":
// JSON: {"kind": "cuda", "index": 1,
// JSON: "links": {
// JSON: "bandwidth_bytes_per_s": {{\[\[}}0,
// JSON: "latency_us": {{\[\[}}0,
// RUN: dlc compile %models/mlp.mlir --device-spec=%t.json --devices=cpu --emit=mlir | FileCheck %s --check-prefix=IR
// IR: func.func @main
// RUN: dlc compile %models/mlp.mlir --device-spec=%t.json --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --emit=mlir | FileCheck %s --check-prefix=PIPE
// PIPE: dlc.placement = "pipeline:2"
//
// The CPU alone: no links.
// RUN: dlc-run --probe-devices=%t-cpu.json --sim-gpus=0
// RUN: FileCheck %s --check-prefix=CPU < %t-cpu.json
// CPU-NOT: links
// RUN: dlc compile %models/mlp.mlir --device-spec=%t-cpu.json --emit=mlir | FileCheck %s --check-prefix=IR
// RUN: not dlc-run --probe-devices=%t.json --sim-gpus=x 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --sim-gpus expects an integer in [0, 64], got 'x'
