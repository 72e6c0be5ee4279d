//===- ScheduleIR.h - the schedule and memory plan, as attributes ----------===//
//
// What dlc-schedule decides and dlc-plan-memory adds, kept on the entry
// function so that they print, parse back and are tested as IR:
//
//   func.func @main(%x {dlc.buffer = 0}) attributes {
//     dlc.devices = [#dlc.device<cpu>, #dlc.device<cuda:0>],
//     dlc.buffers = [#dlc.buffer<name = "input:0", device = 0, offset = 0>,
//                    #dlc.buffer<name = "/fc/MatMul", device = 1, cross_device = true, offset = 0>,
//                    #dlc.buffer<name = "/flat", device = 0, view_of = 3, offset = 128>, ...],
//     dlc.steps = [[#dlc.step<kind = "copy", buffers = [0, 1]>,
//                   #dlc.step<kind = "record", event = 0>, ...],
//                  [#dlc.step<kind = "wait", event = 0>,
//                   #dlc.step<kind = "call", kernel = 0, buffers = [1, 2], outputs = 1>]],
//     dlc.event_count = 1, dlc.arena_bytes = array<i64: ...>,
//     dlc.peak_live_bytes = array<i64: ...>}
//   %y = dlc.kernel on cuda:0 -> ... { dlc.matmul ...; dlc.yield ... }
//       {dlc.buffer = array<i64: 2>}
//
// #dlc.buffer and #dlc.step are the dialect's (dialects/dlc/DlcBase.td):
// their verifiers check each one's own fields when the IR is parsed or
// built; readSchedule checks them against each other and the function.
// A buffer is a value's bytes: its name, its device (an index into
// dlc.devices), and either its own storage or `view_of` another buffer
// (reshapes, copies within a device). `cross_device`: another device's stream
// writes it (a copy's destination), so it never shares bytes. `persistent`:
// a state argument's bytes (dlc.state), kept from one run to the next and
// never shared; the schedule ends by copying the state's new value into
// them. `max_shape`: a value with a dimension known only at run time, sized
// for that largest shape. `offset`
// (dlc-plan-memory): where the storage lives in its device's arena. Constant
// buffers live in segments, in buffer order. A Call step's `kernel = K` is the
// K-th dlc.kernel op of the function.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_PIPELINE_SCHEDULEIR_H
#define DLC_COMPILER_PIPELINE_SCHEDULEIR_H

#include "ArtifactWriter.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace dlc::schedule {

struct BufferInfo {
  std::string name;
  unsigned device = 0;
  int32_t viewOf = -1;
  bool crossDevice = false;
  bool persistent = false;
  std::vector<int64_t> maxShape; // empty: the value's shape is static
  std::optional<uint64_t> offset; // set by dlc-plan-memory
};

struct Schedule {
  std::vector<DeviceAttr> devices; // cpu first
  std::vector<BufferInfo> buffers;
  std::vector<mlir::Value> values; // buffers[i] holds values[i]
  std::vector<std::vector<artifact_writer::Step>> steps; // one list per device
  uint32_t eventCount = 0;
  std::vector<uint64_t> arenaBytes, peakLiveBytes; // set by dlc-plan-memory

  /// The buffer that owns buffer `i`'s bytes (itself unless a view).
  unsigned owner(unsigned i) const { return buffers[i].viewOf >= 0 ? buffers[i].viewOf : i; }
  bool planned() const { return !arenaBytes.empty(); }
};

/// Kernel K, the K-th dlc.kernel op of the function: its compute ops, on one
/// device; the values it reads and, in its body, those it yields (the op's
/// `results` outside it).
struct Kernel {
  KernelOp op;
  unsigned device = 0;
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::SmallVector<mlir::Value> inputs, outputs, results;
};

/// The function's kernels, each op's device (an index into the schedule's
/// devices) and the names the artifact gives ops (`<op>_<n>`).
struct KernelTable {
  std::vector<Kernel> kernels;
  llvm::DenseMap<mlir::Operation *, unsigned> opDevice, ordinals;

  std::string name(mlir::Operation *op) const;
  /// The device of the op defining `value` (an argument's: the CPU).
  unsigned deviceOf(mlir::Value value) const;
};

/// The kernels of a scheduled `func`, checked against `schedule`: every
/// device a cpu or cuda device (the kinds with code generators), every
/// compute op in a kernel, every kernel called once with its inputs and
/// outputs. An error on the op at fault otherwise.
mlir::FailureOr<KernelTable> readKernels(mlir::func::FuncOp func, const Schedule &schedule);

/// Writes `schedule` onto `func` (its attributes, and each value's buffer).
void writeSchedule(mlir::func::FuncOp func, const Schedule &schedule);

/// Reads what dlc-schedule (and dlc-plan-memory, when `needPlan`) wrote on
/// `func`; a missing or malformed piece is an error on `func` naming it.
mlir::FailureOr<Schedule> readSchedule(mlir::func::FuncOp func, bool needPlan);

/// The bytes `value`'s buffer needs: its shape's, or `buffer.maxShape`'s.
mlir::FailureOr<uint64_t> bufferBytes(mlir::Value value, const BufferInfo &buffer);

/// The element type as the artifact records it (an error at `loc` otherwise).
mlir::FailureOr<artifact_writer::DType> artifactDType(mlir::Type type, mlir::Location loc);

} // namespace dlc::schedule

#endif // DLC_COMPILER_PIPELINE_SCHEDULEIR_H
