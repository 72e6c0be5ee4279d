//===- CostModel.h - op and transfer times on the devices of a spec -------===//
//
// An op's time on a device is a roofline over what its CostOpInterface says:
//
//   t(op, d) = max(flops / rate(d, kind, dtype), bytes / bandwidth(d))
//              + launch_overhead(d)
//
// with dtype the element type of the op's first result (integers at the f32
// rate) and rate the device's measured kernel rate for the op's cost kind
// (DeviceProfile::kernelFlops) where it has one, else its peak. Moving a value from device a to device b takes
//
//   t(v, a -> b) = latency(a, b) + bytes(v) / bandwidth(a, b)   (0 when a == b)
//
// Times are in microseconds.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_COSTMODEL_H
#define DLC_PASSES_COSTMODEL_H

#include "passes/DeviceSpec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace dlc {

/// An op's name: its location name (ONNX node names become these), else
/// `<op>_<n>` with n its position in the block.
std::string opName(mlir::Operation *op, unsigned ordinal);

/// Gives every op of `func`'s body without a location name the name
/// opName gives it now (`<op>_<n>`), so that passes which add or remove ops
/// later do not rename it: the artifact's buffers, the placement dump and
/// the reference interpreter (`dlc run --compare-reference`) then agree.
void nameUnnamedOps(mlir::func::FuncOp func);

/// `matmul` for `dlc.matmul`: the name supported_ops lists.
inline llvm::StringRef opKind(mlir::Operation *op) {
  return op->getName().stripDialect();
}

/// The kind a device profile's kernel_flops are keyed by: the op's kind,
/// except `depthwise_conv2d` for a convolution with one filter per input
/// channel (groups = channels > 1), whose kernels run at another rate.
llvm::StringRef costKind(mlir::Operation *op);

/// Bytes of a ranked tensor value (i1 as one byte).
int64_t valueBytes(mlir::Value value);

/// The roofline time of `op` on `device`, in microseconds.
double opTimeUs(mlir::Operation *op, const DeviceProfile &device);

/// The time to move `bytes` over `link` (0 bytes still pay the latency).
inline double transferUs(int64_t bytes, const LinkProfile &link) {
  return link.latencyUs + 1e6 * double(bytes) / link.bandwidthBytesPerS;
}

} // namespace dlc

#endif // DLC_PASSES_COSTMODEL_H
