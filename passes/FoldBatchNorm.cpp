//===- FoldBatchNorm.cpp - inference batch norm folded into its conv ------===//
//
// In inference a batch norm after a convolution is an affine map per output
// channel, so it folds into the convolution's constant weight and bias:
//
//   %c = dlc.conv2d %x, %w, %b               // w [F, C/g, KH, KW], b [F]
//   %y = dlc.batch_norm %c, %gamma, %beta, %mean, %var {epsilon}
// becomes, with s[f] = gamma[f] / sqrt(var[f] + epsilon),
//   %y = dlc.conv2d %x, %w', %b'             // w'[f] = w[f] s[f]
//                                            // b'[f] = (b[f] - mean[f]) s[f] + beta[f]
//
// computed at compile time (in double). It needs f32 constants for the
// weight, the bias (or none: zero) and the four parameters, the batch norm
// as the convolution's only user, and both on the same device. The folded
// constants are new; the old ones are erased when nothing else uses them.
// (PyTorch's ONNX export folds these itself; hand-written and other
// exported models keep them.)
//
//===----------------------------------------------------------------------===//

#include "passes/ConstantData.h"
#include "passes/Passes.h"

#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace dlc {
#define GEN_PASS_DEF_FOLDBATCHNORM
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

FailureOr<std::vector<float>> constantValues(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return failure();
  return readF32Constant(constant.getValue());
}

struct FoldBatchNormPass : dlc::impl::FoldBatchNormBase<FoldBatchNormPass> {
  void runOnOperation() override {
    SmallVector<BatchNormOp> norms;
    getOperation().walk([&](BatchNormOp bn) { norms.push_back(bn); });
    OpBuilder builder(&getContext());
    llvm::SetVector<Operation *> maybeDead;
    for (BatchNormOp bn : norms) {
      auto conv = bn.getInput().getDefiningOp<Conv2dOp>();
      if (!conv || !conv->hasOneUse() || getDevicePin(conv) != getDevicePin(bn))
        continue;
      auto wType = cast<RankedTensorType>(conv.getFilter().getType());
      FailureOr<std::vector<float>> w = constantValues(conv.getFilter());
      FailureOr<std::vector<float>> gamma = constantValues(bn.getScale()),
                                    beta = constantValues(bn.getBias()),
                                    mean = constantValues(bn.getMean()),
                                    var = constantValues(bn.getVariance());
      int64_t filters = wType.getDimSize(0);
      std::vector<float> bias(filters, 0.0f);
      if (Value b = conv.getBias()) {
        FailureOr<std::vector<float>> values = constantValues(b);
        if (failed(values))
          continue;
        bias = *values;
      }
      if (failed(w) || failed(gamma) || failed(beta) || failed(mean) || failed(var) ||
          static_cast<int64_t>(gamma->size()) != filters)
        continue;
      int64_t perFilter = wType.getNumElements() / filters;
      double eps = bn.getEpsilon().convertToDouble();
      std::vector<float> folded(w->size()), foldedBias(filters);
      for (int64_t f = 0; f < filters; ++f) {
        double s = double((*gamma)[f]) / std::sqrt(double((*var)[f]) + eps);
        for (int64_t i = 0; i < perFilter; ++i)
          folded[f * perFilter + i] = float(double((*w)[f * perFilter + i]) * s);
        foldedBias[f] = float((double(bias[f]) - double((*mean)[f])) * s + double((*beta)[f]));
      }
      builder.setInsertionPoint(conv);
      auto weightOp = conv.getFilter().getDefiningOp<ConstantOp>();
      std::string base = nameOf(conv, "conv");
      Value newW = builder.create<ConstantOp>(
          weightOp.getLoc(), wType,
          makeF32Constant(wType, folded, nameOf(weightOp, base + ".weight") + ".bn"),
          weightOp.getDeviceAttr());
      auto bType = RankedTensorType::get({filters}, wType.getElementType());
      Value newB = builder.create<ConstantOp>(
          bn.getLoc(), bType, makeF32Constant(bType, foldedBias, base + ".bias.bn"),
          weightOp.getDeviceAttr());
      maybeDead.insert(weightOp);
      for (Value v : {conv.getBias(), bn.getScale(), bn.getBias(), bn.getMean(), bn.getVariance()})
        if (v)
          maybeDead.insert(v.getDefiningOp());
      conv.getFilterMutable().assign(newW);
      if (conv.getBias())
        conv.getBiasMutable().assign(newB);
      else
        conv.getBiasMutable().append(newB);
      // The convolution now computes the batch norm's result; it keeps its
      // own name, and the batch norm's users read it.
      bn.getResult().replaceAllUsesWith(conv.getResult());
      bn.erase();
    }
    for (Operation *op : maybeDead)
      if (op && op->use_empty())
        op->erase();
  }
};

} // namespace
