//===- ConstantData.h - compile-time layout changes of constant weights ---===//
//
// Weights are constants: a layout a kernel prefers (Wᵀ for a linear, taps
// outermost for a convolution) is computed once here, at compile time, and
// stored in the artifact instead of the original.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_PASSES_CONSTANTDATA_H
#define DLC_PASSES_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LogicalResult.h"

namespace dlc {

/// `weight` permuted: result dim i is `weight`'s dim perm[i] (as
/// dlc.transpose). A dense_resource named `name` (a splat stays a splat).
/// Fails when the data cannot be read (an elided or foreign attribute).
mlir::FailureOr<mlir::ElementsAttr> permuteConstant(mlir::ElementsAttr weight,
                                                    llvm::ArrayRef<int64_t> perm,
                                                    llvm::StringRef name);

} // namespace dlc

#endif
