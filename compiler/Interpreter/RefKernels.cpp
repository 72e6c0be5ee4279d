//===- RefKernels.cpp - Shared checks and elementwise kernels -------------===//

#include "Interpreter/RefKernels.h"
#include "Interpreter/RefKernelsInternal.h"

#include <cmath>
#include <functional>
#include <limits>

namespace dlc::ref {

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace detail {

Status checkTensor(const char *op, const char *operand, const Tensor &t) {
  Status s = t.validate();
  if (!s.ok())
    return makeError(op, ": ", operand, ": ", s.message());
  return s;
}

Status checkFloat(const char *op, const char *operand, const Tensor &t) {
  if (!isFloat(t.dtype))
    return makeError(op, ": expected a float dtype for ", operand, ", got ",
                     dtypeName(t.dtype));
  return Status::success();
}

Status checkSameDType(const char *op, const char *aName, const Tensor &a,
                      const char *bName, const Tensor &b) {
  if (a.dtype != b.dtype)
    return makeError(op, ": ", bName, " dtype ", dtypeName(b.dtype),
                     " does not match ", aName, " dtype ", dtypeName(a.dtype));
  return Status::success();
}

Status checkShape(const char *op, const char *operand, const Tensor &t,
                  const std::vector<int64_t> &shape) {
  if (t.shape != shape)
    return makeError(op, ": expected ", operand, " shape ",
                     shapeToString(shape), ", got ", shapeToString(t.shape));
  return Status::success();
}

Status checkAttrSize(const char *op, const char *attr,
                     const std::vector<int64_t> &values, size_t size) {
  if (values.size() != size)
    return makeError(op, ": expected ", size, " values for ", attr, ", got ",
                     values.size());
  return Status::success();
}

Status normalizeAxis(const char *op, int64_t &axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return makeError(op, ": axis ", axis, " is out of range [", -rank, ", ",
                     rank, ") for rank ", rank);
  if (axis < 0)
    axis += rank;
  return Status::success();
}

Status checkOutputSize(const char *op, const std::vector<int64_t> &shape) {
  int64_t n = shapeNumElements(shape);
  if (n < 0 || n > kMaxOutputElements)
    return makeError(op, ": output shape ", shapeToString(shape),
                     " is too large");
  return Status::success();
}

void roundAll(Tensor &t) {
  for (double &v : t.data)
    v = roundTo(t.dtype, v);
}

} // namespace detail

using namespace detail;

//===----------------------------------------------------------------------===//
// Binary elementwise
//===----------------------------------------------------------------------===//

namespace detail {

std::optional<std::vector<int64_t>>
broadcastDims(const std::vector<int64_t> &lhs, const std::vector<int64_t> &rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right; a missing dim acts as 1.
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (l != r && l != 1 && r != 1)
      return std::nullopt;
    out[i] = l == 1 ? r : l;
  }
  return out;
}

} // namespace detail

Expected<std::vector<int64_t>> broadcastShapes(const char *opName,
                                               const std::vector<int64_t> &lhs,
                                               const std::vector<int64_t> &rhs) {
  std::optional<std::vector<int64_t>> out = broadcastDims(lhs, rhs);
  if (!out) {
    // Name the first incompatible output dim.
    size_t rank = std::max(lhs.size(), rhs.size());
    for (size_t i = 0; i < rank; ++i) {
      int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
      int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
      if (l != r && l != 1 && r != 1)
        return makeError(opName, ": cannot broadcast lhs shape ",
                         shapeToString(lhs), " with rhs shape ",
                         shapeToString(rhs), " (output dim ", i, ": ", l,
                         " vs ", r, ")");
    }
  }
  if (Status s = checkOutputSize(opName, *out); !s.ok())
    return s;
  return *out;
}

namespace {

/// Strides of `shape` viewed with `outShape` after broadcasting: 0 for a
/// broadcast (or missing) dim.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &shape,
                                      const std::vector<int64_t> &outShape) {
  std::vector<int64_t> strides = rowMajorStrides(shape);
  std::vector<int64_t> out(outShape.size(), 0);
  size_t off = outShape.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    out[off + i] = shape[i] == 1 ? 0 : strides[i];
  return out;
}

enum class BinOp { Add, Sub, Mul, Div, Pow, Max, Min, Rem, Mod, ShiftLeft, ShiftRight };

/// a mod b with the sign of b (Python's %), from the truncated remainder.
template <typename T> T flooredRemainder(T r, T b) {
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

double floatBinOp(BinOp op, double a, double b) {
  switch (op) {
  case BinOp::Add:
    return a + b;
  case BinOp::Sub:
    return a - b;
  case BinOp::Mul:
    return a * b;
  case BinOp::Div:
    return a / b;
  case BinOp::Pow:
    return std::pow(a, b);
  case BinOp::Max: // Propagate NaN like numpy.maximum.
    return std::isnan(a) || std::isnan(b) ? std::nan("") : std::max(a, b);
  case BinOp::Min:
    return std::isnan(a) || std::isnan(b) ? std::nan("") : std::min(a, b);
  case BinOp::Rem:
    return std::fmod(a, b);
  case BinOp::Mod:
    return flooredRemainder(std::fmod(a, b), b);
  case BinOp::ShiftLeft: case BinOp::ShiftRight:
    break; // integers only (the verifier's rule)
  }
  return 0.0;
}

/// Exact uint64 arithmetic (the unsigned types): division, remainders and
/// the order are unsigned; false on a division by zero.
bool unsignedBinOp(BinOp op, uint64_t a, uint64_t b, uint64_t &res) {
  switch (op) {
  case BinOp::ShiftLeft: case BinOp::ShiftRight:
    return false; // shiftResult
  case BinOp::Add: res = a + b; return true;
  case BinOp::Sub: res = a - b; return true;
  case BinOp::Mul: res = a * b; return true;
  case BinOp::Max: res = std::max(a, b); return true;
  case BinOp::Min: res = std::min(a, b); return true;
  case BinOp::Pow:
    res = 1;
    for (uint64_t e = b, base = a; e; e >>= 1, base *= base)
      if (e & 1)
        res *= base;
    return true;
  case BinOp::Div: case BinOp::Rem: case BinOp::Mod:
    if (b == 0)
      return false;
    res = op == BinOp::Div ? a / b : a % b;
    return true;
  }
  return false;
}

/// Exact int64 arithmetic with two's complement wrap; false on a division by
/// zero or a negative power.
bool intBinOp(BinOp op, int64_t a, int64_t b, int64_t &res) {
  auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
  case BinOp::ShiftLeft: case BinOp::ShiftRight:
    return false; // shiftResult
  case BinOp::Add:
    res = static_cast<int64_t>(ua + ub);
    return true;
  case BinOp::Sub:
    res = static_cast<int64_t>(ua - ub);
    return true;
  case BinOp::Mul:
    res = static_cast<int64_t>(ua * ub);
    return true;
  case BinOp::Div:
    if (b == 0)
      return false;
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      res = a; // Wraps.
    else
      res = a / b; // C++ truncates toward zero.
    return true;
  case BinOp::Pow: {
    if (b < 0)
      return false;
    uint64_t r = 1, base = ua;
    for (uint64_t e = ub; e; e >>= 1, base *= base)
      if (e & 1)
        r *= base;
    res = static_cast<int64_t>(r);
    return true;
  }
  case BinOp::Max:
    res = std::max(a, b);
    return true;
  case BinOp::Min:
    res = std::min(a, b);
    return true;
  case BinOp::Rem:
  case BinOp::Mod:
    if (b == 0)
      return false;
    res = b == -1 ? 0 : a % b; // INT64_MIN % -1 overflows in C++.
    if (op == BinOp::Mod)
      res = flooredRemainder(res, b);
    return true;
  }
  return false;
}

/// Wraps an exact 64-bit result to the integer dtype before going to
/// double, so results of up to 32 bits are exact.
double intResult(DType type, uint64_t v) {
  int bits = integerBits(type);
  if (type == DType::I1)
    return v != 0 ? 1.0 : 0.0;
  if (bits == 64)
    return isUnsigned(type) ? static_cast<double>(v) : static_cast<double>(static_cast<int64_t>(v));
  uint64_t low = v & ((uint64_t(1) << bits) - 1);
  return roundTo(type, static_cast<double>(low)); // exact: < 2^32, wrapped to the sign
}

/// An element of an unsigned type as the uint64 it holds.
uint64_t toUint64(double x) {
  return x >= 0x1p64 ? UINT64_MAX : x <= 0 ? 0 : static_cast<uint64_t>(x);
}

/// `a` shifted by `b` bits in `type`: the amount read as unsigned, so a
/// negative one is as large as any; past the width, 0 or (a right shift of
/// a signed value) the sign.
double shiftResult(DType type, bool left, double a, double b) {
  int bits = integerBits(type);
  uint64_t amount = b < 0 ? UINT64_MAX : toUint64(b);
  uint64_t value = isUnsigned(type) ? toUint64(a) : static_cast<uint64_t>(toInt64(a));
  if (left)
    return intResult(type, amount >= uint64_t(bits) ? 0 : value << amount);
  if (isUnsigned(type))
    return intResult(type, amount >= uint64_t(bits) ? 0 : value >> amount);
  int64_t shift = static_cast<int64_t>(std::min<uint64_t>(amount, bits - 1));
  return intResult(type, static_cast<uint64_t>(toInt64(a) >> shift));
}

Expected<Tensor> binary(const char *name, BinOp op, const Tensor &lhs,
                        const Tensor &rhs) {
  for (const Status &s :
       {checkTensor(name, "lhs", lhs), checkTensor(name, "rhs", rhs),
        checkSameDType(name, "lhs", lhs, "rhs", rhs)})
    if (!s.ok())
      return s;
  auto shape = broadcastShapes(name, lhs.shape, rhs.shape);
  if (!shape.ok())
    return shape.status();
  Tensor out = Tensor::zeros(lhs.dtype, *shape);
  std::vector<int64_t> ls = broadcastStrides(lhs.shape, *shape);
  std::vector<int64_t> rs = broadcastStrides(rhs.shape, *shape);
  size_t rank = shape->size();
  std::vector<int64_t> idx(rank, 0);
  int64_t lo = 0, ro = 0;
  bool isInt = isInteger(lhs.dtype);
  for (size_t i = 0; i < out.data.size(); ++i) {
    double a = lhs.data[lo], b = rhs.data[ro];
    if (op == BinOp::ShiftLeft || op == BinOp::ShiftRight) {
      if (!isInt)
        return makeError(name, ": shifts take integers, not ", dtypeName(lhs.dtype));
      out.data[i] = shiftResult(lhs.dtype, op == BinOp::ShiftLeft, a, b);
    } else if (isInt) {
      int64_t r;
      uint64_t u;
      bool ok = isUnsigned(lhs.dtype) ? unsignedBinOp(op, toUint64(a), toUint64(b), u)
                                      : intBinOp(op, toInt64(a), toInt64(b), r);
      if (!isUnsigned(lhs.dtype))
        u = static_cast<uint64_t>(r);
      if (!ok)
        return op == BinOp::Div || op == BinOp::Rem || op == BinOp::Mod
                   ? makeError(name, ": integer division by zero at output "
                                     "element ",
                               i)
                   : makeError(name, ": negative integer exponent ",
                               toInt64(b), " at output element ", i);
      out.data[i] = intResult(lhs.dtype, u);
    } else {
      out.data[i] = roundTo(lhs.dtype, floatBinOp(op, a, b));
    }
    // Advance the multi-index, keeping both input offsets in step.
    for (size_t d = rank; d-- > 0;) {
      lo += ls[d];
      ro += rs[d];
      if (++idx[d] < (*shape)[d])
        break;
      lo -= ls[d] * idx[d];
      ro -= rs[d] * idx[d];
      idx[d] = 0;
    }
  }
  return out;
}

} // namespace

namespace detail {
std::optional<Reduction> parseReduction(const std::string &name) {
  if (name == "none") return Reduction::None;
  if (name == "add") return Reduction::Add;
  if (name == "mul") return Reduction::Mul;
  if (name == "max") return Reduction::Max;
  if (name == "min") return Reduction::Min;
  return std::nullopt;
}

double combineElement(Reduction reduction, DType type, double acc, double update) {
  if (reduction == Reduction::None)
    return update;
  BinOp op = reduction == Reduction::Add   ? BinOp::Add
             : reduction == Reduction::Mul ? BinOp::Mul
             : reduction == Reduction::Max ? BinOp::Max
                                           : BinOp::Min;
  if (!isInteger(type))
    return roundTo(type, floatBinOp(op, acc, update));
  uint64_t u = 0;
  if (isUnsigned(type)) {
    unsignedBinOp(op, toUint64(acc), toUint64(update), u); // cannot fail: no division
  } else {
    int64_t r = 0;
    intBinOp(op, toInt64(acc), toInt64(update), r);
    u = static_cast<uint64_t>(r);
  }
  return intResult(type, u);
}
} // namespace detail

Expected<Tensor> add(const Tensor &lhs, const Tensor &rhs) {
  return binary("add", BinOp::Add, lhs, rhs);
}
Expected<Tensor> sub(const Tensor &lhs, const Tensor &rhs) {
  return binary("sub", BinOp::Sub, lhs, rhs);
}
Expected<Tensor> mul(const Tensor &lhs, const Tensor &rhs) {
  return binary("mul", BinOp::Mul, lhs, rhs);
}
Expected<Tensor> div(const Tensor &lhs, const Tensor &rhs) {
  return binary("div", BinOp::Div, lhs, rhs);
}
Expected<Tensor> pow(const Tensor &lhs, const Tensor &rhs) {
  return binary("pow", BinOp::Pow, lhs, rhs);
}
Expected<Tensor> rem(const Tensor &lhs, const Tensor &rhs) {
  return binary("rem", BinOp::Rem, lhs, rhs);
}
Expected<Tensor> mod(const Tensor &lhs, const Tensor &rhs) {
  return binary("mod", BinOp::Mod, lhs, rhs);
}
Expected<Tensor> shift_left(const Tensor &lhs, const Tensor &rhs) {
  return binary("shift_left", BinOp::ShiftLeft, lhs, rhs);
}
Expected<Tensor> shift_right(const Tensor &lhs, const Tensor &rhs) {
  return binary("shift_right", BinOp::ShiftRight, lhs, rhs);
}
Expected<Tensor> max(const Tensor &lhs, const Tensor &rhs) {
  return binary("max", BinOp::Max, lhs, rhs);
}
Expected<Tensor> min(const Tensor &lhs, const Tensor &rhs) {
  return binary("min", BinOp::Min, lhs, rhs);
}

namespace {
/// Offset of output element `index` (row-major in `shape`) in `t` broadcast
/// to `shape`.
int64_t broadcastOffset(const Tensor &t, const std::vector<int64_t> &shape,
                        int64_t index) {
  int64_t offset = 0, stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1, td = t.rank() - 1; d >= 0;
       --d, --td) {
    int64_t coord = index % shape[d];
    index /= shape[d];
    if (td < 0)
      continue;
    if (t.shape[td] != 1)
      offset += coord * stride;
    stride *= t.shape[td];
  }
  return offset;
}
} // namespace

Expected<Tensor> compare(const std::string &predicate, const Tensor &lhs,
                         const Tensor &rhs) {
  for (const Status &s :
       {checkTensor("compare", "lhs", lhs), checkTensor("compare", "rhs", rhs),
        checkSameDType("compare", "lhs", lhs, "rhs", rhs)})
    if (!s.ok())
      return s;
  int p = -1;
  for (int i = 0; const char *name : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    if (predicate == name)
      p = i;
    ++i;
  }
  if (p < 0)
    return makeError("compare: unknown predicate '", predicate,
                     "' (expected eq, ne, lt, le, gt or ge)");
  auto shape = broadcastShapes("compare", lhs.shape, rhs.shape);
  if (!shape.ok())
    return shape.status();
  Tensor out = Tensor::zeros(DType::I1, *shape);
  for (int64_t i = 0, n = out.numElements(); i < n; ++i) {
    double a = lhs.data[broadcastOffset(lhs, *shape, i)];
    double b = rhs.data[broadcastOffset(rhs, *shape, i)];
    bool r;
    switch (p) {
    case 0: r = a == b; break;
    case 1: r = a != b; break;
    case 2: r = a < b; break;
    case 3: r = a <= b; break;
    case 4: r = a > b; break;
    default: r = a >= b; break;
    }
    out.data[i] = r ? 1.0 : 0.0;
  }
  return out;
}

Expected<Tensor> select(const Tensor &condition, const Tensor &trueValue,
                        const Tensor &falseValue) {
  for (const Status &s :
       {checkTensor("select", "condition", condition),
        checkTensor("select", "true_value", trueValue),
        checkTensor("select", "false_value", falseValue),
        checkSameDType("select", "true_value", trueValue, "false_value", falseValue)})
    if (!s.ok())
      return s;
  if (condition.dtype != DType::I1)
    return makeError("select: condition must be i1, got ", dtypeName(condition.dtype));
  auto shape = broadcastShapes("select", condition.shape, trueValue.shape);
  if (!shape.ok())
    return shape.status();
  shape = broadcastShapes("select", *shape, falseValue.shape);
  if (!shape.ok())
    return shape.status();
  Tensor out = Tensor::zeros(trueValue.dtype, *shape);
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    out.data[i] = condition.data[broadcastOffset(condition, *shape, i)] != 0
                      ? trueValue.data[broadcastOffset(trueValue, *shape, i)]
                      : falseValue.data[broadcastOffset(falseValue, *shape, i)];
  return out;
}

//===----------------------------------------------------------------------===//
// Unary elementwise
//===----------------------------------------------------------------------===//

namespace {

Expected<Tensor> unary(const char *name, bool floatOnly, const Tensor &x,
                       const std::function<double(double)> &fn) {
  if (Status s = checkTensor(name, "operand", x); !s.ok())
    return s;
  if (floatOnly)
    if (Status s = checkFloat(name, "operand", x); !s.ok())
      return s;
  Tensor out = x;
  for (double &v : out.data)
    v = roundTo(x.dtype, fn(v));
  return out;
}

} // namespace

Expected<Tensor> neg(const Tensor &x) {
  return unary("neg", false, x, [](double v) { return -v; });
}
Expected<Tensor> abs(const Tensor &x) {
  return unary("abs", false, x, [](double v) { return std::fabs(v); });
}
Expected<Tensor> exp(const Tensor &x) {
  return unary("exp", true, x, [](double v) { return std::exp(v); });
}
Expected<Tensor> log(const Tensor &x) {
  return unary("log", true, x, [](double v) { return std::log(v); });
}
Expected<Tensor> sqrt(const Tensor &x) {
  return unary("sqrt", true, x, [](double v) { return std::sqrt(v); });
}
Expected<Tensor> rsqrt(const Tensor &x) {
  return unary("rsqrt", true, x,
               [](double v) { return 1.0 / std::sqrt(v); });
}
Expected<Tensor> tanh(const Tensor &x) {
  return unary("tanh", true, x, [](double v) { return std::tanh(v); });
}
Expected<Tensor> sigmoid(const Tensor &x) {
  return unary("sigmoid", true, x,
               [](double v) { return 1.0 / (1.0 + std::exp(-v)); });
}
Expected<Tensor> unaryFunction(std::string_view name, const Tensor &x) {
  using Fn = double (*)(double);
  static const std::pair<const char *, Fn> kFunctions[] = {
      {"sin", [](double v) { return std::sin(v); }},
      {"cos", [](double v) { return std::cos(v); }},
      {"tan", [](double v) { return std::tan(v); }},
      {"asin", [](double v) { return std::asin(v); }},
      {"acos", [](double v) { return std::acos(v); }},
      {"atan", [](double v) { return std::atan(v); }},
      {"sinh", [](double v) { return std::sinh(v); }},
      {"cosh", [](double v) { return std::cosh(v); }},
      {"asinh", [](double v) { return std::asinh(v); }},
      {"acosh", [](double v) { return std::acosh(v); }},
      {"atanh", [](double v) { return std::atanh(v); }},
      {"ceil", [](double v) { return std::ceil(v); }},
      {"floor", [](double v) { return std::floor(v); }},
      {"round", [](double v) { return std::nearbyint(v); }}, // ties to even (the default mode)
  };
  if (name == "sign")
    return unary("sign", false, x, [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; });
  for (const auto &[known, fn] : kFunctions)
    if (name == known)
      return unary(known, true, x, fn);
  return makeError("no elementwise function '", std::string(name), "'");
}

Expected<Tensor> erf(const Tensor &x) {
  return unary("erf", true, x, [](double v) { return std::erf(v); });
}
Expected<Tensor> relu(const Tensor &x) {
  // NaN stays NaN, like torch.relu.
  return unary("relu", false, x,
               [](double v) { return std::isnan(v) || v > 0 ? v : 0.0; });
}

Expected<Tensor> gelu(const Tensor &x, bool approximateTanh) {
  if (approximateTanh)
    return unary("gelu", true, x, [](double v) {
      const double k = std::sqrt(2.0 / 3.14159265358979323846);
      return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
    });
  return unary("gelu", true, x, [](double v) {
    return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
  });
}

Expected<Tensor> clip(const Tensor &x, double min, double max) {
  if (!(min <= max))
    return makeError("clip: min ", min, " is greater than max ", max);
  if (int bits = integerBits(x.dtype); bits > 1) {
    // Integers clip to bounds saturated to the type: a bound beyond its
    // range is no bound.
    double lowest = isUnsigned(x.dtype) ? 0.0 : -std::ldexp(1.0, bits - 1);
    double highest = std::ldexp(1.0, bits - !isUnsigned(x.dtype)) - 1;
    min = std::min(std::max(min, lowest), highest);
    max = std::min(std::max(max, lowest), highest);
  }
  return unary("clip", false, x, [=](double v) {
    if (std::isnan(v))
      return v;
    return v < min ? min : (v > max ? max : v);
  });
}

} // namespace dlc::ref
