//===- GlobalizeTensorConstants.cpp - constants to globals, on one thread -===//
//
// One-shot bufferization makes a memref.global for each arith.constant
// tensor it meets, inserting it into the module. The CPU path bufferizes
// kernels in parallel (one function per thread), so the globals must exist
// before: two threads inserting into the module's op list at once lose one
// of them (CI, seed 99 of the random programs: "'memref.get_global' op
// '__constant_4xi64' does not reference a valid global memref"). Here each
// constant becomes `bufferization.to_tensor(memref.get_global)`, read-only,
// and bufferization has nothing left to add to the module.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace dlc {
#define GEN_PASS_DEF_GLOBALIZETENSORCONSTANTS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct GlobalizeTensorConstantsPass
    : dlc::impl::GlobalizeTensorConstantsBase<GlobalizeTensorConstantsPass> {
  using GlobalizeTensorConstantsBase::GlobalizeTensorConstantsBase;

  void runOnOperation() override {
    SmallVector<arith::ConstantOp> constants;
    getOperation().walk([&](arith::ConstantOp constant) {
      if (isa<RankedTensorType>(constant.getType()))
        constants.push_back(constant);
    });
    OpBuilder b(&getContext());
    for (arith::ConstantOp constant : constants) {
      FailureOr<memref::GlobalOp> global = bufferization::getGlobalFor(constant, alignment);
      if (failed(global)) {
        constant.emitOpError("has no memref.global to bufferize into");
        return signalPassFailure();
      }
      b.setInsertionPoint(constant);
      Value memref = b.create<memref::GetGlobalOp>(constant.getLoc(), global->getType(),
                                                   global->getSymName());
      Value tensor = b.create<bufferization::ToTensorOp>(constant.getLoc(), memref,
                                                         /*restrict=*/true, /*writable=*/false);
      constant.replaceAllUsesWith(tensor);
      constant.erase();
    }
  }
};

} // namespace
