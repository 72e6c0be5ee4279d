//===- MemRefUtils.cpp - layout questions the post-bufferization steps ask ===//

#include "compiler/Target/CPU/MemRefUtils.h"

using namespace mlir;

int64_t dlc::contiguousFrom(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)))
    return type.getRank();
  int64_t expected = 1, d = type.getRank();
  for (; d > 0; --d) {
    int64_t size = type.getDimSize(d - 1);
    if (size != 1 && strides[d - 1] != expected)
      break;
    if (ShapedType::isDynamic(size))
      break;
    expected *= size;
  }
  return d;
}
