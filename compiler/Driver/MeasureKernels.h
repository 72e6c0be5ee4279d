//===- MeasureKernels.h - how fast dlc's own CPU kernels run here ---------===//
//
// `dlc probe-devices` calibrates the CPU's device profile from dlc's own
// code rather than a datasheet: one model per cost kind (CostModel.h's
// costKind), sized as the layers of the benchmark models (ResNet-18's 3x3
// convolution, MobileNetV2's depthwise one, the MLP's linear, the encoder's
// attention matmul, a streaming add), each compiled by the real pipeline
// for the target CPU and timed through the runtime on one thread. A kind's
// rate is the op's FLOPs (its CostOpInterface) over the median run time
// less the runtime's per-run cost, which a one-element model measures.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_DRIVER_MEASUREKERNELS_H
#define DLC_COMPILER_DRIVER_MEASUREKERNELS_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dlc {

struct KernelMeasureOptions {
  /// The target CPU (`--cpu`): "native" or an LLVM CPU name this machine runs.
  std::string cpu = "native";
  /// Timed runs per model: at least `minRuns` and about `minSeconds`.
  int minRuns = 5;
  double minSeconds = 0.2;
};

struct KernelMeasurement {
  std::string kind;  // costKind of the timed op
  std::string shape; // what it computed, for the report
  double flops = 0, bytes = 0;
  double medianUs = 0; // per run, the runtime's per-run cost taken off
  double flopsPerSecond() const { return medianUs > 0 ? flops / (medianUs * 1e-6) : 0; }
  double bytesPerSecond() const { return medianUs > 0 ? bytes / (medianUs * 1e-6) : 0; }
};

struct KernelMeasurements {
  /// One run of a one-element model: the runtime's cost per run and step.
  double launchUs = 0;
  std::vector<KernelMeasurement> kernels;
};

/// Compiles and times the calibration models; an error names the model
/// that failed to compile, load or run.
llvm::Expected<KernelMeasurements> measureCpuKernels(mlir::MLIRContext &context,
                                                     const KernelMeasureOptions &options);

} // namespace dlc

#endif // DLC_COMPILER_DRIVER_MEASUREKERNELS_H
