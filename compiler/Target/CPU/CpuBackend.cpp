//===- CpuBackend.cpp - what the CPU backend tells the graph passes -------===//
//
// The CPU lowering (compiler/Target/CPU/) has code for every op. Its kernels
// fuse more than the default elementwise rule: a row op (layer_norm,
// softmax) runs its passes on the open kernel's result while it is in cache,
// a padded convolution has its producer write straight into the padded
// image, and a transpose that keeps the last dim of a batched matmul's
// result is written in place by the matmul (PartitionKernels.cpp draws the
// kernels). The built-in profile is one core of dlc's own code: issue 20
// derives it from a target description and measured kernels.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Backends.h"
#include "passes/Passes.h"
#include "passes/TargetBackend.h"

using namespace dlc;

namespace {
/// A padded, ungrouped convolution whose image the open kernel computes for
/// it alone: the lowering has the producer write straight into the padded
/// image (ConvToMatmul.cpp), where as two kernels the image went to the
/// arena and was copied into a padded buffer (ResNet-18's second convolution
/// of each block: 15.79 -> 15.68 ms).
bool joinsAsPaddedConsumer(Conv2dOp conv, const OpenKernel &open) {
  return conv.getGroups() == 1 && llvm::any_of(conv.getPads(), [](int64_t p) { return p != 0; }) &&
         open.ops.contains(conv.getInput().getDefiningOp()) && conv.getInput().hasOneUse();
}

/// A layer_norm or softmax reading a value of the open kernel: its row
/// passes run on the kernel's result while it is still in cache, and the
/// result needs no arena buffer of its own when nothing else reads it (CUDA
/// kernels keep one row op each: Target/CUDA/RowReductionKernels.cpp).
bool joinsAsRowOp(Operation *op, const OpenKernel &open) {
  return isa<LayerNormOp, SoftmaxOp>(op) && open.ops.contains(op->getOperand(0).getDefiningOp());
}

class CpuBackend : public TargetBackend {
public:
  llvm::StringRef kind() const override { return "cpu"; }
  bool supports(Operation *) const override { return true; }

  DeviceProfile builtinProfile(int64_t) const override {
    // dlc's CPU code runs on one thread: one AVX-512 core as measured by
    // test/bench (f32 matmul at ~175 GFLOP/s); f16/bf16 are widened to f32.
    DeviceProfile cpu;
    cpu.memoryBytes = int64_t(64) << 30;
    cpu.flopsF32 = 175e9;
    cpu.flopsF16 = 120e9;
    cpu.flopsBF16 = 120e9;
    cpu.bandwidthBytesPerS = 30e9;
    cpu.launchOverheadUs = 1.0;
    return cpu;
  }
  // The host is never its own peer; a copy between two host buffers is free.
  LinkProfile hostLink() const override { return LinkProfile{30e9, 0.0}; }
  LinkProfile peerLink() const override { return hostLink(); }

  bool joinsOpenKernel(Operation *op, const OpenKernel &open) const override {
    if (TargetBackend::joinsOpenKernel(op, open))
      return true;
    if (open.empty() || getDevicePin(op) != open.device)
      return false;
    if (auto conv = dyn_cast<Conv2dOp>(op); conv && joinsAsPaddedConsumer(conv, open))
      return true;
    return joinsAsRowOp(op, open) ||
           (isWrittenInPlaceByMatmul(op) && open.ops.contains(op->getOperand(0).getDefiningOp()));
  }
};
} // namespace

void dlc::registerCpuTargetBackend() { registerTargetBackend(std::make_unique<CpuBackend>()); }
