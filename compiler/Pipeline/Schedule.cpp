//===- Schedule.cpp - dlc-schedule: buffers and each device's step list ---===//
//
// After dlc-partition-kernels: every value the steps pass gets a buffer (a
// view for reshapes and copies within a device), and each device a step
// list in the model's order. A kernel is a Call; a copy between devices is a
// Copy on the *source* device's list followed by RecordEvent, and the
// destination waits (WaitEvent) before its first use, by a kernel or by a
// copy (a view of a copied value has no step of its own, so a copy reading
// it waits itself). So every read of a buffer happens on its own device, in
// that device's order. A state argument (dlc.state) gets a persistent
// buffer, and the CPU's list ends with a copy of each state's next value
// into it; a value with a dimension known only at run time is sized by its
// argument's dlc.max_shape. The result is written onto the function
// (ScheduleIR.h); a Call's kernel K is the K-th dlc.kernel op, and an op
// left outside any kernel becomes a kernel of its own.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipeline/SchedulePasses.h"
#include "compiler/Pipeline/ScheduleIR.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace dlc::schedule;
namespace aw = dlc::artifact_writer;

namespace {

/// A kernel's Call: its device, inputs and outputs (the kernel's results).
struct Group {
  unsigned device = 0;
  SmallVector<Value> inputs, outputs;
};

/// What the schedule runs, in the model's order: a kernel (a group) or a copy
/// between devices.
struct Item {
  int group = -1; // else a copy
  Value source, destination;
};

class Scheduler {
public:
  explicit Scheduler(func::FuncOp func) : func(func), ctx(func.getContext()) {}
  LogicalResult run();

private:
  /// A state: the argument holding it as the run starts, and the value the
  /// next run starts from (the returned value named by the same dlc.state).
  struct State {
    std::string name;
    BlockArgument argument;
    Value next;
  };
  LogicalResult checkSignature();
  LogicalResult checkFunction();
  FailureOr<std::vector<int64_t>> maxShapeOf(Value value, int owner);
  LogicalResult addStateWriteBacks();
  void waitForWriter(unsigned buffer, unsigned device);
  unsigned deviceIndex(dlc::DeviceAttr device);
  unsigned deviceOf(Value value);
  FailureOr<unsigned> bufferFor(Value value);
  FailureOr<unsigned> newBuffer(Value value, int owner);
  void wrapBareOps();
  LogicalResult checkOperandDevices(Operation &op, unsigned device);
  LogicalResult addKernel(dlc::KernelOp kernel);
  LogicalResult formGroups();
  void buildSteps();

  func::FuncOp func;
  MLIRContext *ctx;
  Schedule s;
  llvm::DenseMap<Operation *, unsigned> opDevice, ordinals;
  llvm::DenseMap<Value, unsigned> valueBuffer;
  std::vector<Group> groups;
  std::vector<Item> items;
  std::vector<State> states;
  llvm::DenseMap<unsigned, uint32_t> ownerEvent; // storages a copy writes: its event
  std::vector<llvm::DenseSet<uint32_t>> waited;  // per device: events waited for
};

unsigned Scheduler::deviceIndex(dlc::DeviceAttr device) {
  for (auto [i, known] : llvm::enumerate(s.devices))
    if (known == device)
      return i;
  s.devices.push_back(device);
  return s.devices.size() - 1;
}

// Arguments live on the CPU; every other value on its op's device (a copy's
// result on its destination).
unsigned Scheduler::deviceOf(Value value) {
  Operation *op = value.getDefiningOp();
  return op ? opDevice.lookup(op) : 0;
}

// Inputs and outputs are ranked tensors; a dimension known only at run time
// needs its bound (dlc.max_shape); each state argument (dlc.state) has one
// result taking its next value, of its type.
LogicalResult Scheduler::checkSignature() {
  for (Type type : llvm::concat<const Type>(func.getArgumentTypes(), func.getResultTypes()))
    if (!isa<RankedTensorType>(type))
      return func.emitError() << "model inputs and outputs must be ranked tensors, got " << type;
  llvm::StringMap<unsigned> stateIndex;
  for (BlockArgument arg : func.getArguments()) {
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), dlc::attrs::kState);
    if (!name)
      continue;
    if (!stateIndex.try_emplace(name, states.size()).second)
      return func.emitError() << "two arguments hold state '" << name.getValue() << "'";
    if (!cast<RankedTensorType>(arg.getType()).hasStaticShape())
      return func.emitError() << "state '" << name.getValue()
                              << "' has a dimension known only at run time (state is static)";
    states.push_back(State{name.str(), arg, Value()});
  }
  Operation *ret = func.getBody().front().getTerminator();
  for (auto [i, value] : llvm::enumerate(ret->getOperands())) {
    auto name = func.getResultAttrOfType<StringAttr>(i, dlc::attrs::kState);
    if (!name)
      continue;
    auto it = stateIndex.find(name);
    if (it == stateIndex.end())
      return func.emitError() << "result " << i << " is the next value of state '"
                              << name.getValue() << "', which no argument holds";
    State &state = states[it->second];
    if (state.next)
      return func.emitError() << "two results are the next value of state '" << state.name << "'";
    if (value.getType() != state.argument.getType())
      return func.emitError() << "result " << i << " (" << value.getType()
                              << ") is the next value of state '" << state.name << "' ("
                              << state.argument.getType() << ")";
    state.next = value;
  }
  for (const State &state : states)
    if (!state.next)
      return func.emitError() << "state '" << state.name
                              << "' has no result for its next value (a result with dlc.state = \""
                              << state.name << "\")";
  return success();
}

// A compute op outside any kernel (IR written by hand, or a packed weight's
// view whose user went elsewhere) is a kernel of its own.
void Scheduler::wrapBareOps() {
  SmallVector<Operation *> bare;
  for (Operation &op : func.getBody().front())
    if (dlc::runsInKernel(&op))
      bare.push_back(&op);
  for (Operation *op : bare)
    dlc::wrapInKernel(op);
}

LogicalResult Scheduler::checkFunction() {
  // Before anything holds a value: wrapping replaces the bare ops' results.
  wrapBareOps();
  if (failed(checkSignature()))
    return failure();
  s.devices.push_back(dlc::DeviceAttr::getCpu(ctx));
  unsigned ordinal = 0;
  for (Operation *op : dlc::modelOps(func))
    ordinals[op] = ordinal++;
  for (Operation &top : func.getBody().front()) {
    if (isa<func::ReturnOp>(top))
      continue;
    if (!isa<dlc::DlcDialect>(top.getDialect()))
      return top.emitError() << "cannot compile '" << top.getName()
                             << "': only dlc ops are supported in a model";
    dlc::DeviceAttr device = dlc::getDevicePin(&top);
    opDevice[&top] = device ? deviceIndex(device) : 0;
    auto kernel = dyn_cast<dlc::KernelOp>(top);
    for (Operation *op : kernel ? dlc::computeOpsOf(kernel) : SmallVector<Operation *>{&top})
      if (failed(checkOperandDevices(*op, opDevice[&top])))
        return failure();
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (Value v : ret.getOperands())
    if (deviceOf(v) != 0)
      return ret.emitError() << "model outputs must live on the cpu, but one "
                                "lives on "
                             << s.devices[deviceOf(v)].str()
                             << ": copy it back with dlc.copy";
  return success();
}

// Values cross devices only through dlc.copy (placement inserts them).
LogicalResult Scheduler::checkOperandDevices(Operation &op, unsigned device) {
  opDevice[&op] = device;
  if (isa<dlc::CopyOp>(op))
    return success();
  for (Value operand : op.getOperands()) {
    if (deviceOf(operand) == device || operand.getParentBlock() != &func.getBody().front())
      continue;
    std::string all;
    for (dlc::DeviceAttr d : s.devices)
      all += (all.empty() ? "" : ",") + d.str();
    return op.emitError() << "'" << dlc::opName(&op, ordinals[&op]) << "' runs on "
                          << s.devices[device].str() << " but its operand lives on "
                          << s.devices[deviceOf(operand)].str()
                          << ": values cross devices only through dlc.copy; compile with --devices="
                          << all << " so that placement inserts the copies";
  }
  return success();
}

// The op that makes `value`: for a kernel's result, the op in its body.
static Operation *producerOf(Value value) {
  auto kernel = value.getDefiningOp<dlc::KernelOp>();
  if (!kernel)
    return value.getDefiningOp();
  Value inside = kernel.getYield().getValues()[cast<OpResult>(value).getResultNumber()];
  return inside.getDefiningOp() ? inside.getDefiningOp() : kernel.getOperation();
}

// A buffer for `value`: its own bytes (owner < 0) or a view of `owner`'s.
FailureOr<unsigned> Scheduler::newBuffer(Value value, int owner) {
  if (failed(artifactDType(cast<RankedTensorType>(value.getType()).getElementType(),
                           value.getLoc())))
    return failure();
  BufferInfo buffer;
  if (auto arg = dyn_cast<BlockArgument>(value))
    buffer.name = "input:" + std::to_string(arg.getArgNumber());
  else
    buffer.name = dlc::opName(producerOf(value), ordinals[producerOf(value)]);
  for (const State &state : states)
    if (value == state.argument) {
      buffer.name = state.name;
      buffer.persistent = true;
    }
  FailureOr<std::vector<int64_t>> maxShape = maxShapeOf(value, owner);
  if (failed(maxShape))
    return failure();
  buffer.maxShape = std::move(*maxShape);
  buffer.device = owner < 0 ? deviceOf(value) : s.buffers[owner].device;
  buffer.viewOf = owner;
  s.buffers.push_back(buffer);
  s.values.push_back(value);
  valueBuffer[value] = s.buffers.size() - 1;
  return s.buffers.size() - 1;
}

// The largest shape of a value with a dimension known only at run time: an
// argument's dlc.max_shape, or that of the value it views or copies (`owner`,
// or a copy's source). (The dialect gives compute ops static shapes.)
FailureOr<std::vector<int64_t>> Scheduler::maxShapeOf(Value value, int owner) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.hasStaticShape())
    return std::vector<int64_t>();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto bound = func.getArgAttrOfType<DenseI64ArrayAttr>(arg.getArgNumber(), dlc::attrs::kMaxShape);
    bool fits = bound && bound.size() == type.getRank();
    for (int64_t d = 0; fits && d < type.getRank(); ++d)
      fits = bound[d] >= 0 && (type.isDynamicDim(d) || bound[d] == type.getDimSize(d));
    if (!fits)
      return func.emitError() << "input " << arg.getArgNumber() << " (" << type
                              << ") has a dimension known only at run time and no bound: give it "
                                 "dlc.max_shape, an array of its rank (each static dim as it is)";
    return std::vector<int64_t>(bound.asArrayRef().begin(), bound.asArrayRef().end());
  }
  auto copy = value.getDefiningOp<dlc::CopyOp>();
  Value source = copy ? copy.getInput() : Value();
  if (owner >= 0 && value.getType() == s.values[owner].getType())
    return s.buffers[owner].maxShape;
  if (source && valueBuffer.count(source))
    return s.buffers[valueBuffer.lookup(source)].maxShape;
  return emitError(value.getLoc()) << "internal error: no bound for " << type;
}

// The buffer holding `value`, made on first use for constants.
FailureOr<unsigned> Scheduler::bufferFor(Value value) {
  auto it = valueBuffer.find(value);
  if (it != valueBuffer.end())
    return it->second;
  if (!value.getDefiningOp<dlc::ConstantOp>())
    return emitError(value.getLoc()) << "internal error: value has no buffer";
  return newBuffer(value, -1);
}

// A kernel: a Call of its inputs, then its outputs (the kernel's results).
LogicalResult Scheduler::addKernel(dlc::KernelOp kernel) {
  Group group;
  group.device = opDevice[kernel];
  group.inputs = dlc::kernelInputs(kernel);
  group.outputs.assign(kernel.getResults().begin(), kernel.getResults().end());
  for (Value input : group.inputs)
    if (failed(bufferFor(input)))
      return failure();
  for (Value output : group.outputs)
    if (failed(newBuffer(output, -1)))
      return failure();
  items.push_back(Item{static_cast<int>(groups.size()), {}, {}});
  groups.push_back(std::move(group));
  return success();
}

LogicalResult Scheduler::formGroups() {
  for (BlockArgument arg : func.getArguments())
    if (failed(newBuffer(arg, -1)))
      return failure();
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp, dlc::ConstantOp>(op))
      continue;
    if (auto kernel = dyn_cast<dlc::KernelOp>(op)) {
      if (failed(addKernel(kernel)))
        return failure();
      continue;
    }
    // Reshapes, and copies within a device, are views of their input's bytes.
    auto copy = dyn_cast<dlc::CopyOp>(op);
    if (!copy || deviceOf(copy.getInput()) == opDevice[&op]) {
      FailureOr<unsigned> source;
      if (failed(source = bufferFor(op.getOperand(0))) ||
          failed(newBuffer(op.getResult(0), s.owner(*source))))
        return failure();
      continue;
    }
    if (failed(bufferFor(copy.getInput())) || failed(newBuffer(copy.getResult(), -1)))
      return failure();
    s.buffers[valueBuffer.lookup(copy.getResult())].crossDevice = true;
    items.push_back(Item{-1, copy.getInput(), copy.getResult()});
  }
  return success();
}

// A buffer another device's copy writes is read after that copy's event, by
// kernels and by copies alike.
void Scheduler::waitForWriter(unsigned buffer, unsigned device) {
  auto event = ownerEvent.find(s.owner(buffer));
  if (event != ownerEvent.end() && waited[device].insert(event->second).second)
    s.steps[device].push_back(aw::Step{aw::StepKind::WaitEvent, 0, {}, event->second});
}

void Scheduler::buildSteps() {
  s.steps.assign(s.devices.size(), {});
  waited.assign(s.devices.size(), {});
  for (const Item &item : items) {
    if (item.group < 0) {
      unsigned from = deviceOf(item.source);
      unsigned source = valueBuffer.lookup(item.source);
      unsigned destination = valueBuffer.lookup(item.destination);
      waitForWriter(source, from);
      s.steps[from].push_back(aw::Step{aw::StepKind::Copy, 0, {source, destination}, 0, 0});
      ownerEvent[s.owner(destination)] = s.eventCount;
      s.steps[from].push_back(aw::Step{aw::StepKind::RecordEvent, 0, {}, s.eventCount, 0});
      ++s.eventCount;
      continue;
    }
    const Group &group = groups[item.group];
    aw::Step call{aw::StepKind::Call, static_cast<uint32_t>(item.group), {}, 0,
                  static_cast<uint32_t>(group.outputs.size())};
    for (Value v : llvm::concat<const Value>(group.inputs, group.outputs)) {
      unsigned buffer = valueBuffer.lookup(v);
      waitForWriter(buffer, group.device);
      call.buffers.push_back(buffer);
    }
    s.steps[group.device].push_back(std::move(call));
  }
}

// Each state's next value is copied into the state's bytes after every
// step that reads the old value. Both live on the CPU (arguments and results
// do), and every read of a CPU buffer is a step of the CPU's list (a copy
// runs on its source's), so the copy ends the CPU's list, after a wait for
// the next value's writer; the schedule verifier proves the result. A state
// whose next value is its own bytes needs no copy.
LogicalResult Scheduler::addStateWriteBacks() {
  Operation *ret = func.getBody().front().getTerminator();
  for (const State &state : states) {
    unsigned target = valueBuffer.lookup(state.argument);
    unsigned source = valueBuffer.lookup(state.next);
    if (s.owner(source) == target)
      continue;
    if (s.buffers[s.owner(source)].persistent)
      return func.emitError() << "the next value of state '" << state.name
                              << "' is another state's value as the run starts; copy it "
                                 "into a value of its own first";
    // An output that views the old value gets bytes of its own, copied
    // first (the host reads outputs after the update).
    for (Value output : ret->getOperands()) {
      unsigned buffer = valueBuffer.lookup(output);
      if (s.owner(buffer) != target || output == state.next)
        continue;
      if (output == state.argument)
        return func.emitError() << "an output returns state '" << state.name
                                << "' as the run starts, which the run then updates; copy it "
                                   "into a value of its own first";
      if (s.buffers[buffer].viewOf < 0)
        continue; // already given its own bytes (returned twice)
      s.buffers[buffer].viewOf = -1;
      s.steps[0].insert(s.steps[0].begin(), aw::Step{aw::StepKind::Copy, 0, {target, buffer}, 0, 0});
    }
    waitForWriter(source, 0);
    s.steps[0].push_back(aw::Step{aw::StepKind::Copy, 0, {source, target}, 0, 0});
  }
  return success();
}

LogicalResult Scheduler::run() {
  if (failed(checkFunction()) || failed(formGroups()))
    return failure();
  buildSteps();
  // Outputs the steps do not make (a returned constant) get their buffer too.
  for (Value v : func.getBody().front().getTerminator()->getOperands())
    if (failed(bufferFor(v)))
      return failure();
  if (failed(addStateWriteBacks()))
    return failure();
  // Kernel K is the K-th dlc.kernel op: the groups are made in that order.
  writeSchedule(func, s);
  return success();
}

struct SchedulePass : PassWrapper<SchedulePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SchedulePass)
  SchedulePass() = default;
  SchedulePass(const SchedulePass &other) : PassWrapper(other) {}
  explicit SchedulePass(std::string entryName) { entry = entryName; }
  StringRef getArgument() const override { return "dlc-schedule"; }
  // It writes #dlc.device attributes, also on a model with no dlc op.
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<dlc::DlcDialect>();
  }
  StringRef getDescription() const override {
    return "Buffers and each device's step list of the entry function, as attributes";
  }
  void runOnOperation() override {
    func::FuncOp func = dlc::entryFunction(getOperation(), entry);
    if (!func || failed(Scheduler(func).run()))
      signalPassFailure();
  }
  Option<std::string> entry{*this, "entry", llvm::cl::desc("The function to schedule"),
                            llvm::cl::init("main")};
};

} // namespace

func::FuncOp dlc::entryFunction(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    module.emitError() << "no function @" << entry << " with a body in the model";
    return nullptr;
  }
  return func;
}

std::unique_ptr<Pass> dlc::createSchedule(StringRef entry) {
  return std::make_unique<SchedulePass>(entry.str());
}

void dlc::registerSchedulePasses() {
  PassRegistration<SchedulePass>();
  registerPlanMemory();
}
