// dlc compile's errors: each names the thing at fault and exits non-zero, and
// a failed compile never replaces an existing artifact.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not dlc compile %s 2>&1 | FileCheck %s --check-prefix=NO-OUT
// NO-OUT: error: no output: pass -o model.dlcm (or --emit=mlir|llvm)
// RUN: not dlc compile %s --emit=sass 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: error: --emit expects mlir, llvm, cuda or ptx, got 'sass'
// RUN: not dlc compile %s --entry=gpu -o %t/gpu.dlcm 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: compile_errors.mlir:[[@LINE+22]]:8: error: 'softmax_0' runs on cuda:1 but its operand lives on cpu: values cross devices only through dlc.copy; compile with --devices=cpu,cuda:1 so that placement inserts the copies
// RUN: not dlc compile %s --entry=main --cpu=pentium9 -o %t/cpu.dlcm 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: unknown target CPU 'pentium9' (try an LLVM CPU name such as x86-64-v3, znver4 or native)
// Cross-compiling for AArch64 without its C library to link against.
// RUN: env DLC_AARCH64_SYSROOT=%t/none not dlc compile %s --entry=main --cpu=neoverse-n1 -o %t/arm.dlcm 2>&1 | FileCheck %s --check-prefix=SYSROOT
// SYSROOT: error: linking kernels for aarch64-unknown-linux-gnu needs the AArch64 C library at {{.*}}/none/lib (Debian's libc6-dev-arm64-cross, which tools/setup.sh installs; or set DLC_AARCH64_SYSROOT)
// RUN: not dlc compile %s --entry=nothing -o %t/x.dlcm 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: no function @nothing with a body in the model
// A good artifact stays in place when a later compile to the same path fails.
// RUN: dlc compile %s --entry=main -o %t/keep.dlcm
// RUN: cp %t/keep.dlcm %t/keep.orig
// RUN: not dlc compile %s --entry=gpu -o %t/keep.dlcm
// RUN: cmp %t/keep.dlcm %t/keep.orig
// An output in a missing directory is an error naming it.
// RUN: not dlc compile %s --entry=main -o %t/missing/x.dlcm 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: error: cannot write '{{.*}}missing/x.dlcm': {{.*}}
// A device is written, not replaced: -o /dev/null works (for root too, where
// renaming a file over /dev/null would replace the device).
// RUN: dlc compile %s --entry=main -o /dev/null
// RUN: test -c /dev/null

func.func @gpu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = dlc.softmax %x {device = #dlc.device<cuda:1>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = dlc.relu %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// An output left on a GPU.
// RUN: not dlc compile %s --entry=gpu_output -o %t/out.dlcm 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: compile_errors.mlir:[[@LINE+4]]:3: error: model outputs must live on the cpu, but one lives on cuda:0: copy it back with dlc.copy
func.func @gpu_output(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = dlc.copy %x to cuda:0 : tensor<4x8xf32>
  %0 = dlc.relu %g {device = #dlc.device<cuda:0>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
