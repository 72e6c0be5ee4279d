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

#include "compiler/Target/CUDA/CudaEmitter.h"

#include "dialects/dlc/DlcOps.h"
#include "passes/DeviceSpec.h"
#include "passes/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace dlc;
using llvm::ArrayRef;
using llvm::StringRef;
using dlc::cuda::KernelSource;

namespace {

using Coords = std::vector<std::string>;

ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }
Type elemOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }
int64_t countOf(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}
std::string num(int64_t v) { return std::to_string(v) + (v > INT32_MAX || v < INT32_MIN ? "LL" : ""); }
std::string flt(double v) {
  if (std::isinf(v)) return v > 0 ? "DLC_INF" : "(-DLC_INF)";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.9g", v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s + "f";
}

/// I64Attr accessors return uint64_t: a negative axis needs the cast.
int64_t normalized(uint64_t axis, size_t rank) {
  int64_t a = static_cast<int64_t>(axis);
  return a < 0 ? a + static_cast<int64_t>(rank) : a;
}

bool isFloatType(Type t) { return t.isF32() || t.isF16() || t.isBF16(); }

std::string storageType(Type t) {
  if (t.isF32()) return "float";
  if (t.isF16()) return "__half";
  if (t.isBF16()) return "__nv_bfloat16";
  if (t.isSignlessInteger(32)) return "int";
  if (t.isSignlessInteger(64)) return "long long";
  return "unsigned char"; // i1: one byte per element
}
std::string computeType(Type t) {
  if (isFloatType(t)) return "float";
  if (t.isSignlessInteger(32)) return "int";
  if (t.isSignlessInteger(64)) return "long long";
  return "bool";
}
std::string loadAs(Type t, const std::string &ref) {
  if (t.isF16()) return "__half2float(" + ref + ")";
  if (t.isBF16()) return "__bfloat162float(" + ref + ")";
  if (t.isSignlessInteger(1)) return "(" + ref + " != 0)";
  return ref;
}
std::string storeAs(Type t, const std::string &v) {
  if (t.isF16()) return "__float2half_rn(" + v + ")";
  if (t.isBF16()) return "__float2bfloat16_rn(" + v + ")";
  return "(" + storageType(t) + ")(" + v + ")";
}
/// The single rounding per op the reference interpreter applies.
std::string roundTo(Type t, const std::string &v) {
  if (t.isF16()) return "dlc_round_f16(" + v + ")";
  if (t.isBF16()) return "dlc_round_bf16(" + v + ")";
  return v;
}

/// "/blocks.0/attn/MatMul" -> "blocks_0_attn_MatMul" (a C identifier).
std::string identifier(StringRef name) {
  std::string out;
  for (char c : name) {
    if (llvm::isAlnum(c)) out.push_back(c);
    else if (!out.empty() && out.back() != '_') out.push_back('_');
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || llvm::isDigit(out[0])) out = "v" + out;
  if (out.size() > 40) out = out.substr(out.size() - 40);
  if (llvm::isDigit(out[0])) out = "v" + out;
  return out;
}

std::string strides(ArrayRef<int64_t> shape, size_t d) {
  int64_t s = 1;
  for (size_t i = d + 1; i < shape.size(); ++i) s *= shape[i];
  return num(s);
}
std::string offsetOf(ArrayRef<int64_t> shape, const Coords &c) {
  std::string out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1 || c[d] == "0") continue;
    if (!out.empty()) out += " + ";
    std::string s = strides(shape, d);
    std::string x = c[d].find(' ') == std::string::npos ? c[d] : "(" + c[d] + ")";
    out += s == "1" ? x : x + " * " + s;
  }
  return out.empty() ? "0" : out;
}
/// Coordinates of `to` (right-aligned, size-1 dims broadcasting) for `from`'s.
Coords project(ArrayRef<int64_t> from, const Coords &c, ArrayRef<int64_t> to) {
  Coords out;
  size_t lead = from.size() - to.size();
  for (size_t d = 0; d < to.size(); ++d)
    out.push_back(to[d] == 1 && from[lead + d] != 1 ? "0" : c[lead + d]);
  return out;
}

class KernelEmitter {
public:
  KernelEmitter(ArrayRef<Operation *> ops, ArrayRef<Value> inputs,
                ArrayRef<Value> outputs, StringRef entry, ArrayRef<std::string> names)
      : ops(ops), inputs(inputs), outputs(outputs), entry(entry.str()) {
    for (auto [op, name] : llvm::zip(ops, names)) opNames[op] = name;
    for (auto [i, v] : llvm::enumerate(llvm::concat<const Value>(inputs, outputs)))
      params[v] = i;
    inGroup.insert(ops.begin(), ops.end());
  }
  FailureOr<KernelSource> run();

private:
  // Printing.
  void line(const std::string &s) { body += std::string(indent * 2, ' ') + s + "\n"; }
  void open(const std::string &s) { line(s + " {"); ++indent; }
  void close(const std::string &tail = "") { --indent; line("}" + tail); }
  std::string fresh(StringRef base) { return identifier(base) + "_" + std::to_string(temp++); }
  Coords coordsOf(const std::string &linear, ArrayRef<int64_t> shape, StringRef prefix);
  InFlightDiagnostic error(Operation *op) { hadError = true; return op->emitError(); }

  // The chain.
  std::string valueAt(Value v, const Coords &c);
  std::string leafAt(Value v, const Coords &c);
  std::string elementwise(Operation *op, ArrayRef<std::string> a);
  void storeOutputs(ArrayRef<int64_t> space, const Coords &c);
  template <typename F> void scoped(F f) {
    auto saved = memo;
    f();
    memo = saved;
  }
  std::string param(Value v) { return "p" + std::to_string(params.lookup(v)); }

  // Kernel kinds.
  LogicalResult emitElementwise();
  bool emitVectorised(ArrayRef<int64_t> shape);
  LogicalResult emitPointwise();
  LogicalResult emitSplit();
  std::string pointwiseAnchor(Operation *op, const Coords &c);
  LogicalResult emitRowReduction();
  LogicalResult emitMatmul();
  std::string signature();

  ArrayRef<Operation *> ops;
  ArrayRef<Value> inputs, outputs;
  std::string entry;
  llvm::DenseMap<Operation *, std::string> opNames;
  llvm::DenseMap<Value, unsigned> params;
  llvm::SmallPtrSet<Operation *, 16> inGroup;
  Operation *anchor = nullptr;

  std::string body, globals;
  int indent = 1;
  unsigned temp = 0, constants = 0;
  bool hadError = false;
  std::map<std::pair<void *, std::string>, std::string> memo;
  llvm::DenseMap<Value, std::string> overrides; // vector lanes
  Value anchorValue;
  bool lazyAnchor = false;
  Coords anchorCoords;
  std::string anchorVar;
  KernelSource result;
};

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
    if (isFloatType(t)) return flt(dense.getValues<APFloat>()[i].convertToDouble());
    if (t.isSignlessInteger(1)) return dense.getValues<bool>()[i] ? "true" : "false";
    return num(dense.getValues<APInt>()[i].getSExtValue());
  };
  if (dense.isSplat()) return literal(0);
  std::string name = identifier(entry) + "_c" + std::to_string(constants++);
  std::string values;
  for (int64_t i = 0; i < dense.getNumElements(); ++i)
    values += (i ? ", " : "") + literal(i);
  globals += "__device__ const " + computeType(t) + " " + name + "[] = {" + values + "};\n";
  return name + "[" + offsetOf(shapeOf(v), c) + "]";
}

std::string KernelEmitter::elementwise(Operation *op, ArrayRef<std::string> a) {
  bool f = isFloatType(elemOf(op->getResult(0)));
  std::string x = a[0], y = a.size() > 1 ? a[1] : "";
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([&](AddOp) { return x + " + " + y; })
      .Case([&](SubOp) { return x + " - " + y; })
      .Case([&](MulOp) { return x + " * " + y; })
      .Case([&](DivOp) { return x + " / " + y; })
      .Case([&](PowOp) { return "powf(" + x + ", " + y + ")"; })
      .Case([&](MaxOp) { return f ? "dlc_max(" + x + ", " + y + ")" : "(" + x + " > " + y + " ? " + x + " : " + y + ")"; })
      .Case([&](MinOp) { return f ? "dlc_min(" + x + ", " + y + ")" : "(" + x + " < " + y + " ? " + x + " : " + y + ")"; })
      .Case([&](NegOp) { return "-" + x; })
      .Case([&](AbsOp) { return f ? "fabsf(" + x + ")" : "(" + x + " < 0 ? -" + x + " : " + x + ")"; })
      .Case([&](ExpOp) { return "expf(" + x + ")"; })
      .Case([&](LogOp) { return "logf(" + x + ")"; })
      .Case([&](SqrtOp) { return "sqrtf(" + x + ")"; })
      .Case([&](RsqrtOp) { return "rsqrtf(" + x + ")"; })
      .Case([&](TanhOp) { return "tanhf(" + x + ")"; })
      .Case([&](SigmoidOp) { return "1.0f / (1.0f + expf(-" + x + "))"; })
      .Case([&](ErfOp) { return "erff(" + x + ")"; })
      .Case([&](ReluOp) { return "(" + x + " > 0 ? " + x + " : 0)"; })
      .Case([&](GeluOp g) {
        if (g.getTanhApproximation())
          return "0.5f * " + x + " * (1.0f + tanhf(0.7978845608f * (" + x + " + 0.044715f * " + x + " * " + x + " * " + x + ")))";
        return "0.5f * " + x + " * (1.0f + erff(" + x + " * 0.70710678118f))";
      })
      .Case([&](ClipOp c) {
        std::string lo = f ? flt(c.getMin().convertToDouble()) : num((int64_t)c.getMin().convertToDouble());
        std::string hi = f ? flt(c.getMax().convertToDouble()) : num((int64_t)c.getMax().convertToDouble());
        return "(" + x + " < " + lo + " ? " + lo + " : (" + x + " > " + hi + " ? " + hi + " : " + x + "))";
      })
      .Case([&](CastOp c) {
        Type from = elemOf(c.getInput()), to = elemOf(c.getResult());
        if (to.isSignlessInteger(1)) return "(" + x + " != 0)";
        if (isFloatType(to)) return "(float)(" + x + ")";
        if (isFloatType(from)) // truncate toward zero, wrap; NaN and inf give 0
          return "(" + computeType(to) + ")(isfinite_dlc(" + x + ") ? (long long)" + x + " : 0LL)";
        return "(" + computeType(to) + ")(" + x + ")";
      })
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
                  ") " + entry + "(";
  for (auto [i, v] : llvm::enumerate(llvm::concat<const Value>(inputs, outputs))) {
    bool in = i < inputs.size();
    s += std::string(i ? ", " : "") + (in ? "const " : "") + storageType(elemOf(v)) +
         " *__restrict__ p" + std::to_string(i);
  }
  return s + ")";
}

LogicalResult KernelEmitter::emitElementwise() {
  ArrayRef<int64_t> space;
  for (Value out : outputs)
    if (countOf(shapeOf(out)) > countOf(space) || space.empty()) space = shapeOf(out);
  int64_t n = countOf(space);
  result.kind = "elementwise";
  result.block = {256, 1, 1};
  if (emitVectorised(space)) return success();
  result.grid = {static_cast<uint32_t>(std::min<int64_t>((n + 255) / 256, 4096)), 1, 1};
  line("const long long n = " + num(n) + ";");
  open("for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; "
       "i += (long long)gridDim.x * blockDim.x)");
  Coords c = coordsOf("i", space, "c");
  storeOutputs(space, c);
  close();
  return success(!hadError);
}

/// float4 (f32) or two __half2 (f16) per thread when every input is the full
/// shape or a scalar and the element count divides: buffers are 64-byte
/// aligned, so the vectors are too. f16 chains of add/sub/mul/max/min/neg/
/// relu stay in __half2 arithmetic (each lane rounded once per op, as the
/// reference does); others widen each lane to f32.
bool KernelEmitter::emitVectorised(ArrayRef<int64_t> space) {
  int64_t n = countOf(space);
  Type t = elemOf(outputs.front());
  if (n % 4 != 0 || !(t.isF32() || t.isF16())) return false;
  bool half2 = t.isF16();
  SmallVector<Value> full;
  for (Value out : outputs)
    if (shapeOf(out) != space || elemOf(out) != t) return false;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands()) {
      if (elemOf(operand) != t) return false;
      Operation *def = operand.getDefiningOp();
      if (def && inGroup.contains(def)) continue;
      int64_t count = countOf(shapeOf(operand));
      if (count == 1) continue;
      if (shapeOf(operand) != space || !params.count(operand)) return false;
      if (!llvm::is_contained(full, operand)) full.push_back(operand);
    }
    if (!isa<AddOp, SubOp, MulOp, MaxOp, MinOp, NegOp, ReluOp>(op)) half2 = false;
  }
  int64_t vectors = n / 4;
  result.grid = {static_cast<uint32_t>(std::min<int64_t>((vectors + 255) / 256, 4096)), 1, 1};
  line(std::string("// vectorised: ") + (t.isF32() ? "float4" : half2 ? "__half2 arithmetic" : "__half2 loads, f32 math") + ", 4 elements per thread");
  line("const long long n = " + num(vectors) + ";");
  open("for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; "
       "i += (long long)gridDim.x * blockDim.x)");
  Coords dummy(space.size(), "i"); // every full-shape operand is overridden
  if (t.isF32()) {
    std::vector<std::string> vecs;
    for (Value v : full) {
      std::string name = "x" + std::to_string(temp++);
      line("const float4 " + name + " = reinterpret_cast<const float4 *>(" + param(v) + ")[i];");
      vecs.push_back(name);
    }
    std::vector<std::string> outs;
    for (size_t k = 0; k < outputs.size(); ++k) {
      outs.push_back("y" + std::to_string(temp++));
      line("float4 " + outs.back() + ";");
    }
    const char *lanes[] = {"x", "y", "z", "w"};
    for (const char *lane : lanes) {
      scoped([&] {
        for (auto [v, name] : llvm::zip(full, vecs)) overrides[v] = name + "." + lane;
        for (auto [out, name] : llvm::zip(outputs, outs))
          line(name + "." + lane + " = " + valueAt(out, dummy) + ";");
      });
    }
    for (auto [out, name] : llvm::zip(outputs, outs))
      line("reinterpret_cast<float4 *>(" + param(out) + ")[i] = " + name + ";");
  } else {
    for (int pair = 0; pair < 2; ++pair) {
      std::string idx = "2 * i + " + std::to_string(pair);
      std::vector<std::string> vecs;
      for (Value v : full) {
        std::string name = "x" + std::to_string(temp++);
        line("const __half2 " + name + " = reinterpret_cast<const __half2 *>(" + param(v) + ")[" + idx + "];");
        vecs.push_back(name);
      }
      if (half2) {
        scoped([&] {
          std::vector<std::pair<Value, std::string>> saved;
          for (auto [v, name] : llvm::zip(full, vecs)) overrides[v] = name;
          // Every op of the chain on __half2 pairs.
          llvm::DenseMap<Value, std::string> h2;
          for (auto [v, name] : llvm::zip(full, vecs)) h2[v] = name;
          std::function<std::string(Value)> at = [&](Value v) -> std::string {
            auto it = h2.find(v);
            if (it != h2.end()) return it->second;
            Operation *op = v.getDefiningOp();
            if (!op || !inGroup.contains(op)) { // a scalar: broadcast it
              std::string s = "__float2half2_rn(" + leafAt(v, Coords(shapeOf(v).size(), "0")) + ")";
              return h2[v] = s;
            }
            SmallVector<std::string> a;
            for (Value o : op->getOperands()) a.push_back(at(o));
            std::string e = llvm::TypeSwitch<Operation *, std::string>(op)
                                .Case([&](AddOp) { return "__hadd2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](SubOp) { return "__hsub2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](MulOp) { return "__hmul2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](MaxOp) { return "__hmax2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](MinOp) { return "__hmin2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](NegOp) { return "__hneg2(" + a[0] + ")"; })
                                .Default([&](Operation *) { return "__hmax2(" + a[0] + ", __float2half2_rn(0.0f))"; });
            std::string name = fresh(opNames.lookup(op));
            line("const __half2 " + name + " = " + e + ";  // " + op->getName().getStringRef().str());
            return h2[v] = name;
          };
          for (Value out : outputs)
            line("reinterpret_cast<__half2 *>(" + param(out) + ")[" + idx + "] = " + at(out) + ";");
        });
      } else {
        std::vector<std::string> lanesOut[2];
        for (int lane = 0; lane < 2; ++lane)
          scoped([&] {
            for (auto [v, name] : llvm::zip(full, vecs))
              overrides[v] = std::string(lane ? "__high2float(" : "__low2float(") + name + ")";
            for (Value out : outputs) lanesOut[lane].push_back(valueAt(out, dummy));
          });
        for (auto [k, out] : llvm::enumerate(outputs))
          line("reinterpret_cast<__half2 *>(" + param(out) + ")[" + idx + "] = __floats2half2_rn(" +
               lanesOut[0][k] + ", " + lanesOut[1][k] + ");");
      }
    }
  }
  close();
  overrides.clear();
  return true;
}

LogicalResult KernelEmitter::emitPointwise() {
  ArrayRef<int64_t> space = shapeOf(anchor->getResult(0));
  for (Value out : outputs)
    if (countOf(shapeOf(out)) > countOf(space)) space = shapeOf(out);
  int64_t n = countOf(space);
  result.block = {256, 1, 1};
  result.grid = {static_cast<uint32_t>(std::max<int64_t>(1, std::min<int64_t>((n + 255) / 256, 4096))), 1, 1};
  line("const long long n = " + num(n) + ";");
  open("for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; "
       "i += (long long)gridDim.x * blockDim.x)");
  Coords c = coordsOf("i", space, "c");
  anchorValue = anchor->getResult(0);
  lazyAnchor = true;
  storeOutputs(space, c);
  close();
  return success(!hadError);
}

/// Split: one grid-stride loop per output (the pieces' shapes differ), each
/// element read from the input at its shifted coordinates.
LogicalResult KernelEmitter::emitSplit() {
  result.kind = "pointwise";
  result.block = {256, 1, 1};
  int64_t most = 1;
  for (Value out : outputs) most = std::max(most, countOf(shapeOf(out)));
  result.grid = {static_cast<uint32_t>(std::min<int64_t>((most + 255) / 256, 4096)), 1, 1};
  for (Value out : outputs) {
    ArrayRef<int64_t> shape = shapeOf(out);
    line("// " + param(out) + ": dlc.split piece");
    open("for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < " +
         num(countOf(shape)) + "; i += (long long)gridDim.x * blockDim.x)");
    scoped([&] {
      Coords c = coordsOf("i", shape, "c");
      line(param(out) + "[" + offsetOf(shape, c) + "] = " + storeAs(elemOf(out), valueAt(out, c)) + ";");
    });
    close();
  }
  return success(!hadError);
}

/// The anchor's value at output coordinates `c`, computed by this thread.
std::string KernelEmitter::pointwiseAnchor(Operation *op, const Coords &c) {
  Value res = op->getResult(0);
  Type rt = elemOf(res);
  std::string ct = computeType(rt);
  std::string v = fresh(opNames.lookup(op));
  auto in = [&](unsigned i) { return op->getOperand(i); };
  if (auto t = dyn_cast<TransposeOp>(op)) {
    result.kind = "pointwise";
    Coords ic(c.size());
    for (auto [d, p] : llvm::enumerate(t.getPerm())) ic[p] = c[d];
    line("const " + ct + " " + v + " = " + valueAt(in(0), ic) + ";  // dlc.transpose");
    return v;
  }
  if (auto s = dyn_cast<SliceOp>(op)) {
    result.kind = "pointwise";
    Coords ic;
    for (size_t d = 0; d < c.size(); ++d) {
      int64_t st = s.getStarts()[d], step = s.getSteps()[d];
      std::string e = c[d];
      if (step != 1) e = e + " * " + num(step);
      if (st != 0) e = "(" + num(st) + " + " + e + ")";
      ic.push_back(c[d] == "0" ? num(st) : e);
    }
    line("const " + ct + " " + v + " = " + valueAt(in(0), ic) + ";  // dlc.slice");
    return v;
  }
  if (auto cat = dyn_cast<ConcatOp>(op)) {
    result.kind = "pointwise";
    int64_t axis = normalized(cat.getAxis(), c.size());
    line(ct + " " + v + ";  // dlc.concat");
    int64_t offset = 0;
    for (auto [k, input] : llvm::enumerate(cat.getInputs())) {
      int64_t size = shapeOf(input)[axis];
      Coords ic = c;
      ic[axis] = offset ? "(" + c[axis] + " - " + num(offset) + ")" : c[axis];
      bool last = k + 1 == cat.getInputs().size();
      open(std::string(k ? "else " : "") + (last ? "" : "if (" + c[axis] + " < " + num(offset + size) + ")"));
      scoped([&] { line(v + " = " + valueAt(input, ic) + ";"); });
      close();
      offset += size;
    }
    return v;
  }
  if (auto g = dyn_cast<GatherOp>(op)) {
    result.kind = "pointwise";
    ArrayRef<int64_t> data = shapeOf(g.getData()), idx = shapeOf(g.getIndices());
    int64_t axis = normalized(g.getAxis(), data.size());
    Coords ic(c.begin() + axis, c.begin() + axis + idx.size());
    std::string index = fresh("index");
    line("long long " + index + " = (long long)" + valueAt(g.getIndices(), ic) + ";  // dlc.gather");
    line("if (" + index + " < 0) " + index + " += " + num(data[axis]) + ";");
    line(index + " = " + index + " < 0 ? 0 : (" + index + " >= " + num(data[axis]) + " ? " +
         num(data[axis] - 1) + " : " + index + ");  // out of range: clamped");
    Coords dc(c.begin(), c.begin() + axis);
    dc.push_back(index);
    dc.insert(dc.end(), c.begin() + axis + idx.size(), c.end());
    line("const " + ct + " " + v + " = " + valueAt(g.getData(), dc) + ";");
    return v;
  }
  auto window = [&](ArrayRef<int64_t> kernel, ArrayRef<int64_t> st, ArrayRef<int64_t> pads,
                    ArrayRef<int64_t> dil, Value input, auto accumulate) {
    ArrayRef<int64_t> is = shapeOf(input);
    open("for (int kh = 0; kh < " + num(kernel[0]) + "; ++kh)");
    line("const long long ih = " + c[2] + " * " + num(st[0]) + " - " + num(pads[0]) + " + kh * " + num(dil[0]) + ";");
    line("if (ih < 0 || ih >= " + num(is[2]) + ") continue;");
    open("for (int kw = 0; kw < " + num(kernel[1]) + "; ++kw)");
    line("const long long iw = " + c[3] + " * " + num(st[1]) + " - " + num(pads[1]) + " + kw * " + num(dil[1]) + ";");
    line("if (iw < 0 || iw >= " + num(is[3]) + ") continue;");
    scoped([&] { accumulate(); });
    close();
    close();
  };
  if (auto p = dyn_cast<MaxPool2dOp>(op)) {
    result.kind = "pointwise";
    std::string acc = fresh("max");
    line("float " + acc + " = -DLC_INF;  // dlc.max_pool2d");
    window(p.getKernelShape(), p.getStrides(), p.getPads(), p.getDilations(), p.getInput(), [&] {
      line(acc + " = dlc_max(" + acc + ", " + valueAt(p.getInput(), {c[0], c[1], "ih", "iw"}) + ");");
    });
    line("const float " + v + " = " + acc + ";");
    return v;
  }
  if (auto p = dyn_cast<AvgPool2dOp>(op)) {
    result.kind = "pointwise";
    std::string acc = fresh("sum"), cnt = fresh("count");
    line("float " + acc + " = 0.0f;  // dlc.avg_pool2d");
    line("int " + cnt + " = 0;");
    SmallVector<int64_t> ones{1, 1};
    window(p.getKernelShape(), p.getStrides(), p.getPads(), ones, p.getInput(), [&] {
      line(acc + " += " + valueAt(p.getInput(), {c[0], c[1], "ih", "iw"}) + ";");
      line("++" + cnt + ";");
    });
    std::string div = p.getCountIncludePad()
                          ? flt(double(p.getKernelShape()[0] * p.getKernelShape()[1]))
                          : "(float)" + cnt;
    line("const float " + v + " = " + roundTo(rt, acc + " / " + div) + ";");
    return v;
  }
  if (auto p = dyn_cast<GlobalAvgPoolOp>(op)) {
    result.kind = "pointwise";
    ArrayRef<int64_t> is = shapeOf(p.getInput());
    std::string acc = fresh("sum");
    line("float " + acc + " = 0.0f;  // dlc.global_avg_pool");
    open("for (long long h = 0; h < " + num(is[2]) + "; ++h)");
    open("for (long long w = 0; w < " + num(is[3]) + "; ++w)");
    scoped([&] { line(acc + " += " + valueAt(p.getInput(), {c[0], c[1], "h", "w"}) + ";"); });
    close();
    close();
    line("const float " + v + " = " + roundTo(rt, acc + " / " + flt(double(is[2] * is[3]))) + ";");
    return v;
  }
  if (auto b = dyn_cast<BatchNormOp>(op)) {
    result.kind = "pointwise";
    Coords ch{c[1]};
    std::string x = valueAt(b.getInput(), c);
    line("const float " + v + " = " +
         roundTo(rt, "(" + x + " - " + valueAt(b.getMean(), ch) + ") * rsqrtf(" +
                         valueAt(b.getVariance(), ch) + " + " + flt(b.getEpsilon().convertToDouble()) +
                         ") * " + valueAt(b.getScale(), ch) + " + " + valueAt(b.getBias(), ch)) +
         ";  // dlc.batch_norm");
    return v;
  }
  if (auto conv = dyn_cast<Conv2dOp>(op)) {
    result.kind = "pointwise";
    ArrayRef<int64_t> is = shapeOf(conv.getInput()), fs = shapeOf(conv.getFilter());
    int64_t groups = conv.getGroups(), perGroup = fs[0] / groups, cg = fs[1];
    std::string acc = fresh("acc");
    line("// dlc.conv2d, direct: one output element per thread, f32 accumulation");
    line("float " + acc + " = 0.0f;");
    line("const long long cbase = (" + c[1] + " / " + num(perGroup) + ") * " + num(cg) + ";");
    open("for (long long ci = 0; ci < " + num(cg) + "; ++ci)");
    window({fs[2], fs[3]}, conv.getStrides(), conv.getPads(), conv.getDilations(), conv.getInput(), [&] {
      line(acc + " += " + valueAt(conv.getInput(), {c[0], "cbase + ci", "ih", "iw"}) + " * " +
           valueAt(conv.getFilter(), {c[1], "ci", "kh", "kw"}) + ";");
    });
    close();
    (void)is;
    std::string bias = conv.getBias() ? " + " + valueAt(conv.getBias(), {c[1]}) : "";
    line("const float " + v + " = " + roundTo(rt, acc + bias) + ";");
    return v;
  }
  if (isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp>(op)) {
    result.kind = "pointwise";
    Value input = op->getOperand(0);
    ArrayRef<int64_t> is = shapeOf(input);
    auto axesAttr = op->getAttrOfType<DenseI64ArrayAttr>("axes");
    bool keep = op->getAttrOfType<BoolAttr>("keepdims") && op->getAttrOfType<BoolAttr>("keepdims").getValue();
    llvm::SmallSet<int64_t, 4> axes;
    for (int64_t a : axesAttr ? axesAttr.asArrayRef() : ArrayRef<int64_t>{})
      axes.insert(a < 0 ? a + is.size() : a);
    if (axes.empty())
      for (size_t d = 0; d < is.size(); ++d) axes.insert(d);
    bool isMax = isa<ReduceMaxOp>(op);
    std::string acc = fresh("acc");
    line(std::string(isFloatType(rt) ? "float " : "double ") + acc + " = " + (isMax ? "-DLC_INF" : "0") + ";  // " +
         op->getName().getStringRef().str());
    Coords ic;
    size_t next = 0;
    int64_t count = 1;
    for (size_t d = 0; d < is.size(); ++d) {
      if (axes.contains(d)) {
        std::string r = "r" + std::to_string(d);
        open("for (long long " + r + " = 0; " + r + " < " + num(is[d]) + "; ++" + r + ")");
        ic.push_back(r);
        count *= is[d];
        if (keep) ++next;
      } else {
        ic.push_back(c[next++]);
      }
    }
    scoped([&] {
      std::string x = valueAt(input, ic);
      line(isMax ? acc + " = dlc_max(" + acc + ", " + x + ");" : acc + " += " + x + ";");
    });
    for (size_t i = 0; i < axes.size(); ++i) close();
    std::string e = isa<ReduceMeanOp>(op) ? acc + " / " + num(count) : acc;
    line("const " + ct + " " + v + " = " + roundTo(rt, "(" + ct + ")(" + e + ")") + ";");
    return v;
  }
  error(op) << "the CUDA backend has no kernel for '" << op->getName() << "'";
  return "0";
}

/// Softmax, layer_norm and trailing-axes reductions. Rows of up to 1024
/// elements get a warp each (4 per block of 128 threads); longer ones a block
/// of 256 threads. Sums and maxima are in f32 whatever the data type.
LogicalResult KernelEmitter::emitRowReduction() {
  Value x = anchor->getOperand(0), res = anchor->getResult(0);
  ArrayRef<int64_t> xs = shapeOf(x);
  Type xt = elemOf(x), rt = elemOf(res);
  int64_t rows, length, inner = 1;
  if (auto s = dyn_cast<SoftmaxOp>(anchor)) {
    int64_t axis = normalized(s.getAxis(), xs.size());
    length = xs[axis];
    for (size_t d = axis + 1; d < xs.size(); ++d) inner *= xs[d];
    rows = countOf(xs) / length;
  } else if (auto ln = dyn_cast<LayerNormOp>(anchor)) {
    int64_t axis = normalized(ln.getAxis(), xs.size());
    length = countOf(xs.drop_front(axis));
    rows = countOf(xs) / length;
  } else {
    length = countOf(xs) / std::max<int64_t>(1, countOf(shapeOf(res)));
    rows = countOf(shapeOf(res));
  }
  if (!params.count(x))
    return anchor->emitError() << "the CUDA backend expects the input of '" << opNames.lookup(anchor)
                               << "' in a buffer";
  bool warpPerRow = length <= 1024;
  result.kind = "row-reduction";
  if (warpPerRow) {
    result.block = {128, 1, 1};
    result.grid = {static_cast<uint32_t>((rows + 3) / 4), 1, 1};
  } else {
    result.block = {256, 1, 1};
    result.grid = {static_cast<uint32_t>(rows), 1, 1};
  }
  std::string px = param(x);
  auto offset = [&](const std::string &j) {
    if (inner == 1) return "row * " + num(length) + " + " + j;
    return "(row / " + num(inner) + " * " + num(length) + " + " + j + ") * " + num(inner) + " + row % " + num(inner);
  };
  auto load = [&](const std::string &j) { return loadAs(xt, px + "[" + offset(j) + "]"); };
  std::string sum = warpPerRow ? "dlc_warp_sum" : "dlc_block_sum";
  std::string max = warpPerRow ? "dlc_warp_max" : "dlc_block_max";
  std::string extra = warpPerRow ? "" : ", scratch";
  std::string first = warpPerRow ? "threadIdx.x % 32" : "threadIdx.x";
  std::string step = warpPerRow ? "32" : "blockDim.x";
  line(std::string("// ") + (warpPerRow ? "one warp per row" : "one block per row") + ": " +
       num(rows) + " rows of " + num(length));
  if (warpPerRow) {
    line("const long long row = blockIdx.x * 4LL + threadIdx.x / 32;");
    line("if (row >= " + num(rows) + ") return;  // whole warps leave together");
  } else {
    line("__shared__ float scratch[32];");
    line("const long long row = blockIdx.x;");
  }
  auto loop = [&](const std::string &head) {
    open("for (long long j = " + first + "; j < " + num(length) + "; j += " + step + ")");
    if (!head.empty()) line(head);
  };
  auto epilogue = [&](const std::string &value, const std::string &linear) {
    ArrayRef<int64_t> space = shapeOf(res);
    scoped([&] {
      std::string lin = fresh("at");
      line("const long long " + lin + " = " + linear + ";");
      Coords c = coordsOf(lin, space, "c");
      anchorValue = res;
      anchorCoords = c;
      anchorVar = fresh(opNames.lookup(anchor));
      line("const float " + anchorVar + " = " + roundTo(rt, value) + ";");
      storeOutputs(space, c);
    });
  };
  if (isa<SoftmaxOp>(anchor)) {
    line("float m = -DLC_INF;");
    loop("m = dlc_max(m, " + load("j") + ");");
    close();
    line("m = " + max + "(m" + extra + ");");
    line("float s = 0.0f;");
    loop("s += expf(" + load("j") + " - m);");
    close();
    line("const float inv = 1.0f / " + sum + "(s" + extra + ");");
    loop("");
    epilogue("expf(" + load("j") + " - m) * inv", offset("j"));
    close();
  } else if (auto ln = dyn_cast<LayerNormOp>(anchor)) {
    line("float s = 0.0f;");
    loop("s += " + load("j") + ";");
    close();
    line("const float mean = " + sum + "(s" + extra + ") / " + flt(double(length)) + ";");
    line("float q = 0.0f;");
    loop("const float d = " + load("j") + " - mean;");
    line("q += d * d;");
    close();
    line("const float rstd = rsqrtf(" + sum + "(q" + extra + ") / " + flt(double(length)) + " + " +
         flt(ln.getEpsilon().convertToDouble()) + ");");
    loop("");
    std::string e = "(" + load("j") + " - mean) * rstd * " + loadAs(xt, param(ln.getScale()) + "[j]");
    if (ln.getBias()) e += " + " + loadAs(xt, param(ln.getBias()) + "[j]");
    if (!params.count(ln.getScale()) || (ln.getBias() && !params.count(ln.getBias())))
      return anchor->emitError() << "the CUDA backend expects the scale and bias of '"
                                 << opNames.lookup(anchor) << "' in buffers";
    epilogue(e, offset("j"));
    close();
  } else {
    bool isMax = isa<ReduceMaxOp>(anchor);
    line(std::string("float s = ") + (isMax ? "-DLC_INF" : "0.0f") + ";");
    loop(isMax ? "s = dlc_max(s, " + load("j") + ");" : "s += " + load("j") + ";");
    close();
    line("s = " + (isMax ? max : sum) + "(s" + extra + ");");
    std::string value = isa<ReduceMeanOp>(anchor) ? "s / " + flt(double(length)) : "s";
    open(std::string("if (") + (warpPerRow ? "threadIdx.x % 32" : "threadIdx.x") + " == 0)");
    epilogue(value, "row");
    close();
  }
  return success(!hadError);
}

/// f32: FFMA tiles. f16/bf16: tensor cores (mma.sync m16n8k16, f32
/// accumulators). Batch dims broadcast: blockIdx.z is the batch.
LogicalResult KernelEmitter::emitMatmul() {
  // matmul: [..., M, K] x [..., K, N]. linear (a non-constant weight, which
  // dlc-linear-to-matmul leaves): [..., K] x [N, K]^T + bias, rows flattened.
  auto linear = dyn_cast<LinearOp>(anchor);
  Value a = anchor->getOperand(0), b = anchor->getOperand(1), res = anchor->getResult(0);
  Value bias = linear ? linear.getBias() : Value();
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b), rs = shapeOf(res);
  Type t = elemOf(a);
  if (!params.count(a) || !params.count(b) || (bias && !params.count(bias)))
    return anchor->emitError() << "the CUDA backend expects the operands of '" << opNames.lookup(anchor)
                               << "' in buffers";
  bool mma = t.isF16() || t.isBF16();
  if (!mma && !t.isF32() && !t.isSignlessInteger(32) && !t.isSignlessInteger(64))
    return anchor->emitError() << "the CUDA backend has no matmul for '" << t << "' ('"
                               << opNames.lookup(anchor) << "')";
  int64_t K = as.back();
  int64_t N = linear ? bs[0] : rs.back();
  int64_t M = linear ? countOf(as) / K : rs[rs.size() - 2];
  ArrayRef<int64_t> batch = linear ? ArrayRef<int64_t>() : rs.drop_back(2);
  int64_t batches = countOf(batch);
  result.kind = mma ? "gemm-mma" : "gemm-ffma";
  result.grid = {static_cast<uint32_t>((N + 63) / 64), static_cast<uint32_t>((M + 63) / 64),
                 static_cast<uint32_t>(batches)};
  result.block = mma ? std::array<uint32_t, 3>{128, 1, 1} : std::array<uint32_t, 3>{16, 16, 1};
  line("// " + num(batches) + " x [" + num(M) + " x " + num(K) + "] * [" + num(K) + " x " + num(N) + "]" +
       (linear ? " (weight [N x K], transposed)" : "") +
       (mma ? ", tensor cores (mma.sync m16n8k16, f32 accumulation)" : t.isF32() ? ", FFMA" : ", integer") +
       ", 64x64 tiles");
  line("const long long M = " + num(M) + ", N = " + num(N) + ", K = " + num(K) + ";");
  line("const long long m0 = blockIdx.y * 64LL, n0 = blockIdx.x * 64LL;");
  Coords bc = coordsOf("(long long)blockIdx.z", batch, "b");
  auto batchOffset = [&](ArrayRef<int64_t> shape) -> std::string {
    if (linear) return "0";
    ArrayRef<int64_t> own = shape.drop_back(2);
    Coords oc = project(batch, bc, own);
    std::string o = offsetOf(own, oc);
    return o == "0" ? std::string("0") : "(" + o + ") * " + num(shape[shape.size() - 2] * shape.back());
  };
  std::string ct = computeType(t);
  std::string st = mma ? "unsigned short" : ct;
  // Element (k, n) of the right operand.
  std::string bAt = linear ? "B[(n0 + c) * K + k0 + k]" : "B[(k0 + k) * N + n0 + c]";
  line("const " + st + " *A = reinterpret_cast<const " + st + " *>(" + param(a) + ") + " + batchOffset(as) + ";");
  line("const " + st + " *B = reinterpret_cast<const " + st + " *>(" + param(b) + ") + " + batchOffset(bs) + ";");
  auto epilogue = [&](const std::string &row, const std::string &col, const std::string &acc) {
    open("if (" + row + " < M && " + col + " < N)");
    scoped([&] {
      line("const long long row = " + row + ", col = " + col + ";");
      std::string at = fresh("at");
      line("const long long " + at + " = (" + (batch.empty() ? std::string("0") : "(long long)blockIdx.z") +
           " * M + row) * N + col;");
      Coords c = coordsOf(at, rs, "c");
      std::string value = acc;
      if (bias) value = acc + " + " + loadAs(elemOf(bias), param(bias) + "[col]");
      anchorValue = res;
      anchorCoords = c;
      anchorVar = fresh(opNames.lookup(anchor));
      line("const " + ct + " " + anchorVar + " = " + roundTo(elemOf(res), value) + ";");
      storeOutputs(rs, c);
    });
    close();
  };
  if (!mma) {
    line("__shared__ " + ct + " As[16][64 + 1];  // k-major: the 16 threads of a row read one bank");
    line("__shared__ " + ct + " Bs[16][64];");
    line("const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;");
    line(ct + " acc[4][4] = {};");
    open("for (long long k0 = 0; k0 < K; k0 += 16)");
    open("for (int l = tid; l < 64 * 16; l += 256)");
    line("const int r = l / 16, k = l % 16;");
    line("As[k][r] = (m0 + r < M && k0 + k < K) ? A[(m0 + r) * K + k0 + k] : (" + ct + ")0;");
    close();
    open("for (int l = tid; l < 16 * 64; l += 256)");
    line("const int k = l / 64, c = l % 64;");
    line("Bs[k][c] = (k0 + k < K && n0 + c < N) ? " + bAt + " : (" + ct + ")0;");
    close();
    line("__syncthreads();");
    open("for (int k = 0; k < 16; ++k)");
    line(ct + " a[4], b[4];");
    line("for (int i = 0; i < 4; ++i) a[i] = As[k][ty + 16 * i];");
    line("for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx + 16 * j];");
    line("for (int i = 0; i < 4; ++i)");
    line(t.isF32() ? "  for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);"
                   : "  for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];");
    close();
    line("__syncthreads();");
    close();
    line("// epilogue: the fused ops, then the stores");
    open("for (int i = 0; i < 4; ++i)");
    open("for (int j = 0; j < 4; ++j)");
    epilogue("m0 + ty + 16 * i", "n0 + tx + 16 * j", "acc[i][j]");
    close();
    close();
    return success(!hadError);
  }
  std::string mmaMacro = t.isBF16() ? "DLC_MMA_BF16" : "DLC_MMA_F16";
  line("__shared__ unsigned short As[64][32 + 8];  // raw f16/bf16 bits, padded rows");
  line("__shared__ unsigned short Bs[32][64 + 8];");
  line("const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;");
  line("const int g = lane / 4, t = lane % 4;  // the PTX fragment layout's groupID, threadID_in_group");
  line("const int wm = (warp / 2) * 32, wn = (warp % 2) * 32;  // this warp's 32x32 of the tile");
  line("float acc[2][4][4] = {};");
  open("for (long long k0 = 0; k0 < K; k0 += 32)");
  open("for (int l = threadIdx.x; l < 64 * 32; l += 128)");
  line("const int r = l / 32, k = l % 32;");
  line("As[r][k] = (m0 + r < M && k0 + k < K) ? A[(m0 + r) * K + k0 + k] : (unsigned short)0;");
  close();
  open("for (int l = threadIdx.x; l < 32 * 64; l += 128)");
  line("const int k = l / 64, c = l % 64;");
  line("Bs[k][c] = (k0 + k < K && n0 + c < N) ? " + bAt + " : (unsigned short)0;");
  close();
  line("__syncthreads();");
  open("for (int kk = 0; kk < 32; kk += 16)");
  line("unsigned a[2][4], b[4][2];");
  open("for (int mi = 0; mi < 2; ++mi)");
  line("const int r = wm + mi * 16 + g, c = kk + 2 * t;");
  line("a[mi][0] = dlc_pack(As[r][c], As[r][c + 1]);");
  line("a[mi][1] = dlc_pack(As[r + 8][c], As[r + 8][c + 1]);");
  line("a[mi][2] = dlc_pack(As[r][c + 8], As[r][c + 9]);");
  line("a[mi][3] = dlc_pack(As[r + 8][c + 8], As[r + 8][c + 9]);");
  close();
  open("for (int ni = 0; ni < 4; ++ni)");
  line("const int n = wn + ni * 8 + g, k = kk + 2 * t;");
  line("b[ni][0] = dlc_pack(Bs[k][n], Bs[k + 1][n]);");
  line("b[ni][1] = dlc_pack(Bs[k + 8][n], Bs[k + 9][n]);");
  close();
  line("for (int mi = 0; mi < 2; ++mi)");
  line("  for (int ni = 0; ni < 4; ++ni) " + mmaMacro + "(acc[mi][ni], a[mi], b[ni], acc[mi][ni]);");
  close();
  line("__syncthreads();");
  close();
  line("// epilogue: accumulator i of a tile is row g + 8 * (i / 2), column 2 * t + i % 2");
  open("for (int mi = 0; mi < 2; ++mi)");
  open("for (int ni = 0; ni < 4; ++ni)");
  open("for (int i = 0; i < 4; ++i)");
  epilogue("m0 + wm + mi * 16 + g + 8 * (i / 2)", "n0 + wn + ni * 8 + 2 * t + i % 2", "acc[mi][ni][i]");
  close();
  close();
  close();
  return success(!hadError);
}

/// Row reductions need their reduced axes trailing and contiguous.
bool isRowReduction(Operation *op) {
  if (isa<SoftmaxOp, LayerNormOp>(op)) return true;
  if (!isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp>(op)) return false;
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
  if (!isFusableElementwise(ops.front())) anchor = ops.front();
  for (Operation *op : ops.drop_front())
    if (!isFusableElementwise(op))
      return op->emitError() << "the CUDA backend expects one anchor op per kernel, followed by "
                                "elementwise ops; '" << opNames.lookup(op) << "' is not elementwise";
  LogicalResult ok = success();
  if (outputs.empty()) { // nothing reads the group's results
    result.kind = "empty";
    result.block = {32, 1, 1};
    line("// no result of these ops is read: nothing to compute");
  } else if (!anchor) ok = emitElementwise();
  else if (isa<MatmulOp, LinearOp>(anchor)) ok = emitMatmul();
  else if (isRowReduction(anchor)) ok = emitRowReduction();
  else if (isa<SplitOp>(anchor)) ok = emitSplit();
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

} // namespace

bool dlc::cuda::supportsOpKind(StringRef kind) { return cudaBackendSupports(kind); }

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
