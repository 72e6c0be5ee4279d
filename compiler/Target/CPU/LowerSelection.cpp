//===- LowerSelection.cpp - scatter_elements and top_k as scf loops ---------===//
//
// Two ops whose results are not one function of each element: both become
// sequential scf.for loops over tensors (iter_args), which bufferization
// turns into in-place loops over one buffer.
//
// scatter_elements: the result starts as the data; one loop nest over the
// updates in row-major order combines each update into the element its index
// names, so a later duplicate wins (or combines after an earlier one) as in
// the reference interpreter. An index outside [-dim, dim) writes nothing.
//
// top_k: per row along the axis, an insertion into the k best seen so far
// (O(n k) per row, no sort of the whole row): the element's place is the
// number of kept elements it does not beat, so ties keep the lower index
// first; NaN beats every number.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace dlc {
namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return b.create<arith::ConstantIndexOp>(loc, v);
}

/// `acc` combined with `update` by the scatter's reduction, in the element
/// type's arithmetic (f16/bf16 through f32, one rounding).
Value combine(OpBuilder &b, Location loc, StringRef reduction, Value acc, Value update) {
  if (reduction == "none")
    return update;
  Type t = acc.getType();
  if (isa<FloatType>(t)) {
    Value a = toCompute(b, loc, acc), u = toCompute(b, loc, update), r;
    if (reduction == "add")
      r = b.create<arith::AddFOp>(loc, a, u);
    else if (reduction == "mul")
      r = b.create<arith::MulFOp>(loc, a, u);
    else if (reduction == "max")
      r = b.create<arith::MaximumFOp>(loc, a, u);
    else
      r = b.create<arith::MinimumFOp>(loc, a, u);
    return fromCompute(b, loc, r, t);
  }
  bool isUnsigned = t.isUnsignedInteger();
  if (reduction == "add")
    return b.create<arith::AddIOp>(loc, acc, update);
  if (reduction == "mul")
    return b.create<arith::MulIOp>(loc, acc, update);
  if (reduction == "max")
    return isUnsigned ? b.create<arith::MaxUIOp>(loc, acc, update).getResult()
                      : b.create<arith::MaxSIOp>(loc, acc, update).getResult();
  return isUnsigned ? b.create<arith::MinUIOp>(loc, acc, update).getResult()
                    : b.create<arith::MinSIOp>(loc, acc, update).getResult();
}

struct ScatterElementsLowering : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData(), indices = adaptor.getIndices(), updates = adaptor.getUpdates();
    ArrayRef<int64_t> updateShape = cast<RankedTensorType>(updates.getType()).getShape();
    ArrayRef<int64_t> indexShape = cast<RankedTensorType>(indices.getType()).getShape();
    int64_t rank = updateShape.size();
    int64_t axis = normalizedAxis(static_cast<int64_t>(op.getAxis()), rank);
    int64_t dim = cast<RankedTensorType>(data.getType()).getDimSize(axis);
    StringRef reduction = op.getReduction();
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d = 0; d < rank; ++d) {
      lbs.push_back(indexConstant(rewriter, loc, 0));
      ubs.push_back(indexConstant(rewriter, loc, updateShape[d]));
      steps.push_back(indexConstant(rewriter, loc, 1));
    }
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{data},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange acc) -> scf::ValueVector {
          SmallVector<Value> indexAt;
          for (int64_t d = 0; d < rank; ++d)
            indexAt.push_back(indexShape[d] == 1 ? indexConstant(b, l, 0) : ivs[d]);
          Value i = b.create<tensor::ExtractOp>(l, indices, indexAt);
          i = b.create<arith::IndexCastOp>(l, b.getIndexType(), i);
          Value zero = indexConstant(b, l, 0), size = indexConstant(b, l, dim);
          Value negative = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, zero);
          i = b.create<arith::SelectOp>(l, negative, b.create<arith::AddIOp>(l, i, size), i);
          Value inRange = b.create<arith::AndIOp>(
              l, b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, i, zero),
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, size));
          auto write = b.create<scf::IfOp>(
              l, inRange,
              [&](OpBuilder &b, Location l) {
                SmallVector<Value> at(ivs.begin(), ivs.end());
                at[axis] = i;
                Value current = b.create<tensor::ExtractOp>(l, acc[0], at);
                Value update = b.create<tensor::ExtractOp>(l, updates, ivs);
                Value combined = combine(b, l, reduction, current, update);
                Value next = b.create<tensor::InsertOp>(l, combined, acc[0], at);
                b.create<scf::YieldOp>(l, next);
              },
              [&](OpBuilder &b, Location l) { b.create<scf::YieldOp>(l, acc[0]); });
          return {write.getResult(0)};
        });
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};

/// Whether `a` comes before `b` in top_k's order: larger (smaller), NaN
/// beyond every number.
Value comesBefore(OpBuilder &b, Location loc, bool largest, Value a, Value c) {
  Type t = a.getType();
  if (isa<FloatType>(t)) {
    a = toCompute(b, loc, a);
    c = toCompute(b, loc, c);
    auto cmp = [&](arith::CmpFPredicate p, Value x, Value y) {
      return b.create<arith::CmpFOp>(loc, p, x, y).getResult();
    };
    Value aNan = cmp(arith::CmpFPredicate::UNO, a, a), cNan = cmp(arith::CmpFPredicate::UNO, c, c);
    Value aNum = cmp(arith::CmpFPredicate::ORD, a, a), cNum = cmp(arith::CmpFPredicate::ORD, c, c);
    Value byNan = largest ? b.create<arith::AndIOp>(loc, aNan, cNum)
                          : b.create<arith::AndIOp>(loc, aNum, cNan);
    Value byValue = cmp(largest ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, a, c);
    return b.create<arith::OrIOp>(loc, byNan, byValue);
  }
  bool isUnsigned = t.isUnsignedInteger();
  arith::CmpIPredicate p = largest ? (isUnsigned ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::sgt)
                                   : (isUnsigned ? arith::CmpIPredicate::ult
                                                 : arith::CmpIPredicate::slt);
  return b.create<arith::CmpIOp>(loc, p, a, c);
}

struct TopKLowering : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    ArrayRef<int64_t> shape = cast<RankedTensorType>(input.getType()).getShape();
    int64_t rank = shape.size();
    int64_t axis = normalizedAxis(static_cast<int64_t>(op.getAxis()), rank);
    int64_t n = shape[axis], k = static_cast<int64_t>(op.getK());
    bool largest = op.getLargest();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    Value values = emptyTensor(rewriter, loc, valuesType.getShape(), valuesType.getElementType());
    Value positions = emptyTensor(rewriter, loc, valuesType.getShape(), rewriter.getI64Type());
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      lbs.push_back(indexConstant(rewriter, loc, 0));
      ubs.push_back(indexConstant(rewriter, loc, shape[d]));
      steps.push_back(indexConstant(rewriter, loc, 1));
    }
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{values, positions},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange rowInit) -> scf::ValueVector {
          // The coordinates of position `at` of this row.
          auto coordsAt = [&](Value at) {
            SmallVector<Value> c;
            for (int64_t d = 0, next = 0; d < rank; ++d)
              c.push_back(d == axis ? at : ivs[next++]);
            return c;
          };
          Value zero = indexConstant(b, l, 0), one = indexConstant(b, l, 1);
          Value kValue = indexConstant(b, l, k);
          auto row = b.create<scf::ForOp>(
              l, zero, indexConstant(b, l, n), one, rowInit,
              [&](OpBuilder &b, Location l, Value j, ValueRange kept) {
                Value x = b.create<tensor::ExtractOp>(l, input, coordsAt(j));
                Value filled = b.create<arith::MinSIOp>(l, j, kValue);
                // Its place: how many kept elements it does not beat.
                auto place = b.create<scf::ForOp>(
                    l, zero, filled, one, ValueRange{zero},
                    [&](OpBuilder &b, Location l, Value p, ValueRange count) {
                      Value e = b.create<tensor::ExtractOp>(l, kept[0], coordsAt(p));
                      Value beats = comesBefore(b, l, largest, x, e);
                      Value step = b.create<arith::SelectOp>(l, beats, zero, one);
                      b.create<scf::YieldOp>(l, ValueRange{b.create<arith::AddIOp>(l, count[0], step)});
                    });
                Value at = place.getResult(0);
                Value fits = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult, at, kValue);
                auto insert = b.create<scf::IfOp>(
                    l, fits,
                    [&](OpBuilder &b, Location l) {
                      // Shift [at, last) one place down, the last kept one
                      // falling off once k are kept.
                      Value last = b.create<arith::MinSIOp>(l, filled, indexConstant(b, l, k - 1));
                      Value moves = b.create<arith::SubIOp>(l, last, at);
                      auto shift = b.create<scf::ForOp>(
                          l, zero, moves, one, kept,
                          [&](OpBuilder &b, Location l, Value q, ValueRange cur) {
                            Value to = b.create<arith::SubIOp>(l, last, q);
                            Value from = b.create<arith::SubIOp>(l, to, one);
                            Value v = b.create<tensor::ExtractOp>(l, cur[0], coordsAt(from));
                            Value i = b.create<tensor::ExtractOp>(l, cur[1], coordsAt(from));
                            Value nv = b.create<tensor::InsertOp>(l, v, cur[0], coordsAt(to));
                            Value ni = b.create<tensor::InsertOp>(l, i, cur[1], coordsAt(to));
                            b.create<scf::YieldOp>(l, ValueRange{nv, ni});
                          });
                      Value position = b.create<arith::IndexCastOp>(l, b.getI64Type(), j);
                      Value nv = b.create<tensor::InsertOp>(l, x, shift.getResult(0), coordsAt(at));
                      Value ni = b.create<tensor::InsertOp>(l, position, shift.getResult(1), coordsAt(at));
                      b.create<scf::YieldOp>(l, ValueRange{nv, ni});
                    },
                    [&](OpBuilder &b, Location l) { b.create<scf::YieldOp>(l, kept); });
                b.create<scf::YieldOp>(l, insert.getResults());
              });
          return {row.getResult(0), row.getResult(1)};
        });
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};

} // namespace

void populateSelectionPatterns(RewritePatternSet &patterns) {
  patterns.add<ScatterElementsLowering, TopKLowering>(patterns.getContext());
}

} // namespace dlc
