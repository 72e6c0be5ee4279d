//===- DataParallel.h - data-parallel:N: one replica per GPU --------------===//
//
// Rewrites a function so that N replicas of its body each run on a slice of
// the batch (dim 0 of every argument):
//
//   %x0 = dlc.slice %x [0, 3)        // on the cpu; 5 over 2 is 3 + 2
//   %x1 = dlc.slice %x [3, 5)
//   ... the body on %x0 (replica 0), on %x1 (replica 1); results' dim 0 the slice's
//   %y  = dlc.concat %y0, %y1 {axis = 0}   // on the cpu
//
// Constants are shared by the replicas here; placement then gives each GPU
// its own copy (weights loaded once per GPU). An op that mixes the batch
// dimension with others (a reduction over it, a transpose or reshape moving
// it, softmax / layer_norm over axis 0, a matmul contracting it, ...) is
// refused with an error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_DATAPARALLEL_H
#define DLC_PASSES_DATAPARALLEL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"

namespace dlc {

/// Splits `func` into `replicas` batch replicas. On success, `replicaOf` maps
/// every new op (except constants) to its replica, or to -1 for the slices and
/// concats that run on the CPU. `what` names the policy in diagnostics.
mlir::LogicalResult
splitBatch(mlir::func::FuncOp func, int64_t replicas, llvm::StringRef what,
           llvm::DenseMap<mlir::Operation *, int> &replicaOf);

} // namespace dlc

#endif // DLC_PASSES_DATAPARALLEL_H
