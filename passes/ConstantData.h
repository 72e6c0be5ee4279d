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
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LogicalResult.h"

#include <string>
#include <vector>

namespace dlc {

/// `weight` permuted: result dim i is `weight`'s dim perm[i] (as
/// dlc.transpose). A dense_resource named `name` (a splat stays a splat).
/// With `viewShape`, the data is read as that shape first (same element
/// count: a reshape). Fails when the data cannot be read (an elided or
/// foreign attribute).
mlir::FailureOr<mlir::ElementsAttr> permuteConstant(mlir::ElementsAttr weight,
                                                    llvm::ArrayRef<int64_t> perm,
                                                    llvm::StringRef name,
                                                    llvm::ArrayRef<int64_t> viewShape = {});

/// The values of an f32 constant (dense, splat or dense_resource); fails for
/// other element types or unreadable data.
mlir::FailureOr<std::vector<float>> readF32Constant(mlir::ElementsAttr attr);

/// An f32 dense_resource constant named `name` holding `values`.
mlir::ElementsAttr makeF32Constant(mlir::RankedTensorType type,
                                   llvm::ArrayRef<float> values, llvm::StringRef name);

/// The name in `op`'s location (a NameLoc: an ONNX node or initializer),
/// else `fallback`: what the rewrites name the constants they make after.
std::string nameOf(mlir::Operation *op, llvm::StringRef fallback);

/// `loc` with `suffix` added to its name when it is a NameLoc (so that pin
/// patterns on the original still match, and dumps tell the pieces apart),
/// else `loc` itself.
mlir::Location suffixedLoc(mlir::Location loc, llvm::StringRef suffix);

} // namespace dlc

#endif
