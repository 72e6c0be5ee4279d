//===- UnrollTileLoops.cpp - register tiles' K loops, several steps a turn --===//
//
// A register tile's K loop does one step per turn: on AVX2 (6x16 tile) two
// loads of the packed panel's row, six broadcasts, twelve FMAs, the panel
// row's prefetch, and the loop's own increments, compare and branch:
// 24 macro-ops for 12 FMAs, 4 of them bookkeeping. That fits a core's
// dispatch width alone, but not beside another thread on the same core: on
// a shared VM (AMD EPYC Zen 3) the host's load slowed dlc's convolutions
// 1.7x in its loaded phases where ONNX Runtime's (MLAS: unrolled K loops,
// FMAs with folded loads) slowed 1.2x, and dlc's whole-run medians were
// 1.1-1.3x ORT's with equal minimums. So each such loop is marked to run
// `factor` steps per turn, the steps left over after it:
//
//   scf.for %k = 0 to K step 1 iter_args(%c = %init) { ...contract... }
// becomes
//   scf.for %k = 0 to K step 1 iter_args(%c = %init) { ... }
//     {dlc.unroll_count = 4}
//
// which ConvertScfToCf turns into `llvm.loop.unroll.count` on the loop's
// back edge: LLVM's unroller copies the body late in O3, each step's
// contract feeding the next (the same sums in the same order). Unrolled
// here with scf's loopUnrollByFactor instead, the code ran as fast but
// ResNet-50 took 8.4 s to compile instead of 6.1 (every later MLIR and
// LLVM pass saw four bodies); marked, 6.8 s.
//
// Measured in one process with ORT run by run in turn
// (test/bench/inprocess_vs_ort.py), Zen 3, one thread, medians as a ratio
// to ORT's: 3x3 convolutions 128ch 28x28 1.36 -> 0.97, 64ch 56x56 1.19 ->
// 1.02, 256ch 14x14 1.10 -> 1.01, 512ch 7x7 1.01 -> 0.98; ResNet-18 1.24
// -> 1.14, ResNet-50 1.09 -> 1.05, the encoder 0.96 -> 0.89; unrolling by 2
// gained about half as much. Results are bit-identical: only the loop's
// bookkeeping changes.
//
// After PrefetchPanelRows, so that each step keeps its own prefetch. Only
// loops of constant bounds with exactly one vector.contract in their body
// (a full or thin tile's K loop; SplitAccumulatorChains' loops, which
// carry several, are already unrolled) and at least 2 * factor steps.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace dlc {
#define GEN_PASS_DEF_UNROLLTILELOOPS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// Whether `loop` is a register tile's K loop worth unrolling by `factor`.
bool isTileLoop(scf::ForOp loop, int64_t factor) {
  std::optional<int64_t> trips =
      constantTripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
  if (!trips || *trips < 2 * factor)
    return false;
  int64_t contracts = 0;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<vector::ContractionOp>(op))
      ++contracts;
    else if (op.getNumRegions() != 0)
      return false; // Not an innermost loop.
  }
  return contracts == 1;
}

struct UnrollTileLoopsPass : dlc::impl::UnrollTileLoopsBase<UnrollTileLoopsPass> {
  using UnrollTileLoopsBase::UnrollTileLoopsBase;

  void runOnOperation() override {
    if (factor < 1 || factor > 16) {
      getOperation().emitError() << "dlc-unroll-tile-loops: unsupported factor "
                                 << int64_t(factor) << " (1..16)";
      return signalPassFailure();
    }
    if (factor == 1)
      return;
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (isTileLoop(loop, factor))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      loop->setAttr(dlc::kUnrollCountAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 64), factor));
  }
};

} // namespace
