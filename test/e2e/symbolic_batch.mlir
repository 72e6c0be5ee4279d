// One artifact for any batch from 1 to its bound (format 0.8): the example
// models marked dlc.symbolic_batch are compiled once, and runs of several
// batches each give the reference interpreter's outputs for their units. The
// MLP's Linears also get a body for 8 units at once (its rows are the
// batch's): batch 11 runs one chunk of 8 and three single units, batch 13 two
// chunks (the second over units 8 to 15: a tail of 4 or more runs a whole chunk
// when it fits the bound; units 13 to 15 are scratch), 32 four chunks.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/^\(  func.func @main(.*)\) {$/\1 attributes {dlc.symbolic_batch = "batch"} {/' %models/cnn.mlir > %t/cnn.mlir
// RUN: sed 's/^\(  func.func @main(.*)\) {$/\1 attributes {dlc.symbolic_batch = "batch"} {/' %models/encoder.mlir > %t/encoder.mlir
// RUN: sed 's/^\(  func.func @main(.*)\) {$/\1 attributes {dlc.symbolic_batch = "batch"} {/' %models/mlp.mlir > %t/mlp.mlir
// RUN: %python %S/Inputs/check_symbolic_batch.py %t/cnn.mlir %t/cnn 1,3,4 | FileCheck %s --check-prefix=CNN
// RUN: %python %S/Inputs/check_symbolic_batch.py %t/encoder.mlir %t/encoder 1,2 | FileCheck %s --check-prefix=ENC
// RUN: %python %S/Inputs/check_symbolic_batch.py %t/mlp.mlir %t/mlp 1,7,11,13,32 | FileCheck %s --check-prefix=MLP
// Placed over a CPU and two simulated GPUs (copies move the run's units, GPU
// kernels run once per unit), the GPU kernels as host code and as their CUDA
// C++ (emitted at one unit) compiled for the host:
// RUN: env DLC_RUN_FLAGS="--gpu=sim --check-ordering" %python %S/Inputs/check_symbolic_batch.py %t/cnn.mlir %t/cnn-gpus 1,3,4 --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda | FileCheck %s --check-prefix=CNN
// RUN: env DLC_RUN_FLAGS="--gpu=sim --check-ordering" %python %S/Inputs/check_symbolic_batch.py %t/encoder.mlir %t/encoder-emu 1,2 --devices=cpu,cuda:0 --placement=gpu --gpu-host-code=emulated --no-cuda | FileCheck %s --check-prefix=ENC
// Constants spanning the batch's rows, units alike (Inputs/symbolic_batch_splat.mlir):
// RUN: %python %S/Inputs/check_symbolic_batch.py %S/Inputs/symbolic_batch_splat.mlir %t/splat 1,3,4 | FileCheck %s --check-prefix=SPLAT
// The batch off dim 0 (Inputs/symbolic_batch_moved.mlir: sequence-first
// attention), on the CPU and over two simulated GPUs (strided buffers are
// copied whole):
// RUN: %python %S/Inputs/check_symbolic_batch.py %S/Inputs/symbolic_batch_moved.mlir %t/moved 1,3,4 | FileCheck %s --check-prefix=MOVED
// RUN: env DLC_RUN_FLAGS="--gpu=sim --check-ordering" %python %S/Inputs/check_symbolic_batch.py %S/Inputs/symbolic_batch_moved.mlir %t/moved-gpus 1,3 --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --no-cuda | FileCheck %s --check-prefix=MOVED
// RUN: dlc inspect %t/moved/model.dlcm | FileCheck %s --check-prefix=MOVED-INSPECT
// RUN: dlc inspect %t/cnn/model.dlcm | FileCheck %s --check-prefix=INSPECT
// RUN: dlc inspect %t/mlp/model.dlcm | FileCheck %s --check-prefix=CHUNK
// The placement dump names the size its estimates are for.
// RUN: dlc compile %t/cnn.mlir --devices=cpu,cuda:0 --placement=cpu --print-placement -o %t/placed.dlcm 2>&1 | FileCheck %s --check-prefix=DUMP
// What dlc run refuses, by name:
// RUN: not dlc run %t/cnn/model.dlcm --batch=5 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// RUN: not dlc run %t/cnn/model.dlcm --batch=2 --input=image=%t/cnn/image.3.npy 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: not dlc run %t/cnn/model.dlcm --input=image=%t/cnn/image.bound.npy --input=image=%t/cnn/image.1.npy 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: dlc compile %models/cnn.mlir -o %t/static.dlcm
// RUN: not dlc run %t/static.dlcm --batch=2 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not dlc run %t/static.dlcm --input=image=%t/cnn/image.1.npy 2>&1 | FileCheck %s --check-prefix=STATIC-FILE
// --compare-reference interprets the model at its shapes (the bound): a run
// below the bound has nothing to compare, an error rather than a silent pass.
// RUN: dlc run %t/cnn/model.dlcm --compare-reference=%t/cnn.mlir | FileCheck %s --check-prefix=COMPARE
// RUN: not dlc run %t/cnn/model.dlcm --compare-reference=%t/cnn.mlir --batch=2 2>&1 | FileCheck %s --check-prefix=COMPARE-BELOW
// Data-parallel replicas split the batch at compile time: refused by name.
// RUN: not dlc compile %t/cnn.mlir --devices=cpu,cuda:0,cuda:1 --placement=data-parallel:2 --no-cuda -o %t/dp.dlcm 2>&1 | FileCheck %s --check-prefix=DATA-PARALLEL
// Random inputs at a batch: outputs at that batch.
// RUN: dlc run %t/cnn/model.dlcm --batch=2 | FileCheck %s --check-prefix=RANDOM
// CNN: batch 1 logits: shape [1, 10] rel-L2
// CNN: batch 3 logits: shape [3, 10] rel-L2
// CNN: batch 4 logits: shape [4, 10] rel-L2
// ENC: batch 1 y: shape [1, 128, 256] rel-L2
// ENC: batch 2 y: shape [2, 128, 256] rel-L2
// MLP: batch 1 probs: shape [1, 10] rel-L2
// MLP: batch 7 probs: shape [7, 10] rel-L2
// MLP: batch 11 probs: shape [11, 10] rel-L2
// MLP: batch 13 probs: shape [13, 10] rel-L2
// MLP: batch 32 probs: shape [32, 10] rel-L2
// CHUNK: 0: 'k0' = k0_entry in library 0; ops:
// CHUNK-NEXT: and c0_entry for 8 units of the batch at once (also for a tail of 4 or more)
// MOVED: batch 1 y: shape [1, 5, 8] rel-L2
// MOVED: batch 1 pooled: shape [1, 8] rel-L2
// MOVED: batch 3 y: shape [3, 5, 8] rel-L2
// MOVED: batch 3 pooled: shape [3, 8] rel-L2
// MOVED-INSPECT: ('transpose_{{[0-9]+}}') on cpu: F32 [5,4,8], 640 bytes, 1 rows per unit of the batch off dim 0 (each unit a strided slice, 32 bytes after the last)
// SPLAT: batch 1 y: shape [1, 3, 5, 9] rel-L2
// SPLAT: batch 1 t: shape [1, 3, 5, 5] rel-L2
// SPLAT: batch 3 y: shape [3, 3, 5, 9] rel-L2
// SPLAT: batch 3 t: shape [3, 3, 5, 5] rel-L2
// SPLAT: batch 4 y: shape [4, 3, 5, 9] rel-L2
// SPLAT: batch 4 t: shape [4, 3, 5, 5] rel-L2
// INSPECT: format: 0.8
// INSPECT: symbolic batch: 'batch', 1 to 4 per run (kernels on batched tensors run once per unit of it; memory planned for 4)
// INSPECT: input  0 'image': f32 [?,3,32,32] at most [4,3,32,32], 49152 bytes, dim 0 = 1 x batch
// INSPECT: output 0 'logits': f32 [?,10] at most [4,10], 160 bytes, dim 0 = 1 x batch
// INSPECT: placement ({{[0-9]+}} ops; estimated at batch 4, the bound of 'batch'):
// DUMP: symbolic batch 'batch': every estimate is at batch 4 (the bound)
// TOO-BIG: --batch=5: model '{{.*}}model.dlcm' runs batches of 1 to 4
// DISAGREE: input 'image' ('{{.*}}image.3.npy') holds a batch of 3, but --batch is 2; every input carrying the batch takes the same
// TWICE: input 'image' given twice
// STATIC: --batch=2: model '{{.*}}static.dlcm' has no symbolic batch (its shapes are fixed)
// STATIC-FILE: input 'image' is f32 [4,3,32,32] (<f4), but '{{.*}}image.1.npy' holds <f4 [1,3,32,32]
// COMPARE: compare-reference: {{[1-9][0-9]*}} step outputs compared with the reference{{.*}}, all within
// COMPARE-BELOW: error: --compare-reference: none of the run's {{[0-9]+}} step outputs has a reference value of its size: the run's shapes are not the model's (a symbolic batch run below its bound: run it at the bound; or a data-parallel placement's replicas), so nothing was compared
// DATA-PARALLEL: error: --placement=data-parallel:2: @main's batch is symbolic ('batch', known at run time), and replicas split the batch at compile time: compile for a fixed batch, or place without data-parallel
// RANDOM: output 0 'logits': f32 [2,10] = [
