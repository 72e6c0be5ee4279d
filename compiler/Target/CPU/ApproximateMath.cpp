//===- ApproximateMath.cpp - polynomial approximations of math ops --------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct ApproximateMathPass : dlc::impl::ApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    MathPolynomialApproximationOptions options;
    options.enableAvx2 = false;  // exact-enough rsqrt, not the 12-bit estimate
    populateMathPolynomialApproximationPatterns(patterns, options);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
