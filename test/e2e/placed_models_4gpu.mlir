// The example models placed over the CPU and four simulated GPUs (cost,
// pipeline:2, data-parallel:2 and :4) give the reference interpreter's outputs
// with the ordering checker on, and repeated runs give bit-identical outputs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %models/mlp.mlir main %t/mlp-cost --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --placement=cost --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: %check-e2e %models/cnn.mlir main %t/cnn-cost --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --placement=cost --gpu=sim --check-ordering | FileCheck %s --check-prefix=CNN
// RUN: %check-e2e %models/encoder.mlir main %t/enc-cost --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --placement=cost --gpu=sim --check-ordering | FileCheck %s --check-prefix=ENC
// RUN: %check-e2e %models/encoder.mlir main %t/enc-pipe --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --placement=pipeline:2 --gpu=sim --check-ordering | FileCheck %s --check-prefix=ENC
// RUN: %check-e2e %models/mlp.mlir main %t/mlp-dp --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --placement=data-parallel:4 --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: %check-e2e %models/cnn.mlir main %t/cnn-dp --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --placement=data-parallel:4 --gpu=sim --check-ordering | FileCheck %s --check-prefix=CNN
// RUN: %check-e2e %models/encoder.mlir main %t/enc-dp2 --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --placement=data-parallel:2 --gpu=sim --check-ordering | FileCheck %s --check-prefix=ENC
// MLP: main probs: ok
// CNN: main logits: ok
// ENC: main y: ok
//
// Bit-identical reruns: the same artifact run twice, and run 20 times with two
// runs in flight, writes the same bytes.
// RUN: dlc run %t/enc-pipe/main.dlcm --gpu=sim --check-ordering --output-dir %t/rerun1 > /dev/null
// RUN: dlc run %t/enc-pipe/main.dlcm --gpu=sim --check-ordering --output-dir %t/rerun2 --iterations=20 --in-flight=2 > /dev/null
// RUN: cmp %t/rerun1/y.npy %t/rerun2/y.npy
// RUN: cmp %t/rerun1/y.npy %t/enc-pipe/main.run/y.npy
