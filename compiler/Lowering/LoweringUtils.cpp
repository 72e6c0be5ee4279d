//===- LoweringUtils.cpp - shared helpers of the dlc-to-linalg patterns ---===//

#include "compiler/Lowering/LoweringUtils.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;

namespace dlc {

Type computeType(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return Float32Type::get(elementType.getContext());
  return elementType;
}

Value toCompute(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (t.isF16() || t.isBF16())
    return b.create<arith::ExtFOp>(loc, b.getF32Type(), v);
  return v;
}

Value fromCompute(OpBuilder &b, Location loc, Value v, Type elementType) {
  Type t = v.getType();
  if (t == elementType)
    return v;
  auto from = dyn_cast<FloatType>(t), to = dyn_cast<FloatType>(elementType);
  if (from && to && to.getWidth() < from.getWidth())
    return b.create<arith::TruncFOp>(loc, elementType, v);
  if (from && to)
    return b.create<arith::ExtFOp>(loc, elementType, v);
  llvm_unreachable("fromCompute: not a float rounding");
}

Value scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto ft = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(ft, value));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType) {
  return b.create<tensor::EmptyOp>(loc, shape, elementType);
}

Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Type elementType, double value) {
  Value init = emptyTensor(b, loc, shape, elementType);
  Value scalar = scalarConstant(b, loc, elementType, value);
  return b.create<linalg::FillOp>(loc, scalar, init).getResult(0);
}

AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> outShape) {
  SmallVector<AffineExpr> exprs;
  size_t offset = outShape.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    exprs.push_back(shape[i] == 1 && outShape[offset + i] != 1
                        ? getAffineConstantExpr(0, ctx)
                        : getAffineDimExpr(offset + i, ctx));
  return AffineMap::get(outShape.size(), 0, exprs, ctx);
}

Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                       ArrayRef<AffineMap> inputMaps,
                       RankedTensorType resultType, BodyFn body) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = emptyTensor(b, loc, resultType.getShape(),
                           resultType.getElementType());
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = body(nb, nloc, args.drop_back());
        nb.create<linalg::YieldOp>(nloc, v);
      });
  return generic.getResult(0);
}

Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                       RankedTensorType resultType, BodyFn body) {
  SmallVector<AffineMap> maps;
  for (Value in : inputs)
    maps.push_back(broadcastMap(b.getContext(),
                                cast<RankedTensorType>(in.getType()).getShape(),
                                resultType.getShape()));
  return buildElementwise(b, loc, inputs, maps, resultType, body);
}

Value reshapeTo(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  auto srcType = cast<RankedTensorType>(v.getType());
  if (srcType == type)
    return v;
  if (type.getRank() < srcType.getRank())
    if (auto re = getReassociationIndicesForCollapse(srcType.getShape(),
                                                     type.getShape()))
      return b.create<tensor::CollapseShapeOp>(loc, type, v, *re);
  if (type.getRank() > srcType.getRank())
    if (auto re = getReassociationIndicesForCollapse(type.getShape(),
                                                     srcType.getShape()))
      return b.create<tensor::ExpandShapeOp>(loc, type, v, *re);
  // No single reassociation: through the flat 1-D tensor.
  auto flatType = RankedTensorType::get({srcType.getNumElements()},
                                        srcType.getElementType());
  Value flat = reshapeTo(b, loc, v, flatType);
  return reshapeTo(b, loc, flat, type);
}

SmallVector<Value> windowTaps(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> outShape, ArrayRef<int64_t> kernel,
                              ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  auto type = cast<RankedTensorType>(input.getType());
  auto tapType = RankedTensorType::get(outShape, type.getElementType());
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<Value> taps;
  for (int64_t i = 0; i < kernel[0]; ++i)
    for (int64_t j = 0; j < kernel[1]; ++j)
      taps.push_back(b.create<tensor::ExtractSliceOp>(
          loc, tapType, input,
          ArrayRef<OpFoldResult>{index(0), index(0), index(i * dilations[0]),
                                 index(j * dilations[1])},
          ArrayRef<OpFoldResult>{index(outShape[0]), index(outShape[1]),
                                 index(outShape[2]), index(outShape[3])},
          ArrayRef<OpFoldResult>{index(1), index(1), index(strides[0]), index(strides[1])}));
  return taps;
}

Value padSpatial(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> pads,
                 double value) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> lo = {b.getIndexAttr(0), b.getIndexAttr(0),
                                  b.getIndexAttr(pads[0]),
                                  b.getIndexAttr(pads[1])};
  SmallVector<OpFoldResult> hi = {b.getIndexAttr(0), b.getIndexAttr(0),
                                  b.getIndexAttr(pads[2]),
                                  b.getIndexAttr(pads[3])};
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += pads[0] + pads[2];
  shape[3] += pads[1] + pads[3];
  Value v = scalarConstant(b, loc, type.getElementType(), value);
  return b.create<tensor::PadOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), input, lo, hi,
      v);
}

linalg::GenericOp inPlaceEpilogue(Value result) {
  if (!result.hasOneUse())
    return nullptr;
  auto op = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!op || !type || op.getNumDpsInits() != 1 || op.getDpsInits()[0] != result ||
      op->getNumResults() != 1 || op.getResult(0).getType() != type ||
      op.getNumLoops() != static_cast<unsigned>(type.getRank()) ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return nullptr;
  for (OpOperand *in : op.getDpsInputOperands())
    if (in->get() == result || !op.getMatchingIndexingMap(in).isProjectedPermutation() ||
        !isa<RankedTensorType>(in->get().getType()))
      return nullptr;
  bool lookups = false;
  op.getBody()->walk([&](Operation *inner) {
    if (isa<tensor::ExtractOp, linalg::IndexOp>(inner))
      lookups = true;
  });
  return lookups ? nullptr : op;
}

Value epilogueOnRegion(OpBuilder &b, Location loc, linalg::GenericOp epilogue,
                       ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                       Value init) {
  SmallVector<Value> inputs;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    auto type = cast<RankedTensorType>(in->get().getType());
    if (type.getRank() == 0) {
      inputs.push_back(in->get());
      continue;
    }
    SmallVector<OpFoldResult> inOffsets, inSizes;
    for (AffineExpr e : epilogue.getMatchingIndexingMap(in).getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      inOffsets.push_back(offsets[d]);
      inSizes.push_back(sizes[d]);
    }
    inputs.push_back(b.create<tensor::ExtractSliceOp>(
        loc, in->get(), inOffsets, inSizes,
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1))));
  }
  auto region = b.create<linalg::GenericOp>(loc, TypeRange{init.getType()}, inputs,
                                            ValueRange{init}, epilogue.getIndexingMapsArray(),
                                            epilogue.getIteratorTypesArray());
  IRMapping mapping;
  epilogue.getRegion().cloneInto(&region.getRegion(), mapping);
  return region.getResult(0);
}

/// `planes` ([N, C, H, W]) padded in its spatial dims as a fill of the four
/// borders and a copy of the interior: a tensor.pad fills the whole buffer
/// first, and at 114x114 per channel (a stride-2 depthwise input) that buffer
/// no longer fits L1, so the fill doubled the stores through L2 (96 of a
/// 217 us layer).
tensor::PadOp spatialConstantPad(Value v) {
  auto pad = v.getDefiningOp<tensor::PadOp>();
  if (!pad || pad.getResultType().getRank() != 4 || !pad.getResultType().hasStaticShape() ||
      !pad.getConstantPaddingValue() || ShapedType::isDynamicShape(pad.getStaticLow()) ||
      ShapedType::isDynamicShape(pad.getStaticHigh()))
    return nullptr;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  return low[0] || low[1] || high[0] || high[1] ? tensor::PadOp() : pad;
}

Value padByBorderFills(OpBuilder &b, Location loc, Value planes, RankedTensorType paddedType,
                       ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value value) {
  ArrayRef<int64_t> shape = paddedType.getShape();
  int64_t h = shape[2] - low[2] - high[2], w = shape[3] - low[3] - high[3];
  Value result = b.create<tensor::EmptyOp>(loc, shape, paddedType.getElementType());
  auto fillRegion = [&](int64_t row, int64_t rows, int64_t col, int64_t cols) {
    if (rows == 0 || cols == 0)
      return;
    SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(0),
                                         b.getIndexAttr(row), b.getIndexAttr(col)};
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(shape[0]), b.getIndexAttr(shape[1]),
                                       b.getIndexAttr(rows), b.getIndexAttr(cols)};
    SmallVector<OpFoldResult> unit(4, b.getIndexAttr(1));
    Value region = b.create<tensor::ExtractSliceOp>(loc, result, offsets, sizes, unit);
    Value filled = b.create<linalg::FillOp>(loc, value, region).getResult(0);
    result = b.create<tensor::InsertSliceOp>(loc, filled, result, offsets, sizes, unit);
  };
  fillRegion(0, low[2], 0, shape[3]);                 // top rows
  fillRegion(low[2] + h, high[2], 0, shape[3]);       // bottom rows
  fillRegion(low[2], h, 0, low[3]);                   // left columns
  fillRegion(low[2], h, low[3] + w, high[3]);         // right columns
  return b.create<tensor::InsertSliceOp>(
      loc, planes, result,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(low[2]),
                             b.getIndexAttr(low[3])},
      ArrayRef<OpFoldResult>{b.getIndexAttr(shape[0]), b.getIndexAttr(shape[1]),
                             b.getIndexAttr(h), b.getIndexAttr(w)},
      SmallVector<OpFoldResult>(4, b.getIndexAttr(1)));
}

} // namespace dlc
