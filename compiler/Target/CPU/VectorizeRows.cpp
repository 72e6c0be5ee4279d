//===- VectorizeRows.cpp - elementwise nests as one vector per row ---------===//
//
// LLVM vectorises an elementwise loop nest along its innermost loop, unless
// that loop is short: then it unrolls the row fully (7, 14, 28, 49 floats)
// and vectorises the loop around it, across channels, with gathers and
// scatters (a bias add on 512x7x7 did). So nests with rows under 64
// elements are vectorised here instead, one row at a time:
//
//   linalg.generic (n, c, w) ins(%x : 1x512x49, %b : 512) outs(%y)
// becomes
//   scf.for %n, scf.for %c
//     vector.transfer_read %x[%n, %c, 0] : vector<49xf32> ... arith ...
//     vector.transfer_write ... %y[%n, %c, 0]
//
// which lowers to whole-vector loads and stores along the row (49 = three
// 16-float vectors and a masked one). Only all-parallel generics with static
// shapes and projected-permutation maps whose operands are at least bytes
// (i1 vectors are bit-packed in memory) and whose bodies do not index other
// tensors.
//
// Nests that read stride-2 views along the row (pooling and depthwise taps at
// stride 2, rows up to 128) are vectorised here too, by vectorizeStridedRow:
// each stride-2 row of W is read as the 2W - 1 floats it spans and its even
// lanes shuffled out (LLVM's interleaved loads did that in 8-float halves,
// two shuffles each): 96ch 112x112 depthwise at stride 2 280 -> 216 us. When
// the view is a tap of a padded image, the row is read from the image itself
// and the padding made up in the same shuffle (readPaddedRow), so no padded
// copy is made at all: that depthwise 192 -> 80 us, ResNet's 3x3/2 max pool
// 134 -> 81 us; stride-1 taps too on rows up to 64 (144ch 56x56 depthwise
// 133 -> 84 us). Those limits follow the target (RowLimits): 64 and 128
// floats with AVX-512, where they were measured, 16 and 64 with AVX2,
// whose 16 registers spilled on 56- and 28-float rows (that depthwise on
// Zen 3: 1.25 -> 0.57 ms with the padded copy; 192ch 28x28 168 -> 109 us).
// The pass runs
// twice: before PadPerChunk for those, after it
// for nests that still read a padded copy (stride-1 rows over 64, which
// shift better in a padded buffer than across so many lanes). These rows are
// computed in whole 8- or 16-float registers (registerWidth), read with
// masked loads and written with masked stores: at their own odd widths
// (7, 13, 14, 27) LLVM split every load and store into pieces and joined
// them with chains of shuffles. Depthwise 3x3: 960ch 7x7 19.6 -> 13.4 us,
// 576ch 14x14 27.0 -> 20.1, 192ch 28x28 28.3 -> 25.1; MobileNetV2 3.61 ->
// 3.51 ms.
//
// Longer unit-stride rows go in equal pieces of 16 to 64 (rowPiece), each
// vectorised as above, in a loop along the row: left to LLVM, a 196-long row
// became a vectorised loop behind run-time alias checks, a scalar copy of it
// and full unrolling (DenseNet-201's 98 batch norms: 77k of its 234k lines
// of LLVM IR, 39k now).
//
// Sums along rows of up to 256 (a global average pool over its flattened
// planes) become one vector.reduction per row (vectorizeRowReduction): LLVM kept
// them as chains of scalar additions (1280 x 49: 15.0 -> 2.1 us).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include <limits>
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_VECTORIZEROWS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

constexpr int64_t kMaxRow = 64;

/// How a nest's rows are vectorised: not at all, by linalg's vectoriser
/// (unit-stride rows, whole or, when long, in pieces: rowPiece), or by
/// vectorizeStridedRow (some operands are stride-2 views: pooling and
/// depthwise taps at stride 2).
enum class RowKind { None, Unit, LongUnit, Strided, Reduction };

/// The piece a unit-stride row of `row` >= 64 elements is vectorised in, a
/// loop over the row around it: the largest power of two from 16 to 64 that
/// divides `row` (784 = 49 x 16, 3136 = 49 x 64), else the largest divisor
/// from 16 to 64, a multiple of 8 if one divides it (196 = 4 x 49); 0 when
/// none does. Left to LLVM, such rows (the 14x14 and 28x28 planes
/// CollapseShortRows flattens) were vectorised behind run-time alias checks
/// with a scalar copy of the loop and unrolled: about 1000 lines of LLVM IR
/// for a batch norm and ReLU over 1184x14x14, 98 such in DenseNet-201. Powers
/// of two first: a 56-float piece's broadcast operands (a depthwise
/// convolution's taps) became 7 registers each, built lane by lane and
/// spilled; 32ch 112x112 depthwise on an AMD EPYC Zen 3 (AVX2), 112-wide
/// rows in 16s instead of 56s: 0.470 -> 0.201 ms (ORT 0.227).
int64_t rowPiece(int64_t row) {
  for (int64_t piece = 64; piece >= 16; piece /= 2)
    if (row % piece == 0)
      return piece;
  for (int64_t piece = 64; piece >= 16; piece -= 8)
    if (row % piece == 0)
      return piece;
  for (int64_t piece = 63; piece >= 16; --piece)
    if (row % piece == 0)
      return piece;
  return 0;
}

/// Whether `map` (of `op`) runs along the row: its last result is the
/// nest's innermost dim.
bool alongRow(linalg::GenericOp op, AffineMap map) {
  return map.getNumResults() > 0 &&
         map.getResults().back() == getAffineDimExpr(op.getNumLoops() - 1, op.getContext());
}

/// The piece a unit-stride row under 64 elements is vectorised in, or 0 for
/// the whole row: when the operands that vary along it would take more than
/// twice the 16 registers of AVX2 as whole rows (a stride-2 window's nine
/// taps of 56 floats after DeinterleaveStridedTaps: 63 registers, every one
/// spilled), pieces of one or two registers, so that each tap is loaded,
/// used and dropped: MobileNetV2's 144ch 56x56 depthwise with its ReLU6
/// 0.299 -> 0.207 ms on an AMD EPYC Zen 3 (ORT 0.245). Not for bodies with a
/// division or an expanded exponential (SiLU): the same convolution with
/// EfficientNet-B0's SiLU ran 0.502 -> 0.614 ms in pieces.
int64_t unitPiece(linalg::GenericOp op, int64_t vectorFloats) {
  bool longLatency = false;
  op.getBody()->walk([&](Operation *inner) {
    if (isa<arith::DivFOp>(inner) ||
        (isa<math::MathDialect>(inner->getDialect()) && !isa<math::FmaOp>(inner)))
      longLatency = true;
  });
  if (longLatency)
    return 0;
  int64_t row = op.getStaticLoopRanges().back();
  int64_t rowOperands = llvm::count_if(op.getIndexingMapsArray(),
                                       [&](AffineMap map) { return alongRow(op, map); });
  if (row % vectorFloats != 0 || rowOperands * (row / vectorFloats) <= 32)
    return 0;
  return row % (2 * vectorFloats) == 0 && rowOperands * 2 <= 16 ? 2 * vectorFloats
                                                                  : vectorFloats;
}

/// The f32 sum (or maximum) of each row of a tensor: a generic whose last
/// loop, the only reduction, runs along the identity-mapped input's rows,
/// and whose body adds (or maxes) each element into the output (a global
/// average pool's sum over the flattened plane, softmax's row maximum). Its
/// combining op when it is one; null otherwise.
Operation *rowReduction(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() < 2 || op.hasDynamicShape() ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1)
    return nullptr;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [i, t] : llvm::enumerate(iterators))
    if ((t == utils::IteratorType::reduction) != (i + 1 == iterators.size()))
      return nullptr;
  OpOperand *in = op.getDpsInputOperand(0);
  OpOperand *out = op.getDpsInitOperand(0);
  unsigned n = op.getNumLoops();
  if (!op.getMatchingIndexingMap(in).isIdentity() ||
      op.getMatchingIndexingMap(out) !=
          AffineMap::getMultiDimIdentityMap(n, op.getContext()).getMajorSubMap(n - 1) ||
      !getElementTypeOrSelf(in->get().getType()).isF32() ||
      !getElementTypeOrSelf(out->get().getType()).isF32())
    return nullptr;
  Block *body = op.getBody();
  if (body->getOperations().size() != 2)
    return nullptr;
  Operation *combine = &body->front();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (!isa<arith::AddFOp, arith::MaximumFOp>(combine) ||
      yield.getOperand(0) != combine->getResult(0))
    return nullptr;
  Value a = body->getArgument(0), acc = body->getArgument(1);
  Value lhs = combine->getOperand(0), rhs = combine->getOperand(1);
  if (!((lhs == a && rhs == acc) || (lhs == acc && rhs == a)))
    return nullptr;
  return combine;
}

/// The stride of `v`'s rows when it is a view: 1 for whole tensors.
int64_t rowStride(Value v) {
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  return slice ? slice.getStaticStrides().back() : 1;
}

/// The spatial zero/constant pad `v` is a view of, when `v` is a slice of a
/// rank-4 tensor.pad of dims 2 and 3 with a constant value: its rows can be
/// read from the pad's source, the padding made up in registers.
tensor::PadOp paddedSource(Value v) {
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  tensor::PadOp pad = slice ? dlc::spatialConstantPad(slice.getSource()) : tensor::PadOp();
  if (!pad)
    return nullptr;
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  if (ShapedType::isDynamicShape(strides) || strides[0] != 1 || strides[1] != 1 ||
      ShapedType::isDynamic(slice.getStaticOffsets()[3]))
    return nullptr;
  return pad;
}

/// The longest rows read in place and shifted (unit stride) or shuffled
/// (stride 2, up to twice `strided`) in registers. `unit`: the target's
/// (cpu::KernelTiles::shiftedRowFloats: 64 with AVX-512, 16 with AVX2);
/// `strided`: four registers' worth of f32 (64 with AVX-512, where it was
/// measured; 32 with AVX2, whose 16 registers spilled on the 56-float rows
/// of a 144ch 56x56 depthwise convolution).
struct RowLimits {
  int64_t unit, strided;
};

RowKind rowKind(linalg::GenericOp op, RowLimits limits) {
  if (rowReduction(op)) {
    int64_t row = op.getStaticLoopRanges().back();
    return row >= 4 && row <= 4 * kMaxRow ? RowKind::Reduction : RowKind::None;
  }
  if (!op.hasPureTensorSemantics() || op.getNumLoops() < 2 || op.hasDynamicShape())
    return RowKind::None;
  if (!llvm::all_of(op.getIteratorTypesArray(),
                    [](utils::IteratorType t) { return t == utils::IteratorType::parallel; }))
    return RowKind::None;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return RowKind::None;
  bool strided = false, paddedUnit = false;
  unsigned rowDim = op.getNumLoops() - 1;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return RowKind::None;
    int64_t stride = rowStride(operand.get());
    if (stride == 1 && !paddedSource(operand.get()))
      continue;
    if (paddedSource(operand.get())) {
      // A tap of a padded image: read from the image itself (rowKind's
      // caller tiles the outer dims first, so it is a slice of one row).
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (op.isDpsInit(&operand) || !map.isIdentity() || stride > 2)
        return RowKind::None;
      if (stride == 1)
        paddedUnit = true;
      else
        strided = true;
      continue;
    }
    // A stride-2 row read in place (its map ends with the row's dim).
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (stride != 2 || op.isDpsInit(&operand) || map.getNumResults() == 0 ||
        map.getResults().back() != getAffineDimExpr(rowDim, op.getContext()))
      return RowKind::None;
    strided = true;
  }
  // The outputs are written row by row along their last dim.
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).isIdentity())
      return RowKind::None;
  bool foreignReads = false, onlyElementwise = true;
  op.getBody()->walk([&](Operation *inner) {
    if (isa<tensor::ExtractOp, linalg::IndexOp>(inner))
      foreignReads = true;
    if (!isa<linalg::YieldOp, arith::ConstantOp>(inner) &&
        !OpTrait::hasElementwiseMappableTraits(inner))
      onlyElementwise = false;
  });
  if (foreignReads)
    return RowKind::None;
  int64_t row = op.getStaticLoopRanges().back();
  // Unit-stride taps of a padded image, read in place and shifted in
  // registers, win on rows up to 64 (144ch 56x56 depthwise 133 -> 84 us) and
  // lose on longer ones (32ch 112x112 85 -> 109 us), which keep a padded copy
  // (PadPerChunk; the pass runs again after it).
  if (paddedUnit && !strided && row > limits.unit)
    return RowKind::None;
  strided = strided || paddedUnit;
  if (strided)
    return onlyElementwise && op.getNumDpsInits() == 1 && row >= 4 && row <= 2 * limits.strided
               ? RowKind::Strided
               : RowKind::None;
  if (row >= 4 && row < kMaxRow) {
    // A window's row (3+ taps) of an odd width with operands broadcast along
    // it (a depthwise convolution's weights), not cut into pieces, is computed in whole
    // registers as the strided rows are: at its own width (28, 56) each
    // broadcast became a vector LLVM widened and built lane by lane.
    // (Every operand runs along the row as its last dim, or not at all; the
    // output is not read: vectorizeStridedRow reads inputs only.)
    AffineExpr rowExpr = getAffineDimExpr(rowDim, op.getContext());
    bool broadcast = false, plain = true;
    int64_t taps = 0;
    for (AffineMap map : op.getIndexingMapsArray()) {
      if (alongRow(op, map)) {
        ++taps;
        continue;
      }
      broadcast = true;
      plain = plain && !llvm::is_contained(map.getResults(), rowExpr);
    }
    if (broadcast && plain && taps > 3 && !llvm::isPowerOf2_64(row) && onlyElementwise &&
        op.getNumDpsInits() == 1 && !op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)) &&
        row <= 2 * limits.strided &&
        unitPiece(op, limits.strided / 4) == 0)
      return RowKind::Strided;
    return RowKind::Unit;
  }
  return rowPiece(row) ? RowKind::LongUnit : RowKind::None;
}

/// The whole last dim of `tensor` (every other dim of size 1) as a 1-D
/// vector of `width` >= its size lanes, read at the origin (lanes past the
/// dim are `pad`: a masked load), and the write of such a row's first lanes
/// into `tensor` (a masked store).
Value readLastDim(OpBuilder &b, Location loc, Value tensor, int64_t width = 0,
                  Value pad = nullptr) {
  auto type = cast<RankedTensorType>(tensor.getType());
  int64_t size = type.getShape().back();
  width = std::max(width, size);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  if (!pad)
    pad = b.create<arith::ConstantOp>(loc, b.getZeroAttr(type.getElementType()));
  auto map = AffineMap::get(type.getRank(), 0, b.getAffineDimExpr(type.getRank() - 1));
  return b.create<vector::TransferReadOp>(
      loc, VectorType::get({width}, type.getElementType()), tensor,
      SmallVector<Value>(type.getRank(), zero), AffineMapAttr::get(map), pad,
      /*mask=*/Value(), b.getBoolArrayAttr({width == size}));
}
Value writeLastDim(OpBuilder &b, Location loc, Value row, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  bool whole = cast<VectorType>(row.getType()).getDimSize(0) == type.getShape().back();
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  auto map = AffineMap::get(type.getRank(), 0, b.getAffineDimExpr(type.getRank() - 1));
  return b
      .create<vector::TransferWriteOp>(loc, row, tensor, SmallVector<Value>(type.getRank(), zero),
                                       AffineMapAttr::get(map), /*mask=*/Value(),
                                       b.getBoolArrayAttr({whole}))
      .getResult();
}

/// The vector width a row of `row` elements is computed in: whole 8- or
/// 16-float registers. Odd widths (7, 13, 14, 27) became partial loads and
/// stores and chains of shuffles per piece; the junk lanes are never stored.
int64_t registerWidth(int64_t row) {
  return row <= 8 ? 8 : (row + 15) / 16 * 16;
}

/// One row of `slice`, a [1, 1, 1, W] view (column stride 1 or 2) of `pad`,
/// read from the pad's source with no padded copy: the source row is read
/// once (clamped into range), the view's lanes are shuffled out of it with
/// the padding value where a column falls outside the image, and a row
/// outside the image is all padding.
Value readPaddedRow(RewriterBase &rewriter, Location loc, tensor::ExtractSliceOp slice,
                    tensor::PadOp pad, int64_t row, int64_t vecWidth) {
  Value source = pad.getSource();
  auto type = cast<RankedTensorType>(source.getType());
  Type elem = type.getElementType();
  int64_t height = type.getDimSize(2), width = type.getDimSize(3);
  int64_t top = pad.getStaticLow()[2], left = pad.getStaticLow()[3];
  int64_t stride = slice.getStaticStrides()[3], col0 = slice.getStaticOffsets()[3] - left;
  // The source columns the lanes read, and the part of them inside the image.
  int64_t first = std::max<int64_t>(col0, 0);
  int64_t last = std::min<int64_t>(col0 + stride * (row - 1), width - 1);
  // At stride 1, a read of exactly `row` floats inside the image (odd-sized
  // vectors, 55 of a 56-wide row, became element-by-element shuffles).
  if (stride == 1 && width >= row && last >= first) {
    first = std::clamp<int64_t>(col0, 0, width - row);
    last = first + row - 1;
  }
  Value padValue = pad.getConstantPaddingValue();
  auto rowType = VectorType::get({vecWidth}, elem);
  Value padRow = rewriter.create<vector::BroadcastOp>(loc, rowType, padValue);
  if (last < first)
    return padRow;
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  // The source row, clamped into the image; whether it is inside.
  Value r = getValueOrCreateConstantIndexOp(rewriter, loc, offsets[2]);
  r = rewriter.create<arith::SubIOp>(loc, r, rewriter.create<arith::ConstantIndexOp>(loc, top));
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value maxRow = rewriter.create<arith::ConstantIndexOp>(loc, height - 1);
  Value inside = rewriter.create<arith::AndIOp>(
      loc, rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, r, zero),
      rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, r, maxRow));
  Value clamped = rewriter.create<arith::MaxSIOp>(
      loc, rewriter.create<arith::MinSIOp>(loc, r, maxRow), zero);
  int64_t span = last - first + 1;
  Value spanSlice = rewriter.create<tensor::ExtractSliceOp>(
      loc, RankedTensorType::get({1, 1, 1, span}, elem), source,
      ArrayRef<OpFoldResult>{offsets[0], offsets[1], clamped, rewriter.getIndexAttr(first)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(1), rewriter.getIndexAttr(span)},
      SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
  // Read in whole registers: the lanes past the span are the padding value.
  int64_t spanWidth = registerWidth(span);
  Value values = readLastDim(rewriter, loc, spanSlice, spanWidth, padValue);
  // Lane i reads source column col0 + stride * i: from the span, or padding
  // (a lane past the span, or lane 0 of a padding vector when the span fills
  // its registers); lanes past the row are junk.
  Value padding = rewriter.create<vector::BroadcastOp>(
      loc, VectorType::get({spanWidth}, elem), padValue);
  int64_t padLane = span < spanWidth ? span : spanWidth;
  SmallVector<int64_t> lanes;
  for (int64_t i = 0; i < vecWidth; ++i) {
    int64_t c = col0 + stride * i;
    lanes.push_back(i < row && c >= first && c <= last && c >= 0 && c < width ? c - first
                                                                               : padLane);
  }
  Value shuffled = rewriter.create<vector::ShuffleOp>(loc, values, padding, lanes);
  return rewriter.create<arith::SelectOp>(loc, inside, shuffled, padRow);
}

/// One row of a nest with stride-2 operands (a single-row tile of it), as
/// vector code: a stride-2 row of W is read as the 2W - 1 contiguous floats
/// it spans and its even lanes shuffled out (where LLVM's interleaved loads
/// split each tap into 8-float halves), unit rows are read whole, operands
/// that do not vary along the row (a per-channel weight) are broadcast, and
/// the body's elementwise ops are applied to the vectors.
void vectorizeStridedRow(RewriterBase &rewriter, linalg::GenericOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  int64_t row = op.getStaticLoopRanges().back();
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  IRMapping mapping;
  Block *body = op.getBody();
  // Whole registers, unless junk lanes could trap (integer division).
  bool mayTrap = false;
  body->walk([&](Operation *inner) {
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
            arith::CeilDivUIOp, arith::FloorDivSIOp>(inner))
      mayTrap = true;
  });
  int64_t width = mayTrap ? row : registerWidth(row);
  auto vectorOf = [&](Type elem) { return VectorType::get({width}, elem); };
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value v = in->get();
    auto type = cast<RankedTensorType>(v.getType());
    AffineMap map = op.getMatchingIndexingMap(in);
    Type elem = type.getElementType();
    Value vec;
    if (!alongRow(op, map)) {
      // Constant along the row: its single element, broadcast.
      SmallVector<Value> indices(type.getRank(), zero);
      Value scalar = rewriter.create<tensor::ExtractOp>(loc, v, indices);
      vec = rewriter.create<vector::BroadcastOp>(loc, vectorOf(elem), scalar);
    } else if (tensor::PadOp pad = paddedSource(v)) {
      vec = readPaddedRow(rewriter, loc, v.getDefiningOp<tensor::ExtractSliceOp>(), pad, row,
                          width);
    } else if (rowStride(v) == 1) {
      vec = readLastDim(rewriter, loc, v, width);
    } else {
      // The contiguous span of the stride-2 view, then its even lanes.
      auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
      SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
      SmallVector<OpFoldResult> strides = slice.getMixedStrides();
      sizes.back() = rewriter.getIndexAttr(2 * row - 1);
      strides.back() = rewriter.getIndexAttr(1);
      SmallVector<int64_t> spanShape(slice.getType().getShape().drop_back());
      spanShape.push_back(2 * row - 1);
      auto spanType = RankedTensorType::get(spanShape, elem);
      Value span = rewriter.create<tensor::ExtractSliceOp>(
          loc, spanType, slice.getSource(), slice.getMixedOffsets(), sizes, strides);
      Value wide = readLastDim(rewriter, loc, span, mayTrap ? 0 : registerWidth(2 * row - 1));
      SmallVector<int64_t> even;
      for (int64_t i = 0; i < width; ++i)
        even.push_back(i < row ? 2 * i : 0);
      vec = rewriter.create<vector::ShuffleOp>(loc, wide, wide, even);
    }
    mapping.map(body->getArgument(in->getOperandNumber()), vec);
  }
  // The body on vectors (constants stay scalars and are broadcast where used).
  for (Operation &inner : body->without_terminator()) {
    if (isa<arith::ConstantOp>(inner)) {
      rewriter.clone(inner, mapping);
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : inner.getOperands()) {
      Value mapped = mapping.lookupOrDefault(operand);
      if (!isa<VectorType>(mapped.getType()))
        mapped = rewriter.create<vector::BroadcastOp>(loc, vectorOf(mapped.getType()), mapped);
      operands.push_back(mapped);
    }
    OperationState state(inner.getLoc(), inner.getName());
    state.addOperands(operands);
    for (Type t : inner.getResultTypes())
      state.addTypes(vectorOf(t));
    state.addAttributes(inner.getAttrs());
    Operation *vectorOp = rewriter.create(state);
    mapping.map(inner.getResults(), vectorOp->getResults());
  }
  Value result = mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
  if (!isa<VectorType>(result.getType()))
    result = rewriter.create<vector::BroadcastOp>(loc, vectorOf(result.getType()), result);
  rewriter.replaceOp(op, writeLastDim(rewriter, loc, result, op.getDpsInits()[0]));
}

/// One row's sum or maximum (a single-row tile of a rowReduction generic): the
/// row read in whole registers, zeros (or -inf) past its end, and one
/// vector.reduction with the op's fast-math flags (reassoc: a tree),
/// combined with the output. As a loop LLVM summed the row one float at a
/// time (a chain of 49 dependent additions per channel of a 7x7 global
/// average pool), and kept a maximum scalar (softmax's over 128: 2x4x128x128
/// 50 -> 30 us).
void vectorizeRowReduction(RewriterBase &rewriter, linalg::GenericOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  int64_t row = op.getStaticLoopRanges().back();
  Operation *combine = rowReduction(op);
  bool isMax = isa<arith::MaximumFOp>(combine);
  Value in = op.getDpsInputs()[0], init = op.getDpsInits()[0];
  Value pad = rewriter.create<arith::ConstantOp>(
      loc, rewriter.getF32FloatAttr(isMax ? -std::numeric_limits<float>::infinity() : 0.0f));
  Value values = readLastDim(rewriter, loc, in, registerWidth(row), pad);
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<Value> origin(initType.getRank(),
                            rewriter.create<arith::ConstantIndexOp>(loc, 0));
  Value acc = rewriter.create<tensor::ExtractOp>(loc, init, origin);
  auto fastmath = cast<arith::ArithFastMathInterface>(combine).getFastMathFlagsAttr();
  Value sum = rewriter.create<vector::ReductionOp>(
      loc, isMax ? vector::CombiningKind::MAXIMUMF : vector::CombiningKind::ADD, values, acc,
      fastmath ? fastmath.getValue() : arith::FastMathFlags::none);
  rewriter.replaceOp(op, rewriter.create<tensor::InsertOp>(loc, sum, init, origin).getResult());
}

struct VectorizeRowsPass : dlc::impl::VectorizeRowsBase<VectorizeRowsPass> {
  using VectorizeRowsBase::VectorizeRowsBase;

  void runOnOperation() override {
    // Slices of slices (a chunk of a window tap) as one slice, so that a tap
    // of a padded image is seen as one.
    {
      RewritePatternSet patterns(&getContext());
      tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
      if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    SmallVector<std::pair<linalg::GenericOp, RowKind>> nests;
    RowLimits limits{shiftedRowFloats, 4 * std::max<int64_t>(vectorBits / 32, 4)};
    getOperation().walk([&](linalg::GenericOp op) {
      if (RowKind kind = rowKind(op, limits); kind != RowKind::None)
        nests.push_back({op, kind});
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, kind] : nests) {
      SmallVector<int64_t> tiles(op.getNumLoops(), 1);
      // The row stays whole, or is split into equal pieces.
      tiles.back() = kind == RowKind::LongUnit ? rowPiece(op.getStaticLoopRanges().back())
                     : kind == RowKind::Unit   ? unitPiece(op, vectorBits / 32)
                                               : 0;
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), tiles));
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      if (kind == RowKind::Reduction) {
        vectorizeRowReduction(rewriter, cast<linalg::GenericOp>(tiled->tiledOps.back()));
        continue;
      }
      if (kind == RowKind::Unit || kind == RowKind::LongUnit) {
        (void)linalg::vectorize(rewriter, tiled->tiledOps.back());
        continue;
      }
      // The row's slices of slices as single slices (of the padded image).
      auto rowOp = cast<linalg::GenericOp>(tiled->tiledOps.back());
      for (OpOperand &operand : rowOp->getOpOperands()) {
        auto outer = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
        auto inner = outer ? outer.getSource().getDefiningOp<tensor::ExtractSliceOp>()
                           : tensor::ExtractSliceOp();
        if (!inner)
          continue;
        rewriter.setInsertionPoint(outer);
        SmallVector<OpFoldResult> offsets, sizes, strides;
        if (failed(affine::mergeOffsetsSizesAndStrides(rewriter, outer.getLoc(), inner, outer,
                                                        inner.getDroppedDims(), offsets, sizes,
                                                        strides)))
          continue;
        Value merged = rewriter.create<tensor::ExtractSliceOp>(
            outer.getLoc(), outer.getType(), inner.getSource(), offsets, sizes, strides);
        rewriter.modifyOpInPlace(rowOp, [&] { operand.set(merged); });
      }
      vectorizeStridedRow(rewriter, rowOp);
    }
  }
};

} // namespace
