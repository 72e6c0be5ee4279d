//===- OnnxConvTranspose.cpp - ConvTranspose as a convolution -------------===//
//
// A transposed convolution is the convolution of the input with zeros
// inserted between its elements (stride - 1 per gap), padded by
// dilation * (kernel - 1) - pad on each side (+ output_padding at the end),
// with the filter flipped in space and its in/out channels swapped per group:
// y = conv2d(pad(dilate(x)), flip(swap(W))), stride 1, the same dilation.
// Everything is dlc ops the devices already have (reshape, concat, slice,
// transpose, gather, conv2d); the inserted zeros cost stride^2 times the
// MACs of a direct kernel (noted in README.md). 1-D is 2-D over a height
// of 1; 3-D has no dlc convolution yet.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxOpsCommon.h"
#include "compiler/Interpreter/Interpreter.h"
#include "dialects/dlc/DlcOps.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;
using ref::Tensor;

namespace {

/// One spatial axis of the transposed convolution.
struct TransposedAxis {
  int64_t in, kernel, stride = 1, dilation = 1, padBegin = 0, padEnd = 0, outputPadding = 0;
  /// The length before the pads are taken off.
  int64_t full() const { return stride * (in - 1) + outputPadding + (kernel - 1) * dilation + 1; }
};

/// `stride - 1` zeros after every element but the last along `axis`.
Value insertZeros(GraphImporter &g, Value v, int64_t axis, int64_t stride) {
  if (stride == 1)
    return v;
  RankedTensorType t = GraphImporter::typeOf(v);
  int64_t n = t.getDimSize(axis);
  SmallVector<int64_t> split(t.getShape()), merged(t.getShape());
  split.insert(split.begin() + axis + 1, 1);
  merged[axis] = n * stride;
  Value column = g.reshape(v, split);
  Value spread = concatAlong(g, {column, zerosLike(g, column, axis + 1, stride - 1)}, axis + 1);
  return sliceAlong(g, g.reshape(spread, merged), axis, 0, (n - 1) * stride + 1);
}

/// `v` padded with zeros along `axis` (a negative amount crops).
Value padZeros(GraphImporter &g, Value v, int64_t axis, int64_t begin, int64_t end) {
  int64_t n = GraphImporter::typeOf(v).getDimSize(axis);
  if (begin < 0 || end < 0)
    v = sliceAlong(g, v, axis, std::max<int64_t>(0, -begin), n - std::max<int64_t>(0, -end));
  SmallVector<Value> pieces;
  if (begin > 0)
    pieces.push_back(zerosLike(g, v, axis, begin));
  pieces.push_back(v);
  if (end > 0)
    pieces.push_back(zerosLike(g, v, axis, end));
  return pieces.size() == 1 ? v : concatAlong(g, pieces, axis);
}

/// ConvTranspose's filter [C, M / groups, kh, kw] as conv2d's [M, C / groups,
/// kh, kw]: in/out channels swapped within each group, flipped in space.
Value convFilter(GraphImporter &g, Value w, int64_t groups) {
  RankedTensorType t = GraphImporter::typeOf(w);
  int64_t c = t.getDimSize(0), m = t.getDimSize(1), kh = t.getDimSize(2), kw = t.getDimSize(3);
  Value v = g.reshape(w, {groups, c / groups, m, kh, kw});
  v = transposed(g, v, {0, 2, 1, 3, 4});
  v = g.reshape(v, {groups * m, c / groups, kh, kw});
  for (int64_t axis : {2, 3}) {
    int64_t n = GraphImporter::typeOf(v).getDimSize(axis);
    if (n == 1)
      continue;
    std::vector<double> reversed(n);
    for (int64_t i = 0; i < n; ++i)
      reversed[i] = double(n - 1 - i);
    Value indices = g.constant(Tensor::fromValues(ref::DType::I64, {n}, reversed));
    v = g.make<GatherOp>(GraphImporter::typeOf(v), v, indices, g.builder.getI64IntegerAttr(axis), DeviceAttr());
  }
  return v;
}

/// An attribute with one value per spatial axis, or `dflt` for each.
std::optional<std::vector<int64_t>> perAxis(GraphImporter &g, StringRef name, size_t axes, int64_t dflt) {
  std::optional<std::vector<int64_t>> v = g.attrInts(name);
  if (!v)
    return std::vector<int64_t>(axes, dflt);
  return v;
}

/// The spatial axes from the attributes; a failure has been reported.
FailureOr<std::vector<TransposedAxis>> readAxes(GraphImporter &g, ArrayRef<int64_t> in, ArrayRef<int64_t> kernel) {
  size_t n = in.size();
  auto k = perAxis(g, "kernel_shape", n, 0), s = perAxis(g, "strides", n, 1), d = perAxis(g, "dilations", n, 1);
  auto op = perAxis(g, "output_padding", n, 0), pads = perAxis(g, "pads", 2 * n, 0);
  std::optional<std::vector<int64_t>> shape = g.attrInts("output_shape");
  std::string autoPad = g.attrString("auto_pad", "NOTSET");
  if (k->size() != n || s->size() != n || d->size() != n || op->size() != n || pads->size() != 2 * n ||
      (shape && shape->size() != n))
    return g.fail("expects one kernel size, stride, dilation, output padding and output size per spatial "
                  "axis and two pads");
  if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" && autoPad != "VALID")
    return g.fail("unknown auto_pad '" + autoPad + "'");
  std::vector<TransposedAxis> axes(n);
  for (size_t i = 0; i < n; ++i) {
    TransposedAxis &a = axes[i];
    a = {in[i], kernel[i], (*s)[i], (*d)[i], (*pads)[i], (*pads)[i + n], (*op)[i]};
    if ((*k)[i] && (*k)[i] != kernel[i])
      return g.fail("kernel_shape does not match the filter");
    if (a.stride < 1 || a.dilation < 1 || a.outputPadding < 0 || a.padBegin < 0 || a.padEnd < 0)
      return g.fail("expects strides and dilations >= 1, pads and output padding >= 0");
    bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    if (shape || same) {
      // The pads that make the output that long; negative ones (an output
      // longer than the full result) extend it with the bias alone, as in
      // ONNX's reference (floor halves).
      int64_t total = a.full() - (shape ? (*shape)[i] : a.in * a.stride);
      int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      a.padBegin = autoPad == "SAME_UPPER" ? half : total - half;
      a.padEnd = total - a.padBegin;
    } else if (autoPad == "VALID") {
      a.padBegin = a.padEnd = 0;
    }
    if (a.full() - a.padBegin - a.padEnd < 1)
      return g.fail("the pads leave no output");
  }
  return axes;
}

LogicalResult convertConvTranspose(GraphImporter &g, Outputs &out) {
  RankedTensorType x = g.type(0), f = g.type(1);
  if (!isa<FloatType>(x.getElementType()))
    return g.unsupported("a transposed convolution of integers");
  int64_t spatial = x.getRank() - 2;
  if (spatial != 1 && spatial != 2)
    return g.unsupported("a " + std::to_string(spatial) + "-D transposed convolution");
  int64_t groups = g.attrInt("group", 1);
  if (f.getRank() != x.getRank() || groups < 1 || x.getDimSize(1) != f.getDimSize(0) ||
      f.getDimSize(0) % groups != 0 || f.getElementType() != x.getElementType())
    return g.fail("input channels, filter and group do not agree");
  FailureOr<std::vector<TransposedAxis>> axes =
      readAxes(g, x.getShape().drop_front(2), f.getShape().drop_front(2));
  if (failed(axes))
    return failure();
  Value v = g.input(0), w = g.input(1);
  if (spatial == 1) { // A height of 1.
    v = g.reshape(v, {x.getDimSize(0), x.getDimSize(1), 1, x.getDimSize(2)});
    w = g.reshape(w, {f.getDimSize(0), f.getDimSize(1), 1, f.getDimSize(2)});
    axes->insert(axes->begin(), TransposedAxis{1, 1});
  }
  SmallVector<int64_t> dilations;
  for (int64_t i = 0; i < 2; ++i) {
    const TransposedAxis &a = (*axes)[i];
    int64_t reach = a.dilation * (a.kernel - 1);
    v = insertZeros(g, v, 2 + i, a.stride);
    v = padZeros(g, v, 2 + i, reach - a.padBegin, reach - a.padEnd + a.outputPadding);
    dilations.push_back(a.dilation);
  }
  Value filter = convFilter(g, w, groups);
  RankedTensorType vt = GraphImporter::typeOf(v), ft = GraphImporter::typeOf(filter);
  int64_t oh = vt.getDimSize(2) - dilations[0] * (ft.getDimSize(2) - 1);
  int64_t ow = vt.getDimSize(3) - dilations[1] * (ft.getDimSize(3) - 1);
  SmallVector<Value> operands{v, filter};
  if (g.has(2))
    operands.push_back(g.input(2));
  OpBuilder &b = g.builder;
  NamedAttribute attrs[] = {b.getNamedAttr("strides", b.getDenseI64ArrayAttr({1, 1})),
                            b.getNamedAttr("pads", b.getDenseI64ArrayAttr({0, 0, 0, 0})),
                            b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(dilations)),
                            b.getNamedAttr("groups", b.getI64IntegerAttr(groups))};
  Value y = g.make<Conv2dOp>(TypeRange{g.tensorType({x.getDimSize(0), ft.getDimSize(0), oh, ow},
                                                    x.getElementType())},
                             operands, attrs);
  if (spatial == 1)
    y = g.reshape(y, {x.getDimSize(0), ft.getDimSize(0), ow});
  out.push_back(y);
  return success();
}

} // namespace

void dlc::onnx_import::addConvTransposeConverters(llvm::StringMap<Converter> &t) {
  t["ConvTranspose"] = convertConvTranspose;
}
