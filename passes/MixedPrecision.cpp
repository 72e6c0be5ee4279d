//===- MixedPrecision.cpp - fp16 where the op policy and the device allow --===//
//
// After dlc-place, before dlc-insert-copies. Paints the GPU ops that compute
// in fp16, the way TensorFlow's auto-mixed-precision does, from each op's
// Fp16PolicyOpInterface (allow / deny / infer / clear; MixedPrecisionPaint.cpp):
//
//   1. allow ops are painted;
//   2. deny spreads forward through infer ops (and through the clear ops on
//      the way to them): an add after a softmax stays fp32;
//   3. infer and clear ops on a path between two allow ops are painted;
//   4. clear ops connected to painted ops through clear ops are painted.
//
// `fp16` paints every GPU op that is not deny. CPU ops stay fp32. Painted
// ops get f16 results (contractions `accumulator = f32`); casts go where
// painted and unpainted ops meet, one per (value, device, dtype):
//
//   %h = dlc.linear %x, %w, %b {device = cuda:0}  : f32     // x an argument
//   %s = dlc.softmax %h {device = cuda:0}          : f32
// becomes
//   %xh = dlc.cast %x {device = cpu} : f32 -> f16   // narrowing: before the copy
//   %h = dlc.linear %xh, %wh, %bh {accumulator = f32, device = cuda:0} : f16
//   %hf = dlc.cast %h {device = cuda:0} : f16 -> f32
//   %s = dlc.softmax %hf {device = cuda:0} : f32
//
// A narrowing cast runs on the value's device (half the bytes cross the
// link) unless the value is also read in fp32 on the consumer's device, where
// one copy and a cast there move fewer bytes; a widening cast runs on the
// consumer's device. Constants are converted at compile time. Cast chains
// fold when the inner cast is exact (f16 -> f32 -> f16 is f16), never
// high -> low -> high. See passes/README.md.
//
//===----------------------------------------------------------------------===//

#include "passes/CostModel.h"
#include "passes/MixedPrecisionPaint.h"
#include "passes/Passes.h"
#include "passes/TargetBackend.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>
#include <tuple>

namespace dlc {
#define GEN_PASS_DEF_MIXEDPRECISION
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

bool isF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isF32();
}

Type withElement(Type type, Type element) {
  return cast<RankedTensorType>(type).clone(element);
}

/// Float-to-float casts that lose nothing: every value of `from` is one of `to`.
bool isExact(Type from, Type to) {
  if (from == to)
    return true;
  return to.isF32() && (from.isF16() || from.isBF16());
}

/// Bits of a float element as f16, rounded to nearest even; `overflow` is
/// set when a finite value becomes infinite.
uint16_t toHalfBits(const APFloat &value, bool &overflow) {
  APFloat half = value;
  bool lost;
  half.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
  overflow |= half.isInfinity() && !value.isInfinity();
  return static_cast<uint16_t>(half.bitcastToAPInt().getZExtValue());
}

/// `attr` (f32 elements) as f16, or failure when its data cannot be read.
FailureOr<ElementsAttr> toHalf(ElementsAttr attr, StringRef name, bool &overflow) {
  auto type = cast<RankedTensorType>(attr.getType());
  auto halfType = type.clone(Float16Type::get(type.getContext()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    return ElementsAttr(dense.mapValues(
        halfType.getElementType(),
        [&](const APFloat &v) { return APInt(16, toHalfBits(v, overflow)); }));
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob = resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob || (int64_t)blob->getData().size() != type.getNumElements() * 4)
    return failure();
  ArrayRef<char> in = blob->getData();
  AsmResourceBlob out = HeapAsmResourceBlob::allocate(type.getNumElements() * 2, 64);
  MutableArrayRef<char> bytes = out.getMutableData();
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    float f;
    std::memcpy(&f, &in[i * 4], 4);
    uint16_t h = toHalfBits(APFloat(f), overflow);
    std::memcpy(&bytes[i * 2], &h, 2);
  }
  return ElementsAttr(
      resourceConstant(halfType, (name + ".f16").str(), std::move(out)));
}

enum class Pin { None, Fp16, Fp32 };

struct MixedPrecisionPass : dlc::impl::MixedPrecisionBase<MixedPrecisionPass> {
  using MixedPrecisionBase::MixedPrecisionBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    reset(); // one instance runs every function of the module in turn
    if (failed(checkOptions(func)) || failed(readPins(func)))
      return signalPassFailure();
    Block &block = func.getBody().front();
    for (Operation &op : block.without_terminator())
      if (!isa<ConstantOp>(op))
        ops.push_back(&op);
    for (Operation *op : ops)
      candidate[op] = isCandidate(op);
    if (failed(checkPinnedFp16()))
      return signalPassFailure();
    paint();
    int64_t total = 0;
    for (Operation *op : ops)
      total += !isa<CastOp, CopyOp>(op);
    if (failed(rewrite(func)))
      return signalPassFailure();
    foldCastChains(block);
    int64_t casts = insertedCasts();
    renumber(block);
    if (precision != "fp32" || !painted.empty()) {
      // One write: functions run in parallel and stderr is unbuffered.
      std::string line;
      llvm::raw_string_ostream os(line);
      os << "dlc-mixed-precision: @" << func.getSymName() << ": converted "
         << painted.size() << " of " << total << " ops using " << casts << " casts\n";
      llvm::errs() << os.str();
    }
  }

private:
  void reset() {
    allowKinds.clear();
    denyKinds.clear();
    pins.clear();
    names.clear();
    ops.clear();
    candidate.clear();
    painted.clear();
    operandTypes.clear();
    orderInBlock.clear();
    resultTypes.clear();
    constants.clear();
    casts.clear();
    castAfter.clear();
  }

  // --- options and pins -------------------------------------------------

  LogicalResult checkOptions(func::FuncOp func) {
    if (precision != "fp32" && precision != "mixed" && precision != "fp16")
      return func.emitError() << "--precision expects fp32, mixed or fp16, got '"
                              << precision << "'";
    if (ioPrecision != "fp32" && ioPrecision != "fp16")
      return func.emitError() << "--io-precision expects fp32 or fp16, got '"
                              << ioPrecision << "'";
    auto readKinds = [&](ArrayRef<std::string> list, StringRef flag,
                         llvm::StringSet<> &out) -> LogicalResult {
      for (StringRef kind : list) {
        kind.consume_front("dlc.");
        if (!RegisteredOperationName::lookup(("dlc." + kind).str(), &getContext()))
          return func.emitError() << "--" << flag << ": unknown op kind '" << kind << "'";
        out.insert(kind);
      }
      return success();
    };
    if (failed(readKinds(fp16Allow, "fp16-allow", allowKinds)) ||
        failed(readKinds(fp16Deny, "fp16-deny", denyKinds)))
      return failure();
    for (auto &kind : allowKinds)
      if (denyKinds.contains(kind.getKey()))
        return func.emitError() << "op kind '" << kind.getKey()
                                << "' is in both --fp16-allow and --fp16-deny";
    return success();
  }

  LogicalResult readPins(func::FuncOp func) {
    for (auto [index, op] : llvm::enumerate(func.getBody().front().without_terminator())) {
      Attribute attr = op.getAttr(::dlc::attrs::kPrecision);
      if (!attr)
        continue;
      auto text = dyn_cast<StringAttr>(attr);
      if (!text || (text.getValue() != "fp16" && text.getValue() != "fp32"))
        return op.emitError() << "op '" << dlc::opName(&op, index)
                              << "': dlc.precision must be \"fp16\" or \"fp32\", got "
                              << attr;
      pins[&op] = text.getValue() == "fp16" ? Pin::Fp16 : Pin::Fp32;
      names[&op] = dlc::opName(&op, index);
    }
    return success();
  }

  /// Ops that could compute in fp16: f32 float values only, at least one
  /// f32 result, and on a GPU unless pinned to fp16.
  bool isConvertible(Operation *op) {
    if (isa<ConstantOp, CastOp, CopyOp>(op) || !isa<DlcDialect>(op->getDialect()))
      return false;
    bool f32Result = false;
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (tensor && isa<FloatType>(tensor.getElementType()) && !isF32Tensor(type))
        return false;
      f32Result |= isF32Tensor(type);
    }
    for (Type type : op->getOperandTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (tensor && isa<FloatType>(tensor.getElementType()) && !isF32Tensor(type))
        return false;
    }
    return f32Result;
  }

  bool isCandidate(Operation *op) {
    if (!isConvertible(op))
      return false;
    Pin pin = pins.lookup(op);
    if (pin == Pin::Fp16)
      return true;
    if (pin == Pin::Fp32)
      return false;
    // Unpinned ops are on the CPU (dlc-place pins every op it moves).
    const TargetBackend *backend = lookupTargetBackendOf(op);
    return backend && backend->computesInHalfByDefault();
  }

  LogicalResult checkPinnedFp16() {
    for (auto [op, pin] : pins)
      if (pin == Pin::Fp16 && !candidate.lookup(op))
        return op->emitError() << "op '" << names[op] << "' (" << op->getName()
                               << ") is pinned to fp16 but has no f32 values to "
                                  "compute in fp16";
    return success();
  }

  Fp16Policy policyOf(Operation *op) {
    if (denyKinds.contains(opKind(op)))
      return Fp16Policy::Deny;
    if (allowKinds.contains(opKind(op)))
      return Fp16Policy::Allow;
    if (auto iface = dyn_cast<Fp16PolicyOpInterface>(op))
      return iface.getFp16Policy();
    return Fp16Policy::Deny;
  }

  // --- painting (MixedPrecisionPaint.cpp) ---------------------------------

  void paint() {
    llvm::DenseMap<Operation *, int> index;
    std::vector<PaintNode> nodes(ops.size());
    for (auto [i, op] : llvm::enumerate(ops)) {
      index[op] = i;
      PaintNode &node = nodes[i];
      node.policy = policyOf(op);
      node.candidate = candidate.lookup(op);
      Pin pin = pins.lookup(op);
      node.pin = pin == Pin::Fp16   ? PrecisionPin::Fp16
                 : pin == Pin::Fp32 ? PrecisionPin::Fp32
                                    : PrecisionPin::None;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && index.count(def))
          node.producers.push_back(index[def]);
    }
    PaintMode mode = precision == "fp16"    ? PaintMode::Fp16
                     : precision == "mixed" ? PaintMode::Mixed
                                            : PaintMode::Fp32;
    std::vector<bool> fp16 = paintFp16(mode, nodes);
    for (auto [i, op] : llvm::enumerate(ops))
      if (fp16[i])
        painted.insert(op);
  }

  // --- rewriting ------------------------------------------------------------

  DeviceAttr deviceOf(Value value) {
    Operation *def = value.getDefiningOp();
    DeviceAttr device = def ? getDevicePin(def) : DeviceAttr();
    return device ? device : cpu;
  }
  DeviceAttr deviceOfUser(Operation *user) {
    DeviceAttr device = isa<func::ReturnOp>(user) ? DeviceAttr() : getDevicePin(user);
    return device ? device : cpu;
  }

  /// The type `use` wants: f16 for an f32 operand of a painted op, the
  /// function's result type for a return, else what it had.
  Type wantedType(OpOperand &use) {
    Operation *user = use.getOwner();
    if (isa<func::ReturnOp>(user))
      return resultTypes[use.getOperandNumber()];
    auto it = operandTypes.find(user);
    Type original = it == operandTypes.end() ? use.get().getType()
                                             : it->second[use.getOperandNumber()];
    if (painted.contains(user) && isF32Tensor(original))
      return withElement(original, f16);
    return original;
  }

  std::string valueName(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), ::dlc::attrs::kName))
        return name.str();
      return "arg" + std::to_string(arg.getArgNumber());
    }
    Operation *def = value.getDefiningOp();
    std::string name = dlc::opName(def, orderInBlock.lookup(def));
    if (def->getNumResults() > 1)
      name += "#" + std::to_string(cast<OpResult>(value).getResultNumber());
    return name;
  }

  /// `value` as `type` for a consumer on `device`: a converted constant, or
  /// the one cast per (value, device, type).
  FailureOr<Value> convert(Value value, Type type, DeviceAttr device) {
    if (auto constant = value.getDefiningOp<ConstantOp>()) {
      auto key = std::make_pair(constant.getOperation(), type);
      if (Value done = constants.lookup(key))
        return done;
      if (!cast<RankedTensorType>(type).getElementType().isF16() ||
          !isF32Tensor(constant.getType()))
        return constant.emitError() << "cannot convert constant '"
                                    << valueName(value) << "' to " << type;
      std::string name = valueName(value);
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
        name = resource.getRawHandle().getKey().str();
      bool overflow = false;
      FailureOr<ElementsAttr> half = toHalf(constant.getValue(), name, overflow);
      if (failed(half))
        return constant.emitError() << "cannot read the data of constant '"
                                    << valueName(value) << "' to convert it to fp16";
      if (overflow)
        constant.emitWarning() << "constant '" << valueName(value)
                               << "' overflows fp16 (|x| > 65504 becomes inf); pin its "
                                  "consumers to fp32 or compile with --calibrate";
      OpBuilder builder(constant);
      Operation *copy = builder.clone(*constant);
      copy->setAttr("value", *half);
      copy->getResult(0).setType(type);
      constants[key] = copy->getResult(0);
      return copy->getResult(0);
    }
    DeviceAttr home = deviceOf(value);
    Type from = cast<RankedTensorType>(value.getType()).getElementType();
    Type to = cast<RankedTensorType>(type).getElementType();
    DeviceAttr at = device;
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth() && home != device) {
      // Narrowing: on the value's device, unless the consumer's device reads
      // the value as it is too (then one copy, and the cast there).
      bool readAsIs = llvm::any_of(value.getUses(), [&](OpOperand &use) {
        return deviceOfUser(use.getOwner()) == device && wantedType(use) == value.getType();
      });
      at = readAsIs ? device : home;
    }
    auto key = std::make_tuple(value, Attribute(at), type);
    if (Value done = casts.lookup(key))
      return done;
    OpBuilder builder(&getContext());
    if (Operation *def = value.getDefiningOp())
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(value.getParentBlock());
    std::string name = valueName(value) + "/to_" + (to.isF16() ? "f16" : "f32");
    if (at != home)
      name += "@" + at.str();
    auto castOp = builder.create<CastOp>(NameLoc::get(builder.getStringAttr(name)), type,
                                         value, at);
    castOp->setAttr(::dlc::attrs::kReason, builder.getStringAttr("cast"));
    if (at == home)
      castAfter[castOp.getOperation()] = value;
    casts[key] = castOp.getResult();
    return castOp.getResult();
  }

  LogicalResult rewrite(func::FuncOp func) {
    MLIRContext *ctx = &getContext();
    f16 = Float16Type::get(ctx);
    cpu = DeviceAttr::getCpu(ctx);
    Block &block = func.getBody().front();
    for (auto [i, op] : llvm::enumerate(block.without_terminator()))
      orderInBlock[&op] = i;
    for (Operation *op : ops)
      operandTypes[op] = llvm::to_vector(op->getOperandTypes());
    resultTypes = llvm::to_vector(func.getResultTypes());
    SmallVector<Type> argTypes = llvm::to_vector(func.getArgumentTypes());
    if (ioPrecision == "fp16") {
      for (Type &type : resultTypes)
        if (isF32Tensor(type))
          type = withElement(type, f16);
      for (auto [i, arg] : llvm::enumerate(block.getArguments()))
        if (isF32Tensor(arg.getType())) {
          argTypes[i] = withElement(arg.getType(), f16);
          arg.setType(argTypes[i]);
        }
      func.setFunctionType(FunctionType::get(ctx, argTypes, resultTypes));
    }
    auto f32 = Float32Type::get(ctx);
    for (Operation *op : painted) {
      for (Value result : op->getResults())
        if (isF32Tensor(result.getType()))
          result.setType(withElement(result.getType(), f16));
      if (isa<MatmulOp, LinearOp, Conv2dOp>(op))
        op->setAttr("accumulator", TypeAttr::get(f32));
    }
    // Every use that wants another type than its value has.
    SmallVector<OpOperand *> uses;
    for (Operation &op : block)
      for (OpOperand &use : op.getOpOperands())
        if (use.get().getType() != wantedType(use))
          uses.push_back(&use);
    for (OpOperand *use : uses) {
      FailureOr<Value> converted =
          convert(use->get(), wantedType(*use), deviceOfUser(use->getOwner()));
      if (failed(converted))
        return failure();
      use->set(*converted);
    }
    for (auto [key, value] : constants)
      if (key.first->use_empty())
        key.first->erase();
    for (Operation *op : painted)
      if (failed(verify(op)))
        return failure();
    return success();
  }

  /// Folds cast(cast(x)) when the inner cast is exact.
  void foldCastChains(Block &block) {
    SmallVector<CastOp> all = llvm::to_vector(block.getOps<CastOp>());
    for (CastOp outer : all) {
      auto inner = outer.getInput().getDefiningOp<CastOp>();
      if (!inner)
        continue;
      Type a = cast<RankedTensorType>(inner.getInput().getType()).getElementType();
      Type b = cast<RankedTensorType>(inner.getType()).getElementType();
      if (!isa<FloatType>(a) || !isa<FloatType>(b) || !isExact(a, b))
        continue; // high -> low -> high keeps both: the rounding is the point
      outer.getInputMutable().assign(inner.getInput());
      if (outer.getInput().getType() == outer.getType()) {
        outer.getResult().replaceAllUsesWith(outer.getInput());
        forget(outer);
        outer.erase();
      }
      if (inner.use_empty()) {
        forget(inner);
        inner.erase();
      }
    }
  }
  void forget(CastOp cast) {
    for (auto &[key, value] : casts)
      if (value == cast.getResult())
        value = Value();
    castAfter.erase(cast.getOperation());
  }
  int64_t insertedCasts() {
    int64_t n = 0;
    for (auto &[key, value] : casts)
      n += value != nullptr;
    return n;
  }

  /// dlc.order for the new casts: a cast on its value's device right after
  /// the value's op, one on the consumer's device right before its first
  /// consumer; the other ops keep their relative order.
  void renumber(Block &block) {
    bool placed = false;
    for (Operation &op : block)
      placed |= op.hasAttr(::dlc::attrs::kOrder);
    if (!placed)
      return;
    auto orderOf = [](Operation *op) -> int64_t {
      auto order = op->getAttrOfType<IntegerAttr>(::dlc::attrs::kOrder);
      return order ? order.getInt() : -1;
    };
    std::vector<std::tuple<int64_t, int, int64_t, Operation *>> keys;
    int64_t seq = 0, last = 0;
    for (Operation &op : block.without_terminator())
      last = std::max(last, orderOf(&op));
    for (Operation &op : block.without_terminator()) {
      if (auto castOp = dyn_cast<CastOp>(op); castOp && castOp->hasAttr(::dlc::attrs::kReason) &&
                                                 !castOp->hasAttr(::dlc::attrs::kOrder)) {
        auto it = castAfter.find(&op);
        if (it != castAfter.end()) {
          Operation *def = it->second.getDefiningOp();
          keys.push_back({def ? orderOf(def) : -1, 1, seq++, &op});
        } else {
          int64_t first = last + 1;
          for (Operation *user : castOp->getUsers())
            if (!isa<func::ReturnOp>(user))
              first = std::min(first, orderOf(user));
          keys.push_back({first, -1, seq++, &op});
        }
      } else if (op.hasAttr(::dlc::attrs::kOrder)) {
        keys.push_back({orderOf(&op), 0, seq++, &op});
      }
    }
    llvm::sort(keys);
    Builder builder(&getContext());
    for (auto [i, key] : llvm::enumerate(keys))
      std::get<3>(key)->setAttr(::dlc::attrs::kOrder, builder.getI64IntegerAttr(i));
  }

  llvm::StringSet<> allowKinds, denyKinds;
  llvm::DenseMap<Operation *, Pin> pins;
  llvm::DenseMap<Operation *, std::string> names;
  std::vector<Operation *> ops; // every op but constants, in block order
  llvm::DenseMap<Operation *, bool> candidate;
  llvm::SetVector<Operation *> painted;
  llvm::DenseMap<Operation *, SmallVector<Type>> operandTypes;
  llvm::DenseMap<Operation *, int64_t> orderInBlock;
  SmallVector<Type> resultTypes;
  llvm::DenseMap<std::pair<Operation *, Type>, Value> constants;
  llvm::DenseMap<std::tuple<Value, Attribute, Type>, Value> casts;
  llvm::DenseMap<Operation *, Value> castAfter; // casts on their value's device
  Type f16;
  DeviceAttr cpu;
};

} // namespace
