//===- ReportCost.cpp - remarks with each op's cost and fp16 policy -------===//

#include "passes/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_REPORTCOST
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct ReportCostPass : dlc::impl::ReportCostBase<ReportCostPass> {
  void runOnOperation() override {
    int64_t totalFlops = 0, totalBytes = 0;
    getOperation().walk([&](CostOpInterface op) {
      int64_t flops = op.getFlops(), bytes = op.getBytesAccessed();
      totalFlops += flops;
      totalBytes += bytes;
      InFlightDiagnostic remark = op->emitRemark()
                                  << op->getName() << ": " << flops
                                  << " flops, " << bytes << " bytes";
      if (auto policy = dyn_cast<Fp16PolicyOpInterface>(op.getOperation()))
        remark << ", fp16 " << stringifyFp16Policy(policy.getFp16Policy());
    });
    getOperation()->emitRemark() << "total: " << totalFlops << " flops, "
                                 << totalBytes << " bytes";
  }
};
} // namespace
