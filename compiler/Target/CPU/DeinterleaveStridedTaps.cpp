//===- DeinterleaveStridedTaps.cpp - stride-2 windows over split columns --===//
//
// A window of stride 2 along the row (a 3x3/2 max pool, a stride-2
// depthwise convolution) reads each tap as every other column of the
// (padded) image. VectorizeRows reads such a tap as the span it covers and
// shuffles its even lanes out: about three shuffles per output register per
// tap, 27 for a 3x3 window, with AVX2's lane-crossing shuffles the bottleneck
// (ResNet's 3x3/2 max pool over 64ch 112x112 2.2x ONNX Runtime's time on an
// AMD EPYC Zen 3; MobileNetV2's stride-2 depthwise layers 1.5-1.8x). So each
// nest's image is first split into its even and odd columns, once:
//
//   %t = tensor.extract_slice %p[0, %c, ky, kx] [1, C, OH, OW] [1, 1, s, 2]
//   linalg.generic ins(%t, ...)                      (one slice per tap)
// becomes
//   %e = copy of %p[0, %c, 0, 0] [1, C, H, (W + 1) / 2] [1, 1, 1, 2]
//   %o = copy of %p[0, %c, 0, 1] [1, C, H, W / 2]       [1, 1, 1, 2]
//   %t = tensor.extract_slice %e[0, 0, ky, kx / 2] [1, C, OH, OW] [1, 1, s, 1]
//        (kx odd: %o at (kx - 1) / 2)
//   linalg.generic ins(%t, ...)
//
// The two copies are stride-2 rows themselves (VectorizeRows shuffles them,
// reading a padded image's rows from the image: two shuffles per output
// register of each, every image row once); the taps become unit-stride rows
// of them, a tap at kx = 2 the even columns read one float on. Each
// parallel chunk splits its own channels, so the copies stay in L2.
//
// Only where the shuffles it saves outweigh the copy (kWorthTaps,
// kWorthWidth): 5x5 windows, or rows of at least 56 outputs. Measured on an
// AMD EPYC Zen 3 (AVX2, one thread, minimum kernel times, before -> after):
// EfficientNet-B0's 5x5/2 depthwise convolutions with SiLU, 144ch 56x56
// 0.647 -> 0.401 ms, 672ch 14x14 0.275 -> 0.208; ResNet's 3x3/2 max pool,
// 64ch 112x112, 0.265 -> 0.182; 3x3/2 depthwise at 112x112 0.356 -> 0.341
// (ReLU), 0.548 -> 0.516 (SiLU). With 3x3 windows on smaller images the
// copy cost more than it saved: MobileNetV2's 144ch 56x56 0.123 -> 0.142,
// 576ch 14x14 0.065 -> 0.110. Static shapes only, and copies of rows of at
// most 64 floats (what VectorizeRows shuffles in registers on every
// target).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_DEINTERLEAVESTRIDEDTAPS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// The longest row of split columns made (VectorizeRows shuffles stride-2
/// rows of up to twice its register limit in registers: 64 with AVX2).
constexpr int64_t kMaxSplitRow = 64;

/// The fewest taps of one image, or else the fewest outputs per row, that
/// make the split worth its copy (see the top of this file).
constexpr size_t kWorthTaps = 25;
constexpr int64_t kWorthWidth = 56;

/// A window tap: a rank-4 view of `source` with static sizes, spatial
/// offsets and strides, its row stride 2 and its batch and channel strides
/// 1 (as ParallelizeLoopNests leaves it: a chunk's slice of the whole
/// tensor's tap, taken as one view).
struct Tap {
  Value source;
  SmallVector<OpFoldResult> offsets; // batch and channel: any; spatial: static
  SmallVector<int64_t> sizes, strides;

  bool samePlanes(const Tap &other) const {
    return source == other.source && offsets[0] == other.offsets[0] &&
           offsets[1] == other.offsets[1] && sizes[0] == other.sizes[0] &&
           sizes[1] == other.sizes[1];
  }
};

/// `v` as a stride-2 tap, when it is one.
std::optional<Tap> asTap(Value v) {
  auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
  auto rank4 = [](tensor::ExtractSliceOp s) {
    return s && s.getSourceType().getRank() == 4 && s.getType().getRank() == 4 &&
           s.getSourceType().hasStaticShape() &&
           !ShapedType::isDynamicShape(s.getStaticSizes()) &&
           !ShapedType::isDynamicShape(s.getStaticStrides());
  };
  if (!rank4(slice))
    return std::nullopt;
  Tap tap{slice.getSource(), slice.getMixedOffsets(), llvm::to_vector(slice.getStaticSizes()),
          llvm::to_vector(slice.getStaticStrides())};
  // A slice of a tap: batch and channel offsets from the outer slice (the
  // inner one takes them whole), spatial ones combined.
  if (auto inner = slice.getSource().getDefiningOp<tensor::ExtractSliceOp>(); rank4(inner)) {
    ArrayRef<int64_t> innerOffsets = inner.getStaticOffsets(), innerStrides = inner.getStaticStrides();
    if (innerOffsets[0] != 0 || innerOffsets[1] != 0 || innerStrides[0] != 1 ||
        innerStrides[1] != 1 || ShapedType::isDynamic(innerOffsets[2]) ||
        ShapedType::isDynamic(innerOffsets[3]))
      return std::nullopt;
    tap.source = inner.getSource();
    for (int d = 2; d < 4; ++d) {
      std::optional<int64_t> outer = getConstantIntValue(tap.offsets[d]);
      if (!outer)
        return std::nullopt;
      tap.offsets[d] = OpBuilder(v.getContext()).getIndexAttr(innerOffsets[d] + *outer * innerStrides[d]);
      tap.strides[d] *= innerStrides[d];
    }
  }
  if (tap.strides[0] != 1 || tap.strides[1] != 1 || tap.strides[3] != 2 ||
      !getConstantIntValue(tap.offsets[2]) || !getConstantIntValue(tap.offsets[3]))
    return std::nullopt;
  return tap;
}

/// The image the taps read: `source` (the pad's source when they read a
/// spatial tensor.pad of it, the padding `top` rows and `left` columns on
/// its low sides, `value` its value).
struct Image {
  Value source;
  int64_t top = 0, left = 0, paddedHeight = 0;
  Value value;

  explicit Image(Value tapped) : source(tapped) {
    auto type = cast<RankedTensorType>(tapped.getType());
    paddedHeight = type.getDimSize(2);
    if (tensor::PadOp pad = dlc::spatialConstantPad(tapped)) {
      source = pad.getSource();
      top = pad.getStaticLow()[2];
      left = pad.getStaticLow()[3];
      value = pad.getConstantPaddingValue();
    }
  }
  int64_t height() const { return cast<RankedTensorType>(source.getType()).getDimSize(2); }
  int64_t width() const { return cast<RankedTensorType>(source.getType()).getDimSize(3); }
};

/// Where a tap's row starts in the split columns: the parity of the
/// image column its first output reads, and that column's index among the
/// columns of its parity (negative in the left padding).
std::pair<int64_t, int64_t> splitColumn(const Tap &tap, const Image &image) {
  int64_t column = *getConstantIntValue(tap.offsets[3]) - image.left;
  int64_t parity = ((column % 2) + 2) % 2;
  return {parity, (column - parity) / 2};
}

/// The columns that make `columns` elements of `elem` whole 64-byte cache
/// lines.
int64_t linePadding(int64_t columns, Type elem) {
  int64_t perLine = std::max<int64_t>(1, 512 / elem.getIntOrFloatBitWidth());
  return (perLine - columns % perLine) % perLine;
}

/// The image's columns of `parity`, copied out of every other column
/// (VectorizeRows reads each row whole and shuffles its lanes out), with
/// `before` and `after` columns and the image's top and bottom padding rows
/// of the padding value around them.
Value splitColumns(OpBuilder &b, Location loc, const Tap &tap, const Image &image,
                   int64_t parity, int64_t before, int64_t after) {
  Type elem = cast<RankedTensorType>(image.source.getType()).getElementType();
  int64_t width = (image.width() - parity + 1) / 2;
  SmallVector<int64_t> shape{tap.sizes[0], tap.sizes[1], image.height(), width};
  SmallVector<OpFoldResult> offsets{tap.offsets[0], tap.offsets[1], b.getIndexAttr(0),
                                    b.getIndexAttr(parity)};
  auto type = RankedTensorType::get(shape, elem);
  Value columns = b.create<tensor::ExtractSliceOp>(
      loc, type, image.source, offsets, getAsIndexOpFoldResult(b.getContext(), shape),
      getAsIndexOpFoldResult(b.getContext(), {1, 1, 1, 2}));
  // The buffer's borders filled first and the copy written into its
  // interior (a copy made apart would be copied again).
  int64_t bottom = image.paddedHeight - image.height() - image.top;
  Value buffer = b.create<tensor::EmptyOp>(loc, shape, elem);
  SmallVector<int64_t> at{0, 0, 0, 0};
  if (image.top || bottom || before || after) {
    auto padded = RankedTensorType::get(
        {shape[0], shape[1], image.paddedHeight, before + width + after}, elem);
    buffer = dlc::fillBorders(b, loc, padded, {0, 0, image.top, before}, {0, 0, bottom, after},
                              image.value);
    at = {0, 0, image.top, before};
  }
  auto attrs = [&](ArrayRef<int64_t> v) { return getAsIndexOpFoldResult(b.getContext(), v); };
  Value interior = b.create<tensor::ExtractSliceOp>(loc, type, buffer, attrs(at), attrs(shape),
                                                    attrs({1, 1, 1, 1}));
  AffineMap id = b.getMultiDimIdentityMap(4);
  Value copied = b.create<linalg::GenericOp>(
                      loc, type, columns, interior, ArrayRef<AffineMap>{id, id},
                      SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
                      [](OpBuilder &nb, Location nl, ValueRange args) {
                        nb.create<linalg::YieldOp>(nl, args[0]);
                      })
                     .getResult(0);
  return b.create<tensor::InsertSliceOp>(loc, copied, buffer, attrs(at), attrs(shape),
                                         attrs({1, 1, 1, 1}));
}

/// Rewrites `op`'s stride-2 taps of one image as unit-stride slices of its
/// even and odd columns; false where it does not apply.
bool deinterleave(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() != 4)
    return false;
  SmallVector<std::pair<OpOperand *, Tap>> taps;
  for (OpOperand *in : op.getDpsInputOperands()) {
    std::optional<Tap> tap = asTap(in->get());
    if (!tap || !op.getMatchingIndexingMap(in).isIdentity() ||
        (!taps.empty() && !tap->samePlanes(taps.front().second)))
      continue;
    taps.push_back({in, *tap});
  }
  if (taps.empty() || (taps.size() < kWorthTaps && taps.front().second.sizes[3] < kWorthWidth))
    return false;
  Image image(taps.front().second.source);
  if (!cast<RankedTensorType>(image.source.getType()).hasStaticShape() ||
      (image.width() + 1) / 2 > kMaxSplitRow)
    return false;
  // Per parity: whether a tap reads it, and the padding columns its taps
  // reach before and after the image's.
  struct Side {
    bool used = false;
    int64_t before = 0, after = 0;
  } sides[2];
  for (auto &[in, tap] : taps) {
    auto [parity, first] = splitColumn(tap, image);
    int64_t width = (image.width() - parity + 1) / 2;
    Side &side = sides[parity];
    side.used = true;
    side.before = std::max(side.before, -first);
    side.after = std::max(side.after, first + tap.sizes[3] - width);
  }
  if (!image.value && (sides[0].before || sides[0].after || sides[1].before || sides[1].after))
    return false;
  // Rows of whole cache lines, each interior starting on one: the copy's
  // vector stores then write one line each, where rows of 57 floats split
  // most of them in two.
  Type elem = cast<RankedTensorType>(image.source.getType()).getElementType();
  for (int64_t parity = 0; parity < 2 && image.value; ++parity) {
    Side &side = sides[parity];
    side.before += linePadding(side.before, elem);
    side.after += linePadding(side.before + (image.width() - parity + 1) / 2 + side.after, elem);
  }
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value split[2];
  for (int64_t parity = 0; parity < 2; ++parity)
    if (sides[parity].used)
      split[parity] = splitColumns(rewriter, loc, taps.front().second, image, parity,
                                   sides[parity].before, sides[parity].after);
  for (auto &[in, tap] : taps) {
    auto [parity, first] = splitColumn(tap, image);
    SmallVector<OpFoldResult> offsets{rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
                                      tap.offsets[2],
                                      rewriter.getIndexAttr(first + sides[parity].before)};
    SmallVector<int64_t> strides = tap.strides;
    strides[3] = 1;
    Value slice = rewriter.create<tensor::ExtractSliceOp>(
        loc, cast<RankedTensorType>(in->get().getType()), split[parity], offsets,
        getAsIndexOpFoldResult(rewriter.getContext(), tap.sizes),
        getAsIndexOpFoldResult(rewriter.getContext(), strides));
    rewriter.modifyOpInPlace(op, [&] { in->set(slice); });
  }
  return true;
}

struct DeinterleaveStridedTapsPass
    : dlc::impl::DeinterleaveStridedTapsBase<DeinterleaveStridedTapsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> nests;
    getOperation().walk([&](linalg::GenericOp op) { nests.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : nests)
      (void)deinterleave(rewriter, op);
  }
};

} // namespace
