//===- MathExpansions.cpp - elementwise functions as exp, log1p, atan, ... -===//

#include "compiler/Target/CPU/MathExpansions.h"
#include "compiler/Target/CPU/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace {

struct Expander {
  OpBuilder &b;
  Location loc;
  Type type;

  Value cst(double v) { return dlc::scalarConstant(b, loc, type, v); }
  Value add(Value x, Value y) { return b.create<arith::AddFOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.create<arith::SubFOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.create<arith::MulFOp>(loc, x, y); }
  Value div(Value x, Value y) { return b.create<arith::DivFOp>(loc, x, y); }
  Value abs(Value x) { return b.create<math::AbsFOp>(loc, x); }
  Value sqrt(Value x) { return b.create<math::SqrtOp>(loc, x); }
  Value exp(Value x) { return b.create<math::ExpOp>(loc, x); }
  Value log(Value x) { return b.create<math::LogOp>(loc, x); }
  Value log1p(Value x) { return b.create<math::Log1pOp>(loc, x); }
  Value atan(Value x) { return b.create<math::AtanOp>(loc, x); }
  Value less(Value x, Value y) {
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value select(Value c, Value x, Value y) { return b.create<arith::SelectOp>(loc, c, x, y); }
  /// |r| with x's sign (r >= 0 or NaN).
  Value withSignOf(Value r, Value x) { return b.create<math::CopySignOp>(loc, r, x); }

  // asin x = atan(x / sqrt((1 - x)(1 + x))): exact at +-1 (atan(+-inf)).
  Value asin(Value x) { return atan(div(x, sqrt(mul(sub(cst(1), x), add(cst(1), x))))); }
  // acos x = 2 atan(sqrt((1 - x) / (1 + x))): no cancellation near 1.
  Value acos(Value x) { return mul(cst(2), atan(sqrt(div(sub(cst(1), x), add(cst(1), x))))); }

  // sinh: its Taylor series below 1 (error below x^11 / 11!), (e - 1/e) / 2
  // above, where e^x - e^-x no longer cancels.
  Value sinh(Value x) {
    Value ax = abs(x), x2 = mul(x, x);
    Value p = cst(1);
    for (double d : {72.0, 42.0, 20.0, 6.0})
      p = add(cst(1), mul(div(x2, cst(d)), p));
    Value e = exp(ax);
    Value big = withSignOf(mul(cst(0.5), sub(e, div(cst(1), e))), x);
    return select(less(ax, cst(1)), mul(x, p), big);
  }
  Value cosh(Value x) {
    Value e = exp(abs(x));
    return mul(cst(0.5), add(e, div(cst(1), e)));
  }
  // asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))); beyond 2^28, where
  // x^2 + 1 is x^2, log |x| + log 2 (and x^2 would overflow).
  Value asinh(Value x) {
    Value ax = abs(x), x2 = mul(ax, ax);
    Value small = log1p(add(ax, div(x2, add(cst(1), sqrt(add(cst(1), x2))))));
    Value large = add(log(ax), cst(std::log(2.0)));
    return withSignOf(select(less(ax, cst(std::ldexp(1.0, 28))), small, large), x);
  }
  // acosh x = log1p((x - 1) + sqrt((x - 1)(x + 1))); NaN below 1.
  Value acosh(Value x) {
    Value t = sub(x, cst(1));
    Value small = log1p(add(t, sqrt(mul(t, add(x, cst(1))))));
    Value large = add(log(x), cst(std::log(2.0)));
    return select(less(x, cst(std::ldexp(1.0, 28))), small, large);
  }
  // atanh x = log1p(2x / (1 - x)) / 2: +-inf at +-1, NaN beyond.
  Value atanh(Value x) {
    return mul(cst(0.5), log1p(div(mul(cst(2), x), sub(cst(1), x))));
  }
};

} // namespace

Value dlc::expandMathFunction(OpBuilder &b, Location loc, StringRef kind, Value x) {
  Expander e{b, loc, x.getType()};
  if (kind == "tan")
    return e.div(b.create<math::SinOp>(loc, x), b.create<math::CosOp>(loc, x));
  if (kind == "asin")
    return e.asin(x);
  if (kind == "acos")
    return e.acos(x);
  if (kind == "sinh")
    return e.sinh(x);
  if (kind == "cosh")
    return e.cosh(x);
  if (kind == "asinh")
    return e.asinh(x);
  if (kind == "acosh")
    return e.acosh(x);
  if (kind == "atanh")
    return e.atanh(x);
  return nullptr;
}
