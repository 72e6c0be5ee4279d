//===- InsertCopies.cpp - one dlc.copy per (value, destination device) ----===//
//
//   %h = dlc.relu %x {device = #dlc.device<cuda:0>}      // %x: an argument
//   %a = dlc.add %h, %h {device = #dlc.device<cuda:0>}
//   %b = dlc.exp %h {device = #dlc.device<cuda:1>}
//   %c = dlc.tanh %h {device = #dlc.device<cuda:1>}
// becomes
//   %x0 = dlc.copy %x to cuda:0
//   %h = dlc.relu %x0 {device = #dlc.device<cuda:0>}
//   %h1 = dlc.copy %h to cuda:1                            // shared by exp, tanh
//   ...
//
// A value lives where its defining op runs (a copy's result: on the copy's
// destination); arguments and results on the CPU.
//
//===----------------------------------------------------------------------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace dlc {
#define GEN_PASS_DEF_INSERTCOPIES
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct InsertCopiesPass : dlc::impl::InsertCopiesBase<InsertCopiesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    MLIRContext *ctx = &getContext();
    DeviceAttr cpu = DeviceAttr::getCpu(ctx);
    Block &block = func.getBody().front();

    auto deviceOf = [&](Value value) -> DeviceAttr {
      Operation *def = value.getDefiningOp();
      return def ? getDevicePin(def) : cpu;
    };
    // Every op must be placed: a value's device is its producer's.
    for (auto [index, op] : llvm::enumerate(block.without_terminator()))
      if (!getDevicePin(&op)) {
        op.emitError() << "op '" << dlc::opName(&op, index)
                       << "' has no device: run dlc-place first";
        return signalPassFailure();
      }

    llvm::DenseMap<std::pair<Value, Attribute>, Value> copies;
    // Existing copies count: a value already moved to a device is reused.
    for (CopyOp copy : block.getOps<CopyOp>())
      copies.try_emplace({copy.getInput(), copy.getDeviceAttr()}, copy.getResult());

    auto placeAfterValue = [&](OpBuilder &builder, Value value) {
      if (Operation *def = value.getDefiningOp())
        builder.setInsertionPointAfter(def);
      else
        builder.setInsertionPointToStart(&block);
    };
    auto copyTo = [&](Value value, DeviceAttr device, Operation *user) {
      auto key = std::make_pair(value, Attribute(device));
      if (Value existing = copies.lookup(key)) {
        // A copy the model wrote further down moves up to its value, so that
        // it dominates this earlier reader too.
        Operation *copy = existing.getDefiningOp();
        if (!copy->isBeforeInBlock(user)) {
          OpBuilder builder(ctx);
          placeAfterValue(builder, value);
          copy->moveBefore(builder.getInsertionBlock(), builder.getInsertionPoint());
        }
        return existing;
      }
      OpBuilder builder(ctx);
      placeAfterValue(builder, value);
      Value copy = builder.create<CopyOp>(value.getLoc(), value.getType(), value, device);
      copies[key] = copy;
      return copy;
    };

    // Snapshot first: the walk inserts ops.
    llvm::SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    for (Operation *op : ops) {
      if (isa<CopyOp>(op))
        continue; // a copy reads its input wherever it lives
      DeviceAttr here = isa<func::ReturnOp>(op) ? cpu : getDevicePin(op);
      for (OpOperand &operand : op->getOpOperands()) {
        Value value = operand.get();
        if (deviceOf(value) != here)
          operand.set(copyTo(value, here, op));
      }
    }
  }
};

} // namespace
