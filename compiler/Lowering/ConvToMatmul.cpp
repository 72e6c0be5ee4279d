//===- ConvToMatmul.cpp - f32 NCHW convolutions as im2col + matmul ---------===//
//
// Out[n] (F x OH*OW) = W (F x C*KH*KW) · Col[n] (C*KH*KW x OH*OW), so a
// convolution gets the same register-tiled, vectorised matmul as a GEMM:
//
//   %y = linalg.conv_2d_nchw_fchw {strides, dilations}
//          ins(%x_padded : NxCxHxW, %w : FxCxKHxKW) outs(%acc : NxFxOHxOW)
// becomes
//   %w2 = tensor.collapse_shape %w  : FxCxKHxKW -> Fx(C*KH*KW)       (a view)
//   scf.for %n = 0 to N iter_args(%a = collapse(%acc) : NxFx(OH*OW)) {
//     %col = linalg.generic (c,kh,kw,oh,ow) -> x[n, c, oh*s+kh*d, ow*s+kw*d]
//     %mm  = linalg.matmul ins(%w2, collapse(%col)) outs(%a[n])
//     scf.yield insert(%mm into %a[n])
//   }
//   %y = tensor.expand_shape ... : NxFx(OH*OW) -> NxFxOHxOW            (a view)
//
// The im2col copy is one pass over C*KH*KW*OH*OW elements per image, small
// next to the matmul's 2*F*C*KH*KW*OH*OW operations; a 1x1 stride-1
// convolution skips it (Col is the image, C x H*W, a view). When OH*OW is not a
// multiple of 16, Col and the output rows are widened with zero columns to
// the next multiple (and the product sliced back), so that no register tile
// is ragged.
//
//===----------------------------------------------------------------------===//

#include "compiler/Lowering/Passes.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_CONVTOMATMUL
#include "compiler/Lowering/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct ConvAsIm2ColMatmul : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
    Value init = conv.getOutputs()[0];
    auto xType = dyn_cast<RankedTensorType>(input.getType());
    auto wType = dyn_cast<RankedTensorType>(filter.getType());
    auto yType = dyn_cast<RankedTensorType>(init.getType());
    if (!xType || !wType || !yType || !xType.hasStaticShape() ||
        !wType.hasStaticShape() || !yType.hasStaticShape() ||
        !xType.getElementType().isF32() || !wType.getElementType().isF32() ||
        !yType.getElementType().isF32())
      return rewriter.notifyMatchFailure(conv, "not a static f32 convolution");

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
    auto acc3Type = RankedTensorType::get({n, f, oh * ow}, f32);
    Value acc3 = rewriter.create<tensor::CollapseShapeOp>(
        loc, acc3Type, init, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});

    int64_t cols = oh * ow, padded = cols % 16 ? (cols + 15) / 16 * 16 : cols;
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
    Value count = rewriter.create<arith::ConstantIndexOp>(loc, n);
    auto loop = rewriter.create<scf::ForOp>(
        loc, zero, count, one, ValueRange{acc3},
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
                                                  b.getIndexAttr(0)};
          SmallVector<OpFoldResult> outSizes = {b.getIndexAttr(1), b.getIndexAttr(f),
                                                b.getIndexAttr(oh * ow)};
          SmallVector<OpFoldResult> outUnit(3, b.getIndexAttr(1));
          auto rowsType = RankedTensorType::get({f, oh * ow}, f32);
          Value rows = b.create<tensor::ExtractSliceOp>(loc, rowsType, acc, outOffsets,
                                                        outSizes, outUnit);
          Value product;
          if (cols == padded) {
            product = b.create<linalg::MatmulOp>(loc, TypeRange{rowsType},
                                                 ValueRange{w2, col2}, ValueRange{rows})
                          .getResult(0);
          } else {
            // Ragged OH*OW (7x7, 14x14, 28x28 in ResNet): zero columns up to a
            // multiple of 16, so every register tile is full 16-wide vectors
            // (the 8x17 edge tile of a 49-column matmul runs 8x slower).
            auto widen = [&](Value v, int64_t rowsOf) {
              auto type = RankedTensorType::get({rowsOf, padded}, f32);
              Value zero = b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(0.0f));
              Value filled =
                  b.create<linalg::FillOp>(
                       loc, zero, b.create<tensor::EmptyOp>(loc, type.getShape(), f32).getResult())
                      .getResult(0);
              return b.create<tensor::InsertSliceOp>(
                  loc, v, filled, ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
                  ArrayRef<OpFoldResult>{b.getIndexAttr(rowsOf), b.getIndexAttr(cols)},
                  ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)}).getResult();
            };
            Value wideCol = widen(col2, c * kh * kw), wideRows = widen(rows, f);
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
          Value updated = b.create<tensor::InsertSliceOp>(loc, product, acc, outOffsets,
                                                          outSizes, outUnit);
          b.create<scf::YieldOp>(loc, updated);
        });
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        conv, yType, loop.getResult(0), ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    return success();
  }
};

struct ConvToMatmulPass : dlc::impl::ConvToMatmulBase<ConvToMatmulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvAsIm2ColMatmul>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
