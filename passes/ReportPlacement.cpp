//===- ReportPlacement.cpp - the placement as a table, JSON or DOT ---------===//
//
// The one place `dlc compile --dump-placement/--print-placement` writes the
// placement from: after dlc-place, dlc-mixed-precision and dlc-insert-copies,
// so that the report describes the IR that is compiled (with its casts), over
// the device spec dlc-place recorded on the module.
//
//===----------------------------------------------------------------------===//

#include "passes/DeviceSpec.h"
#include "passes/Passes.h"
#include "passes/PlacementReport.h"
#include "passes/RecordedDeviceSpec.h"

#include "dialects/dlc/DlcOps.h"

namespace dlc {
#define GEN_PASS_DEF_REPORTPLACEMENT
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct ReportPlacementPass : dlc::impl::ReportPlacementBase<ReportPlacementPass> {
  using ReportPlacementBase::ReportPlacementBase;
  void runOnOperation() override {
    if (dump.empty() && !print)
      return;
    FailureOr<std::optional<DeviceSpec>> recorded = recordedDeviceSpec(getOperation());
    if (failed(recorded))
      return signalPassFailure();
    if (!*recorded) {
      getOperation().emitError() << "dlc-report-placement: the module has no "
                                 << ::dlc::attrs::kDeviceSpec << " (run dlc-place first)";
      return signalPassFailure();
    }
    const DeviceSpec &spec = **recorded;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FailureOr<PlacementReport> report = buildPlacementReport(func, spec);
      if (failed(report))
        return signalPassFailure();
      if (print)
        writePlacementText(*report, llvm::errs());
      if (!dump.empty())
        if (llvm::Error error = writePlacementFile(*report, dump)) {
          getOperation().emitError() << llvm::toString(std::move(error));
          return signalPassFailure();
        }
    }
  }
};

} // namespace
