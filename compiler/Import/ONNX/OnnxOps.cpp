//===- OnnxOps.cpp - arithmetic, activations, contractions, normalisation -===//
//
// Each converter reads the current node through GraphImporter and builds dlc
// ops (shape ops, constants and comparisons: OnnxShapeOps.cpp; the
// table at the end holds both). Ops dlc has as one op map 1:1; the rest
// decompose into existing ops:
//
//   Reciprocal x      -> 1 / x
//   LeakyRelu x       -> relu(x) + alpha * min(x, 0)
//   HardSigmoid x     -> clip(alpha * x + beta, 0, 1)
//   HardSwish x       -> x * clip(x / 6 + 1/2, 0, 1)
//   Elu / Selu / Celu -> relu and exp(min(x, 0)) terms
//   Gemm              -> linear (transB, alpha = beta = 1, 1-D bias) or matmul
//   Identity, Dropout (inference) -> nothing
//   LogSoftmax        -> x - max - log(sum(exp(x - max)))
//   ReduceMin/L1/L2/SumSquare/LogSum/LogSumExp -> reduce_sum/max with neg,
//                        abs, mul, sqrt, log, exp around
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxOpsCommon.h"

#include "dialects/dlc/DlcShapes.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <functional>
#include <numeric>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {
bool isFloatType(Type t) { return isa<FloatType>(t); }

/// Requires a float element type for input i (ops dlc defines on floats).
LogicalResult requireFloat(GraphImporter &g, size_t i) {
  if (!isFloatType(g.type(i).getElementType()))
    return g.unsupported("element type " + [&] {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << g.type(i).getElementType();
      return s;
    }() + " (dlc computes this op on floats only)");
  return success();
}

/// Whether a and b broadcast (NumPy rules); records an error when not.
bool broadcasts(GraphImporter &g, Value a, Value b) {
  ArrayRef<int64_t> sa = GraphImporter::typeOf(a).getShape(), sb = GraphImporter::typeOf(b).getShape();
  if (succeeded(broadcastShapes(sa, sb, nullptr)))
    return true;
  (void)g.fail("operand shapes " + formatShape(sa) + " and " + formatShape(sb) + " do not broadcast");
  return false;
}

template <typename OpT> Converter binary() {
  return [](GraphImporter &g, Outputs &out) -> LogicalResult {
    Value lhs = g.input(0), rhs = g.input(1);
    if (GraphImporter::typeOf(lhs).getElementType() != GraphImporter::typeOf(rhs).getElementType())
      return g.fail("operands have different element types");
    if (!broadcasts(g, lhs, rhs))
      return failure();
    out.push_back(g.make<OpT>(lhs, rhs));
    return success();
  };
}

/// Max, Min, Sum: a chain over any number of inputs.
template <typename OpT> Converter variadic() {
  return [](GraphImporter &g, Outputs &out) -> LogicalResult {
    Value acc = g.input(0);
    for (size_t i = 1; i < g.numInputs(); ++i) {
      if (g.type(i).getElementType() != GraphImporter::typeOf(acc).getElementType())
        return g.fail("operands have different element types");
      if (!broadcasts(g, acc, g.input(i)))
        return failure();
      acc = g.make<OpT>(acc, g.input(i));
    }
    out.push_back(acc);
    return success();
  };
}

template <typename OpT> Converter unary(bool floatOnly) {
  return [floatOnly](GraphImporter &g, Outputs &out) -> LogicalResult {
    if (floatOnly && failed(requireFloat(g, 0)))
      return failure();
    out.push_back(g.make<OpT>(g.input(0)));
    return success();
  };
}

Value mulScalar(GraphImporter &g, Value x, double s) {
  if (s == 1.0)
    return x;
  return g.make<MulOp>(x, g.scalarLike(x, s));
}
Value addScalar(GraphImporter &g, Value x, double s) {
  if (s == 0.0)
    return x;
  return g.make<AddOp>(x, g.scalarLike(x, s));
}
Value minZero(GraphImporter &g, Value x) { return g.make<MinOp>(x, g.scalarLike(x, 0)); }
/// alpha * (exp(min(x, 0) / scale) - 1): the negative branch of Elu and Celu.
Value expBranch(GraphImporter &g, Value x, double alpha, double scale) {
  Value e = g.make<ExpOp>(mulScalar(g, minZero(g, x), 1.0 / scale));
  return mulScalar(g, addScalar(g, e, -1.0), alpha);
}

Value clip(GraphImporter &g, Value x, double lo, double hi) {
  return g.make<ClipOp>(GraphImporter::typeOf(x), x, g.builder.getF64FloatAttr(lo),
                        g.builder.getF64FloatAttr(hi), DeviceAttr());
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

LogicalResult convertClip(GraphImporter &g, Outputs &out) {
  double lo = -INFINITY, hi = INFINITY;
  if (g.attr("min") || g.attr("max")) { // opset < 11
    lo = g.attrFloat("min", lo);
    hi = g.attrFloat("max", hi);
  } else {
    if (g.has(1)) {
      std::optional<Tensor> t = g.requireConst(1, "min");
      if (!t)
        return failure();
      lo = t->data[0];
    }
    if (g.has(2)) {
      std::optional<Tensor> t = g.requireConst(2, "max");
      if (!t)
        return failure();
      hi = t->data[0];
    }
  }
  if (lo > hi) // ONNX: every element becomes max
    lo = hi;
  out.push_back(clip(g, g.input(0), lo, hi));
  return success();
}

LogicalResult convertLeakyRelu(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  double alpha = g.attrFloat("alpha", 0.01);
  out.push_back(g.make<AddOp>(g.make<ReluOp>(x), mulScalar(g, minZero(g, x), alpha)));
  return success();
}

LogicalResult convertPRelu(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  if (g.type(1).getElementType() != g.type(0).getElementType() || !broadcasts(g, x, g.input(1)))
    return g.fail("slope does not match the input");
  Value neg = g.make<MulOp>(minZero(g, x), g.input(1));
  if (GraphImporter::typeOf(neg) != GraphImporter::typeOf(x))
    return g.unsupported("a slope that broadcasts beyond the input's shape");
  out.push_back(g.make<AddOp>(g.make<ReluOp>(x), neg));
  return success();
}

LogicalResult convertHardSigmoid(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  Value y = addScalar(g, mulScalar(g, x, g.attrFloat("alpha", 0.2)), g.attrFloat("beta", 0.5));
  out.push_back(clip(g, y, 0, 1));
  return success();
}

LogicalResult convertHardSwish(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  Value gate = clip(g, addScalar(g, mulScalar(g, x, 1.0 / 6), 0.5), 0, 1);
  out.push_back(g.make<MulOp>(x, gate));
  return success();
}

LogicalResult convertElu(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  out.push_back(g.make<AddOp>(g.make<ReluOp>(x), expBranch(g, x, g.attrFloat("alpha", 1.0), 1.0)));
  return success();
}

LogicalResult convertCelu(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  double alpha = g.attrFloat("alpha", 1.0);
  out.push_back(g.make<AddOp>(g.make<ReluOp>(x), expBranch(g, x, alpha, alpha)));
  return success();
}

LogicalResult convertSelu(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  double alpha = g.attrFloat("alpha", 1.67326319217681884765625);
  double gamma = g.attrFloat("gamma", 1.05070102214813232421875);
  Value y = g.make<AddOp>(g.make<ReluOp>(x), expBranch(g, x, alpha, 1.0));
  out.push_back(mulScalar(g, y, gamma));
  return success();
}

/// log(1 + e^x) = max(x, 0) + log(1 + e^-|x|): no overflow for large x.
Value softplus(GraphImporter &g, Value x) {
  Value t = g.make<ExpOp>(g.make<NegOp>(g.make<AbsOp>(x)));
  return g.make<AddOp>(g.make<ReluOp>(x), g.make<LogOp>(addScalar(g, t, 1.0)));
}

LogicalResult convertSoftplus(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  out.push_back(softplus(g, g.input(0)));
  return success();
}

/// BitShift (unsigned integers in ONNX; dlc shifts any integer type).
LogicalResult convertBitShift(GraphImporter &g, Outputs &out) {
  std::string direction = g.attrString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return g.fail("direction must be LEFT or RIGHT, got '" + direction + "'");
  if (!isa<IntegerType>(g.type(0).getElementType()) || g.type(0).getElementType().isInteger(1))
    return g.unsupported("a shift of a non-integer type");
  if (!broadcasts(g, g.input(0), g.input(1)))
    return failure();
  out.push_back(direction == "LEFT" ? g.make<ShiftLeftOp>(g.input(0), g.input(1))
                                    : g.make<ShiftRightOp>(g.input(0), g.input(1)));
  return success();
}

/// Mish (opset 18): x tanh(softplus(x)).
LogicalResult convertMish(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  out.push_back(g.make<MulOp>(x, g.make<TanhOp>(softplus(g, x))));
  return success();
}

LogicalResult convertSoftsign(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  out.push_back(g.make<DivOp>(x, addScalar(g, g.make<AbsOp>(x), 1.0)));
  return success();
}

LogicalResult convertReciprocal(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value x = g.input(0);
  out.push_back(g.make<DivOp>(g.scalarLike(x, 1.0), x));
  return success();
}

LogicalResult convertGelu(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  bool tanh = g.attrString("approximate", "none") == "tanh";
  out.push_back(g.make<GeluOp>(g.type(0), g.input(0), tanh, DeviceAttr()));
  return success();
}

/// Pow: the result has the base's type. An integer base is raised in f64
/// (exact while the result fits 2^53) and truncated back, as NumPy's
/// power(x, y).astype(x.dtype) does.
LogicalResult convertPow(GraphImporter &g, Outputs &out) {
  Type baseType = g.type(0).getElementType();
  if (!isFloatType(baseType)) {
    Value base = g.castTo(g.input(0), g.builder.getF64Type());
    Value exponent = g.castTo(g.input(1), g.builder.getF64Type());
    if (!broadcasts(g, base, exponent))
      return failure();
    out.push_back(g.castTo(g.make<PowOp>(base, exponent), baseType));
    return success();
  }
  Value base = g.input(0);
  Value exponent = g.castTo(g.input(1), g.type(0).getElementType());
  if (!broadcasts(g, base, exponent))
    return failure();
  out.push_back(g.make<PowOp>(base, exponent));
  return success();
}

LogicalResult convertMean(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  Value acc = g.input(0);
  for (size_t i = 1; i < g.numInputs(); ++i) {
    if (g.type(i).getElementType() != GraphImporter::typeOf(acc).getElementType() ||
        !broadcasts(g, acc, g.input(i)))
      return g.fail("inputs differ in element type or do not broadcast");
    acc = g.make<AddOp>(acc, g.input(i));
  }
  out.push_back(mulScalar(g, acc, 1.0 / g.numInputs()));
  return success();
}

/// Mod: fmod = 1 the truncated remainder (`rem`), 0 the floored (`mod`),
/// which the spec allows on integers only.
LogicalResult convertMod(GraphImporter &g, Outputs &out) {
  Value lhs = g.input(0), rhs = g.input(1);
  if (g.type(0).getElementType() != g.type(1).getElementType())
    return g.fail("operands have different element types");
  if (!broadcasts(g, lhs, rhs))
    return failure();
  bool fmod = g.attrInt("fmod", 0) != 0;
  if (!fmod && isFloatType(g.type(0).getElementType()))
    return g.fail("fmod = 0 on floats (the spec asks for fmod = 1)");
  out.push_back(fmod ? g.make<RemOp>(lhs, rhs) : g.make<ModOp>(lhs, rhs));
  return success();
}

/// Identity, and Dropout where it keeps every element: in inference, or in
/// training with a ratio of 0 (the mask output then all true).
LogicalResult passThrough(GraphImporter &g, Outputs &out) {
  if (g.node->op_type() == "Dropout") {
    if (g.has(2)) {
      std::optional<Tensor> training = g.requireConst(2, "training_mode");
      if (!training)
        return failure();
      std::optional<Tensor> ratio = g.has(1) ? g.requireConst(1, "ratio") : std::nullopt;
      if (g.has(1) && !ratio)
        return failure();
      double dropped = ratio ? ratio->data[0] : 0.5;
      if (training->data[0] != 0 && dropped != 0)
        return g.unsupported("training mode with a ratio above 0 (random)");
    }
    out.push_back(g.input(0));
    if (g.node->output_size() > 1 && !g.node->output(1).empty()) {
      auto type = g.tensorType(g.type(0).getShape(), g.builder.getI1Type());
      out.push_back(g.builder.create<ConstantOp>(
          g.loc, type, DenseElementsAttr::get(type, true), DeviceAttr()));
    }
    return success();
  }
  out.push_back(g.input(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions, convolution, pooling
//===----------------------------------------------------------------------===//

LogicalResult convertMatMul(GraphImporter &g, Outputs &out) {
  Value a = g.input(0), b = g.input(1);
  RankedTensorType ta = g.type(0), tb = g.type(1);
  if (ta.getElementType() != tb.getElementType())
    return g.fail("operands have different element types");
  // 1-D operands: promote (NumPy) and drop the added dimension after.
  bool vecA = ta.getRank() == 1, vecB = tb.getRank() == 1;
  if (vecA)
    a = g.reshape(a, {1, ta.getDimSize(0)});
  if (vecB)
    b = g.reshape(b, {tb.getDimSize(0), 1});
  FailureOr<Shape> shape = matmulShape(GraphImporter::typeOf(a).getShape(),
                                       GraphImporter::typeOf(b).getShape(), nullptr);
  if (failed(shape))
    return g.fail("operand shapes " + formatShape(ta.getShape()) + " and " +
                  formatShape(tb.getShape()) + " do not multiply");
  Value r = g.make<MatmulOp>(g.tensorType(*shape, ta.getElementType()), a, b, DeviceAttr());
  SmallVector<int64_t> final(*shape);
  if (vecB)
    final.pop_back();
  if (vecA)
    final.erase(final.end() - (vecB ? 1 : 2));
  out.push_back(g.reshape(r, final));
  return success();
}

LogicalResult convertGemm(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  bool transA = g.attrInt("transA", 0), transB = g.attrInt("transB", 0);
  double alpha = g.attrFloat("alpha", 1.0), beta = g.attrFloat("beta", 1.0);
  Value a = g.input(0), b = g.input(1);
  RankedTensorType ta = g.type(0), tb = g.type(1);
  if (ta.getRank() != 2 || tb.getRank() != 2)
    return g.fail("expects rank-2 A and B");
  int64_t ka = transA ? ta.getDimSize(0) : ta.getDimSize(1);
  int64_t kb = transB ? tb.getDimSize(1) : tb.getDimSize(0);
  if (ka != kb || ta.getElementType() != tb.getElementType())
    return g.fail("A and B do not multiply");
  int64_t m = transA ? ta.getDimSize(1) : ta.getDimSize(0);
  int64_t n = transB ? tb.getDimSize(0) : tb.getDimSize(1);
  auto resultType = g.tensorType({m, n}, ta.getElementType());
  Value c = g.has(2) ? g.input(2) : Value();
  // nn.Linear: x W^T + b.
  if (!transA && transB && alpha == 1.0 && beta == 1.0 &&
      (!c || GraphImporter::typeOf(c).getShape() == ArrayRef<int64_t>{n})) {
    SmallVector<Value> operands{a, b};
    if (c)
      operands.push_back(c);
    out.push_back(g.make<LinearOp>(TypeRange{resultType}, operands, ArrayRef<NamedAttribute>{}));
    return success();
  }
  auto transpose2d = [&](Value v) {
    RankedTensorType t = GraphImporter::typeOf(v);
    return g.make<TransposeOp>(g.tensorType({t.getDimSize(1), t.getDimSize(0)}, t.getElementType()),
                               v, g.builder.getDenseI64ArrayAttr({1, 0}), DeviceAttr());
  };
  if (transA)
    a = transpose2d(a);
  if (transB)
    b = transpose2d(b);
  Value y = mulScalar(g, g.make<MatmulOp>(resultType, a, b, DeviceAttr()), alpha);
  if (c && beta != 0.0) {
    if (GraphImporter::typeOf(c).getElementType() != ta.getElementType() || !broadcasts(g, y, c))
      return g.fail("C does not broadcast to the result's shape");
    y = g.make<AddOp>(y, mulScalar(g, c, beta));
  }
  if (GraphImporter::typeOf(y) != resultType)
    return g.fail("C does not broadcast to the result's shape");
  out.push_back(y);
  return success();
}

/// Pads of a window op: the pads attribute, or auto_pad's rule. `spatial` is
/// the input's spatial dims; returns [begin..., end...] as ONNX orders them.
std::optional<std::vector<int64_t>> windowPads(GraphImporter &g, ArrayRef<int64_t> spatial,
                                               ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                               ArrayRef<int64_t> dilations) {
  size_t n = spatial.size();
  std::string autoPad = g.attrString("auto_pad", "NOTSET");
  std::vector<int64_t> pads(2 * n, 0);
  if (autoPad == "NOTSET") {
    if (auto p = g.attrInts("pads"))
      pads = *p;
    if (pads.size() != 2 * n) {
      g.fail("pads has " + llvm::Twine(pads.size()) + " entries, expected " + llvm::Twine(2 * n));
      return std::nullopt;
    }
    return pads;
  }
  if (autoPad == "VALID")
    return pads;
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") {
    g.fail("unknown auto_pad '" + autoPad + "'");
    return std::nullopt;
  }
  for (size_t i = 0; i < n; ++i) {
    int64_t outSize = (spatial[i] + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(
        0, (outSize - 1) * strides[i] + dilations[i] * (kernel[i] - 1) + 1 - spatial[i]);
    int64_t small = total / 2, big = total - small;
    pads[i] = autoPad == "SAME_UPPER" ? small : big;
    pads[i + n] = autoPad == "SAME_UPPER" ? big : small;
  }
  return pads;
}

struct Window {
  std::vector<int64_t> kernel, strides, dilations, pads; // pads: t, l, b, r
};

/// Reads kernel/strides/dilations/pads of a 1-D or 2-D window op (an input
/// of rank 3 or 4) as a 2-D window: a 1-D one is a 2-D one over a height of
/// 1 (kernel, stride and dilation 1, no pads on it). `kernelFromFilter` gives
/// the kernel when the attribute is absent.
std::optional<Window> readWindow(GraphImporter &g, RankedTensorType input,
                                 std::optional<std::vector<int64_t>> kernelFromFilter) {
  int64_t n = input.getRank() - 2;
  if (n != 1 && n != 2) {
    g.unsupported("a " + llvm::Twine(n) + "-D window (dlc has 1-D and 2-D ops)");
    return std::nullopt;
  }
  auto k = g.attrInts("kernel_shape");
  if (!k)
    k = kernelFromFilter;
  std::vector<int64_t> ones(n, 1);
  std::vector<int64_t> strides = g.attrInts("strides").value_or(ones);
  std::vector<int64_t> dilations = g.attrInts("dilations").value_or(ones);
  if (!k || int64_t(k->size()) != n || int64_t(strides.size()) != n ||
      int64_t(dilations.size()) != n) {
    g.fail("expects " + llvm::Twine(n) + " kernel_shape, strides and dilations values");
    return std::nullopt;
  }
  for (int64_t i = 0; i < n; ++i)
    if ((*k)[i] < 1 || strides[i] < 1 || dilations[i] < 1) {
      g.fail("expects kernel_shape, strides and dilations >= 1");
      return std::nullopt;
    }
  auto pads = windowPads(g, input.getShape().drop_front(2), *k, strides, dilations);
  if (!pads)
    return std::nullopt;
  for (int64_t p : *pads)
    if (p < 0) {
      g.fail("expects pads >= 0");
      return std::nullopt;
    }
  if (n == 1) // ONNX [begin, end] -> dlc's [top, left, bottom, right]
    return Window{{1, (*k)[0]}, {1, strides[0]}, {1, dilations[0]}, {0, (*pads)[0], 0, (*pads)[1]}};
  return Window{*k, strides, dilations, *pads}; // ONNX [t, l, b, r] is dlc's order too
}

/// A 1-D window op's input (N, C, L) as (N, C, 1, L); others unchanged.
Value asTwoD(GraphImporter &g, Value v) {
  RankedTensorType t = GraphImporter::typeOf(v);
  if (t.getRank() != 3)
    return v;
  return g.reshape(v, {t.getDimSize(0), t.getDimSize(1), 1, t.getDimSize(2)});
}

int64_t windowOut(int64_t size, int64_t k, int64_t s, int64_t pb, int64_t pe, int64_t d) {
  return (size + pb + pe - d * (k - 1) - 1) / s + 1;
}

/// ceil_mode: widen the end pads so that floor division gives ceil's size,
/// keeping the last window starting inside the input (ONNX, PyTorch).
void applyCeilMode(Window &w, ArrayRef<int64_t> spatial) {
  for (int i = 0; i < 2; ++i) {
    int64_t span = w.dilations[i] * (w.kernel[i] - 1) + 1;
    int64_t padded = spatial[i] + w.pads[i] + w.pads[i + 2];
    int64_t out = (padded - span + w.strides[i] - 1) / w.strides[i] + 1;
    if ((out - 1) * w.strides[i] >= spatial[i] + w.pads[i])
      --out;
    int64_t need = (out - 1) * w.strides[i] + span - padded;
    if (need > 0)
      w.pads[i + 2] += need;
  }
}

LogicalResult convertConv(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  RankedTensorType x = g.type(0), f = g.type(1);
  if (f.getRank() != x.getRank())
    return g.fail("the filter's rank is not the input's");
  // A 1-D convolution is a 2-D one over a height of 1.
  bool oneD = x.getRank() == 3;
  std::optional<Window> w = readWindow(g, x, std::vector<int64_t>(f.getShape().drop_front(2)));
  if (!w)
    return failure();
  Value input = asTwoD(g, g.input(0)), filter = asTwoD(g, g.input(1));
  x = GraphImporter::typeOf(input);
  f = GraphImporter::typeOf(filter);
  int64_t groups = g.attrInt("group", 1);
  if (groups < 1 || f.getDimSize(0) % groups != 0 || x.getDimSize(1) != f.getDimSize(1) * groups ||
      f.getElementType() != x.getElementType())
    return g.fail("input channels, filter and group do not agree");
  int64_t oh = windowOut(x.getDimSize(2), f.getDimSize(2), w->strides[0], w->pads[0], w->pads[2], w->dilations[0]);
  int64_t ow = windowOut(x.getDimSize(3), f.getDimSize(3), w->strides[1], w->pads[1], w->pads[3], w->dilations[1]);
  if (oh < 1 || ow < 1)
    return g.fail("the window is larger than the padded input");
  auto type = g.tensorType({x.getDimSize(0), f.getDimSize(0), oh, ow}, x.getElementType());
  Value bias = g.has(2) ? g.input(2) : Value();
  SmallVector<Value> operands{input, filter};
  if (bias)
    operands.push_back(bias);
  OpBuilder &b = g.builder;
  NamedAttribute attrs[] = {
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(w->strides)),
      b.getNamedAttr("pads", b.getDenseI64ArrayAttr(w->pads)),
      b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(w->dilations)),
      b.getNamedAttr("groups", b.getI64IntegerAttr(groups))};
  Value y = g.make<Conv2dOp>(TypeRange{type}, operands, attrs);
  if (oneD)
    y = g.reshape(y, {x.getDimSize(0), f.getDimSize(0), ow});
  out.push_back(y);
  return success();
}

LogicalResult convertPool(GraphImporter &g, Outputs &out) {
  bool isMax = g.node->op_type() == "MaxPool";
  if (!isMax && failed(requireFloat(g, 0)))
    return failure();
  if (isMax && g.node->output_size() > 1 && !g.node->output(1).empty())
    return g.unsupported("the Indices output");
  std::optional<Window> w = readWindow(g, g.type(0), std::nullopt);
  if (!w)
    return failure();
  Value input = asTwoD(g, g.input(0)); // a 1-D pool: 2-D over a height of 1
  RankedTensorType x = GraphImporter::typeOf(input);
  bool countIncludePad = g.attrInt("count_include_pad", 0) != 0;
  if (g.attrInt("ceil_mode", 0)) {
    if (!isMax && countIncludePad)
      return g.unsupported("ceil_mode with count_include_pad");
    applyCeilMode(*w, x.getShape().drop_front(2));
  }
  if (!isMax && (w->dilations[0] != 1 || w->dilations[1] != 1))
    return g.unsupported("dilations in average pooling");
  int64_t oh = windowOut(x.getDimSize(2), w->kernel[0], w->strides[0], w->pads[0], w->pads[2], w->dilations[0]);
  int64_t ow = windowOut(x.getDimSize(3), w->kernel[1], w->strides[1], w->pads[1], w->pads[3], w->dilations[1]);
  for (int i = 0; i < 4; ++i)
    if (w->pads[i] >= w->dilations[i % 2] * (w->kernel[i % 2] - 1) + 1)
      return g.unsupported("a pad as large as the window");
  if (oh < 1 || ow < 1)
    return g.fail("the window is larger than the padded input");
  auto type = g.tensorType({x.getDimSize(0), x.getDimSize(1), oh, ow}, x.getElementType());
  Value y = isMax ? g.make<MaxPool2dOp>(type, input, w->kernel, w->strides, w->pads, w->dilations,
                                        DeviceAttr())
                  : g.make<AvgPool2dOp>(type, input, w->kernel, w->strides, w->pads,
                                        countIncludePad, DeviceAttr());
  out.push_back(g.type(0).getRank() == 3 ? g.reshape(y, {x.getDimSize(0), x.getDimSize(1), ow}) : y);
  return success();
}

LogicalResult convertGlobalPool(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  RankedTensorType x = g.type(0);
  if (x.getRank() < 3)
    return g.fail("expects an input of rank 3 or more");
  SmallVector<int64_t> shape(x.getShape().take_front(2));
  shape.append(x.getRank() - 2, 1);
  auto type = g.tensorType(shape, x.getElementType());
  if (g.node->op_type() == "GlobalAveragePool" && x.getRank() == 4) {
    out.push_back(g.make<GlobalAvgPoolOp>(type, g.input(0), DeviceAttr()));
    return success();
  }
  std::vector<int64_t> axes;
  for (int64_t d = 2; d < x.getRank(); ++d)
    axes.push_back(d);
  auto axesAttr = g.builder.getDenseI64ArrayAttr(axes);
  auto keep = g.builder.getBoolAttr(true);
  if (g.node->op_type() == "GlobalAveragePool")
    out.push_back(g.make<ReduceMeanOp>(type, g.input(0), axesAttr, keep, DeviceAttr()));
  else
    out.push_back(g.make<ReduceMaxOp>(type, g.input(0), axesAttr, keep, DeviceAttr()));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalisation, softmax, reductions
//===----------------------------------------------------------------------===//

LogicalResult convertBatchNorm(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  if (g.attrInt("training_mode", 0) || (g.node->output_size() > 1 && !g.node->output(1).empty()))
    return g.unsupported("training mode");
  double eps = g.attrFloat("epsilon", 1e-5);
  out.push_back(g.make<BatchNormOp>(g.type(0), g.input(0), g.input(1), g.input(2), g.input(3),
                                    g.input(4), g.builder.getF64FloatAttr(eps), DeviceAttr()));
  return success();
}

} // namespace

Value dlc::onnx_import::activationByName(GraphImporter &g, StringRef name, Value x, double alpha,
                                         double beta) {
  if (name == "Relu") return g.make<ReluOp>(x);
  if (name == "Tanh") return g.make<TanhOp>(x);
  if (name == "Sigmoid") return g.make<SigmoidOp>(x);
  if (name == "Affine") return addScalar(g, mulScalar(g, x, alpha), beta);
  if (name == "LeakyRelu") return g.make<AddOp>(g.make<ReluOp>(x), mulScalar(g, minZero(g, x), alpha));
  if (name == "ThresholdedRelu")
    return g.make<SelectOp>(g.make<CompareOp>(StringRef("gt"), x, g.scalarLike(x, alpha)), x,
                            g.scalarLike(x, 0));
  if (name == "ScaledTanh") return mulScalar(g, g.make<TanhOp>(mulScalar(g, x, beta)), alpha);
  if (name == "HardSigmoid") return clip(g, addScalar(g, mulScalar(g, x, alpha), beta), 0, 1);
  if (name == "Elu") return g.make<AddOp>(g.make<ReluOp>(x), expBranch(g, x, alpha, 1.0));
  if (name == "Softsign") return g.make<DivOp>(x, addScalar(g, g.make<AbsOp>(x), 1.0));
  if (name == "Softplus") return softplus(g, x);
  return Value();
}

Value dlc::onnx_import::reduce(GraphImporter &g, StringRef kind, Value x, ArrayRef<int64_t> axes,
                               bool keep) {
  RankedTensorType t = GraphImporter::typeOf(x);
  FailureOr<Shape> shape = reduceShape(t.getShape(), axes, keep, nullptr);
  auto type = g.tensorType(*shape, t.getElementType());
  auto axesAttr = g.builder.getDenseI64ArrayAttr(axes);
  auto keepAttr = g.builder.getBoolAttr(keep);
  if (kind == "sum")
    return g.make<ReduceSumOp>(type, x, axesAttr, keepAttr, DeviceAttr());
  if (kind == "mean")
    return g.make<ReduceMeanOp>(type, x, axesAttr, keepAttr, DeviceAttr());
  if (kind == "prod")
    return g.make<ReduceProdOp>(type, x, axesAttr, keepAttr, DeviceAttr());
  if (kind == "min") { // max of an order-reversing map of x, mapped back
    Type e = t.getElementType();
    if (isa<FloatType>(e))
      return g.make<NegOp>(reduce(g, "max", g.make<NegOp>(x), axes, keep));
    // -1 - x (bitwise not) reverses the order of signed and unsigned
    // integers alike and never overflows, where -x does at 0 (unsigned)
    // and at the most negative value (signed).
    Value allOnes = g.scalarLike(x, -1);
    Value flipped = reduce(g, "max", g.make<SubOp>(allOnes, x), axes, keep);
    return g.make<SubOp>(g.scalarLike(flipped, -1), flipped);
  }
  return g.make<ReduceMaxOp>(type, x, axesAttr, keepAttr, DeviceAttr());
}

Value dlc::onnx_import::coerceTo2D(GraphImporter &g, Value x, int64_t &axis) {
  RankedTensorType t = GraphImporter::typeOf(x);
  if (axis == t.getRank() - 1)
    return x;
  int64_t outer = product(t.getShape().take_front(axis));
  axis = 1;
  return g.reshape(x, {outer, t.getNumElements() / std::max<int64_t>(outer, 1)});
}

Value dlc::onnx_import::logSoftmax(GraphImporter &g, Value x, int64_t axis) {
  Value shifted = g.make<SubOp>(x, reduce(g, "max", x, {axis}, true));
  Value lse = g.make<LogOp>(reduce(g, "sum", g.make<ExpOp>(shifted), {axis}, true));
  return g.make<SubOp>(shifted, lse);
}

namespace {

LogicalResult convertLayerNorm(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  RankedTensorType x = g.type(0);
  int64_t axis = normAxis(g.attrInt("axis", -1), x.getRank());
  if (axis < 0 || axis >= x.getRank())
    return g.fail("axis out of range");
  double eps = g.attrFloat("epsilon", 1e-5);
  ArrayRef<int64_t> normalized = x.getShape().drop_front(axis);
  auto fit = [&](Value v) -> Value {
    RankedTensorType t = GraphImporter::typeOf(v);
    if (t.getNumElements() != product(normalized) || t.getElementType() != x.getElementType())
      return nullptr;
    return g.reshape(v, normalized);
  };
  Value scale = fit(g.input(1));
  Value bias = g.has(2) ? fit(g.input(2)) : Value();
  if (!scale || (g.has(2) && !bias))
    return g.unsupported("scale or bias that broadcast (dlc wants the normalised shape)");
  out.push_back(g.make<LayerNormOp>(x, g.input(0), scale, bias, g.builder.getI64IntegerAttr(axis),
                                    g.builder.getF64FloatAttr(eps), DeviceAttr()));
  // The optional Mean and InvStdDev outputs (kept dims).
  bool wantStats = (g.node->output_size() > 1 && !g.node->output(1).empty()) ||
                   (g.node->output_size() > 2 && !g.node->output(2).empty());
  if (wantStats) {
    std::vector<int64_t> axes;
    for (int64_t d = axis; d < x.getRank(); ++d)
      axes.push_back(d);
    Value mean = reduce(g, "mean", g.input(0), axes, true);
    Value centered = g.make<SubOp>(g.input(0), mean);
    Value var = reduce(g, "mean", g.make<MulOp>(centered, centered), axes, true);
    out.push_back(mean);
    out.push_back(g.make<RsqrtOp>(addScalar(g, var, eps)));
  }
  return success();
}

/// Softmax and LogSoftmax. Before opset 13 the input is coerced to 2-D at
/// `axis` and normalised over all trailing dimensions.
LogicalResult convertSoftmax(GraphImporter &g, Outputs &out) {
  if (failed(requireFloat(g, 0)))
    return failure();
  bool log = g.node->op_type() == "LogSoftmax";
  RankedTensorType t = g.type(0);
  int64_t axis = normAxis(g.attrInt("axis", g.opset < 13 ? 1 : -1), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  Value x = g.opset < 13 ? coerceTo2D(g, g.input(0), axis) : g.input(0);
  Value y;
  if (!log) {
    y = g.make<SoftmaxOp>(GraphImporter::typeOf(x), x, g.builder.getI64IntegerAttr(axis), DeviceAttr());
  } else {
    y = logSoftmax(g, x, axis);
  }
  out.push_back(g.reshape(y, t.getShape()));
  return success();
}

LogicalResult convertReduce(GraphImporter &g, Outputs &out) {
  StringRef op = g.node->op_type();
  RankedTensorType t = g.type(0);
  bool keep = g.attrInt("keepdims", 1) != 0;
  std::optional<std::vector<int64_t>> axes = g.attrInts("axes");
  if (!axes && g.has(1) && !(axes = g.constInts(1, "the axes")))
    return failure();
  if (!axes || axes->empty()) {
    if (g.attrInt("noop_with_empty_axes", 0)) {
      out.push_back(g.input(0));
      return success();
    }
    axes.emplace();
    for (int64_t d = 0; d < t.getRank(); ++d)
      axes->push_back(d);
  }
  std::vector<bool> seen(t.getRank(), false);
  for (int64_t &a : *axes) {
    a = normAxis(a, t.getRank());
    if (a < 0 || a >= t.getRank() || seen[a])
      return g.fail("axes out of range or repeated");
    seen[a] = true;
  }
  if (t.getNumElements() == 0) // The CPU lowering has no empty reduction.
    return g.unsupported("an empty input");
  Value x = g.input(0);
  bool floatOnly = op != "ReduceSum" && op != "ReduceMax" && op != "ReduceMin" &&
                   op != "ReduceMean" && op != "ReduceProd";
  if (floatOnly && failed(requireFloat(g, 0)))
    return failure();
  if (t.getElementType().isInteger(1))
    return g.unsupported("boolean input");
  Value y;
  if (op == "ReduceSum")
    y = reduce(g, "sum", x, *axes, keep);
  else if (op == "ReduceMean")
    y = reduce(g, "mean", x, *axes, keep);
  else if (op == "ReduceMax")
    y = reduce(g, "max", x, *axes, keep);
  else if (op == "ReduceMin")
    y = reduce(g, "min", x, *axes, keep);
  else if (op == "ReduceProd")
    y = reduce(g, "prod", x, *axes, keep);
  else if (op == "ReduceSumSquare")
    y = reduce(g, "sum", g.make<MulOp>(x, x), *axes, keep);
  else if (op == "ReduceL1")
    y = reduce(g, "sum", g.make<AbsOp>(x), *axes, keep);
  else if (op == "ReduceL2")
    y = g.make<SqrtOp>(reduce(g, "sum", g.make<MulOp>(x, x), *axes, keep));
  else if (op == "ReduceLogSum")
    y = g.make<LogOp>(reduce(g, "sum", x, *axes, keep));
  else { // ReduceLogSumExp, shifted by the maximum against overflow
    Value m = reduce(g, "max", x, *axes, true);
    Value s = reduce(g, "sum", g.make<ExpOp>(g.make<SubOp>(x, m)), *axes, true);
    y = g.make<AddOp>(g.make<LogOp>(s), m);
    FailureOr<Shape> shape = reduceShape(t.getShape(), *axes, keep, nullptr);
    y = g.reshape(y, *shape);
  }
  out.push_back(y);
  return success();
}

const llvm::StringMap<Converter> &converters() {
  static const llvm::StringMap<Converter> table = [] {
    llvm::StringMap<Converter> t;
    t["Add"] = binary<AddOp>();
    t["Sub"] = binary<SubOp>();
    t["Mul"] = binary<MulOp>();
    t["Div"] = binary<DivOp>();
    t["Mod"] = convertMod;
    t["Pow"] = convertPow;
    t["Max"] = variadic<MaxOp>();
    t["Min"] = variadic<MinOp>();
    t["Sum"] = variadic<AddOp>();
    t["Mean"] = convertMean;
    t["Neg"] = unary<NegOp>(false);
    t["Abs"] = unary<AbsOp>(false);
    t["Relu"] = unary<ReluOp>(false);
    t["Exp"] = unary<ExpOp>(true);
    t["Log"] = unary<LogOp>(true);
    t["Sqrt"] = unary<SqrtOp>(true);
    t["Tanh"] = unary<TanhOp>(true);
    t["Sigmoid"] = unary<SigmoidOp>(true);
    t["Erf"] = unary<ErfOp>(true);
    t["Sin"] = unary<SinOp>(true);
    t["Cos"] = unary<CosOp>(true);
    t["Tan"] = unary<TanOp>(true);
    t["Asin"] = unary<AsinOp>(true);
    t["Acos"] = unary<AcosOp>(true);
    t["Atan"] = unary<AtanOp>(true);
    t["Sinh"] = unary<SinhOp>(true);
    t["Cosh"] = unary<CoshOp>(true);
    t["Asinh"] = unary<AsinhOp>(true);
    t["Acosh"] = unary<AcoshOp>(true);
    t["Atanh"] = unary<AtanhOp>(true);
    t["Ceil"] = unary<CeilOp>(true);
    t["Floor"] = unary<FloorOp>(true);
    t["Round"] = unary<RoundOp>(true);
    t["Sign"] = unary<SignOp>(false);
    t["Reciprocal"] = convertReciprocal;
    t["LeakyRelu"] = convertLeakyRelu;
    t["PRelu"] = convertPRelu;
    t["Clip"] = convertClip;
    t["HardSigmoid"] = convertHardSigmoid;
    t["HardSwish"] = convertHardSwish;
    t["Elu"] = convertElu;
    t["Selu"] = convertSelu;
    t["Celu"] = convertCelu;
    t["Softplus"] = convertSoftplus;
    t["BitShift"] = convertBitShift;
    t["Mish"] = convertMish;
    t["Softsign"] = convertSoftsign;
    t["Gelu"] = convertGelu;
    t["MatMul"] = convertMatMul;
    t["Gemm"] = convertGemm;
    t["Conv"] = convertConv;
    t["MaxPool"] = convertPool;
    t["AveragePool"] = convertPool;
    t["GlobalAveragePool"] = convertGlobalPool;
    t["GlobalMaxPool"] = convertGlobalPool;
    t["BatchNormalization"] = convertBatchNorm;
    t["LayerNormalization"] = convertLayerNorm;
    t["Softmax"] = convertSoftmax;
    t["LogSoftmax"] = convertSoftmax;
    for (const char *r : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare",
                          "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp"})
      t[r] = convertReduce;
    addShapeConverters(t);
    addLossConverters(t);
    addResizeConverters(t);
    addConvTransposeConverters(t);
    addEinsumConverters(t);
    addNormConverters(t);
    addGatherNDConverters(t);
    addRecurrentConverters(t);
    addControlFlowConverters(t);
    t["Identity"] = passThrough;
    t["Dropout"] = passThrough;
    return t;
  }();
  return table;
}
} // namespace

bool dlc::onnx_import::isSupportedOpType(llvm::StringRef opType) {
  return converters().count(opType) != 0;
}

LogicalResult dlc::onnx_import::convertNode(GraphImporter &g, SmallVectorImpl<Value> &outputs) {
  auto it = converters().find(g.node->op_type());
  if (it == converters().end())
    return g.unsupported();
  for (size_t i = 0; i < g.numInputs(); ++i)
    if (g.has(i) && !g.input(i))
      return g.fail("input '" + g.node->input(i) + "' is not defined");
  return it->second(g, outputs);
}
