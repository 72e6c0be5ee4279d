//===- SinkReshapes.cpp - elementwise ops moved above the reshapes they read -===//
//
// A reshape is a view, but it ends the kernel that is open when it comes
// (PartitionKernels.cpp), so an activation or a residual add that reads a
// reshaped result runs as a kernel of its own, one more pass over memory.
// LinearToMatmul makes exactly that of every 3-D linear:
//
//   %m  = dlc.matmul %x2, %wt    : tensor<256x1024xf32>       // kernel 0
//   %mb = dlc.add %m, %b         : tensor<256x1024xf32>       // kernel 0
//   %y  = dlc.reshape %mb        : -> tensor<2x128x1024xf32>  // a view
//   %g  = dlc.gelu %y            : tensor<2x128x1024xf32>     // kernel 1
//
// Elementwise ops commute with reshapes, so the op is rewritten on the
// reshape's source and the reshape moves below it:
//
//   %g2 = dlc.gelu %mb           : tensor<256x1024xf32>       // kernel 0
//   %g  = dlc.reshape %g2        : -> tensor<2x128x1024xf32>
//
// and the GELU (or the residual add) becomes the matmul's epilogue. An
// operand of the op's own shape is viewed in the source's shape (a reshape
// placed right after its definition, so that it ends no kernel); one that
// broadcasts only along dimensions the reshape keeps (a bias over the last
// dimension, a scalar) stays as it is. Anything else, and ops that broadcast
// the reshaped operand itself, are left alone. Repeated down a chain.
//
// Row-wise ops (layer_norm, softmax) commute with a reshape that keeps the
// dimensions they normalise over, trailing, whole: a transformer's layer norm
// reads its residual add's 2-D result viewed as [batch, tokens, d], and after
// sinking it joins that add's kernel (PartitionKernels.cpp). Its scale and
// bias are shaped like those trailing dimensions, so they stay as they are.
//
//===----------------------------------------------------------------------===//

#include "passes/ConstantData.h"
#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_SINKRESHAPES
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

/// Whether `operand`, broadcast against `from` (the reshape's source shape),
/// means what it meant broadcast against `to` (its result): its rank fits
/// both, every dimension it does not broadcast matches, and the reshape
/// keeps the trailing dimensions of `to` from the outermost of those on,
/// whole. Equal sizes alone are not enough: 6x4 -> 2x6x2 has a 6 second to
/// last on both sides, of stride 4 in one and 2 in the other, and a 6x1
/// operand would pair with other elements.
bool broadcastsAlike(ArrayRef<int64_t> operand, ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (operand.size() > from.size() || operand.size() > to.size())
    return false;
  size_t kept = 0; // Trailing dims that must be the same in `from` and `to`.
  for (size_t i = 1; i <= operand.size(); ++i)
    if (operand[operand.size() - i] != 1)
      kept = i;
  if (from.take_back(kept) != to.take_back(kept))
    return false;
  for (size_t i = 1; i <= kept; ++i) {
    int64_t d = operand[operand.size() - i];
    if (d != 1 && d != to[to.size() - i])
      return false;
  }
  return true;
}

/// The axis that a row-wise op over `axis` of `to` normalises over in
/// `from`, when the reshape `from` -> `to` keeps dimensions [axis, rank) of
/// `to` as the trailing dimensions of `from`; else nothing.
std::optional<int64_t> keptTrailingAxis(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                                        int64_t axis) {
  if (axis < 0)
    axis += to.size();
  int64_t trailing = static_cast<int64_t>(to.size()) - axis;
  if (axis < 0 || trailing <= 0 || trailing > static_cast<int64_t>(from.size()) ||
      from.take_back(trailing) != to.take_back(trailing))
    return std::nullopt;
  return static_cast<int64_t>(from.size()) - trailing;
}

/// `layer_norm(reshape(x))` or `softmax(reshape(x))` as `reshape(op(x))`, the
/// axis renumbered, when the reshape keeps the normalised dims.
void sinkThroughRowOp(IRRewriter &rewriter, Operation *op) {
  auto reshape = op->getOperand(0).getDefiningOp<ReshapeOp>();
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!reshape || !resultType || getDevicePin(reshape) != getDevicePin(op))
    return;
  auto sourceType = cast<RankedTensorType>(reshape.getInput().getType());
  if (!sourceType.hasStaticShape() || !resultType.hasStaticShape())
    return;
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  std::optional<int64_t> axis =
      axisAttr ? keptTrailingAxis(sourceType.getShape(), resultType.getShape(), axisAttr.getInt())
               : std::nullopt;
  if (!axis)
    return;
  rewriter.setInsertionPoint(op);
  Operation *sunk = rewriter.clone(*op);
  sunk->setOperand(0, reshape.getInput());
  sunk->setAttr("axis", rewriter.getI64IntegerAttr(*axis));
  sunk->getResult(0).setType(sourceType.clone(resultType.getElementType()));
  auto view = rewriter.create<ReshapeOp>(suffixedLoc(op->getLoc(), "/unflatten"), resultType,
                                         sunk->getResult(0), getDevicePin(op));
  rewriter.replaceOp(op, view);
  if (reshape->use_empty())
    rewriter.eraseOp(reshape);
}

struct SinkReshapesPass : dlc::impl::SinkReshapesBase<SinkReshapesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> worklist;
    getOperation().walk([&](Operation *op) {
      if (isElementwise(op) || isa<LayerNormOp, SoftmaxOp>(op))
        worklist.push_back(op);
    });
    // In program order, so that an op sunk here meets the next one's reshape.
    for (size_t next = 0; next < worklist.size(); ++next) {
      Operation *op = worklist[next];
      if (isa<LayerNormOp, SoftmaxOp>(op)) {
        sinkThroughRowOp(rewriter, op);
        continue;
      }
      if (op->getNumResults() != 1)
        continue;
      auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!resultType)
        continue;
      // The first operand that is a reshape of the result's shape, on the
      // op's device.
      ReshapeOp reshape = nullptr;
      for (Value operand : op->getOperands()) {
        auto r = operand.getDefiningOp<ReshapeOp>();
        if (r && r.getType().getShape() == resultType.getShape() &&
            getDevicePin(r) == getDevicePin(op)) {
          reshape = r;
          break;
        }
      }
      if (!reshape)
        continue;
      auto sourceType = cast<RankedTensorType>(reshape.getInput().getType());
      ArrayRef<int64_t> from = sourceType.getShape(), to = resultType.getShape();
      SmallVector<Value> operands;
      bool ok = true;
      for (Value operand : op->getOperands()) {
        auto type = dyn_cast<RankedTensorType>(operand.getType());
        if (!type || !type.hasStaticShape()) {
          ok = false;
          break;
        }
        if (auto r = operand.getDefiningOp<ReshapeOp>();
            r && r.getInput().getType() == sourceType && type.getShape() == to) {
          operands.push_back(r.getInput());
          continue;
        }
        if (type.getShape() == to) {
          operands.push_back(nullptr); // viewed below
          continue;
        }
        if (!broadcastsAlike(type.getShape(), from, to)) {
          ok = false;
          break;
        }
        operands.push_back(operand);
      }
      if (!ok)
        continue;
      for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
        if (operands[i])
          continue;
        // Right after its definition: a view there ends no open kernel.
        if (Operation *def = operand.getDefiningOp())
          rewriter.setInsertionPointAfter(def);
        else
          rewriter.setInsertionPointToStart(cast<BlockArgument>(operand).getOwner());
        auto type = cast<RankedTensorType>(operand.getType());
        operands[i] = rewriter.create<ReshapeOp>(
            suffixedLoc(op->getLoc(), "/view" + std::to_string(i)),
            RankedTensorType::get(from, type.getElementType()), operand, getDevicePin(op));
      }
      rewriter.setInsertionPoint(op);
      Operation *sunk = rewriter.clone(*op);
      sunk->setOperands(operands);
      sunk->getResult(0).setType(RankedTensorType::get(from, resultType.getElementType()));
      auto view = rewriter.create<ReshapeOp>(suffixedLoc(op->getLoc(), "/unflatten"), resultType,
                                             sunk->getResult(0), getDevicePin(op));
      // (Each once: an op may read the same reshape twice.)
      llvm::SetVector<Operation *> read;
      for (Value v : op->getOperands())
        if (auto r = v.getDefiningOp<ReshapeOp>())
          read.insert(r);
      rewriter.replaceOp(op, view);
      // Reshapes left unused would still end the open kernel.
      for (Operation *r : read)
        if (r->use_empty())
          rewriter.eraseOp(r);
    }
  }
};

} // namespace
