//===- Calibrate.h - fp16 guardrails from one fp32 run ---------------------===//
//
// `dlc compile --precision=mixed --calibrate=x=x.npy`: the model runs once in
// fp32 through the reference interpreter; ops whose values (results or
// operands) would overflow fp16 (|x| > 65504) or whose operands underflow
// badly (more than 1% of the nonzero values below 2^-25, which fp16 rounds
// to zero) are pinned `dlc.precision = "fp32"` before dlc-mixed-precision
// runs. After it, the painted model runs through the interpreter too (it
// rounds at every cast) and each op's relative L2 error against fp32 is
// printed, worst first.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_CALIBRATE_H
#define DLC_COMPILER_CALIBRATE_H

#include "Interpreter/RefTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace dlc {

struct Calibration {
  std::vector<ref::Tensor> inputs;
  /// Per calibrated op (by its `dlc.calibration` id): its name and fp32 results.
  std::map<int64_t, std::string> names;
  std::map<int64_t, std::vector<ref::Tensor>> reference;
};

/// Tags every op of `func` with `dlc.calibration`, runs it in fp32 on
/// `calibration.inputs`, pins the ops fp16 cannot hold to fp32 and says why
/// on `log`.
mlir::LogicalResult calibrateFp16(mlir::func::FuncOp func, Calibration &calibration,
                                  llvm::raw_ostream &log);

/// Runs the painted `func` and prints each op's relative L2 error against
/// the fp32 run, worst first; removes the `dlc.calibration` tags.
mlir::LogicalResult reportCalibrationError(mlir::func::FuncOp func,
                                           const Calibration &calibration,
                                           llvm::raw_ostream &log);

} // namespace dlc

#endif // DLC_COMPILER_CALIBRATE_H
