//===- CompileOptions.cpp - checked once, the device spec loaded once -----===//

#include "compiler/Driver/CompileOptions.h"
#include "compiler/Target/Backends.h"
#include "compiler/Target/CPU/CpuTarget.h"
#include "compiler/Target/CUDA/Nvrtc.h"

#include "llvm/ADT/StringExtras.h"

using namespace dlc;

namespace {
constexpr const char *kStageNames[] = {"entry",   "place",    "precision", "copies",  "rewrite",
                                       "kernels", "schedule", "memory",    "codegen", "artifact"};

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace

llvm::StringRef dlc::stageName(CompileStage stage) {
  return kStageNames[static_cast<int>(stage)];
}

std::optional<CompileStage> dlc::parseStage(llvm::StringRef name) {
  for (auto [i, known] : llvm::enumerate(kStageNames))
    if (name == known)
      return static_cast<CompileStage>(i);
  return std::nullopt;
}

std::string dlc::stageNames() {
  return llvm::join(llvm::ArrayRef<const char *>(kStageNames), ", ");
}

llvm::Error CompileOptions::setGpuHostCode(llvm::StringRef value) {
  if (value != "llvm" && value != "emulated")
    return fail("gpu-host-code expects llvm or emulated, got '" + value + "'");
  codegen.emulatedGpuHostCode = value == "emulated";
  return llvm::Error::success();
}

llvm::Error CompileOptions::setKernelTiles(llvm::StringRef spec) {
  std::string error;
  std::optional<cpu::KernelTiles> tiles =
      parseKernelTiles(spec, cpuKernelTiles(codegen.cpu), error);
  if (!tiles)
    return fail("kernel-tiles: " + error);
  codegen.cpu.tiles = tiles;
  kernelTiles = spec.str();
  return llvm::Error::success();
}

llvm::Error CompileOptions::check() {
  // The device spec and --devices name kinds of the registered backends.
  registerBuiltinTargetBackends();
  if (!calibrate.empty() && (precision.empty() || precision == "fp32"))
    return fail("--calibrate needs --precision=mixed or --precision=fp16");
  if (!codegen.cuda && codegen.emitPtx)
    return fail("--emit=ptx needs the CUDA code that --no-cuda leaves out");
  if (llvm::Error error = cuda::checkArchs(codegen.cudaArchs))
    return error;
  if (startAfter && *startAfter >= stopAfter)
    return fail("start-after=" + stageName(*startAfter) + " leaves nothing to run before stop-after=" +
                stageName(stopAfter));
  if (!deviceSpecPath.empty() && !deviceSpec) {
    llvm::Expected<DeviceSpec> spec = DeviceSpec::loadJson(deviceSpecPath);
    if (!spec)
      return spec.takeError();
    deviceSpec = std::make_shared<const DeviceSpec>(std::move(*spec));
  }
  return llvm::Error::success();
}
