//===- LoweringUtils.cpp - shared helpers of the dlc-to-linalg patterns ---===//

#include "compiler/Target/CPU/LoweringUtils.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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
Value addPairwise(OpBuilder &b, Location loc, SmallVector<Value> values) {
  while (values.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < values.size(); i += 2)
      next.push_back(b.create<arith::AddFOp>(loc, values[i], values[i + 1]));
    if (values.size() % 2)
      next.push_back(values.back());
    values = std::move(next);
  }
  return values.front();
}

tensor::PadOp spatialConstantPad(Value v) {
  auto pad = v.getDefiningOp<tensor::PadOp>();
  if (!pad || pad.getResultType().getRank() != 4 || !pad.getResultType().hasStaticShape() ||
      !pad.getConstantPaddingValue() || ShapedType::isDynamicShape(pad.getStaticLow()) ||
      ShapedType::isDynamicShape(pad.getStaticHigh()))
    return nullptr;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  return low[0] || low[1] || high[0] || high[1] ? tensor::PadOp() : pad;
}

Value fillBorders(OpBuilder &b, Location loc, RankedTensorType paddedType, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> high, Value value) {
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
  return result;
}

Value padByBorderFills(OpBuilder &b, Location loc, Value planes, RankedTensorType paddedType,
                       ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value value,
                       Block *bordersAtStartOf) {
  ArrayRef<int64_t> shape = paddedType.getShape();
  int64_t h = shape[2] - low[2] - high[2], w = shape[3] - low[3] - high[3];
  OpBuilder::InsertPoint copyAt = b.saveInsertionPoint();
  if (bordersAtStartOf) {
    b.setInsertionPointToStart(bordersAtStartOf);
    TypedAttr constant;
    if (matchPattern(value, m_Constant(&constant)))
      value = b.create<arith::ConstantOp>(loc, constant);
  }
  Value result = fillBorders(b, loc, paddedType, low, high, value);
  b.restoreInsertionPoint(copyAt);
  return b.create<tensor::InsertSliceOp>(
      loc, planes, result,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(low[2]),
                             b.getIndexAttr(low[3])},
      ArrayRef<OpFoldResult>{b.getIndexAttr(shape[0]), b.getIndexAttr(shape[1]),
                             b.getIndexAttr(h), b.getIndexAttr(w)},
      SmallVector<OpFoldResult>(4, b.getIndexAttr(1)));
}

/// The columns of a vector<T x N> register tile (T <= 8 rows, N = 16k), as
/// N vector<T>s: the classic 8x16 in-register transpose per 16 columns
/// (interleave pairs of rows as floats, then as float pairs, then join each
/// column's two 4-float halves), rows beyond T being zeros that are dropped.
/// MLIR's generic transpose lowerings left LLVM about 400 instructions with
/// spills for a 7x32 tile: a third of a small 1x1 convolution's time.
SmallVector<Value> tileColumns(OpBuilder &b, Location loc, Value tile) {
  auto type = cast<VectorType>(tile.getType());
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Type elem = type.getElementType();
  auto v16 = VectorType::get({16}, elem);
  Value zeros = b.create<arith::ConstantOp>(loc, v16, b.getZeroAttr(v16));
  auto shuffle = [&](Value x, Value y, ArrayRef<int64_t> mask) -> Value {
    return b.create<vector::ShuffleOp>(loc, x, y, mask);
  };
  // The same 4-float pattern in each 128-bit lane of two 16-float vectors
  // (0-3: the first's lane, 16-19: the second's).
  auto perLane = [](std::array<int64_t, 4> lane) {
    SmallVector<int64_t> mask;
    for (int64_t l = 0; l < 4; ++l)
      for (int64_t i : lane)
        mask.push_back(i + 4 * l);
    return mask;
  };
  SmallVector<int64_t> unpackLo = perLane({0, 16, 1, 17}), unpackHi = perLane({2, 18, 3, 19});
  SmallVector<int64_t> pairsLo = perLane({0, 1, 16, 17}), pairsHi = perLane({2, 3, 18, 19});
  SmallVector<Value> columns(cols);
  for (int64_t block = 0; block < cols / 16; ++block) {
    SmallVector<Value> r;
    for (int64_t i = 0; i < 8; ++i) {
      if (i >= rows) {
        r.push_back(zeros);
        continue;
      }
      Value row = b.create<vector::ExtractOp>(loc, tile, i);
      r.push_back(b.create<vector::ExtractStridedSliceOp>(
          loc, row, ArrayRef<int64_t>{16 * block}, ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1}));
    }
    // t[2p], t[2p+1]: rows 2p and 2p+1 interleaved, columns 4L..4L+1 and 4L+2..4L+3.
    SmallVector<Value> t;
    for (int64_t p = 0; p < 4; ++p) {
      t.push_back(shuffle(r[2 * p], r[2 * p + 1], unpackLo));
      t.push_back(shuffle(r[2 * p], r[2 * p + 1], unpackHi));
    }
    // u[4h + k]: column 4L + k of rows 4h..4h+3, in lane L.
    SmallVector<Value> u(8);
    for (int64_t h = 0; h < 2; ++h) {
      u[4 * h + 0] = shuffle(t[4 * h + 0], t[4 * h + 2], pairsLo);
      u[4 * h + 1] = shuffle(t[4 * h + 0], t[4 * h + 2], pairsHi);
      u[4 * h + 2] = shuffle(t[4 * h + 1], t[4 * h + 3], pairsLo);
      u[4 * h + 3] = shuffle(t[4 * h + 1], t[4 * h + 3], pairsHi);
    }
    for (int64_t l = 0; l < 4; ++l)
      for (int64_t k = 0; k < 4; ++k) {
        SmallVector<int64_t> mask;
        for (int64_t i = 0; i < 4; ++i)
          mask.push_back(4 * l + i);
        for (int64_t i = 0; i < 4; ++i)
          mask.push_back(16 + 4 * l + i);
        mask.resize(rows);
        columns[16 * block + 4 * l + k] = shuffle(u[k], rows > 4 ? u[4 + k] : u[k], mask);
      }
  }
  return columns;
}

} // namespace dlc
