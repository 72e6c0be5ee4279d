// `dlc interpret` with missing, misnamed, mis-shaped and corrupt inputs. The
// model is this file: @main takes `x` (named with dlc.name) and an unnamed
// argument, which is `arg1`. Each error names the input and fails.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_npy.py %t/x.npy '<f4' 2,3
// RUN: %python %S/Inputs/make_npy.py %t/b.npy '<f4' 3

// The control: good inputs run; an input may also be given by position.
// RUN: dlc interpret %s --input=x=%t/x.npy --input=arg1=%t/b.npy | FileCheck %s --check-prefix=OK
// RUN: dlc interpret %s --input=arg0=%t/x.npy --input=arg1=%t/b.npy | FileCheck %s --check-prefix=OK
// OK: out: f32 [2,3] min 0 max 7 mean 3.5
// OK-NEXT: [0, 2, 4, 3, 5, 7]

// No inputs and no --random-inputs: the first input is named, with its type.
// RUN: not dlc interpret %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not dlc interpret %s 2>/dev/null | count 0
// NONE: error: no value for input 'x' (tensor<2x3xf32>): pass --input=x=FILE.npy or --random-inputs

// One input missing.
// RUN: not dlc interpret %s --input=x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: no value for input 'arg1' (tensor<3xf32>): pass --input=arg1=FILE.npy or --random-inputs

// A name @main does not have (the SSA name %b is not an input name).
// RUN: not dlc interpret %s --random-inputs --input=b=%t/b.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: @main has no input named 'b'

// --input without NAME=.
// RUN: not dlc interpret %s --random-inputs --input=%t/x.npy 2>&1 | FileCheck %s --check-prefix=SPEC -DFILE=%t/x.npy
// RUN: not dlc interpret %s --random-inputs --input==%t/x.npy 2>&1 | FileCheck %s --check-prefix=SPEC2 -DFILE=%t/x.npy
// SPEC: error: --input expects NAME=FILE.npy, got '[[FILE]]'
// SPEC2: error: --input expects NAME=FILE.npy, got '=[[FILE]]'

// A .npy file that does not exist.
// RUN: not dlc interpret %s --random-inputs --input=x=%t/nope.npy 2>&1 | FileCheck %s --check-prefix=NOFILE -DFILE=%t/nope.npy
// NOFILE: error: input 'x': npy file '[[FILE]]': cannot open file

// No function of the --entry name.
// RUN: not dlc interpret %s --random-inputs --entry=forward 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: {{.*}}interpret_bad_inputs.mlir: no function @forward in the model (choose one with --entry)

// Corrupt files: not a .npy at all, an empty file, a truncated header.
// RUN: printf 'garbage' > %t/garbage.npy
// RUN: not dlc interpret %s --random-inputs --input=x=%t/garbage.npy 2>&1 | FileCheck %s --check-prefix=MAGIC -DFILE=%t/garbage.npy
// RUN: printf '' > %t/empty.npy
// RUN: not dlc interpret %s --random-inputs --input=x=%t/empty.npy 2>&1 | FileCheck %s --check-prefix=MAGIC -DFILE=%t/empty.npy
// RUN: %python %S/Inputs/make_npy.py %t/magic.npy '<f4' 2,3 --magic '%%NUMPY'
// RUN: not dlc interpret %s --random-inputs --input=x=%t/magic.npy 2>&1 | FileCheck %s --check-prefix=MAGIC -DFILE=%t/magic.npy
// MAGIC: error: input 'x': npy file '[[FILE]]': bad magic (not a .npy file)
// RUN: printf '\x93NUMPY\x01\x00\xff\x00{' > %t/header.npy
// RUN: not dlc interpret %s --random-inputs --input=x=%t/header.npy 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: error: input 'x': npy file '{{.*}}header.npy': truncated header: header length 255 exceeds the file

// Damaged data: 4 bytes short, 4 bytes too many.
// RUN: %python %S/Inputs/make_npy.py %t/short.npy '<f4' 2,3 --drop 4
// RUN: not dlc interpret %s --random-inputs --input=x=%t/short.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: input 'x': npy file '{{.*}}short.npy': truncated data: shape [2,3] needs 6 elements of 4 bytes, got 20 data bytes
// RUN: %python %S/Inputs/make_npy.py %t/long.npy '<f4' 2,3 --extra 4
// RUN: not dlc interpret %s --random-inputs --input=x=%t/long.npy 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: error: input 'x': npy file '{{.*}}long.npy': element count mismatch: shape [2,3] has 6 elements (24 bytes) but the file holds 28 data bytes

// Headers the reader does not take: a dtype it lacks, Fortran order, a
// format version it does not know, a missing key, a negative dimension.
// RUN: %python %S/Inputs/make_npy.py %t/u2.npy '<u2' 2,3
// RUN: not dlc interpret %s --random-inputs --input=x=%t/u2.npy 2>&1 | FileCheck %s --check-prefix=U16
// U16: error: input 'x' expects f32 [2,3], got u16 [2,3]
// RUN: %python %S/Inputs/make_npy.py %t/big.npy '>f4' 2,3
// RUN: not dlc interpret %s --random-inputs --input=x=%t/big.npy 2>&1 | FileCheck %s --check-prefix=DESCR
// DESCR: error: input 'x': npy file '{{.*}}big.npy': unsupported dtype '>f4' (expected <f4, <f2, <f8, <i4, <i8, |b1, |i1, |u1, <i2, <u2, <u4 or <u8)
// RUN: %python %S/Inputs/make_npy.py %t/fortran.npy '<f4' 2,3 --fortran
// RUN: not dlc interpret %s --random-inputs --input=x=%t/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: error: input 'x': npy file '{{.*}}fortran.npy': fortran_order arrays are not supported (C order only)
// RUN: %python %S/Inputs/make_npy.py %t/v7.npy '<f4' 2,3 --version 7
// RUN: not dlc interpret %s --random-inputs --input=x=%t/v7.npy 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: error: input 'x': npy file '{{.*}}v7.npy': unsupported format version 7.0
// RUN: %python %S/Inputs/make_npy.py %t/keys.npy '<f4' 2,3 --header "{'descr': '<f4', 'shape': (2, 3), }"
// RUN: not dlc interpret %s --random-inputs --input=x=%t/keys.npy 2>&1 | FileCheck %s --check-prefix=KEYS
// KEYS: error: input 'x': npy file '{{.*}}keys.npy': header lacks one of 'descr', 'fortran_order', 'shape'
// RUN: %python %S/Inputs/make_npy.py %t/dim.npy '<f4' 2,3 --header "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }"
// RUN: not dlc interpret %s --random-inputs --input=x=%t/dim.npy 2>&1 | FileCheck %s --check-prefix=DIM
// DIM: error: input 'x': npy file '{{.*}}dim.npy': malformed header: expected a non-negative integer dim at offset 54

// Well-formed files of the wrong shape or element type: the error is at
// @main, names the input, and says expected versus actual.
// RUN: %python %S/Inputs/make_npy.py %t/x32.npy '<f4' 3,2
// RUN: not dlc interpret %s --input=x=%t/x32.npy --input=arg1=%t/b.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: %python %S/Inputs/make_npy.py %t/xi64.npy '<i8' 2,3
// RUN: not dlc interpret %s --input=x=%t/xi64.npy --input=arg1=%t/b.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: %python %S/Inputs/make_npy.py %t/scalar.npy '<f4' ''
// RUN: not dlc interpret %s --input=x=%t/x.npy --input=arg1=%t/scalar.npy 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: %python %S/Inputs/make_npy.py %t/bf.npy '<f2' 3
// RUN: not dlc interpret %s --input=x=%t/x.npy --input=arg1=%t/bf.npy 2>&1 | FileCheck %s --check-prefix=HALF
// SHAPE: {{.*}}interpret_bad_inputs.mlir:[[@LINE+4]]:1: error: input 'x' expects f32 [2,3], got f32 [3,2]
// DTYPE: {{.*}}interpret_bad_inputs.mlir:[[@LINE+3]]:1: error: input 'x' expects f32 [2,3], got i64 [2,3]
// SCALAR: {{.*}}interpret_bad_inputs.mlir:[[@LINE+2]]:1: error: input 'arg1' expects f32 [3], got f32 []
// HALF: {{.*}}interpret_bad_inputs.mlir:[[@LINE+1]]:1: error: input 'arg1' expects f32 [3], got f16 [3]
func.func @main(%x: tensor<2x3xf32> {dlc.name = "x"}, %b: tensor<3xf32>) -> (tensor<2x3xf32> {dlc.name = "out"}) {
  %0 = dlc.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
