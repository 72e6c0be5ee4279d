// The PyTorch exports of pytorch_models.mlir (MLP, ResNet-18 at 64x64, a
// 2-block encoder, a BERT-like classifier) cross-compiled for AArch64 and run
// by the cross-built runtime under qemu-aarch64 (tools/build-aarch64.sh) match
// PyTorch's outputs within the same tolerance as on the host.
// REQUIRES: aarch64-qemu
// RUN: rm -rf %t && mkdir -p %t
// RUN: %onnx-python %S/../models/export.py %t/models > %t/export.log 2>&1
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-onnx-model %t/models/mlp %t/mlp --cpu=neoverse-n1 | FileCheck %s --check-prefix=MLP
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-onnx-model %t/models/resnet18 %t/resnet --cpu=neoverse-n1 | FileCheck %s --check-prefix=RESNET
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-onnx-model %t/models/encoder %t/enc --cpu=cortex-a72 | FileCheck %s --check-prefix=ENC
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-onnx-model %t/models/bert %t/bert --cpu=neoverse-v1 | FileCheck %s --check-prefix=BERT
// Over the CPU and two simulated GPUs, placed by cost, the ordering checker on.
// RUN: env DLC_RUN="%dlc-run-aarch64" %check-onnx-model %t/models/resnet18 %t/resnet-cost --cpu=neoverse-n1 --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=RESNET
// MLP: mlp: ok
// RESNET: resnet18: ok
// ENC: encoder: ok
// BERT: bert: ok
