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
  RankedTensorType unitType(Value v, int64_t units) const;
  MemRefType unitMemRefType(Value v, int64_t units) const;
  bool touchesMovedBatch(const Kernel &kernel) const;
  void toUnits(Operation *op, Operation *clone, int64_t units) const;
  int64_t chunkUnitsOf(const Kernel &kernel) const;
  void cloneConstant(OpBuilder &builder, Value constant, IRMapping &mapping,
                     int64_t units) const;
  SmallVector<Operation *> cloneKernelOps(OpBuilder &builder, const Kernel &kernel,
                                          IRMapping &mapping, int64_t units) const;
  Kernel cloneAtOneUnit(ModuleOp scratch, const Kernel &kernel) const;
  static int64_t chunkMinUnitsOf(const Kernel &kernel, int64_t units);
  void outlineKernel(ModuleOp module, const Kernel &kernel, StringRef name, int64_t units);
  func::FuncOp buildKernelFunction(ModuleOp module, const Kernel &kernel, StringRef name,
                                   ArrayRef<Type> argTypes,
                                   llvm::function_ref<RankedTensorType(Value)> tensorType,
                                   llvm::function_ref<void(OpBuilder &, IRMapping &)> cloneOps) const;
  bool isSized(const Kernel &kernel) const { return sized.kernels.contains(kernel.op); }
  static int64_t sentinelSizeOf(const Kernel &kernel, int64_t bound);
  RankedTensorType sizedType(Value v, int64_t sentinel) const;
  void cloneSizedOps(OpBuilder &builder, const Kernel &kernel, IRMapping &mapping,
                     int64_t sentinel) const;
  void outlineSizedKernel(ModuleOp module, const Kernel &kernel, StringRef name);
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
  /// The CPU code each function runs: its own name, or the first identical
  /// function's (shareIdenticalKernels).
  llvm::StringMap<std::string> codeOf;
  std::vector<int64_t> chunkUnits; // By kernel: a chunk body's units, or 0.
  std::vector<int64_t> chunkMinUnits; // By kernel: tails that run it, or 0.
  std::optional<dlc::cuda::CompiledModule> cudaModule;
  std::optional<dlc::CpuLibrary> library;
  std::optional<std::string> emulated;
  // A symbolic batch: rows per unit of the batch of every value carrying it.
  llvm::DenseMap<Value, int64_t> unitRows;
  // Values whose batch is off dim 0 (BatchRows.h, BatchLayout): each unit a
  // strided slice of the bound's buffer.
  dlc::BatchLayouts moved;
  // Kernels that read the symbol's dims whole, sized at run time.
  dlc::SizedKernels sized;
  int64_t batchBound = 0;
};

// The GPU kernels' CUDA C++ (compiler/Target/CUDA), one module per model.
// With a symbolic batch, each is emitted from its ops cloned at one unit
// (the runtime launches it once per unit).
LogicalResult CodeGenerator::emitCudaKernels() {
  cudaKernelOf.assign(table.kernels.size(), -1);
  if (!options.cuda && !options.emitCuda && !options.emulatedGpuHostCode)
    return success();
  auto devices = func->getAttrOfType<ArrayAttr>(dlc::attrs::kDevices);
  OwningOpRef<ModuleOp> units = ModuleOp::create(func.getLoc());
  for (auto [index, kernel] : llvm::enumerate(table.kernels)) {
    if (!cast<dlc::DeviceAttr>(devices[kernel.device]).isCuda())
      continue;
    if (isSized(kernel))
      return kernel.ops.front()->emitError()
             << "symbolic size: GPU kernel " << index << " ('" << table.name(kernel.ops.front())
             << "') reads the symbol's dims whole (a kernel sized at run time), which the CUDA "
                "kernels do not take yet: pin it to the CPU";
    if (touchesMovedBatch(kernel))
      return kernel.ops.front()->emitError()
             << "symbolic batch: GPU kernel " << index << " ('" << table.name(kernel.ops.front())
             << "') reads or writes the batch off dim 0 (a strided unit), which the CUDA "
                "kernels do not take yet: pin it to the CPU";
    std::vector<std::string> names;
    for (Operation *op : kernel.ops)
      names.push_back(table.name(op));
    Kernel emitted = unitRows.empty() ? kernel : cloneAtOneUnit(*units, kernel);
    FailureOr<dlc::cuda::KernelSource> source = dlc::cuda::emitKernel(
        emitted.ops, emitted.inputs, emitted.outputs, "k" + std::to_string(index), names);
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

// `v`'s type at `units` units of the symbolic batch (its own where it has
// none).
RankedTensorType CodeGenerator::unitType(Value v, int64_t units) const {
  auto type = cast<RankedTensorType>(v.getType());
  auto rows = unitRows.find(v);
  if (rows == unitRows.end())
    return type;
  SmallVector<int64_t> shape(type.getShape());
  auto layout = moved.find(v);
  if (layout == moved.end())
    shape[0] = rows->second * units;
  else // (outer > 1 only with one row and one unit: chunkUnitsOf)
    shape[layout->second.dim] = layout->second.outer * layout->second.rows * units;
  return RankedTensorType::get(shape, type.getElementType(), type.getEncoding());
}

// The strides of `v`'s buffer, made for the bound (row-major).
SmallVector<int64_t> boundStrides(Value v) {
  ArrayRef<int64_t> bound = cast<RankedTensorType>(v.getType()).getShape();
  SmallVector<int64_t> strides(bound.size(), 1);
  for (int64_t d = int64_t(bound.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * bound[d + 1];
  return strides;
}

// The buffer `v`'s kernels see at `units` units: the unit type, with the
// bound's strides where the batch is off dim 0 (a unit is a strided slice
// of the bound's buffer; the runtime advances the pointer per unit), and
// with outer > 1 dim `dim` steps over the other units' rows.
MemRefType CodeGenerator::unitMemRefType(Value v, int64_t units) const {
  RankedTensorType type = unitType(v, units);
  auto layout = moved.find(v);
  if (layout == moved.end())
    return MemRefType::get(type.getShape(), type.getElementType());
  SmallVector<int64_t> strides = boundStrides(v);
  if (layout->second.outer > 1)
    strides[layout->second.dim] *= batchBound * layout->second.rows;
  return MemRefType::get(type.getShape(), type.getElementType(),
                         StridedLayoutAttr::get(ctx, /*offset=*/0, strides));
}

// Whether a kernel reads or writes a value whose batch is off dim 0.
bool CodeGenerator::touchesMovedBatch(const Kernel &kernel) const {
  auto isMoved = [&](Value v) { return moved.count(v) != 0; };
  return llvm::any_of(kernel.inputs, isMoved) || llvm::any_of(kernel.outputs, isMoved);
}

// `clone` of `op` at `units` units: its results' types, and a slice's end on
// dim 0 (the batch rules let a slice keep the whole of it).
void CodeGenerator::toUnits(Operation *op, Operation *clone, int64_t units) const {
  for (auto [result, cloned] : llvm::zip(op->getResults(), clone->getResults()))
    cloned.setType(unitType(result, units));
  if (auto slice = dyn_cast<dlc::SliceOp>(clone); slice && unitRows.count(op->getOperand(0))) {
    // The batch rules let a slice keep the whole of the batch's dim.
    auto layout = moved.find(op->getOperand(0));
    int64_t dim = layout == moved.end() ? 0 : layout->second.dim;
    SmallVector<int64_t> ends(slice.getEnds());
    ends[dim] = unitType(op->getOperand(0), units).getDimSize(dim);
    slice.setEnds(ends);
  }
}

// A small constant folded into a kernel's code: as it is, or (one spanning
// the batch's rows with its units alike, BatchRows.h) at `units` units.
void CodeGenerator::cloneConstant(OpBuilder &builder, Value constant, IRMapping &mapping,
                                  int64_t units) const {
  Operation *clone = builder.clone(*constant.getDefiningOp(), mapping);
  if (!unitRows.count(constant))
    return;
  // Its units are alike (BatchRows.h): the first `units` of them.
  RankedTensorType type = unitType(constant, units);
  auto dense = cast<DenseElementsAttr>(cast<dlc::ConstantOp>(clone).getValue());
  DenseElementsAttr unit;
  if (dense.isSplat()) {
    unit = dense.resizeSplat(type);
  } else {
    ArrayRef<char> raw = dense.getRawData();
    size_t bytes = raw.size() / size_t(batchBound) * size_t(units);
    unit = DenseElementsAttr::getFromRawBuffer(type, raw.take_front(bytes));
  }
  cast<dlc::ConstantOp>(clone).setValueAttr(unit);
  clone->getResult(0).setType(type);
}

// `kernel`'s ops cloned at the builder (with the small constants they fold
// in), at `units` units of a symbolic batch; `mapping` holds its inputs.
SmallVector<Operation *> CodeGenerator::cloneKernelOps(OpBuilder &builder, const Kernel &kernel,
                                                       IRMapping &mapping, int64_t units) const {
  SmallVector<Operation *> clones;
  for (Operation *op : kernel.ops) {
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand) && dlc::isInlinableConstant(operand.getDefiningOp()))
        cloneConstant(builder, operand, mapping, units);
    Operation *clone = builder.clone(*op, mapping);
    // Placement's records differ from op to op and mean nothing to the
    // code: kept, they would keep identical kernels from sharing it.
    clone->removeAttr(dlc::attrs::kOrder);
    clone->removeAttr(dlc::attrs::kReason);
    if (!unitRows.empty())
      toUnits(op, clone, units);
    clones.push_back(clone);
  }
  return clones;
}

// `kernel`'s ops cloned at one unit of the batch into a function of
// `scratch` whose tensor arguments are its inputs (the CUDA emitter reads
// types off the ops); the small constants it inlines are cloned with them.
Kernel CodeGenerator::cloneAtOneUnit(ModuleOp scratch, const Kernel &kernel) const {
  SmallVector<Type> argTypes;
  for (Value input : kernel.inputs)
    argTypes.push_back(unitType(input, 1));
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(scratch.getBody());
  auto fn = builder.create<func::FuncOp>(kernel.ops.front()->getLoc(), "unit",
                                         FunctionType::get(ctx, argTypes, {}));
  builder.setInsertionPointToStart(fn.addEntryBlock());
  IRMapping mapping;
  Kernel unit = kernel;
  unit.ops.clear();
  unit.inputs.clear();
  unit.outputs.clear();
  for (auto [i, input] : llvm::enumerate(kernel.inputs)) {
    mapping.map(input, fn.getArgument(i));
    unit.inputs.push_back(fn.getArgument(i));
  }
  unit.ops = cloneKernelOps(builder, kernel, mapping, 1);
  for (Value output : kernel.outputs)
    unit.outputs.push_back(mapping.lookup(output));
  return unit;
}

// A kernel of a symbolic batch whose matmul takes few rows per unit (a
// Linear on the batch's rows: an MLP, a classifier head) also gets a body
// for kChunkRows rows at once, so that a large batch runs GEMMs, not one
// matrix-vector product per unit; so does a kernel writing so few elements
// per unit that calling it once per unit costs more than its work (an
// LSTM's gates: [1, 32] per unit and step). 0: no chunk body.
int64_t CodeGenerator::chunkUnitsOf(const Kernel &kernel) const {
  constexpr int64_t kChunkRows = 8;
  if (isSized(kernel))
    return 0;
  // Several units of an interleaved dim (outer > 1) are no strided slice.
  auto interleaved = [&](Value v) {
    auto layout = moved.find(v);
    return layout != moved.end() && layout->second.outer > 1;
  };
  if (llvm::any_of(kernel.inputs, interleaved) || llvm::any_of(kernel.outputs, interleaved))
    return 0;
  int64_t fewest = 0;
  for (Operation *op : kernel.ops)
    if (isa<dlc::MatmulOp>(op))
      if (int64_t rows = unitRows.lookup(op->getOperand(0)); rows && rows < kChunkRows)
        fewest = fewest ? std::min(fewest, rows) : rows;
  constexpr int64_t kTinyUnitElements = 1024;
  int64_t written = 0;
  for (Value output : kernel.outputs)
    written += unitType(output, 1).getNumElements();
  if (!fewest && written <= kTinyUnitElements)
    fewest = 1;
  if (!fewest)
    return 0;
  int64_t units = std::min(batchBound, (kChunkRows + fewest - 1) / fewest);
  return units >= 2 ? units : 0;
}

// A tail of at least half a chunk runs the chunk body over a whole chunk (a
// GEMM of 8 rows costs about what a matrix-vector product does: the weights'
// bytes dominate; measured on the MLP, test/bench/symbolic_batch_bench.py).
// The units past the batch hold stale bytes, so not for a kernel that reads
// integers (indices: a stale one could address outside its table).
int64_t CodeGenerator::chunkMinUnitsOf(const Kernel &kernel, int64_t units) {
  for (Operation *op : kernel.ops)
    for (Value operand : op->getOperands())
      if (auto type = dyn_cast<ShapedType>(operand.getType()))
        if (type.getElementType().isInteger() && !type.getElementType().isInteger(1))
          return 0;
  return (units + 1) / 2;
}

void CodeGenerator::outlineKernel(ModuleOp module, const Kernel &kernel, StringRef name,
                                  int64_t units) {
  if (isSized(kernel))
    return outlineSizedKernel(module, kernel, name);
  SmallVector<Type> argTypes;
  for (Value v : llvm::concat<const Value>(kernel.inputs, kernel.outputs))
    argTypes.push_back(unitMemRefType(v, units));
  buildKernelFunction(
      module, kernel, name, argTypes, [&](Value v) { return unitType(v, units); },
      [&](OpBuilder &b, IRMapping &mapping) { cloneKernelOps(b, kernel, mapping, units); });
}

// `kernel` as function `name` of `module` taking `argTypes` (its inputs'
// and outputs' buffers, then any more): its inputs as tensors of
// `tensorType`, its ops cloned by `cloneOps`, its outputs stored into their
// buffers.
func::FuncOp CodeGenerator::buildKernelFunction(
    ModuleOp module, const Kernel &kernel, StringRef name, ArrayRef<Type> argTypes,
    llvm::function_ref<RankedTensorType(Value)> tensorType,
    llvm::function_ref<void(OpBuilder &, IRMapping &)> cloneOps) const {
  Location loc = kernel.ops.front()->getLoc();
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module.getBody());
  auto fn = builder.create<func::FuncOp>(loc, name, FunctionType::get(ctx, argTypes, {}));
  Block *entry = fn.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  for (auto [i, input] : llvm::enumerate(kernel.inputs))
    mapping.map(input, builder.create<bufferization::ToTensorOp>(
                           loc, tensorType(input), entry->getArgument(i),
                           /*restrict=*/true, /*writable=*/false));
  cloneOps(builder, mapping);
  for (auto [i, output] : llvm::enumerate(kernel.outputs)) {
    auto store = builder.create<bufferization::MaterializeInDestinationOp>(
        loc, TypeRange{}, mapping.lookup(output), entry->getArgument(kernel.inputs.size() + i));
    store.setRestrict(true);
    store.setWritable(true);
  }
  builder.create<func::ReturnOp>(loc);
  return fn;
}

// A kernel sized at run time is lowered with the symbol's dims at a
// sentinel size: a prime above every dim of its values and the bound, so
// that after lowering, a loop running to it is one over the symbol's extent
// (made to run to the run's size, CpuPipeline.cpp's SizeLoopsAtRunTime) and
// a loop running to a multiple of it merged that extent with another dim
// (refused there).
int64_t CodeGenerator::sentinelSizeOf(const Kernel &kernel, int64_t bound) {
  int64_t largest = bound;
  auto see = [&](Value v) {
    if (auto type = dyn_cast<RankedTensorType>(v.getType()))
      for (int64_t d : type.getShape())
        largest = std::max(largest, d);
  };
  for (Value v : llvm::concat<const Value>(kernel.inputs, kernel.outputs))
    see(v);
  for (Operation *op : kernel.ops) {
    llvm::for_each(op->getOperands(), see);
    llvm::for_each(op->getResults(), see);
  }
  auto isPrime = [](int64_t n) {
    for (int64_t f = 2; f * f <= n; ++f)
      if (n % f == 0)
        return false;
    return n >= 2;
  };
  int64_t p = largest + 1;
  while (!isPrime(p))
    ++p;
  return p;
}

// `v`'s type in a sized kernel: its symbol dims at the sentinel.
RankedTensorType CodeGenerator::sizedType(Value v, int64_t sentinel) const {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d : sized.dims.lookup(v))
    shape[d] = sentinel;
  return RankedTensorType::get(shape, type.getElementType(), type.getEncoding());
}

// `kernel`'s ops cloned with the symbol's dims at the sentinel: results
// retyped, whole slices kept whole, small constants padded (the part past
// the bound is never read).
void CodeGenerator::cloneSizedOps(OpBuilder &builder, const Kernel &kernel, IRMapping &mapping,
                                  int64_t sentinel) const {
  for (Operation *op : kernel.ops) {
    for (Value operand : op->getOperands()) {
      if (mapping.contains(operand) || !dlc::isInlinableConstant(operand.getDefiningOp()))
        continue;
      auto clone = cast<dlc::ConstantOp>(builder.clone(*operand.getDefiningOp(), mapping));
      RankedTensorType type = sizedType(operand, sentinel);
      if (type == operand.getType())
        continue;
      auto dense = cast<DenseElementsAttr>(clone.getValue());
      SmallVector<Attribute> values(dense.getValues<Attribute>());
      ArrayRef<int64_t> from = cast<RankedTensorType>(operand.getType()).getShape();
      SmallVector<Attribute> padded(type.getNumElements(), values.front());
      for (int64_t i = 0, e = int64_t(values.size()); i < e; ++i) {
        int64_t rest = i, at = 0, stride = 1;
        for (int64_t d = int64_t(from.size()) - 1; d >= 0; --d) {
          at += (rest % from[d]) * stride;
          rest /= from[d];
          stride *= type.getDimSize(d);
        }
        padded[at] = values[i];
      }
      clone.setValueAttr(DenseElementsAttr::get(type, padded));
      clone->getResult(0).setType(type);
    }
    Operation *clone = builder.clone(*op, mapping);
    clone->removeAttr(dlc::attrs::kOrder);
    clone->removeAttr(dlc::attrs::kReason);
    for (auto [result, cloned] : llvm::zip(op->getResults(), clone->getResults()))
      cloned.setType(sizedType(result, sentinel));
    if (auto slice = dyn_cast<dlc::SliceOp>(clone)) {
      SmallVector<int64_t> ends(slice.getEnds());
      for (int64_t d : sized.dims.lookup(op->getOperand(0)))
        ends[d] = sentinel;
      slice.setEnds(ends);
    }
  }
}

// A kernel sized at run time: its buffers are the bound's (memrefs with the
// bound's strides, the symbol's dims at the sentinel), and a last argument
// holds the run's size (an i64), which its loops over those dims run to.
void CodeGenerator::outlineSizedKernel(ModuleOp module, const Kernel &kernel, StringRef name) {
  int64_t sentinel = sentinelSizeOf(kernel, batchBound);
  SmallVector<Type> argTypes;
  for (Value v : llvm::concat<const Value>(kernel.inputs, kernel.outputs)) {
    RankedTensorType type = sizedType(v, sentinel);
    argTypes.push_back(MemRefType::get(type.getShape(), type.getElementType(),
                                       StridedLayoutAttr::get(ctx, /*offset=*/0, boundStrides(v))));
  }
  argTypes.push_back(MemRefType::get({}, IntegerType::get(ctx, 64)));
  func::FuncOp fn = buildKernelFunction(
      module, kernel, name, argTypes, [&](Value v) { return sizedType(v, sentinel); },
      [&](OpBuilder &b, IRMapping &mapping) { cloneSizedOps(b, kernel, mapping, sentinel); });
  fn->setAttr(dlc::attrs::kSizedAtRunTime, Builder(ctx).getI64IntegerAttr(sentinel));
}

// Kernels whose outlined code is the same (ResNet's repeated blocks, a
// transformer's layers: the same shapes and fused ops, their weights passed
// as buffers) are compiled once; the others call the first one's code. Small
// constants are cloned into the code, so kernels differing in them differ.
void CodeGenerator::shareIdenticalKernels(ModuleOp module) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  llvm::DenseMap<Type, SmallVector<func::FuncOp>> firstsOfType;
  SmallVector<func::FuncOp> shared;
  for (func::FuncOp fn : funcs) {
    codeOf[fn.getSymName()] = fn.getSymName().str();
    SmallVector<func::FuncOp> &firsts = firstsOfType[fn.getFunctionType()];
    auto same = llvm::find_if(firsts, [&](func::FuncOp first) {
      return OperationEquivalence::isRegionEquivalentTo(&first.getBody(), &fn.getBody(),
                                                        OperationEquivalence::IgnoreLocations);
    });
    if (same == firsts.end()) {
      firsts.push_back(fn);
      continue;
    }
    codeOf[fn.getSymName()] = same->getSymName().str();
    shared.push_back(fn);
  }
  for (func::FuncOp fn : shared)
    fn.erase();
}

// The kernels, outlined and compiled into one shared object (--emit=mlir
// prints the outlined module and stops: `library` stays empty).
LogicalResult CodeGenerator::compileCpuCode() {
  OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
  chunkUnits.assign(table.kernels.size(), 0);
  chunkMinUnits.assign(table.kernels.size(), 0);
  for (auto [index, kernel] : llvm::enumerate(table.kernels))
    outlineKernel(*module, kernel, "k" + std::to_string(index), 1);
  for (auto [index, kernel] : llvm::enumerate(table.kernels)) {
    if (unitRows.empty() || cudaKernelOf[index] >= 0)
      continue;
    chunkUnits[index] = chunkUnitsOf(kernel);
    if (!chunkUnits[index])
      continue;
    chunkMinUnits[index] = chunkMinUnitsOf(kernel, chunkUnits[index]);
    outlineKernel(*module, kernel, "c" + std::to_string(index), chunkUnits[index]);
  }
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
    std::string name = "k" + std::to_string(index);
    std::string symbol = (lib == 0 ? codeOf.lookup(name) : name) + dlc::kEntrySuffix;
    if (!chunkUnits.empty() && chunkUnits[index]) {
      kernel.op->setAttr(dlc::attrs::kChunkSymbol,
                         b.getStringAttr(codeOf.lookup("c" + std::to_string(index)) +
                                         dlc::kEntrySuffix));
      kernel.op->setAttr(dlc::attrs::kChunkUnits, b.getI64IntegerAttr(chunkUnits[index]));
      kernel.op->setAttr(dlc::attrs::kChunkMinUnits, b.getI64IntegerAttr(chunkMinUnits[index]));
    }
    if (isSized(kernel))
      kernel.op->setAttr(dlc::attrs::kSizedAtRunTime, b.getUnitAttr());
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
  // A symbolic batch (BatchRows.h): kernels are outlined at one unit of it,
  // the code a batch-1 compile makes of them.
  FailureOr<std::optional<dlc::SymbolicBatch>> symbolic = dlc::analyseSymbolicBatch(func);
  if (failed(symbolic))
    return failure();
  if (*symbolic) {
    unitRows = std::move((*symbolic)->unitRows);
    moved = std::move((*symbolic)->moved);
    sized = std::move((*symbolic)->sized);
    batchBound = (*symbolic)->bound;
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
