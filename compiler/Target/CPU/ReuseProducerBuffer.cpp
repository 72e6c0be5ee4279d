//===- ReuseProducerBuffer.cpp - elementwise epilogues update in place -----===//
//
// An elementwise op that consumes the only use of a result of the same type
// can write over it instead of into a new tensor:
//
//   %mm = linalg.matmul ins(%a, %b) outs(%acc)              // C
//   %y  = linalg.generic ins(%mm, %bias) outs(%empty) {...}  // C + bias, gelu
// becomes
//   %y  = linalg.generic ins(%bias) outs(%mm) {...}          // in place over C
//
// The destination chain then runs from the kernel's output buffer through
// the epilogue into the matmul, so bufferization writes the matmul straight
// into the output and allocates no temporary (which would page-fault on
// every call).
//
// A batched matmul is a loop nest over its batch dims with one 2-D matmul
// per iteration (LowerContractions.cpp), so its epilogue (attention's
// scaling) would read the whole result back after the loops. Instead the
// epilogue moves into the innermost loop, on that iteration's matrix, in
// place over its matmul (EpilogueIntoBatchLoops):
//
//   %r = scf.for ... { %t = linalg.matmul ...; insert_slice %t }
//   %y = linalg.generic ins(%r, %s) outs(%empty) {...}
// becomes
//   %y = scf.for ... { %t = linalg.matmul ...
//                      %e = linalg.generic ins(%s) outs(%t) {...}
//                      insert_slice %e }
//
// where TileAndVectorize then runs it on each tile's registers. Likewise a
// transpose that keeps the last dim of such a result (attention's heads
// merged back after P.V) becomes the loop nest, each matrix inserted in its
// transposed place (TransposeIntoBatchLoops).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_REUSEPRODUCERBUFFER
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// Whether `op` is elementwise and writes one fresh tensor: an empty init,
/// never read, indexed like the iteration space (what both patterns rewrite).
bool writesFreshTensor(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  return !op.payloadUsesValueFromOperand(init) &&
         init->get().getDefiningOp<tensor::EmptyOp>() &&
         op.getMatchingIndexingMap(init).isIdentity();
}

/// Moves `op`'s payload into `into`, whose inputs are `op`'s but the one at
/// `consumed` and whose init stands for it: that input's block argument
/// becomes the output's.
void movePayloadOverInit(RewriterBase &rewriter, linalg::GenericOp op,
                         linalg::GenericOp into, unsigned consumed) {
  rewriter.inlineRegionBefore(op.getRegion(), into.getRegion(), into.getRegion().begin());
  Block &body = into.getRegion().front();
  BlockArgument outArg = body.getArgument(body.getNumArguments() - 1);
  rewriter.replaceAllUsesWith(body.getArgument(consumed), outArg);
  body.eraseArgument(consumed);
}

struct WriteOverProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!writesFreshTensor(op))
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    Type resultType = op.getResult(0).getType();
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      if (value.getType() != resultType || !value.hasOneUse() ||
          !op.getMatchingIndexingMap(input).isIdentity() ||
          !value.getDefiningOp<DestinationStyleOpInterface>())
        continue;
      // Rebuild with `value` as the destination; its block argument becomes
      // the output's.
      unsigned index = input->getOperandNumber();
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand *other : op.getDpsInputOperands())
        if (other != input) {
          inputs.push_back(other->get());
          maps.push_back(op.getMatchingIndexingMap(other));
        }
      maps.push_back(op.getMatchingIndexingMap(init));
      auto rebuilt = rewriter.create<linalg::GenericOp>(
          op.getLoc(), TypeRange{resultType}, inputs, ValueRange{value}, maps,
          op.getIteratorTypesArray());
      movePayloadOverInit(rewriter, op, rebuilt, index);
      rewriter.replaceOp(op, rebuilt.getResults());
      return success();
    }
    return failure();
  }
};

/// The matmul inside the loop nest that builds `value` over its `rank - 2`
/// batch dims, one 2-D matmul per iteration inserted into the loops' single
/// iter_arg, with the nest's loops outermost first; or null.
linalg::MatmulOp batchLoopMatmul(Value value, int64_t rank,
                                 SmallVectorImpl<scf::ForOp> &loops) {
  Value current = value;
  while (auto loop = current.getDefiningOp<scf::ForOp>()) {
    if (loop.getNumResults() != 1 || (current != value && !current.hasOneUse()))
      return nullptr;
    loops.push_back(loop);
    current = loop.getBody()->getTerminator()->getOperand(0);
  }
  auto insert = current.getDefiningOp<tensor::InsertSliceOp>();
  if (loops.empty() || static_cast<int64_t>(loops.size()) != rank - 2 || !insert ||
      insert.getDest() != loops.back().getRegionIterArgs()[0] ||
      insert.getSourceType().getRank() != 2)
    return nullptr;
  auto matmul = insert.getSource().getDefiningOp<linalg::MatmulOp>();
  if (!matmul || !matmul->hasOneUse() || matmul->getBlock() != loops.back().getBody())
    return nullptr;
  // Each loop steps by one over its batch dim, from 0, and passes the iter_arg
  // down unchanged but for the inner loop's result.
  auto type = cast<RankedTensorType>(value.getType());
  for (auto [i, loop] : llvm::enumerate(loops)) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lb != 0 || step != 1 || ub != type.getDimSize(i))
      return nullptr;
  }
  for (size_t i = 0; i + 1 < loops.size(); ++i)
    if (loops[i + 1].getInitArgs()[0] != loops[i].getRegionIterArgs()[0])
      return nullptr;
  for (int64_t i = 0; i < rank - 2; ++i) {
    OpFoldResult offset = insert.getMixedOffsets()[i];
    if (!isa<Value>(offset) || cast<Value>(offset) != loops[i].getInductionVar())
      return nullptr;
  }
  return matmul;
}

struct EpilogueIntoBatchLoops : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!writesFreshTensor(op) || !type || type.getRank() < 3)
      return failure();
    bool lookups = false;
    op.getBody()->walk([&](Operation *inner) {
      lookups |= isa<tensor::ExtractOp, linalg::IndexOp>(inner);
    });
    if (lookups)
      return failure();
    int64_t rank = type.getRank(), batchRank = rank - 2;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      SmallVector<scf::ForOp> loops;
      if (value.getType() != type || !value.hasOneUse() ||
          !op.getMatchingIndexingMap(input).isIdentity())
        continue;
      linalg::MatmulOp matmul = batchLoopMatmul(value, rank, loops);
      if (!matmul)
        continue;
      // The other operands must exist before the loops and index by loop dims.
      DominanceInfo dominance(op->getParentOp());
      bool movable = llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *other) {
        if (other == input)
          return true;
        auto otherType = dyn_cast<RankedTensorType>(other->get().getType());
        return otherType && dominance.properlyDominates(other->get(), loops.front()) &&
               op.getMatchingIndexingMap(other).isProjectedPermutation();
      });
      if (!movable)
        continue;
      scf::ForOp inner = loops.back();
      auto insert = inner.getBody()->getTerminator()->getOperand(0)
                        .getDefiningOp<tensor::InsertSliceOp>();
      rewriter.setInsertionPoint(insert);
      Location loc = op.getLoc();
      MLIRContext *ctx = op.getContext();
      // Each other operand's slice at this iteration's batch position: batch
      // dims dropped, matrix dims whole; its map renumbered to (d0, d1).
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand *other : op.getDpsInputOperands()) {
        if (other == input)
          continue;
        AffineMap map = op.getMatchingIndexingMap(other);
        auto otherType = cast<RankedTensorType>(other->get().getType());
        SmallVector<OpFoldResult> offsets, sizes;
        SmallVector<int64_t> kept;
        SmallVector<AffineExpr> results;
        for (AffineExpr e : map.getResults()) {
          unsigned d = cast<AffineDimExpr>(e).getPosition();
          if (static_cast<int64_t>(d) < batchRank) {
            offsets.push_back(loops[d].getInductionVar());
            sizes.push_back(rewriter.getIndexAttr(1));
          } else {
            offsets.push_back(rewriter.getIndexAttr(0));
            sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
            kept.push_back(type.getDimSize(d));
            results.push_back(getAffineDimExpr(d - batchRank, ctx));
          }
        }
        Value slice = other->get();
        if (otherType.getRank() > 0)
          slice = rewriter.create<tensor::ExtractSliceOp>(
              loc, RankedTensorType::get(kept, otherType.getElementType()), slice,
              offsets, sizes,
              SmallVector<OpFoldResult>(otherType.getRank(), rewriter.getIndexAttr(1)));
        inputs.push_back(slice);
        maps.push_back(AffineMap::get(2, 0, results, ctx));
      }
      maps.push_back(AffineMap::getMultiDimIdentityMap(2, ctx));
      Value tile = matmul.getResult(0);
      auto moved = rewriter.create<linalg::GenericOp>(
          loc, TypeRange{tile.getType()}, inputs, ValueRange{tile}, maps,
          SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel));
      movePayloadOverInit(rewriter, op, moved, input->getOperandNumber());
      rewriter.modifyOpInPlace(insert, [&] {
        insert.getSourceMutable().assign(moved.getResult(0));
      });
      rewriter.replaceOp(op, value);
      return success();
    }
    return failure();
  }
};

/// A transpose that keeps the last dim of a batched matmul's result
/// (attention's [B, H, T, D] -> [B, T, H, D] after P.V; PartitionKernels puts
/// it in the matmul's kernel) becomes the loop nest itself, each matrix
/// inserted at its place in the transposed result: the tiles write the
/// output in its final layout and the transpose never runs.
struct TransposeIntoBatchLoops : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Value value = op.getInput();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    ArrayRef<int64_t> perm = op.getPermutation();
    SmallVector<scf::ForOp> loops;
    if (!type || type.getRank() < 3 || !value.hasOneUse() ||
        perm.back() != type.getRank() - 1 || !op.hasPureTensorSemantics())
      return failure();
    int64_t rank = type.getRank();
    if (!batchLoopMatmul(value, rank, loops))
      return failure();
    auto insert = loops.back().getBody()->getTerminator()->getOperand(0)
                      .getDefiningOp<tensor::InsertSliceOp>();
    BlockArgument oldAcc = loops.back().getRegionIterArgs()[0];
    Location loc = op.getLoc();
    // Where a matrix at batch position `ivs` sits in the transposed result.
    auto place = [&](ValueRange ivs, SmallVectorImpl<OpFoldResult> &offsets,
                     SmallVectorImpl<OpFoldResult> &sizes) {
      for (int64_t j = 0; j < rank; ++j) {
        int64_t d = perm[j];
        offsets.push_back(d < rank - 2 ? OpFoldResult(ivs[d]) : rewriter.getIndexAttr(0));
        sizes.push_back(rewriter.getIndexAttr(d < rank - 2 ? 1 : type.getDimSize(d)));
      }
    };
    SmallVector<Value> lbs, ubs, steps;
    for (scf::ForOp loop : loops) {
      lbs.push_back(loop.getLowerBound());
      ubs.push_back(loop.getUpperBound());
      steps.push_back(loop.getStep());
    }
    rewriter.setInsertionPoint(op);
    Value init = op.getInit();
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{init},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange args) -> scf::ValueVector {
          IRMapping map;
          for (auto [loop, iv] : llvm::zip(loops, ivs))
            map.map(loop.getInductionVar(), iv);
          SmallVector<OpFoldResult> offsets, sizes;
          place(ivs, offsets, sizes);
          SmallVector<OpFoldResult> unit(rank, b.getIndexAttr(1));
          auto matrixType = cast<RankedTensorType>(insert.getSourceType());
          for (Operation &inner : loops.back().getBody()->without_terminator()) {
            if (&inner == insert.getOperation())
              continue;
            auto slice = dyn_cast<tensor::ExtractSliceOp>(inner);
            if (slice && slice.getSource() == oldAcc) {
              map.map(slice.getResult(),
                      b.create<tensor::ExtractSliceOp>(l, matrixType, args[0], offsets, sizes, unit)
                          .getResult());
              continue;
            }
            b.clone(inner, map);
          }
          return {b.create<tensor::InsertSliceOp>(l, map.lookup(insert.getSource()), args[0],
                                                  offsets, sizes, unit)
                      .getResult()};
        });
    rewriter.replaceOp(op, nest.results.front());
    rewriter.eraseOp(loops.front());
    return success();
  }
};

struct ReuseProducerBufferPass
    : dlc::impl::ReuseProducerBufferBase<ReuseProducerBufferPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WriteOverProducer, EpilogueIntoBatchLoops, TransposeIntoBatchLoops>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
