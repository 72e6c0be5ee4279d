//===- PadPerChunk.cpp - each parallel chunk pads only its own channels ---===//
//
// A depthwise convolution or a pooling window reads its input through a
// tensor.pad of the whole NCHW tensor (LowerContractions, LowerPoolingNorm),
// which bufferizes to one padded copy: a fill and a copy of the whole
// tensor, through L3 for MobileNet's early layers (144x56x56 depthwise: 80 of
// its 188 us). Once ParallelizeLoopNests has split the nest into chunks of
// channels, each chunk reads only its own channels' planes, so this pads
// those planes inside the chunk instead (a buffer that stays in L1/L2):
//
//   %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]           (whole tensor)
//   scf.for %c {dlc.parallel}
//     %t = tensor.extract_slice %p[0, %c, i, j] [1, 1, OH, OW] [1, 1, s, s]
//     linalg.generic ins(%t, ...)
// becomes
//   scf.for %c {dlc.parallel}
//     %q = the borders of an empty [1, 1, H+2, W+2] filled, and
//          tensor.extract_slice %x[0, %c, 0, 0] [1, 1, H, W] inserted inside
//     %t = tensor.extract_slice %q[0, 0, i, j] [1, 1, OH, OW] [1, 1, s, s]
//     linalg.generic ins(%t, ...)
//
// Only for rank-4 pads of the spatial dims (2, 3) with a constant padding
// value, read by a linalg.generic inside a loop through slices that take
// whole planes (at least half of each padded spatial extent); the taps of
// one chunk share one padded copy.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_PADPERCHUNK
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// `slice` reads whole padded planes of a spatial-only pad made outside its loop.
tensor::PadOp planePad(tensor::ExtractSliceOp slice) {
  tensor::PadOp pad = dlc::spatialConstantPad(slice.getSource());
  if (!pad)
    return nullptr;
  // Made outside the loop the slice is in (else there is nothing to save).
  auto loop = slice->getParentOfType<scf::ForOp>();
  if (!loop || loop->isAncestor(pad))
    return nullptr;
  ArrayRef<int64_t> sizes = slice.getStaticSizes(), strides = slice.getStaticStrides();
  if (ShapedType::isDynamicShape(sizes) || ShapedType::isDynamicShape(strides) ||
      strides[0] != 1 || strides[1] != 1)
    return nullptr;
  for (int64_t d = 2; d < 4; ++d)
    if (sizes[d] * strides[d] * 2 < pad.getResultType().getDimSize(d))
      return nullptr;
  return pad;
}

struct PadPerChunkPass : dlc::impl::PadPerChunkBase<PadPerChunkPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Slices of slices (a chunk of a tap) become one slice of the pad.
    {
      RewritePatternSet patterns(ctx);
      tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
      if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> consumers;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op->getParentOfType<scf::ForOp>() && op.hasPureTensorSemantics())
        consumers.push_back(op);
    });
    IRRewriter rewriter(ctx);
    for (linalg::GenericOp op : consumers) {
      // One padded copy per (pad, first two offsets and sizes) per consumer.
      // (Offsets as opaque pointers: values, or attributes uniqued per value.)
      llvm::DenseMap<std::tuple<Operation *, void *, void *, int64_t, int64_t>, Value> local;
      for (OpOperand &operand : op->getOpOperands()) {
        auto slice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
        tensor::PadOp pad = slice ? planePad(slice) : nullptr;
        if (!pad)
          continue;
        SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
        ArrayRef<int64_t> sizes = slice.getStaticSizes();
        auto key = std::make_tuple(pad.getOperation(), offsets[0].getOpaqueValue(),
                                   offsets[1].getOpaqueValue(), sizes[0], sizes[1]);
        Value &padded = local[key];
        Location loc = pad.getLoc();
        if (!padded) {
          rewriter.setInsertionPoint(op);
          auto sourceType = cast<RankedTensorType>(pad.getSource().getType());
          SmallVector<OpFoldResult> planeOffsets = {offsets[0], offsets[1],
                                                    rewriter.getIndexAttr(0),
                                                    rewriter.getIndexAttr(0)};
          SmallVector<OpFoldResult> planeSizes = {
              rewriter.getIndexAttr(sizes[0]), rewriter.getIndexAttr(sizes[1]),
              rewriter.getIndexAttr(sourceType.getDimSize(2)),
              rewriter.getIndexAttr(sourceType.getDimSize(3))};
          Value planes = rewriter.create<tensor::ExtractSliceOp>(
              loc, pad.getSource(), planeOffsets, planeSizes,
              SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
          ArrayRef<int64_t> full = pad.getResultType().getShape();
          auto paddedType = RankedTensorType::get({sizes[0], sizes[1], full[2], full[3]},
                                                  pad.getResultType().getElementType());
          padded = dlc::padByBorderFills(rewriter, loc, planes, paddedType, pad.getStaticLow(),
                                    pad.getStaticHigh(), pad.getConstantPaddingValue());
        }
        SmallVector<OpFoldResult> newOffsets = {rewriter.getIndexAttr(0),
                                                rewriter.getIndexAttr(0), offsets[2], offsets[3]};
        rewriter.setInsertionPoint(op);
        Value view = rewriter.create<tensor::ExtractSliceOp>(
            slice.getLoc(), slice.getType(), padded, newOffsets, slice.getMixedSizes(),
            slice.getMixedStrides());
        rewriter.modifyOpInPlace(op, [&] { operand.set(view); });
      }
    }
    // The whole-tensor pads and their slices are dead now.
    RewritePatternSet patterns(ctx);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
