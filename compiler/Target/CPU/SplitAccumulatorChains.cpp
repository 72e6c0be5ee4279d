//===- SplitAccumulatorChains.cpp - thin register tiles, several sums ----===//
//
// A register tile's K loop adds one product into each accumulator per step:
// each accumulator is a chain of dependent FMAs, one FMA latency per step.
// A full tile has enough accumulators (6x16 on AVX2: 12 registers) to keep
// the FMA units busy, but a thin one does not: a batch-1 classifier (1 x K
// times K x 1000: two registers) or a ragged last row or pixel of tiles
// waits on the latency every step, at a quarter of the speed on a core
// with 4-cycle FMAs issuing 2 a cycle. So where a loop carries fewer
// accumulator registers than the core keeps in flight (latency x FMAs per
// cycle), it is unrolled U times with U partial sums per accumulator, added
// together after it:
//
//   scf.for %k = 0 to K iter_args(%c = %init) {
//     %r = vector.contract(%a[k], %b[k], %c)   yield %r }
// becomes
//   scf.for %k = 0 to K/U*U step U iter_args(%c0 = %init, %c1 = 0, ...) {
//     %r0 = vector.contract(%a[k], %b[k], %c0)
//     %r1 = vector.contract(%a[k+1], %b[k+1], %c1) ...   yield %r0, %r1, ... }
//   %c = (%c0 + %c1) + (%c2 + %c3)
//   scf.for %k = K/U*U to K iter_args(%c) { ...as before }   (the rest)
//
// The sums are reassociated (f32 rounding differs from the one-chain order
// by a few ulps, as in any blocked BLAS). Only loops with constant bounds
// whose every carried value is a vector.contract's accumulator, used by
// nothing else, and whose body has no side effects.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/LoweringUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dlc {
#define GEN_PASS_DEF_SPLITACCUMULATORCHAINS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// The most partial sums per accumulator (more only lengthen the loop body).
constexpr int64_t kMaxSplit = 4;

/// The vector registers of `lanes` floats that `type` takes.
int64_t registersOf(VectorType type, int64_t lanes) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  return rows * ((shape.back() + lanes - 1) / lanes);
}

/// How many partial sums `loop` gets: 1 where it is not a thin tile's
/// accumulator chain or has enough registers in flight already.
int64_t splitFactor(scf::ForOp loop, int64_t lanes, int64_t inFlight) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || loop.getNumRegionIterArgs() == 0)
    return 1;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  int64_t registers = 0;
  for (auto [arg, next] : llvm::zip(loop.getRegionIterArgs(), yield.getOperands())) {
    auto type = dyn_cast<VectorType>(arg.getType());
    auto contract = next.getDefiningOp<vector::ContractionOp>();
    if (!type || !type.getElementType().isF32() || !contract ||
        contract.getKind() != vector::CombiningKind::ADD || contract.getAcc() != arg ||
        !arg.hasOneUse() || contract->getBlock() != loop.getBody())
      return 1;
    registers += registersOf(type, lanes);
  }
  for (Operation &op : loop.getBody()->without_terminator())
    if (!isMemoryEffectFree(&op))
      return 1;
  if (registers >= inFlight)
    return 1;
  int64_t split = std::min(kMaxSplit, (inFlight + registers - 1) / registers);
  int64_t trips = (*ub - *lb) / *step;
  return trips >= 2 * split ? split : 1;
}

/// `loop` as a loop over `split` steps at a time with `split` partial sums
/// per accumulator, their sum, then `loop` itself for the steps left over.
void splitChains(scf::ForOp loop, int64_t split) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  int64_t lb = *getConstantIntValue(loop.getLowerBound());
  int64_t ub = *getConstantIntValue(loop.getUpperBound());
  int64_t step = *getConstantIntValue(loop.getStep());
  int64_t mainEnd = lb + (ub - lb) / (step * split) * (step * split);
  unsigned carried = loop.getNumRegionIterArgs();
  SmallVector<Value> inits;
  for (Value init : loop.getInitArgs()) {
    auto type = cast<VectorType>(init.getType());
    Value zero = b.create<arith::ConstantOp>(loc, type, b.getZeroAttr(type));
    inits.push_back(init);
    inits.append(split - 1, zero);
  }
  auto main = b.create<scf::ForOp>(
      loc, b.create<arith::ConstantIndexOp>(loc, lb), b.create<arith::ConstantIndexOp>(loc, mainEnd),
      b.create<arith::ConstantIndexOp>(loc, step * split), inits,
      [&](OpBuilder &mb, Location ml, Value iv, ValueRange sums) {
        SmallVector<Value> next(sums.size());
        auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
        for (int64_t u = 0; u < split; ++u) {
          IRMapping mapping;
          Value at = u == 0 ? iv
                            : mb.create<arith::AddIOp>(
                                  ml, iv, mb.create<arith::ConstantIndexOp>(ml, u * step));
          mapping.map(loop.getInductionVar(), at);
          for (unsigned i = 0; i < carried; ++i)
            mapping.map(loop.getRegionIterArgs()[i], sums[i * split + u]);
          for (Operation &op : loop.getBody()->without_terminator())
            mb.clone(op, mapping);
          for (unsigned i = 0; i < carried; ++i)
            next[i * split + u] = mapping.lookup(yield.getOperand(i));
        }
        mb.create<scf::YieldOp>(ml, next);
      });
  // The partial sums added pairwise, then the rest of the steps.
  SmallVector<Value> sums;
  for (unsigned i = 0; i < carried; ++i) {
    SmallVector<Value> parts(main.getResults().begin() + i * split,
                             main.getResults().begin() + (i + 1) * split);
    sums.push_back(dlc::addPairwise(b, loc, parts));
  }
  loop.getLowerBoundMutable().assign(b.create<arith::ConstantIndexOp>(loc, mainEnd));
  loop.getInitArgsMutable().assign(sums);
}

struct SplitAccumulatorChainsPass
    : dlc::impl::SplitAccumulatorChainsBase<SplitAccumulatorChainsPass> {
  using SplitAccumulatorChainsBase::SplitAccumulatorChainsBase;

  void runOnOperation() override {
    int64_t lanes = std::max<int64_t>(vectorBits / 32, 1);
    SmallVector<std::pair<scf::ForOp, int64_t>> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (int64_t split = splitFactor(loop, lanes, inFlight); split > 1)
        loops.push_back({loop, split});
    });
    for (auto [loop, split] : loops)
      splitChains(loop, split);
  }
};

} // namespace
