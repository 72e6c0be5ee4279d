//===- LowerStridedFills.cpp - fills of short strided rows as kept loops --===//
//
// After bufferization, a linalg.fill of a region whose rows are short and
// not contiguous with each other (the left and right borders of a padded
// image: [N, C, H, 1] of [N, C, H+2, W+2]) would become a loop nest of scalar
// stores, which LLVM fully unrolls over the rows and vectorises across the
// channels as scatters: DenseNet-201's 3x3 convolutions spent 112 scatters
// per kernel on their pad borders, about 3 s of its 17 s compile, and the
// scatters are slow to run. Here such a fill becomes
//
//   scf.for %n, %c, %h {                 // each marked dlc.kept_loop
//     vector.transfer_write %splat, %region[%n, %c, %h, %c0] : vector<1xf32>
//   }
//
// and ConvertScfToCf tells LLVM to neither unroll nor vectorise those loops.
// Contiguous fills (LLVM's memsets) and rows over 16 elements stay as they are.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/MemRefUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace dlc {
#define GEN_PASS_DEF_LOWERSTRIDEDFILLS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

constexpr int64_t kMaxRowElements = 16;

/// The fills rewritten here: a static memref whose unit-stride rows are at
/// most 16 elements and are all that is contiguous.
bool hasShortStridedRows(linalg::FillOp fill) {
  if (!fill.hasPureBufferSemantics() || fill.getOutputs().size() != 1)
    return false;
  auto type = dyn_cast<MemRefType>(fill.getOutputs()[0].getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      !type.getElementType().isIntOrFloat() || type.getElementTypeBitWidth() % 8 != 0)
    return false; // (i1 vectors are bit-packed in memory: not the bytes dlc's i1 are)
  int64_t rank = type.getRank();
  return dlc::contiguousFrom(type) == rank - 1 && type.getDimSize(rank - 1) <= kMaxRowElements &&
         type.getNumElements() > type.getDimSize(rank - 1);
}

void lowerFill(linalg::FillOp fill) {
  OpBuilder b(fill);
  Location loc = fill.getLoc();
  Value region = fill.getOutputs()[0];
  auto type = cast<MemRefType>(region.getType());
  int64_t rank = type.getRank();
  auto rowType = VectorType::get({type.getDimSize(rank - 1)}, type.getElementType());
  Value row = b.create<vector::SplatOp>(loc, rowType, fill.getInputs()[0]);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  SmallVector<Value> indices(rank, zero);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    if (type.getDimSize(d) == 1)
      continue;
    auto loop = b.create<scf::ForOp>(
        loc, zero, b.create<arith::ConstantIndexOp>(loc, type.getDimSize(d)), one);
    loop->setAttr(dlc::kKeptLoopAttr, b.getUnitAttr());
    indices[d] = loop.getInductionVar();
    b.setInsertionPointToStart(loop.getBody());
  }
  b.create<vector::TransferWriteOp>(loc, row, region, indices, ArrayRef<bool>{true});
  fill.erase();
}

struct LowerStridedFills : dlc::impl::LowerStridedFillsBase<LowerStridedFills> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (hasShortStridedRows(fill))
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills)
      lowerFill(fill);
  }
};

} // namespace
