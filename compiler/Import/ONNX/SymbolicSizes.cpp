//===- SymbolicSizes.cpp - where the size of a symbolic batch is used -----===//
//
// A symbolic batch is imported at its bound, so Shape and Size fold to the
// bound. Used as a shape (a Reshape's dim 0, an Expand to the batch, a Slice
// of dim 0) the bound is what the compiler needs: the batch rules check the
// shapes, and the runtime runs each unit. Used as a value (x / x.size(0),
// arange(x.size(0)), an If on it, a Loop's trip count) it would be the bound
// at every batch: a wrong answer at any other batch. So the importer follows
// each element of the small constants that shape arithmetic makes and
// refuses the first node that computes with the batch's size.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"
#include "passes/BatchRows.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace dlc::onnx_import {
namespace {

/// Where a Reshape's shape lets the batch land (reshapeWithBatchPositions).
constexpr llvm::StringLiteral kBatchPositions = "dlc.batch_positions";

/// Masks larger than this are kept as one flag (the whole value).
constexpr int64_t kMaxTrackedElements = 1024;

bool isConstant(Value v) { return v && v.getDefiningOp<ConstantOp>(); }

int64_t elementsOf(Value v) { return GraphImporter::typeOf(v).getNumElements(); }

/// A mask of `v`'s elements, all set (one flag when `v` is large).
SizeMask allOf(Value v) {
  int64_t n = elementsOf(v);
  return SizeMask(n <= kMaxTrackedElements ? size_t(std::max<int64_t>(n, 1)) : 1, true);
}

bool anySet(const SizeMask &m) { return llvm::is_contained(m, true); }

/// Element i of a mask (a one-flag mask stands for every element).
bool at(const SizeMask &m, int64_t i) { return m.size() == 1 ? m[0] : m[size_t(i)]; }

/// The mask of a 1-D result picking `indices` of a 1-D input's mask.
SizeMask pick(const SizeMask &in, int64_t inSize, const std::vector<int64_t> &indices) {
  SizeMask out;
  for (int64_t i : indices) {
    if (i < 0)
      i += inSize;
    out.push_back(i >= 0 && i < inSize && at(in, i));
  }
  return out;
}

/// Inputs that an op reads as a shape, at import time, where the batch's
/// size may stand for dim 0 of its result; -1: none.
int shapeInputOf(llvm::StringRef opType) {
  return llvm::StringSwitch<int>(opType)
      .Cases("Reshape", "Expand", "Tile", 1)
      .Case("ConstantOfShape", 0)
      .Default(-1);
}

} // namespace

SizeMask GraphImporter::sizeMaskOf(Value v) const {
  auto it = sizeMasks.find(v);
  return it == sizeMasks.end() ? SizeMask() : it->second;
}

/// Shape and Size of a value carrying the batch on dim 0 (dim 0 a multiple
/// of the bound, as the batch rules require): the element of dim 0.
std::optional<SizeMask> GraphImporter::sizesOfBatch(Value result) {
  Value x = input(0);
  std::optional<int64_t> dim = batchDimOf(x);
  if (node->op_type() == "Size")
    return SizeMask{dim.has_value()};
  int64_t rank = typeOf(x).getRank();
  auto norm = [&](int64_t a) { return std::clamp<int64_t>(a < 0 ? a + rank : a, 0, rank); };
  int64_t start = norm(attrInt("start", 0)), end = norm(attrInt("end", rank));
  SizeMask mask;
  for (int64_t d = start; d < end; ++d)
    mask.push_back(dim && d == *dim);
  if (int64_t(mask.size()) != elementsOf(result))
    return allOf(result);
  return mask;
}

/// The dim of `x` that carries the batch, by the batch rules run on what
/// has been imported so far (BatchRows.h); where they refuse an op (the
/// compile will say so), dim 0 when it spans the bound's units.
std::optional<int64_t> GraphImporter::batchDimOf(Value x) {
  if (isConstant(x) || typeOf(x).getRank() == 0)
    return std::nullopt;
  auto func = dyn_cast<func::FuncOp>(builder.getInsertionBlock()->getParentOp());
  size_t ops = func ? func.getBody().front().getOperations().size() : 0;
  if (func && ops != layoutsAnalysedAt) {
    layoutsAnalysedAt = ops;
    ScopedDiagnosticHandler quiet(func.getContext(), [](Diagnostic &) { return success(); });
    FailureOr<std::optional<SymbolicBatch>> batch = analyseSymbolicBatch(func);
    layouts = succeeded(batch) ? std::move(*batch) : std::nullopt;
  }
  if (!layouts)
    return typeOf(x).getDimSize(0) % symbolicBatchBound == 0 ? std::optional<int64_t>(0)
                                                            : std::nullopt;
  if (!layouts->unitRows.count(x))
    return std::nullopt;
  auto moved = layouts->moved.find(x);
  return moved == layouts->moved.end() ? 0 : moved->second.dim;
}

/// Where a structural input may hold the batch's size: a Reshape's shape
/// (checked after import), element 0 of another shape, or a Slice's bound
/// of the batch's axis. An error naming the use otherwise.
LogicalResult GraphImporter::checkSizeAsShape(size_t i, const SizeMask &mask) {
  llvm::StringRef op = node->op_type();
  if (op == "Reshape" && i == 1)
    return success(); // Where it lands is checked after import (checkReshapesOfBatch).
  if (int(i) == shapeInputOf(op)) {
    for (size_t k = 1; k < mask.size(); ++k)
      if (mask[k])
        return refuseSizeUse("dimension " + llvm::Twine(k) + " of its shape");
    return success();
  }
  if (op == "Slice" && (i == 1 || i == 2)) {
    std::vector<int64_t> axes;
    if (has(3)) {
      std::optional<Tensor> a = constInput(3);
      if (!a)
        return refuseSizeUse("a bound of a Slice whose axes are not constants");
      for (double d : a->data)
        axes.push_back(d < 0 ? int64_t(d) + typeOf(input(0)).getRank() : int64_t(d));
    }
    std::optional<int64_t> batchDim = batchDimOf(input(0));
    for (size_t k = 0; k < mask.size(); ++k)
      if (mask[k] && (k < axes.size() ? axes[k] : int64_t(k)) != batchDim.value_or(0))
        return refuseSizeUse("a bound of a Slice along another axis than the batch's");
    return success();
  }
  return refuseSizeUse("a value");
}

LogicalResult GraphImporter::refuseSizeUse(const llvm::Twine &use) {
  return fail("uses the size of the symbolic batch '" + symbolicBatch + "' as " + use +
              ": the artifact would keep the bound " + llvm::Twine(symbolicBatchBound) +
              " there at every batch (dlc imports a symbolic batch at its bound; its size "
              "may only shape dim 0)");
}

/// The mask of a constant result computed elementwise, or by moving
/// elements, from constants of which some hold the batch's size.
SizeMask GraphImporter::propagateSizeMask(Value result) {
  llvm::StringRef op = node->op_type();
  int64_t n = elementsOf(result);
  if (n > kMaxTrackedElements)
    return allOf(result);
  auto maskIn = [&](size_t i) { return has(i) ? sizeMaskOf(input(i)) : SizeMask(); };
  bool sameOrder = llvm::is_contained(
      {"Identity", "Cast", "Reshape", "Squeeze", "Unsqueeze", "Flatten", "Neg", "Abs", "Sqrt",
       "Floor", "Ceil", "Not", "Reciprocal", "Relu", "Sign"},
      op);
  if (sameOrder && elementsOf(input(0)) == n) {
    SizeMask in = maskIn(0);
    SizeMask out(n);
    for (int64_t k = 0; k < n; ++k)
      out[k] = !in.empty() && at(in, k);
    return out;
  }
  if (op == "Gather" && typeOf(input(0)).getRank() == 1) {
    std::optional<Tensor> indices = constInput(1);
    if (!indices || anySet(maskIn(1)) || int64_t(indices->data.size()) != n)
      return allOf(result);
    SizeMask in = maskIn(0);
    if (in.empty())
      return SizeMask(n, false);
    std::vector<int64_t> idx(indices->data.begin(), indices->data.end());
    return pick(in, elementsOf(input(0)), idx);
  }
  if (op == "Concat" && typeOf(result).getRank() == 1) {
    SizeMask out;
    for (size_t i = 0; i < numInputs(); ++i) {
      SizeMask in = maskIn(i);
      for (int64_t k = 0; k < elementsOf(input(i)); ++k)
        out.push_back(!in.empty() && at(in, k));
    }
    return int64_t(out.size()) == n ? out : allOf(result);
  }
  bool elementwise = llvm::is_contained(
      {"Add", "Sub", "Mul", "Div", "Mod", "Max", "Min", "Pow", "Equal", "Less", "Greater",
       "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Where"},
      op);
  if (elementwise) {
    SizeMask out(n, false);
    for (size_t i = 0; i < numInputs(); ++i) {
      SizeMask in = maskIn(i);
      if (in.empty())
        continue;
      int64_t m = elementsOf(input(i));
      if (m != n && m != 1)
        return allOf(result);
      for (int64_t k = 0; k < n; ++k)
        out[k] = out[k] || at(in, m == 1 ? 0 : k);
    }
    return out;
  }
  return allOf(result);
}

SymbolDims GraphImporter::positionDimsOfInput(size_t i) {
  if (!has(i))
    return {};
  auto constant = input(i).getDefiningOp<ConstantOp>();
  auto dims = constant ? constant->getAttrOfType<DenseI64ArrayAttr>(attrs::kSymbolDims)
                       : DenseI64ArrayAttr();
  return dims ? SymbolDims(dims.asArrayRef()) : SymbolDims();
}

/// arange(t): positions 0..t-1 along dim 0 (a Range from 0 by 1 to the size).
std::optional<SymbolDims> GraphImporter::positionsOfRange() {
  std::optional<Tensor> start = constInput(0), delta = constInput(2);
  SizeMask limit = sizeMaskOf(input(1));
  bool isSize = limit.size() == 1 && limit[0];
  if (!isSize || anySet(sizeMaskOf(input(0))) || anySet(sizeMaskOf(input(2))) || !start ||
      !delta || start->data[0] != 0 || delta->data[0] != 1)
    return std::nullopt;
  return SymbolDims{0};
}

/// x[..., :t, ...] of a constant: the dims whose end is the size, from 0 by
/// 1, added to the constant's own.
FailureOr<SymbolDims> GraphImporter::positionsOfSlice(Value result) {
  int64_t rank = typeOf(result).getRank();
  auto ints = [&](size_t i) -> std::optional<std::vector<int64_t>> {
    std::optional<Tensor> t = has(i) ? constInput(i) : std::nullopt;
    if (!t)
      return std::nullopt;
    return std::vector<int64_t>(t->data.begin(), t->data.end());
  };
  SizeMask ends = sizeMaskOf(input(2));
  std::optional<std::vector<int64_t>> starts = ints(1), axes = ints(3), steps = ints(4);
  if (!starts || (has(3) && !axes) || (has(4) && !steps) || anySet(sizeMaskOf(input(1))))
    return fail("slices a constant by the size of the symbolic '" + symbolicBatch +
                "' with bounds that are not constants");
  llvm::SmallSetVector<int64_t, 4> dims;
  for (int64_t d : positionDimsOfInput(0))
    dims.insert(d);
  for (size_t k = 0; k < starts->size(); ++k) {
    int64_t axis = axes ? (*axes)[k] : int64_t(k);
    axis = axis < 0 ? axis + rank : axis;
    bool sized = !ends.empty() && at(ends, int64_t(k));
    bool whole = typeOf(result).getDimSize(axis) == typeOf(input(0)).getDimSize(axis);
    if (sized && ((*starts)[k] != 0 || (steps && (*steps)[k] != 1) ||
                  typeOf(result).getDimSize(axis) != symbolicBatchBound))
      return fail("slices a constant along axis " + llvm::Twine(axis) + " by the size of '" +
                  symbolicBatch + "' from another start than 0 or with a step: only x[:t] "
                  "is its leading part at every size");
    if (sized)
      dims.insert(axis);
    else if (dims.contains(axis) && !whole)
      return fail("slices a constant's dim of the symbol's extent by a fixed bound");
  }
  SymbolDims out(dims.begin(), dims.end());
  llvm::sort(out);
  return out;
}

/// Ops that move a constant's elements (casts, Unsqueeze, Squeeze,
/// Transpose, a Gather by positions): where its positions land.
std::optional<SymbolDims> GraphImporter::positionsMoved(Value result) {
  llvm::StringRef op = node->op_type();
  int64_t rank = typeOf(result).getRank();
  SymbolDims in = positionDimsOfInput(0);
  if (llvm::is_contained({"Identity", "Cast", "Not", "Neg", "Abs", "Sqrt", "Relu", "Sign",
                          "Floor", "Ceil", "Reciprocal", "Exp", "Log"},
                         op))
    return in;
  if (op == "Unsqueeze" || op == "Squeeze") {
    std::optional<std::vector<int64_t>> axes = attrInts("axes");
    if (has(1))
      if (std::optional<Tensor> t = constInput(1))
        axes = std::vector<int64_t>(t->data.begin(), t->data.end());
    if (!axes)
      return std::nullopt;
    int64_t inRank = typeOf(input(0)).getRank();
    std::vector<int64_t> sorted;
    for (int64_t a : *axes)
      sorted.push_back(a < 0 ? a + (op == "Squeeze" ? inRank : rank) : a);
    llvm::sort(sorted);
    SymbolDims out;
    for (int64_t d : in) {
      int64_t to = d;
      for (int64_t a : sorted)
        to += op == "Squeeze" ? -int64_t(a < d) : int64_t(a <= to);
      out.push_back(to);
    }
    return out;
  }
  if (op == "Gather" && in.empty()) {
    int64_t axis = attrInt("axis", 0);
    axis = axis < 0 ? axis + typeOf(input(0)).getRank() : axis;
    SymbolDims out;
    for (int64_t d : positionDimsOfInput(1))
      out.push_back(axis + d);
    return out;
  }
  if (op == "Transpose") {
    std::optional<std::vector<int64_t>> perm = attrInts("perm");
    SymbolDims out;
    for (int64_t d : in)
      out.push_back(perm ? llvm::find(*perm, d) - perm->begin() : rank - 1 - d);
    llvm::sort(out);
    return out;
  }
  return std::nullopt;
}

/// Elementwise math of constants (a mask compared with 0): the union of
/// their positions' dims, where every other input is 1 or has them too.
std::optional<SymbolDims> GraphImporter::positionsBroadcast(Value result) {
  if (!llvm::is_contained({"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Equal", "Less",
                           "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor",
                           "Where"},
                          node->op_type()))
    return std::nullopt;
  int64_t rank = typeOf(result).getRank();
  llvm::SmallSetVector<int64_t, 4> dims;
  for (size_t i = 0; i < numInputs(); ++i)
    for (int64_t d : positionDimsOfInput(i))
      dims.insert(d + rank - typeOf(input(i)).getRank());
  for (size_t i = 0; i < numInputs(); ++i) {
    SymbolDims own = positionDimsOfInput(i);
    int64_t offset = rank - typeOf(input(i)).getRank();
    for (int64_t d : dims)
      if (d - offset >= 0 && !llvm::is_contained(own, d - offset) &&
          typeOf(input(i)).getDimSize(d - offset) != 1)
        return std::nullopt;
  }
  SymbolDims out(dims.begin(), dims.end());
  llvm::sort(out);
  return out;
}

FailureOr<std::optional<SymbolDims>> GraphImporter::positionDimsOf(Value result) {
  llvm::StringRef op = node->op_type();
  if (op == "Range")
    return positionsOfRange();
  // (A splat is alike everywhere: the batch rules carry it as it is.)
  auto folded = result.getDefiningOp<ConstantOp>();
  auto dense = folded ? dyn_cast<DenseElementsAttr>(folded.getValue()) : DenseElementsAttr();
  if (dense && dense.isSplat())
    return std::optional<SymbolDims>();
  if (op == "Slice" && has(2) &&
      (anySet(sizeMaskOf(input(2))) || !positionDimsOfInput(0).empty())) {
    FailureOr<SymbolDims> dims = positionsOfSlice(result);
    if (failed(dims))
      return failure();
    return std::optional<SymbolDims>(*dims);
  }
  bool any = false;
  for (size_t i = 0; i < numInputs(); ++i)
    any |= !positionDimsOfInput(i).empty();
  if (!any)
    return std::optional<SymbolDims>();
  if (std::optional<SymbolDims> moved = positionsMoved(result))
    return moved;
  if (std::optional<SymbolDims> broadcast = positionsBroadcast(result))
    return broadcast;
  return fail("computes a constant from positions along the symbolic '" + symbolicBatch +
              "' (such as arange(t) or a mask sliced to t) in a way dlc cannot follow");
}

LogicalResult GraphImporter::trackSymbolicSizes(ArrayRef<Value> outputs) {
  if (symbolicBatch.empty())
    return success();
  llvm::StringRef op = node->op_type();
  if (op == "Shape" || op == "Size") {
    if (std::optional<SizeMask> mask = sizesOfBatch(outputs[0]); mask && anySet(*mask))
      sizeMasks[outputs[0]] = *mask;
    return success();
  }
  // A constant indexed by position along the symbol: marked, for the
  // compile's rules (passes/SymbolExtents.cpp), its leading part at a run.
  if (outputs.size() == 1 && outputs[0] && isConstant(outputs[0])) {
    FailureOr<std::optional<SymbolDims>> dims = positionDimsOf(outputs[0]);
    if (failed(dims))
      return failure();
    if (*dims) {
      if (!(*dims)->empty())
        outputs[0].getDefiningOp()->setAttr(attrs::kSymbolDims,
                                            builder.getDenseI64ArrayAttr(**dims));
      return success();
    }
  }
  bool dataUse = false;
  for (size_t i = 0; i < numInputs(); ++i) {
    if (!has(i))
      continue;
    SizeMask mask = sizeMaskOf(input(i));
    if (!anySet(mask))
      continue;
    bool shapeInput = int(i) == shapeInputOf(op) || (op == "Slice" && (i == 1 || i == 2));
    if (!shapeInput) {
      dataUse = true;
      continue;
    }
    // Read at import time as a shape: a constant result (zeros of the
    // batch's shape, a token expanded to it) has every unit alike and
    // holds no size; the batch rules say where it may carry the batch.
    bool constantResult = llvm::all_of(outputs, [](Value v) { return !v || isConstant(v); });
    if (!constantResult && failed(checkSizeAsShape(i, mask)))
      return failure();
  }
  if (!dataUse)
    return success();
  for (Value out : outputs) {
    if (!out)
      continue;
    if (!isConstant(out))
      return refuseSizeUse("a value");
    SizeMask mask = propagateSizeMask(out);
    if (anySet(mask))
      sizeMasks[out] = mask;
  }
  return success();
}

Value GraphImporter::reshapeWithBatchPositions(Value v, ArrayRef<int64_t> shape,
                                              ArrayRef<int64_t> positions) {
  if (isConstant(v))
    return reshape(v, shape);
  auto op = builder.create<ReshapeOp>(loc, tensorType(shape, typeOf(v).getElementType()), v,
                                      DeviceAttr());
  op->setAttr(kBatchPositions, builder.getDenseI64ArrayAttr(positions));
  return op;
}

LogicalResult checkReshapesOfBatch(func::FuncOp func, std::string &error) {
  SmallVector<ReshapeOp> marked;
  func.walk([&](ReshapeOp op) {
    if (op->hasAttr(kBatchPositions))
      marked.push_back(op);
  });
  if (marked.empty())
    return success();
  // Refusals by the batch rules are the compile's to report, with its rules.
  FailureOr<std::optional<SymbolicBatch>> batch = [&] {
    ScopedDiagnosticHandler quiet(func.getContext(), [](Diagnostic &) { return success(); });
    return analyseSymbolicBatch(func);
  }();
  for (ReshapeOp op : marked) {
    auto positions = op->getAttrOfType<DenseI64ArrayAttr>(kBatchPositions).asArrayRef();
    op->removeAttr(kBatchPositions);
    if (failed(batch) || !*batch || !(*batch)->unitRows.count(op.getResult()) || !error.empty())
      continue;
    auto layout = (*batch)->moved.find(op.getResult());
    int64_t dim = layout == (*batch)->moved.end() ? 0 : layout->second.dim;
    if (llvm::is_contained(positions, dim))
      continue;
    std::string name = "?";
    if (auto loc = dyn_cast<NameLoc>(op.getLoc()))
      name = loc.getName().str();
    error = "node '" + name + "' (Reshape): its shape puts the symbolic batch '" +
            (*batch)->name + "' on dimension " + std::to_string(dim) +
            " with a number fixed at export, not -1, 0 or the batch's size: at another batch "
            "it would take another shape (export with dynamic_axes, or use -1 there)";
  }
  return success(error.empty());
}

} // namespace dlc::onnx_import
