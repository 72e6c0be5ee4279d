//===- CollapseShortRows.cpp - NCHW nests with short rows, flattened ------===//
//
// LLVM vectorises an elementwise nest along its innermost loop; over NCHW
// activations that is a row of W floats, and at the 14x14 and 7x7 sizes of a
// CNN's last stages most of each row fell to the scalar remainder (14 = 8 +
// 6 scalar). When every operand reads the two innermost dims in order (a
// bias broadcast along channels does), they are one dim:
//
//   linalg.generic (n, c, h, w) ins(%x : 1x576x14x14, %b : 576) ...
// becomes
//   linalg.generic (n, c, hw) ins(collapse(%x) : 1x576x196, %b : 576) ...
//
// and the 196-long loop vectorises whole. Only nests whose operands are whole
// tensors are collapsed: a strided view (a convolution tap) would need a copy.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dlc {
#define GEN_PASS_DEF_COLLAPSESHORTROWS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

constexpr int64_t kShortRow = 32;

struct CollapseShortRowsPass : dlc::impl::CollapseShortRowsBase<CollapseShortRowsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> nests;
    for (Operation &op : getOperation().getBody().front())
      if (auto generic = dyn_cast<linalg::GenericOp>(op))
        nests.push_back(generic);
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp nest : nests) {
      if (!nest.hasPureTensorSemantics() || nest.getNumLoops() < 3 ||
          nest.getNumLoops() != nest.getNumParallelLoops())
        continue;
      SmallVector<int64_t> ranges = nest.getStaticLoopRanges();
      int64_t rank = ranges.size();
      if (llvm::any_of(ranges, ShapedType::isDynamic) || ranges[rank - 1] >= kShortRow ||
          ranges[rank - 1] == 1)
        continue;
      if (llvm::any_of(nest->getOperands(), [](Value v) {
            return v.getDefiningOp<tensor::ExtractSliceOp>() != nullptr;
          }))
        continue;
      // Projected permutations only: a broadcast written as a constant 0
      // (a [N, C, 1, 1] mean) does not collapse with the dims around it.
      SmallVector<AffineMap> maps = nest.getIndexingMapsArray();
      SmallVector<ReassociationIndices> fold = {{rank - 2, rank - 1}};
      if (!llvm::all_of(maps, [](AffineMap m) { return m.isProjectedPermutation(); }) ||
          !linalg::areDimSequencesPreserved(maps, fold))
        continue;
      rewriter.setInsertionPoint(nest);
      FailureOr<linalg::CollapseResult> collapsed = linalg::collapseOpIterationDims(
          cast<linalg::LinalgOp>(nest.getOperation()), fold, rewriter);
      if (succeeded(collapsed))
        rewriter.replaceOp(nest, collapsed->results);
    }
  }
};

} // namespace
