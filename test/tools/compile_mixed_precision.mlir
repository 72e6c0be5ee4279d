// dlc compile --precision: the placement dump describes the painted IR (each
// op's precision, bytes moved, bytes saved by casting before the copy), and
// every error of the precision options.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %models/mlp.mlir --devices=cpu,cuda:0 --placement=gpu --precision=mixed --emit=mlir --print-placement --dump-placement=%t/p.json 2>&1 >/dev/null | FileCheck %s --check-prefix=TXT
// TXT: dlc-mixed-precision: @main: converted 5 of 6 ops using 2 casts
// TXT: order  device    reason             est_us  prec  op                name
// TXT-NEXT: 0  cpu       cast     {{.*}} f16   dlc.cast          x/to_f16
// TXT-NEXT: 1  cuda:0    default  {{.*}} f16   dlc.linear        /fc1/Gemm
// The cast after the head joins its kernel: no launch of its own.
// TXT: 6  cuda:0    cast                0.000  f32   dlc.cast          /head/Gemm/to_f32
// TXT-NEXT: 7  cuda:0    default  {{.*}} f32   dlc.softmax       /softmax/Softmax
// TXT-NEXT: copies: 2 (51456 bytes moved, 50176 saved by where the casts run)
// TXT-NEXT: cpu      -> cuda:0           50176 bytes {{.*}} saved      50176  x/to_f16
// TXT-NEXT: cuda:0   -> cpu               1280 bytes {{.*}} saved          0  /softmax/Softmax
// RUN: FileCheck %s --check-prefix=JSON < %t/p.json
// JSON: "name": "/fc1/Gemm",
// JSON: "precision": "f16"
// JSON: "value": "x/to_f16",
// JSON: "bytes": 50176,
// JSON-NEXT: "estimated_us":
// JSON-NEXT: "bytes_saved": 50176
// JSON: "bytes_moved": 51456,
// JSON-NEXT: "bytes_saved": 50176

// --io-precision=fp16: the signature itself is f16.
// RUN: dlc compile %models/mlp.mlir --devices=cpu,cuda:0 --placement=gpu --precision=mixed --io-precision=fp16 -o %t/io.dlcm 2>/dev/null
// RUN: dlc inspect %t/io.dlcm | FileCheck %s --check-prefix=IO
// IO: input  0 'x': f16 [32,784], 50176 bytes
// IO: output 0 'probs': f16 [32,10], 640 bytes

// RUN: not dlc compile %models/mlp.mlir --devices=cpu,cuda:0 --precision=fp8 --emit=mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: --precision expects fp32, mixed or fp16, got 'fp8'
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --io-precision=f8 --emit=mlir 2>&1 | FileCheck %s --check-prefix=IOBAD
// IOBAD: error: --io-precision expects fp32 or fp16, got 'f8'
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --fp16-allow=foo --emit=mlir 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: error: --fp16-allow: unknown op kind 'foo'
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --fp16-deny=bar --emit=mlir 2>&1 | FileCheck %s --check-prefix=DKIND
// DKIND: error: --fp16-deny: unknown op kind 'bar'
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --fp16-allow=add,gelu --fp16-deny=dlc.add --emit=mlir 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: op kind 'add' is in both --fp16-allow and --fp16-deny
// RUN: not dlc compile %models/mlp.mlir --calibrate=x=%t/x.npy --emit=mlir 2>&1 | FileCheck %s --check-prefix=CALNEEDS
// CALNEEDS: error: --calibrate needs --precision=mixed or --precision=fp16
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --calibrate=x --emit=mlir 2>&1 | FileCheck %s --check-prefix=CALSPEC
// CALSPEC: error: --calibrate expects NAME=FILE.npy, got 'x'
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --calibrate=y=%t/x.npy --emit=mlir 2>&1 | FileCheck %s --check-prefix=CALMISS
// CALMISS: error: --calibrate: no value for input 'x': pass --calibrate=x=FILE.npy
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --calibrate=x=%t/none.npy --emit=mlir 2>&1 | FileCheck %s --check-prefix=CALFILE
// CALFILE: error: --calibrate: input 'x': npy file '{{.*}}none.npy': cannot open file
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../e2e/Inputs'); import npy; npy.write('%t/x.npy', [0.5] * 784, [1, 784])"
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --calibrate=x=%t/x.npy --calibrate=z=%t/x.npy --emit=mlir 2>&1 | FileCheck %s --check-prefix=CALEXTRA
// CALEXTRA: error: --calibrate: @main has no input named 'z'
// RUN: not dlc compile %models/mlp.mlir --precision=mixed --calibrate=x=%t/x.npy --emit=mlir 2>&1 | FileCheck %s --check-prefix=CALSHAPE
// CALSHAPE: error: input 'x' expects f32 [32,784], got f32 [1,784]

// A value read on cuda:1 in f16 and in f32 crosses once, in f32, and is cast
// there: the f16 copy not sent is saved; the weight is cast before its copy.
// RUN: dlc compile %S/Inputs/copy_once.mlir --devices=cpu,cuda:0,cuda:1 --precision=mixed --print-placement --emit=mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=ONCE
// ONCE: copies: 4 (57344 bytes moved, 16384 saved by where the casts run)
// ONCE-NEXT: cpu      -> cuda:0           16384 bytes {{.*}} saved          0  x
// ONCE-NEXT: cuda:0   -> cuda:1           16384 bytes {{.*}} saved       8192  s
// ONCE-NEXT: cpu      -> cuda:1            8192 bytes {{.*}} saved       8192  w/to_f16

// Calibration catches underflow: values near 1e-9 (the constant, then the
// matmul's input) would be 0 in fp16.
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../e2e/Inputs'); import npy; npy.write('%t/u.npy', [0.5] * 64, [4, 16])"
// RUN: dlc compile %S/Inputs/underflow.mlir --devices=cpu,cuda:0 --placement=gpu --precision=fp16 --calibrate=x=%t/u.npy --emit=mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=UNDER
// UNDER: calibration: /shrink/Mul (dlc.mul) kept in fp32: 100.0% of an input's nonzero values underflow to 0 in fp16
// UNDER-NEXT: calibration: /mm/MatMul (dlc.matmul) kept in fp32: 100.0% of an input's nonzero values underflow to 0 in fp16
// UNDER-NEXT: calibration: 2 ops kept in fp32
// UNDER-NEXT: dlc-mixed-precision: @main: converted 0 of 2 ops using 0 casts

// Calibration leaves a user's fp16 pin alone, with a warning.
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../e2e/Inputs'); import npy; npy.write('%t/o.npy', [0.5] * 64, [4, 16])"
// RUN: dlc compile %S/Inputs/overflow_pinned.mlir --devices=cpu,cuda:0 --placement=gpu --precision=mixed --calibrate=x=%t/o.npy --emit=mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=PINNED
// PINNED: calibration: warning: /big/MatMul (dlc.matmul) is pinned to fp16: max |x| 4.80e+05 > 65504: fp16 overflows
// PINNED-NEXT: calibration: /scale/Mul (dlc.mul) kept in fp32: input max |x| 4.80e+05 > 65504: fp16 overflows
// PINNED-NEXT: calibration: 1 ops kept in fp32
