// Random placements of the example models give the CPU's answer (an op on any
// of the devices: views on another device than their source, values read on
// several devices), over cpu + 2 and cpu + 4 simulated GPUs, fp32 and mixed
// precision. A few fixed seeds here; the 50-seed runs are README.md's long mode.
// Before the copies waited for their source's event, 7 of 8 such placements of
// the encoder gave NaN and 3 of 8 of the CNN were wrong (its Flatten, a view).
// RUN: rm -rf %t
// RUN: %model-placements %models/mlp.mlir %t/mlp2 --gpus=2 --seeds=3 | FileCheck %s --check-prefix=MLP2
// RUN: %model-placements %models/cnn.mlir %t/cnn2 --gpus=2 --seeds=4 | FileCheck %s --check-prefix=CNN2
// RUN: %model-placements %models/cnn.mlir %t/cnn4m --gpus=4 --seeds=3 --precision=mixed | FileCheck %s --check-prefix=CNN4M
// RUN: %model-placements %models/encoder.mlir %t/enc2 --gpus=2 --seeds=3 | FileCheck %s --check-prefix=ENC2
// RUN: %model-placements %models/encoder.mlir %t/enc4m --gpus=4 --seeds=2 --precision=mixed | FileCheck %s --check-prefix=ENC4M
// MLP2: mlp.mlir over cpu,cuda:0,cuda:1, fp32: 3 of 3 placements right
// CNN2: cnn.mlir over cpu,cuda:0,cuda:1, fp32: 4 of 4 placements right
// CNN4M: cnn.mlir over cpu,cuda:0,cuda:1,cuda:2,cuda:3, mixed: 3 of 3 placements right
// ENC2: encoder.mlir over cpu,cuda:0,cuda:1, fp32: 3 of 3 placements right
// ENC4M: encoder.mlir over cpu,cuda:0,cuda:1,cuda:2,cuda:3, mixed: 2 of 2 placements right
