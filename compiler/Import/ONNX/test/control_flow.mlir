// ONNX If and Loop, inlined at import time (OnnxControlFlow.cpp), against
// NumPy (Inputs/control_flow_cases.py): an If whose condition folds, an If on
// a run-time condition (both branches and a select; one test set per side),
// a Loop of 5 iterations with a scan output and a body initializer, a Loop
// whose folded condition ends it after 4 of 10 iterations with an If inside
// the body; a Scan (a running sum, doubled as its output) and a Scan counted
// down over inputs along axes 1 and 0, its output along axis 1; on the CPU and with every op the CUDA backend takes emulated on a
// simulated GPU.
// RUN: rm -rf %t && %onnx-python %S/Inputs/control_flow_cases.py %t/cases
// RUN: dlc-onnx-conformance %t/cases --jobs=2 --min-pass=6 | FileCheck %s
// RUN: dlc-onnx-conformance %t/cases --jobs=2 --gpu-placement --min-pass=6 | FileCheck %s
// CHECK: node tests: 6 pass / 6 of supported ops / 6 total (0 fail

// The folded If leaves only its else branch's op.
// RUN: dlc import %t/cases/test_if_folded/model.onnx | FileCheck %s --check-prefix=FOLDED
// FOLDED-NOT: dlc.add
// FOLDED: dlc.mul
// FOLDED-NOT: dlc.add

// A run-time trip count bound with --bind: three negations, unrolled.
// RUN: %make-onnx loop_runtime_trips %t/trips.onnx
// RUN: %onnx-python -c "import numpy as np; np.save('%t/m.npy', np.array(3, np.int64)); np.save('%t/x.npy', np.array([1, -2], np.float32))"
// RUN: dlc compile %t/trips.onnx --bind=M=%t/m.npy -o %t/trips.dlcm
// RUN: dlc run %t/trips.dlcm --input=x=%t/x.npy | FileCheck %s --check-prefix=BOUND
// BOUND: output 0 'y': f32 [2] = [-1, 2]

// A trip count known only at run time: one dlc.loop, its count read at run
// time (3 negations; none for 0 or a negative count).
// RUN: dlc import %t/trips.onnx | FileCheck %s --check-prefix=TRIPS
// TRIPS: dlc.loop count(%arg0 : tensor<i64>) carried(%arg1 : tensor<2xf32>) -> tensor<2xf32> {
// TRIPS: dlc.neg
// TRIPS: dlc.yield
// RUN: dlc compile %t/trips.onnx -o %t/loop.dlcm
// RUN: dlc run %t/loop.dlcm --input=M=%t/m.npy --input=x=%t/x.npy | FileCheck %s --check-prefix=BOUND
// RUN: %onnx-python -c "import numpy as np; np.save('%t/zero.npy', np.array(0, np.int64)); np.save('%t/neg.npy', np.array(-2, np.int64))"
// RUN: dlc run %t/loop.dlcm --input=M=%t/zero.npy --input=x=%t/x.npy | FileCheck %s --check-prefix=NONE
// RUN: dlc run %t/loop.dlcm --input=M=%t/neg.npy --input=x=%t/x.npy | FileCheck %s --check-prefix=NONE
// NONE: output 0 'y': f32 [2] = [1, -2]

// Past 1024 iterations a known count is a loop too: 5000 negations.
// RUN: %make-onnx loop_too_long %t/long.onnx
// RUN: dlc import %t/long.onnx | FileCheck %s --check-prefix=LONG
// LONG: dlc.loop carried
// LONG: trips = 5000
// RUN: dlc compile %t/long.onnx -o %t/long.dlcm
// RUN: dlc run %t/long.dlcm --input=x=%t/x.npy | FileCheck %s --check-prefix=NONE

// An RNN over 1200 steps: a dlc.loop (OnnxRecurrent.cpp unrolls up to 32),
// every output against the reference interpreter.
// RUN: %make-onnx rnn_long %t/rnn_long.onnx
// RUN: dlc import %t/rnn_long.onnx -o %t/rnn_long.mlir
// RUN: FileCheck %s --check-prefix=RNN < %t/rnn_long.mlir
// RNN: dlc.loop carried({{.*}}) scan({{.*}} : tensor<1200x1x2xf32>)
// RNN: trips = 1200
// RUN: dlc compile %t/rnn_long.onnx -o %t/rnn_long.dlcm
// RUN: dlc run %t/rnn_long.dlcm --compare-reference=%t/rnn_long.mlir | FileCheck %s --check-prefix=RNNOUT
// RNNOUT: all within

// What cannot be a counted loop is refused by name: a condition computed
// by the body.
// RUN: %make-onnx loop_runtime_condition %t/cond.onnx
// RUN: not dlc import %t/cond.onnx 2>&1 | FileCheck %s --check-prefix=COND
// COND: error: {{.*}}cond.onnx: node '/Loop' (Loop): the body's condition output ('c_any_r') depends on run-time values: dlc unrolls a Loop with a condition only when it folds, and has no while loops
// With a run-time count: a while loop, a scan output (sized by the count), a
// carried value that grows; a while loop that never ends; a count that is not
// an integer.
// RUN: %make-onnx loop_runtime_while %t/while.onnx
// RUN: not dlc import %t/while.onnx 2>&1 | FileCheck %s --check-prefix=WHILE
// WHILE: error: {{.*}}while.onnx: node '/Loop' (Loop): the body's condition output ('c_any_r') does not fold to true: dlc runs a Loop whose count is known only at run time, or above 1024 iterations, as a counted loop, and has no while loops
// RUN: %make-onnx loop_runtime_scan %t/scan.onnx
// RUN: not dlc import %t/scan.onnx 2>&1 | FileCheck %s --check-prefix=SCAN
// SCAN: error: {{.*}}scan.onnx: node '/Loop' (Loop): scan output 0 ('v_scan') of a Loop whose trip count is known only at run time: dlc has no dims sized by a loop; bind the count with --bind=M=FILE.npy
// RUN: %make-onnx loop_runtime_grows %t/grows.onnx
// RUN: not dlc import %t/grows.onnx 2>&1 | FileCheck %s --check-prefix=GROWS
// GROWS: error: {{.*}}grows.onnx: node '/Loop' (Loop): loop-carried value 0 changes type from tensor<2xf32> to tensor<4xf32> in the body
// RUN: %make-onnx loop_while_forever %t/forever.onnx
// RUN: not dlc import %t/forever.onnx 2>&1 | FileCheck %s --check-prefix=FOREVER
// FOREVER: error: {{.*}}forever.onnx: node '/Loop' (Loop): a Loop without a trip count whose condition is still true after 1024 iterations: dlc unrolls while loops, up to 1024
// RUN: %make-onnx loop_float_count %t/float.onnx
// RUN: not dlc import %t/float.onnx 2>&1 | FileCheck %s --check-prefix=FLOAT
// FLOAT: error: {{.*}}float.onnx: node '/Loop' (Loop): a Loop's trip count (input 0, 'M') must be one integer, not tensor<f32>

// A Scan whose input counts down and output up; an axis the input lacks.
// RUN: %make-onnx scan_mixed_directions %t/scan_dirs.onnx
// RUN: not dlc import %t/scan_dirs.onnx 2>&1 | FileCheck %s --check-prefix=SCAN-DIRS
// SCAN-DIRS: error: {{.*}}scan_dirs.onnx: unsupported op 'Scan' (node '/Scan', opset 13): scan inputs and outputs in different directions (dlc's loop counts one way)
// RUN: %make-onnx scan_bad_axis %t/scan_axis.onnx
// RUN: not dlc import %t/scan_axis.onnx 2>&1 | FileCheck %s --check-prefix=SCAN-AXIS
// SCAN-AXIS: error: {{.*}}scan_axis.onnx: node '/Scan' (Scan): scan input 0 has no axis 2
// RUN: %make-onnx if_branch_shapes %t/if.onnx
// RUN: not dlc import %t/if.onnx 2>&1 | FileCheck %s --check-prefix=IF
// IF: error: {{.*}}if.onnx: node '/If' (If): a condition known only at run time needs branches whose outputs match, but output 0 is tensor<2xf32> in then_branch and tensor<4xf32> in else_branch (bind the condition with --bind=c=FILE.npy)
