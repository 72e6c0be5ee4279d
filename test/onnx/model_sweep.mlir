// The CI share of issue 23's model sweep (test/models/sweep.py --set=ci): a
// 1-D conv keyword spotter, a 2-layer LSTM classifier, a bidirectional GRU, a
// GPT-style causal decoder and four small torchvision classifiers, exported
// at opset 14 with calibrated random weights, each matched against PyTorch
// (max|dlc - torch| <= 1e-4 max|torch| on 4 inputs whose argmaxes differ) on
// the CPU and as a 2-stage pipeline over the CPU and two simulated GPUs with
// the ordering checker on. The whole sweep (every torchvision model) is the
// long mode: test/models/README.md.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %onnx-python %S/../models/sweep.py --set=ci --dlc=dlc --work=%t 2> %t/stderr.log | FileCheck %s
// CHECK-DAG: kws {{.*}} cpu ok {{.*}} pipeline2 ok
// CHECK-DAG: lstm {{.*}} cpu ok {{.*}} pipeline2 ok
// CHECK-DAG: gru {{.*}} cpu ok {{.*}} pipeline2 ok
// CHECK-DAG: gpt {{.*}} cpu ok {{.*}} pipeline2 ok
// CHECK-DAG: mobilenet_v3_small {{.*}} cpu ok {{.*}} pipeline2 ok
// CHECK: RESULT sweep: 8 models checked, 8 match on cpu+pipeline2, 0 failed (none; 0 of them ill-conditioned); 0 degenerate; 0 not exported or skipped
