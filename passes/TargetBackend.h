//===- TargetBackend.h - what a device kind's backend tells the graph passes -===//
//
// The graph passes know no backend: they ask the one registered for a
// device's kind. Placement asks which ops it has code for and, for the
// built-in profiles, how fast its devices are and how they are linked;
// kernel partitioning asks whether an op joins the kernel open before it.
//
//   cpu   compiler/Target/CPU/CpuBackend.cpp    (every op; row ops and
//                                                padded convolutions fuse)
//   cuda  compiler/Target/CUDA/CudaBackend.cpp  (its emitters' op kinds)
//   toy   compiler/Target/test/ToyBackendTest.cpp (three ops, a test's own)
//
// `registerBuiltinTargetBackends()` (compiler/Target/Backends.h; called by
// registerAllDlcDialects) registers cpu and cuda; a test or an out-of-tree backend calls
// `registerTargetBackend` with its own, and `--devices=cpu,KIND:0`, pins,
// device specs, dumps and `#dlc.device<KIND:0>` accept its kind from then
// on. Code generation for a kind is separate: the artifact has code for cpu
// and cuda only, and says so for any other.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_TARGETBACKEND_H
#define DLC_PASSES_TARGETBACKEND_H

#include "passes/DeviceSpec.h"
#include "dialects/dlc/DlcOps.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace dlc {

/// The kernel PartitionKernels has open when it meets the next op: its ops
/// (all on `device`, which is null for the CPU's unpinned ops).
struct OpenKernel {
  const llvm::SmallPtrSetImpl<mlir::Operation *> &ops;
  DeviceAttr device;
  bool empty() const { return ops.empty(); }
};

class TargetBackend {
public:
  virtual ~TargetBackend();

  /// The device kind as `--devices`, pins, dumps and #dlc.device spell it.
  virtual llvm::StringRef kind() const = 0;
  /// Whether the backend has code for `op` (a dlc op).
  virtual bool supports(mlir::Operation *op) const = 0;
  /// The built-in profile of device `index` of this kind (passes/README.md
  /// gives the figures' sources); `supportedOps` stays nullopt, the backend's
  /// own `supports` applies to every profile of its kind.
  virtual DeviceProfile builtinProfile(int64_t index, const BuiltinTarget &target) const = 0;
  /// The built-in link between one of this kind's devices and the host, and
  /// between two of them.
  virtual LinkProfile hostLink() const = 0;
  virtual LinkProfile peerLink() const = 0;
  /// Whether `op`, placed on this backend's device `open.device`, joins the
  /// kernel open before it rather than starting one. The default: an
  /// elementwise op on the same device that consumes one of its values.
  virtual bool joinsOpenKernel(mlir::Operation *op, const OpenKernel &open) const;
  /// Whether, under `--precision=mixed`, dlc-mixed-precision paints this
  /// backend's ops fp16 where their policy allows (the GPUs' tensor cores);
  /// the default: no, they stay fp32 unless pinned to fp16 (the CPU, which
  /// computes f16 widened to f32 and only loses by it).
  virtual bool computesInHalfByDefault() const { return false; }
  /// Whether `op` (on this backend's device) does no work of its own but
  /// joins the kernel of the op after it, whose code reads it in place (the
  /// CPU's packed weight views and transposes a batched matmul reads
  /// through). The default: no.
  virtual bool joinsNextKernel(mlir::Operation *op) const { return false; }
  /// Whether `op` moves right before its only user first, to join its kernel
  /// (a transpose computed earlier than the matmul that reads it). No.
  virtual bool movesBeforeItsUser(mlir::Operation *op) const { return false; }
  /// Whether `op` never runs because an op beside it does its work (the
  /// above, and a transpose a matmul writes in place): it costs nothing in
  /// the placement summary. No.
  virtual bool foldedIntoNeighbour(mlir::Operation *op) const { return false; }
  /// The graph rewrites this backend makes on the placed graph before
  /// kernels are formed (the compile pipeline's `rewrite` stage, on
  /// builtin.module): the weight layouts its kernels read. The CPU's: linear
  /// layers as matmuls on weights packed in panels of its register tile,
  /// batch norms folded, convolution weights packed per its tile. Each
  /// rewrite leaves other devices' ops alone. The default: none.
  virtual void addGraphRewrites(mlir::OpPassManager &pm, const BuiltinTarget &target) const {}
};

/// Adds `backend` and registers its kind with the dialect; a kind registered
/// again keeps its first backend. Thread-safe.
void registerTargetBackend(std::unique_ptr<TargetBackend> backend);
/// The backend of `kind`, or null.
const TargetBackend *lookupTargetBackend(llvm::StringRef kind);
/// The backend of the device `op` is on (its pin's kind; the CPU's when
/// unpinned), or null when no backend has that kind.
const TargetBackend *lookupTargetBackendOf(mlir::Operation *op);
/// The registered kinds, in registration order.
std::vector<std::string> registeredTargetKinds();

/// Whether `device` runs `op`: its backend has code for it and the spec's
/// `supported_ops` (if any) lists it.
bool deviceRuns(const DeviceProfile &device, mlir::Operation *op);

} // namespace dlc

#endif // DLC_PASSES_TARGETBACKEND_H
