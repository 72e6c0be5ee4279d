//===- Passes.h - dlc graph passes ----------------------------------------===//
#ifndef DLC_PASSES_PASSES_H
#define DLC_PASSES_PASSES_H

#include "dialects/dlc/DlcOps.h"
#include "passes/DeviceSpec.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace dlc {

/// Dense constants this small that are splats, or that hold at most
/// kInlineConstantValues elements, are cloned into the kernels that use
/// them rather than passed as buffers.
constexpr int64_t kInlineConstantElements = 64, kInlineConstantValues = 16;
bool isInlinableConstant(mlir::Operation *op);
/// A kernel's inputs and outputs, as the schedule passes them: values read
/// from outside its ops (small dense constants are cloned in instead) and
/// values read outside them.
void kernelInterface(llvm::ArrayRef<mlir::Operation *> ops,
                     llvm::SmallVectorImpl<mlir::Value> &inputs,
                     llvm::SmallVectorImpl<mlir::Value> &outputs);

// dlc.kernel ops (KernelGroups.cpp).
/// Wraps `ops` (one device; in order, nothing but constants between them)
/// in a kernel placed after the last, yielding the values read outside them.
KernelOp wrapInKernel(llvm::ArrayRef<mlir::Operation *> ops);
/// Whether `op` runs inside a kernel: a dlc op other than a constant (a
/// buffer), a reshape (a view), a copy (a copy step) or a kernel itself.
bool runsInKernel(mlir::Operation *op);
/// Moves a kernel's ops out in front of it and erases it; returns the ops.
llvm::SmallVector<mlir::Operation *> unwrapKernel(KernelOp kernel);
/// A kernel's ops, without its yield.
llvm::SmallVector<mlir::Operation *> computeOpsOf(KernelOp kernel);
/// The values a kernel reads from above, in the order of first use, less
/// the small constants its code clones in: what its Call passes first.
llvm::SmallVector<mlir::Value> kernelInputs(KernelOp kernel);
/// The function's ops in order, each kernel's ops in its place (without the
/// kernel and its yield): the order op names and ordinals count in.
llvm::SmallVector<mlir::Operation *> modelOps(mlir::func::FuncOp func);

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

/// dlc-place with the `device-spec` file already loaded (the driver loads it
/// once; nullptr: load it from the option's path). It records the spec it
/// placed with on the module (passes/RecordedDeviceSpec.h) for the passes
/// after it.
std::unique_ptr<mlir::Pass> createPlaceDevices(const PlaceDevicesOptions &options,
                                               std::shared_ptr<const DeviceSpec> loadedSpec);

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace dlc

#endif // DLC_PASSES_PASSES_H
