// Mixed precision on simulated GPUs: every example model's outputs match the
// reference interpreter run on the same painted IR (rel. L2 <= 1e-3), differ
// from fp32 (> 1e-6) and stay within 1e-2 of it (Inputs/check_mixed.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_mixed.py %models/mlp.mlir %t/mlp --devices=cpu,cuda:0,cuda:1 --placement=cost --precision=mixed --gpu=sim | FileCheck %s --check-prefix=MLP
// RUN: %python %S/Inputs/check_mixed.py %models/encoder.mlir %t/enc --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 --precision=mixed --gpu=sim | FileCheck %s --check-prefix=ENC
// RUN: %python %S/Inputs/check_mixed.py %models/cnn.mlir %t/cnn --devices=cpu,cuda:0 --placement=gpu --precision=fp16 --gpu=sim | FileCheck %s --check-prefix=CNN
// MLP: probs: ok
// ENC: y: ok
// CNN: logits: ok

// f16 values really take 2 bytes: the MLP's activations on the GPUs are f16,
// its input is cast on the CPU before the copy.
// RUN: dlc inspect %t/mlp/model.dlcm | FileCheck %s --check-prefix=BUF
// BUF: buffers:
// BUF: 'x/to_f16') on cpu: F16 [32,784], 50176 bytes
// BUF: 'x/to_f16') on cuda:{{[01]}}: F16 [32,784], 50176 bytes
// BUF: '/act1/Gelu') on cuda:{{[01]}}: F16 [32,1024], 65536 bytes

// A model built to overflow fp16 gives -inf painted as is; calibration keeps
// the overflowing ops in fp32 and then it matches.
// RUN: %python -c "import sys; sys.path.insert(0, '%S/Inputs'); import npy; npy.write('%t/x.npy', [((i * 37) %% 29) / 14.0 - 1.0 for i in range(64)], [4, 16])"
// RUN: not %python %S/Inputs/check_mixed.py %S/Inputs/overflow.mlir %t/ov-plain --devices=cpu,cuda:0 --placement=gpu --precision=mixed --gpu=sim 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: y: relative L2 inf against fp32 not in (1e-6, 1e-2]
// RUN: %python %S/Inputs/check_mixed.py %S/Inputs/overflow.mlir %t/ov --devices=cpu,cuda:0 --placement=gpu --precision=mixed --calibrate=x=%t/x.npy --gpu=sim | FileCheck %s --check-prefix=CAL
// CAL: y: ok
// RUN: dlc compile %S/Inputs/overflow.mlir --devices=cpu,cuda:0 --placement=gpu --precision=mixed --calibrate=x=%t/x.npy --emit=mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=LOG
// LOG: calibration: /big/MatMul (dlc.matmul) kept in fp32: max |x| 9.43e+04 > 65504: fp16 overflows
// LOG-NEXT: calibration: /scale/Mul (dlc.mul) kept in fp32: input max |x| 9.43e+04 > 65504: fp16 overflows
// LOG-NEXT: calibration: 2 ops kept in fp32
// LOG-NEXT: dlc-mixed-precision: @main: converted 1 of 3 ops using 2 casts
// LOG-NEXT: calibration: relative L2 error against fp32, worst first:
// LOG-NEXT: {{[0-9.e+-]+}}  f16   /small/MatMul
// LOG-NEXT: 0.000e+00  f32   /big/MatMul
