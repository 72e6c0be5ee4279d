//===- SplitCudaKernels.h - GPU kernels the CUDA backend can emit ---------===//
#ifndef DLC_COMPILER_TARGET_CUDA_SPLITCUDAKERNELS_H
#define DLC_COMPILER_TARGET_CUDA_SPLITCUDAKERNELS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace dlc::cuda {

/// `dlc-split-cuda-kernels` (func.func): after dlc-partition-kernels, a GPU
/// kernel the CUDA backend cannot emit as one becomes the longest runs of
/// its ops it can emit (new `dlc.kernel` ids).
std::unique_ptr<mlir::Pass> createSplitCudaKernels();
void registerSplitCudaKernels();

} // namespace dlc::cuda

#endif // DLC_COMPILER_TARGET_CUDA_SPLITCUDAKERNELS_H
