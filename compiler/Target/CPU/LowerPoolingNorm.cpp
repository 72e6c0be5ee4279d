//===- LowerPoolingNorm.cpp - pooling, normalisation, softmax, reductions -===//
//
// Reductions are linalg.generic ops with reduction iterators into a filled
// accumulator of the compute type (f32 for f16/bf16), without the reduced
// dims; whatever follows (mean, normalisation, rounding, keepdims) is an
// elementwise generic or a reshape:
//
//   %m = dlc.reduce_mean %x {axes = array<i64: 1>, keepdims = true}
//        : tensor<4x6xf16> -> tensor<4x1xf16>
// becomes
//   %z = linalg.fill ins(%cst0 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
//   %s = linalg.generic {(d0, d1) -> (d0, d1), (d0, d1) -> (d0); parallel, reduction}
//        ins(%x : tensor<4x6xf16>) outs(%z : tensor<4xf32>) { addf(acc, extf(x)) }
//   %r = linalg.generic {identity} ins(%s) outs(... tensor<4xf16>) { truncf(s / 6.0) }
//   %m = tensor.expand_shape %r [[0, 1]] : tensor<4xf16> into tensor<4x1xf16>
//
// softmax: max, exp(x - max), sum, divide. layer_norm: sum, then the sum of
// squared deviations from the mean (biased variance), then
// (x - mean) / sqrt(var + eps) * scale + bias. batch_norm: one elementwise
// generic. Pooling: tensor.pad (-inf for max, 0 for avg); max_pool maxes the
// window's taps (strided views, windowTaps) in one elementwise generic,
// avg_pool sums with linalg.pooling_nchw_sum and then divides by the window's
// count of non-padding elements, computed from linalg.index.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace dlc {
namespace {

using CombineFn = llvm::function_ref<Value(OpBuilder &, Location, ValueRange,
                                           Value)>;

/// A generic over `loopShape` reducing the dims marked in `reduced` into a
/// new accumulator of `accElem` filled with `init`. `combine` gets the input
/// block arguments and the accumulator and returns the new accumulator.
Value buildReduction(OpBuilder &b, Location loc, ValueRange inputs,
                     ArrayRef<AffineMap> inputMaps, ArrayRef<int64_t> loopShape,
                     ArrayRef<bool> reduced, Type accElem, double init,
                     CombineFn combine) {
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> accShape;
  SmallVector<AffineExpr> accExprs;
  SmallVector<utils::IteratorType> iterators;
  for (size_t i = 0; i < loopShape.size(); ++i) {
    iterators.push_back(reduced[i] ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
    if (!reduced[i]) {
      accShape.push_back(loopShape[i]);
      accExprs.push_back(getAffineDimExpr(i, ctx));
    }
  }
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::get(loopShape.size(), 0, accExprs, ctx));
  Value acc = filledTensor(b, loc, accShape, accElem, init);
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{acc.getType()}, inputs, ValueRange{acc}, maps,
          iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            nb.create<linalg::YieldOp>(
                nloc, combine(nb, nloc, args.drop_back(), args.back()));
          })
      .getResult(0);
}

/// The map from a loop nest of `rank` dims to the dims not in `reduced`.
AffineMap keptDimsMap(MLIRContext *ctx, ArrayRef<bool> reduced) {
  SmallVector<AffineExpr> exprs;
  for (size_t i = 0; i < reduced.size(); ++i)
    if (!reduced[i])
      exprs.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(reduced.size(), 0, exprs, ctx);
}

// Float combiners of reductions carry `reassoc`: without it LLVM keeps the
// sum (or max) over a row a serial chain, one element per add latency (softmax
// and layer norm were latency-bound); with it the loop vectoriser keeps 16-wide
// partial sums. The result differs from the serial order by rounding only.
Value addValues(OpBuilder &b, Location loc, Value l, Value r) {
  if (isa<FloatType>(l.getType()))
    return b.create<arith::AddFOp>(loc, l, r, arith::FastMathFlags::reassoc);
  return b.create<arith::AddIOp>(loc, l, r);
}

Value maxValues(OpBuilder &b, Location loc, Value l, Value r) {
  if (isa<FloatType>(l.getType()))
    return b.create<arith::MaximumFOp>(loc, l, r, arith::FastMathFlags::reassoc);
  if (l.getType().isUnsignedInteger())
    return b.create<arith::MaxUIOp>(loc, l, r);
  return b.create<arith::MaxSIOp>(loc, l, r);
}

double lowestValue(Type t) {
  if (isa<FloatType>(t))
    return -std::numeric_limits<double>::infinity();
  if (t.isUnsignedInteger())
    return 0;
  return -std::ldexp(1.0, t.getIntOrFloatBitWidth() - 1);
}

enum class Combine { Sum, Max, Prod };

/// The product; floats carry `reassoc` as the sums do.
Value mulValues(OpBuilder &b, Location loc, Value l, Value r) {
  if (isa<FloatType>(l.getType()))
    return b.create<arith::MulFOp>(loc, l, r, arith::FastMathFlags::reassoc);
  return b.create<arith::MulIOp>(loc, l, r);
}

/// Sum, max or product of `input` over the dims in `reduced`, in the
/// compute type.
Value reduceInput(OpBuilder &b, Location loc, Value input,
                  ArrayRef<bool> reduced, Combine combine) {
  auto type = cast<RankedTensorType>(input.getType());
  Type acc = computeType(type.getElementType());
  double init = combine == Combine::Max ? lowestValue(acc) : combine == Combine::Prod ? 1.0 : 0.0;
  return buildReduction(
      b, loc, {input}, {b.getMultiDimIdentityMap(type.getRank())},
      type.getShape(), reduced, acc, init,
      [&](OpBuilder &nb, Location nloc, ValueRange args, Value a) {
        Value v = toCompute(nb, nloc, args[0]);
        switch (combine) {
        case Combine::Max: return maxValues(nb, nloc, a, v);
        case Combine::Prod: return mulValues(nb, nloc, a, v);
        case Combine::Sum: break;
        }
        return addValues(nb, nloc, a, v);
      });
}

template <typename DlcOp>
struct ReduceLowering : OpConversionPattern<DlcOp> {
  using OpConversionPattern<DlcOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DlcOp op, typename DlcOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType();
    int64_t rank = inType.getRank();
    SmallVector<bool> reduced(rank, op.getAxes().empty());
    int64_t count = 1;
    for (int64_t axis : op.getAxes())
      reduced[normalizedAxis(axis, rank)] = true;
    SmallVector<int64_t> flatShape;
    for (int64_t i = 0; i < rank; ++i)
      reduced[i] ? (void)(count *= inType.getDimSize(i))
                 : flatShape.push_back(inType.getDimSize(i));
    constexpr bool isMean = std::is_same_v<DlcOp, ReduceMeanOp>;
    constexpr Combine combine = std::is_same_v<DlcOp, ReduceMaxOp>    ? Combine::Max
                                : std::is_same_v<DlcOp, ReduceProdOp> ? Combine::Prod
                                                                      : Combine::Sum;
    Value acc = reduceInput(rewriter, loc, adaptor.getInput(), reduced, combine);
    auto flatType = RankedTensorType::get(flatShape, elem);
    if (isMean || acc.getType() != flatType)
      acc = buildElementwise(
          rewriter, loc, {acc}, flatType,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value v = args[0];
            if (isMean) {
              Value n = scalarConstant(b, l, v.getType(), double(count));
              v = isa<FloatType>(v.getType())
                      ? b.create<arith::DivFOp>(l, v, n).getResult()
                  : v.getType().isUnsignedInteger() ? b.create<arith::DivUIOp>(l, v, n).getResult()
                                                    : b.create<arith::DivSIOp>(l, v, n).getResult();
            }
            return fromCompute(b, l, v, elem);
          });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, acc, type));
    return success();
  }
};

struct SoftmaxLowering : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    SmallVector<bool> reduced(rank, false);
    reduced[normalizedAxis(static_cast<int64_t>(op.getAxis()), rank)] = true;
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap kept = keptDimsMap(ctx, reduced);
    Value max = reduceInput(rewriter, loc, x, reduced, Combine::Max);
    auto f32Type = RankedTensorType::get(type.getShape(), computeType(type.getElementType()));
    Value e = buildElementwise(
        rewriter, loc, {x, max}, {id, kept}, f32Type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value d = b.create<arith::SubFOp>(l, toCompute(b, l, args[0]), args[1]);
          return b.create<math::ExpOp>(l, d);
        });
    Value sum = reduceInput(rewriter, loc, e, reduced, Combine::Sum);
    Type elem = type.getElementType();
    Value y = buildElementwise(
        rewriter, loc, {e, sum}, {id, kept}, type,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return fromCompute(b, l, b.create<arith::DivFOp>(l, args[0], args[1]),
                             elem);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct LayerNormLowering : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    int64_t axis = normalizedAxis(static_cast<int64_t>(op.getAxis()), rank);
    SmallVector<bool> reduced(rank, false);
    int64_t count = 1;
    for (int64_t i = axis; i < rank; ++i) {
      reduced[i] = true;
      count *= type.getDimSize(i);
    }
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap kept = keptDimsMap(ctx, reduced);
    // The trailing dims, read by scale and bias.
    SmallVector<AffineExpr> trailing;
    for (int64_t i = axis; i < rank; ++i)
      trailing.push_back(getAffineDimExpr(i, ctx));
    AffineMap paramMap = AffineMap::get(rank, 0, trailing, ctx);
    double n = static_cast<double>(count);
    Value sum = reduceInput(rewriter, loc, x, reduced, Combine::Sum);
    auto mean = [&](OpBuilder &b, Location l, Value s) {
      return b.create<arith::DivFOp>(l, s, scalarConstant(b, l, s.getType(), n));
    };
    Value sq = buildReduction(
        rewriter, loc, {x, sum}, {id, kept}, type.getShape(), reduced,
        computeType(type.getElementType()), 0.0,
        [&](OpBuilder &b, Location l, ValueRange args, Value acc) -> Value {
          Value d = b.create<arith::SubFOp>(l, toCompute(b, l, args[0]),
                                            mean(b, l, args[1]));
          return b.create<arith::AddFOp>(l, acc, b.create<arith::MulFOp>(l, d, d),
                                         arith::FastMathFlags::reassoc);
        });
    SmallVector<Value> inputs = {x, sum, sq, adaptor.getScale()};
    SmallVector<AffineMap> maps = {id, kept, kept, paramMap};
    if (Value bias = adaptor.getBias()) {
      inputs.push_back(bias);
      maps.push_back(paramMap);
    }
    double eps = op.getEpsilon().convertToDouble();
    Type elem = type.getElementType();
    Value y = buildElementwise(
        rewriter, loc, inputs, maps, type,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value var = b.create<arith::DivFOp>(
              l, args[2], scalarConstant(b, l, args[2].getType(), n));
          Value denom = b.create<math::SqrtOp>(
              l, b.create<arith::AddFOp>(
                     l, var, scalarConstant(b, l, var.getType(), eps)));
          Value v = b.create<arith::SubFOp>(l, toCompute(b, l, args[0]),
                                            mean(b, l, args[1]));
          v = b.create<arith::DivFOp>(l, v, denom);
          v = b.create<arith::MulFOp>(l, v, toCompute(b, l, args[3]));
          if (args.size() > 4)
            v = b.create<arith::AddFOp>(l, v, toCompute(b, l, args[4]));
          return fromCompute(b, l, v, elem);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

// Per channel first, s = scale / sqrt(var + eps) and t = bias - mean * s
// (f32 [C] nests, which FuseElementwise leaves unfused: a square root and a
// division), then y = x * s + t per element. Computed per element as
// (x - mean) / sqrt(var + eps) * scale + bias, LLVM vectorised the division
// with alias checks and a scalar remainder: a standalone batch norm (after
// DenseNet's concats, where none folds into a convolution) was ~1000 lines
// of LLVM IR per layer, and a division per element to run.
struct BatchNormLowering : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    Type elem = type.getElementType();
    Type ct = computeType(elem); // f16/bf16 in f32; f32 and f64 as they are
    auto perChannel = RankedTensorType::get({type.getDimSize(1)}, ct);
    double eps = op.getEpsilon().convertToDouble();
    Value scale = buildElementwise(
        rewriter, loc, {adaptor.getScale(), adaptor.getVariance()}, perChannel,
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value var = b.create<arith::AddFOp>(l, toCompute(b, l, a[1]),
                                              scalarConstant(b, l, ct, eps));
          return b.create<arith::DivFOp>(l, toCompute(b, l, a[0]),
                                         b.create<math::SqrtOp>(l, var));
        });
    Value shift = buildElementwise(
        rewriter, loc, {adaptor.getBias(), adaptor.getMean(), scale}, perChannel,
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value meanScaled = b.create<arith::MulFOp>(l, toCompute(b, l, a[1]), a[2]);
          return b.create<arith::SubFOp>(l, toCompute(b, l, a[0]), meanScaled);
        });
    AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(1, rewriter.getContext()));
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank), channel, channel};
    Value y = buildElementwise(
        rewriter, loc, {adaptor.getInput(), scale, shift}, maps, type,
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value v = b.create<arith::MulFOp>(l, toCompute(b, l, a[0]), a[1]);
          return fromCompute(b, l, b.create<arith::AddFOp>(l, v, a[2]), elem);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct MaxPoolLowering : OpConversionPattern<MaxPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType();
    double lowest = lowestValue(elem);
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), op.getPads(),
                             lowest);
    // The window's taps as strided views, maxed in one elementwise body
    // (a tree, so the maxima do not wait on each other): vectorised along ow,
    // where linalg.pooling_nchw_max ran its 3x3 window loops innermost.
    SmallVector<Value> taps = windowTaps(rewriter, loc, input, type.getShape(),
                                         op.getKernelShape(), op.getStrides(),
                                         op.getDilations());
    Value y = buildElementwise(
        rewriter, loc, taps,
        SmallVector<AffineMap>(taps.size(), rewriter.getMultiDimIdentityMap(4)), type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          // Floats: `a > b ? a : b` (one MAXPS on x86) and one NaN check of
          // the whole window at the end, so that a NaN still wins: arith's
          // maximumf (NaN and signed-zero exact) cost six instructions per
          // pair, and max pooling ran at a third of its loads' speed.
          bool isFloat = isa<FloatType>(elem);
          auto pairMax = [&](Value x, Value y) -> Value {
            if (!isFloat)
              return maxValues(b, l, x, y);
            Value greater = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGT, x, y);
            return b.create<arith::SelectOp>(l, greater, x, y);
          };
          auto tree = [&](SmallVector<Value> level, auto combine) {
            while (level.size() > 1) {
              SmallVector<Value> next;
              for (size_t i = 0; i + 1 < level.size(); i += 2)
                next.push_back(combine(level[i], level[i + 1]));
              if (level.size() % 2)
                next.push_back(level.back());
              level = std::move(next);
            }
            return level.front();
          };
          SmallVector<Value> taps(args.begin(), args.end());
          Value max = tree(taps, pairMax);
          if (!isFloat)
            return max;
          SmallVector<Value> unordered;
          for (size_t i = 0; i < taps.size(); i += 2)
            unordered.push_back(b.create<arith::CmpFOp>(
                l, arith::CmpFPredicate::UNO, taps[i], taps[std::min(i + 1, taps.size() - 1)]));
          Value anyNaN = tree(unordered, [&](Value x, Value y) -> Value {
            return b.create<arith::OrIOp>(l, x, y);
          });
          Value nan = b.create<arith::ConstantOp>(
              l, b.getFloatAttr(elem, APFloat::getQNaN(cast<FloatType>(elem).getFloatSemantics())));
          return b.create<arith::SelectOp>(l, anyNaN, nan, max);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct AvgPoolLowering : OpConversionPattern<AvgPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    Type elem = type.getElementType();
    ArrayRef<int64_t> pads = op.getPads(), kernel = op.getKernelShape(),
                      strides = op.getStrides();
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), pads, 0.0);
    Value window = emptyTensor(rewriter, loc, kernel, elem);
    Value sum = filledTensor(rewriter, loc, type.getShape(), computeType(elem),
                             0.0);
    sum = rewriter
              .create<linalg::PoolingNchwSumOp>(
                  loc, TypeRange{sum.getType()}, ValueRange{input, window},
                  ValueRange{sum}, rewriter.getI64TensorAttr(strides),
                  rewriter.getI64TensorAttr({1, 1}))
              .getResult(0);
    bool includePad = op.getCountIncludePad();
    Value y = buildElementwise(
        rewriter, loc, {sum}, type,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value count;
          if (includePad) {
            count = scalarConstant(b, l, computeType(elem),
                                   double(kernel[0] * kernel[1]));
          } else {
            // Per dim: min(o*s - pad + k, size) - max(o*s - pad, 0).
            auto idx = [&](int64_t v) {
              return b.create<arith::ConstantIndexOp>(l, v);
            };
            Value n = nullptr;
            for (int d = 0; d < 2; ++d) {
              Value o = b.create<linalg::IndexOp>(l, 2 + d);
              Value start = b.create<arith::SubIOp>(
                  l, b.create<arith::MulIOp>(l, o, idx(strides[d])),
                  idx(pads[d]));
              Value end = b.create<arith::MinSIOp>(
                  l, b.create<arith::AddIOp>(l, start, idx(kernel[d])),
                  idx(inType.getDimSize(2 + d)));
              Value len = b.create<arith::SubIOp>(
                  l, end, b.create<arith::MaxSIOp>(l, start, idx(0)));
              n = n ? b.create<arith::MulIOp>(l, n, len).getResult() : len;
            }
            Value n64 = b.create<arith::IndexCastOp>(l, b.getI64Type(), n);
            count = b.create<arith::SIToFPOp>(l, computeType(elem), n64);
          }
          Value v = b.create<arith::DivFOp>(l, toCompute(b, l, args[0]), count);
          return fromCompute(b, l, v, elem);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct GlobalAvgPoolLowering : OpConversionPattern<GlobalAvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GlobalAvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = inType.getRank(), count = 1;
    for (int64_t i = 2; i < rank; ++i)
      count *= inType.getDimSize(i);
    // The planes flattened (a view), so that the sum runs along one row per
    // channel (VectorizeRows vectorises it).
    Value input = adaptor.getInput();
    if (inType.hasStaticShape() && rank > 3)
      input = reshapeTo(rewriter, loc, input,
                        RankedTensorType::get({inType.getDimSize(0), inType.getDimSize(1), count},
                                              inType.getElementType()));
    int64_t flatRank = cast<RankedTensorType>(input.getType()).getRank();
    SmallVector<bool> reduced(flatRank, true);
    reduced[0] = reduced[1] = false;
    Value sum = reduceInput(rewriter, loc, input, reduced, Combine::Sum);
    Type elem = type.getElementType();
    auto flatType = RankedTensorType::get(
        {inType.getDimSize(0), inType.getDimSize(1)}, elem);
    Value mean = buildElementwise(
        rewriter, loc, {sum}, flatType,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = b.create<arith::DivFOp>(
              l, args[0], scalarConstant(b, l, args[0].getType(), double(count)));
          return fromCompute(b, l, v, elem);
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, mean, type));
    return success();
  }
};

} // namespace

void populatePoolingNormPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceLowering<ReduceSumOp>, ReduceLowering<ReduceMeanOp>,
               ReduceLowering<ReduceMaxOp>, ReduceLowering<ReduceProdOp>, SoftmaxLowering, LayerNormLowering,
               BatchNormLowering, MaxPoolLowering, AvgPoolLowering,
               GlobalAvgPoolLowering>(patterns.getContext());
}

} // namespace dlc
