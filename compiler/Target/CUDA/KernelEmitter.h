//===- KernelEmitter.h - the CUDA emitter's internals ---------------------===//
//
// Shared by the emitter's files: CudaEmitter.cpp (the fused expression tree,
// stores, the kernel's signature, dispatch), ElementwiseKernels.cpp,
// PointwiseKernels.cpp, RowReductionKernels.cpp and GemmKernels.cpp (one
// kernel kind each). Printing helpers produce C++ expressions as strings.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CUDA_KERNELEMITTER_H
#define DLC_COMPILER_TARGET_CUDA_KERNELEMITTER_H

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
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>

namespace dlc::cuda::detail {

using namespace mlir;
using llvm::ArrayRef;
using llvm::StringRef;

using Coords = std::vector<std::string>;

inline ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }
inline Type elemOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }
inline int64_t countOf(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}
inline std::string num(int64_t v) { return std::to_string(v) + (v > INT32_MAX || v < INT32_MIN ? "LL" : ""); }
/// A C floating literal of `v` with `digits` significant digits (9 keep
/// every float, 17 every double), a ".0" where it would read as an integer.
inline std::string floatText(double v, int digits) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.*g", digits, v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}
/// A float literal.
inline std::string flt(double v) {
  if (std::isinf(v)) return v > 0 ? "DLC_INF" : "(-DLC_INF)";
  return floatText(v, 9) + "f";
}
/// A double literal (f64 values keep every digit).
inline std::string dbl(double v) {
  if (std::isinf(v)) return v > 0 ? "((double)DLC_INF)" : "(-(double)DLC_INF)";
  return floatText(v, 17);
}
/// A literal of float type `t`.
inline std::string floatLiteral(Type t, double v) { return t.isF64() ? dbl(v) : flt(v); }
/// A literal of integer type `t` (unsigned ones zero-extended).
inline std::string integerLiteral(Type t, const llvm::APInt &v) {
  if (t.isUnsignedInteger()) return std::to_string(v.getZExtValue()) + "ULL";
  return num(v.getSExtValue());
}

/// I64Attr accessors return uint64_t: a negative axis needs the cast.
inline int64_t normalized(uint64_t axis, size_t rank) {
  int64_t a = static_cast<int64_t>(axis);
  return a < 0 ? a + static_cast<int64_t>(rank) : a;
}

inline bool isFloatType(Type t) { return t.isF32() || t.isF16() || t.isBF16() || t.isF64(); }

/// The C type a buffer of `t` holds.
inline std::string storageType(Type t) {
  if (t.isF32()) return "float";
  if (t.isF64()) return "double";
  if (t.isF16()) return "__half";
  if (t.isBF16()) return "__nv_bfloat16";
  if (t.isInteger(1)) return "unsigned char"; // one byte per element
  if (t.isUnsignedInteger(8)) return "unsigned char";
  if (t.isUnsignedInteger(16)) return "unsigned short";
  if (t.isUnsignedInteger(32)) return "unsigned int";
  if (t.isUnsignedInteger(64)) return "unsigned long long";
  if (t.isInteger(8)) return "signed char";
  if (t.isInteger(16)) return "short";
  if (t.isInteger(32)) return "int";
  return "long long";
}
/// The C type an op computes `t` in: f16/bf16 in float (rounded by roundTo),
/// 8/16-bit integers in 32 bits (wrapped by roundTo), unsigned ones unsigned
/// (C's unsigned arithmetic wraps as the reference does).
inline std::string computeType(Type t) {
  if (t.isF64()) return "double";
  if (isFloatType(t)) return "float";
  if (t.isInteger(1)) return "bool";
  if (t.isUnsignedInteger(64)) return "unsigned long long";
  if (t.isUnsignedInteger()) return "unsigned int";
  if (t.isInteger(64)) return "long long";
  return "int";
}
/// 8- and 16-bit integers, computed wider and wrapped after each op.
inline bool isNarrowInteger(Type t) {
  return t.isInteger(8) || t.isInteger(16);
}
inline std::string loadAs(Type t, const std::string &ref) {
  if (t.isF16()) return "__half2float(" + ref + ")";
  if (t.isBF16()) return "__bfloat162float(" + ref + ")";
  if (t.isSignlessInteger(1)) return "(" + ref + " != 0)";
  return ref;
}
inline std::string storeAs(Type t, const std::string &v) {
  if (t.isF16()) return "__float2half_rn(" + v + ")";
  if (t.isBF16()) return "__float2bfloat16_rn(" + v + ")";
  return "(" + storageType(t) + ")(" + v + ")";
}
/// The single rounding per op the reference interpreter applies.
inline std::string roundTo(Type t, const std::string &v) {
  if (t.isF16()) return "dlc_round_f16(" + v + ")";
  if (t.isBF16()) return "dlc_round_bf16(" + v + ")";
  if (isNarrowInteger(t)) return "(" + computeType(t) + ")(" + storageType(t) + ")(" + v + ")";
  return v;
}

/// "/blocks.0/attn/MatMul" -> "blocks_0_attn_MatMul" (a C identifier).
inline std::string identifier(StringRef name) {
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

inline std::string strides(ArrayRef<int64_t> shape, size_t d) {
  int64_t s = 1;
  for (size_t i = d + 1; i < shape.size(); ++i) s *= shape[i];
  return num(s);
}
inline std::string offsetOf(ArrayRef<int64_t> shape, const Coords &c) {
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
inline Coords project(ArrayRef<int64_t> from, const Coords &c, ArrayRef<int64_t> to) {
  Coords out;
  size_t lead = from.size() - to.size();
  for (size_t d = 0; d < to.size(); ++d)
    out.push_back(to[d] == 1 && from[lead + d] != 1 ? "0" : c[lead + d]);
  return out;
}

/// Row reductions need their reduced axes trailing and contiguous.
bool isRowReduction(Operation *op);

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
  /// A variable holding the gather index `value` for an axis of `dim`:
  /// negative counts from the end, out of range is clamped.
  std::string clampedIndex(const std::string &value, int64_t dim, StringRef opName);
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
  /// A pointer expression to `v`'s elements (storage type): its parameter,
  /// or, for a small constant inlined into the kernel, a __device__ array.
  std::string bufferOf(Value v);

  // Kernel kinds.
  LogicalResult emitElementwise();
  bool emitVectorised(ArrayRef<int64_t> shape);
  LogicalResult emitPointwise();
  LogicalResult emitSplit();
  LogicalResult emitTopK();
  std::string pointwiseAnchor(Operation *op, const Coords &c);
  LogicalResult emitRowReduction();
  /// Blocks of 256 threads for a grid-stride loop over `work` items: one
  /// item per thread (a cap of 4096 blocks ran a 256 MiB chain 5% slower on an
  /// H200), bounded where the loop takes over.
  static std::array<uint32_t, 3> gridStrideBlocks(int64_t work) {
    return {static_cast<uint32_t>(std::clamp<int64_t>((work + 255) / 256, 1, int64_t(1) << 20)), 1, 1};
  }
  LogicalResult emitMatmul();
  /// A tensor-core GEMM's block tile: rows x columns of C, warpsM x warpsN
  /// warps, each a grid of m16n8 fragments.
  struct MmaTiling {
    int64_t rows, columns, warpsM, warpsN, depth, stages; // depth: the k-step
    uint32_t threads() const { return static_cast<uint32_t>(32 * warpsM * warpsN); }
    int64_t fragmentsM() const { return rows / warpsM / 16; }
    int64_t fragmentsN() const { return columns / warpsN / 8; }
    /// Shared memory per stage: A [rows][depth + 8], B [depth][columns + 8]
    /// or, transposed, [columns][depth + 8]; 16-bit elements.
    int64_t stageBytes(bool transposedB) const {
      return 2 * (rows * (depth + 8) + (transposedB ? columns * (depth + 8) : depth * (columns + 8)));
    }
  };
  /// How the tiles are read: element expressions for the scalar paths, and
  /// whether rows allow 16-byte copies.
  struct MmaOperands {
    std::string aAt, bAt;
    bool vectorA, vectorB, transposedB;
  };
  void emitMmaTiles(const MmaTiling &tiling, const MmaOperands &ops, const std::string &mmaMacro);
  void emitMmaTileLoads(const MmaTiling &tiling, const MmaOperands &ops);
  void emitMmaSharedTiles(const MmaTiling &tiling, bool transposedB);
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

} // namespace dlc::cuda::detail

#endif // DLC_COMPILER_TARGET_CUDA_KERNELEMITTER_H
