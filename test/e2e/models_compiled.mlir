// The example models compiled to native code give the reference interpreter's
// outputs (f32: relative L2 error <= 1e-5).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %check-e2e %models/mlp.mlir main %t/mlp | FileCheck %s --check-prefix=MLP
// RUN: %check-e2e %models/cnn.mlir main %t/cnn | FileCheck %s --check-prefix=CNN
// RUN: %check-e2e %models/encoder.mlir main %t/encoder | FileCheck %s --check-prefix=ENC
// Portable code for any x86-64-v3 CPU (AVX2, FMA) gives the same outputs.
// RUN: %check-e2e %models/cnn.mlir main %t/cnn-v3 --cpu=x86-64-v3 | FileCheck %s --check-prefix=CNN
// RUN: dlc inspect %t/cnn-v3/main.dlcm | FileCheck %s --check-prefix=V3
// V3: target_cpu 'x86-64-v3', features [sse4.2,avx,avx2,fma,f16c,bmi,bmi2]
// MLP: main probs: ok
// CNN: main logits: ok
// ENC: main y: ok
