// One artifact for several CPUs (format 0.7): a whole model per --cpu, the
// runtime loads the variant the machine runs that needs the most features.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dlc compile %models/cnn.mlir --cpu=portable -o %t/p.dlcm
// RUN: dlc inspect %t/p.dlcm | FileCheck %s --check-prefix=INSPECT
// Each variant runs and matches the interpreter; so does the one chosen here.
// RUN: dlc run %t/p.dlcm --compare-reference=%models/cnn.mlir | FileCheck %s --check-prefix=REF
// RUN: dlc run %t/p.dlcm --variant=1 --compare-reference=%models/cnn.mlir | FileCheck %s --check-prefix=REF
// RUN: dlc run %t/p.dlcm --variant=2 --compare-reference=%models/cnn.mlir | FileCheck %s --check-prefix=REF
// The choice with the CPU features overridden: an AVX2 machine's, a baseline one's.
// RUN: dlc inspect %t/p.dlcm --cpu-features=avx,avx2,bmi,bmi2,f16c,fma,sse4.2,sse2 | FileCheck %s --check-prefix=AVX2
// RUN: dlc run %t/p.dlcm --cpu-features=avx,avx2,bmi,bmi2,f16c,fma,sse4.2 --compare-reference=%models/cnn.mlir | FileCheck %s --check-prefix=REF
// RUN: dlc inspect %t/p.dlcm --cpu-features=sse2 | FileCheck %s --check-prefix=BASE
// A machine that runs no variant gets an error naming why, never SIGILL.
// RUN: dlc compile %models/mlp.mlir --cpu=x86-64-v4,x86-64-v3 -o %t/v.dlcm
// RUN: not dlc run %t/v.dlcm --cpu-features=sse2 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not dlc run %t/v.dlcm --variant=2 2>&1 | FileCheck %s --check-prefix=NOVARIANT
// Placement reports come from the first variant's compile.
// RUN: dlc compile %models/mlp.mlir --cpu=x86-64-v3,x86-64 --devices=cpu,cuda:0 --no-cuda --print-placement -o %t/g.dlcm 2>&1 | FileCheck %s --check-prefix=PLACED
// RUN: dlc run %t/g.dlcm --gpu=sim --variant=1 --compare-reference=%models/mlp.mlir | FileCheck %s --check-prefix=REF
// Flag errors.
// RUN: not dlc compile %models/mlp.mlir --cpu=x86-64-v3,,x86-64 -o %t/e.dlcm 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not dlc compile %models/mlp.mlir --cpu=x86-64-v3,pentium9 -o %t/e.dlcm 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dlc compile %models/mlp.mlir --cpu=portable --emit=llvm 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not dlc compile %models/mlp.mlir --cpu=portable --kernel-tiles=4x16 -o %t/e.dlcm 2>&1 | FileCheck %s --check-prefix=TILES

// INSPECT: artifact: {{.*}}p.dlcm [x86-64-v{{[34]}}]
// INSPECT: variants: 3 in a multi-target artifact (format 0.7, {{[0-9]+}} bytes; one whole model per target CPU; shown below: the one marked *)
// INSPECT-NEXT: {{[ *]}}0: x86-64-v4 (x86_64-{{.*}}), features [avx,avx2,avx512bw,avx512cd,avx512dq,avx512f,avx512vl,bmi,bmi2,f16c,fma,sse4.2]; this CPU: {{ok|needs CPU feature 'avx512bw', which this CPU lacks}}
// INSPECT-NEXT: {{[ *]}}1: x86-64-v3 (x86_64-{{.*}}), features [avx,avx2,bmi,bmi2,f16c,fma,sse4.2]; this CPU: ok
// INSPECT-NEXT:   2: x86-64 (x86_64-{{.*}}), features []; this CPU: ok
// INSPECT: libraries:

// REF: compare-reference: {{[0-9]+}} step outputs compared with the reference{{.*}}all within

// AVX2: artifact: {{.*}}p.dlcm [x86-64-v3]
// AVX2: {{^}}  *1: x86-64-v3
// BASE: artifact: {{.*}}p.dlcm [x86-64]
// BASE: {{^}}  *2: x86-64 (

// NONE: has no variant a CPU with features 'sse2' can run: variant 0 (x86-64-v4) needs CPU feature 'avx', which this CPU lacks; variant 1 (x86-64-v3) needs CPU feature 'avx', which this CPU lacks
// NOVARIANT: has no variant 2 (it has 2)

// PLACED: placement of @main
// PLACED: cpu       built-in from the target x86-64-v3
// PLACED-NOT: placement of @main

// EMPTY: error: --cpu: an empty name in 'x86-64-v3,,x86-64' (expected CPU names separated by commas)
// UNKNOWN: error: unknown target CPU 'pentium9'
// EMIT: error: --emit=llvm prints one target's code: give --cpu one CPU, not 'portable'
// TILES: error: --kernel-tiles is one target's tile: give --cpu one CPU, not 'portable'
