// One artifact for any sequence length up to its bound (format 0.9): self-
// attention over a symbolic sequence (Inputs/sequence_attention.py: x [T, 8],
// 2 heads, the bound 16). The projections keep the tokens apart and run per
// token; the scores [2, T, T], the softmax over the keys and the product with
// V read the sequence whole (passes/SymbolExtents.cpp), so their kernels are
// sized at run time: called once per run, their loops over the sequence
// running to its length. Each run of n tokens is compared with the
// reference interpreter on the model written for n tokens alone: without a
// mask (every token reads every other) and with GPT-2's causal mask, a
// constant whose dims 0 and 1 have the sequence's extent (dlc.symbol_dims).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_symbolic_sequence.py %S/Inputs/sequence_attention.py %t/bi 16 1,3,7,16 --bidirectional | FileCheck %s
// RUN: %python %S/Inputs/check_symbolic_sequence.py %S/Inputs/sequence_attention.py %t/causal 16 1,2,9,16 | FileCheck %s --check-prefix=CAUSAL
// Models drawn at random (width, heads, mask, the keys' layout, scale, an MLP
// after: sequence_attention.py --seed), among them bounds equal to the width
// (8 with 8 features, 32 with 32: the sentinel keeps the symbol's loops apart):
// RUN: %python %S/Inputs/check_symbolic_sequence.py %S/Inputs/sequence_attention.py %t/seed1 11 1,5,11 --seed=1 | FileCheck %s --check-prefix=SEED1
// RUN: %python %S/Inputs/check_symbolic_sequence.py %S/Inputs/sequence_attention.py %t/seed4 8 1,3,8 --seed=4 | FileCheck %s --check-prefix=SEED4
// RUN: %python %S/Inputs/check_symbolic_sequence.py %S/Inputs/sequence_attention.py %t/seed5 32 1,11,32 --seed=5 | FileCheck %s --check-prefix=SEED5
// RUN: %python %S/Inputs/check_symbolic_sequence.py %S/Inputs/sequence_attention.py %t/seed7 29 2,14,29 --seed=7 | FileCheck %s --check-prefix=SEED7
// On two simulated GPUs, the sized kernels' host code runs there too:
// RUN: env DLC_RUN_FLAGS="--gpu=sim --check-ordering" %python %S/Inputs/check_symbolic_sequence.py %S/Inputs/sequence_attention.py %t/gpus 16 1,5,16 -- --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda | FileCheck %s --check-prefix=GPUS
// RUN: dlc inspect %t/causal/model.dlcm | FileCheck %s --check-prefix=INSPECT
// A mean over the sequence would divide by the bound: refused by name.
// RUN: %python %S/Inputs/sequence_attention.py 16 --mean > %t/mean.mlir
// RUN: not dlc compile %t/mean.mlir -o %t/mean.dlcm 2>&1 | FileCheck %s --check-prefix=MEAN
// The scores as an output (the sequence on two dims) are refused:
// RUN: sed -e 's/return %%y : tensor<16x8xf32>/return %%p : tensor<2x16x16xf32>/' -e 's/-> (tensor<16x8xf32> {dlc.name = "y"})/-> (tensor<2x16x16xf32> {dlc.name = "p"})/' %t/causal/model.mlir > %t/scores.mlir
// RUN: not dlc compile %t/scores.mlir -o %t/scores.dlcm 2>&1 | FileCheck %s --check-prefix=SCORES
// CHECK: size 1 y: shape [1, 8] rel-L2
// CHECK: size 3 y: shape [3, 8] rel-L2
// CHECK: size 7 y: shape [7, 8] rel-L2
// CHECK: size 16 y: shape [16, 8] rel-L2
// CAUSAL: size 1 y: shape [1, 8] rel-L2
// CAUSAL: size 2 y: shape [2, 8] rel-L2
// CAUSAL: size 9 y: shape [9, 8] rel-L2
// CAUSAL: size 16 y: shape [16, 8] rel-L2
// SEED1: size 1 y: shape [1, 2] rel-L2
// SEED1: size 5 y: shape [5, 2] rel-L2
// SEED1: size 11 y: shape [11, 2] rel-L2
// SEED4: size 1 y: shape [1, 8] rel-L2
// SEED4: size 3 y: shape [3, 8] rel-L2
// SEED4: size 8 y: shape [8, 8] rel-L2
// SEED5: size 1 y: shape [1, 32] rel-L2
// SEED5: size 11 y: shape [11, 32] rel-L2
// SEED5: size 32 y: shape [32, 32] rel-L2
// SEED7: size 2 y: shape [2, 8] rel-L2
// SEED7: size 14 y: shape [14, 8] rel-L2
// SEED7: size 29 y: shape [29, 8] rel-L2
// GPUS: size 1 y: shape [1, 8] rel-L2
// GPUS: size 5 y: shape [5, 8] rel-L2
// GPUS: size 16 y: shape [16, 8] rel-L2
// INSPECT: format: 0.9
// INSPECT: symbolic batch: 'seq', 1 to 16 per run
// INSPECT: ops: {{.*}}matmul{{.*}}select{{.*}}softmax
// INSPECT-NEXT: sized at run time: called once per run with its size
// INSPECT: ('softmax_{{[0-9]+}}') on cpu: F32 [2,16,16], 2048 bytes, the run's size on dims 1, 2
// MEAN: error: symbolic batch 'seq': op 'reduce_mean_{{[0-9]+}}' (dlc.reduce_mean) mixes the rows of the batch: it reduces over axis 0, the batch; read whole, it averages over a dim of the symbol's extent (its count would be the bound's)
// SCORES: error: symbolic batch 'seq': output 0 has the symbol on 2 dims; the runtime takes and returns it on dim 0 alone
