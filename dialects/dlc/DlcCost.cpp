//===- DlcCost.cpp - FLOPs and bytes of the dlc ops (CostOpInterface) -----===//
//
// Counts for the placement cost model. A multiply-add counts as two
// operations, as in the FLOP/s figures of GPU data sheets.
//
//===----------------------------------------------------------------------===//

#include "dialects/dlc/DlcOps.h"

using namespace mlir;
using namespace dlc;

static int64_t numElements(Value value) {
  return cast<RankedTensorType>(value.getType()).getNumElements();
}

static int64_t byteSize(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 0;
  // i1 is stored as one byte.
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  return tensor.getNumElements() * std::max<int64_t>(1, bits / 8);
}

int64_t dlc::detail::elementwiseFlops(Operation *op, int64_t perElement) {
  int64_t total = 0;
  for (Value result : op->getResults())
    total += numElements(result) * perElement;
  return total;
}

int64_t dlc::detail::operandAndResultBytes(Operation *op) {
  int64_t total = 0;
  for (Type type : op->getOperandTypes())
    total += byteSize(type);
  for (Type type : op->getResultTypes())
    total += byteSize(type);
  return total;
}

int64_t MatmulOp::getFlops() {
  int64_t k = cast<RankedTensorType>(getLhs().getType()).getShape().back();
  return 2 * numElements(getResult()) * k;
}

int64_t LinearOp::getFlops() {
  int64_t k = cast<RankedTensorType>(getWeight().getType()).getShape()[1];
  int64_t biasAdds = getBias() ? numElements(getResult()) : 0;
  return 2 * numElements(getResult()) * k + biasAdds;
}

int64_t Conv2dOp::getFlops() {
  ArrayRef<int64_t> w = cast<RankedTensorType>(getFilter().getType()).getShape();
  int64_t macsPerOutput = w[1] * w[2] * w[3];
  int64_t biasAdds = getBias() ? numElements(getResult()) : 0;
  return 2 * numElements(getResult()) * macsPerOutput + biasAdds;
}

int64_t MaxPool2dOp::getFlops() {
  ArrayRef<int64_t> k = getKernelShape();
  return numElements(getResult()) * k[0] * k[1];
}

int64_t AvgPool2dOp::getFlops() {
  ArrayRef<int64_t> k = getKernelShape();
  return numElements(getResult()) * (k[0] * k[1] + 1);
}

int64_t GlobalAvgPoolOp::getFlops() { return numElements(getInput()); }

int64_t ReduceSumOp::getFlops() { return numElements(getInput()); }
int64_t ReduceMeanOp::getFlops() {
  return numElements(getInput()) + numElements(getResult());
}
int64_t ReduceMaxOp::getFlops() { return numElements(getInput()); }
int64_t ReduceProdOp::getFlops() { return numElements(getInput()); }
// A copy of the data and one combine per update.
int64_t ScatterElementsOp::getFlops() { return numElements(getData()) + numElements(getUpdates()); }
// A selection keeps the k best of each row: about k comparisons per element.
int64_t TopKOp::getFlops() { return numElements(getInput()) * std::max<int64_t>(1, getK()); }

/// The body's work times its iterations; a count known only at run time is
/// estimated as one iteration (the placement dump shows the op's estimate).
int64_t LoopOp::getFlops() {
  int64_t perIteration = 0;
  for (Operation &op : getBody().front().without_terminator())
    if (auto cost = dyn_cast<CostOpInterface>(op))
      perIteration += cost.getFlops();
  return perIteration * std::max<int64_t>(1, getStaticTrips().value_or(1));
}
