//===- BatchRows.cpp - which values carry a batch, and how many rows per unit ===//
//
// See BatchRows.h; dlc-batch-rows writes the analysis on the IR for tests.
//
//===----------------------------------------------------------------------===//

#include "passes/BatchRows.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"

#include "dialects/dlc/DlcOps.h"

#include <cstring>

namespace dlc {
#define GEN_PASS_DEF_BATCHROWS
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace dlc {
using namespace batch_rules;

int64_t dim0Of(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return type.getRank() ? type.getDimSize(0) : -1;
}

std::string whyOpMixesBatchRows(Operation *op, const llvm::DenseSet<Value> &batched) {
  auto isBatched = [&](Value v) { return batched.contains(v); };
  int64_t rank = rankOf(op->getResult(0));
  // Operands that are not batched must broadcast along dim 0.
  auto broadcastOk = [&](Value v) { return rankOf(v) < rank || dim0Of(v) == 1; };

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
    return ""; // rows stay rows when the caller's dim 0 check holds
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
    // Rows of batched data picked along another axis by shared indices, or
    // rows of a shared table (an embedding) picked by batched indices: the
    // result's dim 0 is then the indices' (axis 0).
    bool axis0 = normAxis(gather.getAxis(), rankOf(gather.getData())) == 0;
    bool dataBatched = isBatched(gather.getData()), indicesBatched = isBatched(gather.getIndices());
    if (dataBatched ? indicesBatched || axis0
                    : !axis0 || rankOf(gather.getIndices()) == 0)
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
        (!isBatched(scatter.getIndices()) && dim0Of(scatter.getIndices()) != 1))
      return "it scatters rows of the batch into a tensor that is not batched alike";
    return "";
  }
  if (auto topk = dyn_cast<TopKOp>(op))
    return normAxis(topk.getAxis(), rank) == 0 ? "it selects along axis 0, the batch" : "";
  if (auto slice = dyn_cast<SliceOp>(op))
    return slice.getStarts()[0] != 0 || slice.getEnds()[0] != dim0Of(slice.getInput()) ||
                   slice.getSteps()[0] != 1
               ? "it slices the batch dimension"
               : "";
  return "dlc has no rule that keeps the batch's rows apart through it";
}

namespace {
/// Whether constant `dense` of dim 0 = a x bound has every unit (a rows)
/// alike: a splat, or data repeated per unit (a token expanded to the batch).
bool unitsAlike(DenseElementsAttr dense, int64_t bound) {
  if (dense.isSplat())
    return true;
  if (dense.getElementType().isInteger(1))
    return false; // Bit-packed: not worth a check.
  ArrayRef<char> raw = dense.getRawData();
  size_t unit = raw.size() / size_t(bound);
  for (size_t u = 1; u < size_t(bound); ++u)
    if (std::memcmp(raw.data(), raw.data() + u * unit, unit) != 0)
      return false;
  return true;
}

/// A constant whose dim 0 spans the batch's rows with every unit alike (a
/// Pad's zeros, a class token expanded to the batch) is the same in every
/// unit: it may carry the batch. When `op` keeps the units apart once its
/// such operands do, they are added to `batched` (the per-unit code reads
/// the first unit's rows of them) and true is returned; else nothing
/// changes.
bool acceptSplatRows(Operation *op, int64_t bound, llvm::DenseSet<Value> &batched,
                     llvm::DenseMap<Value, int64_t> &rows) {
  SmallVector<Value> splats;
  for (Value operand : op->getOperands()) {
    auto constant = operand.getDefiningOp<ConstantOp>();
    auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : DenseElementsAttr();
    int64_t dim0 = dim0Of(operand);
    if (dense && !batched.contains(operand) && dim0 >= bound && dim0 % bound == 0 &&
        unitsAlike(dense, bound))
      splats.push_back(operand);
  }
  if (splats.empty())
    return false;
  llvm::DenseSet<Value> widened = batched;
  widened.insert(splats.begin(), splats.end());
  if (!whyOpMixesBatchRows(op, widened).empty())
    return false;
  for (Value splat : splats) {
    batched.insert(splat);
    rows[splat] = dim0Of(splat) / bound;
  }
  return true;
}
/// The kernel `op` runs in (the op itself outside any).
Operation *kernelOf(Operation *op) {
  auto kernel = op->getParentOfType<KernelOp>();
  return kernel ? kernel.getOperation() : op;
}

/// `op` reads the symbol's dims whole (SymbolExtents.cpp): its kernel is
/// sized at run time; a result with the symbol on one whole dim also has
/// it as units there (the ops after it may keep them apart).
template <typename Fail>
LogicalResult readSymbolWhole(Operation *op, int64_t bound,
                              llvm::function_ref<SymbolDims(Value)> dimsOf, SizedKernels &sized,
                              llvm::DenseMap<Value, int64_t> &rows,
                              llvm::DenseSet<Value> &batched, BatchLayouts *moved, Fail fail) {
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()))
      continue;
    SymbolDims dims = dimsOf(operand);
    if (dims == SymbolDims{-1})
      return fail("an operand holds several rows of each unit on one dim");
    for (int64_t d : dims)
      if (d < 0 || d >= cast<RankedTensorType>(operand.getType()).getRank() ||
          cast<RankedTensorType>(operand.getType()).getDimSize(d) != bound)
        return fail("an operand's dim " + Twine(d) + " would have the symbol's extent but is " +
                    "not its bound");
  }
  SmallVector<SymbolDims> results;
  std::string why = symbolDimsThrough(op, bound, dimsOf, results);
  if (!why.empty())
    return fail(why);
  for (auto [result, dims] : llvm::zip(op->getResults(), results)) {
    for (int64_t d : dims)
      if (cast<RankedTensorType>(result.getType()).getDimSize(d) != bound)
        return fail("its result's dim " + Twine(d) + " would have the symbol's extent but is " +
                    "not its bound");
    sized.dims[result] = dims;
    if (dims.size() == 1 && moved) {
      rows[result] = 1;
      batched.insert(result);
      if (dims[0] != 0)
        (*moved)[result] = BatchLayout{dims[0], 1, 1};
    }
  }
  sized.kernels.insert(kernelOf(op));
  return success();
}

/// Every value a sized kernel reads or writes gets its symbol dims (those
/// its unit-keeping ops had as units too).
LogicalResult recordSizedKernelValues(SizedKernels &sized,
                                      llvm::function_ref<SymbolDims(Value)> dimsOf,
                                      StringRef what) {
  for (Operation *kernel : llvm::to_vector(sized.kernels)) {
    LogicalResult result = success();
    auto record = [&](Value v) {
      if (!isa<RankedTensorType>(v.getType()) || sized.dims.count(v))
        return;
      SymbolDims dims = dimsOf(v);
      if (dims == SymbolDims{-1}) {
        result = kernel->emitError()
                 << what << ": a kernel that reads the symbol's dims whole also reads a value "
                 << "with several rows of each unit on one dim";
        return;
      }
      sized.dims[v] = dims;
    };
    kernel->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        record(operand);
      for (Value r : op->getResults())
        record(r);
    });
    if (failed(result))
      return failure();
  }
  return success();
}

} // namespace

FailureOr<llvm::DenseMap<Value, int64_t>>
analyseBatchRows(func::FuncOp func, ArrayRef<BlockArgument> batchedArgs, int64_t bound,
                 StringRef what, BatchLayouts *moved, SizedKernels *sized) {
  llvm::DenseMap<Value, int64_t> rows;
  llvm::DenseSet<Value> batched;
  for (BlockArgument arg : batchedArgs) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    int64_t dim = symbolDimOfInput(func, arg.getArgNumber());
    if (dim && !moved)
      return func.emitError() << what << ": input " << arg.getArgNumber() << " of @"
                              << func.getName() << " carries it on dim " << dim
                              << ", which only a symbolic function may";
    if (!type || type.getRank() <= dim || type.getDimSize(dim) != bound)
      return func.emitError() << what << ": input " << arg.getArgNumber() << " of @"
                              << func.getName() << " has no dim " << dim
                              << " of the batch's bound (" << bound << ")";
    rows[arg] = 1;
    batched.insert(arg);
    if (dim)
      (*moved)[arg] = BatchLayout{dim, 1, 1};
  }
  // A kernel's result carries what its yield's operand does.
  auto resolve = [&](Value v) {
    auto kernel = v.getDefiningOp<KernelOp>();
    if (!kernel || batched.contains(v))
      return;
    Value inner = kernel.getBody().front().getTerminator()->getOperand(
        cast<OpResult>(v).getResultNumber());
    if (batched.contains(inner)) {
      rows[v] = rows[inner];
      batched.insert(v);
      if (moved && moved->count(inner))
        (*moved)[v] = moved->lookup(inner);
    }
    if (sized && sized->dims.count(inner))
      sized->dims[v] = sized->dims.lookup(inner);
  };
  // The symbol's dims of a value read whole (SymbolExtents.cpp); {-1}
  // where its units are not whole dims (several rows, or interleaved).
  auto symbolDimsOf = [&](Value v) -> SymbolDims {
    if (sized && sized->dims.count(v))
      return sized->dims.lookup(v);
    if (batched.contains(v)) {
      BatchLayout layout = moved && moved->count(v) ? moved->lookup(v)
                                                    : BatchLayout{0, rows.lookup(v), 1};
      if (layout.rows != 1 || layout.outer != 1)
        return {-1};
      return {layout.dim};
    }
    if (auto constant = v.getDefiningOp<ConstantOp>())
      if (auto dims = constant->getAttrOfType<DenseI64ArrayAttr>(attrs::kSymbolDims))
        return SymbolDims(dims.asArrayRef());
    return {};
  };
  auto readsWhole = [&](Value v) {
    return !batched.contains(v) && !symbolDimsOf(v).empty();
  };
  for (auto [index, op] : llvm::enumerate(modelOps(func))) {
    for (Value operand : op->getOperands())
      resolve(operand);
    if (op->hasTrait<mlir::OpTrait::IsTerminator>() || op->getNumResults() == 0 ||
        llvm::none_of(op->getOperands(), [&](Value v) {
          return batched.contains(v) || (sized && readsWhole(v));
        }))
      continue;
    auto fail = [&, index = index, op = op](const Twine &why) {
      return op->emitError() << what << ": op '" << opName(op, index) << "' ("
                             << op->getName() << ") mixes the rows of the batch: " << why;
    };
    if (sized && llvm::any_of(op->getOperands(), readsWhole)) {
      if (failed(readSymbolWhole(op, bound, symbolDimsOf, *sized, rows, batched, moved, fail)))
        return failure();
      continue;
    }
    for (Value result : op->getResults())
      if (!isa<RankedTensorType>(result.getType()) || !rankOf(result))
        return fail("its result has no dim 0");
    bool offDim0 =
        moved && llvm::any_of(op->getOperands(), [&](Value v) { return moved->count(v); });
    std::string why = offDim0 ? "" : whyOpMixesBatchRows(op, batched);
    bool dim0Kept = !offDim0 && (why.empty() || acceptSplatRows(op, bound, batched, rows));
    auto notMultiple = llvm::find_if(op->getResults(),
                                     [&](Value r) { return dim0Of(r) % bound != 0; });
    if (dim0Kept && notMultiple == op->getResults().end()) {
      for (Value result : op->getResults()) {
        rows[result] = dim0Of(result) / bound;
        batched.insert(result);
      }
      continue;
    }
    if (dim0Kept && !moved)
      return fail("its result's dim 0 (" + Twine(dim0Of(*notMultiple)) +
                  ") is not a multiple of the batch's bound (" + Twine(bound) + ")");
    if (!moved)
      return fail(why);
    // The batch may move off dim 0 (BatchDims.cpp).
    BatchLayouts layouts;
    for (Value operand : op->getOperands())
      if (batched.contains(operand))
        layouts[operand] = moved->count(operand) ? moved->lookup(operand)
                                                 : BatchLayout{0, rows.lookup(operand), 1};
    SmallVector<BatchLayout> out;
    CarriedSplats carried;
    std::string general = batchDimsThrough(op, layouts, bound, out, carried);
    if (!general.empty() && sized) {
      if (failed(readSymbolWhole(op, bound, symbolDimsOf, *sized, rows, batched, moved,
                                 [&](const Twine &whole) {
                                   return fail((why.empty() ? general : why) +
                                               "; read whole, " + whole);
                                 })))
        return failure();
      continue;
    }
    if (!general.empty())
      return fail(why.empty() ? general : why);
    for (auto [splat, layout] : carried) {
      rows[splat] = layout.rows;
      batched.insert(splat);
      if (!layout.onDim0())
        (*moved)[splat] = layout;
    }
    for (auto [result, layout] : llvm::zip(op->getResults(), out)) {
      if (cast<RankedTensorType>(result.getType()).getDimSize(layout.dim) !=
          layout.outer * layout.rows * bound)
        return fail("its result's dim " + Twine(layout.dim) +
                    " would carry the batch but is not a multiple of its bound");
      rows[result] = layout.rows;
      batched.insert(result);
      if (!layout.onDim0())
        (*moved)[result] = layout;
    }
  }
  // (The ONNX importer asks about a function it has not finished.)
  Block &body = func.getBody().front();
  if (!body.empty() && body.back().hasTrait<mlir::OpTrait::IsTerminator>())
    for (Value result : body.back().getOperands())
      resolve(result);
  if (sized && failed(recordSizedKernelValues(*sized, symbolDimsOf, what)))
    return failure();
  return rows;
}

int64_t symbolDimOfInput(func::FuncOp func, unsigned arg) {
  auto dims = func.getArgAttrOfType<DenseI64ArrayAttr>(arg, attrs::kSymbolDims);
  return dims && dims.size() == 1 ? dims[0] : 0;
}

FailureOr<std::optional<SymbolicBatch>> analyseSymbolicBatch(func::FuncOp func) {
  auto name = func->getAttrOfType<StringAttr>(attrs::kSymbolicBatch);
  if (!name)
    return std::optional<SymbolicBatch>();
  SmallVector<BlockArgument> inputs;
  for (BlockArgument arg : func.getArguments())
    if (!func.getArgAttr(arg.getArgNumber(), attrs::kState))
      inputs.push_back(arg);
  if (inputs.empty())
    return func.emitError() << "symbolic batch '" << name.getValue()
                            << "': the function has no inputs";
  SymbolicBatch batch;
  batch.name = name.str();
  int64_t dim = symbolDimOfInput(func, inputs.front().getArgNumber());
  auto firstType = dyn_cast<RankedTensorType>(inputs.front().getType());
  batch.bound = firstType && firstType.getRank() > dim ? firstType.getDimSize(dim) : 0;
  if (batch.bound < 1)
    return func.emitError() << "symbolic batch '" << name.getValue()
                            << "': the first input has no dim " << dim;
  FailureOr<llvm::DenseMap<Value, int64_t>> rows =
      analyseBatchRows(func, inputs, batch.bound, "symbolic batch '" + batch.name + "'",
                       &batch.moved, &batch.sized);
  if (failed(rows))
    return failure();
  batch.unitRows = std::move(*rows);
  return std::optional<SymbolicBatch>(std::move(batch));
}

namespace {

/// dlc-batch-rows: every op whose results carry the batch gets
/// `dlc.rows_per_unit` (one entry per result, 0 for a result without it).
struct BatchRowsPass : impl::BatchRowsBase<BatchRowsPass> {
  using BatchRowsBase::BatchRowsBase;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<BlockArgument> args(func.getArguments());
    FailureOr<llvm::DenseMap<Value, int64_t>> rows =
        analyseBatchRows(func, args, bound, "dlc-batch-rows");
    if (failed(rows))
      return signalPassFailure();
    func.walk([&](Operation *op) {
      if (op->getNumResults() == 0 ||
          llvm::none_of(op->getResults(), [&](Value v) { return rows->count(v); }))
        return;
      SmallVector<int64_t> perResult;
      for (Value v : op->getResults())
        perResult.push_back(rows->lookup(v));
      op->setAttr("dlc.rows_per_unit", DenseI64ArrayAttr::get(op->getContext(), perResult));
    });
  }
};

} // namespace
} // namespace dlc
