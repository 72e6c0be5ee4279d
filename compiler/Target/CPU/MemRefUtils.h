//===- MemRefUtils.h - layout questions the post-bufferization steps ask --===//
#ifndef DLC_COMPILER_TARGET_CPU_MEMREFUTILS_H
#define DLC_COMPILER_TARGET_CPU_MEMREFUTILS_H

#include "mlir/IR/BuiltinTypes.h"

namespace dlc {

/// The first dim from which `type`'s trailing dims lie contiguously in memory
/// (row-major, unit stride last; dims of size 1 may have any stride): 0 for a
/// contiguous memref, its rank when not even the last dim has unit stride.
int64_t contiguousFrom(mlir::MemRefType type);

} // namespace dlc

#endif // DLC_COMPILER_TARGET_CPU_MEMREFUTILS_H
