//===- PlacementReport.h - what placement decided, and what it costs ------===//
//
// The report is computed from placed IR alone (every op carrying `device`,
// `dlc.reason`, `dlc.order`) and a device spec, before or after
// dlc-insert-copies: a use on another device than its value's counts as one
// copy per (value, destination device) either way. It simulates one run in
// `dlc.order` (each device runs its ops in that order, a copy leaves when its
// value is ready and arrives latency + bytes / bandwidth later), sweeps
// buffers' lifetimes over the same order for each device's peak memory, and
// writes the text table, the JSON (schema in passes/README.md) and the DOT
// graph of `--dump-placement` / `--print-placement`.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_PLACEMENTREPORT_H
#define DLC_PASSES_PLACEMENTREPORT_H

#include "passes/DeviceSpec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace dlc {

struct PlacementReport {
  struct Op {
    std::string name, op, device, reason;
    std::string precision; // the first result's element type: f32, f16, ...
    int64_t order = 0;
    double estimatedUs = 0, startUs = 0, finishUs = 0;
  };
  struct Copy {
    std::string value, from, to;
    int64_t bytes = 0;
    /// What other cast placements would have moved more: an f16 value cast
    /// from f32 before the copy or widened after it (the difference), a value
    /// copied once and cast narrower on arrival (the narrow copy not sent).
    int64_t bytesSaved = 0;
    double estimatedUs = 0;
  };
  struct Device {
    std::string name;
    int64_t ops = 0;
    double busyUs = 0;
    int64_t peakMemoryBytes = 0, weightBytes = 0, capacityBytes = 0;
    /// Where the device's figures come from (DeviceProfile::source).
    std::string profile;
  };
  std::string function, policy;
  /// A symbolic batch (dlc.symbolic_batch): its name and the size every
  /// estimate is made at (the bound, at which the IR is static); "" / 0: none.
  std::string batchName;
  int64_t batchEstimatedAt = 0;
  std::vector<std::string> inputs; // the function's arguments
  std::vector<Op> ops; // in dlc.order
  std::vector<Copy> copies;
  std::vector<Device> devices;
  double makespanUs = 0, lowerBoundUs = 0;
  int64_t bytesMoved = 0, bytesSaved = 0; // over every copy
  std::optional<double> periodUs; // pipeline:N only
  /// For the DOT graph: edges between op names (copies appear as nodes).
  std::vector<std::pair<std::string, std::string>> edges;
};

/// The report of a placed function; a diagnostic on the first op without a
/// device (or on a device the spec lacks) on failure.
mlir::FailureOr<PlacementReport> buildPlacementReport(mlir::func::FuncOp func,
                                                      const DeviceSpec &spec);

void writePlacementText(const PlacementReport &report, llvm::raw_ostream &os);
void writePlacementJson(const PlacementReport &report, llvm::raw_ostream &os);
void writePlacementDot(const PlacementReport &report, llvm::raw_ostream &os);

/// Writes FILE.txt, FILE.json or FILE.dot by extension; an error message on
/// failure.
llvm::Error writePlacementFile(const PlacementReport &report, llvm::StringRef path);

} // namespace dlc

#endif // DLC_PASSES_PLACEMENTREPORT_H
