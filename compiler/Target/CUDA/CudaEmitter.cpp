//===- CudaEmitter.cpp - CUDA C++ from a partitioned kernel group ---------===//
//
// A group is an anchor (its first op, unless every op is elementwise) and the
// elementwise ops fused after it. The fused ops are printed as an expression
// tree evaluated per output element: `valueAt(v, coords)` emits the
// statements computing value `v` at the given coordinates of its own shape,
// loading group inputs with NumPy broadcasting, and names the result after
// its op. The anchor's kernel kind decides the loop structure and binds the
// anchor's value at the coordinates it is about to store; the chain then runs
// in that thread (the epilogue) and every group output is stored.
//
//===----------------------------------------------------------------------===//


#include "compiler/Target/CUDA/KernelEmitter.h"

using namespace dlc::cuda::detail;
using namespace dlc;
using dlc::cuda::KernelSource;

Coords KernelEmitter::coordsOf(const std::string &linear, ArrayRef<int64_t> shape,
                               StringRef prefix) {
  Coords c;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) { c.push_back("0"); continue; }
    std::string name = prefix.str() + std::to_string(d);
    std::string s = strides(shape, d);
    std::string e = s == "1" ? linear : "(" + linear + " / " + s + ")";
    if (d > 0) e += " % " + num(shape[d]);
    line("const long long " + name + " = " + e + ";");
    c.push_back(name);
  }
  return c;
}

std::string KernelEmitter::leafAt(Value v, const Coords &c) {
  if (params.count(v))
    return loadAs(elemOf(v), param(v) + "[" + offsetOf(shapeOf(v), c) + "]");
  auto constant = v.getDefiningOp<dlc::ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  if (!dense) {
    error(v.getDefiningOp() ? v.getDefiningOp() : ops.front())
        << "internal error: the CUDA kernel reads a value it has no buffer for";
    return "0";
  }
  Type t = elemOf(v);
  auto literal = [&](int64_t i) -> std::string {
    if (isFloatType(t)) return floatLiteral(t, dense.getValues<APFloat>()[i].convertToDouble());
    if (t.isSignlessInteger(1)) return dense.getValues<bool>()[i] ? "true" : "false";
    return integerLiteral(t, dense.getValues<APInt>()[i]);
  };
  if (dense.isSplat()) return literal(0);
  std::string name = identifier(entry) + "_c" + std::to_string(constants++);
  std::string values;
  for (int64_t i = 0; i < dense.getNumElements(); ++i)
    values += (i ? ", " : "") + literal(i);
  globals += "__device__ const " + computeType(t) + " " + name + "[] = {" + values + "};\n";
  return name + "[" + offsetOf(shapeOf(v), c) + "]";
}

std::string KernelEmitter::bufferOf(Value v) {
  if (params.count(v))
    return param(v);
  auto constant = v.getDefiningOp<dlc::ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  if (!dense) {
    error(v.getDefiningOp() ? v.getDefiningOp() : ops.front())
        << "internal error: the CUDA kernel reads a value it has no buffer for";
    return "nullptr";
  }
  Type t = elemOf(v);
  bool half = t.isF16() || t.isBF16();
  std::string name = identifier(entry) + "_c" + std::to_string(constants++);
  std::string values;
  for (int64_t i = 0; i < countOf(shapeOf(v)); ++i) {
    int64_t k = dense.isSplat() ? 0 : i;
    std::string literal;
    if (half) // raw bits: __half has no constexpr constructor from float everywhere
      literal = std::to_string(dense.getValues<APFloat>()[k].bitcastToAPInt().getZExtValue());
    else if (isFloatType(t))
      literal = floatLiteral(t, dense.getValues<APFloat>()[k].convertToDouble());
    else if (t.isSignlessInteger(1))
      literal = dense.getValues<bool>()[k] ? "1" : "0";
    else
      literal = integerLiteral(t, dense.getValues<APInt>()[k]);
    values += (i ? ", " : "") + literal;
  }
  std::string st = half ? "unsigned short" : storageType(t);
  globals += "__device__ __align__(16) const " + st + " " + name + "[] = {" + values + "};\n";
  return half ? "reinterpret_cast<const " + storageType(t) + " *>(" + name + ")" : name;
}

/// An integer clip's bound: the attribute (a double) rounded inward and
/// saturated to `t`'s range, as the CPU lowering and the reference do.
static std::string integerBound(Type t, double v, bool isLow) {
  unsigned width = t.getIntOrFloatBitWidth();
  bool isUnsigned = t.isUnsignedInteger();
  double lo = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double hi = std::ldexp(1.0, width - !isUnsigned) - 1;
  v = isLow ? std::ceil(v) : std::floor(v);
  if (v >= hi)
    return integerLiteral(t, isUnsigned ? llvm::APInt::getMaxValue(width)
                                        : llvm::APInt::getSignedMaxValue(width));
  if (v <= lo)
    return integerLiteral(t, isUnsigned ? llvm::APInt::getZero(width)
                                        : llvm::APInt::getSignedMinValue(width));
  return integerLiteral(t, llvm::APInt(64, static_cast<uint64_t>(static_cast<int64_t>(v))));
}

/// dlc.cast on compute-type scalars: floats to integers truncate toward zero
/// and wrap (NaN and inf give 0; u64 takes values from 2^63 unsigned), and
/// integers narrow by their storage type.
static std::string castExpr(Type from, Type to, const std::string &x) {
  if (to.isSignlessInteger(1)) return "(" + x + " != 0)";
  if (isFloatType(to)) return "(" + computeType(to) + ")(" + x + ")";
  std::string narrowed = "(" + computeType(to) + ")(" + storageType(to) + ")";
  if (!isFloatType(from)) return narrowed + "(" + x + ")";
  std::string truncated = "(long long)" + x;
  if (to.isUnsignedInteger(64))
    truncated = "(" + x + " >= 9223372036854775808.0 ? (unsigned long long)" + x +
                " : (unsigned long long)(long long)" + x + ")";
  return narrowed + "(dlc_isfinite(" + x + ") ? " + truncated + " : 0LL)";
}

/// An integer shift of `x` by `y` bits in type `t`, as the CPU lowering
/// defines it past the width (0, or the sign); left shifts in unsigned
/// arithmetic (a signed one would overflow), wrapped to `t` by roundTo.
static std::string shiftExpr(Type t, const std::string &x, const std::string &y, bool left) {
  std::string width = std::to_string(t.getIntOrFloatBitWidth());
  std::string amount = "(unsigned long long)(" + y + ")";
  std::string inRange = "(" + amount + " < " + width + "ULL)";
  if (left)
    return "(" + inRange + " ? (" + computeType(t) + ")((unsigned long long)(" + x + ") << " +
           amount + ") : 0)";
  if (t.isUnsignedInteger())
    return "(" + inRange + " ? " + x + " >> " + amount + " : 0)";
  return "(" + x + " >> (" + inRange + " ? " + amount + " : " + width + "ULL - 1))";
}

std::string KernelEmitter::elementwise(Operation *op, ArrayRef<std::string> a) {
  Type t = elemOf(op->getOperand(0));
  bool f = isFloatType(elemOf(op->getResult(0)));
  bool isUnsigned = t.isUnsignedInteger();
  // C's float functions (expf) for f32/f16/bf16, the double ones for f64.
  std::string sfx = t.isF64() ? "" : "f";
  auto fn = [&](const char *name, const std::string &arg) { return name + sfx + "(" + arg + ")"; };
  auto lit = [&](double v) { return floatLiteral(t, v); };
  std::string x = a[0], y = a.size() > 1 ? a[1] : "";
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([&](AddOp) { return x + " + " + y; })
      .Case([&](SubOp) { return x + " - " + y; })
      .Case([&](MulOp) { return x + " * " + y; })
      .Case([&](DivOp) { return x + " / " + y; })
      .Case([&](RemOp) { return f ? "fmod" + sfx + "(" + x + ", " + y + ")" : "(" + x + " % " + y + ")"; })
      .Case([&](ModOp) {
        if (isUnsigned) return "(" + x + " % " + y + ")";
        return f ? "dlc_mod(" + x + ", " + y + ")"
                 : "dlc_mod((long long)(" + x + "), (long long)(" + y + "))";
      })
      .Case([&](PowOp) { return "pow" + sfx + "(" + x + ", " + y + ")"; })
      .Case([&](ShiftLeftOp) { return shiftExpr(t, x, y, /*left=*/true); })
      .Case([&](ShiftRightOp) { return shiftExpr(t, x, y, /*left=*/false); })
      .Case([&](MaxOp) { return f ? "dlc_max(" + x + ", " + y + ")" : "(" + x + " > " + y + " ? " + x + " : " + y + ")"; })
      .Case([&](MinOp) { return f ? "dlc_min(" + x + ", " + y + ")" : "(" + x + " < " + y + " ? " + x + " : " + y + ")"; })
      // x may be a negative literal: "-(" keeps "-" "-2" from reading as "--2".
      .Case([&](NegOp) { return "-(" + x + ")"; })
      .Case([&](AbsOp) {
        if (isUnsigned) return x;
        return f ? fn("fabs", x) : "(" + x + " < 0 ? -(" + x + ") : " + x + ")";
      })
      .Case([&](ExpOp) { return fn("exp", x); })
      .Case([&](LogOp) { return fn("log", x); })
      .Case([&](SqrtOp) { return fn("sqrt", x); })
      .Case([&](RsqrtOp) { return fn("rsqrt", x); })
      .Case([&](TanhOp) { return fn("tanh", x); })
      .Case([&](SigmoidOp) { return lit(1.0) + " / (" + lit(1.0) + " + " + fn("exp", "-(" + x + ")") + ")"; })
      .Case([&](ErfOp) { return fn("erf", x); })
      .Case([&](SinOp) { return fn("sin", x); })
      .Case([&](CosOp) { return fn("cos", x); })
      .Case([&](TanOp) { return fn("tan", x); })
      .Case([&](AsinOp) { return fn("asin", x); })
      .Case([&](AcosOp) { return fn("acos", x); })
      .Case([&](AtanOp) { return fn("atan", x); })
      .Case([&](SinhOp) { return fn("sinh", x); })
      .Case([&](CoshOp) { return fn("cosh", x); })
      .Case([&](AsinhOp) { return fn("asinh", x); })
      .Case([&](AcoshOp) { return fn("acosh", x); })
      .Case([&](AtanhOp) { return fn("atanh", x); })
      .Case([&](CeilOp) { return fn("ceil", x); })
      .Case([&](FloorOp) { return fn("floor", x); })
      .Case([&](RoundOp) { return fn("rint", x); }) // ties to even
      .Case([&](SignOp) {
        // NaN (and a float zero, with its sign) stays as it is.
        if (isUnsigned) return "(" + x + " != 0 ? 1 : " + x + ")";
        return "(" + x + " > 0 ? 1 : (" + x + " < 0 ? -1 : " + x + "))";
      })
      .Case([&](ReluOp) { return "(" + x + " > 0 ? " + x + " : 0)"; })
      .Case([&](GeluOp g) {
        if (g.getTanhApproximation())
          return lit(0.5) + " * " + x + " * (" + lit(1.0) + " + " +
                 fn("tanh", lit(0.7978845608028654) + " * (" + x + " + " + lit(0.044715) + " * " +
                                x + " * " + x + " * " + x + ")") + ")";
        return lit(0.5) + " * " + x + " * (" + lit(1.0) + " + " +
               fn("erf", x + " * " + lit(0.7071067811865476)) + ")";
      })
      .Case([&](ClipOp c) {
        double minV = c.getMin().convertToDouble(), maxV = c.getMax().convertToDouble();
        std::string lo = f ? lit(minV) : integerBound(t, minV, /*isLow=*/true);
        std::string hi = f ? lit(maxV) : integerBound(t, maxV, /*isLow=*/false);
        return "(" + x + " < " + lo + " ? " + lo + " : (" + x + " > " + hi + " ? " + hi + " : " + x + "))";
      })
      .Case([&](CompareOp c) {
        // On compute types (f16/bf16 widened exactly); C++'s != is true for
        // NaN and the others false, as the reference.
        std::string p = llvm::StringSwitch<std::string>(c.getPredicate())
                            .Case("eq", "==").Case("ne", "!=").Case("lt", "<")
                            .Case("le", "<=").Case("gt", ">").Default(">=");
        return "(" + x + " " + p + " " + y + ")";
      })
      .Case([&](SelectOp) { return "(" + x + " ? " + y + " : " + a[2] + ")"; })
      .Case([&](CastOp c) { return castExpr(elemOf(c.getInput()), elemOf(c.getResult()), x); })
      .Default([&](Operation *) {
        error(op) << "the CUDA backend cannot fuse '" << op->getName() << "'";
        return std::string("0");
      });
}

std::string KernelEmitter::valueAt(Value v, const Coords &c) {
  if (anchorValue && v == anchorValue && lazyAnchor) {
    // Pointwise anchors are computed where the chain needs them, at any
    // coordinates (a broadcasting op after them reads several).
    auto key = std::make_pair(v.getAsOpaquePointer(), llvm::join(c, ","));
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    return memo[key] = pointwiseAnchor(anchor, c);
  }
  if (anchorValue && v == anchorValue) {
    if (c != anchorCoords)
      error(anchor) << "the CUDA backend cannot fuse an elementwise op that "
                       "broadcasts the result of '" << opNames.lookup(anchor) << "'";
    return anchorVar;
  }
  auto ov = overrides.find(v);
  if (ov != overrides.end()) return ov->second;
  auto key = std::make_pair(v.getAsOpaquePointer(), llvm::join(c, ","));
  auto it = memo.find(key);
  if (it != memo.end()) return it->second;
  Operation *op = v.getDefiningOp();
  std::string out;
  if (!op || !inGroup.contains(op)) {
    out = leafAt(v, c);
    if (out.find('[') != std::string::npos) { // a load: name it once
      std::string name = "x" + std::to_string(temp++);
      line("const " + computeType(elemOf(v)) + " " + name + " = " + out + ";");
      out = name;
    }
  } else if (auto split = dyn_cast<SplitOp>(op)) {
    // A piece of the input, shifted along the axis.
    unsigned r = cast<OpResult>(v).getResultNumber();
    int64_t axis = normalized(split.getAxis(), c.size()), offset = 0;
    for (unsigned k = 0; k < r; ++k) offset += split.getSizes()[k];
    Coords ic = c;
    if (offset) ic[axis] = "(" + c[axis] + " + " + num(offset) + ")";
    out = valueAt(split.getInput(), ic);
  } else {
    SmallVector<std::string> args;
    for (Value operand : op->getOperands())
      args.push_back(valueAt(operand, project(shapeOf(v), c, shapeOf(operand))));
    std::string name = fresh(opNames.lookup(op));
    line("const " + computeType(elemOf(v)) + " " + name + " = " +
         roundTo(elemOf(v), elementwise(op, args)) + ";  // " +
         op->getName().getStringRef().str());
    out = name;
  }
  memo[key] = out;
  return out;
}

void KernelEmitter::storeOutputs(ArrayRef<int64_t> space, const Coords &c) {
  for (Value out : outputs) {
    ArrayRef<int64_t> shape = shapeOf(out);
    bool fits = shape.size() <= space.size();
    for (size_t d = 0; fits && d < shape.size(); ++d)
      fits = shape[d] == 1 || shape[d] == space[space.size() - shape.size() + d];
    if (!fits) {
      Operation *at = anchor ? anchor : out.getDefiningOp();
      error(at) << "the CUDA backend cannot fuse an elementwise op that broadcasts the result of '"
                << opNames.lookup(at) << "'";
      return;
    }
    Coords oc = project(space, c, shape);
    // A smaller output (read outside the group before a broadcast) is stored
    // by the threads at coordinate 0 of the dimensions it lacks.
    std::string guard;
    size_t lead = space.size() - shape.size();
    for (size_t d = 0; d < space.size(); ++d) {
      bool broadcast = d < lead || (shape[d - lead] == 1 && space[d] != 1);
      if (broadcast && c[d] != "0")
        guard += std::string(guard.empty() ? "" : " && ") + c[d] + " == 0";
    }
    std::string value = valueAt(out, oc);
    std::string store = param(out) + "[" + offsetOf(shape, oc) + "] = " + storeAs(elemOf(out), value) + ";";
    line(guard.empty() ? store : "if (" + guard + ") " + store);
  }
}

std::string KernelEmitter::signature() {
  std::string s = "extern \"C\" __global__ void __launch_bounds__(" +
                  std::to_string(result.block[0] * result.block[1] * result.block[2]) +
                  (result.minBlocksPerSM ? ", " + std::to_string(result.minBlocksPerSM) : "") +
                  ") " + entry + "(";
  for (auto [i, v] : llvm::enumerate(llvm::concat<const Value>(inputs, outputs))) {
    bool in = i < inputs.size();
    s += std::string(i ? ", " : "") + (in ? "const " : "") + storageType(elemOf(v)) +
         " *__restrict__ p" + std::to_string(i);
  }
  return s + ")";
}

bool dlc::cuda::detail::isRowReduction(Operation *op) {
  if (isa<SoftmaxOp, LayerNormOp>(op)) return true;
  if (!isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp>(op)) return false;
  // The row kernels accumulate in float: other types take the pointwise one.
  Type t = elemOf(op->getOperand(0));
  if (!t.isF32() && !t.isF16() && !t.isBF16()) return false;
  ArrayRef<int64_t> is = shapeOf(op->getOperand(0));
  auto axesAttr = op->getAttrOfType<DenseI64ArrayAttr>("axes");
  llvm::SmallSet<int64_t, 4> axes;
  for (int64_t a : axesAttr ? axesAttr.asArrayRef() : ArrayRef<int64_t>{})
    axes.insert(a < 0 ? a + is.size() : a);
  if (axes.empty()) return true;
  for (size_t d = is.size() - axes.size(); d < is.size(); ++d)
    if (!axes.contains(d)) return false;
  return true;
}

FailureOr<KernelSource> KernelEmitter::run() {
  result.entry = entry;
  result.parameters = inputs.size() + outputs.size();
  for (Operation *op : ops) result.ops.push_back(opNames.lookup(op));
  if (!isElementwise(ops.front())) anchor = ops.front();
  for (Operation *op : ops.drop_front())
    if (!isElementwise(op))
      return op->emitError() << "the CUDA backend expects one anchor op per kernel, followed by "
                                "elementwise ops; '" << opNames.lookup(op) << "' is not elementwise";
  LogicalResult ok = success();
  if (outputs.empty()) { // nothing reads the group's results
    result.kind = "empty";
    result.block = {32, 1, 1};
    line("// no result of these ops is read: nothing to compute");
  } else if (!anchor) ok = emitElementwise();
  else if (isa<MatmulOp, LinearOp, Conv2dOp>(anchor)) ok = emitMatmul();
  else if (isRowReduction(anchor)) ok = emitRowReduction();
  else if (isa<SplitOp>(anchor)) ok = emitSplit();
  else if (isa<TopKOp>(anchor)) ok = emitTopK();
  else ok = emitPointwise();
  if (failed(ok) || hadError) return failure();
  std::string code;
  code += "// " + entry + " (" + result.kind + "): ";
  for (auto [i, op] : llvm::enumerate(ops))
    code += (i ? " -> " : "") + op->getName().getStringRef().str() + " '" + opNames.lookup(op) + "'";
  code += "\n" + globals + signature() + " {\n" + body + "}\n";
  result.code = std::move(code);
  return result;
}

FailureOr<KernelSource> dlc::cuda::emitKernel(ArrayRef<Operation *> ops, ArrayRef<Value> inputs,
                                              ArrayRef<Value> outputs, StringRef entry,
                                              ArrayRef<std::string> opNames) {
  KernelEmitter emitter(ops, inputs, outputs, entry, opNames);
  return emitter.run();
}

std::string dlc::cuda::moduleSource(ArrayRef<KernelSource> kernels) {
  std::string s = preamble();
  for (const KernelSource &k : kernels) s += "\n" + k.code;
  return s;
}

