//===- PartitionKernels.cpp - same-device ops grouped into kernels ---------===//
//
// The unit of launch. In the model's order, an op starts a new kernel unless
// its device's backend says it joins the open one (TargetBackend::
// joinsOpenKernel). By default an op joins when it is elementwise, runs on
// the same device as the open kernel and consumes one of its values; so a
// matmul or convolution takes the bias add and the activation that follow
// it, and elementwise chains become one kernel. The CPU backend
// (compiler/Target/CPU/CpuBackend.cpp) also takes a row-wise op (layer_norm,
// softmax: attention's scores take their softmax, a residual add its layer
// norm) and a padded convolution whose image the open kernel computes for it
// alone:
//
//   %g = dlc.kernel on cuda:0 -> tensor<...> {
//     %m = dlc.matmul %x, %w  {device = #dlc.device<cuda:0>}
//     %b = dlc.add %m, %bias  {device = #dlc.device<cuda:0>}
//     %g = dlc.gelu %b        {device = #dlc.device<cuda:0>}
//     dlc.yield %g
//   }
//   %s = dlc.kernel on cuda:0 -> tensor<...> { dlc.softmax %g ... }
//
// Each run becomes a dlc.kernel op (KernelGroups.cpp) whose body reads the
// values it needs from above and yields those read outside it.
// Constants, reshapes and copies get no kernel: constants are buffers,
// reshapes and same-device copies are views, cross-device copies are copy
// steps. An op its backend says joins the next op's kernel (joinsNextKernel:
// the CPU's packed weight views and transposes a batched matmul reads in
// place, compiler/Target/CPU/CpuRelayouts.h) waits for that kernel, and one
// it says moves before its user (movesBeforeItsUser) is moved there first.
// Kernels are contiguous in the model's order (only constants lie between
// their ops; the kernel op goes after its last).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/TargetBackend.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace dlc {
#define GEN_PASS_DEF_PARTITIONKERNELS
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;


// Splats (a scale, an epsilon, a clip bound) and a few values fold into the
// code; a per-channel vector (a bias) is a buffer, so that kernels differing
// only in their weights share code (compiler/Pipeline/GenerateCode.cpp).
bool dlc::isInlinableConstant(Operation *op) {
  auto constant = dyn_cast_or_null<ConstantOp>(op);
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : DenseElementsAttr();
  int64_t elements = dense ? dense.getNumElements() : 0;
  return dense && elements <= kInlineConstantElements &&
         (dense.isSplat() || elements <= kInlineConstantValues);
}

void dlc::kernelInterface(ArrayRef<Operation *> ops, SmallVectorImpl<Value> &inputs,
                          SmallVectorImpl<Value> &outputs) {
  llvm::SmallPtrSet<Operation *, 16> inKernel(ops.begin(), ops.end());
  llvm::SetVector<Value> in, out;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!inKernel.contains(operand.getDefiningOp()) &&
          !isInlinableConstant(operand.getDefiningOp()))
        in.insert(operand);
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!inKernel.contains(user))
          out.insert(result);
  }
  inputs.assign(in.begin(), in.end());
  outputs.assign(out.begin(), out.end());
}

namespace {
struct PartitionKernelsPass
    : dlc::impl::PartitionKernelsBase<PartitionKernelsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<SmallVector<Operation *>> kernels;
    DeviceAttr openDevice;
    llvm::SmallPtrSet<Operation *, 16> open;
    SmallVector<Operation *> relayout; // waiting for their user's kernel
    // Transposes a batched matmul reads in place move right before it, so
    // that they can join its kernel (kernels stay contiguous).
    SmallVector<Operation *> readInPlace;
    for (Operation &op : func.getBody().front()) {
      const TargetBackend *backend = lookupTargetBackendOf(&op);
      if (backend && backend->movesBeforeItsUser(&op))
        readInPlace.push_back(&op);
    }
    for (Operation *t : readInPlace)
      t->moveBefore(*t->user_begin());
    for (Operation &op : func.getBody().front()) {
      const TargetBackend *backend = lookupTargetBackendOf(&op);
      if (backend && backend->joinsNextKernel(&op)) {
        relayout.push_back(&op);
        continue;
      }
      if (!runsInKernel(&op)) {
        // A view, a copy step or anything but a constant ends the open
        // kernel: kernels stay contiguous.
        if (!isa<ConstantOp>(op))
          open.clear();
        continue;
      }
      DeviceAttr device = getDevicePin(&op);
      if (!backend) {
        op.emitError() << "no target backend registered for device kind '"
                       << (device ? device.getKind() : "cpu") << "'";
        return signalPassFailure();
      }
      if (!backend->joinsOpenKernel(&op, OpenKernel{open, openDevice})) {
        kernels.emplace_back();
        open.clear();
        openDevice = device;
      }
      open.insert(&op);
      llvm::append_range(kernels.back(), relayout);
      kernels.back().push_back(&op);
      relayout.clear();
    }
    for (ArrayRef<Operation *> ops : kernels)
      wrapInKernel(ops);
  }
};
} // namespace
