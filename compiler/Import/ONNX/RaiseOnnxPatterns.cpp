//===- RaiseOnnxPatterns.cpp - exporter decompositions back to dlc ops ----===//
//
// PyTorch (opset 13) decomposes, and this pass raises back:
//
//   LayerNorm: m = reduce_mean(x, trailing axes, keepdims); d = x - m;
//              v = reduce_mean(d ^ 2 | d * d); y = d / sqrt(v + eps) * g + b
//              -> layer_norm(x, g, b) {axis, epsilon}
//   GELU:      x * (erf(x / sqrt(2) | x * (1 / sqrt(2))) + 1) * 0.5 (either
//              association of the two products) -> gelu(x); with
//              tanh(sqrt(2/pi) (x + 0.044715 x^3)) in place of the erf term
//              (approximate='tanh') -> gelu(x) {tanh_approximation}
//   Linear:    matmul(x, W) + b, W [K, N] and b [N] constants
//              -> linear(x, Wᵀ, b), Wᵀ computed here
//
// Each raised op is named after the module path of the ops it replaces
// (`/blocks.0/ln1/LayerNormalization`), so --pin patterns keep working.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/OnnxImporter.h"
#include "dialects/dlc/DlcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstring>

namespace dlc {
#define GEN_PASS_DECL_RAISEONNXPATTERNS
#define GEN_PASS_DEF_RAISEONNXPATTERNS
#define GEN_PASS_REGISTRATION
#include "compiler/Import/ONNX/ImportPasses.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

/// The value of a splat (or one-element) float constant.
std::optional<double> splatValue(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense || !isa<FloatType>(dense.getElementType()) || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

bool isSplat(Value v, double expected, double tolerance = 1e-6) {
  std::optional<double> s = splatValue(v);
  return s && std::abs(*s - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

/// For a commutative binary op: the operand that is not `known` (or null).
template <typename OpT> Value other(OpT op, Value known) {
  if (op.getLhs() == known)
    return op.getRhs();
  if (op.getRhs() == known)
    return op.getLhs();
  return nullptr;
}

/// `/a/b/Op_3` -> `/a/b/<leaf>`: the raised op's name under the same module.
Location renamed(Location loc, StringRef leaf, MLIRContext *ctx) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    StringRef full = name.getName().strref();
    size_t slash = full.rfind('/');
    std::string base = slash == StringRef::npos ? "" : full.substr(0, slash + 1).str();
    return NameLoc::get(StringAttr::get(ctx, base + leaf.str()), name.getChildLoc());
  }
  return loc;
}

/// Axes [k, rank) (negative allowed), or -1.
int64_t trailingAxesStart(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> norm;
  for (int64_t a : axes)
    norm.push_back(a < 0 ? a + rank : a);
  llvm::sort(norm);
  if (norm.empty() || norm.back() != rank - 1)
    return -1;
  for (size_t i = 1; i < norm.size(); ++i)
    if (norm[i] != norm[i - 1] + 1)
      return -1;
  return norm.front();
}

struct RaiseLayerNorm : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp root, PatternRewriter &rewriter) const override {
    // root = scaled + beta, scaled = normalized * gamma (either operand order).
    for (int side = 0; side < 2; ++side) {
      Value scaledV = side ? root.getRhs() : root.getLhs();
      Value beta = side ? root.getLhs() : root.getRhs();
      auto scaled = scaledV.getDefiningOp<MulOp>();
      if (!scaled)
        continue;
      for (int s2 = 0; s2 < 2; ++s2) {
        auto div = (s2 ? scaled.getRhs() : scaled.getLhs()).getDefiningOp<DivOp>();
        Value gamma = s2 ? scaled.getLhs() : scaled.getRhs();
        if (div && succeeded(rewrite(root, div, gamma, beta, rewriter)))
          return success();
      }
    }
    return failure();
  }

  LogicalResult rewrite(AddOp root, DivOp div, Value gamma, Value beta,
                        PatternRewriter &rewriter) const {
    auto sub = div.getLhs().getDefiningOp<SubOp>();
    auto sqrt = div.getRhs().getDefiningOp<SqrtOp>();
    if (!sub || !sqrt)
      return failure();
    auto mean = sub.getRhs().getDefiningOp<ReduceMeanOp>();
    Value x = sub.getLhs();
    if (!mean || mean.getInput() != x || !mean.getKeepdims())
      return failure();
    auto addEps = sqrt.getInput().getDefiningOp<AddOp>();
    if (!addEps)
      return failure();
    auto var = addEps.getLhs().getDefiningOp<ReduceMeanOp>();
    Value epsV = addEps.getRhs();
    if (!var) {
      var = addEps.getRhs().getDefiningOp<ReduceMeanOp>();
      epsV = addEps.getLhs();
    }
    std::optional<double> eps = splatValue(epsV);
    if (!var || !eps || !var.getKeepdims() || var.getAxes() != mean.getAxes())
      return failure();
    Value sq = var.getInput();
    auto pow = sq.getDefiningOp<PowOp>();
    auto mul = sq.getDefiningOp<MulOp>();
    bool squares = (pow && pow.getLhs() == sub.getResult() && isSplat(pow.getRhs(), 2.0)) ||
                   (mul && mul.getLhs() == sub.getResult() && mul.getRhs() == sub.getResult());
    if (!squares)
      return failure();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t axis = trailingAxesStart(mean.getAxes(), xt.getRank());
    if (axis < 0 || !isa<FloatType>(xt.getElementType()))
      return failure();
    // gamma and beta must have the normalised shape (after dropping leading 1s).
    ArrayRef<int64_t> normalized = xt.getShape().drop_front(axis);
    auto fits = [&](Value v) -> Value {
      auto t = cast<RankedTensorType>(v.getType());
      if (t.getElementType() != xt.getElementType() ||
          t.getNumElements() != RankedTensorType::get(normalized, t.getElementType()).getNumElements())
        return nullptr;
      ArrayRef<int64_t> shape = t.getShape();
      while (shape.size() > normalized.size() && shape.front() == 1)
        shape = shape.drop_front();
      if (shape != normalized)
        return nullptr;
      if (t.getShape() == normalized)
        return v;
      return rewriter.create<ReshapeOp>(v.getLoc(), RankedTensorType::get(normalized, t.getElementType()), v,
                                        DeviceAttr());
    };
    if (root.getType() != xt)
      return failure();
    Value g = fits(gamma), b = fits(beta);
    if (!g || !b)
      return failure();
    Location loc = renamed(root.getLoc(), "LayerNormalization", getContext());
    auto ln = rewriter.create<LayerNormOp>(loc, xt, x, g, b, rewriter.getI64IntegerAttr(axis),
                                           rewriter.getF64FloatAttr(*eps), DeviceAttr());
    rewriter.replaceOp(root, ln.getResult());
    return success();
  }
};

/// `other` operand of a commutative op when `known` is one of them.
template <typename OpT> Value otherOperand(Value v, function_ref<bool(Value)> known) {
  auto op = v.getDefiningOp<OpT>();
  if (!op)
    return nullptr;
  if (known(op.getLhs()))
    return op.getRhs();
  if (known(op.getRhs()))
    return op.getLhs();
  return nullptr;
}

/// x * x * x, as x * (x * x) in either order, or pow(x, 3).
bool isCube(Value v, Value x) {
  if (auto pow = v.getDefiningOp<PowOp>())
    return pow.getLhs() == x && isSplat(pow.getRhs(), 3.0);
  Value sq = otherOperand<MulOp>(v, [&](Value o) { return o == x; });
  auto square = sq ? sq.getDefiningOp<MulOp>() : MulOp();
  return square && square.getLhs() == x && square.getRhs() == x;
}

/// The gate of GELU plus 1: `erf(x / sqrt2)` or `erf(x * 1/sqrt2)` (exact),
/// or `tanh(sqrt(2/pi) * (x + 0.044715 x^3))` (tanh approximation, as
/// PyTorch's approximate='tanh' exports). Returns x; `tanh` says which.
Value geluGate(Value v, bool &tanh) {
  Value fn = otherOperand<AddOp>(v, [](Value o) { return isSplat(o, 1.0); });
  if (!fn)
    return nullptr;
  if (auto erf = fn.getDefiningOp<ErfOp>()) {
    tanh = false;
    if (auto div = erf.getInput().getDefiningOp<DivOp>())
      return isSplat(div.getRhs(), std::sqrt(2.0), 1e-4) ? div.getLhs() : Value();
    return otherOperand<MulOp>(erf.getInput(),
                               [](Value o) { return isSplat(o, 1 / std::sqrt(2.0), 1e-4); });
  }
  auto th = fn.getDefiningOp<TanhOp>();
  if (!th)
    return nullptr;
  tanh = true;
  Value inner = otherOperand<MulOp>(
      th.getInput(), [](Value o) { return isSplat(o, std::sqrt(2.0 / M_PI), 1e-4); });
  auto sum = inner ? inner.getDefiningOp<AddOp>() : AddOp();
  if (!sum)
    return nullptr;
  for (int side = 0; side < 2; ++side) {
    Value x = side ? sum.getRhs() : sum.getLhs();
    Value cubeTerm = side ? sum.getLhs() : sum.getRhs();
    Value cube = otherOperand<MulOp>(cubeTerm, [](Value o) { return isSplat(o, 0.044715, 1e-4); });
    if (cube && isCube(cube, x))
      return x;
  }
  return nullptr;
}

struct RaiseGelu : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp root, PatternRewriter &rewriter) const override {
    Value x;
    bool tanh = false;
    // (x * gate) * 0.5, or (x * 0.5) * gate, in any operand order.
    for (int side = 0; side < 2 && !x; ++side) {
      Value a = side ? root.getRhs() : root.getLhs();
      Value b = side ? root.getLhs() : root.getRhs();
      auto inner = a.getDefiningOp<MulOp>();
      if (!inner)
        continue;
      if (isSplat(b, 0.5)) {
        for (int s2 = 0; s2 < 2 && !x; ++s2) {
          Value cand = s2 ? inner.getRhs() : inner.getLhs();
          Value gate = s2 ? inner.getLhs() : inner.getRhs();
          if (Value gx = geluGate(gate, tanh); gx && gx == cand)
            x = cand;
        }
      } else if (Value gx = geluGate(b, tanh)) {
        if (Value half = other(inner, gx); half && isSplat(half, 0.5))
          x = gx;
      }
    }
    if (!x || x.getType() != root.getType())
      return failure();
    Location loc = renamed(root.getLoc(), "Gelu", getContext());
    auto gelu = rewriter.create<GeluOp>(loc, x.getType(), x, tanh, DeviceAttr());
    rewriter.replaceOp(root, gelu.getResult());
    return success();
  }
};

/// Wᵀ of a constant [K, N] as a constant [N, K] (resource data stays a resource).
Value transposedConstant(ConstantOp w, PatternRewriter &rewriter) {
  auto type = cast<RankedTensorType>(w.getType());
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  auto tt = RankedTensorType::get({n, k}, type.getElementType());
  ArrayRef<char> bytes;
  if (auto dense = dyn_cast<DenseElementsAttr>(w.getValue())) {
    if (dense.isSplat())
      return rewriter.create<ConstantOp>(w.getLoc(), tt, dense.reshape(tt), DeviceAttr());
    bytes = dense.getRawData();
  } else if (auto res = dyn_cast<DenseResourceElementsAttr>(w.getValue())) {
    if (AsmResourceBlob *blob = res.getRawHandle().getBlob())
      bytes = blob->getData();
  }
  if (type.getElementType().isInteger(1))
    return nullptr;
  int64_t width = type.getElementTypeBitWidth() / 8;
  if (static_cast<int64_t>(bytes.size()) != n * k * width)
    return nullptr;
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(bytes.size(), 64);
  MutableArrayRef<char> out = blob.getMutableData();
  for (int64_t row = 0; row < k; ++row)
    for (int64_t col = 0; col < n; ++col)
      std::memcpy(&out[(col * k + row) * width], &bytes[(row * n + col) * width], width);
  std::string name = "weight";
  if (auto loc = dyn_cast<NameLoc>(w.getLoc()))
    name = loc.getName().str();
  return rewriter.create<ConstantOp>(
      w.getLoc(), tt, dlc::resourceConstant(tt, name + ".T", std::move(blob)), DeviceAttr());
}

struct RaiseLinear : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp root, PatternRewriter &rewriter) const override {
    for (int side = 0; side < 2; ++side) {
      auto mm = (side ? root.getRhs() : root.getLhs()).getDefiningOp<MatmulOp>();
      Value bias = side ? root.getLhs() : root.getRhs();
      if (!mm || !mm->hasOneUse())
        continue;
      auto w = mm.getRhs().getDefiningOp<ConstantOp>();
      auto b = bias.getDefiningOp<ConstantOp>();
      auto wt = cast<RankedTensorType>(mm.getRhs().getType());
      auto bt = cast<RankedTensorType>(bias.getType());
      auto xt = cast<RankedTensorType>(mm.getLhs().getType());
      if (!w || !b || wt.getRank() != 2 || bt.getRank() != 1 ||
          bt.getDimSize(0) != wt.getDimSize(1) || root.getType() != mm.getType() ||
          !isa<FloatType>(xt.getElementType()))
        continue;
      Value transposed = transposedConstant(w, rewriter);
      if (!transposed)
        continue;
      // The linear takes the MatMul's name: it is the same layer.
      auto linear = rewriter.create<LinearOp>(mm.getLoc(), TypeRange{root.getType()},
                                              ValueRange{mm.getLhs(), transposed, bias},
                                              ArrayRef<NamedAttribute>{});
      rewriter.replaceOp(root, linear.getResult());
      rewriter.eraseOp(mm);
      return success();
    }
    return failure();
  }
};

struct RaiseOnnxPatternsPass : dlc::impl::RaiseOnnxPatternsBase<RaiseOnnxPatternsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RaiseLayerNorm, RaiseGelu, RaiseLinear>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void dlc::registerOnnxImportPasses() { registerDlcImportPasses(); }

LogicalResult dlc::raiseOnnxPatterns(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addNestedPass<func::FuncOp>(std::make_unique<RaiseOnnxPatternsPass>());
  return pm.run(module);
}
