//===- ScheduleIR.cpp - the schedule and memory plan, as attributes --------===//

#include "compiler/Pipeline/ScheduleIR.h"
#include "Interpreter/Interpreter.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace dlc::schedule;
namespace aw = dlc::artifact_writer;

namespace {

dlc::BufferAttr bufferAttr(Builder &b, const BufferInfo &buffer) {
  DenseI64ArrayAttr maxShape =
      buffer.maxShape.empty() ? DenseI64ArrayAttr() : b.getDenseI64ArrayAttr(buffer.maxShape);
  return dlc::BufferAttr::get(b.getContext(), buffer.name, buffer.device, buffer.viewOf,
                              buffer.crossDevice, buffer.persistent, maxShape,
                              buffer.offset ? int64_t(*buffer.offset) : -1);
}

dlc::StepAttr stepAttr(Builder &b, const aw::Step &step) {
  bool call = step.kind == aw::StepKind::Call, copy = step.kind == aw::StepKind::Copy;
  bool sync = step.kind == aw::StepKind::RecordEvent || step.kind == aw::StepKind::WaitEvent;
  DenseI64ArrayAttr buffers;
  if (call || copy)
    buffers = b.getDenseI64ArrayAttr(SmallVector<int64_t>(step.buffers.begin(), step.buffers.end()));
  return dlc::StepAttr::get(b.getContext(), dlc::attrs::kStepKinds[int(step.kind)],
                            call ? int64_t(step.kernel) : -1,
                            buffers, call ? int64_t(step.outputCount) : -1,
                            sync ? int64_t(step.event) : -1);
}

/// Reads attributes of the schedule, reporting the first malformed one.
struct Reader {
  func::FuncOp func;
  bool ok = true;

  InFlightDiagnostic fail(const Twine &what) {
    ok = false;
    return func.emitError() << "malformed schedule: " << what
                            << " (run dlc-schedule and dlc-plan-memory first)";
  }
};

} // namespace

void dlc::schedule::writeSchedule(func::FuncOp func, const Schedule &schedule) {
  Builder b(func.getContext());
  SmallVector<Attribute> devices(schedule.devices.begin(), schedule.devices.end());
  func->setAttr(attrs::kDevices, b.getArrayAttr(devices));
  SmallVector<Attribute> buffers;
  for (const BufferInfo &buffer : schedule.buffers)
    buffers.push_back(bufferAttr(b, buffer));
  func->setAttr(attrs::kBuffers, b.getArrayAttr(buffers));
  SmallVector<Attribute> lists;
  for (const auto &steps : schedule.steps) {
    SmallVector<Attribute> list;
    for (const aw::Step &step : steps)
      list.push_back(stepAttr(b, step));
    lists.push_back(b.getArrayAttr(list));
  }
  func->setAttr(attrs::kSteps, b.getArrayAttr(lists));
  func->setAttr(attrs::kEventCount, b.getI64IntegerAttr(schedule.eventCount));
  if (schedule.planned()) {
    auto i64s = [](const std::vector<uint64_t> &v) { return SmallVector<int64_t>(v.begin(), v.end()); };
    func->setAttr(attrs::kArenaBytes, b.getDenseI64ArrayAttr(i64s(schedule.arenaBytes)));
    func->setAttr(attrs::kPeakLiveBytes, b.getDenseI64ArrayAttr(i64s(schedule.peakLiveBytes)));
  }
  // Each value's buffer: on arguments, and per result on ops.
  llvm::DenseMap<Value, int64_t> bufferOf;
  for (auto [i, value] : llvm::enumerate(schedule.values))
    bufferOf.try_emplace(value, i);
  for (BlockArgument arg : func.getArguments())
    if (auto it = bufferOf.find(arg); it != bufferOf.end())
      func.setArgAttr(arg.getArgNumber(), attrs::kBuffer, b.getI64IntegerAttr(it->second));
  func.walk([&](Operation *op) {
    if (op->getNumResults() == 0)
      return;
    SmallVector<int64_t> ids;
    for (Value result : op->getResults()) {
      auto it = bufferOf.find(result);
      ids.push_back(it == bufferOf.end() ? -1 : it->second);
    }
    if (llvm::any_of(ids, [](int64_t id) { return id >= 0; }))
      op->setAttr(attrs::kBuffer, b.getDenseI64ArrayAttr(ids));
  });
}

namespace {

LogicalResult readDevices(Reader &r, ArrayAttr devices, Schedule &s) {
  for (Attribute a : devices) {
    auto device = dyn_cast<dlc::DeviceAttr>(a);
    if (!device)
      return r.fail("dlc.devices holds a non-device"), failure();
    s.devices.push_back(device);
  }
  return success();
}

// The buffers, each a #dlc.buffer (whose own verifier checked its fields),
// against the devices and each other.
void readBuffers(Reader &r, ArrayAttr buffers, bool needPlan, Schedule &s) {
  for (auto [i, a] : llvm::enumerate(buffers)) {
    std::string where = "buffer " + std::to_string(i);
    auto attr = dyn_cast<dlc::BufferAttr>(a);
    if (!attr)
      return void(r.fail(where + " is not a #dlc.buffer"));
    BufferInfo info;
    info.name = attr.getName().str();
    info.device = attr.getDevice();
    info.viewOf = attr.getViewOf();
    info.crossDevice = attr.getCrossDevice();
    info.persistent = attr.getPersistent();
    if (DenseI64ArrayAttr shape = attr.getMaxShape())
      info.maxShape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
    if (attr.getOffset() >= 0)
      info.offset = attr.getOffset();
    else if (needPlan)
      return void(r.fail(where + " has no offset"));
    if (info.device >= s.devices.size() || info.viewOf >= int64_t(i))
      return void(r.fail(where + " names a device or buffer that does not exist"));
    s.buffers.push_back(std::move(info));
  }
}

LogicalResult readStep(Reader &r, Attribute a, const std::string &where, Schedule &s) {
  auto attr = dyn_cast<dlc::StepAttr>(a);
  if (!attr)
    return r.fail(where + " is not a #dlc.step"), failure();
  aw::Step step;
  ArrayRef<StringLiteral> kinds(dlc::attrs::kStepKinds);
  step.kind = aw::StepKind(llvm::find(kinds, attr.getKind()) - kinds.begin());
  step.kernel = uint32_t(std::max<int64_t>(attr.getKernel(), 0));
  step.outputCount = uint32_t(std::max<int64_t>(attr.getOutputs(), 0));
  step.event = uint32_t(std::max<int64_t>(attr.getEvent(), 0));
  if (DenseI64ArrayAttr ids = attr.getBuffers())
    for (int64_t id : ids.asArrayRef()) {
      if (id >= int64_t(s.buffers.size()))
        return r.fail(where + " uses buffer " + Twine(id) + ", which does not exist"), failure();
      step.buffers.push_back(uint32_t(id));
    }
  s.steps.back().push_back(std::move(step));
  return success();
}

LogicalResult readSteps(Reader &r, ArrayAttr lists, Schedule &s) {
  if (lists.size() != s.devices.size())
    return r.fail("dlc.steps has " + Twine(lists.size()) + " lists for " +
                  Twine(s.devices.size()) + " devices"),
           failure();
  for (auto [d, list] : llvm::enumerate(lists)) {
    s.steps.emplace_back();
    auto steps = dyn_cast<ArrayAttr>(list);
    if (!steps)
      return r.fail("dlc.steps holds a non-list"), failure();
    for (Attribute a : steps)
      if (failed(readStep(r, a, "a step of device " + std::to_string(d), s)))
        return failure();
  }
  return success();
}

void readPlan(Reader &r, func::FuncOp func, bool needPlan, Schedule &s) {
  auto arena = func->getAttrOfType<DenseI64ArrayAttr>(dlc::attrs::kArenaBytes);
  auto peak = func->getAttrOfType<DenseI64ArrayAttr>(dlc::attrs::kPeakLiveBytes);
  if (arena && peak && arena.size() == int64_t(s.devices.size()) && peak.size() == arena.size()) {
    s.arenaBytes.assign(arena.asArrayRef().begin(), arena.asArrayRef().end());
    s.peakLiveBytes.assign(peak.asArrayRef().begin(), peak.asArrayRef().end());
  } else if (needPlan && r.ok) {
    r.fail("@" + func.getSymName() + " has no dlc.arena_bytes and dlc.peak_live_bytes per device");
  }
}

// The values, from each argument's and op result's buffer id.
void readValues(Reader &r, func::FuncOp func, Schedule &s) {
  s.values.assign(s.buffers.size(), Value());
  auto claim = [&](Value value, int64_t id) {
    if (id < 0)
      return;
    if (id >= int64_t(s.values.size()) || s.values[id]) {
      if (r.ok)
        r.fail("buffer " + Twine(id) + " is held by no value or by two");
      return;
    }
    s.values[id] = value;
  };
  for (BlockArgument arg : func.getArguments())
    if (auto id = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), dlc::attrs::kBuffer))
      claim(arg, id.getInt());
  func.walk([&](Operation *op) {
    if (auto ids = op->getAttrOfType<DenseI64ArrayAttr>(dlc::attrs::kBuffer))
      for (auto [result, id] : llvm::zip(op->getResults(), ids.asArrayRef()))
        claim(result, id);
  });
  for (auto [i, value] : llvm::enumerate(s.values))
    if (!value && r.ok)
      r.fail("buffer " + Twine(i) + " is held by no value");
}

} // namespace

FailureOr<Schedule> dlc::schedule::readSchedule(func::FuncOp func, bool needPlan) {
  Reader r{func};
  Schedule s;
  auto devices = func->getAttrOfType<ArrayAttr>(attrs::kDevices);
  auto buffers = func->getAttrOfType<ArrayAttr>(attrs::kBuffers);
  auto lists = func->getAttrOfType<ArrayAttr>(attrs::kSteps);
  auto events = func->getAttrOfType<IntegerAttr>(attrs::kEventCount);
  if (!devices || !buffers || !lists || !events)
    return r.fail("@" + func.getSymName() + " has no dlc.devices, dlc.buffers, dlc.steps "
                  "and dlc.event_count"),
           failure();
  if (failed(readDevices(r, devices, s)))
    return failure();
  readBuffers(r, buffers, needPlan, s);
  if (!r.ok || failed(readSteps(r, lists, s)))
    return failure();
  s.eventCount = events.getInt();
  readPlan(r, func, needPlan, s);
  readValues(r, func, s);
  if (!r.ok)
    return failure();
  return s;
}

FailureOr<uint64_t> dlc::schedule::bufferBytes(Value value, const BufferInfo &buffer) {
  auto type = cast<RankedTensorType>(value.getType());
  FailureOr<aw::DType> dtype = artifactDType(type.getElementType(), value.getLoc());
  if (failed(dtype))
    return failure();
  ArrayRef<int64_t> shape = buffer.maxShape.empty() ? type.getShape() : ArrayRef<int64_t>(buffer.maxShape);
  if (buffer.maxShape.size() != (type.hasStaticShape() ? 0 : size_t(type.getRank())) ||
      llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return emitError(value.getLoc()) << "malformed schedule: buffer '" << buffer.name << "' of "
                                     << type << " has no max_shape of its rank";
  uint64_t bytes = aw::dtypeSize(*dtype);
  for (int64_t d : shape)
    bytes *= uint64_t(d);
  return bytes;
}

FailureOr<aw::DType> dlc::schedule::artifactDType(Type type, Location loc) {
  FailureOr<aw::DType> dtype = refDTypeOf(type); // one enum: the schema's
  if (failed(dtype))
    return emitError(loc) << "unsupported element type " << type;
  return *dtype;
}

std::string KernelTable::name(Operation *op) const {
  return dlc::opName(op, ordinals.lookup(op));
}

unsigned KernelTable::deviceOf(Value value) const {
  Operation *op = value.getDefiningOp();
  return op ? opDevice.lookup(op) : 0;
}

namespace {

// Each op's device and ordinal; the devices the artifact has code for.
LogicalResult readOpDevices(func::FuncOp func, const Schedule &s, KernelTable &table) {
  // Placement takes any registered backend's devices; the artifact has code
  // for two kinds (a backend without a code generator stops here).
  for (dlc::DeviceAttr device : s.devices)
    if (!device.isCpu() && !device.isCuda())
      return func.emitError() << "device " << device.str() << ": no code generator for device kind '"
                              << device.getKind()
                              << "' (the artifact has code for cpu and cuda devices)";
  unsigned ordinal = 0;
  for (Operation *op : dlc::modelOps(func))
    table.ordinals[op] = ordinal++;
  auto result = func.walk([&](Operation *op) {
    dlc::DeviceAttr device = dlc::getDevicePin(op);
    auto known = llvm::find(s.devices, device);
    if (device && known == s.devices.end()) {
      op->emitError() << "malformed schedule: " << device.str() << " is not among dlc.devices";
      return WalkResult::interrupt();
    }
    table.opDevice[op] = device ? known - s.devices.begin() : 0;
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

// Every kernel called once, with its inputs and outputs' buffers.
LogicalResult checkCalls(func::FuncOp func, const Schedule &s, const KernelTable &table) {
  llvm::DenseMap<Value, unsigned> valueBuffer;
  for (auto [i, value] : llvm::enumerate(s.values))
    valueBuffer[value] = i;
  std::vector<bool> called(table.kernels.size(), false);
  for (const auto &steps : s.steps)
    for (const aw::Step &step : steps) {
      if (step.kind != aw::StepKind::Call)
        continue;
      if (step.kernel >= table.kernels.size())
        return func.emitError() << "malformed schedule: a Call of kernel " << step.kernel
                                << ", but the function has " << table.kernels.size()
                                << " dlc.kernel ops";
      const Kernel &kernel = table.kernels[step.kernel];
      std::vector<uint32_t> expected;
      for (Value v : llvm::concat<const Value>(kernel.inputs, kernel.results))
        expected.push_back(valueBuffer.count(v) ? valueBuffer.lookup(v) : UINT32_MAX);
      if (expected != step.buffers || step.outputCount != kernel.outputs.size())
        return kernel.ops.front()->emitError()
               << "malformed schedule: the Call of kernel " << step.kernel
               << " does not pass the kernel's inputs and outputs";
      called[step.kernel] = true;
    }
  for (auto [k, kernel] : llvm::enumerate(table.kernels))
    if (!called[k])
      return kernel.ops.front()->emitError()
             << "malformed schedule: kernel " << k << " has no Call step";
  return success();
}

} // namespace

FailureOr<KernelTable> dlc::schedule::readKernels(func::FuncOp func, const Schedule &s) {
  KernelTable table;
  if (failed(readOpDevices(func, s, table)))
    return failure();
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp>(op) ||
        (isa<dlc::DlcDialect>(op.getDialect()) && !dlc::runsInKernel(&op)))
      continue;
    return op.emitError() << "malformed schedule: '" << table.name(&op)
                          << "' is in no dlc.kernel (run dlc-schedule first)";
  }
  for (auto op : func.getBody().front().getOps<dlc::KernelOp>()) {
    Kernel kernel;
    kernel.op = op;
    kernel.device = table.opDevice.lookup(op);
    kernel.ops = dlc::computeOpsOf(op);
    if (kernel.ops.empty())
      return op.emitError() << "malformed schedule: a kernel with no ops";
    kernel.inputs = dlc::kernelInputs(op);
    kernel.outputs.assign(op.getYield().getValues().begin(), op.getYield().getValues().end());
    kernel.results.assign(op.getResults().begin(), op.getResults().end());
    table.kernels.push_back(std::move(kernel));
  }
  if (failed(checkCalls(func, s, table)))
    return failure();
  return table;
}
