//===- SymbolExtents.cpp - ops that read a symbolic dim whole --------------===//
//
// A symbolic dimension's units (BatchRows.cpp, BatchDims.cpp) serve ops that
// keep them apart. Attention over a symbolic sequence does not: its scores
// are [T, T], each query row reads every key, softmax and the product with
// V reduce over the keys. Such ops read the symbol's dims whole: their
// kernels are *sized at run time* (compiled once, called once per run with
// the run's size, their loops over those dims running to it). These are the
// rules that say which dims of an op's results have the symbol's extent,
// given its operands' (symbolDimsThrough). A symbol dim is a whole dim of
// the bound's size whose run-time extent is the run's size, the leading
// part of the bound's (a constant marked `dlc.symbol_dims` is read that
// way: GPT-2's causal mask sliced to the sequence).
//
//===----------------------------------------------------------------------===//

#include "passes/BatchRows.h"

#include "dialects/dlc/DlcOps.h"

using namespace mlir;

namespace dlc {
using namespace batch_rules;
namespace {

/// Result dims of operands broadcast to `rank` (aligned to its trailing
/// dims): a symbol dim of any operand is one of the result, where every
/// other operand is 1 or carries it too (splat constants are alike
/// everywhere).
std::string throughBroadcast(ValueRange operands, int64_t rank, int64_t bound,
                             const SymbolDimsOf &dimsOf, SymbolDims &out) {
  llvm::SmallSetVector<int64_t, 4> dims;
  for (Value v : operands) {
    if (!isa<RankedTensorType>(v.getType()))
      continue;
    for (int64_t d : dimsOf(v))
      dims.insert(d + rank - rankOf(v));
  }
  for (Value v : operands) {
    if (!isa<RankedTensorType>(v.getType()) || isSplatConstant(v))
      continue;
    SymbolDims own = dimsOf(v);
    int64_t offset = rank - rankOf(v);
    for (int64_t d : dims) {
      int64_t mine = d - offset;
      if (mine < 0 || llvm::is_contained(own, mine) || shapeOf(v)[mine] == 1)
        continue;
      return "an operand has the bound's size (" + std::to_string(bound) + ") on dim " +
             std::to_string(mine) + " but not the symbol's extent there";
    }
  }
  out.assign(dims.begin(), dims.end());
  llvm::sort(out);
  return "";
}

/// Where a reshape keeps each symbol dim whole: the dim whose outer
/// product is the same.
std::string throughReshape(Value in, Value result, const SymbolDims &dims, SymbolDims &out) {
  ArrayRef<int64_t> from = shapeOf(in), to = shapeOf(result);
  for (int64_t d : dims) {
    int64_t outer = 1;
    for (int64_t i = 0; i < d; ++i)
      outer *= from[i];
    int64_t prefix = 1, found = -1;
    for (int64_t j = 0; j < int64_t(to.size()) && prefix <= outer; ++j) {
      if (prefix == outer && to[j] == from[d]) {
        found = j;
        break;
      }
      prefix *= to[j];
    }
    if (found < 0)
      return "it merges a dim of the symbol's extent with another or splits it";
    out.push_back(found);
  }
  return "";
}

std::string throughMatmul(MatmulOp op, int64_t bound, const SymbolDimsOf &dimsOf,
                          SymbolDims &out) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  int64_t rank = rankOf(op.getResult()), lr = rankOf(lhs), rr = rankOf(rhs);
  SymbolDims l = dimsOf(lhs), r = dimsOf(rhs);
  bool lk = llvm::is_contained(l, lr - 1), rk = llvm::is_contained(r, rr - 2);
  if (lk != rk)
    return "it contracts a dim of the symbol's extent with a dim of fixed size";
  llvm::SmallSetVector<int64_t, 4> dims;
  for (int64_t d : l) {
    if (d == lr - 2)
      dims.insert(rank - 2);
    else if (d < lr - 2)
      dims.insert(d + rank - lr);
  }
  for (int64_t d : r) {
    if (d == rr - 1)
      dims.insert(rank - 1);
    else if (d < rr - 2)
      dims.insert(d + rank - rr);
  }
  // Batch dims of both must agree (or broadcast from 1).
  for (int64_t d : dims) {
    if (d >= rank - 2)
      continue;
    for (auto [v, own, vr] : {std::tuple(lhs, l, lr), std::tuple(rhs, r, rr)}) {
      int64_t mine = d - (rank - vr);
      if (mine >= 0 && !llvm::is_contained(own, mine) && shapeOf(v)[mine] != 1)
        return "its operands' batch dims disagree on the symbol's extent";
    }
  }
  (void)bound;
  out.assign(dims.begin(), dims.end());
  llvm::sort(out);
  return "";
}

} // namespace

std::string symbolDimsThrough(Operation *op, int64_t bound, const SymbolDimsOf &dimsOf,
                              SmallVectorImpl<SymbolDims> &results) {
  results.assign(op->getNumResults(), SymbolDims());
  auto one = [&](SymbolDims dims) {
    for (SymbolDims &r : results)
      r = dims;
    return std::string();
  };
  if (op->getNumResults() == 0 || !isa<RankedTensorType>(op->getResult(0).getType()))
    return "its result is no ranked tensor";
  int64_t rank = rankOf(op->getResult(0));
  if (isElementwise(op) || isa<CopyOp>(op)) {
    SymbolDims out;
    std::string why = throughBroadcast(op->getOperands(), rank, bound, dimsOf, out);
    return why.empty() ? one(out) : why;
  }
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    SymbolDims out;
    std::string why = throughMatmul(matmul, bound, dimsOf, out);
    return why.empty() ? one(out) : why;
  }
  // Every op below reads the symbol from its first operand alone.
  for (Value operand : op->getOperands().drop_front())
    if (isa<RankedTensorType>(operand.getType()) && !dimsOf(operand).empty() &&
        !isa<ConcatOp>(op))
      return "its parameters have the symbol's extent";
  SymbolDims in = dimsOf(op->getOperand(0));
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    ArrayRef<int64_t> perm = transpose.getPerm();
    SymbolDims out;
    for (int64_t d : in)
      out.push_back(llvm::find(perm, d) - perm.begin());
    llvm::sort(out);
    return one(out);
  }
  if (isa<ReshapeOp>(op)) {
    SymbolDims out;
    std::string why = throughReshape(op->getOperand(0), op->getResult(0), in, out);
    return why.empty() ? one(out) : why;
  }
  if (isa<LinearOp>(op))
    return llvm::is_contained(in, rank - 1) ? "it contracts the symbol's dim with its weights"
                                            : one(in);
  // Softmax's sums and maxima run over the run's extent; a mean's count
  // would be the bound's.
  if (isa<SoftmaxOp>(op))
    return one(in);
  if (auto norm = dyn_cast<LayerNormOp>(op)) {
    for (int64_t d : in)
      if (d >= normAxis(norm.getAxis(), rank))
        return "it normalises over a dim of the symbol's extent (its count would be the "
               "bound's)";
    return one(in);
  }
  if (isa<ReduceSumOp, ReduceMaxOp, ReduceMeanOp, ReduceProdOp>(op)) {
    auto axesAttr = op->getAttrOfType<DenseI64ArrayAttr>("axes");
    int64_t inRank = rankOf(op->getOperand(0));
    auto keepAttr = op->getAttrOfType<BoolAttr>("keepdims");
    bool keep = keepAttr && keepAttr.getValue();
    SymbolDims out;
    for (int64_t d : in) {
      bool reduced = !axesAttr || axesAttr.empty() ||
                     llvm::any_of(axesAttr.asArrayRef(),
                                  [&](int64_t a) { return normAxis(a, inRank) == d; });
      if (reduced) {
        if (isa<ReduceMeanOp>(op))
          return "it averages over a dim of the symbol's extent (its count would be the "
                 "bound's)";
        continue;
      }
      int64_t before = 0;
      if (!keep && axesAttr)
        for (int64_t a : axesAttr.asArrayRef())
          before += normAxis(a, inRank) < d;
      out.push_back(d - before);
    }
    return one(out);
  }
  if (auto slice = dyn_cast<SliceOp>(op)) {
    for (int64_t d : in)
      if (slice.getStarts()[d] != 0 || slice.getEnds()[d] != shapeOf(op->getOperand(0))[d] ||
          slice.getSteps()[d] != 1)
        return "it slices a dim of the symbol's extent";
    return one(in);
  }
  if (auto split = dyn_cast<SplitOp>(op))
    return llvm::is_contained(in, normAxis(split.getAxis(), rank))
               ? "it splits along a dim of the symbol's extent"
               : one(in);
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    int64_t axis = normAxis(concat.getAxis(), rank);
    for (Value operand : op->getOperands())
      if (dimsOf(operand) != in)
        return "it joins tensors whose dims of the symbol's extent differ";
    return llvm::is_contained(in, axis) ? "it concatenates along a dim of the symbol's extent"
                                        : one(in);
  }
  return "dlc has no rule for it over a dim of the symbol's extent";
}

} // namespace dlc
