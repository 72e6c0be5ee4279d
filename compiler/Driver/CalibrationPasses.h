//===- CalibrationPasses.h - --calibrate as two passes of the pipeline -----===//
//
// The calibration run (compiler/Driver/Calibrate.h) is one pass before dlc-place,
// which pins what fp16 cannot hold, and one after dlc-insert-copies, which
// reports each op's error of the painted model; the fp32 results they share
// live in a `CalibrationState` the pipeline builder hands both.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_DRIVER_CALIBRATIONPASSES_H
#define DLC_COMPILER_DRIVER_CALIBRATIONPASSES_H

#include "compiler/Driver/Calibrate.h"

#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>
#include <vector>

namespace dlc {

struct CalibrationState {
  /// NAME=FILE.npy, one per argument of the entry.
  std::vector<std::string> inputSpecs;
  std::string entry, modelLabel;
  Calibration calibration;
};

std::unique_ptr<mlir::Pass> createCalibrateFp16(std::shared_ptr<CalibrationState> state);
std::unique_ptr<mlir::Pass>
createReportCalibrationError(std::shared_ptr<CalibrationState> state);

} // namespace dlc

#endif // DLC_COMPILER_DRIVER_CALIBRATIONPASSES_H
