// Einsum against NumPy's einsum on 21 equations: matmuls, batches, attention
// shapes, transposes, diagonals, sums, outer products, three operands, the
// ellipsis and implicit outputs (Inputs/einsum_cases.py), compiled and run on
// the CPU and on a simulated GPU.
// RUN: rm -rf %t && %onnx-python %S/Inputs/einsum_cases.py %t
// RUN: dlc-onnx-conformance %t --jobs=2 --min-pass=21 | FileCheck %s
// RUN: dlc-onnx-conformance %t --jobs=2 --gpu-placement --min-pass=21 | FileCheck %s
// CHECK: node tests: 21 pass / 21 of supported ops / 21 total (0 fail
