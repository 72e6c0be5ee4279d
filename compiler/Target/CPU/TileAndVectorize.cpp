//===- TileAndVectorize.cpp - register-tiled, vectorised f32 matmuls -------===//
//
// A linalg.matmul (C += A B, f32) becomes, on tensors (the register tile is
// the pass's option, the target's from CpuTiles.h: 8x32 on AVX-512, 6x16 on
// AVX2; 8x32 below):
//
//   scf.for %i step 8, scf.for %j step 32        (one 8x32 tile of C)
//     fill 8x32 (fused: C stays in registers)     -> vector.transfer_write
//     scf.for %k step 1                           (K tiled by 1)
//       8x1 A, 1x32 B, 8x32 C                     -> vector.contract
//
// The contraction is later lowered to outer products (8 broadcasts of A
// times two 16-wide rows of B: 16 FMAs per k) and, after bufferization, the
// C tile's loads and stores are hoisted out of the K loop
// (HoistVectorTransfers), so the K loop is pure FMAs. Tiles at ragged edges
// are peeled off the tile loops, columns first, so that every tile is static
// (8x32, the last column's 8xr, the last row's qx32 and qxr) and vectorised
// the same way: no scalar code.
//
// A matmul whose B is wide and not packed at compile time (a 1x1
// convolution's image) with a short K and many rows runs in blocks of
// columns instead (blockedPanels): each block's B copied into panels, then
// row of tiles by row of tiles, so that C (and an epilogue's residual) is
// written in runs of a block's width, not a tile's width in every row.
//
// Convolutions on pixel rows (ConvToMatmul.cpp) arrive already tiled: their
// T x 32 matmul_transpose_a tiles inside the taps' loops are vectorised the
// same way (A's T pixels broadcast, B's 32 filters loaded), with the tile's
// fill and its transposed write-back into the NCHW output.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/CpuTiles.h"
#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#define GEN_PASS_DEF_HOISTVECTORTRANSFERS
#define GEN_PASS_DEF_LOWERVECTORS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// The largest register tile of either kernel (the matmul's, the pixel-row
/// convolution's) on any target: the vectorisation takes any tile up to it.
constexpr int64_t kTileM = dlc::cpu::kMaxTileRows, kTileN = dlc::cpu::kMaxTileColumns;
using dlc::cpu::MatmulTile;

bool isStaticF32Matmul(linalg::LinalgOp op) {
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32())
      return false;
  }
  return true;
}

/// Tiles M and N to the register tile, fusing the fill of C, and peels the
/// tile loops so that every tile, the ragged last row and column of tiles
/// included, has a static shape.
LogicalResult tileAndPeel(RewriterBase &rewriter, linalg::MatmulOp matmul, MatmulTile tile) {
  MLIRContext *ctx = matmul.getContext();
  // Fewer than 8 rows (a batch-1 classifier: 1 x K times K x N) take a
  // shorter register tile rather than leaving every row to the scalar edge.
  int64_t rows = cast<RankedTensorType>(matmul.getDpsInits()[0].getType()).getDimSize(0);
  int64_t tileM = std::min(rows, tile.rows);
  // An elementwise epilogue updating C in place (bias, activation, residual)
  // is tiled instead, with the matmul fused into each of its tiles: it then
  // runs on each register tile as it is finished, not as a pass over C.
  linalg::GenericOp epilogue = dlc::inPlaceEpilogue(matmul.getResult(0));
  Operation *root = epilogue ? epilogue.getOperation() : matmul.getOperation();
  scf::SCFTileAndFuseOptions outer;
  SmallVector<int64_t> tiles = {tileM, tile.columns};
  if (!epilogue)
    tiles.push_back(0);
  outer.tilingOptions.setTileSizes(getAsIndexOpFoldResult(ctx, tiles));
  // The loop split over threads is the outer one. Split rows, every thread
  // reads all of B (K x N); split columns, all of A (M x K). So where C is
  // wider than tall (a 1x1 convolution's pixels) the columns of tiles go
  // outside and are split; else the rows. (MobileNetV2's 1x1 convolutions,
  // 16-32 channels x 784-12544 pixels, split by rows ran no faster, or twice
  // as slow, at two threads than at one on a 2-core Xeon: each core read all
  // of X.) A single row of tiles (a batch-1 classifier) splits its columns.
  int64_t columns = cast<RankedTensorType>(matmul.getDpsInits()[0].getType()).getDimSize(1);
  bool columnsOutside = rows > tileM && columns > rows && columns >= 2 * tile.columns;
  if (columnsOutside) {
    SmallVector<int64_t> interchange = {1, 0};
    if (!epilogue)
      interchange.push_back(2);
    outer.tilingOptions.setInterchange(interchange);
  }
  // Only the fill of C (and the matmul, under an epilogue) move into the
  // tiles (C then never touches memory); other producers (a packed B panel,
  // an im2col copy) run once, not per tile.
  outer.setFusionControlFn([](tensor::ExtractSliceOp, OpResult producer, bool) {
    return std::make_tuple(isa<linalg::FillOp, linalg::MatmulOp>(producer.getOwner()), false);
  });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, cast<TilingInterface>(root), outer);
  if (failed(tiled))
    return failure();
  for (OpResult result : root->getResults())
    if (Value replacement = tiled->replacements.lookup(result))
      rewriter.replaceAllUsesWith(result, replacement);
  // Each row (column) of tiles writes its own rows (columns) of C: the
  // runtime's pool may run the outer loop's at once (OutlineParallelLoops;
  // peeling keeps the mark).
  if (!tiled->loops.empty()) {
    unsigned parallel = rows <= tileM && tiled->loops.size() > 1 ? 1 : 0;
    tiled->loops[columnsOutside ? 0 : parallel]->setAttr(dlc::kParallelLoopAttr,
                                                          UnitAttr::get(ctx));
  }
  // Innermost first: peeling the row loop then copies the already peeled
  // column loop into the ragged last row of tiles, whose tiles are static too
  // (peeling the rows first left that row's columns one dynamic, scalar tile).
  for (LoopLikeOpInterface loop : llvm::reverse(tiled->loops)) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    scf::ForOp partial;
    if (forOp)
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
  return success();
}

/// B in contiguous panels. The micro-kernel reads one 32-wide row of B per
/// k; straight from a [K, N] matrix those rows are N floats apart, and when
/// that is a multiple of 1 KiB (N = 256, 1024: every transformer) they fall
/// into a few L1 sets and evict each other (256x256x1024 ran at 73% of the
/// speed of 256x256x768). So B is copied, one 32-column panel at a time,
/// into a contiguous K x 32 buffer that the whole column of register tiles
/// then reads:
///
///   scf.for %j = 0 to N step 32 iter_args(%c)        {dlc.parallel}
///     %p = copy %b[:, j:j+32] -> K x 32 (vector rows) (the packed panel)
///     %t = linalg.matmul %a, %p, fill(%c[:, j:j+32]) (tiled 8 x 32 later)
///
/// The copy is K*32 floats for M*K*32 multiply-adds. The same helps a B too
/// big for L2 (a 7x7 stem's 147 x 12544 im2col columns): row by row of
/// register tiles, the whole of B came from L3 M/8 times; panel by panel it
/// is read once. A ragged last panel (N % 32) reads B in place. Only worth
/// it with a few rows of tiles to reuse each panel.
/// B packed at compile time (LinearToMatmul.cpp): collapse([K, P, 32] <-
/// transpose(%panels : [P, K, 32])). Returns %panels, whose panel p is
/// contiguous; the transpose then never runs.
Value prepackedPanels(Value b, MatmulTile tile) {
  auto collapse = b.getDefiningOp<tensor::CollapseShapeOp>();
  auto t = collapse ? collapse.getSrc().getDefiningOp<linalg::TransposeOp>()
                    : linalg::TransposeOp();
  if (!t || t.getPermutation() != ArrayRef<int64_t>{1, 0, 2})
    return nullptr;
  auto panels = cast<RankedTensorType>(t.getInput().getType());
  return panels.getDimSize(2) == tile.columns ? t.getInput() : nullptr;
}

bool wantsPackedB(linalg::MatmulOp matmul, MatmulTile tile) {
  auto a = cast<RankedTensorType>(matmul.getInputs()[0].getType());
  auto b = cast<RankedTensorType>(matmul.getInputs()[1].getType());
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
  if (prepackedPanels(matmul.getInputs()[1], tile))
    return true; // already in panels: always read them
  bool setConflicts = n % 256 == 0 && m >= 32;
  bool beyondL2 = k * n * 4 > (int64_t(1) << 20) && m >= 24;
  return k >= 16 && n >= 2 * tile.columns && (setConflicts || beyondL2);
}

/// A contiguous copy of the 2-D `slice`, one row per step as a vector (LLVM
/// cannot tell that the fresh buffer does not overlap the source and kept a
/// plain copy scalar).
Value copyRows(OpBuilder &b, Location loc, Value slice) {
  auto type = cast<RankedTensorType>(slice.getType());
  Type elem = type.getElementType();
  auto rowType = VectorType::get({type.getDimSize(1)}, elem);
  Value empty = b.create<tensor::EmptyOp>(loc, type.getShape(), elem);
  Value pad = b.create<arith::ConstantOp>(loc, b.getZeroAttr(elem));
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  auto loop = b.create<scf::ForOp>(
      loc, zero, b.create<arith::ConstantIndexOp>(loc, type.getDimSize(0)),
      b.create<arith::ConstantIndexOp>(loc, 1), ValueRange{empty},
      [&](OpBuilder &rb, Location rl, Value row, ValueRange args) {
        Value v = rb.create<vector::TransferReadOp>(rl, rowType, slice, ValueRange{row, zero},
                                                    pad, ArrayRef<bool>{true});
        Value w = rb.create<vector::TransferWriteOp>(rl, v, args[0], ValueRange{row, zero},
                                                     ArrayRef<bool>{true})
                      .getResult();
        rb.create<scf::YieldOp>(rl, w);
      });
  return loop.getResult(0);
}

/// A matmul cut into column ranges (packBPanels, blockedPanels): its
/// operands, the in-place epilogue each range runs (null: none), and C
/// before its fill (`fillValue`: what the fill wrote, moved into each range).
struct ColumnRanges {
  linalg::MatmulOp matmul;
  Value a, b, c, fillValue;
  linalg::GenericOp epilogue;
  int64_t m, k, n;

  explicit ColumnRanges(linalg::MatmulOp op)
      : matmul(op), a(op.getInputs()[0]), b(op.getInputs()[1]), c(op.getOutputs()[0]),
        epilogue(dlc::inPlaceEpilogue(op.getResult(0))) {
    if (auto fill = c.getDefiningOp<linalg::FillOp>()) {
      fillValue = fill.getInputs()[0];
      c = fill.getOutputs()[0];
    }
    m = cast<RankedTensorType>(c.getType()).getDimSize(0);
    n = cast<RankedTensorType>(c.getType()).getDimSize(1);
    k = cast<RankedTensorType>(a.getType()).getDimSize(1);
  }

  /// Where the new loops go: where the epilogue was, under one (its
  /// operands may come later).
  Operation *insertionPoint() {
    return epilogue ? epilogue.getOperation() : matmul.getOperation();
  }

  /// Rows [row, row + rows) of columns [column, column + width) of `cIn`
  /// (`aRows`: those rows of A, `bColumns`: those columns of B): filled,
  /// multiplied, the epilogue run on them, written back. Sets `product`
  /// to the new matmul.
  Value range(OpBuilder &b, Location loc, Value cIn, OpFoldResult row, OpFoldResult column,
              int64_t rows, int64_t width, Value aRows, Value bColumns,
              linalg::MatmulOp *product = nullptr) {
    auto type = RankedTensorType::get({rows, width}, b.getF32Type());
    SmallVector<OpFoldResult> at{row, column}, size{b.getIndexAttr(rows), b.getIndexAttr(width)},
        ones{b.getIndexAttr(1), b.getIndexAttr(1)};
    Value slice = b.create<tensor::ExtractSliceOp>(loc, type, cIn, at, size, ones);
    if (fillValue)
      slice = b.create<linalg::FillOp>(loc, fillValue, slice).getResult(0);
    auto mm = b.create<linalg::MatmulOp>(loc, TypeRange{type}, ValueRange{aRows, bColumns},
                                         ValueRange{slice});
    if (product)
      *product = mm;
    Value done = mm.getResult(0);
    if (epilogue)
      done = dlc::epilogueOnRegion(b, loc, epilogue, at, size, done);
    return b.create<tensor::InsertSliceOp>(loc, done, cIn, at, size, ones);
  }

  /// Columns [from, from + width) of B, read in place.
  Value bColumns(OpBuilder &b, Location loc, int64_t from, int64_t width) const {
    return b.create<tensor::ExtractSliceOp>(
        loc, RankedTensorType::get({k, width}, b.getF32Type()), this->b,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(from)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(k), b.getIndexAttr(width)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  }

  /// Columns [from, n) of `result`, B read in place: the matmul it made is
  /// appended to `matmuls`.
  Value restColumns(OpBuilder &b, Location loc, Value result, int64_t from,
                    SmallVectorImpl<linalg::MatmulOp> &matmuls) {
    if (from >= n)
      return result;
    Value bRest = bColumns(b, loc, from, n - from);
    linalg::MatmulOp last;
    result = range(b, loc, result, b.getIndexAttr(0), b.getIndexAttr(from), m, n - from, a, bRest,
                   &last);
    matmuls.push_back(last);
    return result;
  }

  /// `result` replaces the epilogue (the matmul goes) or the matmul.
  void replaceWith(RewriterBase &rewriter, Value result) const {
    if (epilogue) {
      rewriter.replaceOp(epilogue, result);
      rewriter.eraseOp(matmul);
    } else {
      rewriter.replaceOp(matmul, result);
    }
  }
};

/// The panel loop's matmul, and the ragged last panel's when N % 32 != 0.
SmallVector<linalg::MatmulOp> packBPanels(RewriterBase &rewriter, linalg::MatmulOp matmul,
                                          MatmulTile tile) {
  const int64_t kPanel = tile.columns;
  Location loc = matmul.getLoc();
  // A zero fill of C moves into each panel, where tiling fuses it into the
  // register tiles (C is then never read); an in-place epilogue follows
  // each panel (where tileAndPeel then fuses it into the register tiles).
  ColumnRanges ranges(matmul);
  int64_t m = ranges.m, k = ranges.k, full = ranges.n / kPanel * kPanel;
  Type f32 = rewriter.getF32Type();
  Value prepacked = prepackedPanels(ranges.b, tile);
  rewriter.setInsertionPoint(ranges.insertionPoint());
  auto idx = [&](int64_t v) -> Value {
    return rewriter.create<arith::ConstantIndexOp>(loc, v);
  };
  auto panelType = RankedTensorType::get({k, kPanel}, f32);
  linalg::MatmulOp inner;
  auto loop = rewriter.create<scf::ForOp>(
      loc, idx(0), idx(full), idx(kPanel), ValueRange{ranges.c},
      [&](OpBuilder &bld, Location l, Value j, ValueRange args) {
        auto one = bld.getIndexAttr(1), zero = bld.getIndexAttr(0);
        Value panel;
        if (prepacked) {
          // Panel j / 32 of the compile-time packing, as it is.
          Value p = bld.create<arith::DivUIOp>(l, j, bld.create<arith::ConstantIndexOp>(l, kPanel));
          panel = bld.create<tensor::ExtractSliceOp>(
              l, panelType, prepacked, ArrayRef<OpFoldResult>{p, zero, zero},
              ArrayRef<OpFoldResult>{one, bld.getIndexAttr(k), bld.getIndexAttr(kPanel)},
              ArrayRef<OpFoldResult>{one, one, one});
        } else {
          Value slice = bld.create<tensor::ExtractSliceOp>(
              l, panelType, ranges.b, ArrayRef<OpFoldResult>{zero, j},
              ArrayRef<OpFoldResult>{bld.getIndexAttr(k), bld.getIndexAttr(kPanel)},
              ArrayRef<OpFoldResult>{one, one});
          panel = copyRows(bld, l, slice);
        }
        bld.create<scf::YieldOp>(
            l, ranges.range(bld, l, args[0], zero, j, m, kPanel, ranges.a, panel, &inner));
      });
  loop->setAttr(dlc::kParallelLoopAttr, rewriter.getUnitAttr());
  SmallVector<linalg::MatmulOp> matmuls{inner};
  // The last n - full columns, B read in place.
  Value result = ranges.restColumns(rewriter, loc, loop.getResult(0), full, matmuls);
  ranges.replaceWith(rewriter, result);
  return matmuls;
}

/// Columns of C per block in blockedPanels (a multiple of the tile's
/// columns, `blockBytes` of B: KernelTiles::blockBytes), or 0 where the
/// matmul does not take that path. It pays where writing C costs most
/// against the work: a short K (at most 128) and many rows (at least 8 rows
/// of tiles), with B not packed at compile time (an image: a 1x1
/// convolution's pixels) and at least two blocks of columns. Measured on an
/// AMD EPYC Zen 3 (AVX2), one thread, minimum kernel times: ResNet-50's 64
/// -> 256 channel 1x1 convolutions at 56x56 with their residual add, 1.70-1.87
/// -> 1.29 ms (ORT 1.29-1.32); with K = 256 or 512 (128 to 512 rows) no
/// faster, 3-8% slower at K = 256 with narrow blocks. With K at most 32,
/// two rows of tiles are enough: MobileNetV2's 32 -> 16 channel convolution
/// at 112x112 (16 rows, K = 32) 0.291 -> 0.208 ms at one thread, 0.166 ->
/// 0.125 at two (ORT 0.173, 0.111); its 96 -> 24 at 56x56 (24 rows, K = 96)
/// ran 6-11% slower in blocks.
int64_t blockColumns(linalg::MatmulOp matmul, MatmulTile tile, int64_t blockBytes) {
  auto a = cast<RankedTensorType>(matmul.getInputs()[0].getType());
  auto b = cast<RankedTensorType>(matmul.getInputs()[1].getType());
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
  int64_t rowsOfTiles = k <= 32 ? 2 : 8;
  if (prepackedPanels(matmul.getInputs()[1], tile) || m < rowsOfTiles * tile.rows || k < 16 ||
      k > 128)
    return 0;
  int64_t columns = blockBytes / (k * 4) / tile.columns * tile.columns;
  if (columns < tile.columns || n < 2 * columns)
    return 0;
  return columns;
}

/// C in blocks of `blockWidth` columns (split over the threads), each
/// block's B copied into contiguous K x P panels (P = tile.columns), then
/// the block computed row of tiles by row of tiles, panel by panel:
///
///   scf.for %jb = 0 to N step W iter_args(%c)          {dlc.parallel}
///     %panels = copy B[:, jb:jb+W] -> [W/P, K, P]
///     scf.for %i = 0 to M step R                        (rows of tiles)
///       scf.for %p = 0 to W/P                           (one R x P tile)
///         C[i:i+R, jb+p*P:+P] = fill; matmul A[i:i+R, :], %panels[p]; epilogue
///
/// A row of tiles writes R rows of C (and reads an epilogue's residual)
/// W columns at a time, which the hardware prefetchers follow; column by
/// column (tileAndPeel, columns outside) each tile's rows fall in pages of
/// their own, every one a miss (a 1x1 convolution, 64 -> 256 channels at
/// 56x56: C's 256 rows are 12.5 KiB apart). Rows past the last whole tile
/// and columns past the last block are left to the returned matmuls.
SmallVector<linalg::MatmulOp> blockedPanels(RewriterBase &rewriter, linalg::MatmulOp matmul,
                                            MatmulTile tile, int64_t blockWidth) {
  Location loc = matmul.getLoc();
  ColumnRanges ranges(matmul);
  int64_t m = ranges.m, k = ranges.k, p = tile.columns;
  int64_t blocks = ranges.n / blockWidth, panels = blockWidth / p;
  Type f32 = rewriter.getF32Type();
  rewriter.setInsertionPoint(ranges.insertionPoint());
  auto attr = [&](int64_t v) -> OpFoldResult { return rewriter.getIndexAttr(v); };
  auto idx = [&](OpBuilder &bld, int64_t v) -> Value {
    return bld.create<arith::ConstantIndexOp>(loc, v);
  };
  auto panelType = RankedTensorType::get({k, p}, f32);
  // Panel q's first column of C in the block from jb.
  auto columnOf = [&](OpBuilder &bld, Value jb, Value q) -> Value {
    return bld.create<arith::AddIOp>(loc, jb, bld.create<arith::MulIOp>(loc, q, idx(bld, p)));
  };
  // Rows [from, to) of the block from jb, `rows` at a time, panel by panel.
  auto rowsOfTiles = [&](OpBuilder &rb, Value cIn, Value jb, Value packed, int64_t from,
                         int64_t to, int64_t rows) {
    auto rowLoop = rb.create<scf::ForOp>(
        loc, idx(rb, from), idx(rb, to), idx(rb, rows), ValueRange{cIn},
        [&](OpBuilder &ib, Location, Value row, ValueRange rowArgs) {
          Value aRows = ib.create<tensor::ExtractSliceOp>(
              loc, RankedTensorType::get({rows, k}, f32), ranges.a,
              ArrayRef<OpFoldResult>{row, attr(0)}, ArrayRef<OpFoldResult>{attr(rows), attr(k)},
              ArrayRef<OpFoldResult>{attr(1), attr(1)});
          auto panelLoop = ib.create<scf::ForOp>(
              loc, idx(ib, 0), idx(ib, panels), idx(ib, 1), ValueRange{rowArgs[0]},
              [&](OpBuilder &tb, Location, Value q, ValueRange tileArgs) {
                Value panel = tb.create<tensor::ExtractSliceOp>(
                    loc, panelType, packed, ArrayRef<OpFoldResult>{q, attr(0), attr(0)},
                    ArrayRef<OpFoldResult>{attr(1), attr(k), attr(p)},
                    ArrayRef<OpFoldResult>{attr(1), attr(1), attr(1)});
                tb.create<scf::YieldOp>(loc, ranges.range(tb, loc, tileArgs[0], row,
                                                          columnOf(tb, jb, q), rows, p, aRows,
                                                          panel));
              });
          ib.create<scf::YieldOp>(loc, panelLoop.getResult(0));
        });
    return rowLoop.getResult(0);
  };
  auto blockLoop = rewriter.create<scf::ForOp>(
      loc, idx(rewriter, 0), idx(rewriter, blocks * blockWidth), idx(rewriter, blockWidth),
      ValueRange{ranges.c}, [&](OpBuilder &bld, Location, Value jb, ValueRange blockArgs) {
        // The block's panels, one K x P copy each.
        Value packed = bld.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{panels, k, p}, f32);
        auto packLoop = bld.create<scf::ForOp>(
            loc, idx(bld, 0), idx(bld, panels), idx(bld, 1), ValueRange{packed},
            [&](OpBuilder &pb, Location, Value q, ValueRange args) {
              Value slice = pb.create<tensor::ExtractSliceOp>(
                  loc, panelType, ranges.b, ArrayRef<OpFoldResult>{attr(0), columnOf(pb, jb, q)},
                  ArrayRef<OpFoldResult>{attr(k), attr(p)}, ArrayRef<OpFoldResult>{attr(1), attr(1)});
              Value into = pb.create<tensor::InsertSliceOp>(
                  loc, copyRows(pb, loc, slice), args[0],
                  ArrayRef<OpFoldResult>{q, attr(0), attr(0)},
                  ArrayRef<OpFoldResult>{attr(1), attr(k), attr(p)},
                  ArrayRef<OpFoldResult>{attr(1), attr(1), attr(1)});
              pb.create<scf::YieldOp>(loc, into);
            });
        packed = packLoop.getResult(0);
        int64_t fullRows = m / tile.rows * tile.rows;
        Value done = rowsOfTiles(bld, blockArgs[0], jb, packed, 0, fullRows, tile.rows);
        if (fullRows < m)
          done = rowsOfTiles(bld, done, jb, packed, fullRows, m, m - fullRows);
        bld.create<scf::YieldOp>(loc, done);
      });
  blockLoop->setAttr(dlc::kParallelLoopAttr, rewriter.getUnitAttr());
  // The last columns, tiled as any matmul.
  SmallVector<linalg::MatmulOp> rest;
  Value result = ranges.restColumns(rewriter, loc, blockLoop.getResult(0), blocks * blockWidth, rest);
  ranges.replaceWith(rewriter, result);
  return rest;
}

/// Columns of C at which `matmul` is split so that its ragged last column
/// of register tiles is computed in whole vectors, or 0 where it needs no
/// split. That column is N % tile.columns wide; wider than one vector
/// register and not a multiple of it (10, 12 or 14 floats with AVX2's 8;
/// 24 or 26 with AVX-512's 16), LLVM widened its accumulators to a power of
/// two and then built and spilled them lane by lane: a 32x1024x10 matmul
/// (an MLP's 10-class head) ran at 3.8 GFLOP/s on an AMD EPYC Zen 3, 8
/// columns at 29. Split at N - (N % tile.columns) % vector, the columns
/// before it end in whole vectors and the few after it (fewer than a
/// vector) take one register: that head 0.101 -> 0.016 ms (ONNX Runtime
/// 0.022), minimum kernel times, one thread.
int64_t raggedSplit(linalg::MatmulOp matmul, MatmulTile tile, int64_t vectorFloats) {
  int64_t n = cast<RankedTensorType>(matmul.getDpsInits()[0].getType()).getDimSize(1);
  int64_t ragged = n % tile.columns;
  if (ragged <= vectorFloats || ragged % vectorFloats == 0)
    return 0;
  return n - ragged % vectorFloats;
}

/// `matmul` as two matmuls, columns [0, split) and [split, N), each with
/// its fill and in-place epilogue.
SmallVector<linalg::MatmulOp> splitColumns(RewriterBase &rewriter, linalg::MatmulOp matmul,
                                           int64_t split) {
  Location loc = matmul.getLoc();
  ColumnRanges ranges(matmul);
  rewriter.setInsertionPoint(ranges.insertionPoint());
  OpFoldResult zero = rewriter.getIndexAttr(0);
  linalg::MatmulOp first;
  Value result = ranges.range(rewriter, loc, ranges.c, zero, zero, ranges.m, split, ranges.a,
                              ranges.bColumns(rewriter, loc, 0, split), &first);
  SmallVector<linalg::MatmulOp> matmuls{first};
  result = ranges.restColumns(rewriter, loc, result, split, matmuls);
  ranges.replaceWith(rewriter, result);
  return matmuls;
}

/// A full register tile: C is at most 8x32 and every shape is static.
bool isFullTile(linalg::LinalgOp op) {
  if (op.hasDynamicShape())
    return false;
  auto c = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  return c.getRank() == 2 && c.getDimSize(0) <= kTileM && c.getDimSize(1) <= kTileN;
}


/// A pixel-row tile's write-back (ConvToMatmul.cpp):
///   %d = tensor.extract_slice %acc[n, j, oh, ow] [1, N, 1, T]   (N x T)
///   %t = linalg.transpose ins(%tile : T x N) outs(%d)
///   tensor.insert_slice %t into %acc[n, j, oh, ow] [1, N, 1, T]
/// Returns the insert_slice when `op` is one.
tensor::InsertSliceOp tileWriteBack(linalg::TransposeOp op) {
  auto in = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!in || !in.hasStaticShape() || in.getRank() != 2 || !in.getElementType().isF32() ||
      op.getPermutation() != ArrayRef<int64_t>{1, 0} || in.getDimSize(0) < 2 ||
      in.getDimSize(0) > kTileM || in.getDimSize(1) % 16 != 0 || !op->hasOneUse())
    return nullptr;
  auto slice = op.getInit().getDefiningOp<tensor::ExtractSliceOp>();
  auto insert = dyn_cast<tensor::InsertSliceOp>(*op->user_begin());
  if (!slice || !insert || insert.getSource() != op.getResult()[0] ||
      insert.getDest() != slice.getSource() || insert.getType().getRank() != 4 ||
      !llvm::equal(insert.getMixedOffsets(), slice.getMixedOffsets()) ||
      insert.getStaticSizes() != ArrayRef<int64_t>{1, in.getDimSize(1), 1, in.getDimSize(0)} ||
      !llvm::all_of(insert.getStaticStrides(), [](int64_t s) { return s == 1; }))
    return nullptr;
  return insert;
}

/// The epilogue ConvToMatmul runs on a pixel-row tile right after its
/// write-back (bias, activation, residual add):
///   %r = tensor.extract_slice %written[n, j, oh, ow] [1, N, 1, T]
///   %e = linalg.generic ins(...) outs(%r)          (elementwise)
///   tensor.insert_slice %e into %written[n, j, oh, ow] [1, N, 1, T]
/// when each operand is a per-filter vector (indexed by d1 alone), a region
/// of the tile's shape, or a scalar, and the body is elementwise arith/math.
struct ColumnEpilogue {
  tensor::ExtractSliceOp region;
  linalg::GenericOp op;
  tensor::InsertSliceOp insert;
};

std::optional<ColumnEpilogue> columnEpilogue(tensor::InsertSliceOp writeBack) {
  for (Operation *user : writeBack->getUsers()) {
    auto region = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!region || !region->hasOneUse() ||
        !llvm::equal(region.getMixedOffsets(), writeBack.getMixedOffsets()) ||
        region.getStaticSizes() != writeBack.getStaticSizes() ||
        region.getStaticStrides() != writeBack.getStaticStrides())
      continue;
    auto op = dyn_cast<linalg::GenericOp>(*region->user_begin());
    if (!op || op.getNumDpsInits() != 1 || op.getDpsInits()[0] != region.getResult() ||
        op.getNumLoops() != 4 || op.getNumParallelLoops() != 4 || !op->hasOneUse() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return std::nullopt;
    auto insert = dyn_cast<tensor::InsertSliceOp>(*op->user_begin());
    if (!insert || insert.getSource() != op.getResult(0) ||
        insert.getDest() != writeBack.getResult() ||
        !llvm::equal(insert.getMixedOffsets(), writeBack.getMixedOffsets()))
      return std::nullopt;
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(in->get().getType());
      AffineMap map = op.getMatchingIndexingMap(in);
      bool scalar = type && type.getRank() == 0;
      bool perFilter = map.getNumResults() == 1 && map.getResult(0) == getAffineDimExpr(1, map.getContext());
      bool sameRegion = map.isIdentity() && type == region.getType();
      if (!type || !(scalar || perFilter || sameRegion))
        return std::nullopt;
    }
    for (Operation &bodyOp : op.getBody()->without_terminator())
      if (!isa<arith::ArithDialect, math::MathDialect>(bodyOp.getDialect()) ||
          bodyOp.getNumRegions() != 0 ||
          (!isa<arith::ConstantOp>(bodyOp) && !bodyOp.hasTrait<OpTrait::Elementwise>()))
        return std::nullopt;
    return ColumnEpilogue{region, op, insert};
  }
  return std::nullopt;
}

/// `epilogue`'s body on column `c` of the tile (`column`: T pixels of filter
/// c), its operands read as vectors of T: a per-filter value splat, a
/// region's row of T, a scalar splat.
Value epilogueOnColumn(RewriterBase &rewriter, Location loc, linalg::GenericOp epilogue,
                       int64_t c, Value column, Value zero) {
  auto vectorOf = [&](Type t) {
    return VectorType::get(cast<VectorType>(column.getType()).getShape(), t);
  };
  auto splat = [&](Value v) -> Value {
    return isa<VectorType>(v.getType())
               ? v
               : rewriter.create<vector::BroadcastOp>(loc, vectorOf(v.getType()), v);
  };
  Value filter = rewriter.create<arith::ConstantIndexOp>(loc, c);
  Block *body = epilogue.getBody();
  IRMapping map;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    Value v = in->get();
    auto type = cast<RankedTensorType>(v.getType());
    Value vec;
    if (type.getRank() == 0) {
      vec = splat(rewriter.create<tensor::ExtractOp>(loc, v, ValueRange{}));
    } else if (type.getRank() == 1) {
      vec = splat(rewriter.create<tensor::ExtractOp>(loc, v, ValueRange{filter}));
    } else {
      AffineMap row = AffineMap::get(4, 0, {getAffineDimExpr(3, rewriter.getContext())},
                                     rewriter.getContext());
      vec = rewriter.create<vector::TransferReadOp>(loc, vectorOf(type.getElementType()), v,
                                                    ValueRange{zero, filter, zero, zero}, row,
                                                    ArrayRef<bool>{true});
    }
    map.map(body->getArgument(in->getOperandNumber()), vec);
  }
  map.map(body->getArgument(epilogue.getNumDpsInputs()), column);
  for (Operation &op : body->without_terminator()) {
    if (isa<arith::ConstantOp>(op)) {
      rewriter.clone(op, map);
      continue;
    }
    IRMapping operands;
    for (Value v : op.getOperands())
      operands.map(v, splat(map.lookupOrDefault(v)));
    Operation *vectorized = rewriter.clone(op, operands);
    for (OpResult r : vectorized->getResults())
      r.setType(vectorOf(r.getType()));
    map.map(op.getResults(), vectorized->getResults());
  }
  return splat(map.lookupOrDefault(body->getTerminator()->getOperand(0)));
}

/// Column c of `columns` written at `offsets` + c along dim 1 of `dest`,
/// along its last dim. Into an NCHW output (rank 3 or more) as one
/// transfer of a C x 1 x ... x T block (dims 1 to the last, a minor
/// identity), which LowerVectors splits back into a store per column once
/// buffers exist: 32 transfer_writes chained through the tensor made the
/// bufferization analysis quadratic (ResNet-18: 2 s of its 5 s compile in
/// EmptyTensorElimination and one-shot bufferization).
Value writeColumns(RewriterBase &rewriter, Location loc, ArrayRef<Value> columns, Value dest,
                   ArrayRef<Value> offsets) {
  auto destType = cast<RankedTensorType>(dest.getType());
  auto columnType = cast<VectorType>(columns.front().getType());
  if (destType.getRank() < 3 || columns.size() < 2) {
    for (auto [c, column] : llvm::enumerate(columns)) {
      SmallVector<Value> at(offsets);
      at[1] = rewriter.create<arith::AddIOp>(
          loc, offsets[1], rewriter.create<arith::ConstantIndexOp>(loc, static_cast<int64_t>(c)));
      dest = rewriter.create<vector::TransferWriteOp>(loc, column, dest, at, ArrayRef<bool>{true})
                 .getResult();
    }
    return dest;
  }
  SmallVector<int64_t> shape(destType.getRank() - 1, 1);
  shape.front() = static_cast<int64_t>(columns.size());
  shape.back() = columnType.getDimSize(0);
  auto blockType = VectorType::get(shape, columnType.getElementType());
  Value block = rewriter.create<arith::ConstantOp>(loc, blockType, rewriter.getZeroAttr(blockType));
  for (auto [c, column] : llvm::enumerate(columns)) {
    SmallVector<int64_t> at(shape.size() - 1, 0);
    at.front() = static_cast<int64_t>(c);
    block = rewriter.create<vector::InsertOp>(loc, column, block, at);
  }
  return rewriter
      .create<vector::TransferWriteOp>(loc, block, dest, offsets,
                                       SmallVector<bool>(shape.size(), true))
      .getResult();
}

/// The write-back as one T-float store per column, straight into the
/// output. (Writing the columns into the N x T slice instead, MLIR 19's
/// insert_slice-of-transfer_write folding kept only the last column.) An
/// epilogue (columnEpilogue) runs on each column in registers before its
/// store, instead of on the tile read back from L1.
void vectorizeTileWriteBack(RewriterBase &rewriter, linalg::TransposeOp op,
                            tensor::InsertSliceOp insert) {
  rewriter.setInsertionPoint(insert);
  Location loc = op.getLoc();
  auto in = cast<RankedTensorType>(op.getInput().getType());
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value pad = rewriter.create<arith::ConstantOp>(loc, rewriter.getF32FloatAttr(0.0f));
  Value tile = rewriter.create<vector::TransferReadOp>(
      loc, VectorType::get(in.getShape(), in.getElementType()), op.getInput(),
      ValueRange{zero, zero}, pad, ArrayRef<bool>{true, true});
  SmallVector<Value> offsets =
      getValueOrCreateConstantIndexOp(rewriter, loc, insert.getMixedOffsets());
  Value acc = insert.getDest();
  std::optional<ColumnEpilogue> epilogue = columnEpilogue(insert);
  if (epilogue)
    rewriter.setInsertionPoint(epilogue->insert);
  SmallVector<Value> columns;
  for (auto [c, column] : llvm::enumerate(dlc::tileColumns(rewriter, loc, tile)))
    columns.push_back(epilogue ? epilogueOnColumn(rewriter, loc, epilogue->op,
                                                  static_cast<int64_t>(c), column, zero)
                               : column);
  acc = writeColumns(rewriter, loc, columns, acc, offsets);
  auto slice = op.getInit().getDefiningOp<tensor::ExtractSliceOp>();
  if (epilogue) {
    rewriter.replaceOp(epilogue->insert, acc);
    rewriter.eraseOp(epilogue->op);
    rewriter.eraseOp(epilogue->region);
  }
  rewriter.replaceOp(insert, acc);
  rewriter.eraseOp(op);
  if (slice->use_empty())
    rewriter.eraseOp(slice);
}

/// The map of a transfer through a unit-stride slice that dropped the
/// `dropped` dims of its source, over the source's dims instead.
AffineMap expandSliceMap(AffineMap map, const llvm::SmallBitVector &dropped) {
  SmallVector<AffineExpr> results;
  SmallVector<unsigned> kept;
  for (unsigned d = 0; d < dropped.size(); ++d)
    if (!dropped[d])
      kept.push_back(d);
  for (AffineExpr e : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    results.push_back(dim ? getAffineDimExpr(kept[dim.getPosition()], map.getContext()) : e);
  }
  return AffineMap::get(dropped.size(), 0, results, map.getContext());
}

/// The indices of a transfer through a unit-stride slice, in its source.
SmallVector<Value> indicesInSource(RewriterBase &rewriter, Location loc, ValueRange indices,
                                   ArrayRef<OpFoldResult> offsets,
                                   const llvm::SmallBitVector &dropped) {
  SmallVector<Value> result;
  unsigned next = 0;
  for (unsigned d = 0; d < dropped.size(); ++d) {
    Value offset = getValueOrCreateConstantIndexOp(rewriter, loc, offsets[d]);
    result.push_back(dropped[d] ? offset
                                : rewriter.createOrFold<arith::AddIOp>(loc, offset,
                                                                       indices[next++]));
  }
  return result;
}

/// transfer_read(extract_slice(%t)) reads %t at the slice's offsets (what
/// MLIR's TransferReadOfExtractSliceOpFolder does; see below).
struct ReadThroughSlice : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto slice = read.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    // An out-of-bounds lane reads the padding value, not the slice's
    // neighbour in the source: only in-bounds reads fold.
    if (!slice || !slice.hasUnitStride() || read.getMask() || read.hasOutOfBoundsDim())
      return failure();
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<Value> indices = indicesInSource(rewriter, read.getLoc(), read.getIndices(),
                                                 slice.getMixedOffsets(), dropped);
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        read, read.getVectorType(), slice.getSource(), indices,
        AffineMapAttr::get(expandSliceMap(read.getPermutationMap(), dropped)),
        read.getPadding(), Value(), read.getInBoundsAttr());
    return success();
  }
};

/// insert_slice(transfer_write(%v, %t), %d) writes %v into %d directly, when
/// %v covers all of %t. MLIR 19's InsertSliceOfTransferWriteOpFolder does not
/// check the cover: a ragged last tile written into a batched matmul's matrix
/// became a write of that tile alone into the batch, dropping the matrix's
/// other tiles (fixed upstream later by doesTransferWriteCoverInsertSlice).
struct WriteThroughCoveredSlice : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    if (!write || !insert.hasUnitStride() || write.getMask() || write.hasOutOfBoundsDim() ||
        !write.getShapedType().hasStaticShape() ||
        !llvm::equal(write.getVectorType().getShape(), write.getShapedType().getShape()) ||
        !write.getPermutationMap().isMinorIdentity() ||
        !llvm::all_of(write.getIndices(), [](Value i) { return isConstantIntValue(i, 0); }))
      return failure();
    llvm::SmallBitVector dropped = insert.getDroppedDims();
    SmallVector<Value> indices = indicesInSource(rewriter, write.getLoc(), write.getIndices(),
                                                 insert.getMixedOffsets(), dropped);
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        insert, write.getVector(), insert.getDest(), indices,
        AffineMapAttr::get(expandSliceMap(write.getPermutationMap(), dropped)),
        write.getInBoundsAttr());
    return success();
  }
};

/// A per-row operand of a vectorised epilogue (the bias of a matmul whose
/// rows are filters, a 1x1 convolution's) arrives as a row vector broadcast
/// down the tile and transposed: a shuffle network. The same value is the
/// vector as a column, each element splat along its row.
struct RowBroadcastAsColumn : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    auto broadcast = transpose.getVector().getDefiningOp<vector::BroadcastOp>();
    auto source = broadcast ? dyn_cast<VectorType>(broadcast.getSourceType()) : VectorType();
    VectorType result = transpose.getResultVectorType();
    if (!source || source.getRank() != 1 || result.getRank() != 2 ||
        transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
        result.getDimSize(0) != source.getDimSize(0))
      return failure();
    Value column = rewriter.create<vector::ShapeCastOp>(
        transpose.getLoc(), VectorType::get({source.getDimSize(0), 1}, source.getElementType()),
        broadcast.getSource());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(transpose, result, column);
    return success();
  }
};

/// The elementwise epilogue that updates a full matmul tile's result in
/// place (epilogueOnRegion, fused into the tile by tileAndPeel), or null.
linalg::GenericOp tileEpilogue(linalg::LinalgOp tile) {
  if (!isa<linalg::MatmulOp>(tile.getOperation()) || !tile->hasOneUse())
    return nullptr;
  auto epilogue = dyn_cast<linalg::GenericOp>(*tile->user_begin());
  if (!epilogue || epilogue.getNumDpsInits() != 1 ||
      epilogue.getDpsInits()[0] != tile->getResult(0) ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      !epilogue.hasPureTensorSemantics())
    return nullptr;
  auto type = cast<RankedTensorType>(tile->getResult(0).getType());
  return epilogue.getResult(0).getType() == type && type.hasStaticShape() ? epilogue : nullptr;
}

/// K by 1 (each step one rank-1 update of the C tile), then vector code.
LogicalResult vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp tile) {
  scf::SCFTilingOptions inner;
  inner.setTileSizes(getAsIndexOpFoldResult(tile.getContext(),
                                            ArrayRef<int64_t>{0, 0, 1}));
  rewriter.setInsertionPoint(tile);
  FailureOr<scf::SCFTilingResult> kTiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(tile.getOperation()), inner);
  if (failed(kTiled))
    return failure();
  rewriter.replaceOp(tile, kTiled->replacements);
  return linalg::vectorize(rewriter, kTiled->tiledOps.back());
}

/// Folds the constant tile sizes that peeling exposed into static shapes.
LogicalResult canonicalize(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  for (RegisteredOperationName op : root->getContext()->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, root->getContext());
  linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
  return applyPatternsAndFoldGreedily(root, std::move(patterns));
}

struct TileAndVectorizePass
    : dlc::impl::TileAndVectorizeBase<TileAndVectorizePass> {
  using TileAndVectorizeBase::TileAndVectorizeBase;

  void runOnOperation() override {
    if (tileRows < 1 || tileRows > kTileM || tileColumns < 16 || tileColumns > kTileN ||
        tileColumns % dlc::cpu::kTileColumnStep != 0) {
      getOperation().emitError() << "dlc-tile-and-vectorize: unsupported register tile "
                                 << int64_t(tileRows) << "x" << int64_t(tileColumns) << " (rows 1.." << kTileM
                                 << ", columns a multiple of 16 up to " << kTileN << ")";
      return signalPassFailure();
    }
    if (vectorBits < 128 || vectorBits > 512 || !llvm::isPowerOf2_64(vectorBits)) {
      getOperation().emitError() << "dlc-tile-and-vectorize: unsupported vector-bits "
                                 << int64_t(vectorBits) << " (128, 256 or 512)";
      return signalPassFailure();
    }
    MatmulTile tile{tileRows, tileColumns};
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) {
      if (isStaticF32Matmul(op))
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::MatmulOp> toTile;
    for (linalg::MatmulOp matmul : matmuls) {
      if (int64_t width = blockColumns(matmul, tile, blockBytes))
        toTile.append(blockedPanels(rewriter, matmul, tile, width));
      else if (wantsPackedB(matmul, tile))
        toTile.append(packBPanels(rewriter, matmul, tile));
      else if (int64_t split = raggedSplit(matmul, tile, vectorBits / 32))
        toTile.append(splitColumns(rewriter, matmul, split));
      else
        toTile.push_back(matmul);
    }
    for (linalg::MatmulOp matmul : toTile)
      if (failed(tileAndPeel(rewriter, matmul, tile))) {
        matmul.emitError("cannot tile this matmul");
        return signalPassFailure();
      }
    if (failed(canonicalize(getOperation())))
      return signalPassFailure();

    // Tiles (and their fills) become vector code.
    // A convolution's pixel-row tiles (ConvToMatmul.cpp) arrive as
    // matmul_transpose_a tiles already, with their transposed write-back.
    SmallVector<linalg::LinalgOp> tiles;
    SmallVector<Operation *> fills;
    SmallVector<linalg::TransposeOp> transposes;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::MatmulOp, linalg::MatmulTransposeAOp>(op) &&
          isStaticF32Matmul(cast<linalg::LinalgOp>(op)) && isFullTile(cast<linalg::LinalgOp>(op)))
        tiles.push_back(cast<linalg::LinalgOp>(op));
      if (auto fill = dyn_cast<linalg::FillOp>(op);
          fill && isFullTile(fill))
        fills.push_back(op);
      if (auto t = dyn_cast<linalg::TransposeOp>(op); t && tileWriteBack(t))
        transposes.push_back(t);
    });
    // An epilogue fused into a full matmul tile (tileAndPeel) is vectorised
    // whole, on the tile's vector: its read of the tile then folds into the
    // accumulator, so it runs in registers before the one write of C.
    SmallVector<linalg::GenericOp> epilogues;
    for (linalg::LinalgOp tile : tiles)
      if (linalg::GenericOp epilogue = tileEpilogue(tile))
        epilogues.push_back(epilogue);
    for (linalg::LinalgOp tile : tiles)
      if (failed(vectorizeTile(rewriter, tile))) {
        tile->emitError("cannot vectorise this matmul tile");
        return signalPassFailure();
      }
    for (Operation *op : fills)
      (void)linalg::vectorize(rewriter, op);
    for (linalg::GenericOp op : epilogues)
      (void)linalg::vectorize(rewriter, op);
    for (linalg::TransposeOp op : transposes)
      vectorizeTileWriteBack(rewriter, op, tileWriteBack(op));

    // Clean up the loops and slices, and turn the vectorised reductions into
    // vector.contract.
    RewritePatternSet patterns(&getContext());
    // Broadcasts hidden in transfer permutation maps become vector.broadcast,
    // which the contraction then absorbs into its indexing maps.
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorBroadcastPatterns(patterns);
    patterns.add<RowBroadcastAsColumn>(&getContext());
    linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    // (Not tensor::populateFoldTensorSubsetIntoVectorTransferPatterns: its
    // write folder is wrong in MLIR 19, WriteThroughCoveredSlice above.)
    patterns.add<ReadThroughSlice, WriteThroughCoveredSlice>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

struct HoistVectorTransfersPass
    : dlc::impl::HoistVectorTransfersBase<HoistVectorTransfersPass> {
  void runOnOperation() override {
    linalg::hoistRedundantVectorTransfers(getOperation());
  }
};

/// A transfer_write into a memref of a R x 1 x ... x T block (writeColumns'
/// columns): one 1-D write per row r, at the first written dim + r, once
/// buffers exist; each row's vector.extract folds into the vector.insert
/// that made it.
struct SplitRowBlockWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    VectorType type = write.getVectorType();
    AffineMap map = write.getPermutationMap();
    if (type.getRank() < 2 || write.getMask() || write.hasOutOfBoundsDim() ||
        !isa<MemRefType>(write.getSource().getType()) || !map.isMinorIdentity() ||
        llvm::any_of(type.getShape().drop_front().drop_back(), [](int64_t d) { return d != 1; }))
      return failure();
    Location loc = write.getLoc();
    unsigned rowDim = map.getNumDims() - type.getRank();
    AffineMap rowMap = AffineMap::getMinorIdentityMap(map.getNumDims(), 1, rewriter.getContext());
    SmallVector<Value> at(write.getIndices());
    Value base = at[rowDim];
    SmallVector<int64_t> position(type.getRank() - 1, 0);
    for (int64_t r = 0; r < type.getDimSize(0); ++r) {
      at[rowDim] = rewriter.create<arith::AddIOp>(
          loc, base, rewriter.create<arith::ConstantIndexOp>(loc, r));
      position.front() = r;
      Value row = rewriter.create<vector::ExtractOp>(loc, write.getVector(), position);
      rewriter.create<vector::TransferWriteOp>(loc, row, write.getSource(), ValueRange(at), rowMap,
                                               ArrayRef<bool>{true});
    }
    rewriter.eraseOp(write);
    return success();
  }
};

/// A pixel-row tile's A operand at stride 1 is T contiguous floats per k,
/// read as one vector<1xT> whose lanes the outer products broadcast. LLVM
/// then loads pairs of them as one 8-byte load and splits it with three
/// shuffles (on the FMA ports) instead of broadcasting each float straight
/// from memory; read as T scalars, LLVM merges them back into one <T x float>
/// load, and with T = 6 (the AVX2 tile) lanes 4 and 5 still come out of a
/// shuffled 8-byte load. So a T >= 4 operand is read as 4-float vectors
/// (the last one overlapping the one before: every read stays inside the T
/// floats), each lane of which the backend broadcasts straight from memory;
/// a shorter one float by float.
struct ScalarizeBroadcastOperand : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType type = read.getVectorType();
    if (type.getRank() != 2 || type.getDimSize(0) != 1 || type.getDimSize(1) < 2 ||
        type.getDimSize(1) > kTileM || read.getMask() ||
        !isa<MemRefType>(read.getSource().getType()) || read.hasOutOfBoundsDim() ||
        read->use_empty())
      return failure();
    // Its users: the contraction or, once that is lowered, the extraction
    // of its row as the outer products' broadcast operand, or of its floats.
    auto broadcastsOnly = [](vector::ExtractOp extract) {
      return !isa<VectorType>(extract.getType()) ||
             llvm::all_of(extract->getUsers(), [&](Operation *user) {
               auto outer = dyn_cast<vector::OuterProductOp>(user);
               auto lane = dyn_cast<vector::ExtractOp>(user);
               return (outer && outer.getLhs() == extract.getResult() &&
                       outer.getRhs() != extract.getResult()) ||
                      (lane && !isa<VectorType>(lane.getType()));
             });
    };
    for (Operation *user : read->getUsers()) {
      if (auto extract = dyn_cast<vector::ExtractOp>(user)) {
        if (!broadcastsOnly(extract))
          return failure();
        continue;
      }
      auto contract = dyn_cast<vector::ContractionOp>(user);
      if (!contract || contract.getLhs() != read.getResult() || contract.getRhs() == read.getResult())
        return failure();
    }
    // The memref dimension that vector dimension 1 (the pixels) walks.
    AffineMap map = read.getPermutationMap();
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(1));
    if (!dim)
      return failure();
    Location loc = read.getLoc();
    Value result = rewriter.create<arith::ConstantOp>(loc, type, rewriter.getZeroAttr(type));
    SmallVector<Value> indices(read.getIndices());
    Value base = indices[dim.getPosition()];
    auto at = [&](int64_t offset) {
      indices[dim.getPosition()] = rewriter.create<arith::AddIOp>(
          loc, base, rewriter.create<arith::ConstantIndexOp>(loc, offset));
      return indices;
    };
    int64_t count = type.getDimSize(1);
    auto source = cast<MemRefType>(read.getSource().getType());
    bool innermost = dim.getPosition() == static_cast<unsigned>(source.getRank() - 1);
    constexpr int64_t kChunk = 4;
    if (count < kChunk || !innermost) {
      for (int64_t i = 0; i < count; ++i) {
        Value scalar = rewriter.create<memref::LoadOp>(loc, read.getSource(), at(i));
        result = rewriter.create<vector::InsertOp>(loc, scalar, result, ArrayRef<int64_t>{0, i});
      }
      rewriter.replaceOp(read, result);
      return success();
    }
    auto chunkType = VectorType::get({kChunk}, type.getElementType());
    AffineMap lastDim = AffineMap::getMinorIdentityMap(source.getRank(), 1, rewriter.getContext());
    for (int64_t i = 0; i < count; i += kChunk) {
      int64_t start = std::min(i, count - kChunk);
      Value chunk = rewriter.create<vector::TransferReadOp>(
          loc, chunkType, read.getSource(), at(start), AffineMapAttr::get(lastDim),
          read.getPadding(), /*mask=*/Value(), rewriter.getBoolArrayAttr({true}));
      for (int64_t lane = i; lane < std::min(i + kChunk, count); ++lane) {
        Value scalar = rewriter.create<vector::ExtractOp>(loc, chunk, ArrayRef<int64_t>{lane - start});
        result = rewriter.create<vector::InsertOp>(loc, scalar, result, ArrayRef<int64_t>{0, lane});
      }
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};

/// vector.contract -> outer products -> FMAs; transfers -> loads and stores.
struct LowerVectorsPass : dlc::impl::LowerVectorsBase<LowerVectorsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    vector::VectorTransformsOptions options;
    options.setVectorTransformsOptions(vector::VectorContractLowering::OuterProduct);
    options.setVectorTransposeLowering(vector::VectorTransposeLowering::EltWise);
    {
      RewritePatternSet patterns(ctx);
      patterns.add<ScalarizeBroadcastOperand, SplitRowBlockWrite>(ctx, /*benefit=*/2);
      vector::populateVectorContractLoweringPatterns(patterns, options);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(patterns, options);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerParallel);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns, /*maxTransferRank=*/1);
      vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
      if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
