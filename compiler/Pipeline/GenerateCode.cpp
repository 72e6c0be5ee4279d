//===- GenerateCode.cpp - dlc-codegen: the kernels' code, as IR -----------===//
//
// The codegen stage (ArtifactStages.h): reads the scheduled function's
// kernels, makes their code (CUDA C++ and NVRTC for GPU kernels; every kernel
// outlined and compiled by the CPU path into one shared object, which is
// also what simulated GPUs run; with --gpu-host-code=emulated, the GPU
// kernels' CUDA C++ compiled for the emulation as a second one) and writes
// it back onto the IR: the bytes as resource blobs in #dlc.library and
// #dlc.cuda_module attributes of the function, where each kernel's code is
// as a #dlc.kernel_code on its dlc.kernel op. The artifact stage then only
// translates.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipeline/ArtifactStages.h"
#include "compiler/Pipeline/SchedulePasses.h"
#include "compiler/Pipeline/ScheduleIR.h"
#include "compiler/Target/CPU/CpuTarget.h"
#include "compiler/Target/CUDA/CudaEmitter.h"
#include "compiler/Target/CUDA/EmulatedHostCode.h"
#include "compiler/Target/CUDA/Nvrtc.h"
#include "passes/BatchRows.h"
#include "passes/Passes.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace dlc::schedule;

namespace {

/// `bytes` as a 1-D i8 resource blob named after `name` (made unique in
/// the context), owning them without a copy.
DenseResourceElementsAttr blobOf(MLIRContext *ctx, StringRef name, std::string bytes) {
  auto type = RankedTensorType::get({int64_t(bytes.size())}, IntegerType::get(ctx, 8));
  auto *owned = new std::string(std::move(bytes));
  AsmResourceBlob blob(ArrayRef<char>(owned->data(), owned->size()), alignof(char),
                       [owned](void *, size_t, size_t) { delete owned; },
                       /*dataIsMutable=*/false);
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

class CodeGenerator {
public:
  CodeGenerator(func::FuncOp func, const dlc::CodegenOptions &options)
      : func(func), options(options), ctx(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult emitCudaKernels();
  LogicalResult compileCuda();
  LogicalResult analyseSymbolicBatch(StringAttr name);
  RankedTensorType unitType(Value v) const;
  void toOneUnit(Operation *op, Operation *clone) const;
  void outlineKernel(ModuleOp module, const Kernel &kernel, unsigned index);
  void shareIdenticalKernels(ModuleOp module);
  LogicalResult compileCpuCode();
  LogicalResult compileEmulatedCode();
  void writeLibraries();
  void writeKernelCode();
  TimingScope scope(StringRef name) {
    return options.timing ? options.timing->nest(name) : TimingScope();
  }

  func::FuncOp func;
  const dlc::CodegenOptions &options;
  MLIRContext *ctx;

  KernelTable table;
  std::vector<dlc::cuda::KernelSource> cudaKernels;
  std::vector<int> cudaKernelOf; // kernel K's index in cudaKernels, or -1
  std::vector<unsigned> codeOf;  // kernel K runs kernel codeOf[K]'s CPU code
  std::optional<dlc::cuda::CompiledModule> cudaModule;
  std::optional<dlc::CpuLibrary> library;
  std::optional<std::string> emulated;
  // A symbolic batch: rows per unit of the batch of every value carrying it.
  llvm::DenseMap<Value, int64_t> unitRows;
};

// The GPU kernels' CUDA C++ (compiler/Target/CUDA), one module per model.
LogicalResult CodeGenerator::emitCudaKernels() {
  cudaKernelOf.assign(table.kernels.size(), -1);
  if (!options.cuda && !options.emitCuda && !options.emulatedGpuHostCode)
    return success();
  auto devices = func->getAttrOfType<ArrayAttr>(dlc::attrs::kDevices);
  for (auto [index, kernel] : llvm::enumerate(table.kernels)) {
    if (!cast<dlc::DeviceAttr>(devices[kernel.device]).isCuda())
      continue;
    std::vector<std::string> names;
    for (Operation *op : kernel.ops)
      names.push_back(table.name(op));
    FailureOr<dlc::cuda::KernelSource> source = dlc::cuda::emitKernel(
        kernel.ops, kernel.inputs, kernel.outputs, "k" + std::to_string(index), names);
    if (failed(source))
      return failure();
    cudaKernelOf[index] = cudaKernels.size();
    cudaKernels.push_back(std::move(*source));
  }
  return success();
}

// NVRTC: PTX and CUBINs, or a warning and host code only without it.
LogicalResult CodeGenerator::compileCuda() {
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

// A symbolic batch (dlc.symbolic_batch): which values carry it, and how many
// rows per unit (BatchRows.h); the inputs' dim 0 is its bound. Kernels are
// then outlined at one unit, the code a batch-1 compile makes of them.
LogicalResult CodeGenerator::analyseSymbolicBatch(StringAttr name) {
  SmallVector<BlockArgument> inputs;
  for (BlockArgument arg : func.getArguments())
    if (!func.getArgAttr(arg.getArgNumber(), dlc::attrs::kState))
      inputs.push_back(arg);
  if (inputs.empty())
    return func.emitError() << "symbolic batch '" << name.getValue()
                            << "': the function has no inputs";
  auto first = dyn_cast<RankedTensorType>(inputs.front().getType());
  int64_t bound = first && first.getRank() ? first.getDimSize(0) : -1;
  FailureOr<llvm::DenseMap<Value, int64_t>> rows = dlc::analyseBatchRows(
      func, inputs, bound, ("symbolic batch '" + name.getValue() + "'").str());
  if (failed(rows))
    return failure();
  unitRows = std::move(*rows);
  return success();
}

// `v`'s type at one unit of the symbolic batch (its own where it has none).
RankedTensorType CodeGenerator::unitType(Value v) const {
  auto type = cast<RankedTensorType>(v.getType());
  auto rows = unitRows.find(v);
  if (rows == unitRows.end())
    return type;
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = rows->second;
  return RankedTensorType::get(shape, type.getElementType(), type.getEncoding());
}

// `clone` of `op` at one unit: its results' types, and a slice's end on dim 0
// (the batch rules let a slice keep the whole of it).
void CodeGenerator::toOneUnit(Operation *op, Operation *clone) const {
  for (auto [result, cloned] : llvm::zip(op->getResults(), clone->getResults()))
    cloned.setType(unitType(result));
  if (auto slice = dyn_cast<dlc::SliceOp>(clone); slice && unitRows.count(op->getOperand(0))) {
    SmallVector<int64_t> ends(slice.getEnds());
    ends[0] = unitRows.lookup(op->getOperand(0));
    slice.setEnds(ends);
  }
}

void CodeGenerator::outlineKernel(ModuleOp module, const Kernel &kernel, unsigned index) {
  Location loc = kernel.ops.front()->getLoc();
  SmallVector<Type> argTypes;
  for (Value v : llvm::concat<const Value>(kernel.inputs, kernel.outputs)) {
    RankedTensorType type = unitType(v);
    argTypes.push_back(MemRefType::get(type.getShape(), type.getElementType()));
  }
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module.getBody());
  auto fn = builder.create<func::FuncOp>(loc, "k" + std::to_string(index),
                                         FunctionType::get(ctx, argTypes, {}));
  Block *entry = fn.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  IRMapping mapping;
  for (auto [i, input] : llvm::enumerate(kernel.inputs))
    mapping.map(input, builder.create<bufferization::ToTensorOp>(
                           loc, unitType(input), entry->getArgument(i),
                           /*restrict=*/true, /*writable=*/false));
  for (Operation *op : kernel.ops) {
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand) && dlc::isInlinableConstant(operand.getDefiningOp()))
        builder.clone(*operand.getDefiningOp(), mapping);
    Operation *clone = builder.clone(*op, mapping);
    // Placement's records differ from op to op and mean nothing to the
    // code: kept, they would keep identical kernels from sharing it.
    clone->removeAttr(dlc::attrs::kOrder);
    clone->removeAttr(dlc::attrs::kReason);
    if (!unitRows.empty())
      toOneUnit(op, clone);
  }
  for (auto [i, output] : llvm::enumerate(kernel.outputs)) {
    auto store = builder.create<bufferization::MaterializeInDestinationOp>(
        loc, TypeRange{}, mapping.lookup(output), entry->getArgument(kernel.inputs.size() + i));
    store.setRestrict(true);
    store.setWritable(true);
  }
  builder.create<func::ReturnOp>(loc);
}

// Kernels whose outlined code is the same (ResNet's repeated blocks, a
// transformer's layers: the same shapes and fused ops, their weights passed
// as buffers) are compiled once; the others call the first one's code. Small
// constants are cloned into the code, so kernels differing in them differ.
void CodeGenerator::shareIdenticalKernels(ModuleOp module) {
  codeOf.resize(table.kernels.size());
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
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
LogicalResult CodeGenerator::compileCpuCode() {
  OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
  for (auto [index, kernel] : llvm::enumerate(table.kernels))
    outlineKernel(*module, kernel, index);
  if (!unitRows.empty() && failed(verify(*module)))
    return func.emitError() << "symbolic batch: a kernel's ops do not verify at one unit of "
                               "the batch (above)";
  if (options.emitKernels) {
    module->print(*options.emitKernels);
    *options.emitKernels << "\n";
    return success();
  }
  shareIdenticalKernels(*module);
  if (failed(dlc::lowerCpuKernelsToLLVMDialect(*module, dlc::cpuKernelTiles(options.cpu),
                                               options.timing, options.progress)))
    return failure();
  FailureOr<dlc::CpuLibrary> compiled = dlc::compileCpuLibrary(
      *module, options.cpu, options.emitLLVM, options.timing, options.progress);
  if (failed(compiled))
    return failure();
  library = std::move(*compiled);
  return success();
}

// Library 1: the GPU kernels' CUDA C++ run by the emulation (simulated GPUs).
LogicalResult CodeGenerator::compileEmulatedCode() {
  if (!options.emulatedGpuHostCode || cudaKernels.empty())
    return success();
  TimingScope timed = scope("GPU kernels: emulated host code");
  llvm::Expected<std::string> built =
      dlc::cuda::buildEmulatedHostCode(cudaKernels, dlc::kEntrySuffix);
  if (!built)
    return func.emitError() << llvm::toString(built.takeError());
  emulated = std::move(*built);
  return success();
}

// dlc.libraries (the CPU path's, then the emulation's) and dlc.cuda_modules.
void CodeGenerator::writeLibraries() {
  Builder b(ctx);
  SmallVector<Attribute> features;
  for (const std::string &feature : library->cpuFeatures)
    features.push_back(b.getStringAttr(feature));
  SmallVector<Attribute> libraries{dlc::LibraryAttr::get(
      ctx, blobOf(ctx, "dlc_library", std::move(library->sharedObject)), library->targetTriple,
      library->targetCpu, features.empty() ? ArrayAttr() : b.getArrayAttr(features))};
  if (emulated)
    libraries.push_back(dlc::LibraryAttr::get(ctx, blobOf(ctx, "dlc_emulated_gpu", std::move(*emulated)),
                                              library->targetTriple, "generic", ArrayAttr()));
  func->setAttr(dlc::attrs::kLibraries, b.getArrayAttr(libraries));
  if (!cudaModule) {
    func->removeAttr(dlc::attrs::kCudaModules);
    return;
  }
  SmallVector<Attribute> archs, cubins;
  for (auto &[arch, cubin] : cudaModule->cubins) {
    archs.push_back(b.getStringAttr(arch));
    cubins.push_back(blobOf(ctx, "dlc_cubin_" + arch, std::move(cubin)));
  }
  auto module = dlc::CudaModuleAttr::get(
      ctx, cudaModule->ptxArch, blobOf(ctx, "dlc_cuda_source", dlc::cuda::moduleSource(cudaKernels)),
      blobOf(ctx, "dlc_ptx", std::move(cudaModule->ptx)), b.getArrayAttr(archs),
      b.getArrayAttr(cubins));
  func->setAttr(dlc::attrs::kCudaModules, b.getArrayAttr({module}));
}

// Each kernel's dlc.code: its symbol in a library, and its CUDA launch.
void CodeGenerator::writeKernelCode() {
  Builder b(ctx);
  for (auto [index, kernel] : llvm::enumerate(table.kernels)) {
    bool gpu = cudaKernelOf[index] >= 0;
    // The CPU path's library shares identical kernels' code; the emulated
    // GPU code (library 1) has one function per kernel.
    int64_t lib = gpu && options.emulatedGpuHostCode ? 1 : 0;
    unsigned code = lib == 0 ? codeOf[index] : index;
    std::string symbol = "k" + std::to_string(code) + dlc::kEntrySuffix;
    dlc::KernelCodeAttr attr;
    if (gpu && cudaModule) {
      const dlc::cuda::KernelSource &source = cudaKernels[cudaKernelOf[index]];
      auto dims = [&](const std::array<uint32_t, 3> &d) {
        return b.getDenseI64ArrayAttr({d[0], d[1], d[2]});
      };
      attr = dlc::KernelCodeAttr::get(ctx, lib, symbol, 0, b.getStringAttr(source.entry),
                                      dims(source.grid), dims(source.block), source.sharedBytes);
    } else {
      attr = dlc::KernelCodeAttr::get(ctx, lib, symbol, -1, {}, {}, {}, 0);
    }
    kernel.op->setAttr(dlc::attrs::kCode, attr);
  }
}

LogicalResult CodeGenerator::run() {
  FailureOr<Schedule> schedule = readSchedule(func, /*needPlan=*/true);
  if (failed(schedule))
    return failure();
  FailureOr<KernelTable> read = readKernels(func, *schedule);
  if (failed(read))
    return failure();
  table = std::move(*read);
  if (auto batch = func->getAttrOfType<StringAttr>(dlc::attrs::kSymbolicBatch)) {
    if (failed(analyseSymbolicBatch(batch)))
      return failure();
    auto devices = func->getAttrOfType<ArrayAttr>(dlc::attrs::kDevices);
    for (auto [index, kernel] : llvm::enumerate(table.kernels))
      if (cast<dlc::DeviceAttr>(devices[kernel.device]).isCuda())
        return kernel.op->emitError()
               << "symbolic batch '" << batch.getValue() << "': kernel " << index
               << " is on a GPU, and GPU kernels per unit of the batch are not built yet: "
                  "place the model on the CPU";
  }
  if (failed(emitCudaKernels()))
    return failure();
  if (options.emitCuda) {
    if (!cudaKernels.empty())
      *options.emitCuda << dlc::cuda::moduleSource(cudaKernels);
    return success();
  }
  TimingScope nvrtc = scope("CUDA kernels: NVRTC");
  if (failed(compileCuda()))
    return failure();
  nvrtc.stop();
  if (options.emitPtx) {
    if (cudaModule)
      *options.emitPtx << cudaModule->ptx;
    return success();
  }
  if (failed(compileCpuCode()))
    return failure();
  if (!library)
    return success(); // --emit=mlir
  if (failed(compileEmulatedCode()))
    return failure();
  writeLibraries();
  writeKernelCode();
  return success();
}

struct GenerateCodePass : PassWrapper<GenerateCodePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GenerateCodePass)
  explicit GenerateCodePass(const dlc::CodegenOptions &options) : options(options) {}
  StringRef getArgument() const override { return "dlc-codegen"; }
  // Outlining builds bufferization and memref ops; the CPU path's passes
  // (run on the kernels' own module) need theirs loaded up front.
  void getDependentDialects(DialectRegistry &registry) const override {
    dlc::registerCpuPipelineDialects(registry);
  }
  void runOnOperation() override {
    if (failed(dlc::generateCode(getOperation(), options)))
      signalPassFailure();
  }
  dlc::CodegenOptions options;
};

} // namespace

LogicalResult dlc::generateCode(ModuleOp module, const CodegenOptions &options) {
  func::FuncOp func = entryFunction(module, options.entry);
  if (!func)
    return failure();
  return CodeGenerator(func, options).run();
}

std::unique_ptr<Pass> dlc::createGenerateCode(const CodegenOptions &options) {
  return std::make_unique<GenerateCodePass>(options);
}
