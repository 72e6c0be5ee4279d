//===- VectorizeRows.cpp - elementwise nests as one vector per row ---------===//
//
// LLVM vectorises an elementwise loop nest along its innermost loop, unless
// that loop is short: then it unrolls the row fully (7, 14, 28, 49 floats)
// and vectorises the loop around it, across channels, with gathers and
// scatters (a bias add on 512x7x7 did). So nests with rows under 64
// elements are vectorised here instead, one row at a time:
//
//   linalg.generic (n, c, w) ins(%x : 1x512x49, %b : 512) outs(%y)
// becomes
//   scf.for %n, scf.for %c
//     vector.transfer_read %x[%n, %c, 0] : vector<49xf32> ... arith ...
//     vector.transfer_write ... %y[%n, %c, 0]
//
// which lowers to whole-vector loads and stores along the row (49 = three
// 16-float vectors and a masked one). Only all-parallel generics with static
// shapes and projected-permutation maps whose operands are at least bytes
// (i1 vectors are bit-packed in memory), with unit-stride rows, and whose
// bodies do not index other tensors.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace dlc {
#define GEN_PASS_DEF_VECTORIZEROWS
#include "compiler/Lowering/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

constexpr int64_t kMaxRow = 64;

bool vectorizable(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() < 2 || op.hasDynamicShape())
    return false;
  if (!llvm::all_of(op.getIteratorTypesArray(),
                    [](utils::IteratorType t) { return t == utils::IteratorType::parallel; }))
    return false;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return false;
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return false;
    // A strided row (a stride-2 window tap) would be read element by element;
    // LLVM's interleaved loads do that better.
    if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
        slice && slice.getStaticStrides().back() != 1)
      return false;
  }
  // The outputs are written row by row along their last dim.
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).isIdentity())
      return false;
  bool foreignReads = false;
  op.getBody()->walk([&](Operation *inner) {
    if (isa<tensor::ExtractOp, linalg::IndexOp>(inner))
      foreignReads = true;
  });
  if (foreignReads)
    return false;
  int64_t row = op.getStaticLoopRanges().back();
  return row >= 4 && row < kMaxRow;
}

struct VectorizeRowsPass : dlc::impl::VectorizeRowsBase<VectorizeRowsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> nests;
    getOperation().walk([&](linalg::GenericOp op) {
      if (vectorizable(op))
        nests.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : nests) {
      SmallVector<int64_t> tiles(op.getNumLoops(), 1);
      tiles.back() = 0; // the row stays whole
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), tiles));
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      (void)linalg::vectorize(rewriter, tiled->tiledOps.back());
    }
  }
};

} // namespace
