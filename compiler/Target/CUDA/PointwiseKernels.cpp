//===- PointwiseKernels.cpp - one thread per output element ----------------===//
//
// Data movement, pooling, batch_norm, inner-axis reductions
// and split: the anchor's value computed where the chain needs it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CUDA/KernelEmitter.h"

using namespace dlc::cuda::detail;
using namespace dlc;

LogicalResult KernelEmitter::emitPointwise() {
  ArrayRef<int64_t> space = shapeOf(anchor->getResult(0));
  for (Value out : outputs)
    if (countOf(shapeOf(out)) > countOf(space)) space = shapeOf(out);
  int64_t n = countOf(space);
  result.block = {256, 1, 1};
  result.grid = gridStrideBlocks(n);
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
  result.grid = gridStrideBlocks(most);
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
std::string KernelEmitter::clampedIndex(const std::string &value, int64_t dim, StringRef opName) {
  std::string index = fresh("index");
  line("long long " + index + " = (long long)" + value + ";  // " + opName.str());
  line("if (" + index + " < 0) " + index + " += " + num(dim) + ";");
  line(index + " = " + index + " < 0 ? 0 : (" + index + " >= " + num(dim) + " ? " + num(dim - 1) +
       " : " + index + ");  // out of range: clamped");
  return index;
}

namespace {
/// The smallest value of `t` in its compute type: a max's starting point.
std::string lowestOf(Type t) {
  if (isFloatType(t)) return t.isF64() ? "(-(double)DLC_INF)" : "(-DLC_INF)";
  if (t.isInteger(1) || t.isUnsignedInteger()) return "0";
  unsigned bits = t.getIntOrFloatBitWidth();
  std::string most = std::to_string((int64_t(1) << (bits - 1)) - 1); // 2^63 is no literal
  return "(-" + most + (bits == 64 ? "LL" : "") + " - 1)";
}
/// max(a, b) in `t`'s compute type, NaN-propagating on floats.
std::string maxOf(Type t, const std::string &a, const std::string &b) {
  if (isFloatType(t)) return "dlc_max(" + a + ", " + b + ")";
  return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
}
/// min(a, b), likewise.
std::string minOf(Type t, const std::string &a, const std::string &b) {
  if (isFloatType(t)) return "dlc_min(" + a + ", " + b + ")";
  return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
}
/// The accumulator type of a pooling or normalisation on float type `t`.
std::string floatAccumulator(Type t) { return t.isF64() ? "double" : "float"; }
} // namespace

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
    std::string index = clampedIndex(valueAt(g.getIndices(), ic), data[axis], "dlc.gather");
    Coords dc(c.begin(), c.begin() + axis);
    dc.push_back(index);
    dc.insert(dc.end(), c.begin() + axis + idx.size(), c.end());
    line("const " + ct + " " + v + " = " + valueAt(g.getData(), dc) + ";");
    return v;
  }
  if (auto g = dyn_cast<GatherElementsOp>(op)) {
    result.kind = "pointwise";
    ArrayRef<int64_t> data = shapeOf(g.getData());
    int64_t axis = normalized(g.getAxis(), data.size());
    std::string index =
        clampedIndex(valueAt(g.getIndices(), c), data[axis], "dlc.gather_elements");
    Coords dc = c;
    dc[axis] = index;
    line("const " + ct + " " + v + " = " + valueAt(g.getData(), dc) + ";");
    return v;
  }
  if (auto s = dyn_cast<ScatterElementsOp>(op)) {
    // The data's element, then every update whose index names it, in order
    // along the axis (a later duplicate wins, as in the interpreter): the
    // thread owns its element, so no atomics and the result is deterministic.
    result.kind = "pointwise";
    ArrayRef<int64_t> data = shapeOf(s.getData()), updates = shapeOf(s.getUpdates()),
                      indices = shapeOf(s.getIndices());
    int64_t axis = normalized(s.getAxis(), data.size());
    StringRef reduction = s.getReduction();
    line(ct + " " + v + " = " + valueAt(s.getData(), c) + ";  // dlc.scatter_elements");
    std::string guard;
    for (size_t d = 0; d < data.size(); ++d)
      if (int64_t(d) != axis && updates[d] < data[d])
        guard += std::string(guard.empty() ? "" : " && ") + c[d] + " < " + num(updates[d]);
    if (!guard.empty()) open("if (" + guard + ")");
    open("for (long long t = 0; t < " + num(updates[axis]) + "; ++t)");
    scoped([&] {
      Coords uc = c, ic;
      uc[axis] = "t";
      for (size_t d = 0; d < data.size(); ++d) ic.push_back(indices[d] == 1 ? "0" : uc[d]);
      std::string index = fresh("index");
      line("long long " + index + " = (long long)" + valueAt(s.getIndices(), ic) + ";");
      line("if (" + index + " < 0) " + index + " += " + num(data[axis]) + ";");
      line("if (" + index + " != " + c[axis] + ") continue;  // out of range: matches nothing");
      std::string u = valueAt(s.getUpdates(), uc);
      std::string combined = reduction == "add"   ? v + " + " + u
                             : reduction == "mul" ? v + " * " + u
                             : reduction == "max" ? maxOf(rt, v, u)
                             : reduction == "min" ? minOf(rt, v, u)
                                                  : u;
      line(v + " = " + roundTo(rt, combined) + ";");
    });
    close();
    if (!guard.empty()) close();
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
    line(ct + " " + acc + " = " + lowestOf(rt) + ";  // dlc.max_pool2d");
    window(p.getKernelShape(), p.getStrides(), p.getPads(), p.getDilations(), p.getInput(), [&] {
      line(acc + " = " + maxOf(rt, acc, valueAt(p.getInput(), {c[0], c[1], "ih", "iw"})) + ";");
    });
    line("const " + ct + " " + v + " = " + acc + ";");
    return v;
  }
  if (auto p = dyn_cast<AvgPool2dOp>(op)) {
    result.kind = "pointwise";
    std::string acc = fresh("sum"), cnt = fresh("count");
    line(floatAccumulator(rt) + " " + acc + " = 0;  // dlc.avg_pool2d");
    line("int " + cnt + " = 0;");
    SmallVector<int64_t> ones{1, 1};
    window(p.getKernelShape(), p.getStrides(), p.getPads(), ones, p.getInput(), [&] {
      line(acc + " += " + valueAt(p.getInput(), {c[0], c[1], "ih", "iw"}) + ";");
      line("++" + cnt + ";");
    });
    std::string div = p.getCountIncludePad()
                          ? floatLiteral(rt, double(p.getKernelShape()[0] * p.getKernelShape()[1]))
                          : "(" + floatAccumulator(rt) + ")" + cnt;
    line("const " + ct + " " + v + " = " + roundTo(rt, acc + " / " + div) + ";");
    return v;
  }
  if (auto p = dyn_cast<GlobalAvgPoolOp>(op)) {
    result.kind = "pointwise";
    ArrayRef<int64_t> is = shapeOf(p.getInput());
    std::string acc = fresh("sum");
    line(floatAccumulator(rt) + " " + acc + " = 0;  // dlc.global_avg_pool");
    open("for (long long h = 0; h < " + num(is[2]) + "; ++h)");
    open("for (long long w = 0; w < " + num(is[3]) + "; ++w)");
    scoped([&] { line(acc + " += " + valueAt(p.getInput(), {c[0], c[1], "h", "w"}) + ";"); });
    close();
    close();
    line("const " + ct + " " + v + " = " + roundTo(rt, acc + " / " + floatLiteral(rt, double(is[2] * is[3]))) + ";");
    return v;
  }
  if (auto b = dyn_cast<BatchNormOp>(op)) {
    result.kind = "pointwise";
    Coords ch{c[1]};
    std::string x = valueAt(b.getInput(), c);
    line("const " + ct + " " + v + " = " +
         roundTo(rt, "(" + x + " - " + valueAt(b.getMean(), ch) + ") * " +
                         (rt.isF64() ? "rsqrt(" : "rsqrtf(") + valueAt(b.getVariance(), ch) + " + " +
                         floatLiteral(rt, b.getEpsilon().convertToDouble()) +
                         ") * " + valueAt(b.getScale(), ch) + " + " + valueAt(b.getBias(), ch)) +
         ";  // dlc.batch_norm");
    return v;
  }
  if (isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceProdOp>(op)) {
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
    bool isMax = isa<ReduceMaxOp>(op), isProd = isa<ReduceProdOp>(op), isMean = isa<ReduceMeanOp>(op);
    // Floats accumulate in float (double for f64); integer sums and products
    // in wrapping 64-bit unsigned arithmetic (the interpreter's), maxima in
    // the compute type, means in double.
    bool wrapping = !isFloatType(rt) && !isMax && !isMean; // integer sums and products
    std::string accType = isFloatType(rt) ? floatAccumulator(rt)
                          : isMax         ? ct
                          : isMean        ? std::string("double")
                                          : std::string("unsigned long long");
    std::string acc = fresh("acc");
    line(accType + " " + acc + " = " + (isMax ? lowestOf(rt) : isProd ? "1" : "0") + ";  // " +
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
      std::string term = !wrapping                 ? x
                         : rt.isUnsignedInteger() ? "(unsigned long long)" + x
                                                  : "(unsigned long long)(long long)" + x;
      line(isMax    ? acc + " = " + maxOf(rt, acc, x) + ";"
           : isProd ? acc + " *= " + term + ";"
                    : acc + " += " + term + ";");
    });
    for (size_t i = 0; i < axes.size(); ++i) close();
    std::string e = isMean ? acc + " / " + num(count) : acc;
    if (wrapping && !rt.isUnsignedInteger() && !rt.isInteger(1))
      e = "(long long)" + e; // wrapped to the width by the conversion below
    line("const " + ct + " " + v + " = " + roundTo(rt, "(" + ct + ")(" + e + ")") + ";");
    return v;
  }
  error(op) << "the CUDA backend has no kernel for '" << op->getName() << "'";
  return "0";
}


/// top_k: one thread per input element finds its rank in its row (how many
/// elements come before it: larger, or smaller, NaN beyond every number, ties
/// by index) and, when the rank is below k, stores itself and its index at
/// that position. Ranks are a permutation, so every output element is written
/// once; O(n) reads per thread, fully parallel. Fused elementwise ops run on
/// the stored values.
LogicalResult KernelEmitter::emitTopK() {
  auto topk = cast<TopKOp>(anchor);
  result.kind = "top-k";
  Value input = topk.getInput();
  ArrayRef<int64_t> shape = shapeOf(input), outShape = shapeOf(topk.getValues());
  int64_t axis = normalized(topk.getAxis(), shape.size());
  int64_t n = countOf(shape), k = static_cast<int64_t>(topk.getK());
  bool largest = topk.getLargest();
  result.block = {256, 1, 1};
  result.grid = gridStrideBlocks(n);
  open("for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < " + num(n) +
       "; i += (long long)gridDim.x * blockDim.x)");
  Coords c = coordsOf("i", shape, "c");
  Type t = elemOf(input);
  bool f = isFloatType(t);
  std::string x = valueAt(input, c);
  // a comes before b: larger (smaller); a NaN before (after) every number.
  auto before = [&](const std::string &a, const std::string &b) {
    std::string byValue = "(" + a + (largest ? " > " : " < ") + b + ")";
    if (!f) return byValue;
    return "((" + std::string(largest ? a : b) + " != " + (largest ? a : b) + " && " +
           (largest ? b : a) + " == " + (largest ? b : a) + ") || " + byValue + ")";
  };
  line("long long rank = 0;  // dlc.top_k");
  open("for (long long r = 0; r < " + num(shape[axis]) + "; ++r)");
  scoped([&] {
    Coords rc = c;
    rc[axis] = "r";
    std::string y = valueAt(input, rc);
    line("rank += " + before(y, x) + " || (!" + before(x, y) + " && r < " + c[axis] + ");");
  });
  close();
  open("if (rank < " + num(k) + ")");
  Coords oc = c;
  oc[axis] = "rank";
  overrides[topk.getValues()] = x;
  overrides[topk.getIndices()] = "(long long)" + c[axis];
  for (Value out : outputs) {
    if (shapeOf(out) != outShape) {
      error(anchor) << "the CUDA backend cannot fuse an elementwise op that broadcasts the result of '"
                    << opNames.lookup(anchor) << "'";
      break;
    }
    line(param(out) + "[" + offsetOf(outShape, oc) + "] = " + storeAs(elemOf(out), valueAt(out, oc)) + ";");
  }
  close();
  close();
  return success(!hadError);
}
