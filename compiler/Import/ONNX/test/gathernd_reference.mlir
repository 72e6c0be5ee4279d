// GatherND against the ONNX specification's reference on 6 generated cases
// (negative indices, batch_dims 0 to 2; Inputs/gathernd_cases.py), compiled
// and run on the CPU and on a simulated GPU.
// RUN: rm -rf %t && %onnx-python %S/Inputs/gathernd_cases.py %t
// RUN: dlc-onnx-conformance %t --jobs=2 --min-pass=6 | FileCheck %s
// RUN: dlc-onnx-conformance %t --jobs=2 --gpu-placement --min-pass=6 | FileCheck %s
// CHECK: node tests: 6 pass / 6 of supported ops / 6 total (0 fail
