//===- DataParallel.cpp - data-parallel:N: one replica per GPU ------------===//
//
// See DataParallel.h. A value is batched when it depends on an argument; its
// dim 0 is then the batch (of size B, the arguments' dim 0), and every op
// with a batched operand must keep the rows of the batch independent by the
// rules of BatchRows.h (shared with the symbolic batch). A reshape must keep
// dim 0 = B here: a replica's slice is rows of every batched value.
//
//===----------------------------------------------------------------------===//

#include "passes/DataParallel.h"
#include "passes/BatchRows.h"
#include "passes/CostModel.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace dlc {
namespace {

/// Why `op` cannot run on slices of the batch, or "" when it can.
std::string whyNotSplittable(Operation *op, const llvm::DenseSet<Value> &batched,
                             int64_t batch) {
  auto isBatched = [&](Value v) { return batched.contains(v); };
  for (Value operand : op->getOperands())
    if (isBatched(operand) && dim0Of(operand) != batch)
      return "an operand's dim 0 is not the batch";
  for (Value result : op->getResults())
    if (!isa<RankedTensorType>(result.getType()))
      return "its result is not a ranked tensor";
  std::string why = whyOpMixesBatchRows(op, batched);
  if (!why.empty())
    return why;
  for (Value result : op->getResults())
    if (dim0Of(result) != batch)
      return "its result's dim 0 is not the batch (" + std::to_string(batch) + ")";
  return "";
}

} // namespace

LogicalResult splitBatch(func::FuncOp func, int64_t replicas, StringRef what,
                         llvm::DenseMap<Operation *, int> &replicaOf) {
  Block &block = func.getBody().front();
  if (func.getNumArguments() == 0)
    return func.emitError() << what << ": @" << func.getName()
                            << " has no inputs to split along the batch";
  if (auto symbolic = func->getAttrOfType<StringAttr>(::dlc::attrs::kSymbolicBatch))
    return func.emitError() << what << ": @" << func.getName() << "'s batch is symbolic ('"
                            << symbolic.getValue()
                            << "', known at run time), and replicas split the batch at compile "
                               "time: compile for a fixed batch, or place without data-parallel";
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
