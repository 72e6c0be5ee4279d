//===- LoopBody.cpp - building a dlc.loop's body while importing ----------===//

#include "compiler/Import/ONNX/LoopBody.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

LoopBody::LoopBody(GraphImporter &g, ValueRange carried, ValueRange scans)
    : g(g), carried(carried), scans(scans), block(new Block()) {
  block->addArgument(RankedTensorType::get({1}, g.builder.getI64Type()), g.loc);
  for (Value v : carried)
    block->addArgument(v.getType(), g.loc);
  for (Value v : scans)
    block->addArgument(LoopOp::rowType(cast<RankedTensorType>(v.getType())), g.loc);
  outer = g.builder.saveInsertionPoint();
  ownsOuterInsertion = !g.outerInsertion.isSet();
  if (ownsOuterInsertion)
    g.outerInsertion = outer;
  g.builder.setInsertionPointToEnd(block);
}

LoopBody::~LoopBody() {
  if (block) { // never finished (an error while importing the body)
    g.builder.restoreInsertionPoint(outer);
    block->dropAllDefinedValueUses();
    delete block;
  }
  if (ownsOuterInsertion)
    g.outerInsertion = OpBuilder::InsertPoint();
}

Value LoopBody::position() { return block->getArgument(0); }
Value LoopBody::carriedArg(size_t i) { return block->getArgument(1 + i); }
Value LoopBody::scanArg(size_t i) { return block->getArgument(1 + carried.size() + i); }

void LoopBody::isolate(SmallVectorImpl<Value> &invariants) {
  llvm::SetVector<Value> captured;
  for (Operation &op : *block)
    for (Value v : op.getOperands())
      if (v.getParentBlock() != block)
        captured.insert(v);
  OpBuilder front(g.builder.getContext()); // the block has no region yet
  front.setInsertionPointToStart(block);
  for (Value v : captured) {
    auto inBody = [&](OpOperand &use) { return use.getOwner()->getBlock() == block; };
    // Constants are cloned in, weights too: the CPU backend lays out a
    // constant weight at compile time, but would transpose a `linear`'s
    // weight known only at run time on every iteration (an LSTM's R: 17x
    // slower than ONNX Runtime). One left without uses goes.
    if (auto constant = v.getDefiningOp<ConstantOp>()) {
      v.replaceUsesWithIf(front.clone(*constant)->getResult(0), inBody);
      if (constant->use_empty())
        constant->erase();
      continue;
    }
    invariants.push_back(v);
    v.replaceUsesWithIf(block->addArgument(v.getType(), v.getLoc()), inBody);
  }
}

SmallVector<Value> LoopBody::finish(ValueRange yielded, std::optional<int64_t> trips, Value count,
                                    bool reverse) {
  g.builder.create<YieldOp>(g.loc, yielded);
  SmallVector<Value> invariants;
  isolate(invariants);
  g.builder.restoreInsertionPoint(outer);
  SmallVector<Type> resultTypes;
  for (auto [i, v] : llvm::enumerate(yielded)) {
    auto type = cast<RankedTensorType>(v.getType());
    resultTypes.push_back(i < carried.size() ? type : LoopOp::stackedType(type, trips.value_or(1)));
  }
  auto loop = g.builder.create<LoopOp>(
      g.loc, resultTypes, count, carried, scans, invariants,
      trips ? g.builder.getI64IntegerAttr(*trips) : IntegerAttr(),
      reverse ? g.builder.getUnitAttr() : UnitAttr(), DeviceAttr());
  loop.getBody().push_back(block);
  block = nullptr;
  return SmallVector<Value>(loop.getResults());
}
