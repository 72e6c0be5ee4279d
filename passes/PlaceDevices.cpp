//===- PlaceDevices.cpp - every op on a logical device --------------------===//
//
// Placement is list scheduling in the HEFT family (Topcuoglu et al., 2002)
// with memory as a hard constraint:
//
//   rank(v)  = mean_d t(v, d) + max_{s in succ(v)} (mean comm(v) + rank(s))
//   pick the ready op of highest rank; on each device d it may use:
//   EFT(v,d) = max(avail(d), max_u arrival(u, d)) + t(v, d)
//   arrival(u, d) = finish(u)                          if u lives on d
//                 = finish(u) + latency + bytes/bw     for the first copy of u
//                                                      to d, shared afterwards
//   and take the device of least EFT among those where
//   used(d) + outputs + new copies + new weights <= capacity(d).
//
// The order ops are committed in is recorded as `dlc.order`: memory (weights
// plus live activations along that order) and the makespan are estimated over
// it, and the memory planner is to check the same order. Freeing a value only
// once all its consumers ran over-approximates the live set, so the
// capacities hold for the report's exact sweep too (checked at the end).
//
// `cpu`, `gpu` and `pipeline:N` give each op one device (falling back to the
// CPU with reason `capacity` when it is full) and share the same scheduler.
//
//===----------------------------------------------------------------------===//

#include "passes/CostModel.h"
#include "passes/DataParallel.h"
#include "passes/Passes.h"
#include "passes/PlacementCore.h"
#include "passes/PlacementReport.h"
#include "passes/RecordedDeviceSpec.h"
#include "passes/TargetBackend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <limits>
#include <queue>

namespace dlc {
#define GEN_PASS_DEF_PLACEDEVICES
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// pipeline:N uses the placement core's O(n^2 N) split up to this many ops,
/// the bisection over the block order above it.
constexpr size_t kExactPipelineOps = 2000;
/// `cost` refines its list schedule with moves up to this many ops, for at
/// most this long.
constexpr size_t kRefineOps = 2000;
constexpr double kRefineBudgetMs = 200;

enum class Reason { Pinned, Unsupported, Capacity, Cost, Default, View };

const char *reasonName(Reason reason) {
  switch (reason) {
  case Reason::Pinned: return "pinned";
  case Reason::Unsupported: return "unsupported";
  case Reason::Capacity: return "capacity";
  case Reason::Cost: return "cost";
  case Reason::Default: return "default";
  case Reason::View: return "view";
  }
  return "default";
}

enum class Policy { Cost, Cpu, Gpu, Pipeline, DataParallel };

/// A device decided before scheduling: a data-parallel replica's GPU, or an
/// entry of --placement-from. Pins (attribute, then pattern) still win.
DeviceAttr deviceAttr(MLIRContext *ctx, const DeviceId &id) {
  return DeviceAttr::get(ctx, id.kind, id.index);
}

struct Forced {
  int device = 0;
  Reason reason = Reason::Default;
  /// --placement-from: an op its device cannot run is an error; data-parallel
  /// falls back to the CPU (reason unsupported).
  bool strict = false;
  std::string source;
};

struct PatternPin {
  std::unique_ptr<llvm::Regex> regex;
  std::string text;
  DeviceId device;
};

/// What the scheduler knows of a value.
struct ValueState {
  int home = -1;      // spec index of the device it lives on
  double ready = 0;   // when it is ready there
  int64_t bytes = 0;
  int remaining = 0;  // consumers not scheduled yet
  bool returned = false, permanent = false, freed = false;
  llvm::SmallVector<std::pair<int, double>, 2> copies; // (device, arrival)
  const double *copyArrival(int device) const {
    for (const auto &copy : copies)
      if (copy.first == device)
        return &copy.second;
    return nullptr;
  }
};

struct Node {
  Operation *op;
  std::string name;
  unsigned index; // position in the block
  llvm::SmallVector<int, 4> candidates;
  std::vector<double> time; // per spec device; kInf where unsupported
  Reason reason = Reason::Default;
  bool pinned = false;
  double rank = 0;
  int device = -1, waiting = 0;
  int64_t order = -1;
  llvm::SmallVector<int, 4> succs;
};

struct Evaluation {
  double eft = kInf;
  int64_t need = 0, weights = 0; // new activations, new weights
  bool fits = false;
};

class FunctionPlacer {
public:
  FunctionPlacer(func::FuncOp func, const DeviceSpec &spec,
                 ArrayRef<int> allowed, Policy policy, int64_t stages,
                 ArrayRef<PatternPin> pins, bool fallbackError,
                 const llvm::DenseMap<Operation *, Forced> *forced = nullptr)
      : func(func), spec(spec), allowed(allowed), policy(policy),
        stages(stages), pins(pins), fallbackError(fallbackError), forced(forced) {}

  LogicalResult run() {
    if (failed(collect()) || failed(assignPipelineStages()))
      return failure();
    computeRanks();
    // The scheduler's starting state, kept when refinement may rerun it.
    bool refine = policy == Policy::Cost && !nodes.empty() && nodes.size() <= kRefineOps;
    llvm::DenseMap<Value, ValueState> initialValues;
    std::vector<int> initialWaiting;
    if (refine) {
      initialValues = values;
      for (const Node &node : nodes)
        initialWaiting.push_back(node.waiting);
    }
    if (failed(schedule()))
      return failure();
    if (refine && failed(refineCost(initialValues, initialWaiting)))
      return failure();
    placeConstants();
    return success();
  }

private:
  LogicalResult collect();
  LogicalResult candidatesFor(Node &node, DeviceId pin, bool attributePin,
                              const PatternPin *pattern);
  LogicalResult fallBack(Node &node, Reason reason, StringRef why);
  LogicalResult assignPipelineStages();
  void exactPipelineSplit(llvm::ArrayRef<int> gpus, const std::vector<double> &time,
                          const std::vector<int64_t> &memory, std::vector<int> &stageOf);
  void computeRanks();
  Evaluation evaluate(const Node &node, int device);
  void commit(Node &node, int device, const Evaluation &eval);
  LogicalResult schedule();
  LogicalResult refineCost(const llvm::DenseMap<Value, ValueState> &initialValues,
                           ArrayRef<int> initialWaiting);
  void placeConstants();
  void viewsFollowTheirSource();

  double meanCommUs(int64_t bytes) const {
    return commPairs ? meanLatencyUs + 1e6 * bytes * meanInvBandwidth : 0;
  }
  int firstGpu() const {
    for (int d : allowed)
      if (!spec.devices[d].id.isCpu())
        return d;
    return -1;
  }

  func::FuncOp func;
  const DeviceSpec &spec;
  ArrayRef<int> allowed;
  Policy policy;
  int64_t stages;
  ArrayRef<PatternPin> pins;
  bool fallbackError;
  const llvm::DenseMap<Operation *, Forced> *forced;

  std::vector<Node> nodes;
  llvm::DenseMap<Operation *, int> nodeOf;
  llvm::DenseMap<Value, ValueState> values;
  /// Unpinned constants: they follow their consumers, one copy per device.
  std::vector<ConstantOp> followers;
  llvm::DenseSet<std::pair<Operation *, int>> resident;
  std::vector<double> avail;
  std::vector<int64_t> used, peak, weightBytes; // activations, their peak, weights
  int64_t committed = 0;
  int commPairs = 0;
  double meanLatencyUs = 0, meanInvBandwidth = 0;
};

LogicalResult FunctionPlacer::fallBack(Node &node, Reason reason, StringRef why) {
  if (fallbackError && reason == Reason::Unsupported)
    return node.op->emitError() << "op '" << node.name << "' (" << node.op->getName()
                                << ") cannot run on " << why
                                << " and --fallback=error refuses the CPU";
  if (std::isinf(node.time[0]))
    return node.op->emitError() << "no device can run op '" << node.name << "' ("
                                << node.op->getName() << "): not " << why
                                << ", not the cpu";
  node.candidates = {0};
  node.reason = reason;
  return success();
}

LogicalResult FunctionPlacer::candidatesFor(Node &node, DeviceId pin, bool attributePin,
                                            const PatternPin *pattern) {
  if (attributePin || pattern) {
    int device = spec.find(pin);
    std::string source = attributePin
                             ? std::string("its device attribute")
                             : "--pin='" + pattern->text + "'";
    if (device < 0 || (device != 0 && !llvm::is_contained(allowed, device)))
      return node.op->emitError()
             << "op '" << node.name << "' is pinned to " << pin.str() << " by "
             << source << ", which is not among the devices (" << spec.names() << ")";
    if (std::isinf(node.time[device])) {
      if (attributePin)
        return node.op->emitError()
               << "op '" << node.name << "' is pinned to " << pin.str()
               << ", which cannot run " << node.op->getName();
      if (fallbackError)
        return node.op->emitError()
               << "op '" << node.name << "' matches " << source << ", but "
               << pin.str() << " cannot run " << node.op->getName()
               << " and --fallback=error refuses the CPU";
      node.op->emitWarning() << "op '" << node.name << "' matches " << source
                             << ", but " << pin.str() << " cannot run "
                             << node.op->getName() << ": placed on the cpu";
      return fallBack(node, Reason::Unsupported, pin.str());
    }
    node.candidates = {device};
    node.pinned = true;
    node.reason = Reason::Pinned;
    return success();
  }
  llvm::SmallVector<int, 4> wanted;
  switch (policy) {
  case Policy::Cpu: wanted = {0}; break;
  case Policy::Gpu: wanted = {firstGpu()}; break;
  case Policy::Cost:
  case Policy::Pipeline:
  case Policy::DataParallel: wanted.assign(allowed.begin(), allowed.end()); break;
  }
  node.reason = policy == Policy::Cpu || policy == Policy::Gpu ? Reason::Default
                                                                : Reason::Cost;
  for (int d : wanted)
    if (!std::isinf(node.time[d]))
      node.candidates.push_back(d);
  if (!node.candidates.empty())
    return success();
  std::string names;
  for (int d : wanted)
    names += (names.empty() ? "" : ", ") + spec.devices[d].id.str();
  return fallBack(node, Reason::Unsupported, names);
}

LogicalResult FunctionPlacer::collect() {
  Block &block = func.getBody().front();
  for (auto [index, op] : llvm::enumerate(block.without_terminator())) {
    std::string name = opName(&op, index);
    DeviceId pin;
    bool attributePin = false;
    const PatternPin *pattern = nullptr;
    if (DeviceAttr attr = getDevicePin(&op)) {
      pin = DeviceId{attr.getKind().str(), attr.getIndex()};
      attributePin = true;
    } else if (!isa<ConstantOp>(op)) { // weights follow the ops they feed
      for (const PatternPin &p : pins)
        if (p.regex->match(name)) {
          pattern = &p;
          pin = p.device;
          break;
        }
    }
    auto constant = dyn_cast<ConstantOp>(op);
    if (constant && !attributePin && !pattern) {
      followers.push_back(constant);
      ValueState &state = values[constant.getResult()];
      state.bytes = valueBytes(constant.getResult());
      continue;
    }
    Node node;
    node.op = &op;
    node.name = name;
    node.index = index;
    for (const DeviceProfile &device : spec.devices)
      node.time.push_back(deviceRuns(device, &op) ? opTimeUs(&op, device) : kInf);
    if (constant) { // pinned weights: resident on their device, never freed
      if (failed(candidatesFor(node, pin, attributePin, pattern)))
        return failure();
      ValueState &state = values[constant.getResult()];
      state.home = node.candidates.front();
      state.bytes = valueBytes(constant.getResult());
      state.permanent = true;
      node.device = state.home;
      nodeOf[&op] = -1;
      constant->setAttr(::dlc::attrs::kDevice,
                        deviceAttr(op.getContext(), spec.devices[state.home].id));
      constant->setAttr(::dlc::attrs::kReason,
                        StringAttr::get(op.getContext(), reasonName(node.reason)));
      continue;
    }
    auto forcedIt = forced ? forced->find(&op) : llvm::DenseMap<Operation *, Forced>::const_iterator();
    if (!attributePin && !pattern && forced && forcedIt != forced->end()) {
      const Forced &f = forcedIt->second;
      if (std::isinf(node.time[f.device])) {
        if (f.strict)
          return op.emitError() << "op '" << name << "' is placed on "
                                << spec.devices[f.device].id.str() << " by " << f.source
                                << ", which cannot run " << op.getName();
        if (failed(fallBack(node, Reason::Unsupported, spec.devices[f.device].id.str())))
          return failure();
      } else {
        node.candidates = {f.device};
        node.pinned = true;
        node.reason = f.reason;
      }
    } else if (failed(candidatesFor(node, pin, attributePin, pattern))) {
      return failure();
    }
    nodeOf[&op] = nodes.size();
    nodes.push_back(std::move(node));
  }

  // Edges, readiness, consumers per value.
  for (BlockArgument arg : func.getArguments()) {
    ValueState &state = values[arg];
    state.home = 0;
    state.bytes = valueBytes(arg);
  }
  for (Node &node : nodes)
    for (Value result : node.op->getResults())
      values[result].bytes = valueBytes(result);
  for (auto [i, node] : llvm::enumerate(nodes)) {
    llvm::SmallPtrSet<Operation *, 4> preds;
    llvm::SmallDenseSet<Value, 4> operands;
    for (Value operand : node.op->getOperands()) {
      if (operands.insert(operand).second)
        ++values[operand].remaining;
      Operation *def = operand.getDefiningOp();
      auto it = def ? nodeOf.find(def) : nodeOf.end();
      if (it != nodeOf.end() && it->second >= 0 && preds.insert(def).second) {
        nodes[it->second].succs.push_back(i);
        ++node.waiting;
      }
    }
  }
  for (Value result : block.getTerminator()->getOperands())
    values[result].returned = true;
  return success();
}

/// pipeline:N: N contiguous stages of the block order on the first N GPUs,
/// the smallest period (the slowest stage's time) that fits, by bisection
/// over a greedy split.
// The placement core's exact split over `gpus` (the stages), replacing the
// block split in `stageOf` when it is valid.
void FunctionPlacer::exactPipelineSplit(llvm::ArrayRef<int> gpus, const std::vector<double> &time,
                                        const std::vector<int64_t> &memory,
                                        std::vector<int> &stageOf) {
  int64_t stages = gpus.size();
  placement::Graph g;
  g.accelerators = stages;
  g.accMemory = std::numeric_limits<double>::infinity();
  for (int d : gpus)
    g.accMemory = std::min<double>(g.accMemory, spec.devices[d].memoryBytes);
  for (auto [i, node] : llvm::enumerate(nodes)) {
    placement::Node n;
    n.id = i;
    n.accTime = time[i];
    n.size = memory[i];
    n.colorClass = i;
    int64_t bytes = 0;
    for (Value result : node.op->getResults())
      bytes += values[result].bytes;
    n.outCost = transferUs(bytes, spec.links[gpus[0]][gpus[1]]);
    g.nodes.push_back(n);
    for (int s : node.succs)
      g.edges.push_back({(int)i, s});
  }
  std::string error;
  if (!g.finalize(error))
    return;
  placement::Assignment a =
      placement::placePipeline(g, placement::makeBlocks(g), nullptr, /*useCpu=*/false);
  if (a.empty())
    return;
  // Used only if it is what it claims: every op on a stage that holds it,
  // and values flowing forward from stage to stage. Otherwise the block
  // split stands (a bug in the core, said, never a wrong pipeline).
  std::string broken = placement::checkAssignment(g, a);
  if (broken.empty() && !placement::isContiguousSplit(g, a))
    broken = "values flow between its stages in a cycle";
  if (!broken.empty()) {
    func.emitWarning() << "dlc-place: the exact pipeline split is not valid (" << broken
                       << "); the block split is used";
    return;
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    stageOf[i] = a[i] - 1;
}

LogicalResult FunctionPlacer::assignPipelineStages() {
  if (policy != Policy::Pipeline)
    return success();
  llvm::SmallVector<int> gpus;
  for (int d : allowed)
    if (!spec.devices[d].id.isCpu() && (int64_t)gpus.size() < stages)
      gpus.push_back(d);
  if ((int64_t)gpus.size() < stages)
    return func.emitError() << "--placement=pipeline:" << stages << " needs " << stages
                            << " GPUs among the devices, got " << gpus.size();
  std::vector<double> time(nodes.size());
  std::vector<int64_t> memory(nodes.size());
  double total = 0, longest = 0;
  for (auto [i, node] : llvm::enumerate(nodes)) {
    time[i] = std::isinf(node.time[gpus[0]]) ? 0 : node.time[gpus[0]];
    for (Value result : node.op->getResults())
      memory[i] += values[result].bytes;
    for (Value operand : node.op->getOperands())
      if (auto c = operand.getDefiningOp<ConstantOp>(); c && !nodeOf.count(c))
        memory[i] += values[operand].bytes;
    total += time[i];
    longest = std::max(longest, time[i]);
  }
  auto split = [&](double period, std::vector<int> *stageOf) {
    int stage = 0;
    double t = 0;
    int64_t m = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      int64_t cap = spec.devices[gpus[std::min<int>(stage, gpus.size() - 1)]].memoryBytes;
      if (t > 0 && (t + time[i] > period || m + memory[i] > cap)) {
        ++stage;
        t = 0;
        m = 0;
      }
      t += time[i];
      m += memory[i];
      if (stageOf)
        (*stageOf)[i] = stage;
    }
    return stage < stages;
  };
  double lo = longest, hi = total;
  if (!split(hi * (1 + 1e-9) + 1e-9, nullptr))
    return func.emitError() << "--placement=pipeline:" << stages
                            << ": the model does not fit in the memory of " << stages
                            << " GPUs";
  for (int iter = 0; iter < 60 && hi - lo > 1e-6 * hi; ++iter) {
    double mid = (lo + hi) / 2;
    (split(mid, nullptr) ? hi : lo) = mid;
  }
  std::vector<int> stageOf(nodes.size());
  split(hi * (1 + 1e-9) + 1e-9, &stageOf);
  // Graphs of up to a few thousand ops: the placement core's exact split over
  // topological orders (not only the block order) that also charges each
  // stage for the values crossing into and out of it, then its refinement.
  if (nodes.size() <= kExactPipelineOps && stages > 1)
    exactPipelineSplit(gpus, time, memory, stageOf);
  for (auto [i, node] : llvm::enumerate(nodes)) {
    if (node.pinned || node.reason == Reason::Unsupported)
      continue;
    int gpu = gpus[stageOf[i]];
    if (std::isinf(node.time[gpu])) {
      if (failed(fallBack(node, Reason::Unsupported, spec.devices[gpu].id.str())))
        return failure();
      continue;
    }
    node.candidates = {gpu};
  }
  return success();
}

void FunctionPlacer::computeRanks() {
  // Mean communication over the ordered pairs of devices placement may use.
  llvm::SmallVector<int> used(allowed.begin(), allowed.end());
  if (!llvm::is_contained(used, 0))
    used.push_back(0);
  for (int a : used)
    for (int b : used)
      if (a != b) {
        ++commPairs;
        meanLatencyUs += spec.links[a][b].latencyUs;
        meanInvBandwidth += 1 / spec.links[a][b].bandwidthBytesPerS;
      }
  if (commPairs) {
    meanLatencyUs /= commPairs;
    meanInvBandwidth /= commPairs;
  }
  for (Node &node : llvm::reverse(nodes)) {
    double mean = 0;
    for (int d : node.candidates)
      mean += node.time[d];
    mean /= node.candidates.size();
    double tail = 0;
    for (int s : node.succs)
      tail = std::max(tail, nodes[s].rank);
    int64_t bytes = 0;
    for (Value result : node.op->getResults())
      bytes += values[result].bytes;
    node.rank = mean + (node.succs.empty() ? 0 : meanCommUs(bytes) + tail);
  }
}

Evaluation FunctionPlacer::evaluate(const Node &node, int device) {
  Evaluation eval;
  if (std::isinf(node.time[device]))
    return eval;
  double ready = 0;
  for (Value result : node.op->getResults())
    eval.need += values[result].bytes;
  llvm::SmallDenseSet<Value, 4> seen;
  for (Value operand : node.op->getOperands()) {
    if (!seen.insert(operand).second)
      continue;
    const ValueState &state = values[operand];
    if (state.home < 0) { // a constant that follows its consumers
      if (!resident.contains({operand.getDefiningOp(), device}))
        eval.weights += state.bytes;
      continue;
    }
    if (state.home == device) {
      ready = std::max(ready, state.ready);
      continue;
    }
    if (const double *arrival = state.copyArrival(device)) {
      ready = std::max(ready, *arrival);
      continue;
    }
    ready = std::max(ready, state.ready + transferUs(state.bytes,
                                                     spec.links[state.home][device]));
    eval.need += state.bytes;
  }
  eval.eft = std::max(avail[device], ready) + node.time[device];
  // Weights stay for the whole run: they add to the highest activation peak
  // so far, as the report counts them.
  eval.fits = weightBytes[device] + eval.weights +
                  std::max(peak[device], used[device] + eval.need) <=
              spec.devices[device].memoryBytes;
  return eval;
}

void FunctionPlacer::commit(Node &node, int device, const Evaluation &eval) {
  used[device] += eval.need;
  weightBytes[device] += eval.weights;
  peak[device] = std::max(peak[device], used[device]);
  llvm::SmallDenseSet<Value, 4> seen;
  for (Value operand : node.op->getOperands()) {
    if (!seen.insert(operand).second)
      continue;
    ValueState &state = values[operand];
    if (state.home < 0) {
      resident.insert({operand.getDefiningOp(), device});
      continue;
    }
    if (state.home != device && !state.copyArrival(device))
      state.copies.push_back(
          {device, state.ready + transferUs(state.bytes, spec.links[state.home][device])});
  }
  for (Value result : node.op->getResults()) {
    ValueState &state = values[result];
    state.home = device;
    state.ready = eval.eft;
  }
  avail[device] = eval.eft;
  node.device = device;
  node.order = committed++;

  // A value dies (on every device holding it) once all its consumers ran.
  auto release = [&](ValueState &state) {
    if (state.remaining > 0 || state.returned || state.permanent || state.freed ||
        state.home < 0)
      return;
    state.freed = true;
    used[state.home] -= state.bytes;
    for (const auto &copy : state.copies)
      used[copy.first] -= state.bytes;
  };
  for (Value operand : seen) {
    ValueState &state = values[operand];
    if (state.home < 0)
      continue;
    --state.remaining;
    release(state);
  }
  for (Value result : node.op->getResults())
    release(values[result]);
}

LogicalResult FunctionPlacer::schedule() {
  size_t n = spec.devices.size();
  avail.assign(n, 0);
  used.assign(n, 0);
  weightBytes.assign(n, 0);
  for (BlockArgument arg : func.getArguments())
    if (values[arg].remaining > 0 || values[arg].returned)
      used[0] += values[arg].bytes;
  peak = used;
  for (auto &entry : values)
    if (entry.second.permanent)
      weightBytes[entry.second.home] += entry.second.bytes;
  for (int d = 0; d < (int)n; ++d)
    if (used[d] + weightBytes[d] > spec.devices[d].memoryBytes)
      return func.emitError() << "pins exceed the memory of " << spec.devices[d].id.str()
                              << ": its pinned weights and inputs need "
                              << used[d] + weightBytes[d] << " bytes, it has "
                              << spec.devices[d].memoryBytes;

  auto lower = [&](int a, int b) {
    if (nodes[a].rank != nodes[b].rank)
      return nodes[a].rank < nodes[b].rank;
    return nodes[a].index > nodes[b].index;
  };
  std::priority_queue<int, std::vector<int>, decltype(lower)> ready(lower);
  for (auto [i, node] : llvm::enumerate(nodes))
    if (node.waiting == 0)
      ready.push(i);
  while (!ready.empty()) {
    Node &node = nodes[ready.top()];
    ready.pop();
    int best = -1, bestFit = -1;
    Evaluation bestEval, bestFitEval;
    for (int d : node.candidates) {
      Evaluation eval = evaluate(node, d);
      if (eval.eft < bestEval.eft) {
        best = d;
        bestEval = eval;
      }
      if (eval.fits && eval.eft < bestFitEval.eft) {
        bestFit = d;
        bestFitEval = eval;
      }
    }
    if (bestFit < 0 && !node.pinned && !llvm::is_contained(node.candidates, 0)) {
      Evaluation eval = evaluate(node, 0);
      if (eval.fits) {
        bestFit = 0;
        bestFitEval = eval;
      }
    }
    if (bestFit < 0) {
      int d = best >= 0 ? best : node.candidates.front();
      Evaluation eval = evaluate(node, d);
      InFlightDiagnostic diag = node.op->emitError();
      if (node.pinned)
        diag << "pins exceed the memory of " << spec.devices[d].id.str() << ": op '"
             << node.name << "' needs " << eval.need + eval.weights << " more bytes with "
             << used[d] + weightBytes[d] << " of " << spec.devices[d].memoryBytes
             << " in use";
      else
        diag << "op '" << node.name << "' does not fit in the memory of any device: it needs "
             << eval.need + eval.weights << " bytes on " << spec.devices[d].id.str() << " ("
             << used[d] + weightBytes[d] << " of " << spec.devices[d].memoryBytes
             << " in use)";
      return failure();
    }
    if (bestFit != best && !node.pinned && node.reason != Reason::Unsupported)
      node.reason = Reason::Capacity;
    commit(node, bestFit, bestFitEval);
    for (int s : node.succs)
      if (--nodes[s].waiting == 0)
        ready.push(s);
  }
  return success();
}

/// `cost`'s refinement (graphs of up to kRefineOps ops): the placement core
/// moves single ops to other devices while the simulated makespan of its
/// model drops, then the list scheduler runs again with each op held to its
/// new device (recording the order and memory as usual); kept only if the
/// makespan over the new order is lower. Only where no move can break a
/// capacity: every value and weight of the function fits on each device at
/// once (true of the built-in profiles); otherwise the list schedule stands.
LogicalResult FunctionPlacer::refineCost(const llvm::DenseMap<Value, ValueState> &initialValues,
                                         ArrayRef<int> initialWaiting) {
  if (nodes.empty() || nodes.size() > kRefineOps)
    return success();
  int64_t total = 0;
  for (const auto &entry : initialValues)
    total += entry.second.bytes;
  for (const DeviceProfile &device : spec.devices)
    if (total > device.memoryBytes)
      return success();

  size_t n = nodes.size(), devices = spec.devices.size();
  placement::TimedGraph g;
  g.devices = devices;
  g.pred.resize(n);
  g.latencyUs.assign(devices, std::vector<double>(devices, 0));
  g.usPerByte.assign(devices, std::vector<double>(devices, 0));
  for (size_t a = 0; a < devices; ++a)
    for (size_t b = 0; b < devices; ++b)
      if (a != b) {
        g.latencyUs[a][b] = spec.links[a][b].latencyUs;
        g.usPerByte[a][b] = 1e6 / spec.links[a][b].bandwidthBytesPerS;
      }
  std::vector<std::vector<int>> options(n);
  std::vector<int> device(n);
  for (auto [i, node] : llvm::enumerate(nodes)) {
    g.time.push_back(node.time);
    double bytes = 0, arguments = 0;
    bool returned = false;
    for (Value result : node.op->getResults()) {
      bytes += values[result].bytes;
      returned = returned || values[result].returned;
    }
    llvm::SmallDenseSet<Value, 4> seen;
    for (Value operand : node.op->getOperands())
      if (isa<BlockArgument>(operand) && seen.insert(operand).second)
        arguments += values[operand].bytes;
    g.bytes.push_back(bytes);
    g.argumentBytes.push_back(arguments);
    g.returned.push_back(returned);
    for (int s : node.succs)
      g.pred[s].push_back(i);
    if (!node.pinned && node.reason != Reason::Unsupported)
      options[i].assign(node.candidates.begin(), node.candidates.end());
    device[i] = node.device;
  }
  auto orderNow = [&] {
    std::vector<int> order(n);
    for (auto [i, node] : llvm::enumerate(nodes))
      order[node.order] = i;
    return order;
  };
  g.order = orderNow();
  double before = placement::makespan(g, device);
  if (placement::refineMakespan(g, options, device, kRefineBudgetMs) == 0)
    return success();

  std::vector<llvm::SmallVector<int, 4>> candidates;
  for (Node &node : nodes) {
    candidates.push_back(node.candidates);
  }
  auto reschedule = [&] {
    values = initialValues;
    resident.clear();
    committed = 0;
    for (auto [i, node] : llvm::enumerate(nodes))
      node.waiting = initialWaiting[i];
    return schedule();
  };
  for (auto [i, node] : llvm::enumerate(nodes))
    node.candidates = {device[i]};
  if (failed(reschedule()))
    return failure();
  g.order = orderNow();
  if (placement::makespan(g, device) < before) {
    for (auto [i, node] : llvm::enumerate(nodes))
      node.candidates = candidates[i];
    return success();
  }
  for (auto [i, node] : llvm::enumerate(nodes))
    node.candidates = candidates[i];
  return reschedule();
}


/// A view (dlc.reshape) has no step: its bytes are its source's. Placed by a
/// policy, it follows its source's device, with reason `view`, so that no
/// view stands alone on a device (the cost policy put one Squeeze alone on
/// cuda:1). A consumer elsewhere then reads a copy of the view: the same
/// bytes a copy of the source would move. Pinned views (an attribute,
/// --pin, --placement-from) stay where they are: a copy materialises them.
void FunctionPlacer::viewsFollowTheirSource() {
  for (Node &node : nodes) { // In program order: a chain follows its head.
    if (node.pinned || node.reason == Reason::Unsupported || !isa<ReshapeOp>(node.op))
      continue;
    Value source = node.op->getOperand(0);
    int device = 0; // A function argument lives on the cpu.
    if (Operation *def = source.getDefiningOp()) {
      auto it = nodeOf.find(def);
      if (it == nodeOf.end() || it->second < 0)
        continue; // A constant: it is cloned onto its consumers' devices.
      device = nodes[it->second].device;
    }
    if (std::isinf(node.time[device]))
      continue;
    node.device = device;
    node.reason = Reason::View;
  }
}

void FunctionPlacer::placeConstants() {
  MLIRContext *ctx = func.getContext();
  viewsFollowTheirSource();
  for (Node &node : nodes) {
    if (!isa<CopyOp>(node.op))
      node.op->setAttr(::dlc::attrs::kDevice, deviceAttr(ctx, spec.devices[node.device].id));
    node.op->setAttr(::dlc::attrs::kReason, StringAttr::get(ctx, reasonName(node.reason)));
    node.op->setAttr(::dlc::attrs::kOrder,
                     IntegerAttr::get(IntegerType::get(ctx, 64), node.order));
  }
  // One constant per device among its consumers (the return reads on the cpu).
  for (ConstantOp constant : followers) {
    llvm::SmallVector<int, 2> devices;
    for (Operation *user : constant->getUsers()) {
      auto it = nodeOf.find(user);
      int d = it != nodeOf.end() && it->second >= 0 ? nodes[it->second].device : 0;
      if (!llvm::is_contained(devices, d))
        devices.push_back(d);
    }
    if (devices.empty())
      devices.push_back(0);
    llvm::sort(devices);
    for (auto [i, d] : llvm::enumerate(devices)) {
      ConstantOp copy = constant;
      if (i > 0) {
        OpBuilder builder(constant);
        copy = cast<ConstantOp>(builder.clone(*constant));
        constant.getResult().replaceUsesWithIf(copy.getResult(), [&](OpOperand &use) {
          auto it = nodeOf.find(use.getOwner());
          int owner = it != nodeOf.end() && it->second >= 0 ? nodes[it->second].device : 0;
          return owner == d;
        });
      }
      copy->setAttr(::dlc::attrs::kDevice, deviceAttr(ctx, spec.devices[d].id));
      copy->setAttr(::dlc::attrs::kReason, StringAttr::get(ctx, "default"));
    }
  }
}

/// --placement-from: a placement dump (JSON, schema dlc-placement/1) read back.
struct Dump {
  std::string path, function;
  struct Entry {
    std::string name, device;
  };
  std::vector<Entry> ops;
};

llvm::Expected<Dump> loadDump(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read placement dump '" + path +
                                   "': " + buffer.getError().message());
  auto error = [&](const Twine &what) {
    return llvm::createStringError(path + ": " + what);
  };
  llvm::Expected<llvm::json::Value> root = llvm::json::parse((*buffer)->getBuffer());
  if (!root)
    return error("invalid JSON: " + llvm::toString(root.takeError()));
  const llvm::json::Object *top = root->getAsObject();
  if (!top)
    return error("expected an object (a --dump-placement JSON)");
  Dump dump;
  dump.path = path.str();
  if (auto function = top->getString("function"))
    dump.function = function->str();
  const llvm::json::Array *ops = top->getArray("ops");
  if (!ops)
    return error("ops: missing field (an array of {name, device})");
  for (auto [i, value] : llvm::enumerate(*ops)) {
    const llvm::json::Object *op = value.getAsObject();
    std::string where = "ops[" + std::to_string(i) + "]";
    if (!op)
      return error(where + ": expected an object");
    auto name = op->getString("name");
    auto device = op->getString("device");
    if (!name)
      return error(where + ".name: missing field");
    if (!device)
      return error(where + " ('" + *name + "').device: missing field");
    dump.ops.push_back({name->str(), device->str()});
  }
  return dump;
}

/// The dump's device for every op of `func` (constants follow their
/// consumers, copies are left as they are), checked like pins.
LogicalResult applyDump(func::FuncOp func, const Dump &dump, const DeviceSpec &spec,
                        ArrayRef<int> allowed, llvm::DenseMap<Operation *, Forced> &forced) {
  if (!dump.function.empty() && dump.function != func.getName())
    return func.emitError() << "--placement-from=" << dump.path << " places @"
                            << dump.function << ", not @" << func.getName();
  llvm::StringMap<llvm::SmallVector<const Dump::Entry *, 1>> byName;
  for (const Dump::Entry &entry : dump.ops)
    byName[entry.name].push_back(&entry);
  llvm::StringSet<> seen;
  Block &block = func.getBody().front();
  for (auto [index, op] : llvm::enumerate(block.without_terminator())) {
    if (isa<ConstantOp, CopyOp>(op))
      continue;
    std::string name = opName(&op, index);
    seen.insert(name);
    auto it = byName.find(name);
    if (it == byName.end())
      return op.emitError() << "op '" << name << "' is missing from the placement dump "
                            << dump.path;
    const std::string &device = it->second.front()->device;
    for (const Dump::Entry *entry : it->second)
      if (entry->device != device)
        return op.emitError() << "op '" << name << "' appears in " << dump.path
                              << " on both " << device << " and " << entry->device
                              << ": ops of the same name must share a device";
    auto id = parseDeviceId(device);
    if (!id) {
      std::string message = llvm::toString(id.takeError());
      return op.emitError() << "op '" << name << "' is placed on unknown device '" << device
                            << "' by " << dump.path << ": " << message;
    }
    int d = spec.find(*id);
    if (d < 0 || (d != 0 && !llvm::is_contained(allowed, d)))
      return op.emitError() << "op '" << name << "' is placed on " << id->str() << " by "
                            << dump.path << ", which is not among the devices ("
                            << spec.names() << ")";
    forced[&op] = Forced{d, Reason::Pinned, true, dump.path};
  }
  for (const Dump::Entry &entry : dump.ops)
    if (!seen.contains(entry.name))
      return func.emitError() << "the placement dump " << dump.path << " places op '"
                              << entry.name << "', which @" << func.getName()
                              << " does not have";
  return success();
}

/// The pass's options, parsed and checked once.
struct PlacementRequest {
  DeviceSpec spec;
  /// Spec indices of the devices `--devices` allows (the CPU is always
  /// allowed: the function's arguments and results live there).
  llvm::SmallVector<int> allowed;
  Policy policy = Policy::Cost;
  int64_t stages = 0;
  /// data-parallel: the replicas' GPUs.
  llvm::SmallVector<int> replicaGpus;
  std::optional<Dump> dumpIn;
  std::vector<PatternPin> patternPins;
};

struct PlaceDevicesPass : dlc::impl::PlaceDevicesBase<PlaceDevicesPass> {
  using PlaceDevicesBase::PlaceDevicesBase;
  /// The `device-spec` file's contents when the driver loaded it already.
  std::shared_ptr<const DeviceSpec> loadedSpec;

  llvm::Error error(const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  }

  llvm::Expected<std::vector<DeviceId>> parseDevices() {
    std::vector<DeviceId> ids;
    for (const std::string &text : devices) {
      auto parsed = parseDeviceList(text);
      if (!parsed)
        return error("--devices: " + llvm::toString(parsed.takeError()));
      for (const DeviceId &id : *parsed) {
        if (llvm::is_contained(ids, id))
          return error("--devices: device '" + id.str() + "' is listed twice");
        ids.push_back(id);
      }
    }
    return ids;
  }

  /// The spec to place with: the file's, restricted to `ids` when given,
  /// else the built-in profiles of `ids` (the CPU alone when empty).
  llvm::Expected<DeviceSpec> resolveSpec(std::vector<DeviceId> &ids) {
    if (deviceSpec.empty()) {
      if (ids.empty())
        ids.push_back(DeviceId{});
      return DeviceSpec::builtin(ids, BuiltinTarget{targetCpu});
    }
    auto loaded = loadedSpec ? llvm::Expected<DeviceSpec>(*loadedSpec)
                             : DeviceSpec::loadJson(deviceSpec);
    if (!loaded)
      return loaded.takeError();
    if (ids.empty())
      for (const DeviceProfile &device : loaded->devices)
        ids.push_back(device.id);
    auto selected = loaded->select(ids, deviceSpec);
    if (!selected)
      return selected.takeError();
    for (const DeviceProfile &device : selected->devices)
      if (device.supportedOps)
        for (const auto &op : *device.supportedOps)
          if (!RegisteredOperationName::lookup(("dlc." + op.getKey()).str(), &getContext()))
            return error("device spec: " + device.id.str() + ": supported_ops names '" +
                         op.getKey() + "', which is not a dlc op");
    return selected;
  }

  llvm::Error parsePolicy(PlacementRequest &r, const std::vector<DeviceId> &ids) {
    StringRef text = policy;
    if (text == "cost")
      r.policy = Policy::Cost;
    else if (text == "cpu")
      r.policy = Policy::Cpu;
    else if (text == "gpu")
      r.policy = Policy::Gpu;
    else if (text.starts_with("pipeline:") &&
             !text.drop_front(9).getAsInteger(10, r.stages) && r.stages > 0)
      r.policy = Policy::Pipeline;
    else if (text.starts_with("data-parallel:") &&
             !text.drop_front(14).getAsInteger(10, r.stages) && r.stages > 0)
      r.policy = Policy::DataParallel;
    else
      return error("unknown --placement '" + text +
                   "' (expected cost, cpu, gpu, pipeline:N, data-parallel:N)");
    if (r.policy == Policy::Gpu &&
        llvm::all_of(ids, [](const DeviceId &id) { return id.isCpu(); }))
      return error("--placement=gpu needs a cuda device among --devices (got " +
                   r.spec.names() + ")");
    if (fallback != "cpu" && fallback != "error")
      return error("unknown --fallback '" + fallback + "' (expected cpu or error)");
    if (r.policy != Policy::DataParallel)
      return llvm::Error::success();
    for (int d : r.allowed)
      if (!r.spec.devices[d].id.isCpu() && (int64_t)r.replicaGpus.size() < r.stages)
        r.replicaGpus.push_back(d);
    if ((int64_t)r.replicaGpus.size() < r.stages)
      return error("--placement=" + text + " needs " + Twine(r.stages) +
                   " GPUs among the devices, got " + Twine(r.replicaGpus.size()));
    return llvm::Error::success();
  }

  llvm::Error parsePins(PlacementRequest &r) {
    for (const std::string &pin : pins) {
      size_t eq = StringRef(pin).rfind('=');
      if (eq == std::string::npos || eq == 0)
        return error("--pin expects REGEX=DEVICE, got '" + pin + "'");
      PatternPin parsed;
      parsed.text = pin;
      parsed.regex = std::make_unique<llvm::Regex>(pin.substr(0, eq));
      std::string message;
      if (!parsed.regex->isValid(message))
        return error("--pin='" + pin + "': invalid regex: " + message);
      auto device = parseDeviceId(StringRef(pin).drop_front(eq + 1));
      if (!device)
        return error("--pin='" + pin + "': " + llvm::toString(device.takeError()));
      parsed.device = *device;
      r.patternPins.push_back(std::move(parsed));
    }
    return llvm::Error::success();
  }

  llvm::Expected<PlacementRequest> parseRequest() {
    PlacementRequest r;
    llvm::Expected<std::vector<DeviceId>> ids = parseDevices();
    if (!ids)
      return ids.takeError();
    llvm::Expected<DeviceSpec> spec = resolveSpec(*ids);
    if (!spec)
      return spec.takeError();
    r.spec = std::move(*spec);
    for (const DeviceId &id : *ids)
      r.allowed.push_back(r.spec.find(id));
    if (llvm::Error e = parsePolicy(r, *ids))
      return std::move(e);
    if (!placementFrom.empty()) {
      auto loaded = loadDump(placementFrom);
      if (!loaded)
        return loaded.takeError();
      r.dumpIn = std::move(*loaded);
    }
    if (llvm::Error e = parsePins(r))
      return std::move(e);
    return r;
  }

  LogicalResult placeFunction(func::FuncOp func, const PlacementRequest &r) {
    llvm::DenseMap<Operation *, Forced> forced;
    if (r.policy == Policy::DataParallel) {
      llvm::DenseMap<Operation *, int> replicaOf;
      if (failed(splitBatch(func, r.stages, "--placement=" + policy, replicaOf)))
        return failure();
      for (auto [op, replica] : replicaOf)
        forced[op] = Forced{replica < 0 ? 0 : r.replicaGpus[replica], Reason::Default,
                            false, ""};
    }
    if (r.dumpIn && failed(applyDump(func, *r.dumpIn, r.spec, r.allowed, forced)))
      return failure();
    FunctionPlacer placer(func, r.spec, r.allowed, r.policy, r.stages, r.patternPins,
                          fallback == "error", &forced);
    if (failed(placer.run()))
      return failure();
    func->setAttr(::dlc::attrs::kPlacement,
                  StringAttr::get(&getContext(), r.dumpIn ? std::string("placement-from") : policy));
    return reportFunction(func, r.spec);
  }

  /// The placement's report: checked against each device's memory, printed
  /// or dumped when asked.
  LogicalResult reportFunction(func::FuncOp func, const DeviceSpec &spec) {
    FailureOr<PlacementReport> report = buildPlacementReport(func, spec);
    if (failed(report))
      return failure();
    for (const PlacementReport::Device &device : report->devices)
      if (device.peakMemoryBytes > device.capacityBytes)
        return func.emitError() << "internal error: the placement needs "
                                << device.peakMemoryBytes << " bytes of memory on "
                                << device.name << ", more than its " << device.capacityBytes;
    if (print)
      writePlacementText(*report, llvm::errs());
    if (!dump.empty())
      if (llvm::Error error = writePlacementFile(*report, dump))
        return getOperation().emitError() << llvm::toString(std::move(error));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<PlacementRequest> request = parseRequest();
    if (!request) {
      module.emitError() << llvm::toString(request.takeError());
      return signalPassFailure();
    }
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(placeFunction(func, *request)))
        return signalPassFailure();
    recordDeviceSpec(module, request->spec);
  }
};

} // namespace

std::unique_ptr<mlir::Pass>
dlc::createPlaceDevices(const PlaceDevicesOptions &options,
                        std::shared_ptr<const DeviceSpec> loadedSpec) {
  auto pass = std::make_unique<PlaceDevicesPass>(options);
  pass->loadedSpec = std::move(loadedSpec);
  return pass;
}
