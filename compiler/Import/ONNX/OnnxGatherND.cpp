//===- OnnxGatherND.cpp - GatherND and ScatterND through linear indices ---===//
//
// GatherND's index tuples address the leading dimensions of the data (after
// batch_dims). The data's batch and indexed dimensions are flattened into
// one, each tuple becomes one linear index into it (negative entries
// wrapped, times the constant strides, plus the constant offset of its
// batch), and a single dlc.gather along that flattened axis reads the
// slices: output shape = indices.shape[:-1] + data.shape[batch_dims + k:].
//
// ScatterND is the same in reverse: the data as [rows, slice], one linear
// row per tuple, and dlc.scatter_elements on axis 0 with the rows as an
// [M, 1] index broadcast along the slice. A tuple with an entry out of range
// gets a row past the end, which writes nothing (the interpreter reports it).
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

/// The linear index of every tuple of `indices` ([..., k], i64) into data
/// dimensions `dims` (row-major), negative entries wrapped. With
/// `pastTheEnd`, a tuple with an entry outside [-dim, dim) gets an index of
/// at least the product of `dims`.
Value linearIndex(GraphImporter &g, Value indices, ArrayRef<int64_t> dims,
                  bool pastTheEnd = false) {
  RankedTensorType it = GraphImporter::typeOf(indices);
  int64_t last = it.getRank() - 1, k = int64_t(dims.size());
  Value linear;
  int64_t stride = 1;
  for (int64_t j = k - 1; j >= 0; --j) {
    Value entry = sliceAlong(g, indices, last, j, j + 1);
    Value negative = g.make<CompareOp>(StringRef("lt"), entry, g.scalarLike(entry, 0));
    entry = g.make<SelectOp>(negative, g.make<AddOp>(entry, g.scalarLike(entry, double(dims[j]))), entry);
    if (pastTheEnd) {
      Value end = g.scalarLike(entry, double(product(dims)));
      entry = g.make<SelectOp>(g.make<CompareOp>(StringRef("lt"), entry, g.scalarLike(entry, 0)), end, entry);
      entry = g.make<SelectOp>(g.make<CompareOp>(StringRef("ge"), entry, g.scalarLike(entry, double(dims[j]))),
                               end, entry);
    }
    Value term = stride == 1 ? entry : g.make<MulOp>(entry, g.scalarLike(entry, double(stride)));
    linear = linear ? g.make<AddOp>(linear, term) : term;
    stride *= dims[j];
  }
  return g.reshape(linear, it.getShape().drop_back());
}

LogicalResult convertGatherND(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0), it = g.type(1);
  int64_t b = g.attrInt("batch_dims", 0), r = t.getRank(), q = it.getRank();
  if (q < 1 || b < 0 || b >= std::min(r, q))
    return g.fail("batch_dims must be below the ranks of the data and the indices");
  int64_t k = it.getDimSize(q - 1);
  if (k < 1 || b + k > r)
    return g.fail("index tuples of " + std::to_string(k) + " entries for data of rank " + std::to_string(r) +
                  " after " + std::to_string(b) + " batch dimensions");
  for (int64_t i = 0; i < b; ++i)
    if (t.getDimSize(i) != it.getDimSize(i))
      return g.fail("the batch dimensions of the data and the indices differ");
  Value indices = g.castTo(g.input(1), g.builder.getI64Type());
  ArrayRef<int64_t> shape = t.getShape();
  Value linear = linearIndex(g, indices, shape.slice(b, k));
  if (b > 0) { // Each tuple's batch: b * the indexed block's size, a constant.
    int64_t block = product(shape.slice(b, k)), batches = product(shape.take_front(b));
    ArrayRef<int64_t> tuples = it.getShape().drop_back();
    int64_t perBatch = product(tuples) / batches;
    std::vector<double> offsets(size_t(product(tuples)));
    for (size_t i = 0; i < offsets.size(); ++i)
      offsets[i] = double(int64_t(i) / perBatch * block);
    linear = g.make<AddOp>(linear, g.constant(Tensor::fromValues(ref::DType::I64, tuples, offsets)));
  }
  SmallVector<int64_t> flat{product(shape.take_front(b + k))};
  flat.append(shape.begin() + b + k, shape.end());
  SmallVector<int64_t> result(it.getShape().drop_back());
  result.append(shape.begin() + b + k, shape.end());
  out.push_back(g.make<GatherOp>(g.tensorType(result, t.getElementType()), g.reshape(g.input(0), flat), linear,
                                 g.builder.getI64IntegerAttr(0), DeviceAttr()));
  return success();
}

LogicalResult convertScatterND(GraphImporter &g, Outputs &out) {
  RankedTensorType t = g.type(0), it = g.type(1), ut = g.type(2);
  int64_t r = t.getRank(), q = it.getRank();
  std::string reduction = g.attrString("reduction", "none");
  if (!isScatterReduction(reduction))
    return g.fail("unknown reduction '" + reduction + "' (none, add, mul, max or min)");
  if (q < 1)
    return g.fail("indices of rank 0");
  int64_t k = it.getDimSize(q - 1);
  if (k < 1 || k > r)
    return g.fail("index tuples of " + std::to_string(k) + " entries for data of rank " + std::to_string(r));
  ArrayRef<int64_t> shape = t.getShape(), tuples = it.getShape().drop_back();
  SmallVector<int64_t> updates(tuples);
  updates.append(shape.begin() + k, shape.end());
  if (ut.getShape() != ArrayRef<int64_t>(updates))
    return g.fail("the updates' shape is not indices.shape[:-1] + data.shape[k:]");
  if (reduction != "none" && t.getElementType().isInteger(1))
    return g.fail("reduction '" + reduction + "' on bool data");
  int64_t m = product(tuples), rows = product(shape.take_front(k)), slice = product(shape.drop_front(k));
  if (m == 0 || slice == 0) {
    out.push_back(g.input(0));
    return success();
  }
  Value linear = linearIndex(g, g.castTo(g.input(1), g.builder.getI64Type()), shape.take_front(k),
                             /*pastTheEnd=*/true);
  Value scattered = g.make<ScatterElementsOp>(
      g.tensorType({rows, slice}, t.getElementType()), g.reshape(g.input(0), {rows, slice}),
      g.reshape(linear, {m, 1}), g.reshape(g.input(2), {m, slice}), g.builder.getI64IntegerAttr(0),
      g.builder.getStringAttr(reduction), DeviceAttr());
  out.push_back(g.reshape(scattered, shape));
  return success();
}

} // namespace

void dlc::onnx_import::addGatherNDConverters(llvm::StringMap<Converter> &t) {
  t["GatherND"] = convertGatherND;
  t["ScatterND"] = convertScatterND;
}
