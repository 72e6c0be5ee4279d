//===- PrefetchPanelRows.cpp - software prefetch for streamed weight panels -===//
//
// A register tile's K loop reads B one row of a packed panel per step: 32
// contiguous floats, 128 bytes, a sequential stream through the panel
// (pixel-row convolutions' [F/32, KH, KW, C, 32] weights, GEMMs' packed B).
// A weight too big to stay cached between calls (ResNet-18's 46 MB, the
// 1-2 MB late layers of MobileNetV2) streams from DRAM, and the hardware
// prefetchers stop at every 4 KB page: each new page is a demand miss,
// about one per 32 steps of a loop that otherwise runs at one step per
// handful of cycles. So each step also prefetches the row 8 KB ahead, one
// prefetch per 64-byte line, when the weight is 256 KB or more:
//
//   scf.for %k = ... {
//     %b = vector.transfer_read %panel[%k, %c0] : memref<Cx32xf32, ...>, vector<1x32xf32>
// becomes
//   scf.for %k = ... {
//     %ahead = arith.addi %k, %c64
//     memref.prefetch %panel[%ahead, %c0], read, locality<3>, data
//     memref.prefetch %panel[%ahead, %c16], read, locality<3>, data
//     %b = vector.transfer_read %panel[%k, %c0] ...
//
// Measured (dlc run, one thread, medians of A/B rounds): 16 pairs of 1x1
// convolutions 960<->320 at 7x7 with 39 MB of weights 5.68 -> 4.37 ms;
// ResNet-18 15.75 -> 15.24 ms, MobileNetV2 3.53 -> 3.42; with the weight in
// cache (one such convolution alone) 119.6 -> 117.5 us. 4 KB ahead gave
// 4.70 ms, 16 KB 4.38-4.55, 32 KB 4.55. From 1 MB up only, MobileNetV2 lost
// the gain (3.65 ms against 3.52).
//
// Near the end of a slice the prefetched row lies past it: in the next
// tap's or panel's rows, which come next anyway, or past the weight's end
// for the last panel. A prefetch never faults, so none is guarded.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace dlc {
#define GEN_PASS_DEF_PREFETCHPANELROWS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

constexpr int64_t kLineBytes = 64;
/// Smaller weights are left alone: with the weight in cache the prefetches
/// cost 2-3% (ResNet's 3x3 64ch 56x56 920 -> 940 us, 128ch 28x28 937 ->
/// 961), and streamed they save less than that.
constexpr int64_t kMinStreamedBytes = 256 * 1024;

/// The bytes of the buffer `memref` is a view of, when its shape is static
/// (a kernel argument or an allocation); -1 when unknown.
int64_t bufferBytes(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      memref = view.getViewSource();
    else
      break;
  }
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return -1;
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// The bytes of one row when `read` takes a whole row of 4-byte elements
/// from a memref of contiguous rows, its row index being the induction
/// variable of the loop around it; 0 otherwise.
int64_t streamedRowBytes(vector::TransferReadOp read, scf::ForOp loop) {
  auto type = dyn_cast<MemRefType>(read.getSource().getType());
  if (!type || type.getRank() < 2 || !type.getElementType().isF32() ||
      ShapedType::isDynamic(type.getShape().back()))
    return 0;
  int64_t row = type.getShape().back();
  if (read.getVectorType().getNumElements() != row || row * 4 % kLineBytes != 0)
    return 0;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)) || strides.back() != 1 ||
      strides[type.getRank() - 2] != row)
    return 0;
  ValueRange indices = read.getIndices();
  if (indices[type.getRank() - 2] != loop.getInductionVar() ||
      !matchPattern(indices.back(), m_Zero()))
    return 0;
  return row * 4;
}

struct PrefetchPanelRowsPass : dlc::impl::PrefetchPanelRowsBase<PrefetchPanelRowsPass> {
  using PrefetchPanelRowsBase::PrefetchPanelRowsBase;
  void runOnOperation() override {
    getOperation().walk([&](vector::TransferReadOp read) {
      auto loop = dyn_cast<scf::ForOp>(read->getParentOp());
      int64_t rowBytes = loop ? streamedRowBytes(read, loop) : 0;
      if (!rowBytes)
        return;
      if (int64_t bytes = bufferBytes(read.getSource()); bytes >= 0 && bytes < kMinStreamedBytes)
        return;
      OpBuilder b(read);
      Location loc = read.getLoc();
      SmallVector<Value> indices(read.getIndices());
      unsigned rowDim = indices.size() - 2;
      indices[rowDim] = b.create<arith::AddIOp>(
          loc, loop.getInductionVar(),
          b.create<arith::ConstantIndexOp>(loc, std::max<int64_t>(1, aheadBytes / rowBytes)));
      for (int64_t line = 0; line < rowBytes / kLineBytes; ++line) {
        indices.back() = b.create<arith::ConstantIndexOp>(loc, line * kLineBytes / 4);
        b.create<memref::PrefetchOp>(loc, read.getSource(), indices, /*isWrite=*/false,
                                     /*localityHint=*/3, /*isDataCache=*/true);
      }
    });
  }
};

} // namespace
