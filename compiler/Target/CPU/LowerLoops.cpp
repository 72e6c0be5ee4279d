//===- LowerLoops.cpp - dlc.loop to scf.for on tensors --------------------===//
//
// Run by dlc-lower-to-linalg before its dialect conversion, so that the
// conversion's patterns then lower the body's dlc ops where they landed:
//
//   %r:2 = dlc.loop carried(%h0) scan(%xs) invariant(%w) {trips = 16}
// becomes
//   %acc = tensor.empty() : tensor<16x...>
//   %r:2 = scf.for %i = 0 to 16 iter_args(%h = %h0, %a = %acc) {
//     %x = alloc_tensor copy(tensor.extract_slice %xs[%i, 0, ...] [1, ...]) (a row)
//     ... the body, its position a tensor<1xi64> of %i ...
//     scf.yield %hNext, (tensor.insert_slice (expand_shape %y) into %a[%i, 0, ...])
//   }
//
// A count known at run time is read from its one-element tensor; 0 or less
// runs no iteration. `reverse` counts positions down from trips - 1.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace dlc;

namespace {

/// The iteration count as an index: the attribute, or the run-time count
/// clamped at 0.
Value tripCount(OpBuilder &b, LoopOp loop) {
  Location loc = loop.getLoc();
  if (loop.getStaticTrips())
    return b.create<arith::ConstantIndexOp>(loc, *loop.getStaticTrips());
  Value count = loop.getCount();
  auto type = cast<RankedTensorType>(count.getType());
  SmallVector<Value> zeros(type.getRank(), b.create<arith::ConstantIndexOp>(loc, 0));
  Value n = b.create<tensor::ExtractOp>(loc, count, zeros);
  Value zero = b.create<arith::ConstantIntOp>(loc, 0, n.getType());
  n = b.create<arith::MaxSIOp>(loc, n, zero);
  return b.create<arith::IndexCastOp>(loc, b.getIndexType(), n);
}

/// Offsets, sizes and strides of row `position` of a [n, ...] tensor.
struct RowSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
RowSlice rowOf(OpBuilder &b, RankedTensorType type, Value position) {
  RowSlice s;
  s.offsets.push_back(position);
  s.sizes.push_back(b.getIndexAttr(1));
  for (int64_t d = 1; d < type.getRank(); ++d) {
    s.offsets.push_back(b.getIndexAttr(0));
    s.sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
  }
  s.strides.assign(type.getRank(), b.getIndexAttr(1));
  return s;
}

/// [rest...] as [1, rest...].
Value expandLeadingUnit(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape{1};
  llvm::append_range(shape, type.getShape());
  auto expanded = RankedTensorType::get(shape, type.getElementType());
  SmallVector<ReassociationIndices> groups;
  if (type.getRank() > 0) {
    groups.push_back({0, 1});
    for (int64_t d = 2; d <= type.getRank(); ++d)
      groups.push_back({d});
  }
  return b.create<tensor::ExpandShapeOp>(loc, expanded, v, groups);
}

/// The body's block arguments inside `forOp`: the position, the carried
/// iteration arguments, each scan input's row, the invariants.
SmallVector<Value> bodyArguments(OpBuilder &b, LoopOp loop, scf::ForOp forOp, Value position) {
  Location loc = loop.getLoc();
  Value position64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), position);
  SmallVector<Value> args{b.create<tensor::FromElementsOp>(
      loc, RankedTensorType::get({1}, b.getI64Type()), ValueRange{position64})};
  llvm::append_range(args, forOp.getRegionIterArgs().take_front(loop.getCarried().size()));
  for (auto [scan, arg] : llvm::zip(loop.getScans(), loop.getScanArgs())) {
    RowSlice row = rowOf(b, cast<RankedTensorType>(scan.getType()), position);
    // The row in a buffer of its own: a view of the scanned input, sliced
    // again in the body with strides, broke a later subview's sizes (random
    // loop program, seed 1072), and collapsing a [1, ...] slice instead let
    // the reshape propagate into an LSTM's matmul, which the tiler then
    // skipped (34x slower). A row is small; its copy costs little.
    auto rowType = cast<RankedTensorType>(arg.getType());
    Value slice = b.create<tensor::ExtractSliceOp>(loc, rowType, scan, row.offsets, row.sizes, row.strides);
    args.push_back(b.create<bufferization::AllocTensorOp>(loc, rowType, ValueRange{}, slice));
  }
  llvm::append_range(args, loop.getInvariants());
  return args;
}

/// The body's dlc.yield as the scf.yield of `forOp`: the next carried values
/// as they are (bufferization may allocate them in the body:
/// allowReturnAllocsFromLoops, CpuPipeline.cpp; materialising them in their
/// iteration arguments made in-place demands that the tiling and fusion
/// passes' rewrites broke), each scan output's row inserted at the position.
void replaceYield(IRRewriter &rewriter, YieldOp yield, scf::ForOp forOp, size_t numCarried,
                  Value position) {
  Location loc = yield.getLoc();
  rewriter.setInsertionPoint(yield);
  SmallVector<Value> next(yield.getValues().take_front(numCarried));
  for (auto [k, row] : llvm::enumerate(yield.getValues().drop_front(numCarried))) {
    Value stacked = forOp.getRegionIterArgs()[numCarried + k];
    RowSlice at = rowOf(rewriter, cast<RankedTensorType>(stacked.getType()), position);
    Value unitRow = expandLeadingUnit(rewriter, loc, row); // as the scans' rows, not rank-reduced
    next.push_back(rewriter.create<tensor::InsertSliceOp>(loc, unitRow, stacked, at.offsets, at.sizes,
                                                          at.strides));
  }
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, next);
}

void lowerLoop(IRRewriter &rewriter, LoopOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value trips = tripCount(rewriter, loop);
  SmallVector<Value> iterInits(loop.getCarried());
  for (Value out : loop.getScanOutputs()) {
    auto type = cast<RankedTensorType>(out.getType());
    iterInits.push_back(rewriter.create<tensor::EmptyOp>(loc, type.getShape(), type.getElementType()));
  }
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
  auto forOp = rewriter.create<scf::ForOp>(loc, zero, trips, one, iterInits);
  rewriter.setInsertionPointToStart(forOp.getBody());
  Value position = forOp.getInductionVar();
  if (loop.getReverse()) {
    Value last = rewriter.create<arith::SubIOp>(loc, trips, one);
    position = rewriter.create<arith::SubIOp>(loc, last, position);
  }
  SmallVector<Value> args = bodyArguments(rewriter, loop, forOp, position);

  Block &body = loop.getBody().front();
  // Constants before the loop: inside it, bufferization gave a weight a
  // fresh copy every iteration (an LSTM's R: 256 KiB per step).
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    if (isa<ConstantOp>(op))
      op.moveBefore(forOp);
  auto yield = cast<YieldOp>(body.getTerminator());
  rewriter.inlineBlockBefore(&body, forOp.getBody(), forOp.getBody()->end(), args);
  replaceYield(rewriter, yield, forOp, loop.getCarried().size(), position);
  rewriter.replaceOp(loop, forOp.getResults());
}

} // namespace

void dlc::lowerLoopsToScf(func::FuncOp func) {
  SmallVector<LoopOp> loops;
  func.walk([&](LoopOp loop) { loops.push_back(loop); });
  IRRewriter rewriter(func.getContext());
  for (LoopOp loop : loops)
    lowerLoop(rewriter, loop);
}
