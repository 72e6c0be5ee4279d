// The example models over cpu + 2 built-in H200-class GPUs: cost puts their
// work on the GPUs; location-name pins; every dump format; pipeline:2.
//
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 print=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MLP
// MLP: placement of @main (policy cost)
// The softmax of 10 logits goes back to the CPU (1 us there, 5 us of launch on a
// GPU, the same 1280-byte copy either way): the refinement's move.
// MLP: cuda:0    cost {{.*}} dlc.linear        /fc1/Gemm
// MLP: cpu       cost {{.*}} dlc.softmax       /softmax/Softmax
// MLP: copies: 2
// MLP-NEXT: cpu      -> cuda:0          100352 bytes {{.*}} x
// MLP-NEXT: cuda:0   -> cpu               1280 bytes {{.*}} /head/Gemm
// MLP: cuda:0           5 ops
//
// RUN: dlc-opt %models/cnn.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 print=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CNN
// The convolutions on a GPU; the final 512-byte linear back on the CPU (the
// refinement's move, as for the mlp's softmax).
// CNN: cuda:{{[01]}}    cost {{.*}} dlc.conv2d        /stem/conv/Conv
// CNN: cpu       cost {{.*}} dlc.linear        /fc/Gemm
// CNN: cpu               1 ops
//
// RUN: dlc-opt %models/encoder.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 print=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENC
// ENC: devices:
// ENC-NEXT: cpu
// ENC-NEXT: cuda:0{{ +[1-9][0-9]*}} ops
// ENC-NEXT: cuda:1{{ +[1-9][0-9]*}} ops
//
// Pins by location name, searched anywhere in it (first match wins).
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 pins=fc2=cuda:1,Gemm=cpu print=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIN
// PIN: cpu       pinned {{.*}} /fc1/Gemm
// PIN: cuda:1    pinned {{.*}} /fc2/Gemm
// PIN: cpu       pinned {{.*}} /head/Gemm
//
// Dumps by extension: JSON with the documented schema, DOT, text.
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 dump=%t.json})' -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "schema": "dlc-placement/1",
// JSON: "policy": "cost",
// JSON: "ops": [
// JSON: "name": "/fc1/Gemm",
// JSON-NEXT: "op": "dlc.linear",
// JSON-NEXT: "device": "cuda:0",
// JSON-NEXT: "reason": "cost",
// JSON-NEXT: "order": 0,
// JSON-NEXT: "estimated_us":
// JSON: "copies": [
// JSON: "value": "x",
// JSON-NEXT: "from": "cpu",
// JSON-NEXT: "to": "cuda:0",
// JSON-NEXT: "bytes": 100352,
// JSON-NEXT: "estimated_us":
// JSON: "devices": [
// JSON: "name": "cpu",
// JSON-NEXT: "ops": 1,
// JSON-NEXT: "busy_us": {{[0-9.]+}},
// JSON-NEXT: "peak_memory_bytes": 100352,
// JSON: "capacity_bytes": 68719476736
// JSON: "estimate": {
// JSON-NEXT: "makespan_us":
// JSON-NEXT: "lower_bound_us":
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0 dump=%t.dot})' -o /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// DOT: digraph "main" {
// DOT: legend1 [label="cuda:0", shape=box, fillcolor="[[GPU:#[0-9a-f]+]]"];
// DOT: n0 [label="/fc1/Gemm\ndlc.linear {{.*}} us\ncuda:0 (cost)", shape=box, fillcolor="[[GPU]]"];
// DOT: c0 [label="copy cpu -> cuda:0\n100352 B, {{.*}} us", shape=cds
// DOT: a0 -> c0;
// DOT: c0 -> n0;
// DOT: n0 -> n1;
// RUN: dlc-opt %models/mlp.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu dump=%t.txt})' -o /dev/null
// RUN: FileCheck %s --check-prefix=TXT < %t.txt
// TXT: placement of @main (policy cost)
// TXT: 0  cpu       cost {{.*}} dlc.linear        /fc1/Gemm
// TXT: copies: 0
//
// pipeline:2: two contiguous stages, one per GPU, and the period.
// RUN: dlc-opt %models/encoder.mlir --pass-pipeline='builtin.module(dlc-place{devices=cpu,cuda:0,cuda:1 policy=pipeline:2 dump=%t-pipe.json})' -o /dev/null
// RUN: FileCheck %s --check-prefix=PIPE < %t-pipe.json
// PIPE: "policy": "pipeline:2",
// PIPE: "name": "/blocks/blocks.0/norm1/LayerNormalization",
// PIPE-NEXT: "op": "dlc.layer_norm",
// PIPE-NEXT: "device": "cuda:0",
// PIPE: "name": "/blocks/blocks.0/Add_1",
// PIPE-NEXT: "op": "dlc.add",
// PIPE-NEXT: "device": "cuda:1",
// PIPE: "period_us":
