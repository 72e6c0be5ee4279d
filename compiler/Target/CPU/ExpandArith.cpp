//===- ExpandArith.cpp - arith ops LLVM lowering cannot take, expanded ----===//
//
// What upstream's arith-expand-ops does for the CPU path (ceil/floor integer
// division, bf16 extension and truncation), except that maximumf / minimumf
// stay ops: they become llvm.maximum / llvm.minimum, which LLVM's loop
// vectoriser turns into 16-wide reductions (a softmax's row max). Expanded to
// compare + NaN check + select they stayed a serial scalar chain.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_EXPANDARITH
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct ExpandArithPass : dlc::impl::ExpandArithBase<ExpandArithPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
