//===- WriteArtifact.cpp - dlc-write-artifact: scheduled IR to a .dlcm ----===//
//
// The artifact stage (ArtifactStages.h), a translation: reads the schedule
// and memory plan dlc-schedule and dlc-plan-memory wrote on the entry
// function (ScheduleIR.h) and the code dlc-codegen wrote (#dlc.library,
// #dlc.cuda_module, #dlc.kernel_code), and writes what the runtime reads.
// It compiles and decides nothing: buffers, steps, offsets and code are the
// IR's. The runtime's schedule verifier proves the result before it is
// handed on.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipeline/ArtifactStages.h"
#include "ArtifactWriter.h"
#include "compiler/Pipeline/SchedulePasses.h"
#include "compiler/Pipeline/ScheduleIR.h"
#include "passes/BatchRows.h"
#include "passes/TargetBackend.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/RecordedDeviceSpec.h"
#include "dlc/runtime.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
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

/// The bytes of a code blob (a #dlc.library's or #dlc.cuda_module's),
/// borrowed: the blob lives in the context until the artifact is written.
FailureOr<std::string_view> blobBytes(DenseResourceElementsAttr blob, Operation *at) {
  if (AsmResourceBlob *data = blob.getRawHandle().getBlob())
    return std::string_view(data->getData().data(), data->getData().size());
  return at->emitError() << "code resource '" << blob.getRawHandle().getKey() << "' has no data";
}

class ArtifactTranslator {
public:
  ArtifactTranslator(func::FuncOp func, const dlc::CodegenOptions &options)
      : func(func), options(options) {}

  FailureOr<std::string> run();

private:
  LogicalResult readFunction();
  LogicalResult buildBuffers();
  LogicalResult addConstantSegment(dlc::ConstantOp constant);
  LogicalResult addLibraries();
  LogicalResult addCudaModules();
  LogicalResult addKernels();
  void addSignature();
  LogicalResult addLinksAndPlacement();
  void addPlacement(const dlc::DeviceSpec &spec, const std::vector<int> &specIndex);
  double estimateUs(Operation *op, const dlc::DeviceSpec &spec, const std::vector<int> &specIndex);
  LogicalResult assembleContents();
  static void dropEventWait(std::vector<std::vector<aw::Step>> &schedules, int which);
  LogicalResult verifyArtifactSchedule(const std::string &artifact);
  LogicalResult addInitialValue(Value value, aw::Buffer &buffer);
  /// A segment that borrows `bytes`; its index.
  uint32_t addSegment(std::string_view bytes);

  std::string name(Operation *op) { return table.name(op); }
  unsigned deviceOf(Value value) { return table.deviceOf(value); }

  func::FuncOp func;
  const dlc::CodegenOptions &options;

  Schedule s;
  KernelTable table;
  llvm::DenseMap<Value, unsigned> valueBuffer;
  aw::Contents contents;
  /// Format 0.8: the symbolic batch, whose buffers record rows per unit.
  std::optional<dlc::SymbolicBatch> batch;
  /// Whether `v`'s units are contiguous: the batch on dim 0, or (0.9) on a
  /// dim after dims of 1, not interleaved.
  bool unitsContiguous(Value v) const {
    auto layout = batch->moved.find(v);
    if (layout == batch->moved.end())
      return true;
    ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
    return layout->second.outer == 1 &&
           llvm::all_of(shape.take_front(layout->second.dim), [](int64_t d) { return d == 1; });
  }
};

// The schedule, the kernels, and each value's buffer.
LogicalResult ArtifactTranslator::readFunction() {
  FailureOr<std::optional<dlc::SymbolicBatch>> symbolic = dlc::analyseSymbolicBatch(func);
  if (failed(symbolic))
    return failure();
  batch = std::move(*symbolic);
  if (batch)
    for (auto [i, result] : llvm::enumerate(func.getBody().front().getTerminator()->getOperands())) {
      if (batch->sized.dims.lookup(result).size() > 1 && !batch->unitRows.count(result))
        return func.emitError() << "symbolic batch '" << batch->name << "': output " << i
                                << " has the symbol on " << batch->sized.dims.lookup(result).size()
                                << " dims; the runtime takes and returns it on dim 0 alone";
      else if (batch->moved.count(result) && !unitsContiguous(result))
        return func.emitError() << "symbolic batch '" << batch->name << "': output " << i
                                << " carries the batch on dim " << batch->moved.lookup(result).dim
                                << ", not dim 0; the runtime takes and returns a batch on dim 0 "
                                   "(transpose it back in the model)";
    }
  FailureOr<Schedule> read = readSchedule(func, /*needPlan=*/true);
  if (failed(read))
    return failure();
  s = std::move(*read);
  FailureOr<KernelTable> kernels = readKernels(func, s);
  if (failed(kernels))
    return failure();
  table = std::move(*kernels);
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
    // A splat constant spanning the batch (or a view of one) stays whole:
    // every unit's code reads its first unit's rows, all alike.
    bool constantBytes = constant || segmentOf[s.owner(i)] >= 0;
    if (int64_t rows = batch && !constantBytes ? batch->unitRows.lookup(value) : 0) {
      buffer.rowsPerUnit = rows;
      auto layout = batch->moved.find(value);
      if (layout == batch->moved.end() || unitsContiguous(value)) {
        // Format 0.8: dim 0 is `rows` x the run's batch, sized for the bound
        // (0.9: or a dim after dims of 1).
        buffer.maxShape = buffer.shape;
        buffer.shape[layout == batch->moved.end() ? 0 : layout->second.dim] = -1;
      } else {
        // The batch off dim 0: the bound's shape, each unit a strided slice
        // `rows` elements of its dim apart.
        int64_t stride = rows * int64_t(aw::dtypeSize(*dtype));
        for (int64_t d = layout->second.dim + 1; d < type.getRank(); ++d)
          stride *= type.getDimSize(d);
        buffer.unitStride = stride;
      }
    }
    // 0.9: the symbol on several dims (attention's scores), which only
    // sized kernels touch.
    if (batch && !constantBytes && !batch->unitRows.count(value))
      for (int64_t d : batch->sized.dims.lookup(value))
        buffer.symbolDims.push_back(int32_t(d));
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

uint32_t ArtifactTranslator::addSegment(std::string_view bytes) {
  aw::Segment segment;
  segment.borrowed = bytes;
  contents.segments.push_back(std::move(segment));
  return contents.segments.size() - 1;
}

// The libraries of kernel code (dlc.libraries), in segments after the
// constants.
LogicalResult ArtifactTranslator::addLibraries() {
  auto libraries = func->getAttrOfType<ArrayAttr>(dlc::attrs::kLibraries);
  if (!libraries || libraries.empty())
    return func.emitError() << "no code: @" << func.getSymName()
                            << " has no dlc.libraries (run dlc-codegen first)";
  for (Attribute a : libraries) {
    auto library = dyn_cast<dlc::LibraryAttr>(a);
    if (!library)
      return func.emitError() << "malformed code: dlc.libraries holds a non-#dlc.library";
    FailureOr<std::string_view> bytes = blobBytes(library.getCode(), func);
    if (failed(bytes))
      return failure();
    aw::Library entry{addSegment(*bytes), library.getTriple().str(), library.getCpu().str(), {}};
    if (ArrayAttr features = library.getFeatures())
      for (Attribute feature : features)
        entry.features.push_back(cast<StringAttr>(feature).str());
    contents.libraries.push_back(std::move(entry));
  }
  return success();
}

// Format 0.4: the CUDA modules (source, PTX, CUBINs) in segments.
LogicalResult ArtifactTranslator::addCudaModules() {
  auto modules = func->getAttrOfType<ArrayAttr>(dlc::attrs::kCudaModules);
  if (!modules)
    return success();
  for (Attribute a : modules) {
    auto module = dyn_cast<dlc::CudaModuleAttr>(a);
    if (!module)
      return func.emitError() << "malformed code: dlc.cuda_modules holds a non-#dlc.cuda_module";
    FailureOr<std::string_view> source = blobBytes(module.getSource(), func);
    FailureOr<std::string_view> ptx = blobBytes(module.getPtx(), func);
    if (failed(source) || failed(ptx))
      return failure();
    aw::CudaModule entry;
    entry.ptxArch = module.getPtxArch().str();
    entry.sourceSegment = addSegment(*source);
    entry.ptxSegment = addSegment(*ptx);
    for (auto [arch, cubin] : llvm::zip(module.getCubinArchs(), module.getCubins())) {
      FailureOr<std::string_view> bytes =
          blobBytes(cast<DenseResourceElementsAttr>(cubin), func);
      if (failed(bytes))
        return failure();
      entry.cubins.push_back({cast<StringAttr>(arch).str(), addSegment(*bytes)});
    }
    contents.cudaModules.push_back(std::move(entry));
  }
  return success();
}

// Each kernel: its ops' names, and where its code is (dlc.code).
LogicalResult ArtifactTranslator::addKernels() {
  for (auto [index, kernel] : llvm::enumerate(table.kernels)) {
    auto code = kernel.op->getAttrOfType<dlc::KernelCodeAttr>(dlc::attrs::kCode);
    if (!code)
      return kernel.op.emitError() << "no code: kernel " << index
                                   << " has no dlc.code (run dlc-codegen first)";
    if (code.getLibrary() >= int64_t(contents.libraries.size()) ||
        code.getCudaModule() >= int64_t(contents.cudaModules.size()))
      return kernel.op.emitError() << "malformed code: kernel " << index
                                   << "'s dlc.code names a library or CUDA module that "
                                      "does not exist";
    aw::Kernel entry;
    entry.name = "k" + std::to_string(index);
    for (Operation *op : kernel.ops)
      entry.ops.push_back(name(op));
    entry.library = code.getLibrary();
    entry.symbol = code.getSymbol().str();
    entry.sized = kernel.op->hasAttr(dlc::attrs::kSizedAtRunTime);
    if (auto chunk = kernel.op->getAttrOfType<StringAttr>(dlc::attrs::kChunkSymbol)) {
      entry.chunkSymbol = chunk.str();
      if (auto units = kernel.op->getAttrOfType<IntegerAttr>(dlc::attrs::kChunkUnits))
        entry.chunkUnits = uint32_t(units.getInt());
      if (auto units = kernel.op->getAttrOfType<IntegerAttr>(dlc::attrs::kChunkMinUnits))
        entry.chunkMinUnits = uint32_t(units.getInt());
    }
    if (code.getCudaModule() >= 0) {
      auto dims = [](DenseI64ArrayAttr d) {
        return std::vector<uint32_t>(d.asArrayRef().begin(), d.asArrayRef().end());
      };
      entry.cuda = aw::CudaLaunch{uint32_t(code.getCudaModule()), code.getCudaEntry().str(),
                                  dims(code.getGrid()), dims(code.getBlock()),
                                  uint32_t(code.getSharedBytes())};
    }
    contents.kernels.push_back(std::move(entry));
  }
  return success();
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
  addPlacement(spec, specIndex);
  return success();
}

// An op's estimated time on its device (-1: the spec does not know it).
double ArtifactTranslator::estimateUs(Operation *op, const dlc::DeviceSpec &spec,
                                      const std::vector<int> &specIndex) {
  unsigned device = table.opDevice.lookup(op);
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
}

// Each op's device, why (the placement pass records it; without it an op is
// pinned or default; copies are the placement's consequence: "copy"), and
// its estimate.
void ArtifactTranslator::addPlacement(const dlc::DeviceSpec &spec,
                                      const std::vector<int> &specIndex) {
  for (Operation *op : dlc::modelOps(func)) {
    if (isa<func::ReturnOp>(op))
      continue;
    std::string reason = isa<dlc::CopyOp>(op) ? "copy" : dlc::getDevicePin(op) ? "pinned" : "default";
    if (auto recorded = op->getAttrOfType<StringAttr>(dlc::attrs::kReason))
      reason = recorded.str();
    contents.placement.push_back({name(op), op->getName().getStringRef().str(),
                                  table.opDevice.lookup(op), reason,
                                  estimateUs(op, spec, specIndex)});
  }
}

FailureOr<std::string> ArtifactTranslator::run() {
  auto scope = [&](StringRef name) {
    return options.timing ? options.timing->nest(name) : TimingScope();
  };
  TimingScope buffers = scope("buffers and constant segments");
  if (failed(readFunction()) || failed(buildBuffers()))
    return failure();
  buffers.stop();
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
  if (failed(addLibraries()) || failed(addCudaModules()) || failed(addKernels()))
    return failure();
  if (options.testDropEventWait >= 0)
    dropEventWait(s.steps, options.testDropEventWait);
  for (auto [device, steps] : llvm::enumerate(s.steps))
    contents.schedules.push_back({static_cast<uint32_t>(device), steps});
  contents.eventCount = s.eventCount;
  if (batch)
    contents.symbols.push_back({batch->name, batch->bound});
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

FailureOr<std::string> dlc::translateToArtifact(ModuleOp module, const CodegenOptions &options) {
  func::FuncOp func = entryFunction(module, options.entry);
  if (!func)
    return failure();
  return ArtifactTranslator(func, options).run();
}

namespace {
struct WriteArtifactPass : PassWrapper<WriteArtifactPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WriteArtifactPass)
  WriteArtifactPass(const dlc::CodegenOptions &options,
                    std::function<llvm::Error(std::string &&)> sink)
      : options(options), sink(std::move(sink)) {}
  StringRef getArgument() const override { return "dlc-write-artifact"; }

  void runOnOperation() override {
    FailureOr<std::string> artifact = dlc::translateToArtifact(getOperation(), options);
    if (failed(artifact))
      return signalPassFailure();
    if (!sink)
      return;
    if (llvm::Error error = sink(std::move(*artifact))) {
      getOperation().emitError() << llvm::toString(std::move(error));
      signalPassFailure();
    }
  }

  dlc::CodegenOptions options;
  std::function<llvm::Error(std::string &&)> sink;
};
} // namespace

std::unique_ptr<Pass>
dlc::createWriteArtifact(const CodegenOptions &options,
                         std::function<llvm::Error(std::string &&)> sink) {
  return std::make_unique<WriteArtifactPass>(options, std::move(sink));
}
