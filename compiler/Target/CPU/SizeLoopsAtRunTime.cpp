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
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
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

std::unique_ptr<Pass> dlc::createSizeLoopsAtRunTime() {
  return std::make_unique<SizeLoopsAtRunTimePass>();
}

std::unique_ptr<Pass> dlc::createUnlessSizedAtRunTime(OpPassManager inner) {
  return std::make_unique<UnlessSizedAtRunTimePass>(std::move(inner));
}
