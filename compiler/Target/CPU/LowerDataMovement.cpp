//===- LowerDataMovement.cpp - transpose, reshape, concat, slice, gather --===//
//
// Data movement becomes tensor ops that bufferization can often turn into
// views, or linalg.transpose:
//
//   %s = dlc.slice %x {starts = array<i64: 0, 2>, ends = array<i64: 4, 8>,
//                      steps = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<4x3xf32>
// becomes
//   %s = tensor.extract_slice %x[0, 2] [4, 3] [1, 2] : tensor<4x8xf32> to tensor<4x3xf32>
//
// reshape: tensor.collapse_shape / tensor.expand_shape; concat: tensor.empty
// and one tensor.insert_slice per input (more than 16 inputs: a concat of
// concats); split: tensor.extract_slice per
// result; gather: a generic over the result that reads `data` with
// tensor.extract at a wrapped (idx < 0 ? idx + dim : idx) and clamped index,
// so the generated code never reads out of bounds.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "dialects/dlc/DlcOps.h"

using namespace mlir;

namespace dlc {
namespace {

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  SmallVector<OpFoldResult> out;
  for (int64_t v : values)
    out.push_back(b.getIndexAttr(v));
  return out;
}

struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value init = emptyTensor(rewriter, op.getLoc(), type.getShape(),
                             type.getElementType());
    auto t = rewriter.create<linalg::TransposeOp>(
        op.getLoc(), adaptor.getInput(), init, op.getPerm());
    rewriter.replaceOp(op, t.getResult());
    return success();
  }
};

struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), adaptor.getInput(),
                                     cast<RankedTensorType>(op.getType())));
    return success();
  }
};

/// Inputs one chain of insert_slices takes: bufferization's in-place
/// analysis of a chain grows about cubically with its length (an unrolled
/// 200-step LSTM's output, one concat of 200 steps, took 24 s in
/// EmptyTensorElimination and 24 s more in bufferization), so longer concats
/// are built as concats of at most this many pieces, recursively.
constexpr size_t kMaxInsertChain = 16;

/// `inputs` joined along `axis` into a new tensor of `type`'s element type.
Value concatPieces(OpBuilder &b, Location loc, ValueRange inputs, int64_t axis, Type element) {
  if (inputs.size() > kMaxInsertChain) {
    SmallVector<Value> groups;
    size_t per = (inputs.size() + kMaxInsertChain - 1) / kMaxInsertChain;
    for (size_t i = 0; i < inputs.size(); i += per)
      groups.push_back(concatPieces(b, loc, inputs.slice(i, std::min(per, inputs.size() - i)), axis,
                                    element));
    return concatPieces(b, loc, groups, axis, element);
  }
  auto first = cast<RankedTensorType>(inputs.front().getType());
  SmallVector<int64_t> shape = llvm::to_vector(first.getShape());
  shape[axis] = 0;
  for (Value in : inputs)
    shape[axis] += cast<RankedTensorType>(in.getType()).getDimSize(axis);
  Value result = emptyTensor(b, loc, shape, element);
  SmallVector<int64_t> offsets(shape.size(), 0), strides(shape.size(), 1);
  for (Value in : inputs) {
    auto inType = cast<RankedTensorType>(in.getType());
    result = b.create<tensor::InsertSliceOp>(loc, in, result, indexAttrs(b, offsets),
                                             indexAttrs(b, inType.getShape()), indexAttrs(b, strides));
    offsets[axis] += inType.getDimSize(axis);
  }
  return result;
}

struct ConcatLowering : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis = normalizedAxis(static_cast<int64_t>(op.getAxis()), type.getRank());
    rewriter.replaceOp(op, concatPieces(rewriter, op.getLoc(), adaptor.getInputs(), axis,
                                        type.getElementType()));
    return success();
  }
};

struct SliceLowering : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, adaptor.getInput(), indexAttrs(rewriter, op.getStarts()),
        indexAttrs(rewriter, type.getShape()),
        indexAttrs(rewriter, op.getSteps()));
    return success();
  }
};

struct SplitLowering : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t rank = inType.getRank();
    int64_t axis = normalizedAxis(static_cast<int64_t>(op.getAxis()), rank);
    SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
    SmallVector<Value> parts;
    for (Type t : op.getResultTypes()) {
      auto type = cast<RankedTensorType>(t);
      parts.push_back(rewriter.create<tensor::ExtractSliceOp>(
          op.getLoc(), type, adaptor.getInput(), indexAttrs(rewriter, offsets),
          indexAttrs(rewriter, type.getShape()),
          indexAttrs(rewriter, strides)));
      offsets[axis] += type.getDimSize(axis);
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

/// A gather index as an `index`: negative counts from the end of `dim`, and
/// one out of range is clamped (the interpreter refuses it).
Value clampedIndex(OpBuilder &b, Location l, Value i, int64_t dim) {
  Type it = i.getType();
  auto cst = [&](int64_t v) { return scalarConstant(b, l, it, v); };
  Value neg = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, cst(0));
  i = b.create<arith::SelectOp>(l, neg, b.create<arith::AddIOp>(l, i, cst(dim)), i);
  i = b.create<arith::MaxSIOp>(l, i, cst(0));
  i = b.create<arith::MinSIOp>(l, i, cst(std::max<int64_t>(dim - 1, 0)));
  return b.create<arith::IndexCastOp>(l, b.getIndexType(), i);
}

struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto idxType = cast<RankedTensorType>(indices.getType());
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis = normalizedAxis(static_cast<int64_t>(op.getAxis()),
                                  dataType.getRank());
    int64_t idxRank = idxType.getRank(), dim = dataType.getDimSize(axis);
    // Result dims [axis, axis + idxRank) walk the indices.
    SmallVector<AffineExpr> idxExprs;
    for (int64_t i = 0; i < idxRank; ++i)
      idxExprs.push_back(getAffineDimExpr(axis + i, ctx));
    AffineMap idxMap = AffineMap::get(type.getRank(), 0, idxExprs, ctx);
    Value result = buildElementwise(
        rewriter, op.getLoc(), {indices}, {idxMap}, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value at = clampedIndex(b, l, args[0], dim);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < axis; ++d)
            coords.push_back(b.create<linalg::IndexOp>(l, d));
          coords.push_back(at);
          for (int64_t d = axis + 1; d < dataType.getRank(); ++d)
            coords.push_back(b.create<linalg::IndexOp>(l, d - 1 + idxRank));
          return b.create<tensor::ExtractOp>(l, data, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// result[c] = data[c with c[axis] = indices[c]], the index normalised and
/// clamped as the gather's.
struct GatherElementsLowering : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    int64_t axis = normalizedAxis(static_cast<int64_t>(op.getAxis()), rank);
    int64_t dim = dataType.getDimSize(axis);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext());
    Value result = buildElementwise(
        rewriter, op.getLoc(), {indices}, {identity}, type,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value at = clampedIndex(b, l, args[0], dim);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d)
            coords.push_back(d == axis ? at : b.create<linalg::IndexOp>(l, d).getResult());
          return b.create<tensor::ExtractOp>(l, data, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(RewritePatternSet &patterns) {
  patterns.add<TransposeLowering, ReshapeLowering, ConcatLowering,
               SliceLowering, SplitLowering, GatherLowering, GatherElementsLowering>(
      patterns.getContext());
}

} // namespace dlc
