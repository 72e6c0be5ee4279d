//===- CudaEmitter.h - CUDA C++ from a partitioned kernel group -----------===//
//
//   ops of one dlc.kernel (dlc ops on static tensors)
//     -> a KernelPlan: the anchor op (matmul, softmax, transpose, ...) and
//        the elementwise ops fused after it (an expression tree per output)
//     -> one extern "C" __global__ function per group, with its launch shape
//
// Kernel kinds (KernelSource::kind):
//   elementwise      grid-stride loop; float4 / __half2 vectors when every
//                    operand is full-size or a scalar
//   pointwise        one thread per output element computing the anchor
//                    (transpose, slice, concat, gather, pooling, batch_norm,
//                    conv2d direct, reductions over inner axes), then the chain
//   row-reduction    softmax, layer_norm, reduce_* over trailing axes: a warp
//                    per row (row <= 1024) or a block per row, shuffles, f32
//   gemm-ffma        f32 matmul, 64x64x16 tiles in shared memory, 4x4 per thread
//   gemm-mma         f16/bf16 matmul on tensor cores: mma.sync m16n8k16 with
//                    f32 accumulation, 64x64x32 tiles, 4 warps of 32x32
// The fused elementwise ops of a group run in the anchor's epilogue, before
// the store. Kernel ABI: one pointer per buffer, inputs then outputs
// (compiler/README.md; the runtime passes device addresses).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CUDA_CUDAEMITTER_H
#define DLC_COMPILER_TARGET_CUDA_CUDAEMITTER_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace dlc::cuda {

struct KernelSource {
  std::string entry;   // the extern "C" __global__ function
  std::string kind;    // see above
  std::string code;    // the function (without the preamble)
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  uint32_t sharedBytes = 0; // dynamic shared memory (the GEMM's stages)
  uint32_t minBlocksPerSM = 0; // __launch_bounds__'s second argument, 0: none
  std::vector<std::string> ops; // the fused ops' names, in order
  uint32_t parameters = 0;      // buffers: inputs, then outputs
};

/// Whether the CUDA backend has a kernel for ops of this kind (`matmul`, no
/// dialect prefix); the CUDA target backend (CudaBackend.cpp, where the list
/// lives) declares the same to placement.
bool supportsOpKind(llvm::StringRef kind);

/// Emits one kernel for `ops` (a dlc.kernel group in model order) reading
/// `inputs` and writing `outputs` (parameters in that order). Values used by
/// the ops that are neither inputs nor results of the group must be small
/// dense constants: they are inlined. On failure a diagnostic names the op.
mlir::FailureOr<KernelSource> emitKernel(llvm::ArrayRef<mlir::Operation *> ops,
                                         llvm::ArrayRef<mlir::Value> inputs,
                                         llvm::ArrayRef<mlir::Value> outputs,
                                         llvm::StringRef entry,
                                         llvm::ArrayRef<std::string> opNames);

/// Includes, type helpers, warp/block reductions and the DLC_MMA_* macros
/// that every kernel source starts with (host emulation when
/// DLC_CUDA_EMULATION is defined: compiler/Target/CUDA/emulation/cuda_emu.h).
std::string preamble();

/// The preamble followed by the kernels: one translation unit.
std::string moduleSource(llvm::ArrayRef<KernelSource> kernels);

} // namespace dlc::cuda

#endif // DLC_COMPILER_TARGET_CUDA_CUDAEMITTER_H
