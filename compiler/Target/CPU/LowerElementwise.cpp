//===- LowerElementwise.cpp - elementwise dlc ops to linalg.generic -------===//
//
// Every elementwise op becomes one all-parallel linalg.generic whose maps are
// identities or NumPy broadcasts (constant-0 exprs for size-1 dims), so that
// linalg-fuse-elementwise-ops merges chains into one loop nest:
//
//   %y = dlc.add %a, %row : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
// becomes
//   %e = tensor.empty() : tensor<4x8xf16>
//   %y = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1),
//                                         (d0, d1) -> (d0, d1)], parallel x2}
//       ins(%a, %row : ...) outs(%e : tensor<4x8xf16>) {
//   ^bb0(%x: f16, %r: f16, %o: f16):
//     %xf = arith.extf %x : f16 to f32        // f16/bf16 compute in f32
//     %rf = arith.extf %r : f16 to f32
//     %s = arith.addf %xf, %rf : f32
//     %t = arith.truncf %s : f32 to f16       // rounded once
//     linalg.yield %t : f16
//   }
//
// Also here: constant (arith.constant), copy (its input) and cast.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/MathExpansions.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace dlc {
namespace {

RankedTensorType resultTensorType(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType());
}

/// Float, signed and unsigned integer bodies of one binary op, on
/// compute-type scalars (unsigned ones are still typed ui8..ui64 here: the
/// pass erases the signedness after choosing the ops).
template <typename DlcOp> struct BinaryKernel;
#define DLC_BINARY(OP, FLOAT, INT, UINT)                                       \
  template <> struct BinaryKernel<OP> {                                        \
    static Value build(OpBuilder &b, Location loc, Value l, Value r) {         \
      if (isa<FloatType>(l.getType()))                                         \
        return b.create<FLOAT>(loc, l, r);                                     \
      if (l.getType().isUnsignedInteger())                                     \
        return b.create<UINT>(loc, l, r);                                      \
      return b.create<INT>(loc, l, r);                                         \
    }                                                                          \
  };
DLC_BINARY(AddOp, arith::AddFOp, arith::AddIOp, arith::AddIOp)
DLC_BINARY(SubOp, arith::SubFOp, arith::SubIOp, arith::SubIOp)
DLC_BINARY(MulOp, arith::MulFOp, arith::MulIOp, arith::MulIOp)
DLC_BINARY(DivOp, arith::DivFOp, arith::DivSIOp, arith::DivUIOp)
DLC_BINARY(MaxOp, arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp)
DLC_BINARY(MinOp, arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp)
DLC_BINARY(RemOp, arith::RemFOp, arith::RemSIOp, arith::RemUIOp)
#undef DLC_BINARY

/// x^y; integers by math.ipowi (a negative exponent gives 0 unless |x| is 1).
template <> struct BinaryKernel<PowOp> {
  static Value build(OpBuilder &b, Location loc, Value l, Value r) {
    if (isa<FloatType>(l.getType()))
      return b.create<math::PowFOp>(loc, l, r);
    return b.create<math::IPowIOp>(loc, l, r);
  }
};

/// Floored: the truncated remainder, plus rhs where it is not 0 and its sign
/// differs from rhs's (unsigned: the remainder itself).
template <> struct BinaryKernel<ModOp> {
  static Value build(OpBuilder &b, Location loc, Value l, Value r) {
    Value rem = BinaryKernel<RemOp>::build(b, loc, l, r);
    if (l.getType().isUnsignedInteger())
      return rem;
    Value zero = scalarConstant(b, loc, l.getType(), 0);
    Value nonzero, remNegative, rhsNegative, sum;
    if (isa<FloatType>(l.getType())) {
      nonzero = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::ONE, rem, zero);
      remNegative = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, rem, zero);
      rhsNegative = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, r, zero);
      sum = b.create<arith::AddFOp>(loc, rem, r);
    } else {
      nonzero = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, rem, zero);
      remNegative = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, rem, zero);
      rhsNegative = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, r, zero);
      sum = b.create<arith::AddIOp>(loc, rem, r);
    }
    Value differ = b.create<arith::XOrIOp>(loc, remNegative, rhsNegative);
    Value adjust = b.create<arith::AndIOp>(loc, nonzero, differ);
    return b.create<arith::SelectOp>(loc, adjust, sum, rem);
  }
};

/// Shifts: LLVM's shl/lshr/ashr are poison from the width on, so the amount
/// is compared (unsigned, so a negative one counts as large) and the result
/// chosen: 0, or for an arithmetic right shift the amount clamped to
/// width - 1 (the sign).
Value shiftBy(OpBuilder &b, Location loc, Value l, Value r, bool left) {
  Type t = l.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  Value lastBit = scalarConstant(b, loc, t, width - 1);
  Value inRange = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ule, r, lastBit);
  Value zero = scalarConstant(b, loc, t, 0);
  if (left)
    return b.create<arith::SelectOp>(loc, inRange, b.create<arith::ShLIOp>(loc, l, r), zero);
  if (t.isUnsignedInteger())
    return b.create<arith::SelectOp>(loc, inRange, b.create<arith::ShRUIOp>(loc, l, r), zero);
  Value amount = b.create<arith::SelectOp>(loc, inRange, r, lastBit);
  return b.create<arith::ShRSIOp>(loc, l, amount);
}
template <> struct BinaryKernel<ShiftLeftOp> {
  static Value build(OpBuilder &b, Location loc, Value l, Value r) {
    return shiftBy(b, loc, l, r, /*left=*/true);
  }
};
template <> struct BinaryKernel<ShiftRightOp> {
  static Value build(OpBuilder &b, Location loc, Value l, Value r) {
    return shiftBy(b, loc, l, r, /*left=*/false);
  }
};

template <typename DlcOp>
struct BinaryLowering : OpConversionPattern<DlcOp> {
  using OpConversionPattern<DlcOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DlcOp op, typename DlcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultTensorType(op);
    Type elem = type.getElementType();
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getLhs(), adaptor.getRhs()}, type,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value l = toCompute(b, loc, args[0]);
          Value r = toCompute(b, loc, args[1]);
          Value v = BinaryKernel<DlcOp>::build(b, loc, l, r);
          return fromCompute(b, loc, v, elem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// dlc.compare: arith.cmpf (ordered, except une for ne, as NumPy) or
/// arith.cmpi (signed; i1 and u8..u64 compare unsigned) on compute-type scalars.
struct CompareLowering : OpConversionPattern<CompareOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef p = op.getPredicate();
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getLhs(), adaptor.getRhs()},
        resultTensorType(op), [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value l = toCompute(b, loc, args[0]);
          Value r = toCompute(b, loc, args[1]);
          if (isa<FloatType>(l.getType())) {
            auto pred = llvm::StringSwitch<arith::CmpFPredicate>(p)
                            .Case("eq", arith::CmpFPredicate::OEQ)
                            .Case("ne", arith::CmpFPredicate::UNE)
                            .Case("lt", arith::CmpFPredicate::OLT)
                            .Case("le", arith::CmpFPredicate::OLE)
                            .Case("gt", arith::CmpFPredicate::OGT)
                            .Default(arith::CmpFPredicate::OGE);
            return b.create<arith::CmpFOp>(loc, pred, l, r);
          }
          bool u = l.getType().isInteger(1) || l.getType().isUnsignedInteger();
          auto pred = llvm::StringSwitch<arith::CmpIPredicate>(p)
                          .Case("eq", arith::CmpIPredicate::eq)
                          .Case("ne", arith::CmpIPredicate::ne)
                          .Case("lt", u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt)
                          .Case("le", u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle)
                          .Case("gt", u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                          .Default(u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge);
          return b.create<arith::CmpIOp>(loc, pred, l, r);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// dlc.select: arith.select on the stored scalars (no rounding involved).
struct SelectLowering : OpConversionPattern<SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = buildElementwise(
        rewriter, op.getLoc(),
        {adaptor.getCondition(), adaptor.getTrueValue(), adaptor.getFalseValue()},
        resultTensorType(op), [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          return b.create<arith::SelectOp>(loc, args[0], args[1], args[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// exp(t) for f32 t in [-87, 88] (clamped), from 2^n * e^r with
/// n = round(t / ln 2), r = t - n ln 2 (|r| <= ln 2 / 2, ln 2 in two parts)
/// and e^r by its Taylor polynomial of degree 6 (relative error ~1e-7, an
/// ulp): 13 arithmetic ops, no division, where math.exp's approximation
/// costs a division of its own. n is rounded by adding 1.5 * 2^23 + 127:
/// the sum's ulp is 1, so the FMA rounds t / ln 2 to an integer, and the
/// sum's low mantissa bits hold n + 127 (the exponent bias), which shifted
/// left by 23 are 2^n's bits (the sum's own exponent and leading bit shift
/// out). That saves a floor and a float-to-int conversion, 4 of the 16
/// micro-ops on AVX-512 (EfficientNet's SiLU runs it on every activation).
Value clampedExpF32(OpBuilder &b, Location loc, Value t) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto cst = [&](double v) { return scalarConstant(b, loc, f32, v); };
  constexpr double kRoundAndBias = 12582912.0 + 127.0;  // 1.5 * 2^23 + 127
  t = b.create<arith::MinNumFOp>(loc, b.create<arith::MaxNumFOp>(loc, t, cst(-87.0)), cst(88.0));
  Value roundAndBias = cst(kRoundAndBias);
  Value shifted = b.create<math::FmaOp>(loc, t, cst(1.4426950408889634), roundAndBias);
  Value n = b.create<arith::SubFOp>(loc, shifted, roundAndBias);
  Value r = b.create<math::FmaOp>(loc, n, cst(-0.693145751953125), t);
  r = b.create<math::FmaOp>(loc, n, cst(-1.428606765330187e-06), r);
  Value p = cst(1.0 / 720);
  for (double c : {1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0})
    p = b.create<math::FmaOp>(loc, p, r, cst(c));
  Value bits = b.create<arith::ShLIOp>(loc, b.create<arith::BitcastOp>(loc, i32, shifted),
                                       b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(23)));
  return b.create<arith::MulFOp>(loc, p, b.create<arith::BitcastOp>(loc, f32, bits));
}

/// sigmoid(x) = 1 / (1 + exp(-x)) for f32 (EfficientNet's SiLU and
/// squeeze-and-excitation run it on every activation): exp from
/// clampedExpF32 (exp(-x) is 0 or huge outside the clamp, where 1 / (1 + e)
/// is already 1 or ~0); NaN stays NaN. The division stays exact: as a
/// reciprocal estimate and a Newton step (`arcp`; rcp14 on AVX-512), 1.5 of
/// EfficientNet-B0's 10% went faster, but an ulp off moved a GRU's output
/// that cancels to ~1e-7 past ONNX's tolerance (test_gru_seq_length).
Value sigmoidF32(OpBuilder &b, Location loc, Value x) {
  Value one = scalarConstant(b, loc, x.getType(), 1.0);
  Value e = clampedExpF32(b, loc, b.create<arith::NegFOp>(loc, x));
  Value s = b.create<arith::DivFOp>(loc, one, b.create<arith::AddFOp>(loc, one, e));
  Value isNan = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, x, x);
  return b.create<arith::SelectOp>(loc, isNan, x, s);
}

/// The body of a unary op on a compute-type scalar.
Value unaryKernel(Operation *op, OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  bool isFloat = isa<FloatType>(t);
  bool isUnsigned = t.isUnsignedInteger();
  auto cst = [&](double v) { return scalarConstant(b, loc, t, v); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](NegOp) -> Value {
        if (isFloat)
          return b.create<arith::NegFOp>(loc, x);
        return b.create<arith::SubIOp>(loc, cst(0), x);
      })
      .Case([&](AbsOp) -> Value {
        if (isFloat)
          return b.create<math::AbsFOp>(loc, x);
        return isUnsigned ? x : b.create<math::AbsIOp>(loc, x).getResult();
      })
      .Case([&](ExpOp) { return b.create<math::ExpOp>(loc, x); })
      .Case([&](LogOp) { return b.create<math::LogOp>(loc, x); })
      .Case([&](SqrtOp) { return b.create<math::SqrtOp>(loc, x); })
      .Case([&](RsqrtOp) { return b.create<math::RsqrtOp>(loc, x); })
      .Case([&](TanhOp) { return b.create<math::TanhOp>(loc, x); })
      .Case([&](ErfOp) { return b.create<math::ErfOp>(loc, x); })
      .Case([&](SinOp) { return b.create<math::SinOp>(loc, x); })
      .Case([&](CosOp) { return b.create<math::CosOp>(loc, x); })
      .Case([&](AtanOp) { return b.create<math::AtanOp>(loc, x); })
      .Case<TanOp, AsinOp, AcosOp, SinhOp, CoshOp, AsinhOp, AcoshOp, AtanhOp>(
          [&](Operation *op) {
            return dlc::expandMathFunction(b, loc, op->getName().stripDialect(), x);
          })
      .Case([&](CeilOp) { return b.create<math::CeilOp>(loc, x); })
      .Case([&](FloorOp) { return b.create<math::FloorOp>(loc, x); })
      .Case([&](RoundOp) { return b.create<math::RoundEvenOp>(loc, x); })
      .Case([&](SignOp) -> Value {
        // x > 0: 1, x < 0: -1, else x (zero, or NaN, stays).
        Value pos, neg;
        if (isFloat) {
          pos = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x, cst(0.0));
          neg = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, cst(0.0));
        } else if (isUnsigned) {
          Value nonzero = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x, cst(0));
          return b.create<arith::SelectOp>(loc, nonzero, cst(1), x);
        } else {
          pos = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, x, cst(0));
          neg = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, cst(0));
        }
        return b.create<arith::SelectOp>(
            loc, pos, cst(1), b.create<arith::SelectOp>(loc, neg, cst(-1), x));
      })
      .Case([&](SigmoidOp) -> Value {
        if (t.isF32())
          return sigmoidF32(b, loc, x);
        // 1 / (1 + exp(-x))
        Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, x));
        return b.create<arith::DivFOp>(
            loc, cst(1.0), b.create<arith::AddFOp>(loc, cst(1.0), e));
      })
      .Case([&](ReluOp) -> Value {
        // max(x, 0); NaN stays NaN like the reference.
        if (isFloat)
          return b.create<arith::MaximumFOp>(loc, x, cst(0.0));
        return isUnsigned ? x : b.create<arith::MaxSIOp>(loc, x, cst(0)).getResult();
      })
      .Case([&](GeluOp gelu) -> Value {
        Value half = b.create<arith::MulFOp>(loc, cst(0.5), x);
        Value inner;
        if (gelu.getTanhApproximation()) {
          // tanh(sqrt(2/pi) (x + 0.044715 x^3))
          Value x3 = b.create<arith::MulFOp>(
              loc, x, b.create<arith::MulFOp>(loc, x, x));
          Value poly = b.create<arith::AddFOp>(
              loc, x, b.create<arith::MulFOp>(loc, cst(0.044715), x3));
          inner = b.create<math::TanhOp>(
              loc, b.create<arith::MulFOp>(
                       loc, cst(std::sqrt(2.0 / 3.14159265358979323846)), poly));
        } else {
          // erf(x / sqrt(2)), the division as a product (a divide costs
          // several cycles a vector; the two differ by at most an ulp)
          inner = b.create<math::ErfOp>(
              loc, b.create<arith::MulFOp>(loc, x, cst(1.0 / std::sqrt(2.0))));
        }
        return b.create<arith::MulFOp>(
            loc, half, b.create<arith::AddFOp>(loc, cst(1.0), inner));
      })
      .Case([&](ClipOp clip) -> Value {
        double lo = clip.getMin().convertToDouble();
        double hi = clip.getMax().convertToDouble();
        if (isFloat) { // NaN propagates through maximumf/minimumf.
          Value loV = cst(lo), hiV = cst(hi);
          Value v = b.create<arith::MaximumFOp>(loc, x, loV);
          return b.create<arith::MinimumFOp>(loc, v, hiV);
        }
        // Integers: v < min ? trunc(min) : v > max ? trunc(max) : v, with the
        // bounds saturated to the type's range.
        unsigned width = t.getIntOrFloatBitWidth();
        double tmin = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
        double tmax = std::ldexp(1.0, width - !isUnsigned) - 1;
        auto sat = [&](double v) { return std::min(std::max(v, tmin), tmax); };
        // A constant of the bound: exact even where a double is not (2^64-1).
        auto bound = [&](double v) -> Value {
          if (v == tmax && width == 64)
            return b.create<arith::ConstantOp>(
                loc, b.getIntegerAttr(t, isUnsigned ? llvm::APInt::getMaxValue(64)
                                                    : llvm::APInt::getSignedMaxValue(64)));
          return cst(v);
        };
        Value loV = bound(sat(std::trunc(lo))), hiV = bound(sat(std::trunc(hi)));
        Value below = b.create<arith::CmpIOp>(
            loc, isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, x,
            bound(sat(std::ceil(lo))));
        Value above = b.create<arith::CmpIOp>(
            loc, isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt, x,
            bound(sat(std::floor(hi))));
        Value v = b.create<arith::SelectOp>(loc, above, hiV, x);
        return b.create<arith::SelectOp>(loc, below, loV, v);
      })
      .Default([](Operation *) -> Value { return nullptr; });
}

template <typename DlcOp>
struct UnaryLowering : OpConversionPattern<DlcOp> {
  using OpConversionPattern<DlcOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DlcOp op, typename DlcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultTensorType(op);
    Type elem = type.getElementType();
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, type,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value v = unaryKernel(op, b, loc, toCompute(b, loc, args[0]));
          return fromCompute(b, loc, v, elem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// One scalar conversion of dlc.cast.
Value castScalar(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) { // x != 0
    if (isa<FloatType>(from))
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, x,
                                     scalarConstant(b, loc, from, 0.0));
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x,
                                   scalarConstant(b, loc, from, 0));
  }
  if (from.isInteger(1)) { // 0 or 1
    if (isa<FloatType>(to))
      return b.create<arith::UIToFPOp>(loc, to, x);
    return b.create<arith::ExtUIOp>(loc, to, x);
  }
  auto fromF = dyn_cast<FloatType>(from), toF = dyn_cast<FloatType>(to);
  if (fromF && toF) {
    // f16 <-> bf16 goes through f32 (exact), then one rounding.
    Value wide = toCompute(b, loc, x);
    unsigned wideWidth = wide.getType().getIntOrFloatBitWidth();
    if (wide.getType() == to)
      return wide;
    if (toF.getWidth() < wideWidth)
      return b.create<arith::TruncFOp>(loc, to, wide);
    return b.create<arith::ExtFOp>(loc, to, wide);
  }
  if (fromF) {
    // Truncates toward zero into i64, then wraps to the narrower type like
    // the reference; u64 takes values from 2^63 through fptoui.
    Value wide = toCompute(b, loc, x);
    Type i64 = to.isUnsignedInteger() ? b.getIntegerType(64, false) : b.getI64Type();
    Value i = b.create<arith::FPToSIOp>(loc, i64, wide);
    if (to.isUnsignedInteger(64)) {
      Value big = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGE, wide,
                                          scalarConstant(b, loc, wide.getType(), 0x1p63));
      i = b.create<arith::SelectOp>(loc, big, b.create<arith::FPToUIOp>(loc, i64, wide), i);
    }
    return to.isInteger(64) ? i : b.create<arith::TruncIOp>(loc, to, i).getResult();
  }
  if (toF) {
    Type wide = toF.getWidth() < 32 ? b.getF32Type() : to;
    Value f = from.isUnsignedInteger() ? b.create<arith::UIToFPOp>(loc, wide, x).getResult()
                                       : b.create<arith::SIToFPOp>(loc, wide, x).getResult();
    return fromCompute(b, loc, f, to);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth(), toWidth = to.getIntOrFloatBitWidth();
  if (toWidth < fromWidth)
    return b.create<arith::TruncIOp>(loc, to, x);
  if (toWidth == fromWidth) // Same bits, other signedness.
    return b.create<arith::BitcastOp>(loc, to, x);
  if (from.isUnsignedInteger())
    return b.create<arith::ExtUIOp>(loc, to, x);
  return b.create<arith::ExtSIOp>(loc, to, x);
}

struct CastLowering : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = resultTensorType(op);
    if (type == adaptor.getInput().getType()) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, type,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], type.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "constant value is not typed");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

/// On the host a copy is the identity; the device runtime moves the bytes.
struct CopyLowering : OpConversionPattern<CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BinaryLowering<AddOp>, BinaryLowering<SubOp>,
               BinaryLowering<MulOp>, BinaryLowering<DivOp>,
               BinaryLowering<PowOp>, BinaryLowering<MaxOp>,
               BinaryLowering<MinOp>, BinaryLowering<RemOp>, BinaryLowering<ModOp>,
               BinaryLowering<ShiftLeftOp>, BinaryLowering<ShiftRightOp>>(ctx);
  patterns.add<UnaryLowering<NegOp>, UnaryLowering<AbsOp>,
               UnaryLowering<ExpOp>, UnaryLowering<LogOp>,
               UnaryLowering<SqrtOp>, UnaryLowering<RsqrtOp>,
               UnaryLowering<TanhOp>, UnaryLowering<SigmoidOp>,
               UnaryLowering<ErfOp>, UnaryLowering<ReluOp>,
               UnaryLowering<GeluOp>, UnaryLowering<ClipOp>>(ctx);
  patterns.add<UnaryLowering<SinOp>, UnaryLowering<CosOp>, UnaryLowering<TanOp>,
               UnaryLowering<AsinOp>, UnaryLowering<AcosOp>, UnaryLowering<AtanOp>,
               UnaryLowering<SinhOp>, UnaryLowering<CoshOp>, UnaryLowering<AsinhOp>,
               UnaryLowering<AcoshOp>, UnaryLowering<AtanhOp>, UnaryLowering<CeilOp>,
               UnaryLowering<FloorOp>, UnaryLowering<RoundOp>, UnaryLowering<SignOp>>(ctx);
  patterns.add<CastLowering, ConstantLowering, CopyLowering, CompareLowering,
               SelectLowering>(ctx);
}

} // namespace dlc
