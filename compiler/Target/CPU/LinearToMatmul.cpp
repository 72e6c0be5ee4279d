//===- LinearToMatmul.cpp - constant-weight linear as matmul + bias -------===//
//
// PyTorch stores a Linear weight as [out, in], so `dlc.linear` computes
// x · Wᵀ. A transposed operand makes the CPU's matmul read B down columns;
// with a constant weight the transpose is free at compile time:
//
//   %y = dlc.linear %x, %w, %b : (tensor<2x128x256xf32>, tensor<768x256xf32>,
//                                 tensor<768xf32>) -> tensor<2x128x768xf32>
// becomes
//   %x2 = dlc.reshape %x : tensor<2x128x256xf32> -> tensor<256x256xf32>
//   %wt = dlc.constant dense_resource<w.T> : tensor<256x768xf32>  // Wᵀ
//   %m  = dlc.matmul %x2, %wt : (...) -> tensor<256x768xf32>
//   %mb = dlc.add %m, %b : (tensor<256x768xf32>, tensor<768xf32>) -> ...
//   %y  = dlc.reshape %mb : tensor<256x768xf32> -> tensor<2x128x768xf32>
//
// Reshapes are views on the CPU, and the bias add fuses into the matmul's
// kernel as its epilogue. On the CPU, with N a multiple of 32, Wᵀ is stored
// as the micro-kernel's column panels instead:
//
//   %p  = dlc.constant dense_resource<w.panels> : tensor<24x256x32xf32>
//   %t  = dlc.transpose %p {perm = array<i64: 1, 0, 2>} -> tensor<256x24x32xf32>
//   %wt = dlc.reshape %t : tensor<256x24x32xf32> -> tensor<256x768xf32>
//
// and both view ops join the matmul's kernel, whose lowering reads %p.
//
//===----------------------------------------------------------------------===//

#include "passes/ConstantData.h"
#include "compiler/Target/CPU/CpuTiles.h"
#include "compiler/Target/CPU/Passes.h"
#include "passes/Passes.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_LINEARTOMATMUL
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct ConstantWeightLinear : OpRewritePattern<LinearOp> {
  /// `panel`: the CPU micro-kernel's column panel, one register tile wide
  /// (CpuTiles.h).
  ConstantWeightLinear(MLIRContext *ctx, int64_t panel)
      : OpRewritePattern(ctx), kPanel(panel) {}
  const int64_t kPanel;
  /// The rearranged copy of each weight (by its constant op and layout,
  /// panels or plain): linears sharing a weight (an unrolled recurrence's
  /// steps) share one copy instead of one each.
  mutable llvm::DenseMap<std::pair<Operation *, unsigned>, Value> rearranged;

  /// The weight rearranged by `make` as a constant beside `weightOp` (so
  /// that it dominates every user of the weight), made once per weight and
  /// layout; null when the weight's data cannot be read.
  template <typename Make>
  Value sharedConstant(PatternRewriter &rewriter, ConstantOp weightOp, bool panels, Make make) const {
    Value &copy = rearranged[{weightOp.getOperation(), panels ? 1u : 0u}];
    if (!copy) {
      FailureOr<ElementsAttr> data = make();
      if (failed(data))
        return Value();
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(weightOp);
      copy = rewriter.create<ConstantOp>(weightOp.getLoc(), data->getType(), *data,
                                         weightOp.getDeviceAttr());
    }
    return copy;
  }

  LogicalResult matchAndRewrite(LinearOp linear,
                                PatternRewriter &rewriter) const override {
    auto weightOp = linear.getWeight().getDefiningOp<ConstantOp>();
    if (!weightOp)
      return rewriter.notifyMatchFailure(linear, "the weight is not a constant");
    std::string name = nameOf(weightOp, "linear.weight");

    Location loc = linear.getLoc();
    DeviceAttr pin = linear.getDeviceAttr();
    auto input = cast<RankedTensorType>(linear.getInput().getType());
    auto result = cast<RankedTensorType>(linear.getType());
    int64_t k = input.getShape().back(), n = result.getShape().back();
    int64_t m = input.getNumElements() / std::max<int64_t>(k, 1);
    Type element = input.getElementType();

    // The matmul keeps the linear's name; the helpers get names of their own
    // (under it, so that pin patterns on the linear still take them), so that
    // dumps and profiles tell them apart.
    auto named = [&](StringRef suffix) { return suffixedLoc(loc, suffix); };
    Value x = linear.getInput();
    if (input.getRank() != 2)
      x = rewriter.create<ReshapeOp>(named("/flatten"),
                                     RankedTensorType::get({m, k}, element), x, pin);
    Value wt;
    // On the CPU, Wᵀ is stored in the matmul's 32-column panels, [N/32, K, 32]
    // (each panel contiguous, as the micro-kernel reads it), and viewed back
    // as [K, N] by a transpose and a reshape that join the matmul's kernel:
    // the CPU lowering reads the panels directly (TileAndVectorize), so B is
    // packed once here instead of on every call.
    bool onCpu = !pin || pin.isCpu();
    bool usePanels = onCpu && element.isF32() && n % kPanel == 0 && n >= 2 * kPanel;
    Value cached = sharedConstant(rewriter, weightOp, usePanels, [&] {
      return usePanels ? permuteConstant(weightOp.getValue(), {0, 2, 1}, name + ".panels",
                                         {n / kPanel, kPanel, k})
                       : permuteConstant(weightOp.getValue(), {1, 0}, name + ".T");
    });
    if (!cached)
      return rewriter.notifyMatchFailure(linear, "cannot read the weight's data");
    if (usePanels) {
      Value t = rewriter.create<TransposeOp>(
          named("/packed_weight"), RankedTensorType::get({k, n / kPanel, kPanel}, element), cached,
          rewriter.getDenseI64ArrayAttr({1, 0, 2}), pin);
      wt = rewriter.create<ReshapeOp>(named("/packed_weight/view"),
                                      RankedTensorType::get({k, n}, element), t, pin);
    } else {
      wt = cached;
    }
    auto flatType = RankedTensorType::get({m, n}, element);
    auto matmul = rewriter.create<MatmulOp>(loc, flatType, x, wt, pin);
    matmul.setAccumulatorAttr(linear.getAccumulatorAttr()); // f16 sums stay f32
    Value y = matmul;
    if (Value bias = linear.getBias())
      y = rewriter.create<AddOp>(named("/bias"), flatType, y, bias, pin);
    if (result.getRank() != 2)
      y = rewriter.create<ReshapeOp>(named("/unflatten"), result, y, pin);
    rewriter.replaceOp(linear, y);
    return success();
  }
};

struct LinearToMatmulPass : dlc::impl::LinearToMatmulBase<LinearToMatmulPass> {
  using LinearToMatmulBase::LinearToMatmulBase;

  void runOnOperation() override {
    if (panelColumns < 16 || panelColumns % 16 != 0) {
      getOperation().emitError() << "dlc-linear-to-matmul: panel-columns must be a positive "
                                    "multiple of 16, got "
                                 << int64_t(panelColumns);
      return signalPassFailure();
    }
    // One walk rather than the greedy driver: its folder would merge equal
    // constants across devices (placement gives each GPU its own copy of a
    // weight, equal but for the `device` attribute).
    llvm::SmallVector<LinearOp> linears;
    getOperation().walk([&](LinearOp linear) { linears.push_back(linear); });
    ConstantWeightLinear pattern(&getContext(), panelColumns);
    PatternRewriter rewriter(&getContext());
    llvm::SetVector<Operation *> weights;
    for (LinearOp linear : linears) {
      Operation *weight = linear.getWeight().getDefiningOp();
      rewriter.setInsertionPoint(linear);
      if (succeeded(pattern.matchAndRewrite(linear, rewriter)) && weight)
        weights.insert(weight);
    }
    for (Operation *weight : weights)
      if (weight->use_empty())
        weight->erase();
  }
};

} // namespace
