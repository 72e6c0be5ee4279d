//===- LowerDlcToLinalg.cpp - dlc ops to linalg on tensors ----------------===//
//
// The pass: dialect conversion with every dlc op illegal, using the patterns
// of populateDlcToLinalgPatterns, one set per op family:
//
//   LowerElementwise.cpp    constant copy cast, binary and unary elementwise
//   LowerContractions.cpp   matmul linear conv2d
//   LowerPoolingNorm.cpp    pooling, batch/layer norm, softmax, reductions
//   LowerDataMovement.cpp   transpose reshape concat slice split gather
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"
#include "compiler/Target/CPU/LoweringUtils.h"

namespace dlc {
#define GEN_PASS_DEF_LOWERDLCTOLINALG
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

void dlc::populateDlcToLinalgPatterns(RewritePatternSet &patterns) {
  populateElementwisePatterns(patterns);
  populateContractionPatterns(patterns);
  populatePoolingNormPatterns(patterns);
  populateDataMovementPatterns(patterns);
}

namespace {
struct LowerDlcToLinalgPass
    : dlc::impl::LowerDlcToLinalgBase<LowerDlcToLinalgPass> {
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<DlcDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect, scf::SCFDialect>();
    RewritePatternSet patterns(&getContext());
    populateDlcToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      getOperation().emitError("dlc-lower-to-linalg: some dlc ops could not be lowered");
      return signalPassFailure();
    }
  }
};
} // namespace
