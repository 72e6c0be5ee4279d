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
//===----------------------------------------------------------------------===//

#include "compiler/Lowering/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_REUSEPRODUCERBUFFER
#include "compiler/Lowering/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct WriteOverProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
        op.getNumLoops() != op.getNumParallelLoops())
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    if (op.payloadUsesValueFromOperand(init) ||
        !init->get().getDefiningOp<tensor::EmptyOp>() ||
        !op.getMatchingIndexingMap(init).isIdentity())
      return failure();
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
      rewriter.inlineRegionBefore(op.getRegion(), rebuilt.getRegion(),
                                  rebuilt.getRegion().begin());
      Block &body = rebuilt.getRegion().front();
      BlockArgument outArg = body.getArgument(body.getNumArguments() - 1);
      rewriter.replaceAllUsesWith(body.getArgument(index), outArg);
      body.eraseArgument(index);
      rewriter.replaceOp(op, rebuilt.getResults());
      return success();
    }
    return failure();
  }
};

struct ReuseProducerBufferPass
    : dlc::impl::ReuseProducerBufferBase<ReuseProducerBufferPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WriteOverProducer>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
