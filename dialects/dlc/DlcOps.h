//===- DlcOps.h - the dlc dialect: dialect, attributes, interfaces, ops ---===//
//
// The one header users of the dialect include.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_DLCOPS_H
#define DLC_DIALECT_DLCOPS_H

#include "dialects/dlc/DlcEnums.h"
#include "dialects/dlc/DlcShapes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dlc::detail {
/// Default cost of an elementwise op: `perElement` operations per result element.
int64_t elementwiseFlops(Operation *op, int64_t perElement);
/// Bytes of every tensor operand and result, each counted once.
int64_t operandAndResultBytes(Operation *op);
} // namespace dlc::detail

#include "dialects/dlc/DlcDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/dlc/DlcAttrs.h.inc"

#include "dialects/dlc/DlcInterfaces.h.inc"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

/// The discardable attributes the dlc passes write and read, each declared
/// once (dialects/dlc/README.md says what each holds).
namespace dlc::attrs {
/// An op's logical device, `#dlc.device<cpu>` / `#dlc.device<cuda:N>`.
inline constexpr llvm::StringLiteral kDevice = "device";
/// An argument's or result's user-facing name (a string).
inline constexpr llvm::StringLiteral kName = "dlc.name";
/// Why dlc-place chose an op's device: pinned, unsupported, capacity, cost, default, view.
inline constexpr llvm::StringLiteral kReason = "dlc.reason";
/// The execution order placement assumed (an i64 per op).
inline constexpr llvm::StringLiteral kOrder = "dlc.order";
/// On a function: the placement policy that placed it.
inline constexpr llvm::StringLiteral kPlacement = "dlc.placement";
/// An op's precision paint, "fp16" or "fp32" (dlc-mixed-precision).
inline constexpr llvm::StringLiteral kPrecision = "dlc.precision";
/// On the module: the device spec dlc-place placed with (its JSON and each
/// device's spec file; passes/RecordedDeviceSpec.h reads it).
inline constexpr llvm::StringLiteral kDeviceSpec = "dlc.device_spec";
/// Persistent state (a training step's parameters and optimizer state): on
/// an entry argument, the state's name (a string) that the argument holds as
/// the run starts; on a result, the name of the state that takes the
/// result's value for the next run. Each state has one of each.
inline constexpr llvm::StringLiteral kState = "dlc.state";
/// On a state argument: its value when a session starts (dense elements of
/// its type); absent: zeros.
inline constexpr llvm::StringLiteral kInitial = "dlc.initial";
/// On an entry argument with a dimension known only at run time (`?`): the
/// largest shape it takes (an i64 array of its rank).
inline constexpr llvm::StringLiteral kMaxShape = "dlc.max_shape";
/// On the entry function: a symbolic batch, by name (a string). Every input's
/// dim 0 is the batch, at its bound; kernels are compiled per unit of it
/// (compiler/README.md, "dimensions known at run time").
inline constexpr llvm::StringLiteral kSymbolicBatch = "dlc.symbolic_batch";
/// On a constant of a symbolic function: the dims (an i64 array) whose
/// extent is the symbol's, the leading part of the constant at a run's size
/// (GPT-2's causal mask `mask[:t, :t]`, positions `arange(t)`).
inline constexpr llvm::StringLiteral kSymbolDims = "dlc.symbol_dims";
/// `dlc compile --calibrate`'s per-op tag (an i64), removed after it.
inline constexpr llvm::StringLiteral kCalibration = "dlc.calibration";

// The schedule and memory plan (dlc-schedule, dlc-plan-memory;
// compiler/Pipeline/ScheduleIR.h has their layout).
/// On the function: the artifact's devices, in order (CPU first).
inline constexpr llvm::StringLiteral kDevices = "dlc.devices";
/// On the function: the buffer table, one #dlc.buffer per buffer.
inline constexpr llvm::StringLiteral kBuffers = "dlc.buffers";
/// On ops (an array, one per result; -1: none) and arguments (an i64): the
/// buffer holding the value.
inline constexpr llvm::StringLiteral kBuffer = "dlc.buffer";
/// On the function: each device's step list, of #dlc.step.
inline constexpr llvm::StringLiteral kSteps = "dlc.steps";
/// The kinds a #dlc.step may have, in the order of the artifact's StepKind.
inline constexpr llvm::StringLiteral kStepKinds[] = {"call", "copy", "record", "wait"};
/// On the function: how many events the steps record.
inline constexpr llvm::StringLiteral kEventCount = "dlc.event_count";
/// On the function: each device's arena size and its liveness lower bound.
inline constexpr llvm::StringLiteral kArenaBytes = "dlc.arena_bytes";
inline constexpr llvm::StringLiteral kPeakLiveBytes = "dlc.peak_live_bytes";

// The code (dlc-codegen; compiler/Pipeline/ArtifactStages.h).
/// On the function: the shared objects of kernel code, of #dlc.library.
inline constexpr llvm::StringLiteral kLibraries = "dlc.libraries";
/// On the function: the GPU kernels' CUDA modules, of #dlc.cuda_module.
inline constexpr llvm::StringLiteral kCudaModules = "dlc.cuda_modules";
/// On a dlc.kernel op: where its code is, a #dlc.kernel_code.
inline constexpr llvm::StringLiteral kCode = "dlc.code";
/// On a dlc.kernel op of a symbolic batch: a second body of its code for
/// dlc.chunk_units units at once (the symbol, in library 0), run while a
/// run's batch has that many units left (a Linear on batch rows stays a GEMM).
inline constexpr llvm::StringLiteral kChunkSymbol = "dlc.chunk_symbol";
inline constexpr llvm::StringLiteral kChunkUnits = "dlc.chunk_units";
/// With a chunk body: a tail of at least this many units runs it too, over
/// a whole chunk (format 0.8 Kernel.chunk_min_units).
inline constexpr llvm::StringLiteral kChunkMinUnits = "dlc.chunk_min_units";
/// On a dlc.kernel op of a symbolic function that reads the symbol's dims
/// whole (passes/SymbolExtents.cpp): called once per run with the run's
/// size (format 0.9 Kernel.sized); on its outlined function, the size its
/// code was lowered at for those dims (CpuPipeline.cpp, SizeLoopsAtRunTime).
inline constexpr llvm::StringLiteral kSizedAtRunTime = "dlc.sized_at_run_time";
} // namespace dlc::attrs

namespace dlc::OpTrait {
/// Marks elementwise ops (`Dlc_Elementwise` in DlcOps.td).
template <typename ConcreteType>
class Elementwise : public mlir::OpTrait::TraitBase<ConcreteType, Elementwise> {};
} // namespace dlc::OpTrait

#define GET_OP_CLASSES
#include "dialects/dlc/DlcOps.h.inc"

namespace dlc {
/// scatter_elements' reductions: none, add, mul, max, min.
inline bool isScatterReduction(llvm::StringRef r) {
  return r == "none" || r == "add" || r == "mul" || r == "max" || r == "min";
}
/// For a value used as gather, gather_elements or scatter_elements indices:
/// the smallest dimension it indexes (so that generated test inputs stay in
/// range); 0 when no such op indexes it.
int64_t gatherIndexBound(Value value);

/// Parses `cpu` or `cuda:N` (no `#dlc.device<>` around it); null on error.
DeviceAttr parseDeviceBody(AsmParser &parser);

/// A dense_resource constant holding `blob`, its key made from `name` (an
/// ONNX initializer or op name) so that the IR printer's output parses back:
/// a resource key is an identifier (letters, digits, '_' and '.').
mlir::DenseResourceElementsAttr resourceConstant(mlir::ShapedType type, llvm::StringRef name,
                                                 mlir::AsmResourceBlob blob);

/// Elementwise ops (binary and unary math, compare, select, cast): each
/// result element reads the operands' elements at its (broadcast) index.
inline bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>();
}

/// The device pin of `op` (its `device` attribute), or null when it has none.
inline DeviceAttr getDevicePin(Operation *op) {
  return op->getAttrOfType<DeviceAttr>(attrs::kDevice);
}
} // namespace dlc

#endif // DLC_DIALECT_DLCOPS_H
