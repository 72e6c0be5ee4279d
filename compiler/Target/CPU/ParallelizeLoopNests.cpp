//===- ParallelizeLoopNests.cpp - elementwise work on the runtime's pool --===//
//
// Matmul and convolution tiles already run in parallel (TileAndVectorize
// marks their loops); this does the same for the rest of a kernel's work:
// elementwise chains, bias and activation epilogues, normalisations, softmax
// and pooling (generics) and transposes. A top-level nest of at least 32K
// elements is tiled along its outermost parallel dimension of size 4 or more,
// in equal chunks that divide it (one index each up to 256, else the
// smallest divisor giving at most 256), for example
//
//   %y = linalg.generic ... -> tensor<1x64x56x56xf32>
// becomes
//   %y = scf.for %c = 0 to 64 step 1 iter_args(%o = %init) {   {dlc.parallel}
//     %t = linalg.generic ... ins(slices of the inputs at %c) -> tensor<1x1x56x56xf32>
//     scf.yield insert_slice %t into %o
//   }
//
// Each chunk writes its own part of the output, so OutlineParallelLoops can
// hand the chunks to the pool. Chunks divide the dimension exactly, so every
// chunk has a static shape and vectorises like the whole nest did.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace dlc {
#define GEN_PASS_DEF_PARALLELIZELOOPNESTS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

// Up to 256 chunks: each chunk is one index of the dim where it can be, so
// its body is the nest's inner loops as they were. (Chunks of 2-8 static
// rows had LLVM unroll the row loop fully, and the machine scheduler on
// those blocks took the encoder's compile from 4.3 to 7.2 s.)
constexpr int64_t kMinElements = 32 * 1024, kMaxChunks = 256, kMinDim = 4;

/// The tile sizes that split `op` into parallel chunks, or none.
std::optional<SmallVector<int64_t>> chunking(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;
  if (elements < kMinElements)
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [d, size] : llvm::enumerate(ranges)) {
    if (iterators[d] != utils::IteratorType::parallel)
      return std::nullopt; // only outer parallel dims split cleanly
    if (size < kMinDim)
      continue;
    // The smallest chunk that divides the dim into at most kMaxChunks.
    int64_t chunk = 1;
    while (size / chunk > kMaxChunks || size % chunk != 0)
      ++chunk;
    if (size / chunk < 2)
      return std::nullopt;
    SmallVector<int64_t> tiles(ranges.size(), 0); // 0: not tiled
    tiles[d] = chunk;
    return tiles;
  }
  return std::nullopt;
}

struct ParallelizeLoopNestsPass
    : dlc::impl::ParallelizeLoopNestsBase<ParallelizeLoopNestsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> nests;
    // Top level only: a nest inside a loop (a convolution's per-image loop,
    // a tile) is already part of other work.
    for (Operation &op : getOperation().getBody().front())
      if (isa<linalg::GenericOp, linalg::TransposeOp>(op) &&
          cast<linalg::LinalgOp>(op).hasPureTensorSemantics())
        nests.push_back(cast<linalg::LinalgOp>(op));
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp nest : nests) {
      std::optional<SmallVector<int64_t>> tiles = chunking(nest);
      if (!tiles)
        continue;
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), *tiles));
      rewriter.setInsertionPoint(nest);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(nest.getOperation()), options);
      if (failed(tiled) || tiled->loops.empty())
        continue;
      rewriter.replaceOp(nest, tiled->replacements);
      tiled->loops.front()->setAttr(dlc::kParallelLoopAttr, rewriter.getUnitAttr());
    }
  }
};

} // namespace
