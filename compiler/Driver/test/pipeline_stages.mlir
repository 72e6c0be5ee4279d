// What each stage of dlc-compile-pipeline leaves in the IR, and its errors
// (compiler/Driver/CompilePipeline.h).
// RUN: dlc-opt %s --dlc-compile-pipeline='stop-after=entry' -mlir-print-debuginfo | FileCheck %s --check-prefix=ENTRY --implicit-check-not=other_function_is_dropped
// RUN: dlc-opt %s --dlc-compile-pipeline='devices=cpu,cuda:0 placement=gpu stop-after=place' | FileCheck %s --check-prefix=PLACE
// RUN: dlc-opt %s --dlc-compile-pipeline='devices=cpu,cuda:0 placement=gpu precision=mixed stop-after=precision' 2>/dev/null | FileCheck %s --check-prefix=PRECISION
// RUN: dlc-opt %s --dlc-compile-pipeline='devices=cpu,cuda:0 placement=gpu stop-after=copies' | FileCheck %s --check-prefix=COPIES
// RUN: dlc-opt %s --dlc-compile-pipeline='stop-after=rewrite' | FileCheck %s --check-prefix=REWRITE
// RUN: dlc-opt %s --dlc-compile-pipeline='stop-after=kernels' | FileCheck %s --check-prefix=KERNELS

// `dlc compile --emit=mlir` with placement is the IR after `copies`.
// RUN: dlc compile %s --devices=cpu,cuda:0 --placement=gpu --emit=mlir > %t.emit.mlir
// RUN: dlc-opt %s --dlc-compile-pipeline='devices=cpu,cuda:0 placement=gpu stop-after=copies' > %t.opt.mlir
// RUN: diff %t.emit.mlir %t.opt.mlir

// The placement report is written once, after the copies.
// RUN: dlc-opt %s --dlc-compile-pipeline='devices=cpu,cuda:0 placement=gpu print-placement stop-after=copies' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// Errors name the option at fault.
// RUN: not dlc-opt %s --dlc-compile-pipeline='stop-after=lowering' 2>&1 | FileCheck %s --check-prefix=BADSTAGE
// RUN: not dlc-opt %s --dlc-compile-pipeline='start-after=kernels stop-after=copies' 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not dlc-opt %s --dlc-compile-pipeline='gpu-host-code=ptx' 2>&1 | FileCheck %s --check-prefix=HOSTCODE
// RUN: not dlc-opt %s --dlc-compile-pipeline='kernel-tiles=9x16' 2>&1 | FileCheck %s --check-prefix=TILES
// The tiles dlc compile --kernel-tiles takes, the same through dlc-opt.
// RUN: dlc compile %s --cpu=x86-64-v3 --kernel-tiles=4x32 -o %t.tiles1.dlcm
// RUN: dlc-opt %s --dlc-compile-pipeline='cpu=x86-64-v3 kernel-tiles=4x32 output=%t.tiles2.dlcm' -o /dev/null
// RUN: cmp %t.tiles1.dlcm %t.tiles2.dlcm
// RUN: not dlc-opt %s --dlc-compile-pipeline='devices=cpu,cuda:0 device-spec=%t.missing.json' 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not dlc-opt %s --dlc-compile-pipeline='entry=other' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENTRYMISSING
// RUN: not dlc-opt %s --dlc-compile-pipeline='output=%t.nodir/a.dlcm' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUTPUT

func.func @main(%x: tensor<4x8xf32> {dlc.name = "x"}) -> tensor<4x4xf32> {
  %w = dlc.constant dense<0.5> : tensor<8x4xf32>
  %m = dlc.matmul %x, %w : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %r = dlc.relu %m : tensor<4x4xf32>
  %s = dlc.reshape %r : tensor<4x4xf32> -> tensor<16xf32>
  %t = dlc.reshape %s : tensor<16xf32> -> tensor<4x4xf32>
  %e = dlc.exp %t : tensor<4x4xf32>
  return %e : tensor<4x4xf32>
}

func.func @other_function_is_dropped(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// ENTRY: dlc.matmul {{.*}} loc([[M:#loc[0-9]+]])
// ENTRY: [[M]] = loc("matmul_1"(

// PLACE: dlc.matmul {{.*}}device = #dlc.device<cuda:0>{{.*}}dlc.reason = "default"
// PLACE-NOT: dlc.copy

// PRECISION: dlc.cast {{.*}}f16
// PRECISION-NOT: dlc.copy

// COPIES: dlc.copy %arg0 to cuda:0
// COPIES: dlc.copy {{.*}} to cpu

// REWRITE-NOT: dlc.kernel
// REWRITE: dlc.matmul

// KERNELS: dlc.kernel
// KERNELS-NEXT: dlc.matmul
// KERNELS-NEXT: dlc.relu
// KERNELS-NEXT: dlc.yield
// KERNELS-NEXT: }
// KERNELS-NEXT: dlc.reshape
// KERNELS-NEXT: dlc.kernel
// KERNELS-NEXT: dlc.exp

// REPORT: matmul_1
// REPORT-NOT: matmul_1

// BADSTAGE: dlc-compile-pipeline: unknown stage 'lowering' (expected one of entry, place, precision, copies, rewrite, kernels, schedule, memory, codegen, artifact)
// ORDER: dlc-compile-pipeline: start-after=kernels leaves nothing to run before stop-after=copies
// HOSTCODE: dlc-compile-pipeline: gpu-host-code expects llvm or emulated, got 'ptx'
// TILES: dlc-compile-pipeline: kernel-tiles: expected ROWSxCOLUMNS with rows 1..8 and columns a multiple of 16 up to 32, got '9x16'
// SPEC: dlc-compile-pipeline: {{.*}}missing.json
// ENTRYMISSING: no function @other with a body in the model
// OUTPUT: cannot write '{{.*}}nodir/a.dlcm'
