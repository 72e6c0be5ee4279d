//===- ReportPlacement.cpp - the placement as a table, JSON or DOT ---------===//
//
// The one place `dlc compile --dump-placement/--print-placement` writes the
// placement from: after dlc-place, dlc-mixed-precision and dlc-insert-copies,
// so that the report describes the IR that is compiled (with its casts).
//
//===----------------------------------------------------------------------===//

#include "passes/DeviceSpec.h"
#include "passes/Passes.h"
#include "passes/PlacementReport.h"

namespace dlc {
#define GEN_PASS_DEF_REPORTPLACEMENT
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct ReportPlacementPass : dlc::impl::ReportPlacementBase<ReportPlacementPass> {
  using ReportPlacementBase::ReportPlacementBase;
  std::shared_ptr<const DeviceSpec> loadedSpec;

  /// The spec placement used: the file's (restricted to `devices` when
  /// given), else the built-in profiles of `devices`.
  llvm::Expected<DeviceSpec> placementSpec() {
    std::vector<DeviceId> ids;
    for (const std::string &text : devices) {
      auto parsed = parseDeviceList(text);
      if (!parsed)
        return parsed.takeError();
      ids.insert(ids.end(), parsed->begin(), parsed->end());
    }
    if (deviceSpec.empty())
      return DeviceSpec::builtin(ids, BuiltinTarget{targetCpu});
    auto spec = loadedSpec ? llvm::Expected<DeviceSpec>(*loadedSpec)
                           : DeviceSpec::loadJson(deviceSpec);
    if (!spec || ids.empty())
      return spec;
    return spec->select(ids, deviceSpec);
  }

  void runOnOperation() override {
    if (dump.empty() && !print)
      return;
    llvm::Expected<DeviceSpec> spec = placementSpec();
    if (!spec) {
      getOperation().emitError() << llvm::toString(spec.takeError());
      return signalPassFailure();
    }
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FailureOr<PlacementReport> report = buildPlacementReport(func, *spec);
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

std::unique_ptr<Pass>
dlc::createReportPlacement(const ReportPlacementOptions &options,
                           std::shared_ptr<const DeviceSpec> loadedSpec) {
  auto pass = std::make_unique<ReportPlacementPass>(options);
  pass->loadedSpec = std::move(loadedSpec);
  return pass;
}
