//===- CompileModel.cpp - scheduled, planned IR to a .dlcm artifact -------===//
//
// The artifact stage: reads the schedule and memory plan dlc-schedule and
// dlc-plan-memory wrote on the entry function (ScheduleIR.h), makes the
// code (CUDA C++ and NVRTC for GPU kernels; every kernel outlined and
// compiled by the CPU path into one shared object, which is also what
// simulated GPUs run), and writes what the runtime reads. It decides nothing
// the IR does not say: the buffers, steps and offsets are the IR's.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipeline/CompileModel.h"
#include "ArtifactWriter.h"
#include "compiler/Pipeline/SchedulePasses.h"
#include "compiler/Pipeline/ScheduleIR.h"
#include "compiler/Target/CPU/CpuTarget.h"
#include "compiler/Target/CUDA/CudaEmitter.h"
#include "compiler/Target/CUDA/EmulatedHostCode.h"
#include "compiler/Target/CUDA/Nvrtc.h"
#include "passes/TargetBackend.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/RecordedDeviceSpec.h"
#include "dlc/runtime.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;
using namespace dlc::schedule;
namespace aw = dlc::artifact_writer;

namespace {

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
    return emitError(loc) << "constant resource '" << resource.getRawHandle().getKey()
                          << "' has no data";
  }
  return emitError(loc) << "unsupported constant attribute";
}

/// Kernel K, the K-th dlc.kernel op: its ops, on one device; the values it
/// reads and, in its body, those it yields (its `results`).
struct Group {
  unsigned device = 0;
  SmallVector<Operation *> ops;
  SmallVector<Value> inputs, outputs, results;
};

class ArtifactTranslator {
public:
  ArtifactTranslator(func::FuncOp func, const dlc::CodegenOptions &options)
      : func(func), options(options), ctx(func.getContext()) {}

  FailureOr<std::string> run();

private:
  LogicalResult readFunction();
  LogicalResult buildBuffers();
  LogicalResult addConstantSegment(dlc::ConstantOp constant);
  LogicalResult collectGroups();
  LogicalResult emitCudaKernels();
  LogicalResult compileCuda();
  void outlineGroup(ModuleOp kernels, const Group &group, unsigned index);
  void shareIdenticalKernels(ModuleOp kernels);
  LogicalResult compileCode();
  void addKernelsAndLibraries(std::optional<std::string> emulated);
  void addSignature();
  LogicalResult addLinksAndPlacement();
  LogicalResult assembleContents();
  static void dropEventWait(std::vector<std::vector<aw::Step>> &schedules, int which);
  LogicalResult verifyArtifactSchedule(const std::string &artifact);
  LogicalResult addInitialValue(Value value, aw::Buffer &buffer);

  std::string name(Operation *op) { return dlc::opName(op, ordinals.lookup(op)); }
  unsigned deviceOf(Value value) {
    Operation *op = value.getDefiningOp();
    return op ? opDevice.lookup(op) : 0;
  }

  func::FuncOp func;
  const dlc::CodegenOptions &options;
  MLIRContext *ctx;

  Schedule s;
  llvm::DenseMap<Operation *, unsigned> opDevice, ordinals;
  llvm::DenseMap<Value, unsigned> valueBuffer;
  std::vector<Group> groups;
  std::vector<dlc::cuda::KernelSource> cudaKernels;
  std::vector<int> cudaKernelOf;
  std::vector<unsigned> codeOf; // kernel K runs kernel codeOf[K]'s code
  std::optional<dlc::cuda::CompiledModule> cudaModule;
  std::optional<dlc::CpuLibrary> library;
  aw::Contents contents;
};

// Devices, each op's device and ordinal, and each value's buffer.
LogicalResult ArtifactTranslator::readFunction() {
  FailureOr<Schedule> read = readSchedule(func, /*needPlan=*/true);
  if (failed(read))
    return failure();
  s = std::move(*read);
  // Placement takes any registered backend's devices; the artifact has code
  // for two kinds (a backend without a code generator stops here).
  for (dlc::DeviceAttr device : s.devices)
    if (!device.isCpu() && !device.isCuda())
      return func.emitError() << "device " << device.str() << ": no code generator for device kind '"
                              << device.getKind()
                              << "' (the artifact has code for cpu and cuda devices)";
  unsigned ordinal = 0;
  for (Operation *op : dlc::modelOps(func))
    ordinals[op] = ordinal++;
  auto result = func.walk([&](Operation *op) {
    dlc::DeviceAttr device = dlc::getDevicePin(op);
    auto known = llvm::find(s.devices, device);
    if (device && known == s.devices.end()) {
      op->emitError() << "malformed schedule: " << device.str() << " is not among dlc.devices";
      return WalkResult::interrupt();
    }
    opDevice[op] = device ? known - s.devices.begin() : 0;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (auto [i, value] : llvm::enumerate(s.values))
    valueBuffer[value] = i;
  return success();
}

// A state's value when a session starts (dlc.initial on its argument; zeros
// when absent), in a segment of its own.
LogicalResult ArtifactTranslator::addInitialValue(Value value, aw::Buffer &buffer) {
  auto arg = dyn_cast<BlockArgument>(value);
  auto initial = arg ? func.getArgAttrOfType<DenseElementsAttr>(arg.getArgNumber(), dlc::attrs::kInitial)
                     : DenseElementsAttr();
  if (!initial)
    return success();
  if (initial.getType() != value.getType())
    return func.emitError() << "the dlc.initial of state '" << buffer.name << "' is "
                            << initial.getType() << ", not the state's " << value.getType();
  FailureOr<std::string> bytes = constantBytes(initial, value.getLoc());
  if (failed(bytes))
    return failure();
  contents.segments.push_back({std::move(*bytes)});
  buffer.initialSegment = contents.segments.size() - 1;
  return success();
}

// A constant's segment. Dense data already in the runtime's layout is
// borrowed from the attribute (alive in the context until the artifact is
// serialized), not copied: ConvNeXt-B's 354 MB of weights took 3.3 s to copy
// on a machine slow to fault fresh memory in.
LogicalResult ArtifactTranslator::addConstantSegment(dlc::ConstantOp constant) {
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (dense && !dense.isSplat() && !dense.getElementType().isInteger(1)) {
    ArrayRef<char> raw = dense.getRawData();
    aw::Segment segment;
    segment.borrowed = std::string_view(raw.data(), raw.size());
    contents.segments.push_back(std::move(segment));
    return success();
  }
  FailureOr<std::string> bytes = constantBytes(constant.getValue(), constant.getLoc());
  if (failed(bytes))
    return failure();
  contents.segments.push_back({std::move(*bytes)});
  return success();
}

// The buffer table and the constant segments (in buffer order).
LogicalResult ArtifactTranslator::buildBuffers() {
  std::vector<int32_t> segmentOf(s.buffers.size(), -1);
  for (auto [i, info] : llvm::enumerate(s.buffers)) {
    Value value = s.values[i];
    auto type = cast<RankedTensorType>(value.getType());
    FailureOr<aw::DType> dtype = artifactDType(type.getElementType(), value.getLoc());
    if (failed(dtype))
      return failure();
    auto constant = value.getDefiningOp<dlc::ConstantOp>();
    if (constant && info.viewOf < 0) {
      if (failed(addConstantSegment(constant)))
        return failure();
      segmentOf[i] = contents.segments.size() - 1;
    }
    FailureOr<uint64_t> size = bufferBytes(value, info);
    if (failed(size))
      return failure();
    aw::Buffer buffer;
    buffer.name = info.name;
    buffer.dtype = *dtype;
    for (int64_t d : type.getShape())
      buffer.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    buffer.maxShape = info.maxShape;
    buffer.size = *size;
    buffer.device = info.device;
    buffer.offset = *info.offset;
    buffer.constantSegment = segmentOf[s.owner(i)];
    buffer.viewOf = info.viewOf;
    buffer.persistent = info.persistent;
    if (info.persistent && failed(addInitialValue(value, buffer)))
      return failure();
    contents.buffers.push_back(std::move(buffer));
  }
  return success();
}

// Kernel K's ops, in the model's order; its interface must be what its Call
// passes.
LogicalResult ArtifactTranslator::collectGroups() {
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp>(op) ||
        (isa<dlc::DlcDialect>(op.getDialect()) && !dlc::runsInKernel(&op)))
      continue;
    return op.emitError() << "malformed schedule: '" << name(&op)
                          << "' is in no dlc.kernel (run dlc-schedule first)";
  }
  for (auto kernel : func.getBody().front().getOps<dlc::KernelOp>()) {
    Group group;
    group.device = opDevice.lookup(kernel);
    group.ops = dlc::computeOpsOf(kernel);
    if (group.ops.empty())
      return kernel.emitError() << "malformed schedule: a kernel with no ops";
    group.inputs = dlc::kernelInputs(kernel);
    group.outputs.assign(kernel.getYield().getValues().begin(), kernel.getYield().getValues().end());
    group.results.assign(kernel.getResults().begin(), kernel.getResults().end());
    groups.push_back(std::move(group));
  }
  std::vector<bool> called(groups.size(), false);
  for (const auto &steps : s.steps)
    for (const aw::Step &step : steps) {
      if (step.kind != aw::StepKind::Call)
        continue;
      if (step.kernel >= groups.size())
        return func.emitError() << "malformed schedule: a Call of kernel " << step.kernel
                                << ", but the function has " << groups.size() << " dlc.kernel ops";
      Group &group = groups[step.kernel];
      std::vector<uint32_t> expected;
      for (Value v : llvm::concat<const Value>(group.inputs, group.results))
        expected.push_back(valueBuffer.count(v) ? valueBuffer.lookup(v) : UINT32_MAX);
      if (expected != step.buffers || step.outputCount != group.outputs.size())
        return group.ops.front()->emitError()
               << "malformed schedule: the Call of kernel " << step.kernel
               << " does not pass the kernel's inputs and outputs";
      called[step.kernel] = true;
    }
  for (auto [k, group] : llvm::enumerate(groups))
    if (!called[k])
      return group.ops.front()->emitError()
             << "malformed schedule: kernel " << k << " has no Call step";
  return success();
}

// The GPU kernels' CUDA C++ (compiler/Target/CUDA), one module per model.
LogicalResult ArtifactTranslator::emitCudaKernels() {
  cudaKernelOf.assign(groups.size(), -1);
  if (!options.cuda && !options.emitCuda && !options.emulatedGpuHostCode)
    return success();
  for (auto [index, group] : llvm::enumerate(groups)) {
    if (group.ops.empty() || !s.devices[group.device].isCuda())
      continue;
    std::vector<std::string> names;
    for (Operation *op : group.ops)
      names.push_back(name(op));
    FailureOr<dlc::cuda::KernelSource> kernel = dlc::cuda::emitKernel(
        group.ops, group.inputs, group.outputs, "k" + std::to_string(index), names);
    if (failed(kernel))
      return failure();
    cudaKernelOf[index] = cudaKernels.size();
    cudaKernels.push_back(std::move(*kernel));
  }
  return success();
}

// NVRTC: PTX and CUBINs, or a warning and host code only without it.
LogicalResult ArtifactTranslator::compileCuda() {
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
  if (!cudaWanted)
    return success();
  llvm::Expected<dlc::cuda::CompiledModule> compiled =
      dlc::cuda::compileKernels(cudaKernels, options.cudaArchs);
  if (!compiled)
    return func.emitError() << llvm::toString(compiled.takeError());
  cudaModule = std::move(*compiled);
  return success();
}

void ArtifactTranslator::outlineGroup(ModuleOp kernels, const Group &group, unsigned index) {
  Location loc = group.ops.front()->getLoc();
  SmallVector<Type> argTypes;
  for (Value v : llvm::concat<const Value>(group.inputs, group.outputs)) {
    auto type = cast<RankedTensorType>(v.getType());
    argTypes.push_back(MemRefType::get(type.getShape(), type.getElementType()));
  }
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(kernels.getBody());
  auto kernel = builder.create<func::FuncOp>(loc, "k" + std::to_string(index),
                                             FunctionType::get(ctx, argTypes, {}));
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
        loc, TypeRange{}, mapping.lookup(output), entry->getArgument(group.inputs.size() + i));
    store.setRestrict(true);
    store.setWritable(true);
  }
  builder.create<func::ReturnOp>(loc);
}

// Kernels whose outlined code is the same (ResNet's repeated blocks, a
// transformer's layers: the same shapes and fused ops, their weights passed
// as buffers) are compiled once; the others call the first one's code. Small
// constants are cloned into the code, so kernels differing in them differ.
void ArtifactTranslator::shareIdenticalKernels(ModuleOp kernels) {
  codeOf.resize(groups.size());
  SmallVector<func::FuncOp> funcs(kernels.getOps<func::FuncOp>());
  llvm::DenseMap<Type, SmallVector<unsigned>> firstsOfType;
  for (auto [index, fn] : llvm::enumerate(funcs)) {
    codeOf[index] = index;
    SmallVector<unsigned> &firsts = firstsOfType[fn.getFunctionType()];
    for (unsigned first : firsts)
      if (OperationEquivalence::isRegionEquivalentTo(&funcs[first].getBody(), &fn.getBody(),
                                                     OperationEquivalence::IgnoreLocations)) {
        codeOf[index] = first;
        break;
      }
    if (codeOf[index] == index)
      firsts.push_back(index);
  }
  for (auto [index, fn] : llvm::enumerate(funcs))
    if (codeOf[index] != index)
      fn.erase();
}

// The kernels, outlined and compiled into one shared object (--emit=mlir
// prints the outlined module and stops: `library` stays empty).
LogicalResult ArtifactTranslator::compileCode() {
  OwningOpRef<ModuleOp> kernels = ModuleOp::create(func.getLoc());
  for (auto [index, group] : llvm::enumerate(groups))
    outlineGroup(*kernels, group, index);
  if (options.emitKernels) {
    kernels->print(*options.emitKernels);
    *options.emitKernels << "\n";
    return success();
  }
  shareIdenticalKernels(*kernels);
  if (failed(dlc::lowerCpuKernelsToLLVMDialect(*kernels, dlc::cpuKernelTiles(options.cpu),
                                               options.timing, options.progress)))
    return failure();
  FailureOr<dlc::CpuLibrary> compiled =
      dlc::compileCpuLibrary(*kernels, options.cpu, options.emitLLVM, options.timing,
                             options.progress);
  if (failed(compiled))
    return failure();
  library = std::move(*compiled);
  return success();
}

// The libraries, the kernels and the CUDA module, in segment order after the
// constants.
void ArtifactTranslator::addKernelsAndLibraries(std::optional<std::string> emulated) {
  contents.segments.push_back({std::move(library->sharedObject)});
  contents.libraries.push_back({static_cast<uint32_t>(contents.segments.size() - 1),
                                library->targetTriple, library->targetCpu,
                                library->cpuFeatures});
  if (emulated) {
    contents.segments.push_back({std::move(*emulated)});
    contents.libraries.push_back({static_cast<uint32_t>(contents.segments.size() - 1),
                                  library->targetTriple, "generic", {}});
  }
  for (auto [index, group] : llvm::enumerate(groups)) {
    aw::Kernel kernel;
    kernel.name = "k" + std::to_string(index);
    for (Operation *op : group.ops)
      kernel.ops.push_back(name(op));
    if (cudaKernelOf[index] >= 0 && options.emulatedGpuHostCode)
      kernel.library = 1;
    // The CPU path's library shares identical kernels' code; the emulated
    // GPU code (library 1) has one function per kernel.
    unsigned code = kernel.library == 0 ? codeOf[index] : index;
    kernel.symbol = "k" + std::to_string(code) + dlc::kEntrySuffix;
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
  if (!cudaModule)
    return;
  aw::CudaModule module;
  module.ptxArch = cudaModule->ptxArch;
  contents.segments.push_back({dlc::cuda::moduleSource(cudaKernels)});
  module.sourceSegment = contents.segments.size() - 1;
  contents.segments.push_back({std::move(cudaModule->ptx)});
  module.ptxSegment = contents.segments.size() - 1;
  for (auto &[arch, cubin] : cudaModule->cubins) {
    contents.segments.push_back({std::move(cubin)});
    module.cubins.push_back({arch, static_cast<uint32_t>(contents.segments.size() - 1)});
  }
  contents.cudaModules.push_back(std::move(module));
}

// Inputs and outputs by name; integer inputs used as gather indices get
// their bound, so that random inputs stay in range.
void ArtifactTranslator::addSignature() {
  auto spec = [&](Value v, std::string name) {
    unsigned buffer = valueBuffer.lookup(v);
    const aw::Buffer &b = contents.buffers[buffer];
    return aw::TensorSpec{std::move(name), b.dtype, b.shape, buffer, 0, b.maxShape};
  };
  for (BlockArgument arg : func.getArguments()) {
    if (auto state = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), dlc::attrs::kState)) {
      contents.state.push_back(spec(arg, state.str()));
      continue;
    }
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), dlc::attrs::kName);
    contents.inputs.push_back(
        spec(arg, name ? name.str() : "arg" + std::to_string(arg.getArgNumber())));
    contents.inputs.back().indexBound = dlc::gatherIndexBound(arg);
  }
  // A state's next value is no output (the write-back copy takes it).
  Operation *ret = func.getBody().front().getTerminator();
  for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
    if (func.getResultAttr(i, dlc::attrs::kState))
      continue;
    auto name = func.getResultAttrOfType<StringAttr>(i, dlc::attrs::kName);
    contents.outputs.push_back(spec(v, name ? name.str() : "result" + std::to_string(i)));
  }
}

// Links and estimates from the device spec dlc-place recorded (the built-in
// profiles of the function's devices when placement did not run); each op's
// device and why.
LogicalResult ArtifactTranslator::addLinksAndPlacement() {
  std::vector<dlc::DeviceId> ids;
  for (dlc::DeviceAttr device : s.devices)
    ids.push_back(dlc::DeviceId{device.getKind().str(), device.getIndex()});
  FailureOr<std::optional<dlc::DeviceSpec>> recorded =
      dlc::recordedDeviceSpec(func->getParentOfType<ModuleOp>());
  if (failed(recorded))
    return failure();
  dlc::DeviceSpec spec = *recorded ? std::move(**recorded)
                                   : dlc::DeviceSpec::builtin(ids, dlc::BuiltinTarget{options.cpu.cpu});
  std::vector<int> specIndex;
  for (const dlc::DeviceId &id : ids)
    specIndex.push_back(spec.find(id));
  for (unsigned from = 0; from < s.devices.size(); ++from)
    for (unsigned to = 0; to < s.devices.size(); ++to) {
      if (from == to || specIndex[from] < 0 || specIndex[to] < 0)
        continue;
      const dlc::LinkProfile &link = spec.links[specIndex[from]][specIndex[to]];
      if (link.bandwidthBytesPerS > 0 && link.latencyUs >= 0)
        contents.links.push_back({from, to, link.bandwidthBytesPerS, link.latencyUs});
    }
  auto estimate = [&](Operation *op) -> double {
    unsigned device = opDevice.lookup(op);
    if (specIndex[device] < 0)
      return -1;
    // A packed weight's view, or a transpose a batched matmul reads or
    // writes in place, is folded into that op's lowering: it never runs.
    const dlc::TargetBackend *backend = dlc::lookupTargetBackendOf(op);
    if (backend && backend->foldedIntoNeighbour(op))
      return 0;
    if (auto copy = dyn_cast<dlc::CopyOp>(op)) {
      unsigned from = deviceOf(copy.getInput());
      if (from == device || specIndex[from] < 0)
        return 0;
      return dlc::transferUs(dlc::valueBytes(copy.getInput()),
                             spec.links[specIndex[from]][specIndex[device]]);
    }
    return dlc::opTimeUs(op, spec.devices[specIndex[device]]);
  };
  for (Operation *model : dlc::modelOps(func)) {
    Operation &op = *model;
    if (isa<func::ReturnOp>(op))
      continue;
    // The placement pass records why; without it an op is pinned or default.
    // Copies are the placement's consequence, not a choice: "copy".
    std::string reason = isa<dlc::CopyOp>(op) ? "copy" : dlc::getDevicePin(&op) ? "pinned" : "default";
    if (auto recorded = op.getAttrOfType<StringAttr>(dlc::attrs::kReason))
      reason = recorded.str();
    contents.placement.push_back({name(&op), op.getName().getStringRef().str(),
                                  opDevice.lookup(&op), reason, estimate(&op)});
  }
  return success();
}

FailureOr<std::string> ArtifactTranslator::run() {
  auto scope = [&](StringRef name) {
    return options.timing ? options.timing->nest(name) : TimingScope();
  };
  TimingScope buffers = scope("buffers and constant segments");
  if (failed(readFunction()) || failed(buildBuffers()))
    return failure();
  buffers.stop();
  if (failed(collectGroups()) || failed(emitCudaKernels()))
    return failure();
  if (options.emitCuda) {
    if (!cudaKernels.empty())
      *options.emitCuda << dlc::cuda::moduleSource(cudaKernels);
    return std::string();
  }
  TimingScope nvrtc = scope("CUDA kernels: NVRTC");
  if (failed(compileCuda()))
    return failure();
  nvrtc.stop();
  if (options.emitPtx) {
    if (cudaModule)
      *options.emitPtx << cudaModule->ptx;
    return std::string();
  }
  if (failed(compileCode()))
    return failure();
  if (!library)
    return std::string(); // --emit=mlir
  if (failed(assembleContents()))
    return failure();
  TimingScope serializing = scope("serialize the artifact");
  std::string artifact = aw::serialize(contents);
  serializing.stop();
  TimingScope verifying = scope("verify the artifact's schedule");
  if (!options.testSkipScheduleVerification && failed(verifyArtifactSchedule(artifact)))
    return failure();
  return artifact;
}

/// The artifact's contents from the scheduled IR and the compiled code.
LogicalResult ArtifactTranslator::assembleContents() {
  contents.producer = dlc::kArtifactProducer;
  for (auto [i, device] : llvm::enumerate(s.devices))
    contents.devices.push_back({device.isCuda() ? aw::DeviceKind::Cuda : aw::DeviceKind::Cpu,
                                static_cast<int32_t>(device.getIndex()),
                                s.arenaBytes[i], s.peakLiveBytes[i]});
  // Library 1: the GPU kernels' CUDA C++ run by the emulation (simulated GPUs).
  std::optional<std::string> emulated;
  if (options.emulatedGpuHostCode && !cudaKernels.empty()) {
    llvm::Expected<std::string> built =
        dlc::cuda::buildEmulatedHostCode(cudaKernels, dlc::kEntrySuffix);
    if (!built)
      return func.emitError() << llvm::toString(built.takeError());
    emulated = std::move(*built);
  }
  addKernelsAndLibraries(std::move(emulated));
  if (options.testDropEventWait >= 0)
    dropEventWait(s.steps, options.testDropEventWait);
  for (auto [device, steps] : llvm::enumerate(s.steps))
    contents.schedules.push_back({static_cast<uint32_t>(device), steps});
  contents.eventCount = s.eventCount;
  addSignature();
  if (failed(addLinksAndPlacement()))
    return failure();
  contents.versionMinor = aw::lowestMinorVersion(contents);
  return success();
}

void ArtifactTranslator::dropEventWait(std::vector<std::vector<aw::Step>> &schedules,
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
LogicalResult ArtifactTranslator::verifyArtifactSchedule(const std::string &artifact) {
  dlc_model_options_t loadOptions;
  dlc_model_options_initialize(&loadOptions);
  loadOptions.name = "<compiled>";
  loadOptions.load_code = 0;
  loadOptions.verify_schedule = 1;
  // In place: a copy of the weights costs seconds on a large model.
  loadOptions.borrow_memory = 1;
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

FailureOr<std::string> dlc::compileModel(ModuleOp module, const CodegenOptions &options) {
  func::FuncOp func = entryFunction(module, options.entry);
  if (!func)
    return failure();
  return ArtifactTranslator(func, options).run();
}
