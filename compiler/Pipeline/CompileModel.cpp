//===- CompileModel.cpp - a dlc model to a .dlcm artifact -----------------===//

#include "compiler/Pipeline/CompileModel.h"
#include "compiler/Artifact/ArtifactWriter.h"
#include "compiler/Pipeline/MemoryPlanner.h"
#include "compiler/Target/CUDA/CudaEmitter.h"
#include "compiler/Target/CUDA/EmulatedHostCode.h"
#include "compiler/Target/CUDA/Nvrtc.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "dlc/runtime.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;
namespace aw = dlc::artifact_writer;

namespace {

FailureOr<aw::DType> artifactDType(Type type, Location loc) {
  if (type.isF32()) return aw::DType::F32;
  if (type.isF16()) return aw::DType::F16;
  if (type.isBF16()) return aw::DType::BF16;
  if (type.isSignlessInteger(32)) return aw::DType::I32;
  if (type.isSignlessInteger(64)) return aw::DType::I64;
  if (type.isSignlessInteger(1)) return aw::DType::I1;
  return emitError(loc) << "unsupported element type " << type;
}

/// The op's name, as placement and its dumps name it: its location name
/// (ONNX node names become these), else "<op>_<n>" by position.
std::string nameOf(Operation *op, unsigned ordinal) {
  return dlc::opName(op, ordinal);
}

/// The bytes of a constant, one element after another as the runtime reads
/// them (i1 as one byte each; MLIR packs them as bits).
FailureOr<std::string> constantBytes(ElementsAttr attr, Location loc) {
  auto type = cast<ShapedType>(attr.getType());
  int64_t count = type.getNumElements();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (type.getElementType().isInteger(1)) {
      std::string bytes;
      for (bool v : dense.getValues<bool>())
        bytes.push_back(v ? 1 : 0);
      return bytes;
    }
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      std::string bytes;
      bytes.reserve(raw.size() * count);
      for (int64_t i = 0; i < count; ++i)
        bytes.append(raw.data(), raw.size());
      return bytes;
    }
    return std::string(raw.data(), raw.size());
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob()) {
      ArrayRef<char> data = blob->getData();
      return std::string(data.data(), data.size());
    }
    return emitError(loc) << "constant resource '"
                           << resource.getRawHandle().getKey()
                           << "' has no data";
  }
  return emitError(loc) << "unsupported constant attribute";
}


/// A group of ops on one device that becomes one kernel.
struct Group {
  unsigned device = 0;
  SmallVector<Operation *> ops;
  SmallVector<Value> inputs, outputs;
};

/// What the schedule runs, in the model's order: a kernel (a group) or a copy
/// between devices.
struct Item {
  int group = -1; // else a copy
  Value source, destination;
};

/// Where the bytes of a buffer live: the arena (with a live range) or a
/// constant segment.
struct Storage {
  uint64_t size = 0;
  unsigned device = 0;
  int64_t first = INT64_MAX, last = -1; // positions in its device's step list
  int32_t constantSegment = -1;
  /// Written by another device's stream (a copy): it never shares bytes, so
  /// the two streams need no ordering beyond the copy's event.
  bool writtenAcrossDevices = false;
  /// The buffer that owns these bytes (the first made on them).
  int32_t owner = -1;
};

class ModelCompiler {
public:
  ModelCompiler(func::FuncOp func, const dlc::CodegenOptions &options)
      : func(func), options(options), ctx(func.getContext()) {}

  FailureOr<std::string> run();

private:
  LogicalResult checkFunction();
  unsigned deviceIndex(dlc::DeviceAttr device);
  unsigned deviceOf(Value value);
  LogicalResult formGroups();
  LogicalResult closeGroup();
  FailureOr<unsigned> bufferFor(Value value);
  FailureOr<unsigned> newBuffer(Value value, int storage);
  void outlineGroup(ModuleOp kernels, const Group &group, unsigned index);
  static void dropEventWait(std::vector<std::vector<aw::Step>> &schedules, int which);
  LogicalResult verifyArtifactSchedule(const std::string &artifact);

  func::FuncOp func;
  const dlc::CodegenOptions &options;
  MLIRContext *ctx;

  std::vector<dlc::DeviceAttr> devices; // cpu first
  llvm::DenseMap<Operation *, unsigned> opDevice;
  std::vector<Group> groups;
  std::vector<Item> items;
  Group open;
  std::vector<Storage> storages;
  std::vector<aw::Buffer> buffers;
  std::vector<int> bufferStorage;
  llvm::DenseMap<Value, unsigned> valueBuffer;
  std::vector<std::string> segments;
  llvm::DenseMap<Operation *, unsigned> ordinals;
};

unsigned ModelCompiler::deviceIndex(dlc::DeviceAttr device) {
  for (auto [i, known] : llvm::enumerate(devices))
    if (known == device)
      return i;
  devices.push_back(device);
  return devices.size() - 1;
}

// Arguments live on the CPU; every other value on its op's device (a copy's
// result on its destination).
unsigned ModelCompiler::deviceOf(Value value) {
  Operation *op = value.getDefiningOp();
  return op ? opDevice.lookup(op) : 0;
}

LogicalResult ModelCompiler::checkFunction() {
  for (Type type : llvm::concat<const Type>(func.getArgumentTypes(),
                                            func.getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return func.emitError() << "model inputs and outputs must be statically "
                                 "shaped tensors, got "
                              << type;
  }
  devices.push_back(dlc::DeviceAttr::get(ctx, dlc::DeviceKind::Cpu, 0));
  unsigned ordinal = 0;
  for (Operation &op : func.getBody().front()) {
    ordinals[&op] = ordinal++;
    if (isa<func::ReturnOp>(op))
      continue;
    if (!isa<dlc::DlcDialect>(op.getDialect()))
      return op.emitError() << "cannot compile '" << op.getName()
                            << "': only dlc ops are supported in a model";
    dlc::DeviceAttr device = dlc::getDevicePin(&op);
    opDevice[&op] = device ? deviceIndex(device) : 0;
    if (isa<dlc::CopyOp>(op))
      continue;
    // Values cross devices only through dlc.copy (placement inserts them).
    for (Value operand : op.getOperands())
      if (deviceOf(operand) != opDevice[&op]) {
        std::string all;
        for (dlc::DeviceAttr d : devices)
          all += (all.empty() ? "" : ",") + d.str();
        return op.emitError()
               << "'" << nameOf(&op, ordinals[&op]) << "' runs on "
               << devices[opDevice[&op]].str() << " but its operand lives on "
               << devices[deviceOf(operand)].str()
               << ": values cross devices only through dlc.copy; compile with --devices="
               << all << " so that placement inserts the copies";
      }
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (Value v : ret.getOperands())
    if (deviceOf(v) != 0)
      return ret.emitError() << "model outputs must live on the cpu, but one "
                                "lives on "
                             << devices[deviceOf(v)].str()
                             << ": copy it back with dlc.copy";
  return success();
}

FailureOr<unsigned> ModelCompiler::newBuffer(Value value, int storage) {
  auto type = cast<RankedTensorType>(value.getType());
  Location loc = value.getLoc();
  FailureOr<aw::DType> dtype = artifactDType(type.getElementType(), loc);
  if (failed(dtype))
    return failure();
  aw::Buffer buffer;
  if (auto arg = dyn_cast<BlockArgument>(value))
    buffer.name = "input:" + std::to_string(arg.getArgNumber());
  else
    buffer.name = nameOf(value.getDefiningOp(), ordinals[value.getDefiningOp()]);
  buffer.dtype = *dtype;
  buffer.shape.assign(type.getShape().begin(), type.getShape().end());
  buffer.size = type.getNumElements() * aw::dtypeSize(*dtype);
  if (storage < 0) {
    storages.push_back(Storage{buffer.size, deviceOf(value)});
    storage = storages.size() - 1;
  }
  // The first buffer of a storage owns its bytes; later ones are views.
  if (storages[storage].owner >= 0)
    buffer.viewOf = storages[storage].owner;
  else
    storages[storage].owner = buffers.size();
  buffer.device = storages[storage].device;
  buffers.push_back(buffer);
  bufferStorage.push_back(storage);
  valueBuffer[value] = buffers.size() - 1;
  return buffers.size() - 1;
}

// The buffer holding `value`, made on first use for constants.
FailureOr<unsigned> ModelCompiler::bufferFor(Value value) {
  auto it = valueBuffer.find(value);
  if (it != valueBuffer.end())
    return it->second;
  auto constant = value.getDefiningOp<dlc::ConstantOp>();
  if (!constant)
    return emitError(value.getLoc()) << "internal error: value has no buffer";
  FailureOr<std::string> bytes = constantBytes(constant.getValue(), constant.getLoc());
  if (failed(bytes))
    return failure();
  segments.push_back(std::move(*bytes));
  storages.push_back(Storage{segments.back().size(), deviceOf(value)});
  storages.back().constantSegment = segments.size() - 1;
  return newBuffer(value, storages.size() - 1);
}

LogicalResult ModelCompiler::closeGroup() {
  if (open.ops.empty())
    return success();
  dlc::kernelInterface(open.ops, open.inputs, open.outputs);
  for (Value input : open.inputs)
    if (failed(bufferFor(input)))
      return failure();
  for (Value output : open.outputs)
    if (failed(newBuffer(output, -1)))
      return failure();
  items.push_back(Item{static_cast<int>(groups.size()), {}, {}});
  groups.push_back(std::move(open));
  open = Group();
  return success();
}

LogicalResult ModelCompiler::formGroups() {
  for (BlockArgument arg : func.getArguments())
    if (failed(newBuffer(arg, -1)))
      return failure();
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp, dlc::ConstantOp>(op))
      continue;
    // Reshapes, and copies within a device, are views of their input's bytes.
    auto copy = dyn_cast<dlc::CopyOp>(op);
    bool crossDevice = copy && deviceOf(copy.getInput()) != opDevice[&op];
    // (A reshape in a kernel, a packed weight's view, is part of its code.)
    if ((isa<dlc::ReshapeOp>(op) && !op.hasAttr(::dlc::attrs::kKernel)) || (copy && !crossDevice)) {
      if (failed(closeGroup()))
        return failure();
      Value input = op.getOperand(0);
      FailureOr<unsigned> source = bufferFor(input);
      if (failed(source) || failed(newBuffer(op.getResult(0), bufferStorage[*source])))
        return failure();
      continue;
    }
    if (crossDevice) {
      if (failed(closeGroup()) || failed(bufferFor(copy.getInput())) ||
          failed(newBuffer(copy.getResult(), -1)))
        return failure();
      storages[bufferStorage[valueBuffer.lookup(copy.getResult())]]
          .writtenAcrossDevices = true;
      items.push_back(Item{-1, copy.getInput(), copy.getResult()});
      continue;
    }
    // Kernels as dlc-partition-kernels formed them.
    auto kernelOf = [](Operation *o) {
      auto id = o->getAttrOfType<IntegerAttr>(::dlc::attrs::kKernel);
      return id ? id.getInt() : -1;
    };
    bool joins = !open.ops.empty() && kernelOf(&op) >= 0 &&
                 kernelOf(&op) == kernelOf(open.ops.front());
    if (!joins && failed(closeGroup()))
      return failure();
    open.device = opDevice[&op];
    open.ops.push_back(&op);
  }
  return closeGroup();
}

void ModelCompiler::outlineGroup(ModuleOp kernels, const Group &group,
                                 unsigned index) {
  Location loc = group.ops.front()->getLoc();
  SmallVector<Type> argTypes;
  for (Value v : llvm::concat<const Value>(group.inputs, group.outputs)) {
    auto type = cast<RankedTensorType>(v.getType());
    argTypes.push_back(MemRefType::get(type.getShape(), type.getElementType()));
  }
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(kernels.getBody());
  auto kernel = builder.create<func::FuncOp>(
      loc, "k" + std::to_string(index), FunctionType::get(ctx, argTypes, {}));
  Block *entry = kernel.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  IRMapping mapping;
  for (auto [i, input] : llvm::enumerate(group.inputs))
    mapping.map(input, builder.create<bufferization::ToTensorOp>(
                           loc, input.getType(), entry->getArgument(i),
                           /*restrict=*/true, /*writable=*/false));
  for (Operation *op : group.ops) {
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand) && dlc::isInlinableConstant(operand.getDefiningOp()))
        builder.clone(*operand.getDefiningOp(), mapping);
    builder.clone(*op, mapping);
  }
  for (auto [i, output] : llvm::enumerate(group.outputs)) {
    auto store = builder.create<bufferization::MaterializeInDestinationOp>(
        loc, TypeRange{}, mapping.lookup(output),
        entry->getArgument(group.inputs.size() + i));
    store.setRestrict(true);
    store.setWritable(true);
  }
  builder.create<func::ReturnOp>(loc);
}

FailureOr<std::string> ModelCompiler::run() {
  if (failed(checkFunction()))
    return failure();
  if (failed(formGroups()))
    return failure();

  // Per device, its steps in the model's order. A copy runs on the source
  // device's stream (every read of a buffer then happens on its own device,
  // in that device's order) and records an event that the destination waits
  // for before its first use.
  std::vector<std::vector<aw::Step>> schedules(devices.size());
  llvm::DenseMap<int, uint32_t> storageEvent;           // written by a copy
  std::vector<llvm::DenseSet<uint32_t>> waited(devices.size());
  uint32_t eventCount = 0;
  auto use = [&](unsigned buffer, unsigned device) {
    Storage &storage = storages[bufferStorage[buffer]];
    int64_t position = schedules[device].size();
    storage.first = std::min<int64_t>(storage.first, position);
    storage.last = std::max<int64_t>(storage.last, position);
  };
  // A buffer another device's copy writes is read after that copy's event,
  // by kernels and by copies alike: a view (a reshape) of a copied value
  // has no step of its own, so a copy reading it must wait there itself.
  auto waitForWriter = [&](unsigned buffer, unsigned device) {
    auto event = storageEvent.find(bufferStorage[buffer]);
    if (event != storageEvent.end() && waited[device].insert(event->second).second)
      schedules[device].push_back(aw::Step{aw::StepKind::WaitEvent, 0, {}, event->second});
  };
  for (const Item &item : items) {
    if (item.group < 0) {
      unsigned from = deviceOf(item.source);
      unsigned source = valueBuffer.lookup(item.source);
      unsigned destination = valueBuffer.lookup(item.destination);
      waitForWriter(source, from);
      use(source, from);
      schedules[from].push_back(aw::Step{aw::StepKind::Copy, 0, {source, destination}, 0, 0});
      storageEvent[bufferStorage[destination]] = eventCount;
      schedules[from].push_back(aw::Step{aw::StepKind::RecordEvent, 0, {}, eventCount, 0});
      ++eventCount;
      continue;
    }
    const Group &group = groups[item.group];
    unsigned device = group.device;
    aw::Step call{aw::StepKind::Call, static_cast<uint32_t>(item.group), {}, 0,
                  static_cast<uint32_t>(group.outputs.size())};
    for (Value v : llvm::concat<const Value>(group.inputs, group.outputs)) {
      unsigned buffer = valueBuffer.lookup(v);
      waitForWriter(buffer, device);
      call.buffers.push_back(buffer);
    }
    for (unsigned buffer : call.buffers)
      use(buffer, device);
    schedules[device].push_back(std::move(call));
  }
  // Outputs are read by the host once every stream has finished the run, so
  // no stream waits for them: the CPU's list stays free to start the next
  // pipelined run while the GPUs finish this one.
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (Value v : ret.getOperands())
    if (failed(bufferFor(v)))
      return failure();
  for (Value v : ret.getOperands()) {
    Storage &storage = storages[bufferStorage[valueBuffer.lookup(v)]];
    storage.last = INT64_MAX;
    storage.first = std::min<int64_t>(storage.first, schedules[storage.device].size());
  }
  // Inputs are written before the first step, also those no step reads (an
  // ONNX graph may have such inputs): they need bytes of their own, or the
  // host's write would land on another buffer.
  for (BlockArgument arg : func.getArguments()) {
    Storage &storage = storages[bufferStorage[valueBuffer.lookup(arg)]];
    storage.first = -1;
    storage.last = std::max<int64_t>(storage.last, 0);
  }

  // One arena per device, planned over that device's step order.
  std::vector<uint64_t> storageOffset(storages.size(), 0), arenaSizes(devices.size(), 0),
      peakLive(devices.size(), 0);
  for (unsigned device = 0; device < devices.size(); ++device) {
    std::vector<dlc::LiveRange> ranges;
    std::vector<int> rangeStorage;
    for (auto [i, storage] : llvm::enumerate(storages)) {
      // Unused storages need no bytes, unless another stream writes them.
      if (storage.device != device || storage.constantSegment >= 0 ||
          (storage.last < 0 && !storage.writtenAcrossDevices))
        continue;
      if (storage.writtenAcrossDevices)
        ranges.push_back({storage.size, -1, INT64_MAX});
      else
        ranges.push_back({storage.size, storage.first, storage.last});
      rangeStorage.push_back(i);
    }
    dlc::MemoryPlan plan = dlc::planMemory(ranges);
    for (auto [i, storage] : llvm::enumerate(rangeStorage))
      storageOffset[storage] = plan.offsets[i];
    arenaSizes[device] = plan.arenaSize;
    peakLive[device] = plan.peakLiveBytes;
  }
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    const Storage &storage = storages[bufferStorage[i]];
    buffer.offset = storageOffset[bufferStorage[i]];
    buffer.constantSegment = storage.constantSegment;
  }

  // The GPU kernels' CUDA C++ (compiler/Target/CUDA), one module per model.
  std::vector<dlc::cuda::KernelSource> cudaKernels;
  std::vector<int> cudaKernelOf(groups.size(), -1);
  if (options.cuda || options.emitCuda || options.emulatedGpuHostCode) {
    for (auto [index, group] : llvm::enumerate(groups)) {
      if (!devices[group.device].isCuda())
        continue;
      std::vector<std::string> names;
      for (Operation *op : group.ops)
        names.push_back(nameOf(op, ordinals[op]));
      FailureOr<dlc::cuda::KernelSource> kernel = dlc::cuda::emitKernel(
          group.ops, group.inputs, group.outputs, "k" + std::to_string(index), names);
      if (failed(kernel))
        return failure();
      cudaKernelOf[index] = cudaKernels.size();
      cudaKernels.push_back(std::move(*kernel));
    }
  }
  if (options.emitCuda) {
    if (!cudaKernels.empty())
      *options.emitCuda << dlc::cuda::moduleSource(cudaKernels);
    return std::string();
  }
  std::optional<dlc::cuda::CompiledModule> cudaModule;
  bool cudaWanted = !cudaKernels.empty() && options.cuda;
  if (cudaWanted && !options.cudaRequired && !options.emitPtx) {
    if (llvm::Error missing = dlc::cuda::nvrtcAvailable()) {
      llvm::errs() << "warning: " << llvm::toString(std::move(missing))
                   << "; the GPU kernels get host code only (the artifact runs on "
                      "simulated GPUs: --gpu=sim). --no-cuda silences this; "
                      "--cuda-arch makes it an error\n";
      cudaWanted = false;
    }
  }
  if (cudaWanted) {
    llvm::Expected<dlc::cuda::CompiledModule> compiled =
        dlc::cuda::compileKernels(cudaKernels, options.cudaArchs);
    if (!compiled)
      return func.emitError() << llvm::toString(compiled.takeError());
    cudaModule = std::move(*compiled);
  }
  if (options.emitPtx) {
    if (cudaModule)
      *options.emitPtx << cudaModule->ptx;
    return std::string();
  }

  // The kernels, outlined and compiled into one shared object.
  OwningOpRef<ModuleOp> kernels = ModuleOp::create(func.getLoc());
  for (auto [index, group] : llvm::enumerate(groups))
    outlineGroup(*kernels, group, index);
  if (options.emitKernels) {
    kernels->print(*options.emitKernels);
    *options.emitKernels << "\n";
    return std::string();
  }
  if (failed(dlc::lowerCpuKernelsToLLVMDialect(*kernels)))
    return failure();
  FailureOr<dlc::CpuLibrary> library =
      dlc::compileCpuLibrary(*kernels, options.cpu, options.emitLLVM);
  if (failed(library))
    return failure();

  aw::Contents contents;
  contents.producer = "dlc 0.1 (LLVM " LLVM_VERSION_STRING ")";
  for (auto [i, device] : llvm::enumerate(devices))
    contents.devices.push_back({device.isCuda(), static_cast<int32_t>(device.getIndex()),
                                arenaSizes[i], peakLive[i]});
  contents.segments = std::move(segments);
  contents.segments.push_back(std::move(library->sharedObject));
  contents.libraries.push_back({static_cast<uint32_t>(contents.segments.size() - 1),
                                library->targetTriple, library->targetCpu,
                                library->cpuFeatures});
  // Library 1: the GPU kernels' CUDA C++ run by the emulation (simulated GPUs).
  if (options.emulatedGpuHostCode && !cudaKernels.empty()) {
    llvm::Expected<std::string> emulated =
        dlc::cuda::buildEmulatedHostCode(cudaKernels, dlc::kEntrySuffix);
    if (!emulated)
      return func.emitError() << llvm::toString(emulated.takeError());
    contents.segments.push_back(std::move(*emulated));
    contents.libraries.push_back({static_cast<uint32_t>(contents.segments.size() - 1),
                                  library->targetTriple, "generic", {}});
  }
  for (auto [index, group] : llvm::enumerate(groups)) {
    aw::Kernel kernel;
    kernel.symbol = "k" + std::to_string(index) + dlc::kEntrySuffix;
    kernel.name = "k" + std::to_string(index);
    for (Operation *op : group.ops)
      kernel.ops.push_back(nameOf(op, ordinals[op]));
    if (cudaKernelOf[index] >= 0 && options.emulatedGpuHostCode)
      kernel.library = 1;
    if (cudaKernelOf[index] >= 0 && cudaModule) {
      const dlc::cuda::KernelSource &source = cudaKernels[cudaKernelOf[index]];
      kernel.cuda = aw::CudaLaunch{0, source.entry,
                                   {source.grid.begin(), source.grid.end()},
                                   {source.block.begin(), source.block.end()},
                                   source.sharedBytes};
    }
    contents.kernels.push_back(std::move(kernel));
  }
  // Format 0.4: the CUDA module (source, PTX, CUBINs) in segments.
  if (cudaModule) {
    aw::CudaModule module;
    module.ptxArch = cudaModule->ptxArch;
    contents.segments.push_back(dlc::cuda::moduleSource(cudaKernels));
    module.sourceSegment = contents.segments.size() - 1;
    contents.segments.push_back(std::move(cudaModule->ptx));
    module.ptxSegment = contents.segments.size() - 1;
    for (auto &[arch, cubin] : cudaModule->cubins) {
      contents.segments.push_back(std::move(cubin));
      module.cubins.emplace_back(arch, contents.segments.size() - 1);
    }
    contents.cudaModules.push_back(std::move(module));
  }
  if (options.testDropEventWait >= 0)
    dropEventWait(schedules, options.testDropEventWait);
  contents.schedules = std::move(schedules);
  contents.eventCount = eventCount;
  contents.buffers = std::move(buffers);

  auto spec = [&](Value v, std::string name) {
    unsigned buffer = valueBuffer.lookup(v);
    const aw::Buffer &b = contents.buffers[buffer];
    return aw::TensorSpec{std::move(name), b.dtype, b.shape, buffer, 0};
  };
  for (BlockArgument arg : func.getArguments()) {
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), ::dlc::attrs::kName);
    contents.inputs.push_back(
        spec(arg, name ? name.str() : "arg" + std::to_string(arg.getArgNumber())));
  }
  // Integer inputs used as gather indices: random inputs stay in range.
  for (auto [i, arg] : llvm::enumerate(func.getArguments()))
    contents.inputs[i].indexBound = dlc::gatherIndexBound(arg);
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto name = func.getResultAttrOfType<StringAttr>(i, ::dlc::attrs::kName);
    contents.outputs.push_back(spec(v, name ? name.str() : "result" + std::to_string(i)));
  }
  // Links and estimates from the device spec placement used (the built-in
  // profiles when none was given).
  std::vector<dlc::DeviceId> ids;
  for (dlc::DeviceAttr device : devices)
    ids.push_back(dlc::DeviceId{device.isCuda(), device.getIndex()});
  dlc::DeviceSpec deviceSpec = options.deviceSpec ? *options.deviceSpec
                                            : dlc::DeviceSpec::builtin(ids);
  std::vector<int> specIndex;
  for (const dlc::DeviceId &id : ids)
    specIndex.push_back(deviceSpec.find(id));
  for (unsigned from = 0; from < devices.size(); ++from)
    for (unsigned to = 0; to < devices.size(); ++to) {
      if (from == to || specIndex[from] < 0 || specIndex[to] < 0)
        continue;
      const dlc::LinkProfile &link = deviceSpec.links[specIndex[from]][specIndex[to]];
      if (link.bandwidthBytesPerS > 0 && link.latencyUs >= 0)
        contents.links.push_back({from, to, link.bandwidthBytesPerS, link.latencyUs});
    }
  auto estimate = [&](Operation *op) -> double {
    unsigned device = opDevice.lookup(op);
    if (specIndex[device] < 0)
      return -1;
    // A packed weight's view, or a transpose a batched matmul reads or
    // writes in place, is folded into that op's lowering: it never runs.
    if (dlc::isPackedWeightView(op) || dlc::isReadInPlaceByMatmul(op) ||
        dlc::isWrittenInPlaceByMatmul(op))
      return 0;
    if (auto copy = dyn_cast<dlc::CopyOp>(op)) {
      unsigned from = deviceOf(copy.getInput());
      if (from == device || specIndex[from] < 0)
        return 0;
      return dlc::transferUs(dlc::valueBytes(copy.getInput()),
                             deviceSpec.links[specIndex[from]][specIndex[device]]);
    }
    return dlc::opTimeUs(op, deviceSpec.devices[specIndex[device]]);
  };
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    // The placement pass records why; without it an op is pinned or default.
    // Copies are the placement's consequence, not a choice: "copy".
    std::string reason = isa<dlc::CopyOp>(op) ? "copy"
                         : dlc::getDevicePin(&op) ? "pinned"
                                                  : "default";
    if (auto recorded = op.getAttrOfType<StringAttr>(::dlc::attrs::kReason))
      reason = recorded.str();
    contents.placement.push_back({nameOf(&op, ordinals[&op]),
                                  op.getName().getStringRef().str(), reason,
                                  opDevice.lookup(&op), estimate(&op)});
  }
  std::string artifact = aw::serialize(contents);
  if (!options.testSkipScheduleVerification &&
      failed(verifyArtifactSchedule(artifact)))
    return failure();
  return artifact;
}

void ModelCompiler::dropEventWait(std::vector<std::vector<aw::Step>> &schedules,
                                  int which) {
  for (std::vector<aw::Step> &steps : schedules)
    for (auto it = steps.begin(); it != steps.end(); ++it)
      if (it->kind == aw::StepKind::WaitEvent && which-- == 0) {
        steps.erase(it);
        return;
      }
}

// The artifact is proved right by the runtime's own schedule verifier, over
// the facts the runtime will use (runtime/src/ScheduleVerifier.h); an
// artifact it refuses is a bug of dlc's, never written.
LogicalResult ModelCompiler::verifyArtifactSchedule(const std::string &artifact) {
  dlc_model_options_t loadOptions;
  dlc_model_options_initialize(&loadOptions);
  loadOptions.name = "<compiled>";
  loadOptions.load_code = 0;
  loadOptions.verify_schedule = 1;
  dlc_model_t *model = nullptr;
  dlc_status_t status =
      dlc_model_load_memory(artifact.data(), artifact.size(), &loadOptions, &model);
  dlc_model_release(model);
  if (!status)
    return success();
  std::string message = dlc_status_message(status);
  dlc_status_free(status);
  return func.emitError() << "internal compiler error: the schedule dlc made "
                             "is wrong, so no artifact is written: "
                          << message;
}

} // namespace

FailureOr<std::string> dlc::compileModel(ModuleOp module,
                                         const CodegenOptions &options) {
  auto func = module.lookupSymbol<func::FuncOp>(options.entry);
  if (!func || func.isExternal())
    return module.emitError() << "no function @" << options.entry
                              << " with a body in the model";
  ModelCompiler compiler(func, options);
  return compiler.run();
}
