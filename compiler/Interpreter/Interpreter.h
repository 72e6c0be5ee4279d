//===- Interpreter.h - the reference interpreter over dlc IR --------------===//
//
// Evaluates a func.func of dlc ops on host tensors with the reference kernels
// (RefKernels.h): f64 accumulation, one rounding per output element, f16 and
// bf16 rounded as the hardware does. It shares no code with the lowering, so
// it is the ground truth for end-to-end tests.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_INTERPRETER_INTERPRETER_H
#define DLC_COMPILER_INTERPRETER_INTERPRETER_H

#include "Interpreter/RefTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"

#include <functional>
#include <string>
#include <vector>

namespace dlc {

/// The reference dtype of an MLIR element type, or failure for other types.
/// Signed integers are signless (i8 ... i64), unsigned ones ui8 ... ui64.
mlir::FailureOr<ref::DType> refDTypeOf(mlir::Type elementType);
/// The MLIR element type of a reference dtype (the inverse of refDTypeOf).
mlir::Type mlirTypeOf(mlir::MLIRContext *context, ref::DType dtype);

/// The values of a dense or dense_resource constant.
mlir::FailureOr<ref::Tensor> tensorFromElements(mlir::ElementsAttr attr,
                                                mlir::Location loc);

/// Argument `index`'s persistent state as a session starts (dlc.initial, else
/// zeros), when the argument holds state (dlc.state); std::nullopt otherwise.
mlir::FailureOr<std::optional<ref::Tensor>> initialState(mlir::func::FuncOp func, unsigned index);

/// The name of argument / result `index`: its `dlc.name` attribute (set by
/// the ONNX importer from the graph's names), else for state "w" (dlc.state)
/// "w" / "w.next", else "argN" / "resultN".
std::string argumentName(mlir::func::FuncOp func, unsigned index);
std::string resultName(mlir::func::FuncOp func, unsigned index);

/// Evaluates `func` on `inputs`, one per argument in order, whose dtypes and
/// shapes must match. On failure a diagnostic names the offending op or input.
/// Evaluates one dlc op on `operands` (one per operand, in order): the
/// importer folds shape computations with it. Returns the error message on
/// failure (no diagnostic).
ref::Expected<std::vector<ref::Tensor>>
evaluateOp(mlir::Operation *op, const std::vector<ref::Tensor> &operands);

/// `onOp`, when given, sees every op's results as they are computed
/// (`dlc run --compare-reference` keeps them).
using OpResultsCallback =
    std::function<void(mlir::Operation *, const std::vector<ref::Tensor> &)>;

mlir::FailureOr<std::vector<ref::Tensor>>
interpretFunction(mlir::func::FuncOp func, const std::vector<ref::Tensor> &inputs,
                  const OpResultsCallback &onOp = nullptr);

} // namespace dlc

#endif // DLC_COMPILER_INTERPRETER_INTERPRETER_H
