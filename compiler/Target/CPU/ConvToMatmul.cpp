//===- ConvToMatmul.cpp - f32 NCHW convolutions as register-tiled matmuls --===//
//
// Three strategies, the first that applies (compiler/Target/CPU/ConvStrategy.h decides the
// first two, and PackConvWeights lays out their weights to match):
// - ConvOnPixelRows: a weight packed in P-filter panels; register tiles of
//   T output pixels of one row times P filters (any stride; T x P the
//   target's tile, CpuTiles.h: 8 x 32 with AVX-512, 6 x 16 with AVX2), with the
//   convolution's in-place epilogue applied to each tile as it is written;
// - ConvAsShiftedMatmuls: stride-1 KxK with a weight packed taps-outermost;
// - ConvAsIm2ColMatmul: everything else, below (1x1 stride 1 without a copy).
//
// Out[n] (F x OH*OW) = W (F x C*KH*KW) · Col[n] (C*KH*KW x OH*OW), so a
// convolution gets the same register-tiled, vectorised matmul as a GEMM:
//
//   %y = linalg.conv_2d_nchw_fchw {strides, dilations}
//          ins(%x_padded : NxCxHxW, %w : FxCxKHxKW) outs(%acc : NxFxOHxOW)
// becomes
//   %w2 = tensor.collapse_shape %w  : FxCxKHxKW -> Fx(C*KH*KW)       (a view)
//   scf.for %n = 0 to N iter_args(%a = %acc : NxFxOHxOW) {
//     %col = linalg.generic (c,kh,kw,oh,ow) -> x[n, c, oh*s+kh*d, ow*s+kw*d]
//     %rows = collapse(%a[n]) : Fx(OH*OW)                               (a view)
//     %mm  = linalg.matmul ins(%w2, collapse(%col)) outs(%rows)
//     scf.yield insert(expand(%mm) into %a[n])
//   }
//
// The loop carries the accumulator in its own NCHW type, with no reshape
// between it and the convolution's result, so that empty-tensor elimination
// can still put the output buffer under the fill and the matmul writes the
// kernel's output in place (a reshape in that chain cost a temporary, a
// memset and a copy of the whole output per call).
//
// The im2col copy is one pass over C*KH*KW*OH*OW elements per image, small
// next to the matmul's 2*F*C*KH*KW*OH*OW operations; a 1x1 stride-1
// convolution skips it (Col is the image, C x H*W, a view). When OH*OW is not a
// multiple of 16, Col and the output rows are widened with zero columns to
// the next multiple (and the product sliced back), so that no register tile
// is ragged.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/Passes.h"
#include "compiler/Target/CPU/ConvStrategy.h"
#include "compiler/Target/CPU/CpuTiles.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_CONVTOMATMUL
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// A convolution's operands and their types, when all are static f32 (what
/// both strategies handle).
struct ConvOperands {
  Value input, filter, init;
  RankedTensorType xType, wType, yType;
};
std::optional<ConvOperands> staticF32Operands(linalg::Conv2DNchwFchwOp conv) {
  ConvOperands ops{conv.getInputs()[0], conv.getInputs()[1], conv.getOutputs()[0], {}, {}, {}};
  RankedTensorType *types[] = {&ops.xType, &ops.wType, &ops.yType};
  for (auto [v, type] : llvm::zip(std::array<Value, 3>{ops.input, ops.filter, ops.init}, types)) {
    *type = dyn_cast<RankedTensorType>(v.getType());
    if (!*type || !type->hasStaticShape() || !type->getElementType().isF32())
      return std::nullopt;
  }
  return ops;
}

/// The fill of zeros `init` comes from (the conv2d lowering's accumulator).
linalg::FillOp zeroFillOf(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  auto cst = fill ? fill.getInputs()[0].getDefiningOp<arith::ConstantOp>() : nullptr;
  auto value = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
  return value && value.getValue().isZero() ? fill : linalg::FillOp();
}

/// `result` replaces the convolution, or, when its in-place `epilogue` was
/// taken into the loops that compute `result`, the epilogue (and the
/// convolution, then unused, goes).
void replaceConvolution(PatternRewriter &rewriter, linalg::Conv2DNchwFchwOp conv,
                        linalg::GenericOp epilogue, Value result) {
  if (!epilogue) {
    rewriter.replaceOp(conv, result);
    return;
  }
  rewriter.replaceOp(epilogue, result);
  rewriter.eraseOp(conv);
}

/// An NCHW epilogue that can run on one image's [F, H*W] rows: its operands
/// are per-channel vectors, whole NCHW tensors read in place, or scalars.
bool planeEpilogueApplies(linalg::GenericOp epilogue) {
  MLIRContext *ctx = epilogue.getContext();
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(in);
    if (map.getNumResults() != 0 && !map.isIdentity() &&
        map != AffineMap::get(4, 0, getAffineDimExpr(1, ctx), ctx))
      return false;
  }
  return true;
}

/// `epilogue` (planeEpilogueApplies) on image `image`'s rows, updating
/// `rows` ([F, H*W]) in place.
Value planeEpilogue(OpBuilder &b, Location loc, linalg::GenericOp epilogue, Value image,
                    Value rows) {
  MLIRContext *ctx = b.getContext();
  auto rowsType = cast<RankedTensorType>(rows.getType());
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(in);
    auto type = cast<RankedTensorType>(in->get().getType());
    if (map.getNumResults() == 0) {
      inputs.push_back(in->get());
      maps.push_back(AffineMap::get(2, 0, {}, ctx));
    } else if (map.isIdentity()) {
      // This image's plane of a whole NCHW tensor, as rows.
      ArrayRef<int64_t> shape = type.getShape();
      Value plane = b.create<tensor::ExtractSliceOp>(
          loc, RankedTensorType::get({shape[1], shape[2], shape[3]}, type.getElementType()),
          in->get(),
          ArrayRef<OpFoldResult>{image, b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(shape[1]),
                                 b.getIndexAttr(shape[2]), b.getIndexAttr(shape[3])},
          SmallVector<OpFoldResult>(4, b.getIndexAttr(1)));
      inputs.push_back(b.create<tensor::CollapseShapeOp>(
          loc, RankedTensorType::get(rowsType.getShape(), type.getElementType()), plane,
          ArrayRef<ReassociationIndices>{{0}, {1, 2}}));
      maps.push_back(AffineMap::getMultiDimIdentityMap(2, ctx));
    } else {
      inputs.push_back(in->get()); // by channel
      maps.push_back(AffineMap::get(2, 0, getAffineDimExpr(0, ctx), ctx));
    }
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(2, ctx));
  auto op = b.create<linalg::GenericOp>(
      loc, TypeRange{rowsType}, inputs, ValueRange{rows}, maps,
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel));
  IRMapping mapping;
  epilogue.getRegion().cloneInto(&op.getRegion(), mapping);
  return op.getResult(0);
}

struct ConvAsIm2ColMatmul : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    std::optional<ConvOperands> ops = staticF32Operands(conv);
    if (!ops)
      return rewriter.notifyMatchFailure(conv, "not a static f32 convolution");
    Value input = ops->input, filter = ops->filter, init = ops->init;
    RankedTensorType xType = ops->xType, wType = ops->wType, yType = ops->yType;

    Location loc = conv.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type f32 = rewriter.getF32Type();
    ArrayRef<int64_t> x = xType.getShape(), w = wType.getShape(), y = yType.getShape();
    int64_t n = x[0], c = x[1], h = x[2], wd = x[3];
    int64_t f = w[0], kh = w[2], kw = w[3], oh = y[2], ow = y[3];
    auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
    auto dilations = llvm::to_vector(conv.getDilations().getValues<int64_t>());

    Value w2 = rewriter.create<tensor::CollapseShapeOp>(
        loc, RankedTensorType::get({f, c * kh * kw}, f32), filter,
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    // A zero-filled accumulator (as the conv2d lowering makes) needs no copy
    // into the widened rows of a ragged output: they are zeros too.
    linalg::FillOp zeroFill = zeroFillOf(init);
    bool zeroInit = static_cast<bool>(zeroFill);
    // An in-place epilogue (bias, activation, residual) runs on the matmul's
    // [F, OH*OW] rows, where TileAndVectorize fuses it into the register
    // tiles, instead of as a pass over the whole output.
    linalg::GenericOp epilogue = dlc::inPlaceEpilogue(conv.getResult(0));
    if (epilogue && !planeEpilogueApplies(epilogue))
      epilogue = nullptr;

    int64_t cols = oh * ow, padded = cols % 16 ? (cols + 15) / 16 * 16 : cols;
    if (cols != padded)
      epilogue = nullptr; // (the widened rows are sliced back after the matmul)
    // Under an epilogue the loop goes where the epilogue was: its other
    // operands (a residual) may be computed after the convolution.
    if (epilogue)
      rewriter.setInsertionPoint(epilogue);
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
    Value count = rewriter.create<arith::ConstantIndexOp>(loc, n);
    // Zeros are filled per image, on the matmul's rows, where TileAndVectorize
    // fuses the fill into the register tiles: the loop then carries the
    // empty tensor under the fill, and the output is never zeroed in memory
    // (MobileNetV2's first 1x1 expansion spent ~30% of its time in a memset
    // of its 4.8 MB output that every tile then overwrote).
    bool fillPerImage = zeroInit && cols == padded && zeroFill->hasOneUse();
    Value carried = fillPerImage ? zeroFill.getOutputs()[0] : init;
    auto loop = rewriter.create<scf::ForOp>(
        loc, zero, count, one, ValueRange{carried},
        [&](OpBuilder &b, Location loc, Value image, ValueRange iterArgs) {
          Value acc = iterArgs[0];
          // The image: [C, H, W], rank-reduced.
          SmallVector<OpFoldResult> offsets = {image, b.getIndexAttr(0),
                                               b.getIndexAttr(0), b.getIndexAttr(0)};
          SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(c),
                                             b.getIndexAttr(h), b.getIndexAttr(wd)};
          SmallVector<OpFoldResult> unit(4, b.getIndexAttr(1));
          Value slice = b.create<tensor::ExtractSliceOp>(
              loc, RankedTensorType::get({c, h, wd}, f32), input, offsets, sizes, unit);

          // A 1x1 stride-1 convolution's Col is the image itself: no copy.
          Value col2;
          if (kh == 1 && kw == 1 && oh == h && ow == wd) {
            col2 = b.create<tensor::CollapseShapeOp>(
                loc, RankedTensorType::get({c, h * wd}, f32), slice,
                ArrayRef<ReassociationIndices>{{0}, {1, 2}});
          } else {
            // Col[c, kh, kw, oh, ow] = image[c, oh*s + kh*d, ow*s + kw*d].
            AffineExpr dc, dkh, dkw, doh, dow;
            bindDims(ctx, dc, dkh, dkw, doh, dow);
            AffineMap read = AffineMap::get(
                5, 0,
                {dc, doh * strides[0] + dkh * dilations[0],
                 dow * strides[1] + dkw * dilations[1]},
                ctx);
            AffineMap write = AffineMap::getMultiDimIdentityMap(5, ctx);
            auto colType = RankedTensorType::get({c, kh, kw, oh, ow}, f32);
            Value empty = b.create<tensor::EmptyOp>(loc, colType.getShape(), f32);
            Value col =
                b.create<linalg::GenericOp>(
                     loc, TypeRange{colType}, ValueRange{slice}, ValueRange{empty},
                     ArrayRef<AffineMap>{read, write},
                     SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
                     [](OpBuilder &b, Location loc, ValueRange args) {
                       b.create<linalg::YieldOp>(loc, args[0]);
                     })
                    .getResult(0);
            col2 = b.create<tensor::CollapseShapeOp>(
                loc, RankedTensorType::get({c * kh * kw, oh * ow}, f32), col,
                ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
          }

          // This image's output rows, accumulated by the matmul.
          SmallVector<OpFoldResult> outOffsets = {image, b.getIndexAttr(0),
                                                  b.getIndexAttr(0), b.getIndexAttr(0)};
          SmallVector<OpFoldResult> outSizes = {b.getIndexAttr(1), b.getIndexAttr(f),
                                                b.getIndexAttr(oh), b.getIndexAttr(ow)};
          SmallVector<OpFoldResult> outUnit(4, b.getIndexAttr(1));
          auto planeType = RankedTensorType::get({f, oh, ow}, f32);
          auto rowsType = RankedTensorType::get({f, oh * ow}, f32);
          SmallVector<ReassociationIndices> flat = {{0}, {1, 2}};
          Value plane = b.create<tensor::ExtractSliceOp>(loc, planeType, acc, outOffsets,
                                                         outSizes, outUnit);
          Value rows = b.create<tensor::CollapseShapeOp>(loc, rowsType, plane, flat);
          Value product;
          if (cols == padded) {
            if (fillPerImage)
              rows = b.create<linalg::FillOp>(loc, zeroFill.getInputs()[0], rows).getResult(0);
            product = b.create<linalg::MatmulOp>(loc, TypeRange{rowsType},
                                                 ValueRange{w2, col2}, ValueRange{rows})
                          .getResult(0);
            if (epilogue)
              product = planeEpilogue(b, loc, epilogue, image, product);
          } else {
            // Ragged OH*OW (7x7, 14x14, 28x28 in ResNet): zero columns up to a
            // multiple of 16, so every register tile is full 16-wide vectors
            // (the 8x17 edge tile of a 49-column matmul runs 8x slower).
            auto widen = [&](Value v, int64_t rowsOf, bool isZero) -> Value {
              auto type = RankedTensorType::get({rowsOf, padded}, f32);
              Value zero = b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(0.0f));
              Value filled =
                  b.create<linalg::FillOp>(
                       loc, zero, b.create<tensor::EmptyOp>(loc, type.getShape(), f32).getResult())
                      .getResult(0);
              if (isZero)
                return filled;
              return b.create<tensor::InsertSliceOp>(
                  loc, v, filled, ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
                  ArrayRef<OpFoldResult>{b.getIndexAttr(rowsOf), b.getIndexAttr(cols)},
                  ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)}).getResult();
            };
            Value wideCol = widen(col2, c * kh * kw, false);
            Value wideRows = widen(rows, f, zeroInit);
            Value wide = b.create<linalg::MatmulOp>(
                              loc, TypeRange{wideRows.getType()}, ValueRange{w2, wideCol},
                              ValueRange{wideRows})
                             .getResult(0);
            product = b.create<tensor::ExtractSliceOp>(
                loc, rowsType, wide,
                ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
                ArrayRef<OpFoldResult>{b.getIndexAttr(f), b.getIndexAttr(cols)},
                ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
          }
          Value updated = b.create<tensor::InsertSliceOp>(
              loc, b.create<tensor::ExpandShapeOp>(loc, planeType, product, flat), acc,
              outOffsets, outSizes, outUnit);
          b.create<scf::YieldOp>(loc, updated);
        });
    replaceConvolution(rewriter, conv, epilogue, loop.getResult(0));
    return success();
  }
};

/// A stride-1 KHxKW convolution without im2col. On the padded image flattened
/// per channel (row length Wp), output column j = oh*Wp + ow of tap (kh, kw)
/// reads x[c, kh*Wp + kw + j], so for one tap the C x N operand is a strided
/// view of the image itself and the convolution is KH*KW accumulating matmuls:
///
///   scf.for %t = 0 to KH*KW iter_args(%wide = zeros : F x Npad) {
///     %a = %w[:, :, t / KW, t % KW]                    : F x C     (a view)
///     %b = flat(%x_padded[n])[:, (t / KW)*Wp + t % KW :] : C x Npad (a view)
///     scf.yield linalg.matmul ins(%a, %b) outs(%wide)
///   }
///   %y[n] = reshape(%wide[:, :OH*Wp]) to F x OH x Wp, first OW columns
///
/// The Wp - OW junk columns per row are computed and dropped (2 of 58 at
/// 56x56), Npad = OH*Wp rounded up to 16 so that no register tile is ragged,
/// and extra zero rows under the padded image keep the last taps' reads in
/// bounds. Against im2col this saves writing and reading C*KH*KW*OH*OW floats
/// per image (7 MB for ResNet's 64-channel 56x56 layer).
struct ConvAsShiftedMatmuls : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  ConvAsShiftedMatmuls(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    std::optional<ConvOperands> ops = staticF32Operands(conv);
    if (!ops)
      return rewriter.notifyMatchFailure(conv, "not a static f32 convolution");
    Value input = ops->input, filter = ops->filter, init = ops->init;
    RankedTensorType xType = ops->xType, wType = ops->wType, yType = ops->yType;
    linalg::FillOp fill = zeroFillOf(init);
    if (!fill)
      return rewriter.notifyMatchFailure(conv, "accumulator is not zero-filled");
    ArrayRef<int64_t> x = xType.getShape(), w = wType.getShape(), y = yType.getShape();
    int64_t n = x[0], c = x[1], hp = x[2], wp = x[3];
    int64_t f = w[0], kh = w[2], kw = w[3], oh = y[2], ow = y[3];
    auto ones = [](DenseIntElementsAttr values) {
      return llvm::all_of(values.getValues<int64_t>(), [](int64_t v) { return v == 1; });
    };
    if (!dlc::convRunsAsShiftedMatmuls(c, f, kh, kw, ones(conv.getStrides()),
                                       ones(conv.getDilations()), /*groups=*/1))
      return rewriter.notifyMatchFailure(conv, "not a shape this strategy wins on");
    // A weight packed taps-outermost at compile time (PackConvWeights.cpp)
    // arrives as transpose([KH, KW, F, C]); read the packed tensor directly.
    Value packed;
    if (auto t = filter.getDefiningOp<linalg::TransposeOp>();
        t && t.getPermutation() == ArrayRef<int64_t>{2, 3, 0, 1})
      packed = t.getInput();

    Location loc = conv.getLoc();
    Type f32 = rewriter.getF32Type();
    int64_t cols = oh * wp, npad = (cols + 15) / 16 * 16;
    // Reads of the last tap run KW - 1 + (npad - cols) floats past the image.
    int64_t extra = (kw - 1) + (npad - cols);
    int64_t extraRows = (extra + wp - 1) / wp;
    int64_t hp2 = hp + extraRows;

    // The padded image with the extra rows: widen the zero padding that the
    // conv2d lowering made, or pad the unpadded image.
    Value source = input;
    SmallVector<int64_t> low(4, 0), high(4, 0);
    if (tensor::PadOp pad = dlc::spatialConstantPad(input)) {
      auto padConst = pad.getConstantPaddingValue().getDefiningOp<arith::ConstantOp>();
      auto padFloat = padConst ? dyn_cast<FloatAttr>(padConst.getValue()) : FloatAttr();
      if (padFloat && padFloat.getValue().isZero()) {
        source = pad.getSource();
        low = llvm::to_vector(pad.getStaticLow());
        high = llvm::to_vector(pad.getStaticHigh());
      }
    }
    Value padded = dlc::padSpatial(rewriter, loc, source,
                              {low[2], low[3], high[2] + extraRows, high[3]}, 0.0);
    Value zeroF = rewriter.create<arith::ConstantOp>(loc, rewriter.getF32FloatAttr(0.0f));

    auto idx = [&](OpBuilder &b, int64_t v) -> Value {
      return b.create<arith::ConstantIndexOp>(loc, v);
    };
    auto wideType = RankedTensorType::get({f, npad}, f32);
    auto planeType = RankedTensorType::get({f, oh, ow}, f32);
    auto loop = rewriter.create<scf::ForOp>(
        loc, idx(rewriter, 0), idx(rewriter, n), idx(rewriter, 1),
        ValueRange{fill.getOutputs()[0]},
        [&](OpBuilder &b, Location loc, Value image, ValueRange iterArgs) {
          Value acc = iterArgs[0];
          SmallVector<OpFoldResult> unit4(4, b.getIndexAttr(1));
          Value plane = b.create<tensor::ExtractSliceOp>(
              loc, RankedTensorType::get({c, hp2, wp}, f32), padded,
              ArrayRef<OpFoldResult>{image, b.getIndexAttr(0), b.getIndexAttr(0),
                                     b.getIndexAttr(0)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(c),
                                     b.getIndexAttr(hp2), b.getIndexAttr(wp)},
              unit4);
          Value flat = b.create<tensor::CollapseShapeOp>(
              loc, RankedTensorType::get({c, hp2 * wp}, f32), plane,
              ArrayRef<ReassociationIndices>{{0}, {1, 2}});
          Value zeros =
              b.create<linalg::FillOp>(
                   loc, zeroF, b.create<tensor::EmptyOp>(loc, wideType.getShape(), f32).getResult())
                  .getResult(0);
          auto taps = b.create<scf::ForOp>(
              loc, idx(b, 0), idx(b, kh * kw), idx(b, 1), ValueRange{zeros},
              [&](OpBuilder &b, Location loc, Value tap, ValueRange tapArgs) {
                Value row = b.create<arith::DivUIOp>(loc, tap, idx(b, kw));
                Value col = b.create<arith::RemUIOp>(loc, tap, idx(b, kw));
                Value shift = b.create<arith::AddIOp>(
                    loc, b.create<arith::MulIOp>(loc, row, idx(b, wp)), col);
                Value a =
                    packed ? b.create<tensor::ExtractSliceOp>(
                                 loc, RankedTensorType::get({f, c}, f32), packed,
                                 ArrayRef<OpFoldResult>{row, col, b.getIndexAttr(0),
                                                        b.getIndexAttr(0)},
                                 ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                                                        b.getIndexAttr(f), b.getIndexAttr(c)},
                                 unit4)
                           : b.create<tensor::ExtractSliceOp>(
                                 loc, RankedTensorType::get({f, c}, f32), filter,
                                 ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0),
                                                        row, col},
                                 ArrayRef<OpFoldResult>{b.getIndexAttr(f), b.getIndexAttr(c),
                                                        b.getIndexAttr(1), b.getIndexAttr(1)},
                                 unit4);
                Value bView = b.create<tensor::ExtractSliceOp>(
                    loc, RankedTensorType::get({c, npad}, f32), flat,
                    ArrayRef<OpFoldResult>{b.getIndexAttr(0), shift},
                    ArrayRef<OpFoldResult>{b.getIndexAttr(c), b.getIndexAttr(npad)},
                    ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
                Value product = b.create<linalg::MatmulOp>(loc, TypeRange{wideType},
                                                           ValueRange{a, bView},
                                                           ValueRange{tapArgs[0]})
                                    .getResult(0);
                b.create<scf::YieldOp>(loc, product);
              });
          // The real columns: [F, OH*Wp] -> [F, OH, Wp] -> [F, OH, OW].
          Value rowsWide = b.create<tensor::ExtractSliceOp>(
              loc, RankedTensorType::get({f, cols}, f32), taps.getResult(0),
              ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(f), b.getIndexAttr(cols)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
          Value grid = b.create<tensor::ExpandShapeOp>(
              loc, RankedTensorType::get({f, oh, wp}, f32), rowsWide,
              ArrayRef<ReassociationIndices>{{0}, {1, 2}});
          SmallVector<OpFoldResult> unit3(3, b.getIndexAttr(1));
          Value result = b.create<tensor::ExtractSliceOp>(
              loc, planeType, grid,
              ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(0)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(f), b.getIndexAttr(oh), b.getIndexAttr(ow)},
              unit3);
          Value updated = b.create<tensor::InsertSliceOp>(
              loc, result, acc,
              ArrayRef<OpFoldResult>{image, b.getIndexAttr(0), b.getIndexAttr(0),
                                     b.getIndexAttr(0)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(f), b.getIndexAttr(oh),
                                     b.getIndexAttr(ow)},
              unit4);
          b.create<scf::YieldOp>(loc, updated);
        });
    rewriter.replaceOp(conv, loop.getResult(0));
    return success();
  }
};

/// The P-filter panels a weight was packed into for this strategy
/// (PackConvWeights.cpp): [F, C, KH, KW] = collapse(transpose(%panels :
/// [F/P, KH, KW, C, P], perm [0, 4, 3, 1, 2])), P a tile width the
/// vectorisation takes. Null for any other weight.
Value pixelRowPanels(Value filter) {
  auto collapse = filter.getDefiningOp<tensor::CollapseShapeOp>();
  auto t = collapse ? collapse.getSrc().getDefiningOp<linalg::TransposeOp>()
                    : linalg::TransposeOp();
  if (!t || t.getPermutation() != ArrayRef<int64_t>{0, 4, 3, 1, 2})
    return nullptr;
  auto panels = cast<RankedTensorType>(t.getInput().getType());
  int64_t p = panels.getDimSize(4);
  return p >= dlc::cpu::kTileColumnStep && p <= dlc::cpu::kMaxTileColumns &&
                 p % dlc::cpu::kTileColumnStep == 0
             ? t.getInput()
             : nullptr;
}

/// [N, C, H, W] seen as [N, C, R, H*W/R] (views once bufferized), and back.
Value flatRows(OpBuilder &b, Location loc, Value v, int64_t rows) {
  auto type = cast<RankedTensorType>(v.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<ReassociationIndices> groups = {{0}, {1}, {2, 3}};
  Value planes = b.create<tensor::CollapseShapeOp>(loc, v, groups);
  auto flat = RankedTensorType::get({shape[0], shape[1], rows, shape[2] * shape[3] / rows},
                                    type.getElementType());
  return b.create<tensor::ExpandShapeOp>(loc, flat, planes, groups);
}
Value unflatRows(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  SmallVector<ReassociationIndices> groups = {{0}, {1}, {2, 3}};
  Value planes = b.create<tensor::CollapseShapeOp>(loc, v, groups);
  return b.create<tensor::ExpandShapeOp>(loc, type, planes, groups);
}

/// A 1x1 stride-1 convolution of an unpadded image reads each pixel's
/// channels alone, so its output can be `rows` rows of OH*OW/rows pixels,
/// cut into tiles as a whole (a 7x7 image: 49 = 7 x 6 + 4 + 3, not seven
/// rows of 4 + 3). `input` and `init` are replaced by their [N, C, rows,
/// H*W/rows] views and the returned epilogue (null without one) is a copy of
/// `epilogue` on the flattened operands: a template for the tiles' regions,
/// for the caller to erase.
linalg::GenericOp flattenPointwise(OpBuilder &b, Location loc, Value &input, Value &init,
                                   linalg::GenericOp epilogue, int64_t rows) {
  input = flatRows(b, loc, input, rows);
  init = flatRows(b, loc, init, rows);
  if (!epilogue)
    return nullptr;
  SmallVector<Value> inputs;
  for (OpOperand *in : epilogue.getDpsInputOperands())
    inputs.push_back(cast<RankedTensorType>(in->get().getType()).getRank() == 4
                         ? flatRows(b, loc, in->get(), rows)
                         : in->get());
  auto flat = b.create<linalg::GenericOp>(loc, TypeRange{init.getType()}, inputs,
                                          ValueRange{init}, epilogue.getIndexingMapsArray(),
                                          epilogue.getIteratorTypesArray());
  IRMapping mapping;
  epilogue.getRegion().cloneInto(&flat.getRegion(), mapping);
  return flat;
}

/// How many pieces a parallel convolution loop should have: enough for the
/// pool to even out a thread that starts late or loses its core for a
/// while (each thread claims its share a piece at a time and then helps
/// with the others'), few enough that each piece still reuses its panel
/// of the weight over several rows.
constexpr int64_t kParallelPieces = 32;

/// The fewest floats a copy of an image (a pixel-major transpose, with or
/// without padding) splits into chunks for the pool: ParallelizeLoopNests'
/// threshold, under which the pool's overhead outweighs the chunks.
constexpr int64_t kMinChunkedFloats = 32 * 1024;

/// The fewest panels whose loop is the parallel one (with 2-3, the loop over
/// pieces (chunk of rows, panel), rows-major: each thread then reads and
/// writes the rows it wrote and will read in the convolutions around, where
/// a serial panels' loop around parallel rows was one fork and join per
/// panel; with 1, the rows' loop) and whose pointwise convolutions are
/// flattened.
constexpr int64_t kParallelPanels = 4;

/// How many chunks each of `panels` panels should split into for the panels'
/// loop to have about kParallelPieces pieces.
int64_t chunksWanted(int64_t panels) {
  return (kParallelPieces + panels - 1) / std::max<int64_t>(panels, 1);
}

/// The chunks of rows each of `panels` panels is split into (1: none), so
/// that the panels' loop has about kParallelPieces pieces. 3x3 64 -> 64
/// filters at 56x56 (4 panels of 16 filters with AVX2): 8 chunks of 7 rows.
int64_t parallelRowChunks(int64_t panels, int64_t rows) {
  int64_t chunks = std::min(rows, chunksWanted(panels));
  if (chunks <= 1)
    return 1;
  // As many chunks as rows of the even split need.
  int64_t chunkRows = (rows + chunks - 1) / chunks;
  return (rows + chunkRows - 1) / chunkRows;
}

/// How many rows a pointwise convolution's `pixels` are flattened into
/// (flattenPointwise): one, unless its `panels` are too few pieces for the
/// pool (kParallelPieces) and the pixels split evenly into as many rows of
/// at least 8 tiles at no more than 2% more FMA-latency-bound steps
/// (cpu::splitRow), whose chunks then are pieces too. MobileNetV2's 24 ->
/// 144 filters at 56x56 (9 panels of 16): 4 rows of 784 pixels, 36 pieces;
/// 49 pixels stay one row.
int64_t pointwiseRows(int64_t pixels, int64_t panels, int64_t tile, int64_t steady) {
  using dlc::cpu::splitRow, dlc::cpu::splitSteps;
  int64_t wanted = chunksWanted(panels);
  int64_t oneRow = splitSteps(splitRow(pixels, tile, steady), tile, steady);
  for (int64_t rows = std::min(wanted, pixels); rows > 1; --rows)
    if (pixels % rows == 0 && pixels / rows >= 8 * tile &&
        rows * splitSteps(splitRow(pixels / rows, tile, steady), tile, steady) * 100 <=
            oneRow * 102)
      return rows;
  return 1;
}

/// The most output pixels per image of a convolution whose channels go in
/// blocks (channelBlock).
constexpr int64_t kChannelBlockPixels = 64;

/// Whether a pointwise convolution of `pixels` output pixels per image and
/// `panels` filter panels reads its image transposed to pixel-major
/// ([N, rows, W, C], transposeToPixelMajor) rather than as stored. As stored,
/// a tile's broadcasts walk down a column of the [C, H*W] image, one cache
/// line per channel, each holding a few of the tile's floats; on a small
/// image (7x7: rows of 196 bytes) every panel's sweep reads them from L2
/// again. Pixel-major, each pixel's channels are one sequential run. Measured
/// on an AMD EPYC Zen 3 (AVX2, 16-filter panels), one thread, minimum kernel
/// times, 1x1 convolutions with ReLU at 7x7: 512 -> 2048 1.605 -> 1.150 ms,
/// 2048 -> 512 1.748 -> 1.342, 320 -> 1280 0.603 -> 0.470, 160 -> 960 0.303
/// -> 0.226, and, once the transpose went in 8x16 register blocks, 960 -> 160
/// (10 panels) 0.251 -> 0.188 (with LLVM's gathers it was 1.16x slower). At
/// 14x14 and above it was no faster (576 -> 96 1.08x, 1024 -> 256 0.96x,
/// 28x28 and 56x56 0.98-1.02x). From 8 panels: the models' 7x7 layers have
/// 10 or more; 4 (the fewest that run on one flattened row) were not
/// measured.
constexpr int64_t kPixelMajorPanels = 8;
bool readsPixelMajor(int64_t pixels, int64_t panels) {
  return pixels <= kChannelBlockPixels && panels >= kPixelMajorPanels;
}

/// Whether a convolution with a window larger than 1x1 over `channels`
/// channels reads its (padded) image pixel-major: a tile's taps then read
/// one run of channels per pixel, where on the image as stored each channel
/// step of each tap read another line. Measured on an AMD EPYC Zen 3 (AVX2),
/// one thread, minimum kernel times, 3x3 256 -> 256 channels: 7x7 0.972 ->
/// 0.652 ms, 14x14 2.99 -> 2.80, 28x28 12.2 -> 10.9, 56x56 58.9 -> 47.6;
/// ResNet-18's 64-channel layers at 56x56 as fast either way; with 3
/// channels (the stems of MobileNetV2, 0.495 -> 0.585, and EfficientNet-B0)
/// slower. A strided 1x1 convolution over as many channels transposes only
/// the pixels it reads (ResNet-50's 1024 -> 2048 channels at stride 2 from
/// 14x14: 4.60 -> 3.24 ms; ResNet-18's shortcuts 0.285 -> 0.206 ms and
/// less).
constexpr int64_t kPixelMajorWindowChannels = 64;
bool windowReadsPixelMajor(int64_t channels) { return channels >= kPixelMajorWindowChannels; }

/// The pixels per chunk of a pixel-major transpose: the smallest divisor of
/// `pixels` of at least 16 (VectorizeTransposes' blocks) that makes at most
/// kMaxChunks chunks, ~kParallelPieces wanted; 0 when none makes two.
int64_t pixelChunk(int64_t pixels, int64_t maxChunks) {
  int64_t wanted = std::max<int64_t>(16, pixels / kParallelPieces);
  for (int64_t chunk = wanted; chunk <= pixels / 2; ++chunk)
    if (pixels % chunk == 0 && pixels / chunk <= maxChunks)
      return chunk;
  return 0;
}

/// `input` ([N, C, R, W]) transposed to [N, R, W, C]: as [N, C, R*W] ->
/// [N, R*W, C], in chunks that are pieces of the pool's loop (whole 8 x 16
/// register blocks each, VectorizeTransposes.cpp) when C is a multiple of 8:
/// chunks of pixels where they divide evenly, else of channels. (As one
/// transpose, the pool's chunks ran along R*W, each a column of the image,
/// which LLVM gathered float by float.) Chunks of pixels let each thread
/// move the rows it then reads, since the convolutions' pieces are rows
/// too; chunks of channels had each thread read half its pixels back from
/// the other core: a 3x3 64-channel 56x56 convolution at two threads on an
/// Intel Xeon (AVX-512), 0.93 -> 0.80 ms (one thread 1.45).
Value transposeToPixelMajor(OpBuilder &b, Location loc, Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t n = shape[0], c = shape[1], pixels = shape[2] * shape[3];
  Type f32 = type.getElementType();
  Value flat = b.create<tensor::CollapseShapeOp>(
      loc, RankedTensorType::get({n, c, pixels}, f32), input,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  Value result = b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{n, pixels, c}, f32);
  auto transpose = [&](OpBuilder &b, Value from, Value into) {
    return b.create<linalg::TransposeOp>(loc, from, into, ArrayRef<int64_t>{0, 2, 1}).getResult()[0];
  };
  // (Under kMinChunkedFloats, one transpose.)
  constexpr int64_t kChunkChannels = 8, kMaxChunks = 64;
  bool chunked = c % kChunkChannels == 0 && n * c * pixels >= kMinChunkedFloats;
  // Chunks along the pixels (`alongPixels`) or the channels.
  int64_t chunk = chunked ? pixelChunk(pixels, kMaxChunks) : 0;
  bool alongPixels = chunk > 0;
  int64_t extent = alongPixels ? pixels : c;
  if (!alongPixels) {
    chunk = kChunkChannels;
    while (c / chunk > kMaxChunks && c % (2 * chunk) == 0)
      chunk *= 2;
  }
  if (!chunked || extent / chunk < 2) {
    result = transpose(b, flat, result);
  } else {
    auto one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
    int64_t chunkChannels = alongPixels ? c : chunk, chunkPixels = alongPixels ? chunk : pixels;
    auto loop = b.create<scf::ForOp>(
        loc, b.create<arith::ConstantIndexOp>(loc, 0), b.create<arith::ConstantIndexOp>(loc, extent),
        b.create<arith::ConstantIndexOp>(loc, chunk), ValueRange{result},
        [&](OpBuilder &lb, Location, Value at, ValueRange args) {
          OpFoldResult c0 = alongPixels ? OpFoldResult(zero) : OpFoldResult(at);
          OpFoldResult p0 = alongPixels ? OpFoldResult(at) : OpFoldResult(zero);
          SmallVector<OpFoldResult> ones{one, one, one};
          Value from = lb.create<tensor::ExtractSliceOp>(
              loc, RankedTensorType::get({n, chunkChannels, chunkPixels}, f32), flat,
              ArrayRef<OpFoldResult>{zero, c0, p0},
              ArrayRef<OpFoldResult>{lb.getIndexAttr(n), lb.getIndexAttr(chunkChannels),
                                     lb.getIndexAttr(chunkPixels)},
              ones);
          SmallVector<OpFoldResult> intoOffsets{zero, p0, c0};
          SmallVector<OpFoldResult> intoSizes{lb.getIndexAttr(n), lb.getIndexAttr(chunkPixels),
                                              lb.getIndexAttr(chunkChannels)};
          Value into = lb.create<tensor::ExtractSliceOp>(
              loc, RankedTensorType::get({n, chunkPixels, chunkChannels}, f32), args[0],
              intoOffsets, intoSizes, ones);
          Value moved = transpose(lb, from, into);
          lb.create<scf::YieldOp>(
              loc, lb.create<tensor::InsertSliceOp>(loc, moved, args[0], intoOffsets, intoSizes,
                                                    ones)
                       .getResult());
        });
    loop->setAttr(dlc::kParallelLoopAttr, b.getUnitAttr());
    result = loop.getResult(0);
  }
  return b.create<tensor::ExpandShapeOp>(
      loc, RankedTensorType::get({n, shape[2], shape[3], c}, f32), result,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}});
}

/// The image `pad` pads ([N, C, H, W] to [N, C, Hp, Wp]) built pixel-major,
/// [N, Hp, Wp, C], from the unpadded image: its top and bottom rows filled,
/// then each row's side borders filled (runs of whole pixels) and its pixels
/// transposed in, rows in chunks for the pool. Through the padded NCHW image
/// (transposeToPixelMajor of padByBorderFills) every row was copied once more
/// (3584 memcpy calls of 224 bytes for 64ch 56x56) and each side border was
/// one scalar store per line, all on one thread. Intel Xeon (AVX-512), 3x3
/// 64ch 56x56: one thread 1.48-1.56 -> 1.34-1.45 ms, two 0.86-0.90 -> 0.77;
/// ResNet-18's basic block at 56x56, two threads, 1.67-1.76 -> 1.52 ms.
Value padToPixelMajor(OpBuilder &b, Location loc, tensor::PadOp pad) {
  Value source = pad.getSource(), value = pad.getConstantPaddingValue();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(source.getType()).getShape();
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  int64_t n = shape[0], c = shape[1], h = shape[2], w = shape[3];
  int64_t hp = h + low[2] + high[2], wp = w + low[3] + high[3];
  Type f32 = pad.getResultType().getElementType();
  auto attr = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<OpFoldResult> ones(4, attr(1));
  // Fills [n, rows, cols, c] of `into` from (row, col): runs of whole pixels.
  auto fill = [&](OpBuilder &b, Value into, OpFoldResult row, int64_t rows, int64_t col,
                  int64_t cols) -> Value {
    if (rows == 0 || cols == 0)
      return into;
    SmallVector<OpFoldResult> offsets{attr(0), row, attr(col), attr(0)};
    SmallVector<OpFoldResult> sizes{attr(n), attr(rows), attr(cols), attr(c)};
    Value region = b.create<tensor::ExtractSliceOp>(loc, into, offsets, sizes, ones);
    Value filled = b.create<linalg::FillOp>(loc, value, region).getResult(0);
    return b.create<tensor::InsertSliceOp>(loc, filled, into, offsets, sizes, ones).getResult();
  };
  Value result = b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{n, hp, wp, c}, f32);
  result = fill(b, result, attr(0), low[2], 0, wp);
  result = fill(b, result, attr(low[2] + h), high[2], 0, wp);
  // Row `r` of the image: its side borders, then its [C, W] pixels as [W, C].
  auto row = [&](OpBuilder &b, Value r, Value into) -> Value {
    Value at = b.create<arith::AddIOp>(loc, r, b.create<arith::ConstantIndexOp>(loc, low[2]));
    into = fill(b, into, at, 1, 0, low[3]);
    into = fill(b, into, at, 1, low[3] + w, high[3]);
    Value from = b.create<tensor::CollapseShapeOp>(
        loc, RankedTensorType::get({n, c, w}, f32),
        b.create<tensor::ExtractSliceOp>(loc, RankedTensorType::get({n, c, 1, w}, f32), source,
                                         ArrayRef<OpFoldResult>{attr(0), attr(0), r, attr(0)},
                                         ArrayRef<OpFoldResult>{attr(n), attr(c), attr(1), attr(w)},
                                         ones),
        ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    // The row's slot as a rank-reduced slice: collapsed from [n, 1, w, c],
    // bufferization copied it out to the stack and back.
    SmallVector<OpFoldResult> offsets{attr(0), at, attr(low[3]), attr(0)};
    SmallVector<OpFoldResult> sizes{attr(n), attr(1), attr(w), attr(c)};
    Value slot = b.create<tensor::ExtractSliceOp>(loc, RankedTensorType::get({n, w, c}, f32), into,
                                                  offsets, sizes, ones);
    Value moved =
        b.create<linalg::TransposeOp>(loc, from, slot, ArrayRef<int64_t>{0, 2, 1}).getResult()[0];
    return b.create<tensor::InsertSliceOp>(loc, moved, into, offsets, sizes, ones).getResult();
  };
  // Chunks of rows, ~kParallelPieces of them, for the pool (one under
  // kMinChunkedFloats).
  int64_t chunkRows =
      n * c * h * w >= kMinChunkedFloats ? std::max<int64_t>(1, h / kParallelPieces) : h;
  while (h % chunkRows != 0)
    ++chunkRows;
  auto idx = [&](OpBuilder &b, int64_t v) { return b.create<arith::ConstantIndexOp>(loc, v); };
  auto chunks = b.create<scf::ForOp>(
      loc, idx(b, 0), idx(b, h), idx(b, chunkRows), ValueRange{result},
      [&](OpBuilder &cb, Location, Value first, ValueRange chunkArgs) {
        Value end = cb.create<arith::AddIOp>(loc, first, idx(cb, chunkRows));
        auto rows = cb.create<scf::ForOp>(
            loc, first, end, idx(cb, 1), ValueRange{chunkArgs[0]},
            [&](OpBuilder &rb, Location, Value r, ValueRange rowArgs) {
              rb.create<scf::YieldOp>(loc, row(rb, r, rowArgs[0]));
            });
        cb.create<scf::YieldOp>(loc, rows.getResult(0));
      });
  if (h / chunkRows > 1)
    chunks->setAttr(dlc::kParallelLoopAttr, b.getUnitAttr());
  return chunks.getResult(0);
}

/// The channels a pixel-row tile reads per sweep (ConvOnPixelRows): all `c`
/// where the panel's [KH, KW, C, P] floats fit `budgetBytes` (0: no
/// budget), else the largest divisor of `c`, of at least 8, whose share of
/// the panel fits. The panel is then read from L1 by every tile of a
/// piece, not streamed from L2 once per tile. Measured on an AMD EPYC Zen 3
/// (AVX2, 16-filter panels, 16 KiB), one thread, minimum kernel times, 1x1
/// convolutions at 7x7: 2048 -> 512 channels 2.06 -> 1.73 ms, 960 -> 160
/// 0.246 -> 0.226, 320 -> 1280 0.665 -> 0.618; at 14x14 (576 -> 96, 1024 ->
/// 256) 7-10% slower, and 3x3 ones (7x7 to 28x28, 128-512 channels) up to
/// 1.4x slower: only pointwise convolutions of at most kChannelBlockPixels
/// output pixels take blocks.
int64_t channelBlock(int64_t c, int64_t kh, int64_t kw, int64_t panel, int64_t budgetBytes) {
  auto bytes = [&](int64_t channels) { return kh * kw * channels * panel * 4; };
  if (budgetBytes <= 0 || bytes(c) <= budgetBytes)
    return c;
  for (int64_t block = c / 2; block >= 8; --block)
    if (c % block == 0 && bytes(block) <= budgetBytes)
      return block;
  return c;
}

/// The loops of one convolution on pixel rows (ConvOnPixelRows below), from
/// its operands once matched: the register tiles, a row's tiles, the tail
/// columns' tiles, and the images' and panels' loops around them.
class PixelRowLoops {
public:
  Location loc;
  Value input, panels, zeroF;
  int64_t c, kh, kw, kPanel;
  SmallVector<int64_t> strides;
  /// The in-place epilogue the tiles run on their regions (null: none).
  linalg::GenericOp epilogue;
  /// The channels a tile's taps read at a time (c: all of them;
  /// channelBlock below).
  int64_t channels = 0;
  /// The (padded) image transposed to [N, rows, W, C] (null: read as
  /// stored; readsPixelMajor, windowReadsPixelMajor): a tile's taps then
  /// read each pixel's channels as one sequential run.
  Value pixelMajor;
  /// Whether `pixelMajor` holds only the pixels a strided 1x1 convolution
  /// reads ([N, OH, OW, C]): its runs are then at output coordinates.
  bool pixelMajorSubsampled = false;

  Value idx(OpBuilder &b, int64_t v) const { return b.create<arith::ConstantIndexOp>(loc, v); }
  static OpFoldResult attr(OpBuilder &b, int64_t v) { return b.getIndexAttr(v); }
  scf::ForOp forLoop(OpBuilder &b, int64_t from, int64_t to, int64_t step, Value init,
                     function_ref<Value(OpBuilder &, Value, Value)> body) const {
    return b.create<scf::ForOp>(loc, idx(b, from), idx(b, to), idx(b, step), ValueRange{init},
                                [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
                                  lb.create<scf::YieldOp>(loc, body(lb, iv, args[0]));
                                });
  }

  /// A run of `n` pixels as a 4-D shape: [1, channels, 1, n] along a row,
  /// [1, channels, n, 1] down a column.
  static SmallVector<int64_t> runShape(int64_t channels, int64_t n, bool down) {
    return {1, channels, down ? n : 1, down ? 1 : n};
  }

  /// The run's sizes and strides as slice operands (`step` apart).
  std::pair<SmallVector<OpFoldResult>, SmallVector<OpFoldResult>>
  run(OpBuilder &b, int64_t channels, int64_t n, int64_t step, bool down) const {
    SmallVector<OpFoldResult> steps(4, attr(b, 1));
    steps[down ? 2 : 3] = attr(b, step);
    return {getAsIndexOpFoldResult(b.getContext(), runShape(channels, n, down)), steps};
  }

  /// The image's [channels, n] run from channel c0 that tap (h, w) of a
  /// tile reads.
  Value imageRun(OpBuilder &b, Value image, OpFoldResult c0, Value h, Value w, int64_t pixels,
                 bool down) const {
    SmallVector<OpFoldResult> steps = run(b, channels, pixels, strides[down ? 0 : 1], down).second;
    return twoDimSlice(b, input, {image, c0, h, w}, runShape(channels, pixels, down), steps,
                       {channels, pixels}, {{0, 1}, {2, 3}});
  }

  /// The 4-D slice of `source` at `offsets` of `shape`, `steps` apart, as
  /// `[rows, cols]` (`reassociation` groups `shape`'s dims into those two).
  /// With one row or one column, which unit dims a rank-reduced slice drops
  /// is ambiguous: the canonicalizer rebuilt a one-channel column as a run
  /// along the row, and bufferization gave a strided one-pixel run the wrong
  /// stride. Those take the whole 4-D slice, collapsed (a copy once
  /// bufferized, so not the others).
  Value twoDimSlice(OpBuilder &b, Value source, SmallVector<OpFoldResult> offsets,
                    ArrayRef<int64_t> shape, ArrayRef<OpFoldResult> steps,
                    ArrayRef<int64_t> rowsCols,
                    ArrayRef<ReassociationIndices> reassociation) const {
    Type f32 = b.getF32Type();
    auto type = RankedTensorType::get(rowsCols, f32);
    auto sizes = getAsIndexOpFoldResult(b.getContext(), shape);
    if (rowsCols[0] != 1 && rowsCols[1] != 1)
      return b.create<tensor::ExtractSliceOp>(loc, type, source, offsets, sizes, steps);
    auto sliceType = RankedTensorType::get(shape, f32);
    return b.create<tensor::CollapseShapeOp>(
        loc, type, b.create<tensor::ExtractSliceOp>(loc, sliceType, source, offsets, sizes, steps),
        reassociation);
  }

  /// The pixel-major image's [n, channels] run from channel c0 that tap
  /// (h, w) of a tile reads: `pixels` pixels along the row (or `down` the
  /// column), a stride apart.
  Value pixelRun(OpBuilder &b, Value image, OpFoldResult c0, Value h, Value w, int64_t pixels,
                 bool down) const {
    SmallVector<OpFoldResult> steps(4, attr(b, 1));
    if (!pixelMajorSubsampled)
      steps[down ? 1 : 2] = attr(b, strides[down ? 0 : 1]);
    return twoDimSlice(b, pixelMajor, {image, h, w, c0},
                       {1, down ? pixels : 1, down ? 1 : pixels, channels}, steps,
                       {pixels, channels}, {{0, 1, 2}, {3}});
  }

  /// A zero register tile of `pixels` pixels by P filters.
  Value zeros(OpBuilder &b, int64_t pixels) const {
    Type f32 = b.getF32Type();
    auto tileType = RankedTensorType::get({pixels, kPanel}, f32);
    return b.create<linalg::FillOp>(loc, zeroF,
                                    b.create<tensor::EmptyOp>(loc, tileType.getShape(), f32).getResult())
        .getResult(0);
  }

  /// `init` (a register tile: `pixels` output pixels from (row, col) on,
  /// along the row or, `down`, along the column, by filters j..j+P of image
  /// `image`) plus every tap over channels [c0, c0 + channels).
  Value accumulate(OpBuilder &b, Value init, Value image, Value j, Value row, Value col,
                   int64_t pixels, bool down, OpFoldResult c0) const {
    Type f32 = b.getF32Type();
    auto tileType = RankedTensorType::get({pixels, kPanel}, f32);
    Value panel = b.create<arith::DivUIOp>(loc, j, idx(b, kPanel));
    Value inRow = row, inCol = col;
    if (!pixelMajorSubsampled) {
      inRow = b.create<arith::MulIOp>(loc, row, idx(b, strides[0]));
      inCol = b.create<arith::MulIOp>(loc, col, idx(b, strides[1]));
    }
    auto taps = forLoop(b, 0, kh, 1, init, [&](OpBuilder &b, Value r, Value t) {
      Value h = b.create<arith::AddIOp>(loc, inRow, r);
      return forLoop(b, 0, kw, 1, t, [&](OpBuilder &b, Value s, Value t) {
               Value w = b.create<arith::AddIOp>(loc, inCol, s);
               // A: the image's [C, T] run, or the pixel-major image's [T, C].
               Value a = pixelMajor ? pixelRun(b, image, c0, h, w, pixels, down)
                                    : imageRun(b, image, c0, h, w, pixels, down);
               Value bPanel = b.create<tensor::ExtractSliceOp>(
                   loc, RankedTensorType::get({channels, kPanel}, f32), panels,
                   ArrayRef<OpFoldResult>{panel, r, s, c0, attr(b, 0)},
                   ArrayRef<OpFoldResult>{attr(b, 1), attr(b, 1), attr(b, 1), attr(b, channels),
                                          attr(b, kPanel)},
                   SmallVector<OpFoldResult>(5, attr(b, 1)));
               if (pixelMajor)
                 return b.create<linalg::MatmulOp>(loc, TypeRange{tileType}, ValueRange{a, bPanel},
                                                   ValueRange{t})
                     .getResult(0);
               return b.create<linalg::MatmulTransposeAOp>(loc, TypeRange{tileType},
                                                           ValueRange{a, bPanel}, ValueRange{t})
                   .getResult(0);
             }).getResult(0);
    });
    return taps.getResult(0);
  }

  /// The finished register tile `sums` (see accumulate) written transposed
  /// into `acc`, its epilogue applied.
  Value writeBack(OpBuilder &b, Value acc, Value sums, Value image, Value j, Value row, Value col,
                  int64_t pixels, bool down) const {
    Type f32 = b.getF32Type();
    SmallVector<OpFoldResult> offsets = {image, j, row, col};
    SmallVector<OpFoldResult> sizes = run(b, kPanel, pixels, 1, down).first;
    SmallVector<OpFoldResult> unit(4, attr(b, 1));
    auto outType = RankedTensorType::get({kPanel, pixels}, f32);
    Value dest = b.create<tensor::ExtractSliceOp>(loc, outType, acc, offsets, sizes, unit);
    Value transposed =
        b.create<linalg::TransposeOp>(loc, sums, dest, ArrayRef<int64_t>{1, 0}).getResult()[0];
    acc = b.create<tensor::InsertSliceOp>(loc, transposed, acc, offsets, sizes, unit);
    if (!epilogue)
      return acc;
    // The epilogue on the tile just written, while it is in L1 (or, where
    // TileAndVectorize can, columnEpilogue: on each column in registers
    // before its store).
    auto regionType = RankedTensorType::get(runShape(kPanel, pixels, down), f32);
    Value region = b.create<tensor::ExtractSliceOp>(loc, regionType, acc, offsets, sizes, unit);
    Value fused = dlc::epilogueOnRegion(b, loc, epilogue, offsets, sizes, region);
    return b.create<tensor::InsertSliceOp>(loc, fused, acc, offsets, sizes, unit);
  }

  /// One register tile over every channel at once, written into `acc`.
  Value tile(OpBuilder &b, Value acc, Value image, Value j, Value row, Value col, int64_t pixels,
             bool down = false) const {
    Value sums = accumulate(b, zeros(b, pixels), image, j, row, col, pixels, down, attr(b, 0));
    return writeBack(b, acc, sums, image, j, row, col, pixels, down);
  }

  /// A tile's partial sums kept between blocks of channels: `scratch` is
  /// [rows, OW, P] (a piece's rows from its first), the tile at (`row`,
  /// `col`) of it [pixels, P].
  std::pair<SmallVector<OpFoldResult>, SmallVector<OpFoldResult>>
  scratchRegion(OpBuilder &b, Value row, Value col, int64_t pixels, bool down) const {
    return {{row, col, attr(b, 0)},
            {attr(b, down ? pixels : 1), attr(b, down ? 1 : pixels), attr(b, kPanel)}};
  }
  Value readScratch(OpBuilder &b, Value scratch, Value row, Value col, int64_t pixels,
                    bool down) const {
    auto [offsets, sizes] = scratchRegion(b, row, col, pixels, down);
    return b.create<tensor::ExtractSliceOp>(
        loc, RankedTensorType::get({pixels, kPanel}, b.getF32Type()), scratch, offsets, sizes,
        SmallVector<OpFoldResult>(3, attr(b, 1)));
  }
  Value writeScratch(OpBuilder &b, Value sums, Value scratch, Value row, Value col,
                     int64_t pixels, bool down) const {
    auto [offsets, sizes] = scratchRegion(b, row, col, pixels, down);
    return b.create<tensor::InsertSliceOp>(loc, sums, scratch, offsets, sizes,
                                           SmallVector<OpFoldResult>(3, attr(b, 1)));
  }

  /// The tiles of one row (or column) cut as `split`: the full ones in a
  /// loop, then the tails; `tileAt(b, acc, at, pixels)` makes the tile that
  /// starts at pixel `at` of the row (or column).
  Value splitTiles(OpBuilder &b, Value acc, dlc::cpu::RowSplit split, int64_t tilePixels,
                   function_ref<Value(OpBuilder &, Value, Value, int64_t)> tileAt) const {
    int64_t full = split.full * tilePixels;
    if (full > 0)
      acc = forLoop(b, 0, full, tilePixels, acc, [&](OpBuilder &b, Value at, Value acc) {
              return tileAt(b, acc, at, tilePixels);
            }).getResult(0);
    int64_t at = full;
    for (int64_t tail : split.tails)
      if (tail > 0) {
        acc = tileAt(b, acc, idx(b, at), tail);
        at += tail;
      }
    return acc;
  }
};

/// A convolution on rows of output pixels (ConvStrategy.h says which). The
/// register tile is T consecutive pixels of one output row times P filters
/// (the pattern's tile-pixels, the panels' width), and its reduction runs
/// over every tap and channel with the tile in registers (PixelRowLoops):
///
///   scf.for %j = 0 to F step P {dlc.parallel}        (one panel of filters)
///     scf.for %oh = 0 to OH
///       scf.for %ow = 0 to OW' step T  (+ one or two shorter tiles: cpu::splitRow)
///         %t = zeros : T x P
///         scf.for %kh, scf.for %kw                    (the taps)
///           %a = %x_padded[n, :, oh*sh + kh, ow*sw + kw :: sw] : C x T
///           %b = %panels[j / P, kh, kw]                       : C x P
///           %t = linalg.matmul_transpose_a ins(%a, %b) outs(%t)
///         %y[n, j:j+P, oh, ow:ow+T] = transpose(%t)
///
/// A's rows are the image's channels as stored (a strided view, so strided
/// convolutions need no im2col), B's rows are P contiguous floats of the
/// packed weight (one sequential stream per panel). No output column is
/// computed and dropped, however short the rows are. Variations (Layout):
/// a loop over few panels iterates over pieces, each a panel's chunk of
/// rows (parallelRowChunks); a 7x7 output's last column runs as tiles down
/// the column after the rows (cpu::tailColumns); a pointwise convolution's
/// image is a few long rows (pointwiseRows); with 2-3 panels the pieces go
/// rows-major (Layout::rowsMajor), with one the rows' loop is the parallel
/// one.
struct ConvOnPixelRows : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  /// `tilePixels`: the register tile's pixels (cpu::PixelRowTile); its
  /// filters are the packed panels' width.
  ConvOnPixelRows(MLIRContext *ctx, int64_t tilePixels, int64_t steadyPixels,
                  int64_t channelBlockBytes)
      : OpRewritePattern(ctx, /*benefit=*/3), kPixels(tilePixels), kSteadyPixels(steadyPixels),
        kChannelBlockBytes(channelBlockBytes) {}
  const int64_t kPixels, kSteadyPixels, kChannelBlockBytes;

  /// How the output's rows and columns are cut into tiles and the panels'
  /// loop into pieces.
  struct Layout {
    int64_t oh, ow;
    /// Which loop the pool runs: the panels' (each piece a panel's chunk of
    /// rows, panel by panel), or with 2-3 panels the chunks' (`rowsMajor`:
    /// each piece a chunk of rows of one panel, chunk by chunk), else the
    /// rows' loop of each panel.
    bool panelsParallel, rowsMajor, columns;
    dlc::cpu::RowSplit split, columnSplit;
    int64_t chunks, chunkRows, panels;
  };

  Layout layout(int64_t oh, int64_t ow, int64_t panels) const {
    bool panelsParallel = panels >= kParallelPanels;
    Layout l{oh, ow, panelsParallel, /*rowsMajor=*/!panelsParallel && panels >= 2 && oh >= 2,
             false, {}, {}, 1, oh, panels};
    // The last ow % T columns as tiles down each column where that takes
    // fewer steps (cpu::tailColumns: 7x7 outputs with 6-pixel tiles); the
    // rows then end at the last whole tile.
    l.columns = l.panelsParallel && dlc::cpu::tailColumns(oh, ow, kPixels, kSteadyPixels);
    l.split = l.columns ? dlc::cpu::RowSplit{ow / kPixels, {0, 0}}
                        : dlc::cpu::splitRow(ow, kPixels, kSteadyPixels);
    l.columnSplit = dlc::cpu::splitRow(oh, kPixels, kSteadyPixels);
    // A loop over few panels also splits the rows into chunks, one piece of
    // the pool's loop each (parallelRowChunks).
    l.chunks = (l.panelsParallel && !l.columns) || l.rowsMajor ? parallelRowChunks(panels, oh) : 1;
    l.chunkRows = (oh + l.chunks - 1) / l.chunks;
    return l;
  }

  /// Makes the tile of `pixels` pixels at (row, col), along the row or
  /// `down` the column, updating `carried`.
  using TileAt = function_ref<Value(OpBuilder &, Value carried, Value row, Value col,
                                    int64_t pixels, bool down)>;

  /// Every tile of rows [firstRow, endRow), then (all chunks at once,
  /// `columns`) of the tail columns.
  Value sweep(OpBuilder &b, const PixelRowLoops &loops, const Layout &l, Value carried,
              Value firstRow, Value endRow, TileAt tileAt) const {
    Location loc = loops.loc;
    auto rows = b.create<scf::ForOp>(
        loc, firstRow, endRow, loops.idx(b, 1), ValueRange{carried},
        [&](OpBuilder &b, Location, Value row, ValueRange args) {
          b.create<scf::YieldOp>(
              loc, loops.splitTiles(b, args[0], l.split, kPixels,
                                    [&](OpBuilder &b, Value acc, Value col, int64_t pixels) {
                                      return tileAt(b, acc, row, col, pixels, false);
                                    }));
        });
    if (!l.panelsParallel && !l.rowsMajor && l.oh >= 2)
      rows->setAttr(dlc::kParallelLoopAttr, b.getUnitAttr());
    carried = rows.getResult(0);
    for (int64_t col = l.split.full * kPixels; l.columns && col < l.ow; ++col)
      carried = loops.splitTiles(b, carried, l.columnSplit, kPixels,
                                 [&](OpBuilder &b, Value acc, Value row, int64_t pixels) {
                                   return tileAt(b, acc, row, loops.idx(b, col), pixels, true);
                                 });
    return carried;
  }

  /// One piece of the panels' loop: the panel's rows of its chunk, then (all
  /// chunks at once, `columns`) its tail columns; in blocks of channels
  /// where channelBlock says so.
  Value piece(OpBuilder &b, const PixelRowLoops &loops, const Layout &l, Value acc, Value image,
              Value piece) const {
    Location loc = loops.loc;
    // The panel's first filter, and its rows [firstRow, endRow).
    Value j = piece, firstRow = loops.idx(b, 0), endRow = loops.idx(b, l.oh);
    if (l.chunks > 1) {
      // Panel-major pieces (panel, chunk), or rows-major (chunk, panel).
      Value panel, chunk;
      if (l.rowsMajor) {
        Value panels = loops.idx(b, l.panels);
        panel = b.create<arith::RemUIOp>(loc, piece, panels);
        chunk = b.create<arith::DivUIOp>(loc, piece, panels);
      } else {
        Value chunks = loops.idx(b, l.chunks);
        panel = b.create<arith::DivUIOp>(loc, piece, chunks);
        chunk = b.create<arith::RemUIOp>(loc, piece, chunks);
      }
      j = b.create<arith::MulIOp>(loc, panel, loops.idx(b, loops.kPanel));
      firstRow = b.create<arith::MulIOp>(loc, chunk, loops.idx(b, l.chunkRows));
      endRow = b.create<arith::MinUIOp>(
          loc, b.create<arith::AddIOp>(loc, firstRow, loops.idx(b, l.chunkRows)), endRow);
    }
    if (loops.channels == loops.c)
      return sweep(b, loops, l, acc, firstRow, endRow,
                   [&](OpBuilder &b, Value acc, Value row, Value col, int64_t pixels, bool down) {
                     return loops.tile(b, acc, image, j, row, col, pixels, down);
                   });
    return inChannelBlocks(b, loops, l, acc, image, j, firstRow, endRow);
  }

  /// The piece of panel `j`, rows [firstRow, endRow), in blocks of channels:
  /// one sweep of its tiles per block; the first starts from zeros, each
  /// keeps its partial sums in a scratch of the piece's rows (in tile layout:
  /// no transposes), the last writes them back.
  Value inChannelBlocks(OpBuilder &b, const PixelRowLoops &loops, const Layout &l, Value acc,
                        Value image, Value j, Value firstRow, Value endRow) const {
    Location loc = loops.loc;
    int64_t blocks = loops.c / loops.channels;
    Value scratch = b.create<tensor::EmptyOp>(
        loc, ArrayRef<int64_t>{l.chunks > 1 ? l.chunkRows : l.oh, l.ow, loops.kPanel},
        b.getF32Type());
    auto inPiece = [&](OpBuilder &b, Value row) -> Value {
      return b.create<arith::SubIOp>(loc, row, firstRow);
    };
    scratch = sweep(b, loops, l, scratch, firstRow, endRow,
                    [&](OpBuilder &b, Value s, Value row, Value col, int64_t pixels, bool down) {
                      Value sums = loops.accumulate(b, loops.zeros(b, pixels), image, j, row, col,
                                                    pixels, down, loops.attr(b, 0));
                      return loops.writeScratch(b, sums, s, inPiece(b, row), col, pixels, down);
                    });
    if (blocks > 2)
      scratch = loops.forLoop(b, 1, blocks - 1, 1, scratch, [&](OpBuilder &b, Value block, Value s) {
        Value c0 = b.create<arith::MulIOp>(loc, block, loops.idx(b, loops.channels));
        return sweep(b, loops, l, s, firstRow, endRow,
                     [&](OpBuilder &b, Value s, Value row, Value col, int64_t pixels, bool down) {
                       Value at = inPiece(b, row);
                       Value sums = loops.accumulate(b, loops.readScratch(b, s, at, col, pixels, down),
                                                     image, j, row, col, pixels, down, c0);
                       return loops.writeScratch(b, sums, s, at, col, pixels, down);
                     });
      }).getResult(0);
    OpFoldResult last = loops.attr(b, (blocks - 1) * loops.channels);
    return sweep(b, loops, l, acc, firstRow, endRow,
                 [&](OpBuilder &b, Value acc, Value row, Value col, int64_t pixels, bool down) {
                   Value sums = loops.accumulate(
                       b, loops.readScratch(b, scratch, inPiece(b, row), col, pixels, down), image,
                       j, row, col, pixels, down, last);
                   return loops.writeBack(b, acc, sums, image, j, row, col, pixels, down);
                 });
  }

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    std::optional<ConvOperands> ops = staticF32Operands(conv);
    if (!ops)
      return rewriter.notifyMatchFailure(conv, "not a static f32 convolution");
    Value panels = pixelRowPanels(ops->filter);
    if (!panels)
      return rewriter.notifyMatchFailure(conv, "weight is not packed in filter panels");
    linalg::FillOp fill = zeroFillOf(ops->init);
    if (!fill)
      return rewriter.notifyMatchFailure(conv, "accumulator is not zero-filled");
    if (!llvm::all_of(conv.getDilations().getValues<int64_t>(),
                      [](int64_t d) { return d == 1; }))
      return rewriter.notifyMatchFailure(conv, "dilated");
    ArrayRef<int64_t> x = ops->xType.getShape(), w = ops->wType.getShape(),
                      y = ops->yType.getShape();
    int64_t n = x[0], f = w[0], kh = w[2], kw = w[3], oh = y[2], ow = y[3];
    Location loc = conv.getLoc();
    PixelRowLoops loops{loc, ops->input, panels, Value(), x[1], kh, kw,
                        cast<RankedTensorType>(panels.getType()).getDimSize(4),
                        llvm::to_vector(conv.getStrides().getValues<int64_t>()),
                        linalg::GenericOp()};
    // The padded image as a fill of its borders and a copy of the interior,
    // not a fill of the whole buffer first (64ch 58x58: 861 KB of stores).
    // When the image is computed in this kernel (a convolution chained after
    // another, PartitionKernels), the buffer and its borders come first, so
    // that the producer writes the interior itself.
    // A window read pixel-major (windowReadsPixelMajor) is padded as it is
    // transposed (padToPixelMajor, below).
    bool windowPixelMajor = kh * kw > 1 && windowReadsPixelMajor(x[1]);
    tensor::PadOp pixelMajorPad;
    if (tensor::PadOp pad = dlc::spatialConstantPad(loops.input); pad && windowPixelMajor) {
      pixelMajorPad = pad;
    } else if (pad) {
      Block *entry = nullptr;
      Operation *producer = pad.getSource().getDefiningOp();
      if (producer && !isa<bufferization::ToTensorOp>(producer))
        if (auto func = conv->getParentOfType<func::FuncOp>(); func && conv->getBlock() == &func.getBody().front())
          entry = &func.getBody().front();
      loops.input = dlc::padByBorderFills(rewriter, loc, pad.getSource(), pad.getResultType(),
                                          pad.getStaticLow(), pad.getStaticHigh(),
                                          pad.getConstantPaddingValue(), entry);
    }
    loops.zeroF = rewriter.create<arith::ConstantOp>(loc, rewriter.getF32FloatAttr(0.0f));
    // The elementwise epilogue (bias, activation, residual add) that
    // ReuseProducerBuffer made update the convolution's result in place runs
    // on each tile right after its write-back instead of as a pass over the
    // whole output afterwards (which read and wrote it through L2 or L3).
    linalg::GenericOp epilogue = dlc::inPlaceEpilogue(conv.getResult(0));
    loops.epilogue = epilogue;
    int64_t kPanel = loops.kPanel;
    // Under an epilogue the loops go where the epilogue was: its other
    // operands (a residual) may be computed after the convolution.
    if (epilogue)
      rewriter.setInsertionPoint(epilogue);
    // A pointwise convolution's pixels as a few long rows (flattenPointwise,
    // pointwiseRows).
    Value init = fill.getOutputs()[0];
    bool flat = kh == 1 && kw == 1 && loops.strides[0] == 1 && loops.strides[1] == 1 && oh > 1 &&
                f / kPanel >= kParallelPanels && loops.input == ops->input && x[2] == oh && x[3] == ow &&
                (!epilogue || planeEpilogueApplies(epilogue));
    if (flat) {
      int64_t rows = pointwiseRows(oh * ow, f / kPanel, kPixels, kSteadyPixels);
      if (linalg::GenericOp flatEpilogue =
              flattenPointwise(rewriter, loc, loops.input, init, epilogue, rows))
        loops.epilogue = flatEpilogue;
      ow = oh * ow / rows;
      oh = rows;
    }
    Layout l = layout(oh, ow, f / kPanel);
    // Blocks of channels only for pointwise convolutions on small outputs
    // (channelBlock: measured there); a 3x3 one (16-32 channels a block)
    // and 14x14 outputs ran slower, from the blocks' extra sweeps.
    loops.channels = l.panelsParallel && kh * kw == 1 && y[2] * y[3] <= kChannelBlockPixels
                         ? channelBlock(x[1], kh, kw, kPanel, kChannelBlockBytes)
                         : x[1];
    // (Tiles down a column would read the pixel-major image across rows.)
    bool strided = loops.strides[0] != 1 || loops.strides[1] != 1;
    if (kh * kw == 1 && strided && windowReadsPixelMajor(x[1])) {
      // Only the pixels it reads, transposed.
      Value sampled = rewriter.create<tensor::ExtractSliceOp>(
          loc, RankedTensorType::get({n, x[1], y[2], y[3]}, rewriter.getF32Type()), loops.input,
          getAsIndexOpFoldResult(rewriter.getContext(), {0, 0, 0, 0}),
          getAsIndexOpFoldResult(rewriter.getContext(), {n, x[1], y[2], y[3]}),
          getAsIndexOpFoldResult(rewriter.getContext(),
                                 {1, 1, loops.strides[0], loops.strides[1]}));
      loops.pixelMajor = transposeToPixelMajor(rewriter, loc, sampled);
      loops.pixelMajorSubsampled = true;
    } else if (pixelMajorPad) {
      loops.pixelMajor = padToPixelMajor(rewriter, loc, pixelMajorPad);
    } else if (kh * kw > 1 ? windowPixelMajor
                           : flat && !l.columns && readsPixelMajor(y[2] * y[3], f / kPanel)) {
      loops.pixelMajor = transposeToPixelMajor(rewriter, loc, loops.input);
    }
    auto images = loops.forLoop(rewriter, 0, n, 1, init, [&](OpBuilder &b, Value image, Value acc) {
      int64_t pieces = l.chunks > 1 ? f / kPanel * l.chunks : f;
      auto panelLoop = loops.forLoop(b, 0, pieces, l.chunks > 1 ? 1 : kPanel, acc,
                                     [&](OpBuilder &b, Value p, Value acc) {
                                       return piece(b, loops, l, acc, image, p);
                                     });
      if (l.panelsParallel || l.rowsMajor)
        panelLoop->setAttr(dlc::kParallelLoopAttr, b.getUnitAttr());
      return panelLoop.getResult(0);
    });
    Value result = images.getResult(0);
    if (flat)
      result = unflatRows(rewriter, loc, result, ops->yType);
    replaceConvolution(rewriter, conv, epilogue, result);
    // The flattened epilogue was a template for the tiles' regions.
    if (loops.epilogue != epilogue)
      rewriter.eraseOp(loops.epilogue);
    return success();
  }
};

struct ConvToMatmulPass : dlc::impl::ConvToMatmulBase<ConvToMatmulPass> {
  using ConvToMatmulBase::ConvToMatmulBase;

  void runOnOperation() override {
    if (tilePixels < 1 || tilePixels > dlc::cpu::kMaxTileRows) {
      getOperation().emitError() << "dlc-conv-to-matmul: unsupported tile-pixels "
                                 << int64_t(tilePixels) << " (1.." << dlc::cpu::kMaxTileRows
                                 << ")";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvOnPixelRows>(&getContext(), int64_t(tilePixels),
                                  std::max<int64_t>(1, steadyPixels), int64_t(channelBlockBytes));
    patterns.add<ConvAsShiftedMatmuls, ConvAsIm2ColMatmul>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
