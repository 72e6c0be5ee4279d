//===- EmulatedHostCode.h - CUDA kernels as host code for simulated GPUs --===//
//
// `dlc compile --gpu-host-code=emulated`: the GPU kernels' host code is their
// CUDA C++ itself, compiled by the host C++ compiler against
// emulation/cuda_emu.h, so simulated GPUs run the generated CUDA code inside
// the multi-device executor (end-to-end tests of the CUDA code without a GPU).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CUDA_EMULATEDHOSTCODE_H
#define DLC_COMPILER_TARGET_CUDA_EMULATEDHOSTCODE_H

#include "compiler/Target/CUDA/CudaEmitter.h"

#include "llvm/Support/Error.h"

namespace dlc::cuda {

/// The emulation header, as embedded in the compiler.
std::string emulationHeader();

/// A shared object with one `extern "C" void <entry><suffix>(void **buffers)`
/// per kernel (the CPU kernel ABI, compiler/README.md) that launches the
/// kernel in the emulation. The compiler is $DLC_HOST_CXX, else the one dlc
/// was built with; its output is in the error when it fails.
llvm::Expected<std::string> buildEmulatedHostCode(llvm::ArrayRef<KernelSource> kernels,
                                                  llvm::StringRef symbolSuffix);

} // namespace dlc::cuda

#endif // DLC_COMPILER_TARGET_CUDA_EMULATEDHOSTCODE_H
