//===- RowReductionKernels.cpp - softmax, layer_norm, reduce_* -------------===//
//
// A warp or a block per row, shuffles, f32 sums and maxima.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CUDA/KernelEmitter.h"

using namespace dlc::cuda::detail;
using namespace dlc;

/// Softmax, layer_norm and trailing-axes reductions of f32/f16/bf16. Rows of
/// up to 1024 elements get a warp each (4 per block of 128 threads); longer
/// ones a block of 256 threads. Sums and maxima are in f32.
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
  std::string px = bufferOf(x);
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
    std::string e = "(" + load("j") + " - mean) * rstd * " + loadAs(xt, bufferOf(ln.getScale()) + "[j]");
    if (ln.getBias()) e += " + " + loadAs(xt, bufferOf(ln.getBias()) + "[j]");
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
