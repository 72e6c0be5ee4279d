//===- CompilePipeline.h - the one pipeline from a model to an artifact ----===//
//
//   entry      dlc-prepare-entry
//   place      [calibration run], dlc-place
//   precision  dlc-mixed-precision
//   copies     dlc-insert-copies, dlc-report-placement, [calibration errors]
//   rewrite    dlc-linear-to-matmul, dlc-sink-reshapes, dlc-fold-batch-norm,
//              dlc-pack-conv-weights
//   kernels    dlc-partition-kernels, dlc-split-cuda-kernels
//   schedule   dlc-schedule: buffers, each device's step list, events
//   memory     dlc-plan-memory: each device's arena
//   codegen    dlc-codegen: the kernels' code (CUDA, NVRTC, the CPU path), as IR
//   artifact   dlc-write-artifact: the .dlcm bytes, translated from the IR
//              (both: compiler/Pipeline/ArtifactStages.h)
//
// The placement stages run when placement or precision was asked for. `dlc
// compile` runs this pipeline; dlc-opt exposes it as
// `--dlc-compile-pipeline='devices=cpu,cuda:0 placement=cost stop-after=copies'`
// (every option of CompilePipelineOptions in CompilePipeline.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_DRIVER_COMPILEPIPELINE_H
#define DLC_COMPILER_DRIVER_COMPILEPIPELINE_H

#include "compiler/Driver/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace dlc {

/// Adds the stages `options.runs` to `pm` (on builtin.module). `options`
/// must have passed `check()`.
void buildCompilePipeline(mlir::OpPassManager &pm, const CompileOptions &options);

/// Runs the pipeline on `module`; the artifact's bytes when it ran the
/// artifact stage (else empty). Diagnostics go to the context's handler.
mlir::FailureOr<std::string> compileModule(mlir::ModuleOp module, CompileOptions options);

/// `dlc-compile-pipeline` for dlc-opt.
void registerCompilePipeline();

} // namespace dlc

#endif // DLC_COMPILER_DRIVER_COMPILEPIPELINE_H
