//===- BatchDims.cpp - a symbolic batch on any dimension ------------------===//
//
// BatchRows.cpp's rules keep the batch on dim 0. A symbolic batch may move:
// PyTorch's nn.MultiheadAttention works sequence-first ([S, B, E]: the batch
// on dim 1), an LSTM's ONNX form too, and their transposes move it back.
// Each unit of such a value is a strided slice of the buffer made for the
// bound (the batch's dim at `rows` per unit, every other dim whole), so a
// kernel outlined at one unit reads and writes it through a memref with the
// bound's strides and the runtime advances its pointer by one unit's stride.
// These are the rules that say where an op's results carry the batch, given
// where its operands do (batchDimsThrough).
//
//===----------------------------------------------------------------------===//

#include "passes/BatchRows.h"

#include "dialects/dlc/DlcOps.h"

using namespace mlir;

namespace dlc {

bool batch_rules::isSplatConstant(Value v) {
  while (auto reshape = v.getDefiningOp<ReshapeOp>())
    v = reshape.getInput();
  auto constant = v.getDefiningOp<ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  return dense && dense.isSplat();
}

using namespace batch_rules;

namespace {

int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

std::optional<BatchLayout> throughReshape(Value in, Value out, BatchLayout layout,
                                          int64_t bound) {
  return reshapeBatchLayout(shapeOf(in), shapeOf(out), layout, bound);
}

/// The layout every batched operand agrees on, as a dim of the result
/// (operands of lower rank align to its trailing dims); operands without
/// the batch must be 1 there, or be splat constants spanning the batch
/// (an LSTM's zero initial state [layers, B, H]), which then carry it
/// (`carried`). Null with `why` set otherwise.
std::optional<BatchLayout> agreedLayout(ValueRange operands, int64_t resultRank,
                                        const BatchLayouts &layouts, int64_t bound,
                                        std::string &why, CarriedSplats &carried) {
  std::optional<BatchLayout> agreed;
  for (Value v : operands) {
    auto it = layouts.find(v);
    if (it == layouts.end())
      continue;
    BatchLayout at = it->second;
    at.dim += resultRank - rankOf(v);
    if (agreed && *agreed != at) {
      why = "its operands carry the batch on different dimensions";
      return std::nullopt;
    }
    agreed = at;
  }
  for (Value v : operands) {
    if (layouts.count(v))
      continue;
    int64_t d = agreed->dim - (resultRank - rankOf(v));
    if (d < 0 || shapeOf(v)[d] == 1)
      continue;
    if (isSplatConstant(v) && shapeOf(v)[d] == agreed->outer * bound * agreed->rows) {
      carried.push_back({v, BatchLayout{d, agreed->rows, agreed->outer}});
      continue;
    }
    why = "it broadcasts along the batch dimension";
    return std::nullopt;
  }
  return agreed;
}

std::string throughMatmul(Operation *op, const BatchLayouts &layouts, BatchLayout &out) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  int64_t rank = rankOf(op->getResult(0));
  // An operand's layout as a dim of the result; `contracted`: its K dim.
  auto asResultDim = [&](Value v, int64_t contracted,
                         std::optional<BatchLayout> &from) -> bool {
    auto at = layouts.find(v);
    if (at == layouts.end())
      return true;
    if (at->second.dim == rankOf(v) + contracted)
      return false;
    from = at->second;
    from->dim += rank - rankOf(v);
    return true;
  };
  std::optional<BatchLayout> fromLhs, fromRhs;
  if (!asResultDim(lhs, -1, fromLhs) || !asResultDim(rhs, -2, fromRhs))
    return "it contracts the batch dimension";
  if (fromLhs && fromRhs && (*fromLhs != *fromRhs || fromLhs->dim >= rank - 2))
    return "both operands carry the batch, on different dimensions of the result";
  out = fromLhs ? *fromLhs : *fromRhs;
  // The other operand must not broadcast along a batch dim of the result.
  Value other = fromLhs ? rhs : lhs;
  if (!layouts.count(other) && out.dim < rank - 2) {
    int64_t d = out.dim - (rank - rankOf(other));
    if (d >= 0 && shapeOf(other)[d] != 1)
      return "it broadcasts along the batch dimension";
  }
  return "";
}

} // namespace

/// Where a reshape's result carries the batch. In the flat order a reshape
/// keeps, the input is G groups x the bound's units x E elements per unit
/// (G: its outer dims times `outer`; E: `rows` times its inner dims); the
/// result's dim d carries the batch when its outer dims divide G and its
/// inner dims divide E, and dim d is the rest of both times the bound.
std::optional<BatchLayout> reshapeBatchLayout(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                                              BatchLayout layout, int64_t bound) {
  int64_t groups = product(from.take_front(layout.dim)) * layout.outer;
  int64_t unitElements = layout.rows * product(from.drop_front(layout.dim + 1));
  for (int64_t d = 0; d < int64_t(to.size()); ++d) {
    int64_t outerDims = product(to.take_front(d)), innerDims = product(to.drop_front(d + 1));
    if (groups % outerDims != 0 || unitElements % innerDims != 0)
      continue;
    BatchLayout l{d, unitElements / innerDims, groups / outerDims};
    if (to[d] == l.outer * bound * l.rows)
      return l;
  }
  return std::nullopt;
}

std::string batchDimsThrough(Operation *op, const BatchLayouts &layouts, int64_t bound,
                             SmallVectorImpl<BatchLayout> &out, CarriedSplats &carried) {
  auto layoutOf = [&](Value v) { return layouts.find(v)->second; };
  Value result = op->getResult(0);
  int64_t rank = rankOf(result);
  auto same = [&](BatchLayout l) {
    out.assign(op->getNumResults(), l);
    return std::string();
  };
  if (isElementwise(op) || isa<CopyOp>(op)) {
    std::string why;
    std::optional<BatchLayout> l = agreedLayout(op->getOperands(), rank, layouts, bound, why, carried);
    return l ? same(*l) : why;
  }
  if (isa<MatmulOp>(op)) {
    BatchLayout l;
    std::string why = throughMatmul(op, layouts, l);
    return why.empty() ? same(l) : why;
  }
  if (auto gather = dyn_cast<GatherOp>(op); gather && layouts.count(gather.getIndices())) {
    // Rows of a shared table (an embedding) picked by indices that carry
    // the batch: the indices' dims stand at the axis in the result.
    if (layouts.count(gather.getData()))
      return "it gathers with indices that carry the batch";
    BatchLayout in = layoutOf(gather.getIndices());
    in.dim += normAxis(gather.getAxis(), rankOf(gather.getData()));
    return same(in);
  }
  // Every op below reads the batch from its first operand alone.
  if (!layouts.count(op->getOperand(0)))
    return "only an operand other than its first carries the batch";
  for (Value operand : op->getOperands().drop_front())
    if (layouts.count(operand) && !isa<ConcatOp>(op))
      return "its parameters depend on the batch";
  BatchLayout in = layoutOf(op->getOperand(0));
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    ArrayRef<int64_t> perm = transpose.getPerm();
    in.dim = llvm::find(perm, in.dim) - perm.begin();
    return same(in);
  }
  if (isa<ReshapeOp>(op)) {
    std::optional<BatchLayout> l = throughReshape(op->getOperand(0), result, in, bound);
    if (!l)
      return "it merges the batch with an outer dimension or splits it";
    if (l->outer > 1 && l->rows > 1)
      return "it interleaves the batch's units with an outer dimension, several rows each";
    return same(*l);
  }
  if (isa<LinearOp>(op))
    return in.dim == rank - 1 ? "it contracts the batch dimension" : same(in);
  if (auto softmax = dyn_cast<SoftmaxOp>(op))
    return normAxis(softmax.getAxis(), rank) == in.dim ? "it normalises over the batch" : same(in);
  if (auto norm = dyn_cast<LayerNormOp>(op))
    return normAxis(norm.getAxis(), rank) <= in.dim ? "it normalises over the batch" : same(in);
  if (isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceProdOp>(op)) {
    auto axesAttr = op->getAttrOfType<DenseI64ArrayAttr>("axes");
    if (!axesAttr || axesAttr.empty())
      return "it reduces over every axis, the batch included";
    int64_t inRank = rankOf(op->getOperand(0)), before = 0;
    for (int64_t axis : axesAttr.asArrayRef()) {
      if (normAxis(axis, inRank) == in.dim)
        return "it reduces over the batch";
      before += normAxis(axis, inRank) < in.dim;
    }
    bool keep = op->getAttrOfType<BoolAttr>("keepdims") &&
                op->getAttrOfType<BoolAttr>("keepdims").getValue();
    if (!keep)
      in.dim -= before;
    return same(in);
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    if (normAxis(concat.getAxis(), rank) == in.dim)
      return "it concatenates along the batch";
    std::string why;
    std::optional<BatchLayout> l = agreedLayout(op->getOperands(), rank, layouts, bound, why, carried);
    if (!l)
      return why;
    for (Value operand : op->getOperands())
      if (!layouts.count(operand))
        return "it joins a batched tensor with one that is not";
    return same(*l);
  }
  if (auto split = dyn_cast<SplitOp>(op))
    return normAxis(split.getAxis(), rank) == in.dim ? "it splits along the batch" : same(in);
  if (auto slice = dyn_cast<SliceOp>(op)) {
    int64_t d = in.dim;
    if (slice.getStarts()[d] != 0 || slice.getEnds()[d] != shapeOf(op->getOperand(0))[d] ||
        slice.getSteps()[d] != 1)
      return "it slices the batch dimension";
    return same(in);
  }
  if (auto gather = dyn_cast<GatherOp>(op)) {
    int64_t axis = normAxis(gather.getAxis(), rankOf(gather.getData()));
    if (axis == in.dim)
      return "it gathers along the batch dimension";
    if (in.dim > axis)
      in.dim += rankOf(gather.getIndices()) - 1;
    return same(in);
  }
  return "dlc has no rule that keeps the batch's units apart through it off dim 0";
}

} // namespace dlc
