//===- CpuRelayouts.h - layout changes the CPU's kernels do in place -------===//
//
// Ops that never run on the CPU because the op beside them does their work
// as it reads or writes: they join that op's kernel (CpuBackend.cpp answers
// PartitionKernels with them) and cost nothing in the placement summary.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CPU_CPURELAYOUTS_H
#define DLC_COMPILER_TARGET_CPU_CPURELAYOUTS_H

#include "mlir/IR/Operation.h"

namespace dlc {

/// Whether `op` is the transpose (or the reshape after it) through which a
/// convolution or matmul reads a weight packed at compile time
/// (PackConvWeights.cpp, LinearToMatmul.cpp).
bool isPackedWeightView(mlir::Operation *op);
/// A CPU transpose keeping the last dim whose one user is a batched matmul,
/// which reads its matrices through it (LowerContractions.cpp).
bool isReadInPlaceByMatmul(mlir::Operation *op);
/// A CPU transpose keeping the last dim of a batched matmul's result, its
/// only use: the matmul's loops write each matrix in its transposed place
/// (ReuseProducerBuffer.cpp).
bool isWrittenInPlaceByMatmul(mlir::Operation *op);

} // namespace dlc

#endif // DLC_COMPILER_TARGET_CPU_CPURELAYOUTS_H
