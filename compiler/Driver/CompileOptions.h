//===- CompileOptions.h - everything `dlc compile` is asked to do ----------===//
//
// One struct, filled once from the command line (compiler/DlcMain.cpp), from
// dlc-opt's `--dlc-compile-pipeline='...'` options (CompilePipeline.cpp) or
// by a program embedding the compiler, and checked once (`check`), which also
// loads the device spec file: every stage reads it from here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_DRIVER_COMPILEOPTIONS_H
#define DLC_COMPILER_DRIVER_COMPILEOPTIONS_H

#include "compiler/Pipeline/ArtifactStages.h"
#include "passes/DeviceSpec.h"

#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlc {

/// The stages of the compile pipeline, in order (`stop-after`/`start-after`
/// name them). Each is a sequence of passes over the module; the IR between
/// two stages is all there is (printed and parsed back, the rest of the
/// pipeline gives the same artifact).
enum class CompileStage {
  Entry,     // dlc-prepare-entry: name unnamed ops, keep the entry function
  Place,     // (--calibrate), dlc-place
  Precision, // dlc-mixed-precision
  Copies,    // dlc-insert-copies, the placement report, calibration errors
  Rewrite,   // the CPU path's graph rewrites (linear to matmul, ..., weight packing)
  Kernels,   // dlc-partition-kernels, dlc-split-cuda-kernels
  Schedule,  // dlc-schedule: buffers, each device's step list, events
  Memory,    // dlc-plan-memory: each device's arena
  Codegen,   // dlc-codegen: the kernels' code, as IR
  Artifact,  // dlc-write-artifact: the .dlcm bytes
};
llvm::StringRef stageName(CompileStage stage);
std::optional<CompileStage> parseStage(llvm::StringRef name);
/// "entry, place, ..., artifact": for error messages and help.
std::string stageNames();

struct CompileOptions {
  std::string entry = "main";

  // Placement (passes/README.md). Any of these runs the placement stages.
  std::string devices; // "cpu,cuda:0"; empty: not given
  std::string policy;  // empty: dlc-place's default (cost)
  std::vector<std::string> pins;
  std::string deviceSpecPath;
  std::string fallback;
  std::string placementFrom;
  std::string dumpPlacement;
  bool printPlacement = false;

  // Mixed precision (passes/README.md).
  std::string precision, ioPrecision;
  std::vector<std::string> fp16Allow, fp16Deny;
  /// --calibrate's NAME=FILE.npy pairs; `modelLabel` names the model in its errors.
  std::vector<std::string> calibrate;
  std::string modelLabel;

  /// Code generation and the artifact (compiler/Pipeline/ArtifactStages.h).
  CodegenOptions codegen;
  /// Where the artifact stage hands the artifact's bytes (not called for
  /// the --emit stages, which print instead).
  std::function<llvm::Error(std::string &&)> artifactSink;

  /// The part of the pipeline to run: the stages after `startAfter` (all
  /// when unset) up to and including `stopAfter`.
  std::optional<CompileStage> startAfter;
  CompileStage stopAfter = CompileStage::Artifact;

  /// `kernel-tiles` as given (checked by setKernelTiles), for the backends'
  /// graph rewrites (TargetBackend::addGraphRewrites); empty: none.
  std::string kernelTiles;

  /// The `--device-spec` file, loaded by `check` (nullptr: none given).
  std::shared_ptr<const DeviceSpec> deviceSpec;

  bool placementRequested() const {
    return !devices.empty() || !policy.empty() || !pins.empty() ||
           !deviceSpecPath.empty() || !fallback.empty() || !dumpPlacement.empty() ||
           printPlacement || !placementFrom.empty();
  }
  bool precisionRequested() const {
    return !precision.empty() || !ioPrecision.empty() || !fp16Allow.empty() ||
           !fp16Deny.empty();
  }
  bool runs(CompileStage stage) const {
    return (!startAfter || stage > *startAfter) && stage <= stopAfter;
  }

  /// Checks what can be checked without the model and loads the device spec.
  /// The message names the option at fault.
  llvm::Error check();

  /// The options given as text, parsed in one place for `dlc compile` and
  /// dlc-opt: `gpu-host-code` (llvm | emulated) and `kernel-tiles` (RxC,
  /// over the tiles of `codegen.cpu.cpu`, which must be set first). The
  /// message names the option without its dashes.
  llvm::Error setGpuHostCode(llvm::StringRef value);
  llvm::Error setKernelTiles(llvm::StringRef spec);
};

} // namespace dlc

#endif // DLC_COMPILER_DRIVER_COMPILEOPTIONS_H
