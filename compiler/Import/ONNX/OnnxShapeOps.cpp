//===- OnnxShapeOps.cpp - shapes, constants, comparisons ------------------===//
//
// Reshape, Flatten, Squeeze, Unsqueeze -> reshape; Transpose, Concat, Slice,
// Split, Gather, Cast -> the dlc op; Expand -> x + zeros(shape); Tile ->
// concat of copies; Constant, Shape, Size, ConstantOfShape, Range ->
// constants (shapes are static); Equal ... Where -> constants when their
// operands are known at import time, else dlc.compare and dlc.select; IsNaN,
// IsInf, ThresholdedRelu, Shrink as compares and selects; Trilu as a select
// with a constant mask. Inputs that give shapes or axes (and Trilu's k) must
// be known at import time (constants, folded shape arithmetic, or --bind).
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxOpsCommon.h"

#include "dialects/dlc/DlcShapes.h"
#include "Interpreter/Interpreter.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

LogicalResult convertReshape(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  std::optional<std::vector<int64_t>> shape =
      g.attrInts("shape"); // opset < 5
  if (!shape)
    shape = g.constInts(1, "the target shape");
  if (!shape)
    return failure();
  bool allowZero = g.attrInt("allowzero", 0) != 0;
  // Where a symbolic batch may land: a -1, a copied dim, the batch's size.
  std::vector<int64_t> batchPositions;
  SizeMask sizes = g.has(1) ? g.sizeMaskOf(g.input(1)) : SizeMask();
  for (size_t i = 0; i < shape->size(); ++i)
    if ((*shape)[i] == -1 || ((*shape)[i] == 0 && !allowZero) ||
        (!sizes.empty() && (sizes.size() == 1 ? sizes[0] : i < sizes.size() && sizes[i])))
      batchPositions.push_back(i);
  int64_t infer = -1, known = 1;
  for (size_t i = 0; i < shape->size(); ++i) {
    int64_t &d = (*shape)[i];
    if (d == 0 && !allowZero) {
      if (i >= static_cast<size_t>(t.getRank()))
        return g.fail("shape entry 0 at position " + llvm::Twine(i) +
                      " copies a dimension the input does not have");
      d = t.getDimSize(i);
    }
    if (d == -1) {
      if (infer >= 0)
        return g.fail("the target shape has more than one -1");
      infer = i;
      continue;
    }
    if (d < 0)
      return g.fail("the target shape has a negative dimension");
    known *= d;
  }
  if (infer >= 0)
    (*shape)[infer] = known == 0 ? 0 : t.getNumElements() / known;
  if (product(*shape) != t.getNumElements())
    return g.fail("cannot reshape " + formatShape(t.getShape()) + " to " +
                  formatShape(*shape));
  out.push_back(g.symbolicBatch.empty()
                    ? g.reshape(g.input(0), *shape)
                    : g.reshapeWithBatchPositions(g.input(0), *shape, batchPositions));
  return success();
}

LogicalResult convertFlatten(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  int64_t axis = normAxis(g.attrInt("axis", 1), t.getRank());
  if (axis < 0 || axis > t.getRank())
    return g.fail("axis out of range");
  int64_t outer = product(t.getShape().take_front(axis));
  out.push_back(g.reshape(g.input(0), {outer, t.getNumElements() / std::max<int64_t>(outer, 1)}));
  return success();
}

/// Squeeze/Unsqueeze axes: the attribute (opset < 13) or input 1.
std::optional<std::vector<int64_t>> axesOf(GraphImporter &g, size_t input) {
  if (auto a = g.attrInts("axes"))
    return a;
  if (g.has(input))
    return g.constInts(input, "the axes");
  return std::vector<int64_t>{};
}

LogicalResult convertSqueeze(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  std::optional<std::vector<int64_t>> axes = axesOf(g, 1);
  if (!axes)
    return failure();
  std::vector<bool> drop(t.getRank(), false);
  if (axes->empty())
    for (int64_t d = 0; d < t.getRank(); ++d)
      drop[d] = t.getDimSize(d) == 1;
  for (int64_t a : *axes) {
    a = normAxis(a, t.getRank());
    if (a < 0 || a >= t.getRank() || t.getDimSize(a) != 1)
      return g.fail("cannot squeeze axis " + llvm::Twine(a) + " of " + formatShape(t.getShape()));
    drop[a] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (!drop[d])
      shape.push_back(t.getDimSize(d));
  out.push_back(g.reshape(g.input(0), shape));
  return success();
}

LogicalResult convertUnsqueeze(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  std::optional<std::vector<int64_t>> axes = axesOf(g, 1);
  if (!axes)
    return failure();
  int64_t rank = t.getRank() + axes->size();
  std::vector<bool> inserted(rank, false);
  for (int64_t a : *axes) {
    a = normAxis(a, rank);
    if (a < 0 || a >= rank || inserted[a])
      return g.fail("bad unsqueeze axis " + llvm::Twine(a));
    inserted[a] = true;
  }
  SmallVector<int64_t> shape;
  int64_t src = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(inserted[d] ? 1 : t.getDimSize(src++));
  out.push_back(g.reshape(g.input(0), shape));
  return success();
}

LogicalResult convertTranspose(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  std::vector<int64_t> perm;
  if (auto p = g.attrInts("perm"))
    perm = *p;
  else
    for (int64_t d = t.getRank() - 1; d >= 0; --d)
      perm.push_back(d);
  if (static_cast<int64_t>(perm.size()) != t.getRank())
    return g.fail("perm has " + llvm::Twine(perm.size()) + " entries for rank " +
                  llvm::Twine(t.getRank()));
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= t.getRank())
      return g.fail("perm entry out of range");
    shape.push_back(t.getDimSize(p));
  }
  out.push_back(g.make<TransposeOp>(g.tensorType(shape, t.getElementType()), g.input(0),
                                    g.builder.getDenseI64ArrayAttr(perm), DeviceAttr()));
  return success();
}

LogicalResult convertConcat(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  int64_t axis = normAxis(g.attrInt("axis", 0), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  SmallVector<Value> inputs;
  SmallVector<int64_t> shape(t.getShape());
  shape[axis] = 0;
  for (size_t i = 0; i < g.numInputs(); ++i) {
    RankedTensorType ti = g.type(i);
    if (ti.getRank() != t.getRank() || ti.getElementType() != t.getElementType())
      return g.fail("inputs differ in rank or element type");
    // Empty pieces (shape arithmetic often concatenates []) add nothing.
    if (ti.getDimSize(axis) == 0)
      continue;
    shape[axis] += ti.getDimSize(axis);
    inputs.push_back(g.input(i));
  }
  if (inputs.size() == 1) {
    out.push_back(inputs[0]);
    return success();
  }
  if (inputs.empty())
    return g.unsupported("every input is empty");
  out.push_back(g.make<ConcatOp>(g.tensorType(shape, t.getElementType()), inputs,
                                 g.builder.getI64IntegerAttr(axis), DeviceAttr()));
  return success();
}

LogicalResult convertSlice(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (g.attr("starts")) { // opset < 10
    starts = g.attrInts("starts");
    ends = g.attrInts("ends");
    axes = g.attrInts("axes");
  } else {
    if (!(starts = g.constInts(1, "the starts")) || !(ends = g.constInts(2, "the ends")))
      return failure();
    if (g.has(3) && !(axes = g.constInts(3, "the axes")))
      return failure();
    if (g.has(4) && !(steps = g.constInts(4, "the steps")))
      return failure();
  }
  int64_t rank = t.getRank();
  std::vector<int64_t> s(rank, 0), e(t.getShape().begin(), t.getShape().end()), st(rank, 1);
  if (!axes) {
    axes.emplace();
    for (size_t i = 0; i < starts->size(); ++i)
      axes->push_back(i);
  }
  if (axes->size() != starts->size() || ends->size() != starts->size() ||
      (steps && steps->size() != starts->size()))
    return g.fail("starts, ends, axes and steps differ in length");
  SmallVector<int64_t> shape(t.getShape());
  // Negative steps (torch.flip exports one): a gather of the positions
  // start, start + step, ... down to (not including) end, after the slice.
  std::vector<std::pair<int64_t, std::vector<double>>> backwards;
  for (size_t i = 0; i < axes->size(); ++i) {
    int64_t a = normAxis((*axes)[i], rank);
    if (a < 0 || a >= rank)
      return g.fail("slice axis out of range");
    int64_t dim = t.getDimSize(a), step = steps ? (*steps)[i] : 1;
    if (step == 0)
      return g.fail("a step of 0");
    if (step < 0) {
      auto wrap = [&](int64_t v, int64_t low) { return std::clamp<int64_t>(v < 0 ? v + dim : v, low, dim - 1); };
      std::vector<double> positions;
      for (int64_t p = wrap((*starts)[i], 0), end = wrap((*ends)[i], -1); p > end; p += step)
        positions.push_back(double(p));
      shape[a] = int64_t(positions.size());
      backwards.emplace_back(a, std::move(positions));
      continue;
    }
    auto clampIndex = [&](int64_t v) {
      if (v < 0)
        v += dim;
      return std::clamp<int64_t>(v, 0, dim);
    };
    s[a] = clampIndex((*starts)[i]);
    e[a] = std::max(s[a], clampIndex((*ends)[i]));
    st[a] = step;
    shape[a] = (e[a] - s[a] + step - 1) / step;
  }
  if (product(shape) == 0) {
    // Shape arithmetic slices shapes to nothing (`x.shape[2:]` of a 2-D x):
    // known at import time, the empty value is folded away by its users
    // (Concat drops it); a run-time tensor with no elements is refused.
    if (!g.constInput(0))
      return g.unsupported("an empty result");
    FailureOr<ref::DType> dtype = refDTypeOf(t.getElementType());
    if (failed(dtype))
      return g.unsupported("an empty result of this element type");
    out.push_back(g.constant(Tensor::fromValues(*dtype, std::vector<int64_t>(shape.begin(), shape.end()), {})));
    return success();
  }
  SmallVector<int64_t> sliced(shape);
  for (auto &[a, positions] : backwards)
    sliced[a] = t.getDimSize(a);
  Value v = g.input(0);
  if (sliced != SmallVector<int64_t>(t.getShape()))
    v = g.make<SliceOp>(g.tensorType(sliced, t.getElementType()), v, g.builder.getDenseI64ArrayAttr(s),
                        g.builder.getDenseI64ArrayAttr(e), g.builder.getDenseI64ArrayAttr(st), DeviceAttr());
  for (auto &[a, positions] : backwards) {
    sliced[a] = int64_t(positions.size());
    Value indices = g.constant(Tensor::fromValues(ref::DType::I64, {sliced[a]}, positions));
    v = g.make<GatherOp>(g.tensorType(sliced, t.getElementType()), v, indices, g.builder.getI64IntegerAttr(a),
                         DeviceAttr());
  }
  out.push_back(v);
  return success();
}

LogicalResult convertSplit(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  int64_t axis = normAxis(g.attrInt("axis", 0), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  std::optional<std::vector<int64_t>> sizes = g.attrInts("split");
  if (!sizes && g.has(1) && !(sizes = g.constInts(1, "the split sizes")))
    return failure();
  int64_t n = g.node->output_size(), dim = t.getDimSize(axis);
  if (!sizes && g.attr("num_outputs")) {
    // Opset 18: chunks of ceil(dim / n), the last one smaller.
    n = g.attrInt("num_outputs", 0);
    if (n <= 0 || n != g.node->output_size())
      return g.fail("num_outputs is " + llvm::Twine(n) + " for " +
                    llvm::Twine(g.node->output_size()) + " outputs");
    int64_t chunk = (dim + n - 1) / n;
    sizes = std::vector<int64_t>(n, chunk);
    sizes->back() = dim - chunk * (n - 1);
  }
  if (!sizes) {
    if (n <= 0 || dim % n != 0)
      return g.fail("cannot split " + llvm::Twine(dim) + " into " + llvm::Twine(n) + " equal parts");
    sizes = std::vector<int64_t>(n, dim / n);
  }
  SmallVector<Type> types;
  for (int64_t size : *sizes) {
    if (size <= 0)
      return g.unsupported("an empty piece");
    SmallVector<int64_t> shape(t.getShape());
    shape[axis] = size;
    types.push_back(g.tensorType(shape, t.getElementType()));
  }
  auto op = g.builder.create<SplitOp>(g.loc, types, g.input(0), g.builder.getI64IntegerAttr(axis),
                                      g.builder.getDenseI64ArrayAttr(*sizes), DeviceAttr());
  for (Value result : g.foldAll(op)) // the constants, when it folds
    out.push_back(result);
  return success();
}

LogicalResult convertGather(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0), it = g.type(1);
  int64_t axis = normAxis(g.attrInt("axis", 0), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  Value indices = g.input(1);
  // A scalar index picks one slice: gather [1] then drop the axis.
  bool scalar = it.getRank() == 0;
  if (scalar)
    indices = g.reshape(indices, {1});
  ArrayRef<int64_t> idxShape = GraphImporter::typeOf(indices).getShape();
  SmallVector<int64_t> shape(t.getShape().take_front(axis));
  shape.append(idxShape.begin(), idxShape.end());
  shape.append(t.getShape().begin() + axis + 1, t.getShape().end());
  Value r = g.make<GatherOp>(g.tensorType(shape, t.getElementType()), g.input(0), indices,
                             g.builder.getI64IntegerAttr(axis), DeviceAttr());
  if (scalar) {
    shape.erase(shape.begin() + axis);
    r = g.reshape(r, shape);
  }
  out.push_back(r);
  return success();
}

LogicalResult convertCast(GraphImporter &g, Outputs &out) {
  int64_t to = g.attrInt("to", 0);
  Type element = elementTypeOf(g.builder.getContext(), to);
  if (!element)
    return g.unsupported(llvm::Twine("cast to ") + onnxTypeName(to));
  out.push_back(g.castTo(g.input(0), element));
  return success();
}

LogicalResult convertExpand(GraphImporter &g, Outputs &out) {
  std::optional<std::vector<int64_t>> shape = g.constInts(1, "the target shape");
  if (!shape)
    return failure();
  if (llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
    return g.fail("the target shape has a negative dimension");
  RankedTensorType t = g.type(0);
  FailureOr<Shape> result = broadcastShapes(t.getShape(), *shape, nullptr);
  if (failed(result))
    return g.fail("cannot broadcast " + formatShape(t.getShape()) + " to " + formatShape(*shape));
  if (ArrayRef<int64_t>(*result) == t.getShape()) {
    out.push_back(g.input(0));
    return success();
  }
  if (t.getElementType().isInteger(1))
    return g.unsupported("expanding booleans");
    // A splat, so its size costs nothing in the IR.
  auto zt = g.tensorType(*result, t.getElementType());
  Value z = g.builder.create<ConstantOp>(g.loc, zt,
                                         DenseElementsAttr::get(zt, g.builder.getZeroAttr(t.getElementType())),
                                         DeviceAttr());
  out.push_back(g.make<AddOp>(g.input(0), z));
  return success();
}

/// ONNX Pad in `constant` mode, decomposed: a negative pad is a slice, a
/// positive one a concat with a splat constant block of the pad value on
/// that side (its size costs nothing in the IR), one axis at a time. The
/// other modes (reflect, edge, wrap) are refused with their name.
/// The source coordinate of padded position `p - begin` (p in [0, begin +
/// dim + end)) for Pad's `edge` (clamped), `reflect` (mirrored about the
/// first and last elements, NumPy's reflect) and `wrap` (periodic) modes.
int64_t padSource(StringRef mode, int64_t q, int64_t dim) {
  if (mode == "edge")
    return std::min(std::max<int64_t>(q, 0), dim - 1);
  if (mode == "wrap")
    return ((q % dim) + dim) % dim;
  if (dim == 1)
    return 0;
  int64_t period = 2 * (dim - 1); // reflect
  q = ((q % period) + period) % period;
  return q < dim ? q : period - q;
}

/// Pad of one axis in a mode other than constant: one gather along the axis
/// with a constant index per output position.
Value padByGather(GraphImporter &g, Value v, int64_t axis, int64_t begin, int64_t end,
                  StringRef mode) {
  RankedTensorType vt = GraphImporter::typeOf(v);
  int64_t dim = vt.getDimSize(axis), length = begin + dim + end;
  std::vector<double> index(length);
  for (int64_t p = 0; p < length; ++p)
    index[p] = double(padSource(mode, p - begin, dim));
  Value indices = g.constant(Tensor::fromValues(ref::DType::I64, {length}, index));
  SmallVector<int64_t> shape(vt.getShape());
  shape[axis] = length;
  return g.make<GatherOp>(g.tensorType(shape, vt.getElementType()), v, indices,
                          g.builder.getI64IntegerAttr(axis), DeviceAttr());
}

LogicalResult convertPad(GraphImporter &g, Outputs &out) {
  std::string mode = g.attrString("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect" && mode != "wrap")
    return g.fail("unknown mode '" + mode + "'");
  RankedTensorType t = g.type(0);
  int64_t rank = t.getRank();
  std::optional<std::vector<int64_t>> pads, axes;
  double value = 0;
  if (g.opset < 11) {
    pads = g.attrInts("pads");
    value = g.attrFloat("value", 0);
  } else {
    if (!(pads = g.constInts(1, "the pads")))
      return failure();
    if (g.has(2)) {
      std::optional<Tensor> v = g.requireConst(2, "the constant value");
      if (!v)
        return failure();
      if (v->data.size() != 1)
        return g.fail("the constant value is not a scalar");
      value = v->data[0];
    }
    if (g.has(3) && !(axes = g.constInts(3, "the axes")))
      return failure();
  }
  if (!axes) {
    axes.emplace();
    for (int64_t a = 0; a < rank; ++a)
      axes->push_back(a);
  }
  if (!pads || pads->size() != 2 * axes->size())
    return g.fail("expects two pads (begin, end) per padded axis");
  Value v = g.input(0);
  for (size_t i = 0; i < axes->size(); ++i) {
    int64_t axis = normAxis((*axes)[i], rank);
    if (axis < 0 || axis >= rank)
      return g.fail("pad axis out of range");
    int64_t begin = (*pads)[i], end = (*pads)[i + axes->size()];
    RankedTensorType vt = GraphImporter::typeOf(v);
    int64_t dim = vt.getDimSize(axis);
    if (begin < 0 || end < 0) { // Crop first.
      int64_t from = std::max<int64_t>(0, -begin), to = dim - std::max<int64_t>(0, -end);
      if (to <= from)
        return g.unsupported("pads that leave nothing of an axis");
      SmallVector<int64_t> s(rank, 0), e(vt.getShape()), st(rank, 1), shape(vt.getShape());
      s[axis] = from;
      e[axis] = to;
      shape[axis] = to - from;
      v = g.make<SliceOp>(g.tensorType(shape, vt.getElementType()), v,
                          g.builder.getDenseI64ArrayAttr(s), g.builder.getDenseI64ArrayAttr(e),
                          g.builder.getDenseI64ArrayAttr(st), DeviceAttr());
      vt = GraphImporter::typeOf(v);
    }
    if (mode != "constant") {
      if (begin > 0 || end > 0)
        v = padByGather(g, v, axis, std::max<int64_t>(begin, 0), std::max<int64_t>(end, 0), mode);
      continue;
    }
    SmallVector<Value> pieces;
    auto block = [&](int64_t size) {
      SmallVector<int64_t> shape(vt.getShape());
      shape[axis] = size;
      auto type = g.tensorType(shape, vt.getElementType());
      Attribute element = isa<FloatType>(vt.getElementType())
                              ? Attribute(g.builder.getFloatAttr(vt.getElementType(), value))
                              : Attribute(g.builder.getIntegerAttr(vt.getElementType(),
                                                                   ref::toInt64(value)));
      return g.builder.create<ConstantOp>(g.loc, type, DenseElementsAttr::get(type, element),
                                          DeviceAttr()).getResult();
    };
    if (begin > 0)
      pieces.push_back(block(begin));
    pieces.push_back(v);
    if (end > 0)
      pieces.push_back(block(end));
    if (pieces.size() == 1)
      continue;
    SmallVector<int64_t> shape(vt.getShape());
    shape[axis] += std::max<int64_t>(begin, 0) + std::max<int64_t>(end, 0);
    v = g.make<ConcatOp>(g.tensorType(shape, vt.getElementType()), pieces,
                         g.builder.getI64IntegerAttr(axis), DeviceAttr());
  }
  out.push_back(v);
  return success();
}

LogicalResult convertTile(GraphImporter &g, Outputs &out) {
  std::optional<std::vector<int64_t>> repeats = g.constInts(1, "the repeats");
  if (!repeats)
    return failure();
  Value v = g.input(0);
  if (static_cast<int64_t>(repeats->size()) != g.type(0).getRank())
    return g.fail("expects one repeat count per dimension");
  for (size_t axis = 0; axis < repeats->size(); ++axis) {
    int64_t r = (*repeats)[axis];
    if (r <= 0)
      return g.unsupported("repeat count " + llvm::Twine(r));
    if (r == 1)
      continue;
    RankedTensorType t = GraphImporter::typeOf(v);
    SmallVector<int64_t> shape(t.getShape());
    shape[axis] *= r;
    SmallVector<Value> copies(r, v);
    v = g.make<ConcatOp>(g.tensorType(shape, t.getElementType()), copies,
                         g.builder.getI64IntegerAttr(axis), DeviceAttr());
  }
  out.push_back(v);
  return success();
}

//===----------------------------------------------------------------------===//
// Constants and shape queries
//===----------------------------------------------------------------------===//

LogicalResult convertConstant(GraphImporter &g, Outputs &out) {
  if (const onnx::AttributeProto *a = g.attr("value")) {
    std::string err;
    std::optional<Tensor> t = tensorFromProto(a->t(), err);
    if (!t)
      return g.unsupported(err);
    out.push_back(g.constant(*t));
    return success();
  }
  if (const onnx::AttributeProto *a = g.attr("value_float")) {
    out.push_back(g.constant(Tensor::fromValues(ref::DType::F32, {}, {a->f()})));
    return success();
  }
  if (const onnx::AttributeProto *a = g.attr("value_int")) {
    out.push_back(g.constant(Tensor::fromValues(ref::DType::I64, {}, {double(a->i())})));
    return success();
  }
  if (const onnx::AttributeProto *a = g.attr("value_floats")) {
    std::vector<double> v(a->floats().begin(), a->floats().end());
    out.push_back(g.constant(Tensor::fromValues(ref::DType::F32, {int64_t(v.size())}, v)));
    return success();
  }
  if (const onnx::AttributeProto *a = g.attr("value_ints")) {
    std::vector<double> v(a->ints().begin(), a->ints().end());
    out.push_back(g.constant(Tensor::fromValues(ref::DType::I64, {int64_t(v.size())}, v)));
    return success();
  }
  return g.unsupported("a sparse or string value");
}

LogicalResult convertShape(GraphImporter &g, Outputs &out) {
  ArrayRef<int64_t> dims = g.type(0).getShape();
  int64_t rank = dims.size();
  int64_t start = std::clamp<int64_t>(normAxis(g.attrInt("start", 0), rank), 0, rank);
  int64_t end = std::clamp<int64_t>(normAxis(g.attrInt("end", rank), rank), 0, rank);
  std::vector<double> v;
  for (int64_t d = start; d < end; ++d)
    v.push_back(dims[d]);
  out.push_back(g.constant(Tensor::fromValues(ref::DType::I64, {int64_t(v.size())}, v)));
  return success();
}

LogicalResult convertSize(GraphImporter &g, Outputs &out) {
  out.push_back(g.constant(
      Tensor::fromValues(ref::DType::I64, {}, {double(g.type(0).getNumElements())})));
  return success();
}

LogicalResult convertConstantOfShape(GraphImporter &g, Outputs &out) {
  std::optional<std::vector<int64_t>> shape = g.constInts(0, "the shape");
  if (!shape)
    return failure();
  Tensor value = Tensor::fromValues(ref::DType::F32, {1}, {0.0});
  if (const onnx::AttributeProto *a = g.attr("value")) {
    std::string err;
    std::optional<Tensor> t = tensorFromProto(a->t(), err);
    if (!t || t->data.size() != 1)
      return g.unsupported(t ? "a value that is not one element" : err);
    value = *t;
  }
  if (llvm::any_of(*shape, [](int64_t d) { return d < 0; }))
    return g.fail("the shape has a negative dimension");
  if (product(*shape) == 0)
    return g.unsupported("an empty result");
  Tensor filled = Tensor::fromValues(value.dtype, *shape,
                                     std::vector<double>(product(*shape), value.data[0]));
  if (product(*shape) <= kMaxFoldElements) {
    out.push_back(g.constant(filled));
    return success();
  }
  Tensor one = Tensor::fromValues(value.dtype, {}, {value.data[0]});
  Value c = g.constant(one);
  auto type = g.tensorType(*shape, GraphImporter::typeOf(c).getElementType());
  out.push_back(g.builder.create<ConstantOp>(
      g.loc, type, DenseElementsAttr::get(type, cast<DenseElementsAttr>(c.getDefiningOp<ConstantOp>().getValue()).getSplatValue<Attribute>()),
      DeviceAttr()));
  c.getDefiningOp()->erase();
  return success();
}

LogicalResult convertRange(GraphImporter &g, Outputs &out) {
  std::optional<Tensor> start, limit, delta;
  if (!(start = g.requireConst(0, "start")) || !(limit = g.requireConst(1, "limit")) ||
      !(delta = g.requireConst(2, "delta")))
    return failure();
  double s = start->data[0], l = limit->data[0], d = delta->data[0];
  if (d == 0)
    return g.fail("delta is 0");
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((l - s) / d)));
  if (n == 0)
    return g.unsupported("an empty result");
  if (n > kMaxFoldElements)
    return g.unsupported("more than " + llvm::Twine(kMaxFoldElements) + " elements");
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(s + i * d);
  out.push_back(g.constant(Tensor::fromValues(start->dtype, {n}, v)));
  return success();
}

//===----------------------------------------------------------------------===//
// Comparisons and selection
//===----------------------------------------------------------------------===//

/// Equal, Less, Greater, LessOrEqual, GreaterOrEqual, And, Or, Xor, Not and
/// Where: comparisons -> dlc.compare; Where -> dlc.select; And a b ->
/// select(a, b, false), Or a b -> select(a, true, b), Xor -> compare ne, Not x
/// -> compare eq x, false. Built with g.make, they fold like every other op
/// when all their inputs are known at import time (masks computed from shapes).
LogicalResult convertLogical(GraphImporter &g, Outputs &out) {
  StringRef op = g.node->op_type();
  auto elementOf = [&](size_t i) { return g.type(i).getElementType(); };
  bool logical = op == "And" || op == "Or" || op == "Xor" || op == "Not";
  for (size_t i = 0; i < g.numInputs(); ++i) {
    bool mustBeBool = logical || (op == "Where" && i == 0);
    if (mustBeBool && !elementOf(i).isInteger(1))
      return g.fail("input '" + g.node->input(i) + "' must be bool");
  }
  if (g.numInputs() > 1) {
    size_t first = op == "Where" ? 1 : 0;
    if (elementOf(first) != elementOf(g.numInputs() - 1))
      return g.fail(op == "Where" ? "X and Y have different element types"
                                  : "operands have different element types");
  }
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < g.numInputs(); ++i) {
    ArrayRef<int64_t> s = g.type(i).getShape();
    if (failed(broadcastShapes(shape, s, nullptr)))
      return g.fail("operand shapes " + formatShape(shape) + " and " + formatShape(s) +
                    " do not broadcast");
    shape = *broadcastShapes(shape, s, nullptr);
  }
  Value a = g.input(0);
  Value b = g.numInputs() > 1 ? g.input(1) : Value();
  StringRef predicate = llvm::StringSwitch<StringRef>(op)
                            .Case("Equal", "eq")
                            .Case("Less", "lt")
                            .Case("Greater", "gt")
                            .Case("LessOrEqual", "le")
                            .Case("GreaterOrEqual", "ge")
                            .Case("Xor", "ne")
                            .Default("");
  Value result;
  if (!predicate.empty())
    result = g.make<CompareOp>(predicate, a, b);
  else if (op == "Not")
    result = g.make<CompareOp>(StringRef("eq"), a, g.scalarLike(a, 0));
  else if (op == "And")
    result = g.make<SelectOp>(a, b, g.scalarLike(a, 0));
  else if (op == "Or")
    result = g.make<SelectOp>(a, g.scalarLike(a, 1), b);
  else // Where
    result = g.make<SelectOp>(a, b, g.input(2));
  out.push_back(result);
  return success();
}

/// IsNaN: x != x. IsInf: x == +inf, x == -inf or either (detect_positive,
/// detect_negative).
LogicalResult convertIsNanOrInf(GraphImporter &g, Outputs &out) {
  Value x = g.input(0);
  if (!isa<FloatType>(g.type(0).getElementType()))
    return g.unsupported("an input that is not a float");
  if (g.node->op_type() == "IsNaN") {
    out.push_back(g.make<CompareOp>(StringRef("ne"), x, x));
    return success();
  }
  bool positive = g.attrInt("detect_positive", 1) != 0;
  bool negative = g.attrInt("detect_negative", 1) != 0;
  Value pos = g.make<CompareOp>(StringRef("eq"), x, g.scalarLike(x, INFINITY));
  Value neg = g.make<CompareOp>(StringRef("eq"), x, g.scalarLike(x, -INFINITY));
  if (positive && negative)
    out.push_back(g.make<SelectOp>(pos, g.scalarLike(pos, 1), neg));
  else if (positive || negative)
    out.push_back(positive ? pos : neg);
  else // Neither: false everywhere (x < x is false, for NaN too).
    out.push_back(g.make<CompareOp>(StringRef("lt"), x, x));
  return success();
}

/// ThresholdedRelu: x > alpha ? x : 0. Shrink: x < -lambd ? x + bias :
/// x > lambd ? x - bias : 0.
LogicalResult convertThresholds(GraphImporter &g, Outputs &out) {
  Value x = g.input(0);
  Value zero = g.scalarLike(x, 0);
  if (g.node->op_type() == "ThresholdedRelu") {
    Value above = g.make<CompareOp>(StringRef("gt"), x, g.scalarLike(x, g.attrFloat("alpha", 1.0)));
    out.push_back(g.make<SelectOp>(above, x, zero));
    return success();
  }
  double lambd = g.attrFloat("lambd", 0.5), bias = g.attrFloat("bias", 0.0);
  Value below = g.make<CompareOp>(StringRef("lt"), x, g.scalarLike(x, -lambd));
  Value above = g.make<CompareOp>(StringRef("gt"), x, g.scalarLike(x, lambd));
  Value high = g.make<SelectOp>(above, g.make<SubOp>(x, g.scalarLike(x, bias)), zero);
  out.push_back(g.make<SelectOp>(below, g.make<AddOp>(x, g.scalarLike(x, bias)), high));
  return success();
}

LogicalResult convertGatherElements(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0), it = g.type(1);
  int64_t axis = normAxis(g.attrInt("axis", 0), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  if (it.getRank() != t.getRank())
    return g.fail("the indices' rank is not the data's");
  if (!it.getElementType().isSignlessInteger(32) && !it.getElementType().isSignlessInteger(64))
    return g.unsupported("indices that are not int32 or int64");
  if (it.getNumElements() == 0)
    return g.unsupported("an empty result");
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (d != axis && it.getDimSize(d) > t.getDimSize(d))
      return g.fail("the indices are larger than the data on axis " + llvm::Twine(d));
  out.push_back(g.make<GatherElementsOp>(g.tensorType(it.getShape(), t.getElementType()),
                                         g.input(0), g.input(1), g.builder.getI64IntegerAttr(axis),
                                         DeviceAttr()));
  return success();
}

/// ScatterElements (and opset 9's Scatter, the same without reductions):
/// dlc.scatter_elements as it is. No updates: the data.
LogicalResult convertScatterElements(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0), it = g.type(1), ut = g.type(2);
  int64_t axis = normAxis(g.attrInt("axis", 0), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  std::string reduction = g.attrString("reduction", "none");
  if (!isScatterReduction(reduction))
    return g.fail("unknown reduction '" + reduction + "' (none, add, mul, max or min)");
  if (it.getShape() != ut.getShape())
    return g.fail("the indices' shape is not the updates'");
  if (ut.getRank() != t.getRank())
    return g.fail("the updates' rank is not the data's");
  if (!it.getElementType().isSignlessInteger(32) && !it.getElementType().isSignlessInteger(64))
    return g.unsupported("indices that are not int32 or int64");
  if (reduction != "none" && t.getElementType().isInteger(1))
    return g.fail("reduction '" + reduction + "' on bool data");
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (d != axis && ut.getDimSize(d) > t.getDimSize(d))
      return g.fail("the updates are larger than the data on axis " + llvm::Twine(d));
  if (ut.getNumElements() == 0) {
    out.push_back(g.input(0));
    return success();
  }
  out.push_back(g.make<ScatterElementsOp>(t, g.input(0), g.input(1), g.input(2),
                                          g.builder.getI64IntegerAttr(axis),
                                          g.builder.getStringAttr(reduction), DeviceAttr()));
  return success();
}

/// TopK: k from the attribute (opset < 10) or input 1, known at import time.
/// Always sorted (`sorted = 0` leaves the order to the implementation).
LogicalResult convertTopK(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  int64_t axis = normAxis(g.attrInt("axis", -1), t.getRank());
  if (axis < 0 || axis >= t.getRank())
    return g.fail("axis out of range");
  int64_t k = 0;
  if (g.opset < 10) {
    k = g.attrInt("k", 0);
  } else {
    std::optional<std::vector<int64_t>> ks = g.constInts(1, "k");
    if (!ks)
      return failure();
    if (ks->size() != 1)
      return g.fail("k must have one element");
    k = ks->front();
  }
  int64_t n = t.getDimSize(axis);
  if (k < 0 || k > n)
    return g.fail("k = " + llvm::Twine(k) + " outside [0, " + llvm::Twine(n) + "] (axis " +
                  llvm::Twine(axis) + ")");
  if (k == 0 || t.getNumElements() == 0)
    return g.unsupported("an empty result");
  if (t.getElementType().isInteger(1))
    return g.fail("TopK of bool");
  SmallVector<int64_t> shape(t.getShape());
  shape[axis] = k;
  auto op = g.builder.create<TopKOp>(g.loc, g.tensorType(shape, t.getElementType()),
                                     g.tensorType(shape, g.builder.getI64Type()), g.input(0),
                                     g.builder.getI64IntegerAttr(axis), g.builder.getI64IntegerAttr(k),
                                     g.builder.getBoolAttr(g.attrInt("largest", 1) != 0), DeviceAttr());
  for (Value result : g.foldAll(op))
    out.push_back(result);
  return success();
}

/// Trilu: select(mask, x, 0) with the triangle's mask a constant over the
/// last two dimensions (j - i >= k for the upper triangle, <= k for the
/// lower), broadcast over the others.
LogicalResult convertTrilu(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  if (t.getRank() < 2)
    return g.fail("the input has fewer than 2 dimensions");
  int64_t k = 0;
  if (g.has(1)) {
    std::optional<std::vector<int64_t>> ks = g.constInts(1, "k");
    if (!ks)
      return failure();
    if (ks->size() != 1)
      return g.fail("k is not one value");
    k = ks->front();
  }
  int64_t rows = t.getDimSize(t.getRank() - 2), columns = t.getDimSize(t.getRank() - 1);
  if (t.getNumElements() == 0)
    return g.unsupported("an empty result");
  bool upper = g.attrInt("upper", 1) != 0;
  std::vector<double> mask(rows * columns);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j)
      mask[i * columns + j] = upper ? (j - i >= k) : (j - i <= k);
  Value m = g.constant(Tensor::fromValues(ref::DType::I1, {rows, columns}, mask));
  out.push_back(g.make<SelectOp>(m, g.input(0), g.scalarLike(g.input(0), 0)));
  return success();
}


/// DepthToSpace and SpaceToDepth as reshape, a rank-6 transpose, reshape
/// (the ONNX spec's own definition): DepthToSpace's DCR mode takes the
/// block offsets from the outer channels, CRD from the inner ones.
LogicalResult convertDepthSpace(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  int64_t bs = g.attrInt("blocksize", 0);
  if (t.getRank() != 4)
    return g.fail("expects an NCHW input");
  if (bs < 1)
    return g.fail("blocksize must be at least 1");
  int64_t n = t.getDimSize(0), c = t.getDimSize(1), h = t.getDimSize(2), w = t.getDimSize(3);
  Value x = g.input(0);
  std::string mode = g.attrString("mode", "DCR"); // SpaceToDepth's since opset 28
  if (mode != "DCR" && mode != "CRD")
    return g.fail("mode must be DCR or CRD, got " + mode);
  if (g.node->op_type() == "SpaceToDepth") {
    if (h % bs || w % bs)
      return g.fail("the height and width are not multiples of blocksize");
    x = g.reshape(x, {n, c, h / bs, bs, w / bs, bs});
    x = transposed(g, x, mode == "DCR" ? SmallVector<int64_t>{0, 3, 5, 1, 2, 4} : SmallVector<int64_t>{0, 1, 3, 5, 2, 4});
    out.push_back(g.reshape(x, {n, c * bs * bs, h / bs, w / bs}));
    return success();
  }
  if (c % (bs * bs))
    return g.fail("the channels are not a multiple of blocksize^2");
  int64_t cc = c / (bs * bs);
  if (mode == "DCR") {
    x = g.reshape(x, {n, bs, bs, cc, h, w});
    x = transposed(g, x, {0, 3, 4, 1, 5, 2});
  } else {
    x = g.reshape(x, {n, cc, bs, bs, h, w});
    x = transposed(g, x, {0, 1, 4, 2, 5, 3});
  }
  out.push_back(g.reshape(x, {n, cc, h * bs, w * bs}));
  return success();
}

/// EyeLike: ones on diagonal k of a 2-D shape. The result depends on the
/// input's shape only (static), so it is a constant.
LogicalResult convertEyeLike(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  if (t.getRank() != 2)
    return g.fail("expects a 2-D input");
  Type element = t.getElementType();
  if (g.attr("dtype")) {
    int64_t dtype = g.attrInt("dtype", 0);
    element = elementTypeOf(g.builder.getContext(), dtype);
    if (!element)
      return g.unsupported(llvm::Twine("dtype ") + onnxTypeName(dtype));
  }
  int64_t k = g.attrInt("k", 0), rows = t.getDimSize(0), columns = t.getDimSize(1);
  std::vector<double> values(rows * columns, 0.0);
  for (int64_t i = 0; i < rows; ++i)
    if (i + k >= 0 && i + k < columns)
      values[i * columns + i + k] = 1.0;
  out.push_back(g.constant(Tensor::fromValues(*dlc::refDTypeOf(element), {rows, columns}, values)));
  return success();
}

/// CumSum as a matmul with a constant triangle of ones along the axis (moved
/// last and back): each output a sum of the inputs before it (exclusive:
/// strictly), or after it (reverse). n^2 multiply-adds for n elements: fine
/// for the short axes exports use it on; the sums' order is the matmul's.
LogicalResult convertCumSum(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0);
  std::optional<std::vector<int64_t>> axisValue = g.constInts(1, "the axis");
  if (!axisValue)
    return failure();
  int64_t rank = t.getRank();
  if (axisValue->size() != 1)
    return g.fail("the axis is not one value");
  int64_t axis = normAxis(axisValue->front(), rank);
  if (rank == 0 || axis < 0 || axis >= rank)
    return g.fail("axis out of range");
  if (t.getElementType().isInteger(1))
    return g.unsupported("a boolean input");
  if (t.getNumElements() == 0)
    return g.unsupported("an empty input");
  bool exclusive = g.attrInt("exclusive", 0) != 0, reverse = g.attrInt("reverse", 0) != 0;
  int64_t n = t.getDimSize(axis);
  std::vector<double> ones(n * n); // [from j][to i]
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      ones[j * n + i] = reverse ? (exclusive ? j > i : j >= i) : (exclusive ? j < i : j <= i);
  Value triangle = g.constant(Tensor::fromValues(*dlc::refDTypeOf(t.getElementType()), {n, n}, ones));
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  Value x = g.input(0);
  bool moved = axis != rank - 1;
  if (moved)
    x = transposed(g, x, perm);
  if (rank == 1)
    x = g.reshape(x, {1, n});
  RankedTensorType xt = GraphImporter::typeOf(x);
  Value y = g.make<MatmulOp>(xt, x, triangle, DeviceAttr());
  if (rank == 1)
    y = g.reshape(y, {n});
  if (moved) {
    SmallVector<int64_t> inverse(rank);
    for (int64_t d = 0; d < rank; ++d)
      inverse[perm[d]] = d;
    y = transposed(g, y, inverse);
  }
  out.push_back(y);
  return success();
}

LogicalResult convertCastLike(GraphImporter &g, Outputs &out) {
  out.push_back(g.castTo(g.input(0), g.type(1).getElementType()));
  return success();
}

} // namespace

Value dlc::onnx_import::transposed(GraphImporter &g, Value v, ArrayRef<int64_t> perm) {
  RankedTensorType t = GraphImporter::typeOf(v);
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(t.getDimSize(p));
  return g.make<TransposeOp>(g.tensorType(shape, t.getElementType()), v,
                             g.builder.getDenseI64ArrayAttr(perm), DeviceAttr());
}

void dlc::onnx_import::addShapeConverters(llvm::StringMap<Converter> &t) {
  t["DepthToSpace"] = convertDepthSpace;
  t["SpaceToDepth"] = convertDepthSpace;
  t["EyeLike"] = convertEyeLike;
  t["CastLike"] = convertCastLike;
  t["CumSum"] = convertCumSum;
  t["Trilu"] = convertTrilu;
  t["GatherElements"] = convertGatherElements;
  t["ScatterElements"] = convertScatterElements;
  t["Scatter"] = convertScatterElements;
  t["TopK"] = convertTopK;
  t["IsNaN"] = convertIsNanOrInf;
  t["IsInf"] = convertIsNanOrInf;
  t["ThresholdedRelu"] = convertThresholds;
  t["Shrink"] = convertThresholds;
  t["Transpose"] = convertTranspose;
  t["Reshape"] = convertReshape;
  t["Flatten"] = convertFlatten;
  t["Squeeze"] = convertSqueeze;
  t["Unsqueeze"] = convertUnsqueeze;
  t["Concat"] = convertConcat;
  t["Slice"] = convertSlice;
  t["Split"] = convertSplit;
  t["Gather"] = convertGather;
  t["Cast"] = convertCast;
  t["Expand"] = convertExpand;
  t["Tile"] = convertTile;
  t["Pad"] = convertPad;
  t["Constant"] = convertConstant;
  t["Shape"] = convertShape;
  t["Size"] = convertSize;
  t["ConstantOfShape"] = convertConstantOfShape;
  t["Range"] = convertRange;
  for (const char *l : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And",
                        "Or", "Xor", "Not", "Where"})
    t[l] = convertLogical;
}

Value dlc::onnx_import::zerosLike(GraphImporter &g, Value like, int64_t axis, int64_t length) {
  RankedTensorType t = GraphImporter::typeOf(like);
  SmallVector<int64_t> shape(t.getShape());
  shape[axis] = length;
  auto type = g.tensorType(shape, t.getElementType());
  return g.builder.create<ConstantOp>(g.loc, type, DenseElementsAttr::get(type, g.builder.getZeroAttr(t.getElementType())),
                                      DeviceAttr());
}

Value dlc::onnx_import::concatAlong(GraphImporter &g, ArrayRef<Value> pieces, int64_t axis) {
  if (pieces.size() == 1) // a copy for nothing (a one-direction recurrence's outputs)
    return pieces[0];
  RankedTensorType t = GraphImporter::typeOf(pieces[0]);
  SmallVector<int64_t> shape(t.getShape());
  shape[axis] = 0;
  for (Value p : pieces)
    shape[axis] += GraphImporter::typeOf(p).getDimSize(axis);
  return g.make<ConcatOp>(g.tensorType(shape, t.getElementType()), pieces, g.builder.getI64IntegerAttr(axis),
                          DeviceAttr());
}

Value dlc::onnx_import::sliceAlong(GraphImporter &g, Value v, int64_t axis, int64_t from, int64_t to) {
  RankedTensorType t = GraphImporter::typeOf(v);
  int64_t rank = t.getRank();
  SmallVector<int64_t> starts(rank, 0), ends(t.getShape()), steps(rank, 1), shape(t.getShape());
  starts[axis] = from;
  ends[axis] = to;
  shape[axis] = to - from;
  return g.make<SliceOp>(g.tensorType(shape, t.getElementType()), v, g.builder.getDenseI64ArrayAttr(starts),
                         g.builder.getDenseI64ArrayAttr(ends), g.builder.getDenseI64ArrayAttr(steps), DeviceAttr());
}
