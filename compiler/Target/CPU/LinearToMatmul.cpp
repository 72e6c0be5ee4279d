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
// kernel as its epilogue. On the CPU, with N at least two panels wide, Wᵀ is stored
// as the micro-kernel's column panels instead:
//
//   %p  = dlc.constant dense_resource<w.panels> : tensor<24x256x32xf32>
//   %t  = dlc.transpose %p {perm = array<i64: 1, 0, 2>} -> tensor<256x24x32xf32>
//   %wt = dlc.reshape %t : tensor<256x24x32xf32> -> tensor<256x768xf32>
//
// and both view ops join the matmul's kernel, whose lowering reads %p. With
// N not a multiple of 32 the last panel is padded with zero columns, the
// matmul computes [M, N'] and a dlc.slice takes the first N columns.
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

/// `weight` ([N, K], f32) as `padded` / P panels of [K, P], P = padded /
/// panels' width, columns N and up zero: [padded / P, K, P].
FailureOr<ElementsAttr> paddedPanelsOf(ElementsAttr weight, int64_t n, int64_t k, int64_t padded,
                                       int64_t panel, StringRef name) {
  FailureOr<std::vector<float>> values = readF32Constant(weight);
  if (failed(values))
    return failure();
  std::vector<float> panels(static_cast<size_t>(padded * k), 0.0f);
  for (int64_t col = 0; col < n; ++col)
    for (int64_t row = 0; row < k; ++row)
      panels[static_cast<size_t>(((col / panel) * k + row) * panel + col % panel)] =
          (*values)[static_cast<size_t>(col * k + row)];
  auto type = RankedTensorType::get({padded / panel, k, panel}, Float32Type::get(weight.getContext()));
  return makeF32Constant(type, panels, name);
}

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
    // N not a multiple of 32 (a 1000-class classifier) gets its last panel
    // padded with zero columns, computed and sliced off the product: read
    // as Wᵀ in place, each register tile's 32 columns were a line of a
    // different 4000-byte row per step of K, and a batch-1 classifier ran
    // at a third of the memory's speed (MobileNetV2's 1280 -> 1000).
    bool onCpu = !pin || pin.isCpu();
    bool usePanels = onCpu && element.isF32() && n >= 2 * kPanel;
    int64_t padded = (n + kPanel - 1) / kPanel * kPanel;
    Value cached = sharedConstant(rewriter, weightOp, usePanels, [&]() -> FailureOr<ElementsAttr> {
      if (!usePanels)
        return permuteConstant(weightOp.getValue(), {1, 0}, name + ".T");
      if (padded == n)
        return permuteConstant(weightOp.getValue(), {0, 2, 1}, name + ".panels",
                               {n / kPanel, kPanel, k});
      return paddedPanelsOf(weightOp.getValue(), n, k, padded, kPanel, name + ".panels");
    });
    if (!cached)
      return rewriter.notifyMatchFailure(linear, "cannot read the weight's data");
    if (usePanels) {
      Value t = rewriter.create<TransposeOp>(
          named("/packed_weight"), RankedTensorType::get({k, padded / kPanel, kPanel}, element),
          cached, rewriter.getDenseI64ArrayAttr({1, 0, 2}), pin);
      wt = rewriter.create<ReshapeOp>(named("/packed_weight/view"),
                                      RankedTensorType::get({k, padded}, element), t, pin);
    } else {
      wt = cached;
    }
    int64_t columns = usePanels ? padded : n;
    auto matmul = rewriter.create<MatmulOp>(loc, RankedTensorType::get({m, columns}, element), x,
                                            wt, pin);
    matmul.setAccumulatorAttr(linear.getAccumulatorAttr()); // f16 sums stay f32
    auto flatType = RankedTensorType::get({m, n}, element);
    Value y = matmul;
    if (columns != n)
      y = rewriter.create<SliceOp>(named("/unpad"), flatType, y, rewriter.getDenseI64ArrayAttr({0, 0}),
                                   rewriter.getDenseI64ArrayAttr({m, n}),
                                   rewriter.getDenseI64ArrayAttr({1, 1}), pin);
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
