//===- ConstantData.cpp - compile-time layout changes of constant weights -===//

#include "passes/ConstantData.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;

namespace {

/// The raw little-endian bytes of a constant's elements, or failure.
FailureOr<ArrayRef<char>> rawBytes(ElementsAttr attr) {
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat())
      return failure(); // a splat permutes to itself: handled by the caller
    return dense.getRawData();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return failure();
}

} // namespace

FailureOr<ElementsAttr> dlc::permuteConstant(ElementsAttr weight, ArrayRef<int64_t> perm,
                                             StringRef name, ArrayRef<int64_t> viewShape) {
  auto type = cast<RankedTensorType>(weight.getType());
  if (!viewShape.empty()) {
    auto view = RankedTensorType::get(viewShape, type.getElementType());
    if (view.getNumElements() != type.getNumElements())
      return failure();
    type = view;
  }
  int64_t rank = type.getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto permutedType = RankedTensorType::get(shape, type.getElementType());
  if (auto dense = dyn_cast<DenseElementsAttr>(weight); dense && dense.isSplat())
    return ElementsAttr(DenseElementsAttr::get(permutedType, dense.getSplatValue<Attribute>()));
  FailureOr<ArrayRef<char>> bytes = rawBytes(weight);
  int64_t width = type.getElementTypeBitWidth() / 8, count = type.getNumElements();
  if (failed(bytes) || width == 0 || static_cast<int64_t>(bytes->size()) != count * width)
    return failure();
  // Strides of the source, read in the result's order.
  SmallVector<int64_t> sourceStride(rank, 1), stride(rank);
  for (int64_t d = rank - 2; d >= 0; --d)
    sourceStride[d] = sourceStride[d + 1] * type.getDimSize(d + 1);
  for (int64_t d = 0; d < rank; ++d)
    stride[d] = sourceStride[perm[d]];
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(bytes->size(), 64);
  MutableArrayRef<char> out = blob.getMutableData();
  SmallVector<int64_t> index(rank, 0);
  int64_t from = 0;
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(&out[i * width], &(*bytes)[from * width], width);
    // Next index of the result, odometer-style, tracking the source offset.
    for (int64_t d = rank - 1; d >= 0; --d) {
      from += stride[d];
      if (++index[d] < shape[d])
        break;
      from -= stride[d] * shape[d];
      index[d] = 0;
    }
  }
  return ElementsAttr(
      dlc::resourceConstant(permutedType, name, std::move(blob)));
}

FailureOr<std::vector<float>> dlc::readF32Constant(ElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  if (!type.getElementType().isF32())
    return failure();
  int64_t count = type.getNumElements();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr); dense && dense.isSplat())
    return std::vector<float>(count, dense.getSplatValue<float>());
  FailureOr<ArrayRef<char>> bytes = rawBytes(attr);
  if (failed(bytes) || static_cast<int64_t>(bytes->size()) != count * 4)
    return failure();
  std::vector<float> values(count);
  std::memcpy(values.data(), bytes->data(), bytes->size());
  return values;
}

ElementsAttr dlc::makeF32Constant(RankedTensorType type, ArrayRef<float> values,
                                  StringRef name) {
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(values.size() * 4, 64);
  std::memcpy(blob.getMutableData().data(), values.data(), values.size() * 4);
  return dlc::resourceConstant(type, name, std::move(blob));
}

std::string dlc::nameOf(Operation *op, StringRef fallback) {
  if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
    return loc.getName().str();
  return fallback.str();
}

Location dlc::suffixedLoc(Location loc, StringRef suffix) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return NameLoc::get(StringAttr::get(loc.getContext(), name.getName().str() + suffix),
                        name.getChildLoc());
  return loc;
}
