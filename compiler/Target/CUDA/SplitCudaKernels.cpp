//===- SplitCudaKernels.cpp - GPU kernels the CUDA backend can emit -------===//
//
// The backends never refuse what the CPU path accepts: a GPU kernel that
// dlc-partition-kernels formed but the CUDA backend cannot emit as one (an
// elementwise op broadcasting the anchor's result, as a squeeze-excitation
// multiply does) is split into the longest runs of its ops that it can, each
// a kernel of its own. (A single op it cannot emit stays, and is reported
// when the kernel is emitted.) Each run is a dlc.kernel of its own. `dlc compile` runs it whenever CUDA source is
// made (not with --no-cuda and host code from the CPU path).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CUDA/CudaEmitter.h"
#include "compiler/Target/CUDA/SplitCudaKernels.h"
#include "passes/Passes.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// Whether the CUDA backend can emit `ops` as one kernel (its errors
/// swallowed: the caller splits the kernel instead).
bool cudaCanFuse(MLIRContext *ctx, ArrayRef<Operation *> ops) {
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  SmallVector<Value> inputs, outputs;
  dlc::kernelInterface(ops, inputs, outputs);
  std::vector<std::string> names(ops.size());
  return succeeded(dlc::cuda::emitKernel(ops, inputs, outputs, "probe", names));
}

bool onCuda(Operation *op) {
  dlc::DeviceAttr device = dlc::getDevicePin(op);
  return device && device.isCuda();
}

struct SplitCudaKernelsPass
    : PassWrapper<SplitCudaKernelsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SplitCudaKernelsPass)
  StringRef getArgument() const override { return "dlc-split-cuda-kernels"; }
  StringRef getDescription() const override {
    return "Splits GPU kernels the CUDA backend cannot emit as one into runs it can";
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    SmallVector<dlc::KernelOp> kernels;
    for (auto kernel : getOperation().getBody().front().getOps<dlc::KernelOp>())
      if (onCuda(kernel))
        kernels.push_back(kernel);
    for (dlc::KernelOp kernel : kernels) {
      SmallVector<Operation *> ops = dlc::computeOpsOf(kernel);
      if (ops.size() < 2 || cudaCanFuse(ctx, ops))
        continue;
      dlc::unwrapKernel(kernel);
      ArrayRef<Operation *> rest = ops;
      size_t begin = 0;
      for (size_t end = 2; end <= rest.size(); ++end) {
        if (cudaCanFuse(ctx, rest.slice(begin, end - begin)))
          continue;
        // [begin, end - 1) is a kernel; the next one starts at end - 1.
        dlc::wrapInKernel(rest.slice(begin, end - 1 - begin));
        begin = end - 1;
      }
      dlc::wrapInKernel(rest.drop_front(begin));
    }
  }
};

} // namespace

std::unique_ptr<Pass> dlc::cuda::createSplitCudaKernels() {
  return std::make_unique<SplitCudaKernelsPass>();
}

void dlc::cuda::registerSplitCudaKernels() { PassRegistration<SplitCudaKernelsPass>(); }
