// ONNX If and Loop, inlined at import time (OnnxControlFlow.cpp), against
// NumPy (Inputs/control_flow_cases.py): an If whose condition folds, an If on
// a run-time condition (both branches and a select; one test set per side),
// a Loop of 5 iterations with a scan output and a body initializer, a Loop
// whose folded condition ends it after 4 of 10 iterations with an If inside
// the body; on the CPU and with every op the CUDA backend takes emulated on a
// simulated GPU.
// RUN: rm -rf %t && %onnx-python %S/Inputs/control_flow_cases.py %t/cases
// RUN: dlc-onnx-conformance %t/cases --jobs=2 --min-pass=4 | FileCheck %s
// RUN: dlc-onnx-conformance %t/cases --jobs=2 --gpu-placement --min-pass=4 | FileCheck %s
// CHECK: node tests: 4 pass / 4 of supported ops / 4 total (0 fail

// The folded If leaves only its else branch's op.
// RUN: dlc import %t/cases/test_if_folded/model.onnx | FileCheck %s --check-prefix=FOLDED
// FOLDED-NOT: dlc.add
// FOLDED: dlc.mul
// FOLDED-NOT: dlc.add

// A run-time trip count bound with --bind: three negations.
// RUN: %make-onnx loop_runtime_trips %t/trips.onnx
// RUN: %onnx-python -c "import numpy as np; np.save('%t/m.npy', np.array(3, np.int64)); np.save('%t/x.npy', np.array([1, -2], np.float32))"
// RUN: dlc compile %t/trips.onnx --bind=M=%t/m.npy -o %t/trips.dlcm
// RUN: dlc run %t/trips.dlcm --input=x=%t/x.npy | FileCheck %s --check-prefix=BOUND
// BOUND: output 0 'y': f32 [2] = [-1, 2]

// What cannot be unrolled is refused by name.
// RUN: not dlc import %t/trips.onnx 2>&1 | FileCheck %s --check-prefix=TRIPS
// TRIPS: error: {{.*}}trips.onnx: node '/Loop' (Loop): a Loop's trip count (input 0, 'M') must be known at import time: dlc unrolls loops; bind it, or the graph inputs it is computed from, with --bind=NAME=FILE.npy
// RUN: %make-onnx loop_runtime_condition %t/cond.onnx
// RUN: not dlc import %t/cond.onnx 2>&1 | FileCheck %s --check-prefix=COND
// COND: error: {{.*}}cond.onnx: node '/Loop' (Loop): the body's condition output ('c_any_r') depends on run-time values: dlc unrolls loops only when it folds
// RUN: %make-onnx loop_too_long %t/long.onnx
// RUN: not dlc import %t/long.onnx 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: error: {{.*}}long.onnx: node '/Loop' (Loop): a Loop of 5000 iterations: dlc unrolls loops, up to 1024
// RUN: %make-onnx if_branch_shapes %t/if.onnx
// RUN: not dlc import %t/if.onnx 2>&1 | FileCheck %s --check-prefix=IF
// IF: error: {{.*}}if.onnx: node '/If' (If): a condition known only at run time needs branches whose outputs match, but output 0 is tensor<2xf32> in then_branch and tensor<4xf32> in else_branch (bind the condition with --bind=c=FILE.npy)
