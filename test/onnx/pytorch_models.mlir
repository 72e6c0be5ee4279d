// PyTorch models exported to ONNX (test/models/export.py: MLP, ResNet-18 at
// 64x64, a 2-block transformer encoder, a BERT-like nn.TransformerEncoder
// classifier on token ids, a 1-D conv keyword spotter: Conv1d, MaxPool1d with
// ceil_mode, AvgPool1d; a 2-layer LSTM classifier; a bidirectional GRU tagger;
// the same two over 100 and 60 steps, as dlc.loops;
// a GPT-style causal decoder with a tied head; a TorchScript module whose `if`
// on a run-time value exports as ONNX If) compiled from their .onnx files match
// PyTorch's outputs (|dlc - torch| <= 1e-4 + 1e-3 |torch|): on the CPU, placed
// by cost over the CPU and two simulated GPUs, and as a 2-stage pipeline, with
// the ordering checker on. GPU kernels get host code only (--no-cuda): the
// simulated GPUs run that.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %onnx-python %S/../models/export.py %t/models > %t/export.log 2>&1
// RUN: %check-onnx-model %t/models/mlp %t/mlp-cpu | FileCheck %s --check-prefix=MLP
// RUN: %check-onnx-model %t/models/resnet18 %t/resnet-cpu | FileCheck %s --check-prefix=RESNET
// RUN: %check-onnx-model %t/models/encoder %t/enc-cpu | FileCheck %s --check-prefix=ENC
// RUN: %check-onnx-model %t/models/bert %t/bert-cpu | FileCheck %s --check-prefix=BERT
// RUN: %check-onnx-model %t/models/kws %t/kws-cpu | FileCheck %s --check-prefix=KWS
// RUN: %check-onnx-model %t/models/kws %t/kws-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=KWS
// RUN: %check-onnx-model %t/models/lstm %t/lstm-cpu | FileCheck %s --check-prefix=LSTM
// RUN: %check-onnx-model %t/models/lstm %t/lstm-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=LSTM
// RUN: %check-onnx-model %t/models/gru %t/gru-cpu | FileCheck %s --check-prefix=GRU
// RUN: %check-onnx-model %t/models/gru %t/gru-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=GRU
// RUN: %check-onnx-model %t/models/gru %t/gru-emu --devices=cpu,cuda:0 --placement=gpu --gpu-host-code=emulated --no-cuda --gpu=sim | FileCheck %s --check-prefix=GRU
// RUN: %check-onnx-model %t/models/lstm_long %t/lstm-long-cpu | FileCheck %s --check-prefix=LSTMLONG
// RUN: %check-onnx-model %t/models/lstm_long %t/lstm-long-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=LSTMLONG
// RUN: %check-onnx-model %t/models/gru_long %t/gru-long-emu --devices=cpu,cuda:0 --placement=gpu --gpu-host-code=emulated --no-cuda --gpu=sim | FileCheck %s --check-prefix=GRULONG
// RUN: %check-onnx-model %t/models/gpt %t/gpt-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=GPT
// RUN: %check-onnx-model %t/models/gpt %t/gpt-emu --devices=cpu,cuda:0 --placement=gpu --gpu-host-code=emulated --no-cuda --gpu=sim | FileCheck %s --check-prefix=GPT
// RUN: %check-onnx-model %t/models/scripted %t/scripted-cpu | FileCheck %s --check-prefix=SCRIPTED
// RUN: %check-onnx-model %t/models/scripted %t/scripted-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=SCRIPTED
// RUN: %check-onnx-model %t/models/kws %t/kws-emu --devices=cpu,cuda:0 --placement=gpu --gpu-host-code=emulated --no-cuda --gpu=sim | FileCheck %s --check-prefix=KWS
// RUN: %check-onnx-model %t/models/mlp %t/mlp-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: %check-onnx-model %t/models/resnet18 %t/resnet-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=RESNET
// RUN: %check-onnx-model %t/models/encoder %t/enc-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=ENC
// RUN: %check-onnx-model %t/models/bert %t/bert-cost --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=BERT
// RUN: %check-onnx-model %t/models/mlp %t/mlp-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=MLP
// RUN: %check-onnx-model %t/models/resnet18 %t/resnet-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=RESNET
// RUN: %check-onnx-model %t/models/encoder %t/enc-pipe --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=ENC
// Pipelined, the stages land on both GPUs.
// RUN: dlc inspect %t/enc-pipe/model.dlcm | FileCheck %s --check-prefix=PIPE
// MLP: mlp: ok
// RESNET: resnet18: ok
// ENC: encoder: ok
// BERT: bert: ok
// KWS: kws: ok
// LSTM: lstm: ok
// LSTMLONG: lstm_long: ok
// GRULONG: gru_long: ok
// GRU: gru: ok
// GPT: gpt: ok
// SCRIPTED: scripted: ok
// PIPE-DAG: cuda:0
// PIPE-DAG: cuda:1
