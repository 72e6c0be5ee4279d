//===- VectorizeTransposes.cpp - transposes that move the innermost dim ----===//
//
// A transpose whose output's innermost dim is not the input's, K of an
// attention head turned into Kᵀ ([B, T, H, D] -> [B, H, D, T]) say, reads
// the input down a column: as loops LLVM gathered one float per output
// element, the column's floats a row stride apart (1 KB for that Kᵀ, so that
// they also fall into a few L1 sets): 44 us for 2x128x4x64 floats.
//
// Here such a linalg.transpose (f32, static, after ParallelizeLoopNests has
// split it into chunks) goes 8 x 16 blocks at a time: 8 input rows of 16
// floats read as vectors, transposed in registers (tileColumns: the 8x16
// shuffle transpose of the convolutions' write-back), written as 16 output
// rows of 8 floats:
//
//   linalg.transpose ins(%x : tensor<2x128x1x64xf32>)
//                    outs(%y : tensor<2x1x64x128xf32>) permutation = [0, 2, 3, 1]
// becomes, for each index of the other dims,
//   scf.for %r = 0 to 128 step 8, scf.for %c = 0 to 64 step 16
//     %blk = vector.transfer_read %x[.., %r, .., %c] : vector<8x16xf32>
//     16 x vector.transfer_write (column k of %blk), %y[.., %c + k, %r] : vector<8xf32>
//
// The dim read down must be a multiple of 8; the one read along at least 16
// (a ragged one ends with a block flush with its end, which rewrites a few
// columns of the block before it); other transposes stay as they are.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace dlc {
#define GEN_PASS_DEF_VECTORIZETRANSPOSES
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

constexpr int64_t kBlockRows = 8, kBlockCols = 16;

/// Rewrites `op` into blocks when it moves the innermost dim; false (nothing
/// changed) otherwise.
bool vectorizeTranspose(RewriterBase &rewriter, linalg::TransposeOp op) {
  auto in = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto out = dyn_cast<RankedTensorType>(op.getInit().getType());
  if (!in || !out || !in.hasStaticShape() || !in.getElementType().isF32() ||
      op->getNumResults() != 1)
    return false;
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = in.getRank(), last = rank - 1;
  // Output dim i reads input dim perm[i]. The input dim read down the block
  // (`down`) feeds the output's innermost dim; the input's innermost dim
  // lands on output dim `along`.
  int64_t down = perm[last];
  int64_t along = std::find(perm.begin(), perm.end(), last) - perm.begin();
  int64_t width = in.getDimSize(last);
  if (down == last || in.getDimSize(down) % kBlockRows != 0 || width < kBlockCols)
    return false;

  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  auto idx = [&](OpBuilder &b, int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  // The input dims, loops over all of them: whole-dim loops for the others,
  // blocks of 8 and 16 for `down` and the innermost.
  SmallVector<int64_t> steps(rank, 1);
  steps[down] = kBlockRows;
  steps[last] = kBlockCols;
  SmallVector<Value> at(rank);
  std::function<Value(OpBuilder &, int64_t, Value)> nest = [&](OpBuilder &b, int64_t d,
                                                               Value acc) -> Value {
    if (d == rank) {
      auto blockType = VectorType::get({kBlockRows, kBlockCols}, in.getElementType());
      AffineMap readMap = AffineMap::get(
          rank, 0, {getAffineDimExpr(down, ctx), getAffineDimExpr(last, ctx)}, ctx);
      Value block = b.create<vector::TransferReadOp>(loc, blockType, op.getInput(), at,
                                                     readMap, ArrayRef<bool>{true, true});
      AffineMap writeMap = AffineMap::get(rank, 0, {getAffineDimExpr(last, ctx)}, ctx);
      SmallVector<Value> where(rank);
      for (int64_t i = 0; i < rank; ++i)
        where[i] = at[perm[i]];
      for (auto [k, column] : llvm::enumerate(dlc::tileColumns(b, loc, block))) {
        where[along] = b.create<arith::AddIOp>(loc, at[last], idx(b, k));
        acc = b.create<vector::TransferWriteOp>(loc, column, acc, where, writeMap,
                                                ArrayRef<bool>{true})
                  .getResult();
      }
      return acc;
    }
    // A ragged innermost dim ends with a block flush with its end, over
    // columns the one before it wrote too (the same values again).
    int64_t size = in.getDimSize(d), whole = size - size % steps[d];
    auto loop = b.create<scf::ForOp>(
        loc, idx(b, 0), idx(b, whole), idx(b, steps[d]), ValueRange{acc},
        [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
          at[d] = iv;
          lb.create<scf::YieldOp>(loc, nest(lb, d + 1, args[0]));
        });
    acc = loop.getResult(0);
    if (whole == size)
      return acc;
    at[d] = idx(b, size - steps[d]);
    return nest(b, d + 1, acc);
  };
  rewriter.setInsertionPoint(op);
  Value result = nest(rewriter, 0, op.getInit());
  rewriter.replaceOp(op, result);
  return true;
}

struct VectorizeTransposesPass
    : dlc::impl::VectorizeTransposesBase<VectorizeTransposesPass> {
  void runOnOperation() override {
    SmallVector<linalg::TransposeOp> transposes;
    getOperation().walk([&](linalg::TransposeOp op) {
      if (op.hasPureTensorSemantics())
        transposes.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::TransposeOp op : transposes)
      (void)vectorizeTranspose(rewriter, op);
  }
};

} // namespace
