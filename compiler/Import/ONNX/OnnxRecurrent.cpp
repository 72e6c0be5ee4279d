//===- OnnxRecurrent.cpp - LSTM, GRU and RNN, unrolled over time ----------===//
//
// ONNX's recurrent ops become their cell's equations, one step per time step:
// the input projection of every step is one `linear` over [seq * batch,
// input] (with W's and R's biases folded in), and each step adds its state's
// projection (a `linear` by R), slices the gates, applies the activations
// (any the spec allows, with activation_alpha/beta, and `clip` on the gates'
// inputs) and forms the next state. Directions forward, reverse and
// bidirectional; sequence_lens masks each batch entry's steps past its length
// (the state held, the output 0; a reverse pass starts at each entry's last
// step), computed at run time; initial states, LSTM peepholes and
// input_forget, GRU linear_before_reset, layout 1.
//
// Up to kMaxUnrolledSteps steps are unrolled (each step's ops then fuse and
// place like any others); longer sequences become one dlc.loop per
// direction, its body one step: the state (and LSTM's cell) carried, the
// input projection scanned by row, the outputs stacked by row. A symbolic
// batch keeps unrolling (its batch rules do not look into loop bodies), up
// to kMaxSteps.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/ONNX/LoopBody.h"
#include "compiler/Import/ONNX/OnnxOpsCommon.h"
#include "compiler/Interpreter/Interpreter.h"
#include "dialects/dlc/DlcOps.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {

constexpr int64_t kMaxUnrolledSteps = 32, kMaxSteps = 1024;

enum class Cell { Lstm, Gru, Rnn };

struct Activation {
  std::string name;
  double alpha = 0, beta = 0;
};

/// What a recurrent op reads, per the ONNX spec of its cell.
struct Recurrence {
  Cell cell;
  int64_t gates, hidden, dirs, seq, batch, input;
  std::vector<Activation> activations; // per direction: LSTM f g h, GRU f g, RNN f
  std::optional<double> clip;
  bool inputForget = false, linearBeforeReset = false;
  Value x, w, r, b, lens, h0, c0, peepholes; // x: [seq, batch, input]
};

int64_t activationsPerDirection(Cell c) { return c == Cell::Lstm ? 3 : c == Cell::Gru ? 2 : 1; }

/// Which of alpha and beta an activation takes, and their defaults.
struct ActivationParams {
  bool takesAlpha;
  double alpha;
  bool takesBeta;
  double beta;
};
std::optional<ActivationParams> activationParams(StringRef name) {
  static const llvm::StringMap<ActivationParams> known = {
      {"Relu", {false, 0, false, 0}},        {"Tanh", {false, 0, false, 0}},
      {"Sigmoid", {false, 0, false, 0}},     {"Softsign", {false, 0, false, 0}},
      {"Softplus", {false, 0, false, 0}},    {"Affine", {true, 1.0, true, 0.0}},
      {"LeakyRelu", {true, 0.01, false, 0}}, {"ThresholdedRelu", {true, 1.0, false, 0}},
      {"ScaledTanh", {true, 1.0, true, 1.0}}, {"HardSigmoid", {true, 0.2, true, 0.5}},
      {"Elu", {true, 1.0, false, 0}}};
  auto it = known.find(name);
  if (it == known.end())
    return std::nullopt;
  return it->second;
}

/// The activations with their alpha/beta: the attribute lists are consumed
/// in order by the functions that take them (ONNX Runtime's reading),
/// defaults otherwise.
LogicalResult readActivations(GraphImporter &g, Recurrence &rec) {
  int64_t n = activationsPerDirection(rec.cell);
  std::vector<std::string> names;
  if (const onnx::AttributeProto *a = g.attr("activations"))
    names.assign(a->strings().begin(), a->strings().end());
  if (names.empty()) { // the spec's defaults: LSTM Sigmoid Tanh Tanh, GRU Sigmoid Tanh, RNN Tanh
    std::vector<std::string> cellDefaults =
        rec.cell == Cell::Rnn ? std::vector<std::string>{"Tanh"}
                              : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
    for (int64_t d = 0; d < rec.dirs; ++d)
      names.insert(names.end(), cellDefaults.begin(), cellDefaults.begin() + n);
  }
  if (int64_t(names.size()) != n * rec.dirs)
    return g.fail("expects " + llvm::Twine(n * rec.dirs) + " activations, got " + llvm::Twine(names.size()));
  std::vector<float> alphas, betas;
  if (const onnx::AttributeProto *a = g.attr("activation_alpha"))
    alphas.assign(a->floats().begin(), a->floats().end());
  if (const onnx::AttributeProto *a = g.attr("activation_beta"))
    betas.assign(a->floats().begin(), a->floats().end());
  size_t nextAlpha = 0, nextBeta = 0;
  for (const std::string &name : names) {
    std::optional<ActivationParams> params = activationParams(name);
    if (!params)
      return g.fail("unknown activation '" + name + "'");
    Activation act{name, params->alpha, params->beta};
    if (params->takesAlpha && nextAlpha < alphas.size()) act.alpha = alphas[nextAlpha++];
    if (params->takesBeta && nextBeta < betas.size()) act.beta = betas[nextBeta++];
    rec.activations.push_back(act);
  }
  return success();
}

/// Checks shapes and reads attributes and inputs; `x` etc. in layout 0.
LogicalResult readRecurrence(GraphImporter &g, Cell cell, Recurrence &rec) {
  rec.cell = cell;
  rec.gates = cell == Cell::Lstm ? 4 : cell == Cell::Gru ? 3 : 1;
  RankedTensorType xt = g.type(0), wt = g.type(1), rt = g.type(2);
  if (!isa<FloatType>(xt.getElementType()))
    return g.unsupported("a recurrence on " + llvm::Twine(xt.getElementType().isInteger(1) ? "bool" : "integers"));
  if (xt.getRank() != 3 || wt.getRank() != 3 || rt.getRank() != 3)
    return g.fail("X, W and R must have rank 3");
  std::string direction = g.attrString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return g.fail("unknown direction '" + direction + "'");
  rec.dirs = direction == "bidirectional" ? 2 : 1;
  bool batchFirst = g.attrInt("layout", 0) != 0;
  rec.x = batchFirst ? transposed(g, g.input(0), {1, 0, 2}) : g.input(0);
  ArrayRef<int64_t> xs = GraphImporter::typeOf(rec.x).getShape();
  rec.seq = xs[0];
  rec.batch = xs[1];
  rec.input = xs[2];
  rec.hidden = g.attrInt("hidden_size", rt.getDimSize(2));
  int64_t gh = rec.gates * rec.hidden;
  if (wt.getShape() != ArrayRef<int64_t>{rec.dirs, gh, rec.input} ||
      rt.getShape() != ArrayRef<int64_t>{rec.dirs, gh, rec.hidden})
    return g.fail("W and R must be [" + llvm::Twine(rec.dirs) + ", " + llvm::Twine(gh) + ", input or hidden size]");
  if (rec.seq > kMaxSteps && !g.symbolicBatch.empty())
    return g.unsupported("a sequence of " + llvm::Twine(rec.seq) + " steps with a symbolic batch (dlc "
                         "unrolls recurrences over a symbolic batch up to " + llvm::Twine(kMaxSteps) +
                         " steps; fix the batch with --input-shape to compile it as a loop)");
  if (rec.seq < 1 || rec.batch < 1)
    return g.unsupported("an empty sequence or batch");
  rec.w = g.input(1);
  rec.r = g.input(2);
  if (g.has(3)) {
    if (g.type(3).getShape() != ArrayRef<int64_t>{rec.dirs, 2 * gh})
      return g.fail("B must be [" + llvm::Twine(rec.dirs) + ", " + llvm::Twine(2 * gh) + "]");
    rec.b = g.input(3);
  }
  if (g.has(4)) {
    RankedTensorType lt = g.type(4);
    if (lt.getShape() != ArrayRef<int64_t>{rec.batch} || !isa<IntegerType>(lt.getElementType()))
      return g.fail("sequence_lens must be [" + llvm::Twine(rec.batch) + "] integers");
    rec.lens = g.reshape(g.input(4), {rec.batch, 1});
  }
  auto state = [&](size_t i, const char *what, Value &into) -> LogicalResult {
    if (!g.has(i))
      return success();
    Value v = batchFirst ? transposed(g, g.input(i), {1, 0, 2}) : g.input(i);
    if (GraphImporter::typeOf(v).getShape() != ArrayRef<int64_t>{rec.dirs, rec.batch, rec.hidden})
      return g.fail(llvm::Twine(what) + " must be [directions, batch, hidden] (batch first with layout 1)");
    into = v;
    return success();
  };
  if (failed(state(5, "initial_h", rec.h0)))
    return failure();
  if (cell == Cell::Lstm) {
    if (failed(state(6, "initial_c", rec.c0)))
      return failure();
    if (g.has(7)) {
      if (g.type(7).getShape() != ArrayRef<int64_t>{rec.dirs, 3 * rec.hidden})
        return g.fail("P must be [" + llvm::Twine(rec.dirs) + ", " + llvm::Twine(3 * rec.hidden) + "]");
      rec.peepholes = g.input(7);
    }
    rec.inputForget = g.attrInt("input_forget", 0) != 0;
  }
  if (cell == Cell::Gru)
    rec.linearBeforeReset = g.attrInt("linear_before_reset", 0) != 0;
  if (g.attr("clip"))
    rec.clip = g.attrFloat("clip", 0);
  return readActivations(g, rec);
}

/// Row `d` of a [dirs, ...] tensor, without its leading dimension.
Value direction(GraphImporter &g, Value v, int64_t d) {
  Value row = sliceAlong(g, v, 0, d, d + 1);
  ArrayRef<int64_t> shape = GraphImporter::typeOf(row).getShape();
  return g.reshape(row, shape.drop_front());
}

/// x · weightᵀ (+ bias): weight [out, in].
Value linear(GraphImporter &g, Value x, Value weight, Value bias = Value()) {
  RankedTensorType xt = GraphImporter::typeOf(x);
  auto type = g.tensorType({xt.getDimSize(0), GraphImporter::typeOf(weight).getDimSize(0)},
                           xt.getElementType());
  SmallVector<Value> operands{x, weight};
  if (bias)
    operands.push_back(bias);
  return g.make<LinearOp>(TypeRange{type}, operands, ArrayRef<NamedAttribute>{});
}

/// One direction of the recurrence: its outputs [seq, 1, batch, hidden] and
/// final states [1, batch, hidden].
struct DirectionResult {
  Value y, h, c;
};

class Unroller {
public:
  Unroller(GraphImporter &g, const Recurrence &rec, int64_t d) : g(g), rec(rec), d(d) {}

  DirectionResult run(bool reverse) {
    int64_t h = rec.hidden, gh = rec.gates * h;
    Value wd = direction(g, rec.w, d);
    rd = direction(g, rec.r, d);
    Value inputBias;
    if (rec.b) {
      Value bd = direction(g, rec.b, d);
      Value wb = sliceAlong(g, bd, 0, 0, gh), rb = sliceAlong(g, bd, 0, gh, 2 * gh);
      if (rec.linearBeforeReset) { // R's h-gate bias stays inside r * (...)
        recurrentHBias = sliceAlong(g, rb, 0, 2 * h, 3 * h);
        rb = concatAlong(g, {sliceAlong(g, rb, 0, 0, 2 * h), zerosLike(g, rb, 0, h)}, 0);
      }
      inputBias = g.make<AddOp>(wb, rb);
    }
    // Every step's input projection at once.
    Value xw = linear(g, g.reshape(rec.x, {rec.seq * rec.batch, rec.input}), wd, inputBias);
    xw = g.reshape(xw, {rec.seq, rec.batch, gh});
    Value state = rec.h0 ? direction(g, rec.h0, d) : zeros();
    Value cell = rec.cell != Cell::Lstm ? Value() : rec.c0 ? direction(g, rec.c0, d) : zeros();
    if (rec.seq > kMaxUnrolledSteps && g.symbolicBatch.empty())
      return loop(xw, state, cell, reverse);
    std::vector<Value> ys(rec.seq);
    for (int64_t i = 0; i < rec.seq; ++i) {
      int64_t t = reverse ? rec.seq - 1 - i : i;
      Value xt = g.reshape(sliceAlong(g, xw, 0, t, t + 1), {rec.batch, gh});
      Value nextCell, y;
      Value next = maskedStep(xt, state, cell, rec.lens ? g.scalarLike(rec.lens, double(t)) : Value(),
                              nextCell, y);
      state = next;
      cell = nextCell;
      ys[t] = g.reshape(y, {1, 1, rec.batch, h});
    }
    DirectionResult out;
    out.y = concatAlong(g, ys, 0);
    out.h = g.reshape(state, {1, rec.batch, h});
    if (cell)
      out.c = g.reshape(cell, {1, rec.batch, h});
    return out;
  }

private:
  /// One step and its output `y`; with sequence_lens, entries whose length
  /// is at most `t` (a [1, 1] of lens' type) keep their state and output 0.
  Value maskedStep(Value xt, Value state, Value cell, Value t, Value &nextCell, Value &y) {
    Value next = step(xt, state, cell, nextCell);
    y = next;
    if (rec.lens) { // steps at or past an entry's length keep its state
      Value live = g.make<CompareOp>(StringRef("lt"), t, rec.lens);
      next = g.make<SelectOp>(live, next, state);
      if (cell)
        nextCell = g.make<SelectOp>(live, nextCell, cell);
      y = g.make<SelectOp>(live, y, g.scalarLike(y, 0));
    }
    return next;
  }

  /// The recurrence as one dlc.loop: state and cell carried, `xw` scanned.
  DirectionResult loop(Value xw, Value state, Value cell, bool reverse) {
    int64_t h = rec.hidden;
    SmallVector<Value> carried{state};
    if (cell)
      carried.push_back(cell);
    LoopBody body(g, carried, ValueRange{xw});
    Value xt = body.scanArg(0); // [batch, gates * hidden]
    Value t;
    if (rec.lens)
      t = g.castTo(g.reshape(body.position(), {1, 1}), GraphImporter::typeOf(rec.lens).getElementType());
    Value nextCell, y;
    Value next = maskedStep(xt, body.carriedArg(0), cell ? body.carriedArg(1) : Value(), t,
                            nextCell, y);
    SmallVector<Value> yielded{next};
    if (cell)
      yielded.push_back(nextCell);
    yielded.push_back(g.reshape(y, {1, rec.batch, h}));
    SmallVector<Value> results = body.finish(yielded, rec.seq, Value(), reverse);
    DirectionResult out;
    out.y = results.back();
    out.h = g.reshape(results[0], {1, rec.batch, h});
    if (cell)
      out.c = g.reshape(results[1], {1, rec.batch, h});
    return out;
  }

  Value zeros() {
    RankedTensorType xt = GraphImporter::typeOf(rec.x);
    ref::Tensor t = ref::Tensor::zeros(*refDTypeOf(xt.getElementType()), {rec.batch, rec.hidden});
    return g.constant(t);
  }
  Value gate(Value v, int64_t k) { return sliceAlong(g, v, 1, k * rec.hidden, (k + 1) * rec.hidden); }
  /// Activation `k` of this direction; `clip` bounds a gate's input (not the
  /// LSTM cell state's, as ONNX Runtime reads the spec).
  Value act(int64_t k, Value v, bool gateInput = true) {
    if (rec.clip && gateInput)
      v = g.make<ClipOp>(GraphImporter::typeOf(v), v, g.builder.getF64FloatAttr(-*rec.clip),
                         g.builder.getF64FloatAttr(*rec.clip), DeviceAttr());
    const Activation &a = rec.activations[d * activationsPerDirection(rec.cell) + k];
    return activationByName(g, a.name, v, a.alpha, a.beta);
  }
  Value peephole(int64_t k, Value c) { // P's gates in the order i, o, f
    Value p = sliceAlong(g, direction(g, rec.peepholes, d), 0, k * rec.hidden, (k + 1) * rec.hidden);
    return g.make<MulOp>(p, c);
  }

  /// The next state from the step's input projection `xt`.
  Value step(Value xt, Value state, Value cell, Value &nextCell) {
    int64_t h = rec.hidden;
    if (rec.cell == Cell::Rnn)
      return act(0, g.make<AddOp>(xt, linear(g, state, rd)));
    if (rec.cell == Cell::Lstm) { // gates i, o, f, c
      Value pre = g.make<AddOp>(xt, linear(g, state, rd));
      Value i = gate(pre, 0), o = gate(pre, 1), f = gate(pre, 2), c = gate(pre, 3);
      if (rec.peepholes) {
        i = g.make<AddOp>(i, peephole(0, cell));
        f = g.make<AddOp>(f, peephole(2, cell));
      }
      i = act(0, i);
      f = rec.inputForget ? g.make<SubOp>(g.scalarLike(i, 1), i) : act(0, f);
      nextCell = g.make<AddOp>(g.make<MulOp>(f, cell), g.make<MulOp>(i, act(1, c)));
      if (rec.peepholes)
        o = g.make<AddOp>(o, peephole(1, nextCell));
      return g.make<MulOp>(act(0, o), act(2, nextCell, /*gateInput=*/false));
    }
    // GRU: gates z, r, h.
    Value zr = g.make<AddOp>(sliceAlong(g, xt, 1, 0, 2 * h), linear(g, state, sliceAlong(g, rd, 0, 0, 2 * h)));
    Value z = act(0, gate(zr, 0)), r = act(0, gate(zr, 1));
    Value rh = sliceAlong(g, rd, 0, 2 * h, 3 * h);
    Value recurrent = rec.linearBeforeReset
                          ? g.make<MulOp>(r, linear(g, state, rh, recurrentHBias))
                          : linear(g, g.make<MulOp>(r, state), rh);
    Value candidate = act(1, g.make<AddOp>(gate(xt, 2), recurrent));
    // (1 - z) * candidate + z * state
    return g.make<AddOp>(candidate, g.make<MulOp>(z, g.make<SubOp>(state, candidate)));
  }

  GraphImporter &g;
  const Recurrence &rec;
  int64_t d;
  Value rd, recurrentHBias;
};

LogicalResult convertRecurrent(GraphImporter &g, Outputs &out) {
  StringRef op = g.node->op_type();
  Cell cell = op == "LSTM" ? Cell::Lstm : op == "GRU" ? Cell::Gru : Cell::Rnn;
  Recurrence rec;
  if (failed(readRecurrence(g, cell, rec)))
    return failure();
  bool reverseOnly = g.attrString("direction", "forward") == "reverse";
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < rec.dirs; ++d) {
    DirectionResult r = Unroller(g, rec, d).run(reverseOnly || d == 1);
    ys.push_back(r.y);
    hs.push_back(r.h);
    cs.push_back(r.c);
  }
  bool batchFirst = g.attrInt("layout", 0) != 0;
  Value y = concatAlong(g, ys, 1), yh = concatAlong(g, hs, 0);
  Value yc = cell == Cell::Lstm ? concatAlong(g, cs, 0) : Value();
  if (batchFirst) {
    y = transposed(g, y, {2, 0, 1, 3});
    yh = transposed(g, yh, {1, 0, 2});
    if (yc)
      yc = transposed(g, yc, {1, 0, 2});
  }
  Value results[] = {y, yh, yc};
  for (int i = 0; i < g.node->output_size(); ++i)
    out.push_back(i < 3 ? results[i] : Value());
  return success();
}

} // namespace

void dlc::onnx_import::addRecurrentConverters(llvm::StringMap<Converter> &t) {
  t["LSTM"] = convertRecurrent;
  t["GRU"] = convertRecurrent;
  t["RNN"] = convertRecurrent;
}
