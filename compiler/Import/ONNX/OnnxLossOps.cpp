//===- OnnxLossOps.cpp - losses and the index-picking reductions -----------===//
//
// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss, ArgMax, ArgMin and
// Hardmax: each picks by class or position, and each is a decomposition
// into dlc ops that compares with a constant [0, D) instead of reading an
// index.
//
// The losses, on run-time targets:
//
//   onehot = compare eq (reshape(target, [N, 1, d..]), iota [1, C, 1..])
//   picked = reduce_sum(select(onehot, input, 0), axis 1)        [N, d..]
//   w      = reduce_sum(select(onehot, weight [1, C, 1..], 0), 1) (or 1)
//            * (target != ignore_index)                          (with one)
//   loss   = -picked * w;  none: loss, sum: sum(loss), mean: sum(loss) / sum(w)
//
// The class is picked by a comparison, not an index, so an ignored target
// outside [0, C) reads nothing. SoftmaxCrossEntropyLoss is that on
// log_softmax(scores, axis 1), its optional second output the log-probs.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxOpsCommon.h"
#include "dialects/dlc/DlcOps.h"

#include <optional>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {

/// 0, 1, .., count - 1 along `axis` of a rank-`rank` constant whose other
/// dimensions are 1 (it broadcasts against a tensor with `count` there).
Value iotaAlong(GraphImporter &g, ref::DType dtype, int64_t rank, int64_t axis, int64_t count) {
  std::vector<int64_t> shape(rank, 1);
  shape[axis] = count;
  std::vector<double> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = double(i);
  return g.constant(Tensor::fromValues(dtype, shape, std::move(values)));
}

/// The negative log-likelihood of `logProbs` [N, C, d..] at `target`
/// [N, d..] (integers), weighted and reduced as the node says.
FailureOr<Value> negativeLogLikelihood(GraphImporter &g, Value logProbs, Value target,
                                       Value weight) {
  RankedTensorType x = GraphImporter::typeOf(logProbs);
  RankedTensorType t = GraphImporter::typeOf(target);
  int64_t rank = x.getRank();
  if (rank < 2)
    return g.fail("the input has fewer than 2 dimensions (N, C)");
  SmallVector<int64_t> targetShape(x.getShape());
  targetShape.erase(targetShape.begin() + 1);
  if (t.getShape() != ArrayRef<int64_t>(targetShape))
    return g.fail("the target's shape is not the input's without its class dimension");
  if (!t.getElementType().isSignlessInteger(32) && !t.getElementType().isSignlessInteger(64))
    return g.unsupported("a target that is not int32 or int64");
  int64_t classes = x.getDimSize(1);
  ref::DType index = t.getElementType().isInteger(32) ? ref::DType::I32 : ref::DType::I64;
  SmallVector<int64_t> expanded(targetShape);
  expanded.insert(expanded.begin() + 1, 1);
  Value onehot = g.make<CompareOp>(StringRef("eq"), g.reshape(target, expanded),
                                   iotaAlong(g, index, rank, 1, classes));
  Value zero = g.scalarLike(logProbs, 0);
  Value picked = reduce(g, "sum", g.make<SelectOp>(onehot, logProbs, zero), {1}, false);
  Value w; // the weight of each element's target (null: every one 1)
  if (weight) {
    RankedTensorType wt = GraphImporter::typeOf(weight);
    if (wt.getShape() != ArrayRef<int64_t>{classes} || wt.getElementType() != x.getElementType())
      return g.fail("the weight is not one value of the input's type per class");
    SmallVector<int64_t> classShape(rank, 1);
    classShape[1] = classes;
    Value perClass = g.reshape(weight, classShape);
    w = reduce(g, "sum", g.make<SelectOp>(onehot, perClass, zero), {1}, false);
  }
  if (const onnx::AttributeProto *ignore = g.attr("ignore_index")) {
    Value kept = g.make<CompareOp>(StringRef("ne"), target, g.scalarLike(target, ignore->i()));
    Value mask = g.castTo(kept, x.getElementType());
    w = w ? g.make<MulOp>(w, mask) : mask;
  }
  Value loss = g.make<NegOp>(w ? g.make<MulOp>(picked, w) : picked);
  std::string reduction = g.attrString("reduction", "mean");
  std::vector<int64_t> all(targetShape.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  if (reduction == "none")
    return loss;
  if (reduction == "sum")
    return reduce(g, "sum", loss, all, false);
  if (reduction != "mean")
    return g.fail("reduction '" + reduction + "' (expected none, sum or mean)");
  if (!w)
    return reduce(g, "mean", loss, all, false);
  return g.make<DivOp>(reduce(g, "sum", loss, all, false), reduce(g, "sum", w, all, false));
}

LogicalResult convertNegativeLogLikelihoodLoss(GraphImporter &g, Outputs &out) {
  if (!isa<FloatType>(g.type(0).getElementType()))
    return g.unsupported("an input that is not a float");
  FailureOr<Value> loss =
      negativeLogLikelihood(g, g.input(0), g.input(1), g.has(2) ? g.input(2) : Value());
  if (failed(loss))
    return failure();
  out.push_back(*loss);
  return success();
}

LogicalResult convertSoftmaxCrossEntropyLoss(GraphImporter &g, Outputs &out) {
  if (!isa<FloatType>(g.type(0).getElementType()))
    return g.unsupported("scores that are not floats");
  if (g.type(0).getRank() < 2)
    return g.fail("the scores have fewer than 2 dimensions (N, C)");
  Value logProbs = logSoftmax(g, g.input(0), 1);
  FailureOr<Value> loss =
      negativeLogLikelihood(g, logProbs, g.input(1), g.has(2) ? g.input(2) : Value());
  if (failed(loss))
    return failure();
  out.push_back(*loss);
  out.push_back(logProbs); // the optional log_prob output
  return success();
}

/// The index (i64) of the first (or, with `last`, the last) largest (or,
/// with `smallest`, smallest) element of `x` along `axis`, NumPy's rule for
/// NaN (a NaN counts as the extreme): the positions that hit the extreme
/// select their index from a constant [0, D), a reduction picks the first or
/// the last of them.
Value argExtreme(GraphImporter &g, Value x, int64_t axis, bool smallest, bool last, bool keep) {
  RankedTensorType t = GraphImporter::typeOf(x);
  int64_t dim = t.getDimSize(axis);
  Value extreme = reduce(g, smallest ? "min" : "max", x, {axis}, true);
  Value hit = g.make<CompareOp>(StringRef("eq"), x, extreme);
  if (isa<FloatType>(t.getElementType())) {
    Value nan = g.make<CompareOp>(StringRef("ne"), x, x);
    hit = g.make<SelectOp>(hit, g.scalarLike(hit, 1), nan);
  }
  Value index = iotaAlong(g, ref::DType::I64, t.getRank(), axis, dim);
  if (last)
    return reduce(g, "max", g.make<SelectOp>(hit, index, g.scalarLike(index, -1)), {axis}, keep);
  // The first: -max(-i) over the hits (misses count as D, after any index).
  Value candidates = g.make<SelectOp>(hit, index, g.scalarLike(index, dim));
  return reduce(g, "min", candidates, {axis}, keep);
}

LogicalResult convertArgMinMax(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  if (t.getElementType().isInteger(1))
    return g.unsupported("boolean input");
  int64_t axis = normAxis(g.attrInt("axis", 0), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  if (t.getNumElements() == 0)
    return g.unsupported("an empty input");
  out.push_back(argExtreme(g, g.input(0), axis, g.node->op_type() == "ArgMin",
                           g.attrInt("select_last_index", 0) != 0,
                           g.attrInt("keepdims", 1) != 0));
  return success();
}

/// Hardmax: 1 at the first largest element along `axis`, 0 elsewhere (opset
/// 13's per-axis form; before it, the input is coerced to 2-D at `axis`).
LogicalResult convertHardmax(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  if (!isa<FloatType>(t.getElementType()))
    return g.unsupported("an input that is not a float");
  int64_t axis = normAxis(g.attrInt("axis", g.opset < 13 ? 1 : -1), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  Value x = g.opset < 13 ? coerceTo2D(g, g.input(0), axis) : g.input(0);
  RankedTensorType xt = GraphImporter::typeOf(x);
  Value first = argExtreme(g, x, axis, /*smallest=*/false, /*last=*/false, /*keep=*/true);
  Value index = iotaAlong(g, ref::DType::I64, xt.getRank(), axis, xt.getDimSize(axis));
  Value onehot = g.make<CompareOp>(StringRef("eq"), index, first);
  out.push_back(g.reshape(g.castTo(onehot, t.getElementType()), t.getShape()));
  return success();
}

/// OneHot(indices, depth, values [off, on]): `compare eq` of the indices
/// (cast to i64, negative ones counted from depth) with a constant [0, depth)
/// along the new axis, then `select` between on and off, both read from
/// `values` at run time. depth must be known at import time (a size).
LogicalResult convertOneHot(GraphImporter &g, Outputs &out) {
  RankedTensorType it = g.type(0), vt = g.type(2);
  std::optional<std::vector<int64_t>> depthValue = g.constInts(1, "the depth");
  if (!depthValue)
    return failure();
  if (depthValue->size() != 1 || depthValue->front() < 1)
    return g.fail("the depth is not one positive value");
  if (vt.getRank() != 1 || vt.getDimSize(0) != 2)
    return g.fail("the values are not [off, on]");
  int64_t depth = depthValue->front(), rank = it.getRank() + 1;
  int64_t axis = g.attrInt("axis", -1);
  axis = axis < 0 ? axis + rank : axis;
  if (axis < 0 || axis >= rank)
    return g.fail("axis out of range");
  Value index = g.castTo(g.input(0), g.builder.getI64Type());
  Value negative = g.make<CompareOp>(StringRef("lt"), index, g.scalarLike(index, 0));
  index = g.make<SelectOp>(negative, g.make<AddOp>(index, g.scalarLike(index, double(depth))),
                           index);
  SmallVector<int64_t> expanded(it.getShape());
  expanded.insert(expanded.begin() + axis, 1);
  Value hit = g.make<CompareOp>(StringRef("eq"), g.reshape(index, expanded),
                                iotaAlong(g, ref::DType::I64, rank, axis, depth));
  auto pick = [&](int64_t i) {
    Value v = g.make<SliceOp>(g.tensorType({1}, vt.getElementType()), g.input(2),
                              g.builder.getDenseI64ArrayAttr({i}),
                              g.builder.getDenseI64ArrayAttr({i + 1}),
                              g.builder.getDenseI64ArrayAttr({1}), DeviceAttr());
    return g.reshape(v, SmallVector<int64_t>(rank, 1));
  };
  out.push_back(g.make<SelectOp>(hit, pick(1), pick(0)));
  return success();
}

} // namespace

void dlc::onnx_import::addLossConverters(llvm::StringMap<Converter> &t) {
  t["ArgMax"] = convertArgMinMax;
  t["ArgMin"] = convertArgMinMax;
  t["Hardmax"] = convertHardmax;
  t["OneHot"] = convertOneHot;
  t["NegativeLogLikelihoodLoss"] = convertNegativeLogLikelihoodLoss;
  t["SoftmaxCrossEntropyLoss"] = convertSoftmaxCrossEntropyLoss;
}
