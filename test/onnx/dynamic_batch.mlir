// PyTorch models exported with a dynamic batch (torch.onnx.export's
// dynamic_axes: dim_param 'batch' on dim 0 of x and y; test/models/export.py
// --dynamic-batch=4) compiled once with --max-dim=batch=4: the one artifact
// runs batches 1, 3 and 4, each matching PyTorch's outputs for its images
// (|dlc - torch| <= 1e-4 + 1e-3 |torch|). Placed over simulated GPUs too (by
// cost; all on a GPU with the CUDA C++, emitted at one unit, compiled for the
// host). The BERT-like classifier is sequence-first (nn.TransformerEncoder
// without batch_first): its transposes move the batch to dim 1 and its
// attention merges it with the sequence ([S*B, E]), each unit a strided slice
// of the bound's buffers (passes/BatchDims.cpp); on the CPU and over simulated
// GPUs, and refused by name as CUDA C++ (which takes contiguous units). The
// 2-layer LSTM classifier (batch_first, exported as ONNX LSTMs, the batch on
// dim 1 of its steps, zero initial states of the batch's shape, splats that
// carry it) runs too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %onnx-python %S/../models/export.py %t/models --models mlp,resnet18,encoder,kws,gpt,bert,lstm --dynamic-batch 4 > %t/export.log 2>&1
// RUN: %check-dynamic-batch %t/models/mlp %t/mlp 1,3,4 | FileCheck %s --check-prefix=MLP
// RUN: %check-dynamic-batch %t/models/resnet18 %t/resnet18 1,3,4 | FileCheck %s --check-prefix=RESNET
// RUN: %check-dynamic-batch %t/models/resnet18 %t/resnet18-cost 1,3,4 --devices=cpu,cuda:0,cuda:1 --placement=cost --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=RESNET
// RUN: %check-dynamic-batch %t/models/gpt %t/gpt-emu 1,3,4 --devices=cpu,cuda:0 --placement=gpu --gpu-host-code=emulated --no-cuda --gpu=sim | FileCheck %s --check-prefix=GPT
// RUN: %check-dynamic-batch %t/models/encoder %t/encoder 1,3,4 | FileCheck %s --check-prefix=ENC
// RUN: %check-dynamic-batch %t/models/kws %t/kws 1,3,4 | FileCheck %s --check-prefix=KWS
// RUN: %check-dynamic-batch %t/models/gpt %t/gpt 1,3,4 | FileCheck %s --check-prefix=GPT
// RUN: %check-dynamic-batch %t/models/bert %t/bert 1,3,4 | FileCheck %s --check-prefix=BERT
// RUN: %check-dynamic-batch %t/models/bert %t/bert-pipe 1,3,4 --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s --check-prefix=BERT
// RUN: %check-dynamic-batch %t/models/lstm %t/lstm 1,3,4 | FileCheck %s --check-prefix=LSTM
// RUN: not %check-dynamic-batch %t/models/bert %t/bert-emu 1 --devices=cpu,cuda:0 --placement=gpu --gpu-host-code=emulated --no-cuda --gpu=sim 2>&1 | FileCheck %s --check-prefix=BERT-CUDA
// MLP: mlp batch 1: ok (shape [1, 10],
// MLP: mlp batch 3: ok (shape [3, 10],
// MLP: mlp batch 4: ok (shape [4, 10],
// RESNET: resnet18 batch 1: ok (shape [1, 1000],
// RESNET: resnet18 batch 3: ok (shape [3, 1000],
// RESNET: resnet18 batch 4: ok (shape [4, 1000],
// ENC: encoder batch 1: ok (shape [1, 128, 256],
// ENC: encoder batch 3: ok (shape [3, 128, 256],
// ENC: encoder batch 4: ok (shape [4, 128, 256],
// KWS: kws batch 1: ok (shape [1, 12],
// KWS: kws batch 3: ok (shape [3, 12],
// KWS: kws batch 4: ok (shape [4, 12],
// GPT: gpt batch 1: ok (shape [1, 40, 512],
// GPT: gpt batch 3: ok (shape [3, 40, 512],
// GPT: gpt batch 4: ok (shape [4, 40, 512],
// BERT: bert batch 1: ok (shape [1, 2],
// BERT: bert batch 3: ok (shape [3, 2],
// BERT: bert batch 4: ok (shape [4, 2],
// LSTM: lstm batch 1: ok (shape [1, 8],
// LSTM: lstm batch 3: ok (shape [3, 8],
// LSTM: lstm batch 4: ok (shape [4, 8],
// BERT-CUDA: error: loc("/Transpose"): symbolic batch: GPU kernel 1 ('/Transpose') reads or writes the batch off dim 0 (a strided unit), which the CUDA kernels do not take yet: pin it to the CPU
