//===- DlcShapes.h - shape rules of the dlc ops ---------------------------===//
//
// One function per shape rule, shared by the verifiers (which report the
// failure through `emitError`) and by builders that infer result types (which
// pass a null `emitError`). Each returns the result shape, or failure.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_DLCSHAPES_H
#define DLC_DIALECT_DLCSHAPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"

#include "dialects/dlc/DlcEnums.h"

namespace dlc {

using Shape = llvm::SmallVector<int64_t, 6>;
/// Reports an error; may be null, in which case nothing is reported.
using EmitErrorFn = llvm::function_ref<InFlightDiagnostic()>;

/// "4x8" ("scalar" for rank 0): how shapes appear in messages.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// NumPy broadcasting of two shapes.
FailureOr<Shape> broadcastShapes(llvm::ArrayRef<int64_t> lhs,
                                 llvm::ArrayRef<int64_t> rhs,
                                 EmitErrorFn emitError);
/// The broadcast result type of two tensors of one element type, or null.
RankedTensorType inferBroadcastType(Type lhs, Type rhs);

/// NumPy matmul of rank >= 2 operands.
FailureOr<Shape> matmulShape(llvm::ArrayRef<int64_t> lhs,
                             llvm::ArrayRef<int64_t> rhs, EmitErrorFn emitError);

/// Output size of a strided, padded, dilated window along one dimension.
FailureOr<int64_t> windowOutputSize(int64_t size, int64_t window,
                                    int64_t stride, int64_t padBefore,
                                    int64_t padAfter, int64_t dilation,
                                    llvm::StringRef dimName,
                                    EmitErrorFn emitError);

/// Shape of a reduction over `axes` (empty: all), after normalising them.
FailureOr<Shape> reduceShape(llvm::ArrayRef<int64_t> input,
                             llvm::ArrayRef<int64_t> axes, bool keepdims,
                             EmitErrorFn emitError);

/// Normalises a possibly negative axis into [0, rank).
FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                 EmitErrorFn emitError);

} // namespace dlc

#endif // DLC_DIALECT_DLCSHAPES_H
