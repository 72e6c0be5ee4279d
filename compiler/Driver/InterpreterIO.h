//===- InterpreterIO.h - the reference interpreter's inputs and outputs ----===//
#ifndef DLC_COMPILER_DRIVER_INTERPRETERIO_H
#define DLC_COMPILER_DRIVER_INTERPRETERIO_H

#include "Interpreter/RefTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace dlc {

/// The entry's inputs: state from its initial value, NAME=FILE.npy where
/// given (by name, or argN), else random from `seed` (as dlc run makes them,
/// when `randomInputs`). False, with the error on stderr, otherwise.
bool interpreterInputs(mlir::func::FuncOp func, llvm::StringRef entry,
                       llvm::ArrayRef<std::string> inputFiles, bool randomInputs,
                       uint64_t seed, std::vector<ref::Tensor> &inputs);

/// Prints each output's summary and, with `outputDir`, writes it as NAME.npy.
bool writeInterpretedOutputs(mlir::func::FuncOp func, llvm::ArrayRef<ref::Tensor> outputs,
                             llvm::StringRef outputDir);

} // namespace dlc

#endif // DLC_COMPILER_DRIVER_INTERPRETERIO_H
