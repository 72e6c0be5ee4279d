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
//
// dlc probe-devices times dlc's own kernels per cost kind and writes a spec
// whose cpu carries them (kernel_flops) and says what measured it (source);
// the placement dump names the profile it placed with.
// RUN: dlc probe-devices %t-dlc.json --quick | FileCheck %s --check-prefix=DLC
// DLC: cpu: {{.+}}
// DLC: peak {{ *[0-9.]+}} GFLOP/s f32
// DLC: kind
// Each kind's FLOPs were found (its op's cost kind) and timed: a rate > 0.
// DLC-DAG: conv2d {{[0-9.]+}} {{[0-9]*[1-9][0-9]*\.[0-9]}} {{.*}}ResNet-18
// DLC-DAG: depthwise_conv2d {{[0-9.]+}} {{[0-9]*[1-9][0-9]*\.[0-9]}} {{.*}}MobileNetV2
// DLC-DAG: linear {{[0-9.]+}} {{[0-9]*[1-9][0-9]*\.[0-9]}} {{.*}}MLP
// DLC-DAG: matmul {{[0-9.]+}} {{[0-9]*[1-9][0-9]*\.[0-9]}} {{.*}}attention
// DLC-DAG: add {{.*}}bandwidth
// DLC: wrote {{.*}}-dlc.json
// RUN: FileCheck %s --check-prefix=DLCJSON < %t-dlc.json
// DLCJSON: "kind": "cpu"
// DLCJSON: "kernel_flops": {
// DLCJSON-NEXT: "conv2d":
// DLCJSON-NEXT: "depthwise_conv2d":
// DLCJSON-NEXT: "linear":
// DLCJSON-NEXT: "matmul":
// DLCJSON: "source": "dlc probe-devices on {{.+}}, target {{.+}}: {{.+}} FMA loop, dlc's kernels timed on one thread"
// DLCJSON-NOT: links
// RUN: dlc compile %models/mlp.mlir --device-spec=%t-dlc.json --print-placement -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=PROFILE
// PROFILE: profiles:
// PROFILE-NEXT: cpu {{.*}}-dlc.json: dlc probe-devices on
// RUN: dlc compile %models/mlp.mlir --devices=cpu,cuda:0 --print-placement -o %t.dlcm 2>&1 | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: profiles:
// BUILTIN-NEXT: cpu built-in from the target {{.+}} GFLOP/s f32 peak per core
// BUILTIN-NEXT: cuda:0 built-in: H200 SXM class
// The built-in cpu profile describes --cpu's target: x86-64-v3 is 8 f32 lanes x
// 2 FLOPs x 2 FMAs per cycle (LLVM's generic model) x an assumed 3 GHz.
// RUN: dlc compile %models/mlp.mlir --cpu=x86-64-v3 --devices=cpu,cuda:0 --print-placement --emit=mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=V3
// V3: profiles:
// V3-NEXT: cpu built-in from the target x86-64-v3 (96 GFLOP/s f32 peak per core at 3.00 GHz (assumed);
//
// --base keeps the other devices and links of a spec and replaces its cpu.
// RUN: dlc probe-devices %t-merged.json --quick --base=%t.json > /dev/null
// RUN: FileCheck %s --check-prefix=MERGED < %t-merged.json
// MERGED: "kind": "cpu"
// MERGED: "kernel_flops"
// MERGED: "source": "dlc probe-devices on
// MERGED: "kind": "cuda"
// MERGED: "source": "dlc-run --probe-devices: a simulated GPU
// MERGED: "links"
// RUN: dlc compile %models/mlp.mlir --device-spec=%t-merged.json --devices=cpu,cuda:0 --emit=mlir | FileCheck %s --check-prefix=IR
//
// RUN: not dlc probe-devices %t-x.json --cpu=bogus 2>&1 | FileCheck %s --check-prefix=BADCPU
// BADCPU: error: unknown target CPU 'bogus'
// RUN: not dlc probe-devices %t-x.json --base=%t-missing.json 2>&1 | FileCheck %s --check-prefix=BADBASE
// BADBASE: error: --base: cannot read device spec '{{.*}}-missing.json'
// RUN: not dlc probe-devices %t-nodir/x/spec.json --quick 2>&1 | FileCheck %s --check-prefix=BADOUT
// BADOUT: error: {{.*}}spec.json
// RUN: not dlc probe-devices 2>&1 | FileCheck %s --check-prefix=NOARG
// NOARG: Not enough positional command line arguments
