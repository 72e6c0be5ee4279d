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
// data-parallel:2: the batch split over both GPUs (mlp 32 = 16 + 16, cnn 4 = 2 + 2,
// batch5 5 = 3 + 2), sliced and concatenated on the CPU.
// RUN: %check-e2e %models/mlp.mlir main %t/mlp-dp --devices=cpu,cuda:0,cuda:1 --placement=data-parallel:2 --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: %check-e2e %models/cnn.mlir main %t/cnn-dp --devices=cpu,cuda:0,cuda:1 --placement=data-parallel:2 --gpu=sim --check-ordering | FileCheck %s --check-prefix=CNN
// RUN: %check-e2e %S/Inputs/batch5.mlir main %t/b5-dp --devices=cpu,cuda:0,cuda:1 --placement=data-parallel:2 --gpu=sim --check-ordering | FileCheck %s --check-prefix=B5
// RUN: %check-e2e %S/Inputs/batch5.mlir main %t/b5-dp3 --devices=cpu,cuda:0,cuda:1,cuda:2 --placement=data-parallel:3 --gpu=sim --check-ordering | FileCheck %s --check-prefix=B5
// RUN: dlc inspect %t/cnn-dp/main.dlcm | FileCheck %s --check-prefix=PIPE
// MLP: main probs: ok
// CNN: main logits: ok
// ENC: main y: ok
// B5-DAG: main y: ok
// B5-DAG: main s: ok
// PIPE-DAG: steps of cuda:0
// PIPE-DAG: steps of cuda:1
