// The GPT-style causal decoder (test/models/export.py: 2 blocks, d 128, 4
// heads, GPT-2's tril mask buffer sliced to the sequence with masked_fill, a
// tied LM head) exported with a dynamic sequence (dynamic_axes: dim_param 'seq'
// on dim 1 of the token ids x [1, t] and of the logits y [1, t, 512]) and
// compiled once with --max-dim=seq=64: the one artifact runs 16, 40 and 64
// tokens, each matching PyTorch run at that length. Its attention (scores
// [1, 4, t, t], the masked softmax over the keys, the product with V) and the
// position embedding (arange(t) picking rows of a table) read the sequence
// whole: kernels sized at run time (passes/SymbolExtents.cpp); the rest runs
// per token.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %onnx-python %S/../models/export.py %t/models --models gpt --dynamic-seq 1,2,7,16,40,64 > %t/export.log 2>&1
// RUN: %check-dynamic-sequence %t/models/gpt %t/gpt 16,40,64 | FileCheck %s
// RUN: %check-dynamic-sequence %t/models/gpt %t/gpt-short 1,2,7 | FileCheck %s --check-prefix=SHORT
// RUN: dlc inspect %t/gpt/model.dlcm | FileCheck %s --check-prefix=INSPECT
// As a pipeline over the CPU and two simulated GPUs (the sized kernels' host
// code runs on them), and refused by name as CUDA C++:
// RUN: %check-dynamic-sequence %t/models/gpt %t/gpt-pipe 16,40,64 --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda --gpu=sim --check-ordering | FileCheck %s
// RUN: not %check-dynamic-sequence %t/models/gpt %t/gpt-cuda 16 --devices=cpu,cuda:0 --placement=gpu 2>&1 | FileCheck %s --check-prefix=CUDA
// CHECK: gpt length 16: ok (shape [1, 16, 512],
// CHECK: gpt length 40: ok (shape [1, 40, 512],
// CHECK: gpt length 64: ok (shape [1, 64, 512],
// SHORT: gpt length 1: ok (shape [1, 1, 512],
// SHORT: gpt length 2: ok (shape [1, 2, 512],
// SHORT: gpt length 7: ok (shape [1, 7, 512],
// INSPECT: symbolic batch: 'seq', 1 to 64 per run
// INSPECT: input  0 'x': i64 [1,?] at most [1,64], 512 bytes, indices in [0, 512), dim 1 = 1 x seq
// INSPECT: output 0 'y': f32 [1,?,512] at most [1,64,512], 131072 bytes, dim 1 = 1 x seq
// INSPECT: ops: /blocks/blocks.0/attn/Transpose, /blocks/blocks.0/attn/MatMul, /blocks/blocks.0/attn/Mul, /blocks/blocks.0/attn/Where, /blocks/blocks.0/attn/Softmax
// INSPECT-NEXT: sized at run time: called once per run with its size
// CUDA: error: loc("/tok/Gather"): symbolic size: GPU kernel 0 ('/tok/Gather') reads the symbol's dims whole (a kernel sized at run time), which the CUDA kernels do not take yet: pin it to the CPU
