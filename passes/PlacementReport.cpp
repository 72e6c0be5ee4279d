//===- PlacementReport.cpp - simulate one run of a placed function --------===//

#include "passes/PlacementReport.h"

#include "passes/CostModel.h"
#include "passes/TargetBackend.h"

#include "dialects/dlc/DlcOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace mlir;
using namespace dlc;

namespace {

/// Follows copies back to the value they move.
Value origin(Value value) {
  while (auto copy = value.getDefiningOp<CopyOp>())
    value = copy.getInput();
  return value;
}

/// The bytes the placement of casts saved on the copy of `value` to
/// `device`: an f16 value cast from f32 before the copy, or widened after it,
/// saves the difference; a value copied once and cast narrower on `device`
/// (it is read there in both types) saves the narrow copy it did not send.
int64_t savedBytes(Value value, DeviceAttr device) {
  int64_t bytes = valueBytes(value);
  if (auto cast = value.getDefiningOp<CastOp>())
    if (valueBytes(cast.getInput()) > bytes)
      return valueBytes(cast.getInput()) - bytes;
  llvm::SmallVector<Operation *> there; // value's readers on `device`
  for (Operation *user : value.getUsers()) {
    if (auto copy = dyn_cast<CopyOp>(user); copy && copy.getDeviceAttr() == device)
      there.append(copy->user_begin(), copy->user_end());
    else if (getDevicePin(user) == device)
      there.push_back(user);
  }
  for (Operation *user : there)
    if (auto cast = dyn_cast<CastOp>(user); cast && getDevicePin(cast) == device) {
      int64_t other = valueBytes(cast.getResult());
      return other > bytes ? other - bytes : other;
    }
  return 0;
}

struct Buffer {
  int device;
  int64_t bytes, alloc, free;
};

} // namespace

FailureOr<PlacementReport> dlc::buildPlacementReport(func::FuncOp func,
                                                     const DeviceSpec &spec) {
  PlacementReport report;
  report.function = func.getSymName().str();
  if (auto policy = func->getAttrOfType<StringAttr>(::dlc::attrs::kPlacement))
    report.policy = policy.getValue().str();
  if (auto batch = func->getAttrOfType<StringAttr>(::dlc::attrs::kSymbolicBatch)) {
    report.batchName = batch.str();
    if (func.getNumArguments())
      if (auto type = dyn_cast<RankedTensorType>(func.getArgument(0).getType()); type && type.getRank())
        report.batchEstimatedAt = type.getDimSize(0);
  }
  Block &block = func.getBody().front();
  size_t deviceCount = spec.devices.size();

  // Devices and names of every op; the ops that run, in dlc.order.
  llvm::DenseMap<Operation *, int> deviceOf;
  llvm::DenseMap<Operation *, std::string> nameOf;
  std::vector<Operation *> events;
  std::vector<int64_t> weights(deviceCount);
  for (auto [index, op] : llvm::enumerate(block.without_terminator())) {
    nameOf[&op] = opName(&op, index);
    DeviceAttr attr = getDevicePin(&op);
    if (!attr)
      return op.emitError() << "op '" << nameOf[&op]
                            << "' has no device: run dlc-place first";
    int device = spec.find(DeviceId{attr.getKind().str(), attr.getIndex()});
    if (device < 0)
      return op.emitError() << "op '" << nameOf[&op] << "' is on " << attr.str()
                            << ", which is not among the devices (" << spec.names() << ")";
    deviceOf[&op] = device;
    if (isa<ConstantOp>(op))
      weights[device] += valueBytes(op.getResult(0));
    else if (!isa<CopyOp>(op))
      events.push_back(&op);
  }
  auto orderOf = [&](Operation *op) -> int64_t {
    if (auto order = op->getAttrOfType<IntegerAttr>(::dlc::attrs::kOrder))
      return order.getInt();
    return std::numeric_limits<int64_t>::max();
  };
  std::stable_sort(events.begin(), events.end(), [&](Operation *a, Operation *b) {
    return orderOf(a) < orderOf(b);
  });

  auto homeOf = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def ? deviceOf.lookup(def) : 0;
  };
  auto valueName = [&](Value value) -> std::string {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), ::dlc::attrs::kName))
        return name.str();
      return "arg" + std::to_string(arg.getArgNumber());
    }
    Operation *def = value.getDefiningOp();
    std::string name = nameOf.lookup(def);
    if (def->getNumResults() > 1)
      name += "#" + std::to_string(cast<OpResult>(value).getResultNumber());
    return name;
  };
  for (BlockArgument arg : func.getArguments())
    report.inputs.push_back(valueName(arg));

  // One run, each device in dlc.order.
  llvm::DenseMap<Value, double> finish;
  llvm::DenseMap<Value, std::string> node;
  for (auto [i, arg] : llvm::enumerate(func.getArguments()))
    node[arg] = "a" + std::to_string(i);
  std::vector<double> avail(deviceCount);
  std::vector<Buffer> buffers;
  llvm::DenseMap<std::pair<Value, int>, unsigned> bufferOf, copyOf;
  auto homeBuffer = [&](Value value, int64_t at) {
    auto key = std::make_pair(value, homeOf(value));
    auto it = bufferOf.find(key);
    if (it != bufferOf.end())
      return it->second;
    buffers.push_back({key.second, valueBytes(value), at, at});
    return bufferOf[key] = buffers.size() - 1;
  };
  for (BlockArgument arg : func.getArguments())
    homeBuffer(arg, 0);
  // Reads `value` on `device` at step `at`: where it lives, or through the
  // one copy per (value, device). Returns when it is there.
  llvm::StringSet<> copyEdges; // "c<copy> <consumer>" already in report.edges
  auto read = [&](Value value, int device, int64_t at, const std::string &consumer) {
    value = origin(value);
    int home = homeOf(value);
    bool weight = value.getDefiningOp<ConstantOp>() != nullptr;
    if (!weight) {
      Buffer &source = buffers[homeBuffer(value, at)];
      source.free = std::max(source.free, at);
    }
    std::string from = node.count(value) ? node[value] : "";
    if (home == device) {
      if (!from.empty())
        report.edges.push_back({from, consumer});
      return finish.lookup(value);
    }
    auto key = std::make_pair(value, device);
    auto it = copyOf.find(key);
    if (it == copyOf.end()) {
      PlacementReport::Copy copy;
      copy.value = valueName(value);
      copy.from = spec.devices[home].id.str();
      copy.to = spec.devices[device].id.str();
      copy.bytes = valueBytes(value);
      DeviceAttr to = DeviceAttr::get(func.getContext(), spec.devices[device].id.kind,
                                      spec.devices[device].id.index);
      copy.bytesSaved = savedBytes(value, to);
      report.bytesMoved += copy.bytes;
      report.bytesSaved += copy.bytesSaved;
      copy.estimatedUs = transferUs(copy.bytes, spec.links[home][device]);
      report.copies.push_back(copy);
      it = copyOf.insert({key, report.copies.size() - 1}).first;
      buffers.push_back({device, copy.bytes, at, at});
      bufferOf[key] = buffers.size() - 1;
      if (!from.empty())
        report.edges.push_back({from, "c" + std::to_string(it->second)});
    }
    Buffer &copyBuffer = buffers[bufferOf[key]];
    copyBuffer.free = std::max(copyBuffer.free, at);
    std::string copyNode = "c" + std::to_string(it->second);
    // Once per (copy, consumer); a set, not a scan of the edges (quadratic on
    // 100k-op graphs).
    if (copyEdges.insert(copyNode + " " + consumer).second)
      report.edges.push_back({copyNode, consumer});
    return finish.lookup(value) + report.copies[it->second].estimatedUs;
  };

  for (auto [i, op] : llvm::enumerate(events)) {
    int device = deviceOf[op];
    PlacementReport::Op entry;
    entry.name = nameOf[op];
    entry.op = op->getName().getStringRef().str();
    entry.device = spec.devices[device].id.str();
    if (auto reason = op->getAttrOfType<StringAttr>(::dlc::attrs::kReason))
      entry.reason = reason.str();
    entry.order = i;
    if (op->getNumResults())
      if (auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType())) {
        llvm::raw_string_ostream os(entry.precision);
        os << type.getElementType();
      }
    entry.estimatedUs = opTimeUs(op, spec.devices[device]);
    // A cast right after its value's op on the same device joins that op's
    // kernel (dlc-partition-kernels): no launch of its own.
    if (auto cast = dyn_cast<CastOp>(op))
      if (Operation *def = cast.getInput().getDefiningOp();
          def && !isa<CopyOp, ConstantOp>(def) && deviceOf.lookup(def) == device)
        entry.estimatedUs -= spec.devices[device].launchOverheadUs;
    std::string self = "n" + std::to_string(i);
    double ready = 0;
    llvm::SmallDenseSet<Value, 4> seen;
    for (Value operand : op->getOperands())
      if (seen.insert(origin(operand)).second)
        ready = std::max(ready, read(operand, device, i, self));
    entry.startUs = std::max(avail[device], ready);
    entry.finishUs = entry.startUs + entry.estimatedUs;
    avail[device] = entry.finishUs;
    report.makespanUs = std::max(report.makespanUs, entry.finishUs);
    for (Value result : op->getResults()) {
      finish[result] = entry.finishUs;
      node[result] = self;
      homeBuffer(result, i);
    }
    report.ops.push_back(entry);
  }
  int64_t end = events.size();
  for (Value result : block.getTerminator()->getOperands())
    report.makespanUs = std::max(report.makespanUs, read(result, 0, end, "out"));

  // Per device: ops, busy time, weights plus the peak of live buffers.
  for (const DeviceProfile &profile : spec.devices) {
    PlacementReport::Device device;
    device.name = profile.id.str();
    device.capacityBytes = profile.memoryBytes;
    device.profile = profile.describe();
    report.devices.push_back(device);
  }
  for (auto [i, op] : llvm::enumerate(events)) {
    PlacementReport::Device &device = report.devices[deviceOf[op]];
    ++device.ops;
    device.busyUs += report.ops[i].estimatedUs;
  }
  for (size_t d = 0; d < deviceCount; ++d) {
    std::vector<std::pair<int64_t, int64_t>> deltas; // (step*2 [+1 for frees], bytes)
    for (const Buffer &buffer : buffers)
      if (buffer.device == (int)d) {
        deltas.push_back({2 * buffer.alloc, buffer.bytes});
        deltas.push_back({2 * buffer.free + 1, -buffer.bytes});
      }
    llvm::sort(deltas);
    int64_t live = 0, peak = 0;
    for (auto [at, bytes] : deltas) {
      live += bytes;
      peak = std::max(peak, live);
    }
    report.devices[d].weightBytes = weights[d];
    report.devices[d].peakMemoryBytes = weights[d] + peak;
  }

  // A lower bound: the longest chain and the total work, each op at its
  // fastest device (its own when pinned), communication free.
  llvm::DenseMap<Operation *, double> chain;
  double work = 0, longest = 0;
  for (Operation *op : events) {
    double fastest = std::numeric_limits<double>::infinity();
    auto reason = op->getAttrOfType<StringAttr>(::dlc::attrs::kReason);
    if (reason && reason.getValue() == "pinned")
      fastest = opTimeUs(op, spec.devices[deviceOf[op]]);
    else
      for (const DeviceProfile &device : spec.devices)
        if (deviceRuns(device, op))
          fastest = std::min(fastest, opTimeUs(op, device));
    double start = 0;
    for (Value operand : op->getOperands())
      if (Operation *def = origin(operand).getDefiningOp())
        start = std::max(start, chain.lookup(def));
    chain[op] = start + fastest;
    longest = std::max(longest, chain[op]);
    work += fastest;
  }
  report.lowerBoundUs = std::max(longest, work / deviceCount);
  if (StringRef(report.policy).starts_with("pipeline:")) {
    double period = 0;
    for (const PlacementReport::Device &device : report.devices)
      period = std::max(period, device.busyUs);
    report.periodUs = period;
  }
  return report;
}

void dlc::writePlacementText(const PlacementReport &report, llvm::raw_ostream &os) {
  os << "placement of @" << report.function << " (policy " << report.policy << ")\n";
  if (!report.batchName.empty())
    os << "symbolic batch '" << report.batchName << "': every estimate is at batch "
       << report.batchEstimatedAt << " (the bound)\n";
  os << "  order  device    reason             est_us  prec  op                name\n";
  for (const PlacementReport::Op &op : report.ops)
    os << llvm::format("  %5lld  %-8s  %-11s  %12.3f  %-4s  %-16s  ", (long long)op.order,
                       op.device.c_str(), op.reason.c_str(), op.estimatedUs,
                       op.precision.c_str(), op.op.c_str())
       << op.name << "\n";
  os << "copies: " << report.copies.size() << " (" << report.bytesMoved
     << " bytes moved, " << report.bytesSaved << " saved by where the casts run)\n";
  for (const PlacementReport::Copy &copy : report.copies)
    os << llvm::format("  %-8s -> %-8s  %12lld bytes  %12.3f us  saved %10lld  ",
                       copy.from.c_str(), copy.to.c_str(), (long long)copy.bytes,
                       copy.estimatedUs, (long long)copy.bytesSaved)
       << copy.value << "\n";
  os << "devices:\n";
  for (const PlacementReport::Device &device : report.devices)
    os << llvm::format("  %-8s  %5lld ops  busy %12.3f us  peak %14lld of %14lld bytes\n",
                       device.name.c_str(), (long long)device.ops, device.busyUs,
                       (long long)device.peakMemoryBytes, (long long)device.capacityBytes);
  os << "profiles:\n";
  for (const PlacementReport::Device &device : report.devices)
    os << llvm::format("  %-8s  ", device.name.c_str()) << device.profile << "\n";
  os << llvm::format("estimate: makespan %.3f us, lower bound %.3f us", report.makespanUs,
                     report.lowerBoundUs);
  if (report.periodUs)
    os << llvm::format(", period %.3f us", *report.periodUs);
  os << "\n";
}

void dlc::writePlacementJson(const PlacementReport &report, llvm::raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("schema", "dlc-placement/1");
    json.attribute("function", report.function);
    json.attribute("policy", report.policy);
    if (!report.batchName.empty())
      json.attributeObject("symbolic_batch", [&] {
        json.attribute("name", report.batchName);
        json.attribute("estimated_at", report.batchEstimatedAt);
      });
    json.attributeArray("ops", [&] {
      for (const PlacementReport::Op &op : report.ops)
        json.object([&] {
          json.attribute("name", op.name);
          json.attribute("op", op.op);
          json.attribute("device", op.device);
          json.attribute("reason", op.reason);
          json.attribute("order", op.order);
          json.attribute("estimated_us", op.estimatedUs);
          json.attribute("start_us", op.startUs);
          json.attribute("finish_us", op.finishUs);
          json.attribute("precision", op.precision);
        });
    });
    json.attributeArray("copies", [&] {
      for (const PlacementReport::Copy &copy : report.copies)
        json.object([&] {
          json.attribute("value", copy.value);
          json.attribute("from", copy.from);
          json.attribute("to", copy.to);
          json.attribute("bytes", copy.bytes);
          json.attribute("estimated_us", copy.estimatedUs);
          json.attribute("bytes_saved", copy.bytesSaved);
        });
    });
    json.attributeArray("devices", [&] {
      for (const PlacementReport::Device &device : report.devices)
        json.object([&] {
          json.attribute("name", device.name);
          json.attribute("ops", device.ops);
          json.attribute("busy_us", device.busyUs);
          json.attribute("peak_memory_bytes", device.peakMemoryBytes);
          json.attribute("weight_bytes", device.weightBytes);
          json.attribute("capacity_bytes", device.capacityBytes);
          json.attribute("profile", device.profile);
        });
    });
    json.attributeObject("estimate", [&] {
      json.attribute("makespan_us", report.makespanUs);
      json.attribute("lower_bound_us", report.lowerBoundUs);
      if (report.periodUs)
        json.attribute("period_us", *report.periodUs);
      json.attribute("bytes_moved", report.bytesMoved);
      json.attribute("bytes_saved", report.bytesSaved);
    });
  });
  os << "\n";
}

void dlc::writePlacementDot(const PlacementReport &report, llvm::raw_ostream &os) {
  static const char *const palette[] = {"#d9d9d9", "#8dd3c7", "#fdb462", "#bebada",
                                        "#fb8072", "#80b1d3", "#b3de69", "#fccde5"};
  auto colour = [&](StringRef device) {
    for (auto [i, d] : llvm::enumerate(report.devices))
      if (d.name == device)
        return palette[i % std::size(palette)];
    return palette[0];
  };
  auto quote = [](StringRef text) {
    std::string out;
    for (char c : text)
      out += c == '"' ? std::string("\\\"") : std::string(1, c);
    return out;
  };
  os << "digraph \"" << quote(report.function) << "\" {\n"
     << "  rankdir=TB;\n  node [style=filled, fontname=\"Helvetica\", fontsize=10];\n";
  os << "  subgraph cluster_legend {\n    label=\"devices\";\n";
  for (auto [i, device] : llvm::enumerate(report.devices))
    os << "    legend" << i << " [label=\"" << device.name << "\", shape=box, fillcolor=\""
       << colour(device.name) << "\"];\n";
  os << "  }\n";
  for (auto [i, input] : llvm::enumerate(report.inputs))
    os << "  a" << i << " [label=\"input " << quote(input)
       << "\", shape=invhouse, fillcolor=\"" << colour("cpu") << "\"];\n";
  for (auto [i, op] : llvm::enumerate(report.ops))
    os << "  n" << i << " [label=\"" << quote(op.name) << "\\n" << op.op << " "
       << llvm::format("%.1f", op.estimatedUs) << " us\\n" << op.device << " ("
       << op.reason << ")\", shape=box, fillcolor=\"" << colour(op.device) << "\"];\n";
  for (auto [i, copy] : llvm::enumerate(report.copies))
    os << "  c" << i << " [label=\"copy " << copy.from << " -> " << copy.to << "\\n"
       << copy.bytes << " B, " << llvm::format("%.1f", copy.estimatedUs)
       << " us\", shape=cds, style=\"filled,dashed\", fillcolor=\"" << colour(copy.to)
       << "\"];\n";
  os << "  out [label=\"outputs\", shape=house, fillcolor=\"" << colour("cpu") << "\"];\n";
  for (const auto &[from, to] : report.edges)
    os << "  " << from << " -> " << to << ";\n";
  os << "}\n";
}

llvm::Error dlc::writePlacementFile(const PlacementReport &report, StringRef path) {
  StringRef ext = llvm::sys::path::extension(path);
  if (ext != ".txt" && ext != ".json" && ext != ".dot")
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--dump-placement: '" + path +
                                       "' must end in .txt, .json or .dot");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + path + "': " + ec.message());
  if (ext == ".json")
    writePlacementJson(report, os);
  else if (ext == ".dot")
    writePlacementDot(report, os);
  else
    writePlacementText(report, os);
  return llvm::Error::success();
}
