//===- SizeLoopsAtRunTime.cpp - loops of a kernel sized at run time -------===//
//
// A kernel that reads a symbolic dimension whole (passes/SymbolExtents.cpp:
// attention over a symbolic sequence) is outlined with that dimension at a
// sentinel size, a prime above every other dim of its values
// (compiler/Pipeline/GenerateCode.cpp), and lowered without the tiling and
// vectorising passes (UnlessSizedAtRunTime), to loops. Here every scf.for
// running to the sentinel runs to the run's size instead, which the kernel's
// last argument holds; its buffers have the bound's strides, so the loops
// touch the leading part of each. LLVM vectorises the innermost loops with
// run-time trip counts. A loop running to a multiple of the sentinel merged
// the symbol's extent with another dim: refused, since it would run over
// the whole bound.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace {

struct SizeLoopsAtRunTimePass
    : PassWrapper<SizeLoopsAtRunTimePass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SizeLoopsAtRunTimePass)
  StringRef getArgument() const override { return "dlc-size-loops-at-run-time"; }
  StringRef getDescription() const override {
    return "Loops of a kernel sized at run time run to the run's size";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto sentinelAttr = func->getAttrOfType<IntegerAttr>(dlc::attrs::kSizedAtRunTime);
    if (!sentinelAttr)
      return;
    int64_t sentinel = sentinelAttr.getInt();
    Value sizeArg = func.getArguments().back();
    if (!isa<MemRefType>(sizeArg.getType()) ||
        cast<MemRefType>(sizeArg.getType()).getRank() != 0) {
      func.emitError() << "dlc-size-loops-at-run-time: @" << func.getName()
                       << " has no last argument holding the run's size";
      return signalPassFailure();
    }
    OpBuilder b(func.getBody());
    Location loc = func.getLoc();
    Value size = b.create<arith::IndexCastOp>(loc, b.getIndexType(),
                                              b.create<memref::LoadOp>(loc, sizeArg));
    WalkResult walk = func.walk([&](scf::ForOp loop) {
      std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
      if (!upper || *upper % sentinel != 0)
        return WalkResult::advance();
      if (*upper != sentinel) {
        loop.emitError() << "dlc-size-loops-at-run-time: in @" << func.getName()
                         << ", a loop runs to " << *upper
                         << ", the symbol's extent merged with another dim: a kernel sized at "
                            "run time must keep it a dim of its own";
        return WalkResult::interrupt();
      }
      if (std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
          !lower || *lower != 0) {
        loop.emitError() << "dlc-size-loops-at-run-time: a loop over the symbol's extent in @"
                         << func.getName() << " does not start at 0";
        return WalkResult::interrupt();
      }
      loop.getUpperBoundMutable().assign(size);
      loop->setAttr(dlc::kRunTimeLoopAttr, UnitAttr::get(&getContext()));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

/// In a kernel sized at run time, each reduction whose innermost loop reads
/// an input across its rows (a matmul's B) becomes a generic whose innermost
/// loop is the output's last dim, with the reductions just outside it
/// (a row reduction, a softmax's maximum, stays): as loops, the inner
/// loop then reads and writes contiguous rows (LLVM vectorises it at any
/// trip count) instead of reducing along a strided operand one scalar at a
/// time (the attention's P x V: 300 us before, at 64 tokens).
struct OrderSizedLoopsPass : PassWrapper<OrderSizedLoopsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OrderSizedLoopsPass)
  StringRef getArgument() const override { return "dlc-order-sized-loops"; }
  StringRef getDescription() const override {
    return "Reductions of a kernel sized at run time loop outside its rows";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect, memref::MemRefDialect,
                    scf::SCFDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(dlc::attrs::kSizedAtRunTime))
      return;
    int64_t sentinel = func->getAttrOfType<IntegerAttr>(dlc::attrs::kSizedAtRunTime).getInt();
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (op.getNumDpsInits() == 1 && op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      if (op.getNumReductionLoops() > 0)
        op = interchangeReductionsOut(rewriter, op);
      vectorizeStaticRows(rewriter, op, sentinel);
    }
  }

  /// The reductions just outside the output's last dim.
  static linalg::LinalgOp interchangeReductionsOut(IRRewriter &rewriter, linalg::LinalgOp op) {
    FailureOr<linalg::GenericOp> generic =
        isa<linalg::GenericOp>(op) ? cast<linalg::GenericOp>(op.getOperation())
                                   : linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return op;
    AffineMap out = generic->getMatchingIndexingMap(generic->getDpsInitOperand(0));
    if (!out.getNumResults() || !isa<AffineDimExpr>(out.getResults().back()))
      return *generic;
    unsigned inner = cast<AffineDimExpr>(out.getResults().back()).getPosition();
    SmallVector<utils::IteratorType> iterators = generic->getIteratorTypesArray();
    // A reduction along every input's rows (a softmax's maximum) is left
    // as it is: its innermost loop already reads them contiguously.
    unsigned last = iterators.size() - 1;
    bool strided = false;
    for (OpOperand *input : generic->getDpsInputOperands()) {
      AffineMap map = generic->getMatchingIndexingMap(input);
      bool uses = llvm::any_of(map.getResults(),
                               [&](AffineExpr e) { return e.isFunctionOfDim(last); });
      strided |= uses && !(isa<AffineDimExpr>(map.getResults().back()) &&
                           cast<AffineDimExpr>(map.getResults().back()).getPosition() == last);
    }
    if (!strided)
      return *generic;
    SmallVector<unsigned> parallel, reductions;
    for (unsigned d = 0; d < iterators.size(); ++d) {
      if (d == inner)
        continue;
      (iterators[d] == utils::IteratorType::reduction ? reductions : parallel).push_back(d);
    }
    SmallVector<unsigned> order(parallel);
    order.append(reductions);
    order.push_back(inner);
    if (llvm::equal(order, llvm::seq<unsigned>(0, iterators.size())))
      return *generic;
    FailureOr<linalg::GenericOp> swapped =
        linalg::interchangeGenericOp(rewriter, *generic, order);
    return succeeded(swapped) ? linalg::LinalgOp(*swapped) : linalg::LinalgOp(*generic);
  }

  /// An innermost dim of static size (not the symbol's: a head's 32
  /// features) becomes vector code: every other dim a loop of one, the row
  /// vectorised whole. An innermost dim of the symbol's extent is left to
  /// LLVM's loop vectoriser (a contiguous row of run-time length).
  static void vectorizeStaticRows(IRRewriter &rewriter, linalg::LinalgOp op, int64_t sentinel) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ranges.empty() || ShapedType::isDynamic(ranges.back()) || ranges.back() == sentinel ||
        ranges.back() < 4 || ranges.back() > 256)
      return;
    SmallVector<int64_t> tiles(ranges.size(), 1);
    tiles.back() = 0;
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), tiles));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return;
    rewriter.eraseOp(op);
    (void)linalg::vectorize(rewriter, tiled->tiledOps.back());
  }
};

/// Runs `inner` on a function unless it is sized at run time.
struct UnlessSizedAtRunTimePass
    : PassWrapper<UnlessSizedAtRunTimePass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UnlessSizedAtRunTimePass)
  explicit UnlessSizedAtRunTimePass(OpPassManager inner) : inner(std::move(inner)) {}
  UnlessSizedAtRunTimePass(const UnlessSizedAtRunTimePass &other)
      : PassWrapper(other), inner(other.inner) {}
  StringRef getArgument() const override { return "dlc-unless-sized-at-run-time"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    inner.getDependentDialects(registry);
  }
  void runOnOperation() override {
    if (getOperation()->hasAttr(dlc::attrs::kSizedAtRunTime))
      return;
    if (failed(runPipeline(inner, getOperation())))
      signalPassFailure();
  }
  OpPassManager inner;
};

} // namespace

void dlc::registerSizedKernelPasses() {
  PassRegistration<OrderSizedLoopsPass>();
  PassRegistration<SizeLoopsAtRunTimePass>();
}

std::unique_ptr<Pass> dlc::createSizeLoopsAtRunTime() {
  return std::make_unique<SizeLoopsAtRunTimePass>();
}

std::unique_ptr<Pass> dlc::createOrderSizedLoops() {
  return std::make_unique<OrderSizedLoopsPass>();
}

std::unique_ptr<Pass> dlc::createUnlessSizedAtRunTime(OpPassManager inner) {
  return std::make_unique<UnlessSizedAtRunTimePass>(std::move(inner));
}
