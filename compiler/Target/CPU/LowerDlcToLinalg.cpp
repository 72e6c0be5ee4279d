//===- LowerDlcToLinalg.cpp - dlc ops to linalg on tensors ----------------===//
//
// The pass: dialect conversion with every dlc op illegal, using the patterns
// of populateDlcToLinalgPatterns, one set per op family:
//
//   LowerElementwise.cpp    constant copy cast, binary and unary elementwise
//   LowerContractions.cpp   matmul linear conv2d
//   LowerPoolingNorm.cpp    pooling, batch/layer norm, softmax, reductions
//   LowerDataMovement.cpp   transpose reshape concat slice split gather
//   LowerSelection.cpp      scatter_elements top_k (scf loops)
//   LowerLoops.cpp          dlc.loop to scf.for, first (not a pattern: its
//                           body's ops then convert where they landed)
//
// Unsigned element types (ui8 ... ui64) reach the patterns as they are, so
// that each picks its unsigned ops (divui, cmpi ult, uitofp, ...); arith,
// linalg and LLVM want signless integers, so the pass then rewrites every
// type and attribute in the function to its signless form.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"
#include "compiler/Target/CPU/LoweringUtils.h"

#include "mlir/IR/AttrTypeSubElements.h"

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
  populateSelectionPatterns(patterns);
}

namespace {
/// Every ui<N> in `root`'s types and attributes (block arguments, results,
/// function types, constants' values) becomes i<N>.
void eraseSignedness(Operation *root) {
  AttrTypeReplacer replacer;
  auto signless = [](Type t) -> std::optional<Type> {
    auto i = dyn_cast<IntegerType>(t);
    if (!i || !i.isUnsigned())
      return std::nullopt;
    return IntegerType::get(t.getContext(), i.getWidth());
  };
  replacer.addReplacement([&](IntegerType t) { return signless(t); });
  // Elements attributes keep their bytes; only the element type changes
  // (the replacer does not look inside them by itself).
  replacer.addReplacement([&](DenseIntOrFPElementsAttr a) -> std::optional<Attribute> {
    if (std::optional<Type> to = signless(a.getElementType()))
      return a.bitcast(*to);
    return std::nullopt;
  });
  replacer.addReplacement([&](DenseResourceElementsAttr a) -> std::optional<Attribute> {
    if (std::optional<Type> to = signless(a.getElementType()))
      return DenseResourceElementsAttr::get(a.getType().clone(*to), a.getRawHandle());
    return std::nullopt;
  });
  replacer.addReplacement([&](IntegerAttr a) -> std::optional<Attribute> {
    if (std::optional<Type> to = signless(a.getType()))
      return IntegerAttr::get(*to, a.getValue());
    return std::nullopt;
  });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

struct LowerDlcToLinalgPass
    : dlc::impl::LowerDlcToLinalgBase<LowerDlcToLinalgPass> {
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<DlcDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect, scf::SCFDialect>();
    lowerLoopsToScf(getOperation());
    RewritePatternSet patterns(&getContext());
    populateDlcToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      getOperation().emitError("dlc-lower-to-linalg: some dlc ops could not be lowered");
      return signalPassFailure();
    }
    eraseSignedness(getOperation());
  }
};
} // namespace
