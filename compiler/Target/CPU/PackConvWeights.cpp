//===- PackConvWeights.cpp - convolution taps outermost, at compile time --===//
//
// The CPU runs a stride-1 KHxKW convolution as one matmul per tap (kh, kw)
// (ConvStrategy.h; compiler/Target/CPU/ConvToMatmul.cpp), whose A operand is the
// F x C matrix W[:, :, kh, kw]. In PyTorch's [F, C, KH, KW] layout its rows are
// KH*KW floats apart: the micro-kernel's broadcasts then touch a new cache
// line per element and 512-channel layers ran at half speed. With a constant
// weight the packing is free at compile time:
//
//   %w = dlc.constant ... : tensor<64x64x3x3xf32>
//   %y = dlc.conv2d %x, %w ...
// becomes
//   %p = dlc.constant dense_resource<w.hwfc> : tensor<3x3x64x64xf32>  // [KH, KW, F, C]
//   %t = dlc.transpose %p {perm = array<i64: 2, 3, 0, 1>} -> tensor<64x64x3x3xf32>
//   %y = dlc.conv2d %x, %t ...
//
// The transpose joins the convolution's kernel (PartitionKernels), and the
// lowering reads the packed constant through it, so no transpose runs.
// A convolution that runs on rows of output pixels (ConvStrategy.h) gets the
// layout its register tile reads instead: P-filter panels (P: the target's
// pixel-row tile, the pass's panel-filters), [F/P, KH, KW, C, P], viewed
// back through a transpose and a reshape. Only convolutions on the CPU
// (unplaced, or placed on cpu) are packed; the old constant is erased when
// nothing else uses it.
//
//===----------------------------------------------------------------------===//

#include "passes/ConstantData.h"
#include "compiler/Target/CPU/ConvStrategy.h"
#include "compiler/Target/CPU/Passes.h"
#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_PACKCONVWEIGHTS
#include "compiler/Target/CPU/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

bool allOnes(ArrayRef<int64_t> values) {
  return llvm::all_of(values, [](int64_t v) { return v == 1; });
}

struct PackConvWeightsPass : dlc::impl::PackConvWeightsBase<PackConvWeightsPass> {
  using PackConvWeightsBase::PackConvWeightsBase;

  void runOnOperation() override {
    if (panelFilters < cpu::kTileColumnStep || panelFilters > cpu::kMaxTileColumns ||
        panelFilters % cpu::kTileColumnStep != 0) {
      getOperation().emitError() << "dlc-pack-conv-weights: unsupported panel-filters "
                                 << int64_t(panelFilters) << " (a multiple of "
                                 << cpu::kTileColumnStep << " up to " << cpu::kMaxTileColumns
                                 << ")";
      return signalPassFailure();
    }
    const int64_t kPixelRowPanel = panelFilters;
    SmallVector<Conv2dOp> convs;
    getOperation().walk([&](Conv2dOp conv) { convs.push_back(conv); });
    OpBuilder builder(&getContext());
    llvm::SetVector<Operation *> weights;
    for (Conv2dOp conv : convs) {
      DeviceAttr device = getDevicePin(conv);
      if (device && !device.isCpu())
        continue;
      auto weightOp = conv.getFilter().getDefiningOp<ConstantOp>();
      auto type = cast<RankedTensorType>(conv.getFilter().getType());
      if (!weightOp || !type.getElementType().isF32())
        continue;
      ArrayRef<int64_t> w = type.getShape();
      ArrayRef<int64_t> strides = conv.getStrides();
      // Location: named after the convolution, so that kernel listings and
      // profiles say whose weight it is.
      Location tLoc = isa<NameLoc>(conv.getLoc())
                          ? suffixedLoc(conv.getLoc(), "/packed_weight")
                          : weightOp.getLoc();
      std::string name = nameOf(weightOp, "conv.weight");
      Value t;
      builder.setInsertionPoint(conv);
      ArrayRef<int64_t> y = cast<RankedTensorType>(conv.getType()).getShape();
      if (convRunsOnPixelRows(w[1], w[0], w[2], w[3], allOnes(strides),
                              allOnes(conv.getDilations()),
                              static_cast<int64_t>(conv.getGroups()), y[2] * y[3],
                              kPixelRowPanel, stridedIm2colPixels)) {
        // [F, C, KH, KW] viewed as [F/P, P, C, KH, KW], stored [F/P, KH, KW, C, P].
        int64_t panels = w[0] / kPixelRowPanel;
        FailureOr<ElementsAttr> packed =
            permuteConstant(weightOp.getValue(), {0, 3, 4, 2, 1}, name + ".panels",
                            {panels, kPixelRowPanel, w[1], w[2], w[3]});
        if (failed(packed))
          continue;
        Value p = builder.create<ConstantOp>(weightOp.getLoc(), packed->getType(), *packed,
                                             weightOp.getDeviceAttr());
        Value view = builder.create<TransposeOp>(
            tLoc,
            RankedTensorType::get({panels, kPixelRowPanel, w[1], w[2], w[3]},
                                  type.getElementType()),
            p, builder.getDenseI64ArrayAttr({0, 4, 3, 1, 2}), device);
        t = builder.create<ReshapeOp>(suffixedLoc(tLoc, "/view"), type, view, device);
      } else if (convRunsAsShiftedMatmuls(w[1], w[0], w[2], w[3], allOnes(strides),
                                          allOnes(conv.getDilations()),
                                          static_cast<int64_t>(conv.getGroups()))) {
        FailureOr<ElementsAttr> packed =
            permuteConstant(weightOp.getValue(), {2, 3, 0, 1}, name + ".hwfc");
        if (failed(packed))
          continue;
        Value p = builder.create<ConstantOp>(weightOp.getLoc(), packed->getType(), *packed,
                                             weightOp.getDeviceAttr());
        t = builder.create<TransposeOp>(tLoc, type, p,
                                        builder.getDenseI64ArrayAttr({2, 3, 0, 1}), device);
      } else {
        continue;
      }
      conv.getFilterMutable().assign(t);
      weights.insert(weightOp);
    }
    for (Operation *weight : weights)
      if (weight->use_empty())
        weight->erase();
  }
};

} // namespace
