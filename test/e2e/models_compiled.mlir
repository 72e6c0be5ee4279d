// The example models compiled to native code give the reference interpreter's
// outputs (f32: relative L2 error <= 1e-5).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %models/mlp.mlir main %t/mlp | FileCheck %s --check-prefix=MLP
// RUN: %check-e2e %models/cnn.mlir main %t/cnn | FileCheck %s --check-prefix=CNN
// RUN: %check-e2e %models/encoder.mlir main %t/encoder | FileCheck %s --check-prefix=ENC
// MLP: main probs: ok
// CNN: main logits: ok
// ENC: main y: ok
