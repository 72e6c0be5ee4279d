//===- ConvertScfToCf.cpp - SCF to CF, keeping dlc.kept_loop as LLVM hints ===//
//
// Upstream's convert-scf-to-cf, except that an scf.for marked dlc.kept_loop
// (LowerStridedFills) gets `llvm.loop` metadata on its back edge telling
// LLVM to neither unroll nor vectorise it: loops whose bodies are a store or
// two and whose unrolled, vectorised form costs more compile time and code
// than it saves. One marked dlc.run_time_loop (SizeLoopsAtRunTime) is not
// unrolled or interleaved; one marked dlc.unroll_count (UnrollTileLoops) is
// unrolled that many times. (MLIR 19's own lowering drops a for's
// attributes.)
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace dlc {
#define GEN_PASS_DEF_CONVERTSCFTOCF
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// `llvm.loop` metadata with only these hints (null: not set).
LLVM::LoopAnnotationAttr annotation(MLIRContext *ctx, LLVM::LoopVectorizeAttr vectorize,
                                    LLVM::LoopInterleaveAttr interleave,
                                    LLVM::LoopUnrollAttr unroll) {
  return LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, vectorize, interleave, unroll, /*unrollAndJam=*/{},
      /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{},
      /*mustProgress=*/{}, /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
}

LLVM::LoopUnrollAttr unrollDisabled(MLIRContext *ctx) {
  return LLVM::LoopUnrollAttr::get(ctx, /*disable=*/BoolAttr::get(ctx, true), {}, {}, {}, {}, {},
                                   {});
}
} // namespace

LLVM::LoopAnnotationAttr dlc::keptLoopAnnotation(MLIRContext *ctx) {
  auto vectorize =
      LLVM::LoopVectorizeAttr::get(ctx, /*disable=*/BoolAttr::get(ctx, true), {}, {}, {}, {}, {}, {});
  return annotation(ctx, vectorize, {}, unrollDisabled(ctx));
}

LLVM::LoopAnnotationAttr dlc::runTimeLoopAnnotation(MLIRContext *ctx) {
  auto interleave = LLVM::LoopInterleaveAttr::get(ctx, IntegerAttr::get(IntegerType::get(ctx, 32), 1));
  return annotation(ctx, {}, interleave, unrollDisabled(ctx));
}

LLVM::LoopAnnotationAttr dlc::unrollCountAnnotation(MLIRContext *ctx, int64_t count) {
  auto unroll = LLVM::LoopUnrollAttr::get(ctx, /*disable=*/{},
                                          IntegerAttr::get(IntegerType::get(ctx, 32), count), {},
                                          {}, {}, {}, {});
  return annotation(ctx, {}, {}, unroll);
}

namespace {

/// The `llvm.loop` metadata `loop` asks for (null: none).
LLVM::LoopAnnotationAttr annotationOf(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  if (loop->hasAttr(dlc::kKeptLoopAttr))
    return dlc::keptLoopAnnotation(ctx);
  if (loop->hasAttr(dlc::kRunTimeLoopAttr))
    return dlc::runTimeLoopAnnotation(ctx);
  if (auto count = loop->getAttrOfType<IntegerAttr>(dlc::kUnrollCountAttr))
    return dlc::unrollCountAnnotation(ctx, count.getInt());
  return nullptr;
}

/// Upstream's ForLowering (header block with the bound check, body, back
/// edge), for kept loops, with the annotation on the back edge.
struct KeptForLowering : OpRewritePattern<scf::ForOp> {
  KeptForLowering(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(scf::ForOp loop, PatternRewriter &rewriter) const override {
    LLVM::LoopAnnotationAttr annotation = annotationOf(loop);
    if (!annotation)
      return failure();
    Location loc = loop.getLoc();
    Block *init = rewriter.getInsertionBlock();
    Block *end = rewriter.splitBlock(init, rewriter.getInsertionPoint());
    Block *header = &loop.getRegion().front();
    Block *firstBody = rewriter.splitBlock(header, header->begin());
    Block *lastBody = &loop.getRegion().back();
    rewriter.inlineRegionBefore(loop.getRegion(), end);
    Value iv = header->getArgument(0);

    Operation *yield = lastBody->getTerminator();
    rewriter.setInsertionPointToEnd(lastBody);
    SmallVector<Value> carried = {rewriter.create<arith::AddIOp>(loc, iv, loop.getStep())};
    carried.append(yield->operand_begin(), yield->operand_end());
    auto backEdge = rewriter.create<cf::BranchOp>(loc, header, carried);
    backEdge->setAttr("loop_annotation", annotation);
    rewriter.eraseOp(yield);

    rewriter.setInsertionPointToEnd(init);
    SmallVector<Value> entry = {loop.getLowerBound()};
    llvm::append_range(entry, loop.getInitArgs());
    rewriter.create<cf::BranchOp>(loc, header, entry);

    rewriter.setInsertionPointToEnd(header);
    Value more = rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, iv,
                                                loop.getUpperBound());
    rewriter.create<cf::CondBranchOp>(loc, more, firstBody, ValueRange{}, end, ValueRange{});
    rewriter.replaceOp(loop, header->getArguments().drop_front());
    return success();
  }
};

struct ConvertScfToCf : dlc::impl::ConvertScfToCfBase<ConvertScfToCf> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<KeptForLowering>(&getContext());
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(getContext());
    target.addIllegalOp<scf::ForallOp, scf::ForOp, scf::IfOp, scf::IndexSwitchOp,
                        scf::ParallelOp, scf::WhileOp, scf::ExecuteRegionOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
