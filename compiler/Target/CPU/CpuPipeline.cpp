//===- CpuPipeline.cpp - CPU kernels to LLVM dialect ----------------------===//
//
// The MLIR half of the CPU path (see CpuPipeline.h for the whole picture);
// CpuCodegen.cpp does the LLVM half.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/MemRefUtils.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <atomic>
#include <mutex>

using namespace mlir;

void dlc::registerCpuPipelineDialects(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect, memref::MemRefDialect,
                  linalg::LinalgDialect, scf::SCFDialect, LLVM::LLVMDialect,
                  vector::VectorDialect, cf::ControlFlowDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  // Lets loop-invariant-subset-hoisting see transfers and slices as subsets.
  vector::registerSubsetOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
  // inlineDeallocationHelper inlines func.call.
  func::registerInlinerExtension(registry);
}

/// The deallocation of a loop's carried buffers calls `dealloc_helper`, a
/// function on dynamically shaped memrefs, which kernels' bare-pointer
/// calling convention cannot call: it is inlined into its callers and
/// dropped. (Only loops make it.)
static LogicalResult inlineDeallocationHelper(ModuleOp module) {
  if (!module.lookupSymbol("dealloc_helper"))
    return success();
  PassManager pm(module.getContext());
  pm.addPass(createInlinerPass({}, [](OpPassManager &) {}));
  pm.addPass(createSymbolDCEPass());
  return pm.run(module);
}

// Adds `<name>_entry(ptr %buffers)`: loads one pointer per argument and calls
// the kernel, whose memref arguments the bare-pointer convention made `ptr`s.
static void addEntryWrapper(ModuleOp module, LLVM::LLVMFuncOp kernel) {
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  Location loc = kernel.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(module.getContext());
  auto voidType = LLVM::LLVMVoidType::get(module.getContext());
  auto entry = builder.create<LLVM::LLVMFuncOp>(
      loc, (kernel.getName() + dlc::kEntrySuffix).str(),
      LLVM::LLVMFunctionType::get(voidType, {ptrType}));
  Block *body = entry.addEntryBlock(builder);
  builder.setInsertionPointToStart(body);
  SmallVector<Value> args;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    Value slot = builder.create<LLVM::GEPOp>(
        loc, ptrType, ptrType, body->getArgument(0),
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    args.push_back(builder.create<LLVM::LoadOp>(loc, ptrType, slot));
  }
  builder.create<LLVM::CallOp>(loc, kernel, args);
  builder.create<LLVM::ReturnOp>(loc, ValueRange{});
  // Only the wrappers are exported; the kernels themselves get inlined.
  kernel.setLinkage(LLVM::Linkage::Internal);
}

// Kernels sized at run time are vectorised by LLVM's loop vectoriser, which
// picks 256-bit vectors on AVX-512 CPUs unless told otherwise (their other
// code is MLIR's vectors, at the target's width): told the width the matmul
// tile is made of (two vectors of f32 across), on them and their wrappers.
static void preferFullVectors(ModuleOp module, const dlc::cpu::KernelTiles &tiles) {
  int64_t bits = tiles.vectorBits();
  MLIRContext *ctx = module.getContext();
  auto width = ArrayAttr::get(ctx, {StringAttr::get(ctx, "prefer-vector-width"),
                                    StringAttr::get(ctx, std::to_string(bits))});
  llvm::StringSet<> sized;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (func->hasAttr(dlc::attrs::kSizedAtRunTime))
      sized.insert(func.getName());
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getName();
    bool wrapper = name.consume_back(dlc::kEntrySuffix) && sized.contains(name);
    if (wrapper || func->hasAttr(dlc::attrs::kSizedAtRunTime))
      func.setPassthroughAttr(ArrayAttr::get(ctx, {width}));
  }
}

// The block of `type` a copy by contiguous blocks (below) copies at a time:
// its dims from `blockFrom` on, less those of size 1, whose strides need not
// fit (MLIR's memcpy lowering checks contiguity without skipping them).
static MemRefType contiguousBlockType(MemRefType type, int64_t blockFrom,
                                      ArrayRef<OpFoldResult> offsets) {
  Builder b(type.getContext());
  SmallVector<int64_t> blockShape;
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t size = d < blockFrom ? 1 : type.getDimSize(d);
    sizes.push_back(b.getIndexAttr(size));
    if (size != 1)
      blockShape.push_back(size);
  }
  return cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
      blockShape, type, offsets, sizes, strides));
}

// Whether copyContiguousBlocks can copy `type` from `blockFrom` on as memcpys.
static bool copiesAsMemcpys(MemRefType type, int64_t blockFrom) {
  Builder b(type.getContext());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  return memref::isStaticShapeAndContiguousRowMajor(
      contiguousBlockType(type, blockFrom, offsets));
}

// Copies `from` to `to` (same static shape) as memcpys of the largest blocks
// contiguous in both: one for the whole when both are contiguous, else a loop
// nest over the outer dims around one per block. A concat's inputs are such
// blocks of its result: as loops of vector rows every input cost LLVM a nest
// (DenseNet-201: 98 concats of up to 48 inputs, a third of its machine code).
static void copyContiguousBlocks(OpBuilder &b, Location loc, Value from, Value to,
                                 int64_t blockFrom) {
  auto src = cast<MemRefType>(from.getType()), dst = cast<MemRefType>(to.getType());
  int64_t rank = src.getRank();
  OpBuilder::InsertionGuard guard(b);
  SmallVector<OpFoldResult> offsets, sizes, strides(rank, b.getIndexAttr(1));
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  for (int64_t d = 0; d < blockFrom; ++d) {
    auto loop = b.create<scf::ForOp>(
        loc, zero, b.create<arith::ConstantIndexOp>(loc, src.getDimSize(d)), one);
    b.setInsertionPointToStart(loop.getBody());
    offsets.push_back(loop.getInductionVar());
    sizes.push_back(b.getIndexAttr(1));
  }
  for (int64_t d = blockFrom; d < rank; ++d) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(src.getDimSize(d)));
  }
  auto block = [&](Value v, MemRefType type) -> Value {
    return b.create<memref::SubViewOp>(loc, contiguousBlockType(type, blockFrom, offsets), v,
                                       offsets, sizes, strides);
  };
  // memref.copy between contiguous memrefs lowers to llvm.memcpy.
  b.create<memref::CopyOp>(loc, block(from, src), block(to, dst));
}

// A copy between statically shaped memrefs of rank 2 or more: as contiguous
// blocks (above) when more than a row is contiguous in both; with unit-stride
// rows of at most 256 elements, one vector.transfer per row in a loop nest
// over the other dims. False (nothing emitted) otherwise.
static bool copyByBlocksOrRows(OpBuilder &b, Location loc, Value from, Value to) {
  auto src = dyn_cast<MemRefType>(from.getType()), dst = dyn_cast<MemRefType>(to.getType());
  if (!src || !dst || !src.hasStaticShape() || src.getShape() != dst.getShape() ||
      src.getRank() < 2 || src.getElementType() != dst.getElementType() ||
      !src.getElementType().isIntOrFloat() || src.getElementTypeBitWidth() % 8 != 0)
    return false; // (i1 vectors are bit-packed in memory: not the bytes dlc's i1 are)
  if (src.getNumElements() == 0)
    return true;
  // Contiguous blocks: memcpys. (As a nest of loops LLVM unrolled short inner
  // rows, 7x7, and copied across channels with gathers and scatters.)
  int64_t blockFrom = std::max(dlc::contiguousFrom(src), dlc::contiguousFrom(dst));
  if (blockFrom + 1 < src.getRank() && copiesAsMemcpys(src, blockFrom) &&
      copiesAsMemcpys(dst, blockFrom)) {
    copyContiguousBlocks(b, loc, from, to, blockFrom);
    return true;
  }
  int64_t row = src.getShape().back();
  auto unitStride = [](MemRefType t) {
    SmallVector<int64_t> strides;
    int64_t offset;
    return succeeded(getStridesAndOffset(t, strides, offset)) && strides.back() == 1;
  };
  if (row > 256 || !unitStride(src) || !unitStride(dst))
    return false;
  auto rowType = VectorType::get({row}, src.getElementType());
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value pad = b.create<arith::ConstantOp>(loc, b.getZeroAttr(src.getElementType()));
  SmallVector<Value> indices;
  OpBuilder::InsertionGuard guard(b);
  for (int64_t d = 0; d + 1 < src.getRank(); ++d) {
    auto loop = b.create<scf::ForOp>(
        loc, zero, b.create<arith::ConstantIndexOp>(loc, src.getDimSize(d)), one);
    indices.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  indices.push_back(zero);
  Value v = b.create<vector::TransferReadOp>(loc, rowType, from, indices, pad,
                                             ArrayRef<bool>{true});
  b.create<vector::TransferWriteOp>(loc, v, to, indices, ArrayRef<bool>{true});
  return true;
}

namespace {
/// One-shot bufferization of one kernel (the upstream pass takes the whole
/// module at once; without function boundaries it does the same per op).
struct BufferizeKernel : PassWrapper<BufferizeKernel, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BufferizeKernel)
  explicit BufferizeKernel(bufferization::OneShotBufferizationOptions options)
      : options(std::move(options)) {}
  StringRef getArgument() const override { return "dlc-bufferize-kernel"; }
  StringRef getName() const override { return "BufferizeKernel"; }
  void runOnOperation() override {
    if (failed(bufferization::runOneShotBufferize(getOperation(), options)))
      signalPassFailure();
  }
  bufferization::OneShotBufferizationOptions options;
};
} // namespace

/// Counts the kernels bufferized (the lowering's slowest step) on a terminal.
struct LoweringProgress : PassInstrumentation {
  LoweringProgress(llvm::raw_ostream *stream, unsigned total) : stream(stream), total(total) {}
  void runAfterPass(Pass *pass, Operation *) override {
    if (pass->getTypeID() == TypeID::get<BufferizeKernel>())
      dlc::reportProgress(stream, "kernels lowered", ++done, total);
  }
  llvm::raw_ostream *stream;
  unsigned total;
  std::atomic<unsigned> done{0};
};

void dlc::reportProgress(llvm::raw_ostream *progress, StringRef what, unsigned done,
                         unsigned total) {
  static std::mutex printing;
  if (!progress)
    return;
  std::lock_guard<std::mutex> lock(printing);
  *progress << "\rdlc compile: " << done << "/" << total << " " << what << "\x1b[K";
  if (done == total)
    *progress << "\r\x1b[K";
  progress->flush();
}

LogicalResult dlc::lowerCpuKernelsToLLVMDialect(ModuleOp module, const cpu::KernelTiles &tiles,
                                                TimingScope *timing, llvm::raw_ostream *progress) {
  PassManager pm(module.getContext());
  if (progress) {
    auto kernels = module.getOps<func::FuncOp>();
    pm.addInstrumentation(std::make_unique<LoweringProgress>(
        progress, std::distance(kernels.begin(), kernels.end())));
  }
  TimingScope lowering = timing ? timing->nest("CPU kernels: to the LLVM dialect") : TimingScope();
  if (timing)
    pm.enableTiming(lowering);
  // Graph ops to linalg, elementwise chains fused into one loop nest.
  pm.addNestedPass<func::FuncOp>(dlc::createLowerDlcToLinalg());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(dlc::createFuseElementwise());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(dlc::createReuseProducerBuffer());
  // The tiling and vectorising passes bake every size into the code; a
  // kernel sized at run time skips them (SizeLoopsAtRunTime.cpp).
  OpPassManager tuned(func::FuncOp::getOperationName());
  tuned.addPass(dlc::createConvToMatmul(
      {tiles.pixelRow.pixels, tiles.pixelRow.steadyPixels, tiles.channelBlockBytes}));
  tuned.addPass(createCanonicalizerPass());
  // Matmuls to register tiles of vector code.
  tuned.addPass(dlc::createTileAndVectorize(
      {tiles.matmul.rows, tiles.matmul.columns, tiles.blockBytes, tiles.vectorBits()}));
  // The rest of the kernel's loop nests: short NCHW rows flattened, then
  // split into chunks for the pool.
  tuned.addPass(dlc::createCollapseShortRows());
  tuned.addPass(dlc::createParallelizeLoopNests());
  // Transposes that move the innermost dim: 8x16 blocks in registers.
  tuned.addPass(dlc::createVectorizeTransposes());
  // Stride-2 windows read the image's even and odd columns, split once.
  tuned.addPass(dlc::createDeinterleaveStridedTaps());
  // Nests with short rows: one vector per row (not LLVM's gathers); stride-2
  // window taps read straight from the unpadded image.
  tuned.addPass(dlc::createVectorizeRows({tiles.vectorBits(), tiles.shiftedRowFloats}));
  // What still reads a padded image: each chunk pads its own planes; then
  // those nests' rows.
  tuned.addPass(dlc::createPadPerChunk());
  tuned.addPass(dlc::createVectorizeRows({tiles.vectorBits(), tiles.shiftedRowFloats}));
  pm.addNestedPass<func::FuncOp>(dlc::createUnlessSizedAtRunTime(std::move(tuned)));
  // The C tile's read and write leave the K loop: it lives in registers.
  pm.addPass(createLoopInvariantSubsetHoistingPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // Thin tiles' accumulators (a batch-1 classifier, a ragged last row of
  // tiles) as several partial sums, so that their FMAs do not wait on each
  // other's latency.
  pm.addNestedPass<func::FuncOp>(dlc::createSplitAccumulatorChains(
      {tiles.vectorBits(),
       tiles.pixelRow.steadyPixels * (tiles.matmul.columns * 32 / tiles.vectorBits())}));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // Results are written straight into the destination buffers. Kernels
  // share nothing before their parallel loops are outlined, so this and the
  // bufferization run per kernel: the analyses grow faster than the IR, and
  // the kernels go to the context's threads (ResNet-50: 3.1 s as module
  // passes).
  pm.addNestedPass<func::FuncOp>(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizationOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = false;
  // A loop (dlc.loop, LowerLoops.cpp) carries values its body computes anew:
  // their buffers may be allocated in the body and yielded. Deallocating
  // them calls a helper (below).
  bufferization.allowReturnAllocsFromLoops = true;
  // Copies as linalg.copy, lowered to loops like the rest: memref.copy of a
  // strided view would call memrefCopy from MLIR's C runner library. Copies
  // into or out of strided views (a padded image's interior) go row by row
  // as vectors: as loops LLVM copied them float by float, unsure whether the
  // buffers overlap (the pad of a 144x56x56 depthwise input: 80 us of 188).
  bufferization.memCpyFn = [](OpBuilder &b, Location loc, Value from,
                              Value to) -> LogicalResult {
    // (A kernel sized at run time copies the run's part: loops.)
    Operation *parent = b.getInsertionBlock()->getParentOp();
    auto func = isa<func::FuncOp>(parent) ? cast<func::FuncOp>(parent)
                                          : parent->getParentOfType<func::FuncOp>();
    if ((func && func->hasAttr(dlc::attrs::kSizedAtRunTime)) ||
        !copyByBlocksOrRows(b, loc, from, to))
      b.create<linalg::CopyOp>(loc, from, to);
    return success();
  };
  // Bufferizing a constant adds a global to the module: done first, on one
  // thread, so the kernels' threads leave the module alone.
  pm.addPass(dlc::createGlobalizeTensorConstants());
  pm.addNestedPass<func::FuncOp>(std::make_unique<BufferizeKernel>(bufferization));
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
  pm.addNestedPass<func::FuncOp>(dlc::createHoistVectorTransfers());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(dlc::createPrefetchPanelRows({tiles.prefetchAheadBytes}));
  // Register tiles' K loops several steps a turn (after the prefetches, so
  // that each step keeps its own).
  pm.addNestedPass<func::FuncOp>(dlc::createUnrollTileLoops({tiles.tileLoopUnroll}));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  if (failed(pm.run(module)) || failed(inlineDeallocationHelper(module)))
    return failure();
  // Rows of output tiles become functions run on the runtime's pool.
  outlineParallelLoops(module);
  pm.clear();
  // Loops and vectors, then the LLVM dialect, each kernel in a module of its
  // own (KernelModules.cpp) so that the conversions that take a whole module
  // run on the context's threads too; per function where a pass allows it.
  bool nested = nestKernelModules(module);
  OpPassManager &perKernel = nested ? pm.nest<ModuleOp>() : pm;
  OpPassManager &perFunction = perKernel.nest<func::FuncOp>();
  OpPassManager stridedFills(func::FuncOp::getOperationName());
  stridedFills.addPass(dlc::createLowerStridedFills());
  perFunction.addPass(dlc::createUnlessSizedAtRunTime(std::move(stridedFills)));
  perFunction.addPass(dlc::createOrderSizedLoops());
  perFunction.addPass(createConvertLinalgToLoopsPass());
  perFunction.addPass(dlc::createSizeLoopsAtRunTime());
  perFunction.addPass(dlc::createLowerVectors());
  perFunction.addPass(createConvertVectorToSCFPass());
  perFunction.addPass(createLowerAffinePass());
  perFunction.addPass(dlc::createConvertScfToCf());
  perFunction.addPass(dlc::createApproximateMath());
  perFunction.addPass(dlc::createExpandArith());
  perFunction.addPass(memref::createExpandStridedMetadataPass());
  perFunction.addPass(createLowerAffinePass());
  // Math first: what has no LLVM intrinsic (f64 tanh, erf, ...; f32's are
  // approximated above) becomes libm calls, unrolled from vectors into
  // vector.extract/insert that the vector conversion then lowers.
  perKernel.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
  perKernel.addPass(createConvertMathToLibmPass());
  perKernel.addPass(createConvertVectorToLLVMPass());
  OpPassManager &scalarsPerFunction = perKernel.nest<func::FuncOp>();
  scalarsPerFunction.addPass(createArithToLLVMConversionPass());
  scalarsPerFunction.addPass(createConvertIndexToLLVMPass());
  perKernel.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = true;
  perKernel.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  perKernel.addPass(createConvertControlFlowToLLVMPass());
  perKernel.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(module)) || (nested && failed(flattenKernelModules(module))))
    return failure();

  finishParallelLaunches(module);
  SmallVector<LLVM::LLVMFuncOp> kernels;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal() && func.getLinkage() == LLVM::Linkage::External &&
        !isParallelBody(func) && func.getName() != "dlc_set_parallel_runtime")
      kernels.push_back(func);
  for (LLVM::LLVMFuncOp kernel : kernels)
    addEntryWrapper(module, kernel);
  preferFullVectors(module, tiles);
  return success();
}
