//===- OnnxControlFlow.cpp - If and Loop inlined at import time -----------===//
//
// dlc's IR is a dataflow graph without regions, so ONNX's control flow is
// resolved while importing:
//   If    a condition known at import time inlines the branch it picks; one
//         known only at run time inlines both branches and selects between
//         their outputs (dlc.select), which needs outputs of one shape and
//         type per position: anything else is refused, naming the output.
//   Loop  unrolled when its trip count and condition are known at import
//         time (a body's condition output must fold to a constant each
//         iteration), up to kMaxLoopIterations; scan outputs are stacked on a
//         new leading axis. A trip count known only at run time, or one above
//         kMaxLoopIterations, makes a dlc.loop (LoopBody.h) whose body is
//         imported once: its condition output must fold to true (a counted
//         loop), its carried values keep their types, and with a run-time
//         count it has no scan outputs (their size would be known only at run
//         time). A condition known only at run time is refused.
//   Scan  (opset 9 on) one dlc.loop: the state variables carried, the scan
//         inputs scanned along their axes (moved to the front), the scan
//         outputs stacked and moved to their axes. One direction for every
//         scan input and output (the loop counts down or not); mixed
//         directions, and opset 8's batch-major Scan, are refused by name.
//
//===----------------------------------------------------------------------===//
#include "compiler/Import/ONNX/LoopBody.h"
#include "compiler/Import/ONNX/OnnxOpsCommon.h"
#include "dialects/dlc/DlcOps.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::onnx_import;

namespace {

/// Unrolling beyond this would make graphs nobody wants to compile.
constexpr int64_t kMaxLoopIterations = 1024;

const onnx::GraphProto *graphAttr(GraphImporter &g, StringRef name) {
  const onnx::AttributeProto *a = g.attr(name);
  if (!a || !a->has_g()) {
    g.fail("attribute '" + name + "' (a graph) is missing");
    return nullptr;
  }
  return &a->g();
}

/// A scalar-like boolean (shape [] or [1]) known at import time.
std::optional<bool> knownFlag(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  if (dense.getElementType().isInteger(1))
    return *dense.getValues<bool>().begin();
  return std::nullopt;
}

std::string shapeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

LogicalResult convertIf(GraphImporter &g, Outputs &out) {
  const onnx::GraphProto *thenGraph = graphAttr(g, "then_branch");
  const onnx::GraphProto *elseGraph = thenGraph ? graphAttr(g, "else_branch") : nullptr;
  if (!elseGraph)
    return failure();
  Value cond = g.input(0);
  RankedTensorType condType = g.type(0);
  if (!condType.getElementType().isInteger(1) || condType.getNumElements() != 1)
    return g.fail("the condition must be one bool, not " + shapeText(condType));
  if (std::optional<bool> known = knownFlag(cond))
    return g.importSubgraph(*known ? *thenGraph : *elseGraph, {}, out);

  SmallVector<Value> thenOut, elseOut;
  if (failed(g.importSubgraph(*thenGraph, {}, thenOut)) ||
      failed(g.importSubgraph(*elseGraph, {}, elseOut)))
    return failure();
  if (thenOut.size() != elseOut.size())
    return g.fail("the branches give " + std::to_string(thenOut.size()) + " and " +
                  std::to_string(elseOut.size()) + " outputs");
  for (auto [i, pair] : llvm::enumerate(llvm::zip(thenOut, elseOut))) {
    auto [a, b] = pair;
    if (a.getType() != b.getType())
      return g.fail("a condition known only at run time needs branches whose outputs match, "
                    "but output " + std::to_string(i) + " is " + shapeText(a.getType()) +
                    " in then_branch and " + shapeText(b.getType()) +
                    " in else_branch (bind the condition with --bind=" + g.node->input(0) +
                    "=FILE.npy)");
    SmallVector<int64_t> ones(GraphImporter::typeOf(a).getRank(), 1);
    out.push_back(g.make<SelectOp>(g.reshape(cond, ones), a, b));
  }
  return success();
}

/// Loop's trip count (input 0, optional: none means a while loop, which ends
/// when the body's condition folds to false), known at import time or, for
/// a counted loop, at run time (`runTimeCount`); and its initial condition
/// (input 1, optional: none means true), which must be known at import time.
LogicalResult loopBounds(GraphImporter &g, std::optional<int64_t> &trips, Value &runTimeCount,
                         bool &running) {
  trips.reset();
  running = true;
  if (g.has(0)) {
    RankedTensorType type = g.type(0);
    if (!isa<IntegerType>(type.getElementType()) || type.getNumElements() != 1)
      return g.fail("a Loop's trip count (input 0, '" + g.node->input(0) + "') must be one integer, not " +
                    shapeText(type));
    if (std::optional<Tensor> m = g.constInput(0))
      trips = int64_t(m->data[0]);
    else
      runTimeCount = g.input(0);
  }
  if (g.has(1)) {
    std::optional<bool> c = knownFlag(g.input(1));
    if (!c)
      return g.fail("a Loop's initial condition ('" + g.node->input(1) +
                    "') must be known at import time (dlc runs counted loops); bind it, or the "
                    "graph inputs it is computed from, with --bind=NAME=FILE.npy");
    running = *c;
  }
  return success();
}

/// A counted Loop as one dlc.loop, its body imported once.
LogicalResult importCountedLoop(GraphImporter &g, const onnx::GraphProto &body, size_t carried,
                                std::optional<int64_t> trips, Value count, Outputs &out) {
  SmallVector<Value> inits;
  for (size_t i = 0; i < carried; ++i)
    inits.push_back(g.input(2 + i));
  LoopBody loop(g, inits, {});
  SmallVector<Value> inputs{g.reshape(loop.position(), {}),
                            g.constant(Tensor::fromValues(ref::DType::I1, {}, {1.0}))};
  for (size_t i = 0; i < carried; ++i)
    inputs.push_back(loop.carriedArg(i));
  SmallVector<Value> results;
  if (failed(g.importSubgraph(body, inputs, results)))
    return failure();
  if (knownFlag(results[0]) != std::optional<bool>(true))
    return g.fail("the body's condition output ('" + body.output(0).name() +
                  "') does not fold to true: dlc runs a Loop whose count is known only at run time, "
                  "or above " + std::to_string(kMaxLoopIterations) +
                  " iterations, as a counted loop, and has no while loops");
  SmallVector<Value> yielded;
  for (size_t k = 0; k < carried; ++k) {
    if (results[1 + k].getType() != inits[k].getType())
      return g.fail("loop-carried value " + std::to_string(k) + " changes type from " +
                    shapeText(inits[k].getType()) + " to " + shapeText(results[1 + k].getType()) +
                    " in the body");
    yielded.push_back(results[1 + k]);
  }
  for (size_t k = 0; k < results.size() - 1 - carried; ++k) {
    Value v = results[1 + carried + k];
    if (!trips)
      return g.fail("scan output " + std::to_string(k) + " ('" + body.output(1 + carried + k).name() +
                    "') of a Loop whose trip count is known only at run time: dlc has no dims "
                    "sized by a loop; bind the count with --bind=" + g.node->input(0) + "=FILE.npy");
    yielded.push_back(v);
  }
  if (trips && *trips < 1 && yielded.size() > carried)
    return g.fail("scan outputs of a Loop that runs no iteration would be empty, and dlc has no "
                  "empty tensors");
  out.append(loop.finish(yielded, trips, count, /*reverse=*/false));
  return success();
}

/// Stacks per-iteration values of one shape on a new leading axis.
Value stack(GraphImporter &g, ArrayRef<Value> items) {
  SmallVector<Value> rows;
  for (Value v : items) {
    SmallVector<int64_t> shape{1};
    llvm::append_range(shape, GraphImporter::typeOf(v).getShape());
    rows.push_back(g.reshape(v, shape));
  }
  if (rows.size() == 1)
    return rows.front();
  SmallVector<int64_t> shape = llvm::to_vector(GraphImporter::typeOf(rows.front()).getShape());
  shape[0] = int64_t(rows.size());
  auto type = g.tensorType(shape, GraphImporter::typeOf(rows.front()).getElementType());
  return g.make<ConcatOp>(type, rows, g.builder.getI64IntegerAttr(0), DeviceAttr());
}

LogicalResult convertLoop(GraphImporter &g, Outputs &out) {
  const onnx::GraphProto *body = graphAttr(g, "body");
  if (!body)
    return failure();
  std::optional<int64_t> trips;
  Value count;
  bool running;
  if (failed(loopBounds(g, trips, count, running)))
    return failure();
  size_t carried = g.numInputs() > 2 ? g.numInputs() - 2 : 0;
  if (size_t(body->input_size()) != carried + 2 || size_t(body->output_size()) < carried + 1)
    return g.fail("the body has " + std::to_string(body->input_size()) + " inputs and " +
                  std::to_string(body->output_size()) + " outputs for " + std::to_string(carried) +
                  " loop-carried values (needs 2 + N inputs, 1 + N + K outputs)");
  if (running && (count || (trips && *trips > kMaxLoopIterations)))
    return importCountedLoop(g, *body, carried, trips, count, out);
  size_t scans = body->output_size() - carried - 1;
  SmallVector<Value> state;
  for (size_t i = 0; i < carried; ++i)
    state.push_back(g.input(2 + i));
  std::vector<SmallVector<Value>> scanned(scans);
  Value condition = g.has(1) ? g.input(1) : g.constant(Tensor::fromValues(ref::DType::I1, {}, {1.0}));
  for (int64_t i = 0; running && (!trips || i < *trips); ++i) {
    if (i == kMaxLoopIterations)
      return g.fail("a Loop without a trip count whose condition is still true after " +
                    std::to_string(kMaxLoopIterations) + " iterations: dlc unrolls while loops, up to " +
                    std::to_string(kMaxLoopIterations));
    SmallVector<Value> inputs{g.constant(Tensor::fromValues(ref::DType::I64, {}, {double(i)})),
                              condition};
    inputs.append(state);
    SmallVector<Value> results;
    if (failed(g.importSubgraph(*body, inputs, results)))
      return failure();
    std::optional<bool> next = knownFlag(results[0]);
    if (!next)
      return g.fail("the body's condition output ('" + body->output(0).name() +
                    "') depends on run-time values: dlc unrolls a Loop with a condition only "
                    "when it folds, and has no while loops");
    running = *next;
    condition = results[0];
    for (size_t k = 0; k < carried; ++k) {
      if (results[1 + k].getType() != state[k].getType())
        return g.fail("loop-carried value " + std::to_string(k) + " changes type from " +
                      shapeText(state[k].getType()) + " to " + shapeText(results[1 + k].getType()) +
                      " in iteration " + std::to_string(i));
      state[k] = results[1 + k];
    }
    for (size_t k = 0; k < scans; ++k) {
      Value v = results[1 + carried + k];
      if (!scanned[k].empty() && v.getType() != scanned[k].front().getType())
        return g.fail("scan output " + std::to_string(k) + " changes shape between iterations");
      scanned[k].push_back(v);
    }
  }
  out.append(state);
  for (size_t k = 0; k < scans; ++k) {
    if (scanned[k].empty())
      return g.fail("scan output " + std::to_string(k) + " of a Loop that runs no iteration "
                    "would be empty, and dlc has no empty tensors");
    out.push_back(stack(g, scanned[k]));
  }
  return success();
}

/// Scan's per-input or per-output attribute list, `count` long (0s when absent).
std::optional<std::vector<int64_t>> scanList(GraphImporter &g, StringRef name, size_t count) {
  std::vector<int64_t> values = g.attrInts(name).value_or(std::vector<int64_t>(count, 0));
  if (values.size() != count) {
    g.fail(name + " has " + std::to_string(values.size()) + " entries for " + std::to_string(count));
    return std::nullopt;
  }
  return values;
}

/// The permutation moving `axis` of a rank-`rank` value to the front (or,
/// `back`, the front to `axis`).
SmallVector<int64_t> moveAxis(int64_t rank, int64_t axis, bool back) {
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(back ? (d < axis ? d + 1 : d == axis ? 0 : d) : d);
  if (!back) {
    perm.erase(perm.begin() + axis);
    perm.insert(perm.begin(), axis);
  }
  return perm;
}

LogicalResult convertScan(GraphImporter &g, Outputs &out) {
  if (g.opset < 9)
    return g.unsupported("Scan before opset 9 (batch-major, with sequence_lens)");
  const onnx::GraphProto *body = graphAttr(g, "body");
  if (!body)
    return failure();
  int64_t scans = g.attrInt("num_scan_inputs", 0);
  int64_t states = int64_t(g.numInputs()) - scans;
  int64_t outputs = body->output_size() - states;
  if (scans < 1 || states < 0 || outputs < 0 || body->input_size() != states + scans)
    return g.fail("the body has " + std::to_string(body->input_size()) + " inputs and " +
                  std::to_string(body->output_size()) + " outputs for " + std::to_string(states) +
                  " state variables and " + std::to_string(scans) + " scan inputs");
  auto inAxes = scanList(g, "scan_input_axes", scans), inDirs = scanList(g, "scan_input_directions", scans);
  auto outAxes = scanList(g, "scan_output_axes", outputs),
       outDirs = scanList(g, "scan_output_directions", outputs);
  if (!inAxes || !inDirs || !outAxes || !outDirs)
    return failure();
  std::vector<int64_t> dirs = *inDirs;
  dirs.insert(dirs.end(), outDirs->begin(), outDirs->end());
  if (llvm::any_of(dirs, [&](int64_t d) { return d != dirs.front(); }))
    return g.unsupported("scan inputs and outputs in different directions (dlc's loop counts one way)");
  SmallVector<Value> inits, scanned;
  for (int64_t i = 0; i < states; ++i)
    inits.push_back(g.input(i));
  std::optional<int64_t> trips;
  for (int64_t k = 0; k < scans; ++k) {
    Value x = g.input(states + k);
    int64_t rank = GraphImporter::typeOf(x).getRank(), axis = normAxis((*inAxes)[k], rank);
    if (axis < 0 || axis >= rank)
      return g.fail("scan input " + std::to_string(k) + " has no axis " + std::to_string((*inAxes)[k]));
    x = axis == 0 ? x : transposed(g, x, moveAxis(rank, axis, false));
    int64_t length = GraphImporter::typeOf(x).getDimSize(0);
    if (trips && *trips != length)
      return g.fail("scan inputs of " + std::to_string(*trips) + " and " + std::to_string(length) + " steps");
    trips = length;
    scanned.push_back(x);
  }
  LoopBody loop(g, inits, scanned);
  SmallVector<Value> inputs;
  for (int64_t i = 0; i < states; ++i)
    inputs.push_back(loop.carriedArg(i));
  for (int64_t k = 0; k < scans; ++k)
    inputs.push_back(loop.scanArg(k));
  SmallVector<Value> results;
  if (failed(g.importSubgraph(*body, inputs, results)))
    return failure();
  for (int64_t i = 0; i < states; ++i)
    if (results[i].getType() != inits[i].getType())
      return g.fail("state variable " + std::to_string(i) + " changes type from " +
                    shapeText(inits[i].getType()) + " to " + shapeText(results[i].getType()) + " in the body");
  SmallVector<Value> finals = loop.finish(results, trips, Value(), dirs.front() != 0);
  for (int64_t j = 0; j < int64_t(finals.size()); ++j) {
    Value v = finals[j];
    if (j >= states) {
      int64_t rank = GraphImporter::typeOf(v).getRank(), k = j - states;
      int64_t axis = normAxis((*outAxes)[k], rank);
      if (axis < 0 || axis >= rank)
        return g.fail("scan output " + std::to_string(k) + " has no axis " + std::to_string((*outAxes)[k]));
      if (axis != 0)
        v = transposed(g, v, moveAxis(rank, axis, true));
    }
    out.push_back(v);
  }
  return success();
}

} // namespace

void dlc::onnx_import::addControlFlowConverters(llvm::StringMap<Converter> &t) {
  t["If"] = convertIf;
  t["Loop"] = convertLoop;
  t["Scan"] = convertScan;
}
