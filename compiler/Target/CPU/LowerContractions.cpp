//===- LowerContractions.cpp - matmul, linear and conv2d to linalg --------===//
//
// A contraction accumulates into a filled accumulator of its `accumulator`
// type, else the compute type (f32 for f16/bf16 operands; named ops extend
// their inputs in the body);
// bias and the final rounding are separate elementwise generics that
// linalg-fuse-elementwise-ops merges with whatever follows:
//
//   %y = dlc.linear %x, %w, %b : (tensor<2x3x8xf16>, tensor<5x8xf16>, tensor<5xf16>)
//        -> tensor<2x3x5xf16>
// becomes
//   %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x8xf16> into tensor<6x8xf16>
//   %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<6x5xf32>)
//   %acc = linalg.matmul_transpose_b ins(%x2, %w : ...) outs(%z : tensor<6x5xf32>)
//   %r = linalg.generic {(d0, d1) -> (d0, d1), (d0, d1) -> (d1), ...}
//        ins(%acc, %b) ... { truncf(acc + extf(b)) } -> tensor<6x5xf16>
//   %y = tensor.expand_shape %r [[0, 1], [2]] : tensor<6x5xf16> into tensor<2x3x5xf16>
//
// matmul: linalg.matmul for rank 2, otherwise one linalg.matmul per batch
// element in loops over the (broadcasting) batch dims. conv2d: tensor.pad, then
// linalg.conv_2d_nchw_fchw (groups = 1), an elementwise generic with the taps
// unrolled (depthwise: groups = channels = filters), or
// linalg.conv_2d_ngchw_gfchw on grouped views.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace dlc {
namespace {

/// Rounds an accumulator to `type`, adding `bias` (a [C] tensor broadcast
/// along `biasDim`) first when there is one. Returns `acc` unchanged when
/// there is nothing to do.
Value finishAccumulator(OpBuilder &b, Location loc, Value acc, Value bias,
                        int64_t biasDim, RankedTensorType type) {
  if (!bias && cast<RankedTensorType>(acc.getType()) == type)
    return acc;
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<Value> inputs = {acc};
  if (bias) {
    maps.push_back(AffineMap::get(rank, 0, getAffineDimExpr(biasDim, ctx)));
    inputs.push_back(bias);
  }
  Type elem = type.getElementType();
  return buildElementwise(b, loc, inputs, maps, type,
                          [&](OpBuilder &nb, Location nloc, ValueRange args) {
                            Value v = args[0];
                            if (args.size() > 1) {
                              Value bv = toCompute(nb, nloc, args[1]);
                              v = isa<FloatType>(v.getType())
                                      ? nb.create<arith::AddFOp>(nloc, v, bv)
                                            .getResult()
                                      : nb.create<arith::AddIOp>(nloc, v, bv)
                                            .getResult();
                            }
                            return fromCompute(nb, nloc, v, elem);
                          });
}

/// The op's `accumulator` when it names one, else the compute type.
Type accumulatorType(Operation *op, Type elem) {
  if (auto acc = op->getAttrOfType<TypeAttr>("accumulator"))
    return acc.getValue();
  return computeType(elem);
}

struct MatmulLowering : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType(), accElem = accumulatorType(op, elem);
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    int64_t rank = type.getRank();
    // A batched result is filled one matrix at a time, inside its loop, so
    // that the fill fuses into the matmul's tiles like a 2-D one's.
    Value acc = rank == 2 ? filledTensor(rewriter, loc, type.getShape(), accElem, 0.0)
                          : emptyTensor(rewriter, loc, type.getShape(), accElem);
    if (rank == 2) {
      acc = rewriter
                .create<linalg::MatmulOp>(loc, acc.getType(),
                                          ValueRange{lhs, rhs}, ValueRange{acc})
                .getResult(0);
    } else {
      // One linalg.matmul per batch element, in loops over the batch dims, so
      // that each gets the register-tiled, vectorised matmul; an operand's
      // size-1 (or missing) batch dims broadcast.
      SmallVector<int64_t> batch(type.getShape().drop_back(2));
      int64_t batchRank = batch.size();
      int64_t m = type.getDimSize(rank - 2), n = type.getDimSize(rank - 1);
      Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
      Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
      SmallVector<Value> lbs(batchRank, zero), steps(batchRank, one), ubs;
      for (int64_t size : batch)
        ubs.push_back(rewriter.create<arith::ConstantIndexOp>(loc, size));
      // The 2-D matrix of `v` at batch position `ivs`, rank-reduced.
      auto matrix = [&](OpBuilder &b, Location l, Value v, ValueRange ivs) {
        auto vType = cast<RankedTensorType>(v.getType());
        int64_t vRank = vType.getRank(), vBatch = vRank - 2;
        SmallVector<OpFoldResult> offsets, sizes, strides(vRank, b.getIndexAttr(1));
        for (int64_t j = 0; j < vBatch; ++j) {
          int64_t i = j + (batchRank - vBatch);
          bool broadcast = vType.getDimSize(j) == 1 && batch[i] != 1;
          offsets.push_back(broadcast ? OpFoldResult(b.getIndexAttr(0))
                                      : OpFoldResult(ivs[i]));
          sizes.push_back(b.getIndexAttr(1));
        }
        for (int64_t j = vBatch; j < vRank; ++j) {
          offsets.push_back(b.getIndexAttr(0));
          sizes.push_back(b.getIndexAttr(vType.getDimSize(j)));
        }
        auto matrixType = RankedTensorType::get(vType.getShape().take_back(2),
                                                vType.getElementType());
        // Through a transpose that keeps the last dim (attention's heads,
        // [B, T, H, D] -> [B, H, T, D], PartitionKernels puts it in this
        // kernel): the matrix is a strided slice of its input, which the
        // tiles read in place; the transpose then never runs.
        if (auto t = v.getDefiningOp<linalg::TransposeOp>();
            t && t.getPermutation().back() == vRank - 1) {
          ArrayRef<int64_t> perm = t.getPermutation();
          SmallVector<OpFoldResult> inOffsets(vRank), inSizes(vRank);
          for (int64_t j = 0; j < vRank; ++j) {
            inOffsets[perm[j]] = offsets[j];
            inSizes[perm[j]] = sizes[j];
          }
          return b.create<tensor::ExtractSliceOp>(l, matrixType, t.getInput(), inOffsets,
                                                  inSizes, strides);
        }
        return b.create<tensor::ExtractSliceOp>(l, matrixType, v, offsets, sizes,
                                                strides);
      };
      scf::LoopNest nest = scf::buildLoopNest(
          rewriter, loc, lbs, ubs, steps, ValueRange{acc},
          [&](OpBuilder &b, Location l, ValueRange ivs,
              ValueRange iterArgs) -> scf::ValueVector {
            Value accAll = iterArgs[0];
            auto accType = cast<RankedTensorType>(accAll.getType());
            SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
            SmallVector<OpFoldResult> sizes(batchRank, b.getIndexAttr(1));
            offsets.append({b.getIndexAttr(0), b.getIndexAttr(0)});
            sizes.append({b.getIndexAttr(m), b.getIndexAttr(n)});
            SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
            auto tileType = RankedTensorType::get({m, n}, accType.getElementType());
            Value tile = b.create<tensor::ExtractSliceOp>(l, tileType, accAll,
                                                          offsets, sizes, strides);
            tile = b.create<linalg::FillOp>(
                        l, scalarConstant(b, l, accType.getElementType(), 0.0), tile)
                       .getResult(0);
            Value product =
                b.create<linalg::MatmulOp>(
                     l, TypeRange{tileType},
                     ValueRange{matrix(b, l, lhs, ivs), matrix(b, l, rhs, ivs)},
                     ValueRange{tile})
                    .getResult(0);
            return {b.create<tensor::InsertSliceOp>(l, product, accAll, offsets,
                                                    sizes, strides)};
          });
      acc = nest.results.front();
    }
    rewriter.replaceOp(op, finishAccumulator(rewriter, loc, acc, nullptr, 0,
                                             type));
    return success();
  }
};

struct LinearLowering : OpConversionPattern<LinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    Type elem = type.getElementType();
    int64_t k = inType.getShape().back(), n = type.getShape().back();
    int64_t rows = inType.getNumElements() / std::max<int64_t>(k, 1);
    if (k == 0) // No elements to count rows from.
      rows = type.getNumElements() / std::max<int64_t>(n, 1);
    Value x = reshapeTo(rewriter, loc, adaptor.getInput(),
                        RankedTensorType::get({rows, k}, elem));
    Value acc =
        filledTensor(rewriter, loc, {rows, n}, accumulatorType(op, elem), 0.0);
    acc = rewriter
              .create<linalg::MatmulTransposeBOp>(
                  loc, acc.getType(), ValueRange{x, adaptor.getWeight()},
                  ValueRange{acc})
              .getResult(0);
    Value y = finishAccumulator(rewriter, loc, acc, adaptor.getBias(), 1,
                                RankedTensorType::get({rows, n}, elem));
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, type));
    return success();
  }
};

struct Conv2dLowering : OpConversionPattern<Conv2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType(), accElem = accumulatorType(op, elem);
    ArrayRef<int64_t> pads = op.getPads();
    int64_t groups = static_cast<int64_t>(op.getGroups());
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    auto inType = cast<RankedTensorType>(input.getType());
    auto fType = cast<RankedTensorType>(filter.getType());
    ArrayRef<int64_t> fShape = fType.getShape(), out = type.getShape();
    int64_t taps = fShape[2] * fShape[3];
    bool depthwise = groups > 1 && groups == inType.getDimSize(1) && fShape[0] == groups &&
                     fShape[1] == 1 && taps <= 49 && isa<FloatType>(elem);
    input = padSpatial(rewriter, loc, input, pads, 0.0);
    inType = cast<RankedTensorType>(input.getType());
    auto strides = rewriter.getI64TensorAttr(op.getStrides());
    auto dilations = rewriter.getI64TensorAttr(op.getDilations());
    Value acc, bias = adaptor.getBias();
    if (depthwise) {
      // Depthwise (MobileNet): every output is a KHxKW dot product of its own
      // channel, so the taps are unrolled into one elementwise body over
      // (n, c, oh, ow). Tap (i, j) reads a strided view of the padded input,
      // x[:, :, i*d + s*oh, j*d + s*ow], and the scalar w[c, 0, i, j]; the
      // innermost loop runs along ow with unit (or stride-s) loads, which LLVM
      // vectorises, and the bias and activation that follow fuse into the same
      // loop nest. (As a grouped convolution the tap loops were innermost:
      // 3 scalar iterations.) VectorizeRows reads the taps' rows from the
      // unpadded image where it can. Short rows once ran on a flattened
      // padded copy instead (the padded-width grid): 192ch 28x28 55 us against
      // 27 us on rows, 960ch 7x7 36 against 20, for the copies both ways.
      MLIRContext *ctx = rewriter.getContext();
      auto index = [&](int64_t v) -> OpFoldResult { return rewriter.getIndexAttr(v); };
      auto weightType = RankedTensorType::get({groups}, elem);
      SmallVector<Value> inputs = windowTaps(rewriter, loc, input, out, fShape.drop_front(2),
                                             op.getStrides(), op.getDilations());
      SmallVector<AffineMap> maps(inputs.size(), rewriter.getMultiDimIdentityMap(4));
      for (int64_t i = 0; i < fShape[2]; ++i)
        for (int64_t j = 0; j < fShape[3]; ++j) {
          inputs.push_back(rewriter.create<tensor::ExtractSliceOp>(
              loc, weightType, filter,
              ArrayRef<OpFoldResult>{index(0), index(0), index(i), index(j)},
              ArrayRef<OpFoldResult>{index(groups), index(1), index(1), index(1)},
              ArrayRef<OpFoldResult>{index(1), index(1), index(1), index(1)}));
          maps.push_back(AffineMap::get(4, 0, getAffineDimExpr(1, ctx)));
        }
      acc = buildElementwise(
          rewriter, loc, inputs, maps,
          RankedTensorType::get(out, accElem),
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            // One multiply-add chain per filter row, then the rows added: a
            // single chain of KH*KW dependent FMAs kept the FMA units idle
            // waiting on each other's latency.
            SmallVector<Value> rows;
            for (int64_t i = 0; i < fShape[2]; ++i) {
              Value sum;
              for (int64_t j = 0; j < fShape[3]; ++j) {
                int64_t t = i * fShape[3] + j;
                Value x = toCompute(b, l, args[t]), w = toCompute(b, l, args[taps + t]);
                if (x.getType() != accElem)
                  x = b.create<arith::ExtFOp>(l, accElem, x);
                if (w.getType() != accElem)
                  w = b.create<arith::ExtFOp>(l, accElem, w);
                sum = sum ? b.create<math::FmaOp>(l, x, w, sum).getResult()
                          : b.create<arith::MulFOp>(l, x, w).getResult();
              }
              rows.push_back(sum);
            }
            // Pairwise, so the additions are a tree too.
            return dlc::addPairwise(b, l, rows);
          });
    } else if (groups == 1) {
      acc = filledTensor(rewriter, loc, out, accElem, 0.0);
      acc = rewriter
                .create<linalg::Conv2DNchwFchwOp>(
                    loc, acc.getType(), ValueRange{input, filter},
                    ValueRange{acc}, strides, dilations)
                .getResult(0);
    } else {
      // [N, G*C, H, W] x [G*F, C, KH, KW] -> [N, G*F, OH, OW] on grouped views.
      ArrayRef<int64_t> in = inType.getShape(), f = fType.getShape();
      auto view = [&](Value v, ArrayRef<int64_t> shape) {
        return reshapeTo(rewriter, loc, v, RankedTensorType::get(shape, elem));
      };
      Value gin = view(input, {in[0], groups, in[1] / groups, in[2], in[3]});
      Value gf = view(filter, {groups, f[0] / groups, f[1], f[2], f[3]});
      acc = filledTensor(rewriter, loc,
                         {out[0], groups, out[1] / groups, out[2], out[3]},
                         accElem, 0.0);
      acc = rewriter
                .create<linalg::Conv2DNgchwGfchwOp>(
                    loc, acc.getType(), ValueRange{gin, gf}, ValueRange{acc},
                    strides, dilations)
                .getResult(0);
      acc = reshapeTo(rewriter, loc, acc,
                      RankedTensorType::get(out, accElem));
    }
    rewriter.replaceOp(op, finishAccumulator(rewriter, loc, acc, bias, 1, type));
    return success();
  }
};

} // namespace

void populateContractionPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulLowering, LinearLowering, Conv2dLowering>(
      patterns.getContext());
}

} // namespace dlc
