//===- OnnxNormOps.cpp - MeanVarianceNormalization and LRN -----------------===//
//
// Both as the elementwise ops and reductions of their ONNX definitions
// (BatchNormalization and LayerNormalization, which dlc has ops for, are in
// OnnxOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxOpsCommon.h"
#include "dialects/dlc/DlcOps.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {

/// MeanVarianceNormalization, as ONNX's function body defines it:
/// (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9), over `axes` (default 0, 2, 3).
LogicalResult convertMeanVarianceNormalization(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  if (!isa<FloatType>(t.getElementType()))
    return g.unsupported("integers");
  int64_t rank = t.getRank();
  std::vector<int64_t> axes = g.attrInts("axes").value_or(std::vector<int64_t>{0, 2, 3});
  for (int64_t &a : axes) {
    a = normAxis(a, rank);
    if (a < 0 || a >= rank)
      return g.fail("axes out of range");
  }
  Value x = g.input(0);
  Value mean = reduce(g, "mean", x, axes, true);
  Value meanOfSquares = reduce(g, "mean", g.make<MulOp>(x, x), axes, true);
  Value variance = g.make<SubOp>(meanOfSquares, g.make<MulOp>(mean, mean));
  Value deviation = g.make<AddOp>(g.make<SqrtOp>(variance), g.scalarLike(x, 1e-9));
  out.push_back(g.make<DivOp>(g.make<SubOp>(x, mean), deviation));
  return success();
}

/// LRN: x / (bias + alpha / size * the sum of squares over the `size`
/// channels around each)^beta; the window is floor((size - 1) / 2) channels
/// before and ceil((size - 1) / 2) after, zeros beyond the edges: a concat of
/// zeros, then the sum of `size` shifted slices.
LogicalResult convertLRN(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  if (!isa<FloatType>(t.getElementType()) || t.getRank() < 3)
    return g.unsupported("LRN needs a float input of rank 3 or more");
  int64_t size = g.attrInt("size", 0), channels = t.getDimSize(1);
  if (size < 1)
    return g.fail("size must be at least 1");
  double alpha = g.attrFloat("alpha", 1e-4), beta = g.attrFloat("beta", 0.75), bias = g.attrFloat("bias", 1.0);
  Value x = g.input(0), squares = g.make<MulOp>(x, x);
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  SmallVector<Value> pieces;
  if (before)
    pieces.push_back(zerosLike(g, squares, 1, before));
  pieces.push_back(squares);
  if (after)
    pieces.push_back(zerosLike(g, squares, 1, after));
  Value window = pieces.size() == 1 ? squares : concatAlong(g, pieces, 1);
  Value sum;
  for (int64_t k = 0; k < size; ++k) {
    Value shifted = sliceAlong(g, window, 1, k, k + channels);
    sum = sum ? g.make<AddOp>(sum, shifted) : shifted;
  }
  Value scaled = g.make<AddOp>(g.make<MulOp>(sum, g.scalarLike(x, alpha / double(size))), g.scalarLike(x, bias));
  out.push_back(g.make<DivOp>(x, g.make<PowOp>(scaled, g.scalarLike(x, beta))));
  return success();
}

} // namespace

void dlc::onnx_import::addNormConverters(llvm::StringMap<Converter> &t) {
  t["MeanVarianceNormalization"] = convertMeanVarianceNormalization;
  t["LRN"] = convertLRN;
}
