//===- Nvrtc.h - NVRTC, loaded at run time ---------------------------------===//
//
// The compiler never links NVRTC: it opens libnvrtc.so.<CUDA major> (the
// toolkit found at build time; $DLC_NVRTC names another file, for tests) and
// resolves the handful of functions it calls. Where it is absent, GPU targets
// are unavailable and `dlc compile` says so.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CUDA_NVRTC_H
#define DLC_COMPILER_TARGET_CUDA_NVRTC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dlc::cuda {

struct CompiledModule {
  std::string ptxArch; // "compute_80"
  std::string ptx;
  std::vector<std::pair<std::string, std::string>> cubins; // ("sm_90", bytes)
};

/// Checks `--cuda-arch` values: sm_NN with NN >= 80 (the kernels use
/// mma.sync.m16n8k16 with bf16, which sm_80 introduced).
llvm::Error checkArchs(const std::vector<std::string> &archs);

/// NVRTC's library, or an error saying why GPU targets are unavailable.
llvm::Error nvrtcAvailable();

/// Compiles `source` once to PTX for the lowest architecture of `archs`
/// (compute_NN) and once per architecture to CUBIN. On failure the error holds
/// NVRTC's log; `name` names the program in it.
llvm::Expected<CompiledModule> compileWithNvrtc(const std::string &source,
                                                const std::string &name,
                                                const std::vector<std::string> &archs);

struct KernelSource;

/// The kernels as one module (moduleSource). When NVRTC rejects it, every
/// kernel is compiled alone, so that the error names the kernels at fault and
/// their ops next to NVRTC's log.
llvm::Expected<CompiledModule> compileKernels(llvm::ArrayRef<KernelSource> kernels,
                                              const std::vector<std::string> &archs);

} // namespace dlc::cuda

#endif // DLC_COMPILER_TARGET_CUDA_NVRTC_H
