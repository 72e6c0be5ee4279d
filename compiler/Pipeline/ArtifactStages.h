//===- ArtifactStages.h - scheduled dlc IR to code, code to a .dlcm ---------===//
//
// The compile pipeline's last two stages (compiler/Driver/CompilePipeline.h):
//
//   codegen   dlc-codegen: func @main, scheduled and planned (ScheduleIR.h)
//               -> GPU kernels as CUDA C++, NVRTC's PTX and CUBINs
//               -> every kernel outlined into a func in destination-passing
//                  style on memrefs, through the CPU path to one shared object
//                  (and the GPU kernels' CUDA C++ compiled for the emulation)
//             written back as IR: the function's `dlc.libraries` and
//             `dlc.cuda_modules` (their bytes in resource blobs) and each
//             dlc.kernel's `dlc.code` (dialects/dlc/DlcBase.td)
//   artifact  dlc-write-artifact: that IR to the .dlcm's bytes, a translation
//             that compiles and decides nothing: buffers, steps, offsets and
//             code are the IR's; the schedule verifier proves it first
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_PIPELINE_ARTIFACTSTAGES_H
#define DLC_COMPILER_PIPELINE_ARTIFACTSTAGES_H

#include "compiler/Target/CPU/CpuPipeline.h"
#include "passes/DeviceSpec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
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
  /// `dlc compile --time-stages`: the stage's parts are timed under this
  /// scope (and the pipeline's passes, by compileModule).
  mlir::TimingScope *timing = nullptr;
  /// A terminal's stream for progress lines (kernels lowered, parts of
  /// machine code), or none (dlc compile --progress).
  llvm::raw_ostream *progress = nullptr;
  /// Test-only (`--test-no-verify-schedule`): write the artifact without
  /// proving its schedule first (the runtime's checks then have to find it).
  bool testSkipScheduleVerification = false;
};

/// dlc-codegen on the entry function of `module` (after dlc-schedule and
/// dlc-plan-memory): the code, written onto the IR. With an --emit stream set
/// it prints that and writes nothing. Errors are diagnostics on the op or
/// function at fault.
mlir::LogicalResult generateCode(mlir::ModuleOp module, const CodegenOptions &options);

/// dlc-write-artifact: the entry function of `module`, after dlc-codegen,
/// into artifact bytes (a malformed schedule or missing code is an error
/// naming what is wrong). To compile a model from the start, use
/// dlc::compileModule.
mlir::FailureOr<std::string> translateToArtifact(mlir::ModuleOp module,
                                                 const CodegenOptions &options);

/// The two as passes on builtin.module; the artifact's bytes go to `sink`
/// (none: made, proved and dropped).
std::unique_ptr<mlir::Pass> createGenerateCode(const CodegenOptions &options);
std::unique_ptr<mlir::Pass>
createWriteArtifact(const CodegenOptions &options,
                    std::function<llvm::Error(std::string &&)> sink);

} // namespace dlc

#endif // DLC_COMPILER_PIPELINE_ARTIFACTSTAGES_H
