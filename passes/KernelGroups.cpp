//===- KernelGroups.cpp - forming and taking apart dlc.kernel ops ---------===//
//
// dlc-partition-kernels decides which ops run as one launch and wraps each
// such run in a dlc.kernel (dialects/dlc/DlcOps.td); dlc-split-cuda-kernels
// takes apart a kernel the CUDA backend cannot emit and wraps its pieces;
// dlc-schedule wraps an op left outside any kernel on its own. A kernel's
// body reads values from above, so forming one moves ops and nothing else.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

// The run ends at its last op; only constants lie between its ops (they read
// nothing), so every value the run reads is defined before the kernel.
dlc::KernelOp dlc::wrapInKernel(ArrayRef<Operation *> ops) {
  SmallVector<Value> inputs, outputs;
  kernelInterface(ops, inputs, outputs);
  Operation *last = ops.back();
  OpBuilder builder(last->getContext());
  builder.setInsertionPointAfter(last);
  SmallVector<Type> types;
  for (Value v : outputs)
    types.push_back(v.getType());
  // Its location: all of its ops' (an error about the kernel names them).
  SmallVector<Location> locations;
  for (Operation *op : ops)
    locations.push_back(op->getLoc());
  Location loc = builder.getFusedLoc(locations);
  auto kernel = builder.create<KernelOp>(loc, types, getDevicePin(ops.front()));
  Block *body = builder.createBlock(&kernel.getBody());
  for (Operation *op : ops)
    op->moveBefore(body, body->end());
  builder.setInsertionPointToEnd(body);
  builder.create<YieldOp>(loc, outputs);
  for (auto [inside, result] : llvm::zip(outputs, kernel.getResults()))
    inside.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !kernel->isAncestor(use.getOwner());
    });
  return kernel;
}

bool dlc::runsInKernel(Operation *op) {
  return isa<DlcDialect>(op->getDialect()) &&
         !isa<ConstantOp, ReshapeOp, CopyOp, KernelOp, YieldOp>(op);
}

SmallVector<Operation *> dlc::unwrapKernel(KernelOp kernel) {
  SmallVector<Operation *> ops;
  for (Operation &op : llvm::make_early_inc_range(kernel.getComputeOps())) {
    op.moveBefore(kernel);
    ops.push_back(&op);
  }
  kernel.replaceAllUsesWith(kernel.getYield().getValues());
  kernel.erase();
  return ops;
}

SmallVector<Operation *> dlc::computeOpsOf(KernelOp kernel) {
  SmallVector<Operation *> ops;
  for (Operation &op : kernel.getComputeOps())
    ops.push_back(&op);
  return ops;
}

SmallVector<Value> dlc::kernelInputs(KernelOp kernel) {
  SmallVector<Value> inputs, outputs;
  kernelInterface(computeOpsOf(kernel), inputs, outputs);
  return inputs;
}

SmallVector<Operation *> dlc::modelOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front()) {
    if (auto kernel = dyn_cast<KernelOp>(op))
      llvm::append_range(ops, computeOpsOf(kernel));
    else
      ops.push_back(&op);
  }
  return ops;
}
