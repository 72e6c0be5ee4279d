// The example models placed over the CPU and two simulated GPUs (cost and
// pipeline:2 placements) give the reference interpreter's outputs, with the
// ordering checker on.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %models/mlp.mlir main %t/mlp-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: %check-e2e %models/cnn.mlir main %t/cnn-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --gpu=sim --check-ordering | FileCheck %s --check-prefix=CNN
// RUN: %check-e2e %models/encoder.mlir main %t/enc-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --gpu=sim --check-ordering | FileCheck %s --check-prefix=ENC
// RUN: %check-e2e %models/mlp.mlir main %t/mlp-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: %check-e2e %models/encoder.mlir main %t/enc-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --gpu=sim --check-ordering | FileCheck %s --check-prefix=ENC
// RUN: dlc inspect %t/enc-pipe/main.dlcm | FileCheck %s --check-prefix=PIPE
// MLP: main probs: ok
// CNN: main logits: ok
// ENC: main y: ok
// PIPE-DAG: steps of cuda:0
// PIPE-DAG: steps of cuda:1
