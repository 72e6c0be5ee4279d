//===- CpuBackend.cpp - what the CPU backend tells the graph passes -------===//
//
// The CPU lowering (compiler/Target/CPU/) has code for every op. Its kernels
// fuse more than the default elementwise rule: a row op (layer_norm,
// softmax) runs its passes on the open kernel's result while it is in cache,
// a padded convolution has its producer write straight into the padded
// image, and a transpose that keeps the last dim of a batched matmul's
// result is written in place by the matmul (PartitionKernels.cpp draws the
// kernels). The built-in profile is one core of dlc's own code, derived
// from the target description (CpuTarget.h); `dlc probe-devices` measures
// the same figures on this machine and writes them as a device spec.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Backends.h"
#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/CpuRelayouts.h"
#include "compiler/Target/CPU/CpuTarget.h"
#include "compiler/Target/CPU/Passes.h"
#include "passes/Passes.h"
#include "passes/TargetBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"

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

/// The fraction of one core's FMA peak dlc's kernels reach per cost kind,
/// as test/bench measured them (one thread; the lowest class seen: Zen 1
/// AVX2, Zen 3 AVX2, Zen 5 AVX-512): dense matmuls and convolutions run
/// register tiles near peak; small-batch linears and batched attention
/// matmuls are shorter loops; a depthwise convolution does 2 FLOPs per
/// byte-ish and is bound by the cache, not the FMAs.
struct KernelEfficiency {
  const char *kind;
  double fractionOfPeak;
};
constexpr KernelEfficiency kBuiltinKernelEfficiency[] = {
    {"matmul", 0.80}, {"linear", 0.65}, {"batch_matmul", 0.50},
    {"conv2d", 0.75}, {"depthwise_conv2d", 0.10},
};

/// One core of `target` running dlc's code: its FMA peak (lanes, FMA rate
/// from LLVM's scheduling model, clock) times what dlc's kernels reach of
/// it; f16/bf16 are widened to f32 (F16C), which costs about a third; one
/// core streams ~20 GB/s (bandwidth is measured by `dlc probe-devices`).
DeviceProfile cpuProfileFromTarget(const CpuTarget &target) {
  DeviceProfile cpu;
  cpu.memoryBytes = int64_t(64) << 30;
  cpu.flopsF32 = target.peakF32FlopsPerSecond();
  cpu.flopsF16 = cpu.flopsBF16 = cpu.flopsF32 * kCpuHalfToF32Rate;
  for (const KernelEfficiency &e : kBuiltinKernelEfficiency)
    cpu.kernelFlops[e.kind] = cpu.flopsF32 * e.fractionOfPeak;
  cpu.bandwidthBytesPerS = 20e9;
  cpu.launchOverheadUs = 1.0;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "built-in from the target " << target.cpu << " ("
     << llvm::format("%.0f", cpu.flopsF32 / 1e9) << " GFLOP/s f32 peak per core at "
     << llvm::format("%.2f", target.clockGHz) << " GHz"
     << (target.clockMeasured ? "" : " (assumed)")
     << "; kernel efficiency and bandwidth assumed, not measured: `dlc probe-devices` measures them)";
  cpu.source = text;
  return cpu;
}

class CpuBackend : public TargetBackend {
public:
  llvm::StringRef kind() const override { return "cpu"; }
  bool supports(Operation *) const override { return true; }

  DeviceProfile builtinProfile(int64_t, const BuiltinTarget &target) const override {
    CpuTargetOptions options;
    options.cpu = target.cpu;
    return cpuProfileFromTarget(describeCpuTarget(options));
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

  bool joinsNextKernel(Operation *op) const override {
    return isPackedWeightView(op) || isReadInPlaceByMatmul(op);
  }
  bool movesBeforeItsUser(Operation *op) const override { return isReadInPlaceByMatmul(op); }
  bool foldedIntoNeighbour(Operation *op) const override {
    return isPackedWeightView(op) || isReadInPlaceByMatmul(op) || isWrittenInPlaceByMatmul(op);
  }

  // Weights packed in panels one register tile wide, the target's
  // (CpuTarget.h, CpuTiles.h); each pass leaves other devices' ops alone.
  void addGraphRewrites(mlir::OpPassManager &pm, const BuiltinTarget &target) const override {
    CpuTargetOptions options;
    options.cpu = target.cpu;
    cpu::KernelTiles tiles = cpuKernelTiles(options);
    std::string error;
    if (!target.kernelTiles.empty())
      if (std::optional<cpu::KernelTiles> forced = parseKernelTiles(target.kernelTiles, tiles, error))
        tiles = *forced;
    pm.addNestedPass<func::FuncOp>(createLinearToMatmul({tiles.matmul.columns}));
    pm.addNestedPass<func::FuncOp>(createSinkReshapes());
    pm.addNestedPass<func::FuncOp>(createFoldBatchNorm());
    pm.addNestedPass<func::FuncOp>(createPackConvWeights({tiles.pixelRow.filters, tiles.stridedIm2colPixels}));
  }
};
} // namespace

void dlc::registerCpuTargetBackend() { registerTargetBackend(std::make_unique<CpuBackend>()); }
