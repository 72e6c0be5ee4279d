//===- CompileModel.h - scheduled dlc IR to a .dlcm artifact --------------===//
//
//   func @main of dlc ops, placed, rewritten, partitioned, scheduled and
//   planned (the stages before `artifact` in compiler/Driver/CompilePipeline.h;
//   the schedule's attributes: ScheduleIR.h)
//     -> GPU kernels as CUDA C++, NVRTC's PTX and CUBINs
//     -> kernels: the ops of each `dlc.kernel` op, each outlined into a
//        func in destination-passing style on memrefs, through the CPU
//        pipeline to one shared object
//     -> the artifact: the IR's buffers, steps and arenas, constants in
//        segments, links and per-op estimates
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_PIPELINE_COMPILEMODEL_H
#define DLC_COMPILER_PIPELINE_COMPILEMODEL_H

#include "compiler/Target/CPU/CpuPipeline.h"
#include "passes/DeviceSpec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlc {

/// What the artifacts dlc writes name as their producer.
inline constexpr const char *kArtifactProducer = "dlc 0.1 (LLVM " LLVM_VERSION_STRING ")";

struct CodegenOptions {
  std::string entry = "main";
  CpuTargetOptions cpu;
  /// Stop after printing the outlined kernels (`--emit=mlir`), or print the
  /// optimised LLVM IR (`--emit=llvm`) here.
  llvm::raw_ostream *emitKernels = nullptr;
  llvm::raw_ostream *emitLLVM = nullptr;
  /// Kernels on GPUs also become CUDA C++ (compiler/Target/CUDA), compiled by
  /// NVRTC to PTX for the lowest of these architectures and to a CUBIN for
  /// each (format 0.4). `cuda = false` keeps host code only (the artifact
  /// then runs on simulated GPUs only).
  bool cuda = true;
  /// Without NVRTC: true (an explicit --cuda-arch or --emit=ptx) makes that an
  /// error; false warns and keeps host code only, so a machine without the
  /// CUDA toolkit still places, compiles and simulates GPU models.
  bool cudaRequired = false;
  std::vector<std::string> cudaArchs = {"sm_90"};
  /// `--emit=cuda`: print the GPU kernels' CUDA C++ here and stop.
  llvm::raw_ostream *emitCuda = nullptr;
  /// `--emit=ptx`: print NVRTC's PTX (for the lowest architecture) and stop.
  llvm::raw_ostream *emitPtx = nullptr;
  /// `--gpu-host-code=emulated`: the GPU kernels' host code (what simulated
  /// GPUs run) is their CUDA C++ compiled by the host C++ compiler against
  /// the CUDA emulation (compiler/Target/CUDA/EmulatedHostCode.h), a second
  /// library of the artifact; else the CPU path's code of the same ops.
  bool emulatedGpuHostCode = false;
  /// Test-only (`dlc compile --test-drop-event-wait=K`): the K-th WaitEvent
  /// of the schedule (counted over the devices' lists in order) is left out,
  /// so that tests can show that the schedule verifier, the runtime's
  /// ordering checker and the differential tests catch a missing wait.
  int testDropEventWait = -1;
  /// `dlc compile --time-stages`: the artifact stage's parts are timed
  /// under this scope (and the pipeline's passes, by compileModule).
  mlir::TimingScope *timing = nullptr;
  /// A terminal's stream for progress lines (kernels lowered, parts of
  /// machine code), or none (dlc compile --progress).
  llvm::raw_ostream *progress = nullptr;
  /// Test-only (`--test-no-verify-schedule`): write the artifact without
  /// proving its schedule first (the runtime's checks then have to find it).
  bool testSkipScheduleVerification = false;
};

/// The artifact stage of the compile pipeline (compiler/Driver): the entry
/// function of `module`, after dlc-schedule and dlc-plan-memory, into
/// artifact bytes (a malformed schedule is an error naming what is wrong). Errors are reported as diagnostics on the offending op or
/// function. To compile a model from the start, use dlc::compileModule.
mlir::FailureOr<std::string> compileModel(mlir::ModuleOp module,
                                          const CodegenOptions &options);

} // namespace dlc

#endif // DLC_COMPILER_PIPELINE_COMPILEMODEL_H
