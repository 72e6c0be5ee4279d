//===- OutlineParallelLoops.cpp - tile loops onto the runtime's pool -------===//
//
// Two halves around the LLVM-dialect conversion (runtime/include/dlc/parallel.h
// is the ABI):
//
// outlineParallelLoops (on memrefs, before loops become branches): a loop
// marked `dlc.parallel` (TileAndVectorize's loop over rows of output tiles:
// each iteration writes its own rows), without results and with a constant
// trip count >= 2, becomes
//   func.call @K_par<n>_launch(captures...)
// and its body the function @K_par<n>(index, captures...). Constants and
// memref views (a conv matmul's subviews) are cloned into the body; the
// other captures must be scalars, 1-D vectors or memrefs with an
// identity layout (the bare-pointer convention); anything else stays serial.
// A small temporary the body allocates and frees at its top level (a packed
// B panel) becomes a stack allocation of the body (temporariesOnStack).
//
// finishParallelLaunches (on the LLVM dialect): defines each launch as
//   closure = {captures...} on the stack;
//   if (api) api->parallel_for(api->ctx, trips, @K_par<n>_thunk, &closure)
//   else for (i = 0; i < trips; ++i) K_par<n>_thunk(&closure, i)
// where the thunk unpacks the closure and calls @K_par<n>, and adds
// dlc_set_parallel_runtime, which the runtime calls at load to set `api`
// (a library loaded by an older runtime keeps api null: serial). Calls to
// malloc and free (the kernels' temporaries) go to dlc_scratch_alloc/free,
// which use the runtime's scratch cache when the api has it (version 2) and
// libc otherwise.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace {
constexpr const char *kBodyAttr = "dlc.parallel_body";
constexpr const char *kLaunchAttr = "dlc.parallel_launch";
constexpr const char *kTripsAttr = "dlc.parallel_trips";
constexpr const char *kApiGlobal = "dlc_parallel_api_ptr";

bool passable(Value v) {
  Type t = v.getType();
  if (auto m = dyn_cast<MemRefType>(t))
    return m.hasStaticShape() && m.getLayout().isIdentity();
  // A 1-D vector the loop reads (a ragged tile's bias, hoisted out of it:
  // with 6-row tiles every 1x1 convolution over 256 filters has one, and
  // stayed serial) travels in the closure as an LLVM vector.
  if (auto vector = dyn_cast<VectorType>(t))
    return vector.getRank() == 1 && !vector.isScalable() &&
           vector.getElementType().isIntOrFloat() &&
           vector.getElementType().getIntOrFloatBitWidth() >= 8;
  return t.isIntOrIndexOrFloat();
}

/// The most bytes of one trip's temporary that live on the stack instead.
constexpr int64_t kStackTemporaryBytes = 64 * 1024;

/// A small static temporary allocated and freed once per trip (a runtime
/// packed B panel: K x 32 floats) becomes a stack allocation of the body:
/// through the scratch cache, its mutex was taken twice per trip by every
/// thread (MobileNetV2's 16-channel expand convolution, 392 trips: 0.34 ms
/// at one thread, 0.29-0.31 at two). Only allocations at the body's top
/// level, so that each call allocates once; freed by the return.
void temporariesOnStack(func::FuncOp body) {
  SmallVector<memref::AllocOp> allocs;
  for (Operation &op : body.getBody().front())
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      allocs.push_back(alloc);
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat() ||
        type.getNumElements() * type.getElementTypeBitWidth() / 8 > kStackTemporaryBytes)
      continue;
    SmallVector<memref::DeallocOp> deallocs;
    for (Operation *user : alloc->getUsers())
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user))
        deallocs.push_back(dealloc);
    // Freed exactly once, at the top level: no ownership flags to honour.
    if (deallocs.size() != 1 || deallocs[0]->getBlock() != alloc->getBlock())
      continue;
    OpBuilder b(alloc);
    auto alloca = b.create<memref::AllocaOp>(alloc.getLoc(), type, alloc.getAlignmentAttr());
    alloc.replaceAllUsesWith(alloca.getResult());
    deallocs[0].erase();
    alloc.erase();
  }
}

void outline(scf::ForOp loop, func::FuncOp parent, unsigned n,
             int64_t trips) {
  MLIRContext *ctx = loop.getContext();
  SetVector<Value> used;
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  // Constants and views of memrefs (a conv's matmul works on subviews and
  // reshapes of its buffers) travel as code; the rest through the closure.
  SetVector<Value> captureSet;
  llvm::SmallPtrSet<Operation *, 16> cloned;
  SmallVector<Value> work(used.begin(), used.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    bool constant = def && def->hasTrait<OpTrait::ConstantLike>() &&
                    def->getNumOperands() == 0;
    bool view = def && isa<ViewLikeOpInterface>(def) &&
                def->getDialect()->getNamespace() == "memref" &&
                isMemoryEffectFree(def);
    if (!constant && !view) {
      captureSet.insert(v);
      continue;
    }
    if (cloned.insert(def).second)
      for (Value operand : def->getOperands())
        work.push_back(operand);
  }
  SmallVector<Value> captures(captureSet.begin(), captureSet.end());
  for (Value v : captures)
    if (!passable(v))
      return;
  SmallVector<Operation *> constants; // In definition order.
  parent.walk([&](Operation *op) {
    if (cloned.contains(op))
      constants.push_back(op);
  });

  std::string name = (parent.getName() + "_par" + Twine(n)).str();
  OpBuilder b(parent);
  Location loc = loop.getLoc();
  SmallVector<Type> bodyTypes{b.getIndexType()}, captureTypes;
  for (Value v : captures)
    captureTypes.push_back(v.getType());
  bodyTypes.append(captureTypes);
  b.setInsertionPointAfter(parent);
  auto body = b.create<func::FuncOp>(loc, name,
                                     b.getFunctionType(bodyTypes, {}));
  body->setAttr(kBodyAttr, b.getUnitAttr());
  Block *entry = body.addEntryBlock();
  OpBuilder in = OpBuilder::atBlockBegin(entry);
  IRMapping map;
  for (auto [i, v] : llvm::enumerate(captures))
    map.map(v, entry->getArgument(i + 1));
  for (Operation *c : constants)
    in.clone(*c, map);
  // iv = lb + index * step, in the body's own constants.
  Value lb = in.create<arith::ConstantIndexOp>(
      loc, *getConstantIntValue(loop.getLowerBound()));
  Value step = in.create<arith::ConstantIndexOp>(
      loc, *getConstantIntValue(loop.getStep()));
  Value iv = in.create<arith::AddIOp>(
      loc, lb, in.create<arith::MulIOp>(loc, entry->getArgument(0), step));
  map.map(loop.getInductionVar(), iv);
  for (Operation &op : loop.getBody()->without_terminator())
    in.clone(op, map);
  in.create<func::ReturnOp>(loc);
  temporariesOnStack(body);

  b.setInsertionPointAfter(body);
  auto launch = b.create<func::FuncOp>(loc, name + "_launch",
                                       b.getFunctionType(captureTypes, {}));
  launch.setPrivate();
  launch->setAttr(kLaunchAttr, FlatSymbolRefAttr::get(ctx, name));
  launch->setAttr(kTripsAttr, b.getI64IntegerAttr(trips));
  OpBuilder at(loop);
  at.create<func::CallOp>(loc, launch, captures);
  loop.erase();
}

/// Body of `launch` (an LLVM declaration until now): see the file comment.
void defineLaunch(ModuleOp module, LLVM::LLVMFuncOp launch, int64_t trips,
                  LLVM::LLVMFuncOp body) {
  MLIRContext *ctx = module.getContext();
  Location loc = launch.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  auto i32 = IntegerType::get(ctx, 32);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto fields = llvm::to_vector(launch.getFunctionType().getParams());
  auto closureType = LLVM::LLVMStructType::getLiteral(
      ctx, fields.empty() ? SmallVector<Type>{i64} : fields);
  OpBuilder b(module.getContext());

  // thunk(ptr closure, i64 index): unpack, call the body.
  b.setInsertionPointAfter(launch);
  auto thunk = b.create<LLVM::LLVMFuncOp>(
      loc, (launch.getName() + "_thunk").str(),
      LLVM::LLVMFunctionType::get(voidType, {ptr, i64}),
      LLVM::Linkage::Internal);
  // Called through the pool's pointer, and by the serial fallback below:
  // inlined there, LLVM compiled the body twice.
  thunk.setNoInline(true);
  {
    Block *e = thunk.addEntryBlock(b);
    OpBuilder t = OpBuilder::atBlockBegin(e);
    SmallVector<Value> args{e->getArgument(1)};
    for (auto [i, type] : llvm::enumerate(fields)) {
      Value at = t.create<LLVM::GEPOp>(
          loc, ptr, closureType, e->getArgument(0),
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      args.push_back(t.create<LLVM::LoadOp>(loc, type, at));
    }
    t.create<LLVM::CallOp>(loc, body, args);
    t.create<LLVM::ReturnOp>(loc, ValueRange{});
  }

  Block *entry = launch.addEntryBlock(b);
  launch.setLinkage(LLVM::Linkage::Internal);
  b.setInsertionPointToStart(entry);
  Value one = b.create<LLVM::ConstantOp>(loc, i64, 1);
  Value closure = b.create<LLVM::AllocaOp>(loc, ptr, closureType, one);
  for (auto [i, arg] : llvm::enumerate(entry->getArguments())) {
    Value at = b.create<LLVM::GEPOp>(
        loc, ptr, closureType, closure,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    b.create<LLVM::StoreOp>(loc, arg, at);
  }
  Value n = b.create<LLVM::ConstantOp>(loc, i64, trips);
  Value thunkPtr = b.create<LLVM::AddressOfOp>(loc, thunk);
  Value apiSlot = b.create<LLVM::AddressOfOp>(loc, ptr, kApiGlobal);
  Value api = b.create<LLVM::LoadOp>(loc, ptr, apiSlot);
  Value null = b.create<LLVM::ZeroOp>(loc, ptr);
  Value isNull =
      b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, api, null);
  Block *parallel = &launch.getBody().emplaceBlock();
  Block *header = &launch.getBody().emplaceBlock();
  header->addArgument(i64, loc);
  Block *step = &launch.getBody().emplaceBlock();
  Block *exit = &launch.getBody().emplaceBlock();
  Value zero = b.create<LLVM::ConstantOp>(loc, i64, 0);
  b.create<LLVM::CondBrOp>(loc, isNull, header, ValueRange{zero}, parallel,
                           ValueRange{});
  // parallel: api->parallel_for(api->ctx, n, thunk, closure).
  b.setInsertionPointToStart(parallel);
  auto apiType = LLVM::LLVMStructType::getLiteral(ctx, {i32, ptr, ptr});
  Value ctxAt = b.create<LLVM::GEPOp>(loc, ptr, apiType, api,
                                      ArrayRef<LLVM::GEPArg>{0, 1});
  Value fnAt = b.create<LLVM::GEPOp>(loc, ptr, apiType, api,
                                     ArrayRef<LLVM::GEPArg>{0, 2});
  Value apiCtx = b.create<LLVM::LoadOp>(loc, ptr, ctxAt);
  Value fn = b.create<LLVM::LoadOp>(loc, ptr, fnAt);
  auto forType = LLVM::LLVMFunctionType::get(voidType, {ptr, i64, ptr, ptr});
  b.create<LLVM::CallOp>(loc, forType,
                         ValueRange{fn, apiCtx, n, thunkPtr, closure});
  b.create<LLVM::BrOp>(loc, exit);
  // serial: for (i = 0; i < n; ++i) thunk(closure, i).
  b.setInsertionPointToStart(header);
  Value i = header->getArgument(0);
  Value more = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, i, n);
  b.create<LLVM::CondBrOp>(loc, more, step, exit);
  b.setInsertionPointToStart(step);
  b.create<LLVM::CallOp>(loc, thunk, ValueRange{closure, i});
  Value next = b.create<LLVM::AddOp>(loc, i, one);
  // Not unrolled: LLVM copied the call once per chunk (56 calls in a 3x3
  // convolution's fallback), code that only an old runtime ever runs.
  auto backEdge = b.create<LLVM::BrOp>(loc, ValueRange{next}, header);
  backEdge.setLoopAnnotationAttr(dlc::keptLoopAnnotation(ctx));
  b.setInsertionPointToStart(exit);
  b.create<LLVM::ReturnOp>(loc, ValueRange{});
}

} // namespace

void dlc::outlineParallelLoops(ModuleOp module) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  for (func::FuncOp func : funcs) {
    if (func.isExternal())
      continue;
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (!loop->hasAttr(kParallelLoopAttr) || loop.getNumResults() != 0)
        return;
      // Outermost marked loops only: an inner one already runs in parallel.
      for (Operation *p = loop->getParentOp(); p != func; p = p->getParentOp())
        if (p->hasAttr(kParallelLoopAttr))
          return;
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> st = getConstantIntValue(loop.getStep());
      if (!lb || !ub || !st || *st <= 0 || (*ub - *lb + *st - 1) / *st < 2)
        return;
      loops.push_back(loop);
    });
    unsigned n = 0;
    for (scf::ForOp loop : loops) {
      int64_t trips = (*getConstantIntValue(loop.getUpperBound()) -
                       *getConstantIntValue(loop.getLowerBound()) +
                       *getConstantIntValue(loop.getStep()) - 1) /
                      *getConstantIntValue(loop.getStep());
      outline(loop, func, n++, trips);
    }
  }
}

bool dlc::isParallelBody(Operation *func) { return func->hasAttr(kBodyAttr); }

namespace {

/// Defines `name`(args) as: api && api->version >= 2 ? api->field(args)
/// : fallback(args), where field is the api struct's field index.
void defineScratchCall(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type,
                       unsigned field, StringRef fallback) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  Location loc = module.getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto func = b.create<LLVM::LLVMFuncOp>(loc, name, type, LLVM::Linkage::Internal);
  Block *entry = func.addEntryBlock(b);
  Block *checkVersion = &func.getBody().emplaceBlock();
  Block *viaApi = &func.getBody().emplaceBlock();
  Block *viaLibc = &func.getBody().emplaceBlock();
  bool returnsValue = !isa<LLVM::LLVMVoidType>(type.getReturnType());
  auto finish = [&](OpBuilder &at, Operation *call) {
    if (returnsValue)
      at.create<LLVM::ReturnOp>(loc, call->getResult(0));
    else
      at.create<LLVM::ReturnOp>(loc, ValueRange{});
  };
  b.setInsertionPointToStart(entry);
  Value api = b.create<LLVM::LoadOp>(
      loc, ptr, b.create<LLVM::AddressOfOp>(loc, ptr, kApiGlobal));
  Value isNull = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, api,
                                        b.create<LLVM::ZeroOp>(loc, ptr));
  b.create<LLVM::CondBrOp>(loc, isNull, viaLibc, checkVersion);
  // The fields after parallel_for exist from version 2 on.
  b.setInsertionPointToStart(checkVersion);
  Value version = b.create<LLVM::LoadOp>(loc, i32, api);
  Value recent = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::uge, version,
                                        b.create<LLVM::ConstantOp>(loc, i32, 2));
  b.create<LLVM::CondBrOp>(loc, recent, viaApi, viaLibc);
  b.setInsertionPointToStart(viaApi);
  auto apiType = LLVM::LLVMStructType::getLiteral(ctx, {i32, ptr, ptr, ptr, ptr});
  Value at = b.create<LLVM::GEPOp>(loc, ptr, apiType, api,
                                   ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(field)});
  Value fn = b.create<LLVM::LoadOp>(loc, ptr, at);
  SmallVector<Value> operands{fn};
  operands.append(entry->args_begin(), entry->args_end());
  finish(b, b.create<LLVM::CallOp>(loc, type, operands));
  b.setInsertionPointToStart(viaLibc);
  finish(b, b.create<LLVM::CallOp>(loc, type.getReturnTypes(), fallback,
                                   ValueRange(entry->getArguments())));
}

} // namespace

void dlc::finishParallelLaunches(ModuleOp module) {
  SmallVector<LLVM::LLVMFuncOp> launches;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (func->hasAttr(kLaunchAttr))
      launches.push_back(func);
  // Temporaries (memref.alloc became malloc/free calls) come from the
  // runtime's scratch cache (parallel.h, version 2).
  SmallVector<LLVM::CallOp> mallocs, frees;
  module.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    if (callee == "malloc")
      mallocs.push_back(call);
    else if (callee == "free")
      frees.push_back(call);
  });
  if (launches.empty() && mallocs.empty() && frees.empty())
    return;
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b(ctx);
  b.setInsertionPointToStart(module.getBody());
  Location loc = module.getLoc();
  // The api pointer, null until the runtime calls the setter. Hidden, not
  // internal: the kernels' code is emitted in parts (CpuCodegen.cpp), each
  // kernel with the internal functions it calls, and every part reads it.
  auto global = b.create<LLVM::GlobalOp>(loc, ptr, /*isConstant=*/false,
                                         LLVM::Linkage::External, kApiGlobal,
                                         Attribute());
  global.setVisibility_(LLVM::Visibility::Hidden);
  {
    Block *init = b.createBlock(&global.getInitializerRegion());
    b.setInsertionPointToStart(init);
    b.create<LLVM::ReturnOp>(loc, b.create<LLVM::ZeroOp>(loc, ptr).getResult());
  }
  b.setInsertionPointToEnd(module.getBody());
  auto setter = b.create<LLVM::LLVMFuncOp>(
      loc, "dlc_set_parallel_runtime",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr}));
  {
    Block *e = setter.addEntryBlock(b);
    OpBuilder s = OpBuilder::atBlockBegin(e);
    Value slot = s.create<LLVM::AddressOfOp>(loc, ptr, kApiGlobal);
    s.create<LLVM::StoreOp>(loc, e->getArgument(0), slot);
    s.create<LLVM::ReturnOp>(loc, ValueRange{});
  }
  for (LLVM::LLVMFuncOp launch : launches) {
    auto bodyName = launch->getAttrOfType<FlatSymbolRefAttr>(kLaunchAttr);
    auto body = module.lookupSymbol<LLVM::LLVMFuncOp>(bodyName.getValue());
    body.setLinkage(LLVM::Linkage::Internal);
    int64_t trips =
        launch->getAttrOfType<IntegerAttr>(kTripsAttr).getInt();
    defineLaunch(module, launch, trips, body);
  }
  if (mallocs.empty() && frees.empty())
    return;
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  defineScratchCall(module, "dlc_scratch_alloc", LLVM::LLVMFunctionType::get(ptr, {i64}),
                    /*field=*/3, "malloc");
  defineScratchCall(module, "dlc_scratch_free", LLVM::LLVMFunctionType::get(voidType, {ptr}),
                    /*field=*/4, "free");
  for (LLVM::CallOp call : mallocs)
    call.setCallee("dlc_scratch_alloc");
  for (LLVM::CallOp call : frees)
    call.setCallee("dlc_scratch_free");
}
