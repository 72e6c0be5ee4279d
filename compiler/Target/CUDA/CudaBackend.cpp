//===- CudaBackend.cpp - what the CUDA backend tells placement ------------===//
//
// The op kinds the emitters (CudaEmitter.cpp and its kernel kinds) have
// kernels for, and the built-in H200 profile with its links (sources in
// passes/README.md). An op kind added to the dialect is unsupported on GPUs,
// and so placed on the CPU with reason `unsupported`, until it is listed here
// and the emitter handles it; so is an op on an element type its kernel
// does not compute in (cudaElementTypes). Kernels keep the default fusion rule: an
// elementwise op joins the kernel whose value it consumes.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Backends.h"
#include "compiler/Target/CUDA/CudaEmitter.h"
#include "dialects/dlc/DlcOps.h"
#include "passes/CostModel.h"
#include "passes/TargetBackend.h"

#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/STLExtras.h"

using namespace dlc;

namespace {
// Every kind of the dialect; linear is rewritten to matmul + add before the
// kernels are formed.
const char *const kCudaKinds[] = {
    "add", "sub", "mul", "div", "pow", "max", "min", "rem", "mod", "shift_left", "shift_right", "neg", "abs", "exp", "log",
    "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "relu", "gelu", "clip", "cast",
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
    "ceil", "floor", "round", "sign",
    "compare", "select",
    "matmul", "linear", "conv2d", "max_pool2d", "avg_pool2d", "global_avg_pool",
    "batch_norm", "layer_norm", "softmax", "reduce_sum", "reduce_mean", "reduce_max", "reduce_prod",
    "transpose", "reshape", "concat", "slice", "split", "gather", "gather_elements",
    "scatter_elements", "top_k", "copy", "constant"};

/// The types every kernel kind computes on. Elementwise and data-movement
/// kernels take every type (the fused expression tree: KernelEmitter.h's
/// storageType, computeType and roundTo); reductions too (the pointwise
/// kernel: float, double, or wrapping 64-bit integer accumulators); pooling
/// and batch_norm f64 too (double accumulators). The GEMM kernels and the row
/// kernels of softmax and layer_norm accumulate in float or i32/i64: on other
/// types those ops run on the CPU (reason `unsupported`).
bool isCoreType(Type t) {
  return t.isF32() || t.isF16() || t.isBF16() || t.isSignlessInteger(32) ||
         t.isSignlessInteger(64) || t.isSignlessInteger(1);
}

bool cudaElementTypes(Operation *op) {
  auto all = [&](auto pred) {
    auto elem = [&](Type t) { return pred(getElementTypeOrSelf(t)); };
    return llvm::all_of(op->getOperandTypes(), elem) && llvm::all_of(op->getResultTypes(), elem);
  };
  if (isa<MaxPool2dOp, AvgPool2dOp, GlobalAvgPoolOp, BatchNormOp>(op))
    return all([](Type t) { return isCoreType(t) || t.isF64(); });
  if (isa<MatmulOp, LinearOp, Conv2dOp, LayerNormOp, SoftmaxOp>(op))
    return all(isCoreType);
  return true;
}

class CudaBackend : public TargetBackend {
public:
  llvm::StringRef kind() const override { return "cuda"; }
  bool computesInHalfByDefault() const override { return true; }
  bool supports(Operation *op) const override {
    return cuda::supportsOpKind(opKind(op)) && cudaElementTypes(op);
  }

  DeviceProfile builtinProfile(int64_t, const BuiltinTarget &) const override {
    DeviceProfile gpu;
    gpu.memoryBytes = 141'000'000'000;
    gpu.flopsF32 = 60e12;
    gpu.flopsF16 = 989e12;
    gpu.flopsBF16 = 989e12;
    gpu.bandwidthBytesPerS = 4.8e12;
    gpu.launchOverheadUs = 5.0;
    gpu.source = "built-in: H200 SXM class (NVIDIA's datasheet figures, not measured)";
    return gpu;
  }
  LinkProfile hostLink() const override { return LinkProfile{55e9, 10.0}; }    // PCIe 5
  LinkProfile peerLink() const override { return LinkProfile{450e9, 2.0}; }    // NVLink
};
} // namespace

bool dlc::cuda::supportsOpKind(llvm::StringRef kind) { return llvm::is_contained(kCudaKinds, kind); }

void dlc::registerCudaTargetBackend() { registerTargetBackend(std::make_unique<CudaBackend>()); }
