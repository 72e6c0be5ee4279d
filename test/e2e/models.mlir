// The example models verify and run in the reference interpreter; their
// outputs have the right shapes, are finite and not constant, and the MLP's
// softmax rows sum to one.
// RUN: dlc verify %models/mlp.mlir | FileCheck %s --check-prefix=MLP
// RUN: dlc verify %models/cnn.mlir | FileCheck %s --check-prefix=CNN
// RUN: dlc verify %models/encoder.mlir | FileCheck %s --check-prefix=ENC
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc interpret %models/mlp.mlir --random-inputs --output-dir %t/mlp | FileCheck %s --check-prefix=RUN-MLP
// RUN: dlc interpret %models/cnn.mlir --random-inputs --output-dir %t/cnn
// RUN: dlc interpret %models/encoder.mlir --random-inputs --output-dir %t/encoder
// RUN: %python %S/Inputs/check_models.py %t | FileCheck %s --check-prefix=CHECK-OUT

// MLP: ok, 12 dlc ops (0 pinned), 0.120 GFLOP per run
// MLP: linear x3
// CNN: batch_norm x5
// CNN: conv2d x5
// ENC: layer_norm x2
// ENC: matmul x2
// ENC: softmax x1
// RUN-MLP: probs: f32 [32,10]
// CHECK-OUT: mlp: probs 32x10 ok
// CHECK-OUT: cnn: logits 4x10 ok
// CHECK-OUT: encoder: y 2x128x256 ok
