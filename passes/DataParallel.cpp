//===- DataParallel.cpp - data-parallel:N: one replica per GPU ------------===//
//
// See DataParallel.h. A value is batched when it depends on an argument; its
// dim 0 is then the batch (of size B, the arguments' dim 0). Every op with a
// batched operand must keep the rows of the batch independent: its batched
// results have dim 0 = B and row b of them depends only on row b of its
// batched operands. The rules, per op:
//
//   elementwise (broadcasting,  batched operands of the result's rank; the
//   compare, select)            others of lower rank or dim 0 = 1
//   unary, gelu, clip, cast,    always
//   copy, batch_norm, conv2d,
//   pools, global_avg_pool
//   matmul                      batched operands of the result's rank (rank 2:
//                               only lhs, whose rows are the batch)
//   linear                      input of rank >= 2, weight and bias unbatched
//   softmax, layer_norm         axis != 0
//   reduce_*                    axes given, none of them 0
//   transpose                   perm[0] == 0
//   reshape                     dim 0 kept (= B)
//   concat, split, gather       axis != 0 (gather: indices unbatched)
//   slice                       the whole of dim 0, step 1
//
//===----------------------------------------------------------------------===//

#include "passes/DataParallel.h"
#include "passes/CostModel.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace dlc {
namespace {

int64_t normAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

int64_t rankOf(Value v) { return cast<RankedTensorType>(v.getType()).getRank(); }
int64_t dim0(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return type.getRank() ? type.getDimSize(0) : -1;
}

std::string whyOpMixesRows(Operation *op, const llvm::DenseSet<Value> &batched);

/// Why `op` cannot run on slices of the batch, or "" when it can.
std::string whyNotSplittable(Operation *op, const llvm::DenseSet<Value> &batched,
                             int64_t batch) {
  auto isBatched = [&](Value v) { return batched.contains(v); };
  for (Value operand : op->getOperands())
    if (isBatched(operand) && dim0(operand) != batch)
      return "an operand's dim 0 is not the batch";
  for (Value result : op->getResults())
    if (!isa<RankedTensorType>(result.getType()))
      return "its result is not a ranked tensor";
  std::string why = whyOpMixesRows(op, batched);
  if (!why.empty())
    return why;
  for (Value result : op->getResults())
    if (dim0(result) != batch)
      return "its result's dim 0 is not the batch (" + std::to_string(batch) + ")";
  return "";
}

/// The op-specific rules of the file comment.
std::string whyOpMixesRows(Operation *op, const llvm::DenseSet<Value> &batched) {
  auto isBatched = [&](Value v) { return batched.contains(v); };
  int64_t rank = rankOf(op->getResult(0));
  // Operands that are not batched must broadcast along dim 0.
  auto broadcastOk = [&](Value v) { return rankOf(v) < rank || dim0(v) == 1; };

  if (isElementwise(op)) {
    for (Value operand : op->getOperands())
      if (isBatched(operand) ? rankOf(operand) != rank : !broadcastOk(operand))
        return "it broadcasts along the batch dimension";
    return "";
  }
  if (isa<CopyOp>(op))
    return "";
  if (isa<Conv2dOp, MaxPool2dOp, AvgPool2dOp, GlobalAvgPoolOp, BatchNormOp>(op)) {
    for (Value operand : op->getOperands().drop_front())
      if (isBatched(operand))
        return "its parameters depend on the batch";
    return isBatched(op->getOperand(0)) ? "" : "its parameters depend on the batch";
  }
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      if (isBatched(operand)) {
        if (rankOf(operand) != rank || (rank == 2 && i == 1))
          return "it contracts or broadcasts the batch dimension";
      } else if (rank > 2 && !broadcastOk(operand)) {
        return "it broadcasts along the batch dimension";
      } else if (rank == 2 && i == 0) {
        return "it contracts the batch dimension";
      }
    }
    return "";
  }
  if (auto linear = dyn_cast<LinearOp>(op)) {
    if (!isBatched(linear.getInput()) || rankOf(linear.getInput()) < 2)
      return "it contracts the batch dimension";
    for (Value operand : op->getOperands().drop_front())
      if (isBatched(operand))
        return "its weights depend on the batch";
    return "";
  }
  if (auto softmax = dyn_cast<SoftmaxOp>(op))
    return normAxis(softmax.getAxis(), rank) == 0 ? "it normalises over axis 0, the batch"
                                                  : "";
  if (auto norm = dyn_cast<LayerNormOp>(op)) {
    if (normAxis(norm.getAxis(), rank) == 0)
      return "it normalises over axis 0, the batch";
    for (Value operand : op->getOperands().drop_front())
      if (isBatched(operand))
        return "its parameters depend on the batch";
    return "";
  }
  if (isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceProdOp>(op)) {
    ArrayRef<int64_t> axes = op->getAttrOfType<DenseI64ArrayAttr>("axes")
                                 ? op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef()
                                 : ArrayRef<int64_t>();
    int64_t inRank = rankOf(op->getOperand(0));
    if (axes.empty())
      return "it reduces over every axis, the batch included";
    for (int64_t axis : axes)
      if (normAxis(axis, inRank) == 0)
        return "it reduces over axis 0, the batch";
    return "";
  }
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return transpose.getPerm().empty() || transpose.getPerm()[0] != 0
               ? "it moves the batch dimension"
               : "";
  if (isa<ReshapeOp>(op))
    return ""; // dim 0 = B on both sides (checked above): rows stay rows
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    if (normAxis(concat.getAxis(), rank) == 0)
      return "it concatenates along axis 0, the batch";
    for (Value operand : op->getOperands())
      if (!isBatched(operand))
        return "it joins a batched tensor with one that is not";
    return "";
  }
  if (auto split = dyn_cast<SplitOp>(op))
    return normAxis(split.getAxis(), rank) == 0 ? "it splits along axis 0, the batch" : "";
  if (auto gather = dyn_cast<GatherOp>(op)) {
    if (isBatched(gather.getIndices()) || !isBatched(gather.getData()) ||
        normAxis(gather.getAxis(), rankOf(gather.getData())) == 0)
      return "it gathers along the batch dimension";
    return "";
  }
  if (auto gather = dyn_cast<GatherElementsOp>(op)) {
    // Batched together, row n of the indices picks from row n of the data.
    if (normAxis(gather.getAxis(), rankOf(gather.getData())) == 0 ||
        isBatched(gather.getIndices()) != isBatched(gather.getData()))
      return "it gathers along the batch dimension";
    return "";
  }
  if (auto scatter = dyn_cast<ScatterElementsOp>(op)) {
    // Row n of the updates goes to row n of the data; a shared [1, ...]
    // index is the same for every replica.
    if (normAxis(scatter.getAxis(), rankOf(scatter.getData())) == 0)
      return "it scatters along the batch dimension";
    if (!isBatched(scatter.getData()) || !isBatched(scatter.getUpdates()) ||
        (!isBatched(scatter.getIndices()) && dim0(scatter.getIndices()) != 1))
      return "it scatters rows of the batch into a tensor that is not batched alike";
    return "";
  }
  if (auto topk = dyn_cast<TopKOp>(op))
    return normAxis(topk.getAxis(), rank) == 0 ? "it selects along axis 0, the batch" : "";
  if (auto slice = dyn_cast<SliceOp>(op))
    return slice.getStarts()[0] != 0 || slice.getEnds()[0] != dim0(slice.getInput()) ||
                   slice.getSteps()[0] != 1
               ? "it slices the batch dimension"
               : "";
  return "dlc-place does not know how to split it along the batch";
}

} // namespace

LogicalResult splitBatch(func::FuncOp func, int64_t replicas, StringRef what,
                         llvm::DenseMap<Operation *, int> &replicaOf) {
  Block &block = func.getBody().front();
  if (func.getNumArguments() == 0)
    return func.emitError() << what << ": @" << func.getName()
                            << " has no inputs to split along the batch";
  int64_t batch = -1;
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    int64_t b = type && type.getRank() && !type.isDynamicDim(0) ? type.getDimSize(0) : -1;
    if (b < 0 || (batch >= 0 && b != batch))
      return func.emitError() << what << ": input " << arg.getArgNumber()
                              << " of @" << func.getName()
                              << " has no batch dimension (dim 0) matching the others";
    batch = b;
  }
  if (batch < replicas)
    return func.emitError() << what << ": a batch of " << batch << " cannot be split over "
                            << replicas << " GPUs";

  // Which values depend on the batch; refuse ops that mix its rows.
  llvm::DenseSet<Value> batched(func.getArguments().begin(), func.getArguments().end());
  for (auto [index, op] : llvm::enumerate(block.without_terminator())) {
    if (llvm::none_of(op.getOperands(), [&](Value v) { return batched.contains(v); }))
      continue;
    std::string why = whyNotSplittable(&op, batched, batch);
    if (!why.empty())
      return op.emitError() << what << ": op '" << opName(&op, index) << "' ("
                            << op.getName() << ") cannot be split along the batch: " << why;
    for (Value result : op.getResults())
      batched.insert(result);
  }
  Operation *terminator = block.getTerminator();
  for (auto [i, result] : llvm::enumerate(terminator->getOperands()))
    if (!batched.contains(result))
      return func.emitError() << what << ": output " << i << " of @" << func.getName()
                              << " does not depend on the batch";

  llvm::SmallVector<Operation *> body;
  llvm::SmallVector<std::string> names;
  for (auto [index, op] : llvm::enumerate(block.without_terminator()))
    if (!isa<ConstantOp>(op)) {
      body.push_back(&op);
      names.push_back(opName(&op, index));
    }
  MLIRContext *ctx = func.getContext();
  auto named = [&](const Twine &name, Location loc) -> Location {
    return NameLoc::get(StringAttr::get(ctx, name), loc);
  };
  auto argName = [&](unsigned i) -> std::string {
    if (auto name = func.getArgAttrOfType<StringAttr>(i, ::dlc::attrs::kName))
      return name.str();
    return "arg" + std::to_string(i);
  };

  // The replicas go after the body, which is erased; constants (no operands)
  // stay where they are, before every user.
  OpBuilder builder(func.getContext());
  builder.setInsertionPoint(terminator);
  std::vector<IRMapping> maps(replicas);
  int64_t offset = 0;
  for (int64_t r = 0; r < replicas; ++r) {
    int64_t size = batch / replicas + (r < batch % replicas ? 1 : 0);
    for (BlockArgument arg : func.getArguments()) {
      auto type = cast<RankedTensorType>(arg.getType());
      llvm::SmallVector<int64_t> starts(type.getRank(), 0), ends(type.getShape()),
          steps(type.getRank(), 1), shape(type.getShape());
      starts[0] = offset;
      ends[0] = offset + size;
      shape[0] = size;
      auto slice = builder.create<SliceOp>(
          named(argName(arg.getArgNumber()) + "/dp" + Twine(r) + "/slice", arg.getLoc()), RankedTensorType::get(shape, type.getElementType()), arg,
          builder.getDenseI64ArrayAttr(starts), builder.getDenseI64ArrayAttr(ends),
          builder.getDenseI64ArrayAttr(steps), DeviceAttr());
      replicaOf[slice] = -1;
      maps[r].map(arg, slice.getResult());
    }
    offset += size;
  }
  for (int64_t r = 0; r < replicas; ++r) {
    int64_t size = batch / replicas + (r < batch % replicas ? 1 : 0);
    for (auto [op, name] : llvm::zip(body, names)) {
      // Ops that do not depend on the batch are replicated as they are.
      Operation *clone = builder.clone(*op, maps[r]);
      clone->setLoc(named(name + "/dp" + Twine(r), op->getLoc()));
      replicaOf[clone] = r;
      for (OpResult result : clone->getResults()) {
        auto type = cast<RankedTensorType>(result.getType());
        if (!batched.contains(op->getResult(result.getResultNumber())))
          continue;
        llvm::SmallVector<int64_t> shape(type.getShape());
        shape[0] = size;
        result.setType(RankedTensorType::get(shape, type.getElementType(),
                                             type.getEncoding()));
      }
      if (auto slice = dyn_cast<SliceOp>(clone)) {
        llvm::SmallVector<int64_t> ends(slice.getEnds());
        ends[0] = size;
        slice.setEnds(ends);
      }
    }
  }
  for (OpOperand &result : terminator->getOpOperands()) {
    llvm::SmallVector<Value> parts;
    for (int64_t r = 0; r < replicas; ++r)
      parts.push_back(maps[r].lookup(result.get()));
    std::string name = "output" + std::to_string(result.getOperandNumber());
    if (auto attr = func.getResultAttrOfType<StringAttr>(result.getOperandNumber(), ::dlc::attrs::kName))
      name = attr.str();
    auto concat = builder.create<ConcatOp>(named(name + "/dp/concat", result.get().getLoc()), result.get().getType(),
                                           parts, builder.getI64IntegerAttr(0), DeviceAttr());
    replicaOf[concat] = -1;
    result.set(concat.getResult());
  }
  for (Operation *op : llvm::reverse(body))
    op->erase();
  return success();
}

} // namespace dlc
