//===- LowerDlcToLinalg.cpp - dlc ops to linalg on tensors ----------------===//
//
// The pass: dialect conversion with every dlc op illegal, using the patterns
// of populateDlcToLinalgPatterns.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_LOWERDLCTOLINALG
#include "compiler/Lowering/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

void dlc::populateDlcToLinalgPatterns(RewritePatternSet &patterns) {
  // Filled in op family by op family.
  (void)patterns;
}

namespace {
struct LowerDlcToLinalgPass
    : dlc::impl::LowerDlcToLinalgBase<LowerDlcToLinalgPass> {
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<DlcDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect>();
    RewritePatternSet patterns(&getContext());
    populateDlcToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
