// The compile pipeline's state lives in IR: stopped after any stage, printed,
// and resumed from that text in a new process, it writes the artifact `dlc
// compile` writes, byte for byte (compiler/Driver/CompilePipeline.h).
// RUN: rm -rf %t && mkdir -p %t

// The encoder in mixed precision over the CPU and two GPUs.
// RUN: dlc compile %models/encoder.mlir --devices=cpu,cuda:0,cuda:1 --precision=mixed --no-cuda -o %t/enc.dlcm 2>/dev/null
// RUN: %resume-each-stage %t/enc.dlcm %models/encoder.mlir 'devices=cpu,cuda:0,cuda:1 precision=mixed cuda=false' %t/enc 2>&1 | FileCheck %s

// The CNN placed by cost over two GPUs, GPU kernels run as emulated CUDA
// (dlc-split-cuda-kernels runs), and a pin.
// RUN: dlc compile %models/cnn.mlir --devices=cpu,cuda:0,cuda:1 --pin=conv=cuda:1 --gpu-host-code=emulated -o %t/cnn.dlcm
// RUN: %resume-each-stage %t/cnn.dlcm %models/cnn.mlir 'devices=cpu,cuda:0,cuda:1 pin=conv=cuda:1 gpu-host-code=emulated' %t/cnn 2>&1 | FileCheck %s

// A device spec file given to placement only: dlc-place records the spec it
// placed with (dlc.device_spec), so the stages after it, resumed without the
// file, write the same links and estimates. The control: without the spec
// the artifact differs (the estimates are the built-in profiles').
// RUN: dlc compile %models/cnn.mlir --devices=cpu,cuda:0,cuda:1 --device-spec=%S/Inputs/three_devices.json --no-cuda -o %t/spec.dlcm
// RUN: %resume-each-stage %t/spec.dlcm %models/cnn.mlir 'devices=cpu,cuda:0,cuda:1 cuda=false' %t/spec --placement-options='device-spec=%S/Inputs/three_devices.json' 2>&1 | FileCheck %s
// RUN: dlc compile %models/cnn.mlir --devices=cpu,cuda:0,cuda:1 --no-cuda -o %t/nospec.dlcm
// RUN: not cmp -s %t/spec.dlcm %t/nospec.dlcm

// No placement: the MLP on the CPU (the placement stages are empty).
// RUN: dlc compile %models/mlp.mlir -o %t/mlp.dlcm
// RUN: %resume-each-stage %t/mlp.dlcm %models/mlp.mlir 'entry=main' %t/mlp 2>&1 | FileCheck %s

// Persistent state (a training step's shape: the next value computed on a
// GPU and copied into the state's bytes at the end).
// RUN: dlc compile %S/../../../test/e2e/persistent_state.mlir --devices=cpu,cuda:0 --placement=gpu --no-cuda -o %t/state.dlcm
// RUN: %resume-each-stage %t/state.dlcm %S/../../../test/e2e/persistent_state.mlir 'devices=cpu,cuda:0 placement=gpu cuda=false' %t/state 2>&1 | FileCheck %s

// A generated program with its own pins on four GPUs (test/diff).
// RUN: %python %S/../../../test/diff/random_programs.py 4242 > %t/random.mlir
// RUN: dlc compile %t/random.mlir --devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 --precision=fp32 --no-cuda -o %t/random.dlcm 2>/dev/null
// RUN: %resume-each-stage %t/random.dlcm %t/random.mlir 'devices=cpu,cuda:0,cuda:1,cuda:2,cuda:3 precision=fp32 cuda=false' %t/random 2>&1 | FileCheck %s

// CHECK: entry: identical
// CHECK-NEXT: place: identical
// CHECK-NEXT: precision: identical
// CHECK-NEXT: copies: identical
// CHECK-NEXT: rewrite: identical
// CHECK-NEXT: kernels: identical
// CHECK-NEXT: schedule: identical
// CHECK-NEXT: memory: identical
// CHECK-NEXT: codegen: identical

// The control: printed without locations, the IR loses the op names the
// artifact's buffers carry, and the comparison says so.
// RUN: not %resume-each-stage %t/enc.dlcm %models/encoder.mlir 'devices=cpu,cuda:0,cuda:1 precision=mixed cuda=false' %t/nodebug --no-debuginfo 2>&1 | FileCheck %s --check-prefix=CONTROL
// CONTROL: differs
