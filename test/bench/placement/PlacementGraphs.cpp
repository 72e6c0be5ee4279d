//===- PlacementGraphs.cpp - the paper's placement JSON files -------------===//

#include "PlacementGraphs.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <limits>
#include <unordered_map>

namespace dlc::placement {

static std::string show(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

llvm::Expected<Graph> parsePlacementGraph(llvm::StringRef text, llvm::StringRef name) {
  auto error = [&](const llvm::Twine &what) {
    return llvm::createStringError(name + ": " + what);
  };
  llvm::Expected<llvm::json::Value> root = llvm::json::parse(text);
  if (!root)
    return error("invalid JSON: " + llvm::toString(root.takeError()));
  const llvm::json::Object *top = root->getAsObject();
  if (!top)
    return error("expected an object with maxSizePerFPGA, maxFPGAs, maxCPUs, nodes, edges");

  // A number >= 0 (integer when asked); booleans read as 0/1 where allowed.
  auto number = [&](const llvm::json::Object &object, llvm::StringRef field,
                    const std::string &where, bool integer, bool optional,
                    double fallback, bool allowBool = false) -> llvm::Expected<double> {
    const llvm::json::Value *value = object.get(field);
    std::string path = where + (where.empty() ? "" : ".") + field.str();
    if (!value) {
      if (optional)
        return fallback;
      return error(path + ": missing field");
    }
    double x;
    if (auto b = value->getAsBoolean(); b && allowBool)
      x = *b;
    else if (auto d = value->getAsNumber())
      x = *d;
    else
      return error(path + ": expected a number");
    if (!std::isfinite(x) || x < 0)
      return error(path + ": must be a non-negative number, got " + show(x));
    if (integer && x != std::floor(x))
      return error(path + ": must be an integer, got " + show(x));
    return x;
  };

  Graph g;
  auto memory = number(*top, "maxSizePerFPGA", "", false, false, 0);
  if (!memory)
    return memory.takeError();
  auto accelerators = number(*top, "maxFPGAs", "", true, false, 0);
  if (!accelerators)
    return accelerators.takeError();
  auto cores = number(*top, "maxCPUs", "", true, false, 0);
  if (!cores)
    return cores.takeError();
  if (*cores < 1)
    return error("maxCPUs: must be at least 1, got 0");
  g.accMemory = *memory;
  g.accelerators = *accelerators;
  g.cpuCores = *cores;

  const llvm::json::Array *nodes = top->getArray("nodes");
  if (!nodes)
    return error("nodes: missing field (an array of nodes)");
  std::unordered_map<int64_t, int> indexOf;
  std::vector<std::pair<int64_t, int64_t>> classes;
  for (auto [i, value] : llvm::enumerate(*nodes)) {
    std::string where = "nodes[" + std::to_string(i) + "]";
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return error(where + ": expected an object");
    Node node;
    auto id = object->getInteger("id");
    if (!id)
      return error(where + ".id: missing field (an integer)");
    node.id = *id;
    if (!indexOf.emplace(node.id, i).second)
      return error(where + ".id: node " + llvm::Twine(node.id) + " appears twice");
    auto supported = number(*object, "supportedOnFpga", where, true, false, 0, true);
    if (!supported)
      return supported.takeError();
    if (*supported > 1)
      return error(where + ".supportedOnFpga: must be 0 or 1");
    node.accOk = *supported == 1;
    for (auto [field, slot] : {std::pair<const char *, double *>{"cpuLatency", &node.cpuTime},
                               {"fpgaLatency", &node.accTime}}) {
      auto x = number(*object, field, where, false, false, 0);
      if (!x)
        return x.takeError();
      *slot = *x;
    }
    auto size = number(*object, "size", where, false, true, 0);
    if (!size)
      return size.takeError();
    node.size = *size;
    auto backward = number(*object, "isBackwardNode", where, true, true, 0, true);
    if (!backward)
      return backward.takeError();
    if (*backward != 0)
      return error(where + ".isBackwardNode: backward (training) nodes are not supported");
    if (const llvm::json::Value *cc = object->get("colorClass")) {
      auto c = cc->getAsInteger();
      if (!c)
        return error(where + ".colorClass: expected an integer");
      classes.push_back({i, *c});
    } else {
      classes.push_back({i, std::numeric_limits<int64_t>::min()});
    }
    g.nodes.push_back(node);
  }
  // Nodes without a class get one of their own: INT32_MIN + 1, + 2, ... in
  // file order, as the paper's code numbers them (its greedy's visiting
  // order, and so its figures, depend on these keys).
  int64_t freshClass = std::numeric_limits<int32_t>::min();
  for (auto [i, c] : classes)
    g.nodes[i].colorClass = c != std::numeric_limits<int64_t>::min() ? c : ++freshClass;

  const llvm::json::Array *edges = top->getArray("edges");
  if (!edges)
    return error("edges: missing field (an array of edges)");
  std::vector<double> outCost(g.nodes.size(), -1);
  for (auto [i, value] : llvm::enumerate(*edges)) {
    std::string where = "edges[" + std::to_string(i) + "]";
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return error(where + ": expected an object");
    int ends[2];
    const char *fields[2] = {"sourceId", "destId"};
    for (int slot = 0; slot < 2; ++slot) {
      const char *field = fields[slot];
      auto id = object->getInteger(field);
      if (!id)
        return error(where + "." + field + ": missing field (an integer)");
      auto it = indexOf.find(*id);
      if (it == indexOf.end())
        return error(where + "." + field + ": no node has id " + llvm::Twine(*id));
      ends[slot] = it->second;
    }
    if (ends[0] == ends[1])
      return error(where + ": an edge from node " + llvm::Twine(g.nodes[ends[0]].id) +
                   " to itself");
    auto cost = number(*object, "cost", where, false, false, 0);
    if (!cost)
      return cost.takeError();
    double &known = outCost[ends[0]];
    if (known >= 0 && std::abs(known - *cost) > 1e-6)
      return error(where + ".cost: node " + llvm::Twine(g.nodes[ends[0]].id) +
                   " has edges of different costs (" + show(known) + " and " +
                   show(*cost) + "); the model needs one cost per source");
    known = *cost;
    g.edges.push_back({ends[0], ends[1]});
  }
  for (size_t v = 0; v < g.nodes.size(); ++v)
    g.nodes[v].outCost = std::max(0.0, outCost[v]);
  std::string why;
  if (!g.finalize(why))
    return error(why);
  return g;
}

llvm::Expected<Graph> readPlacementGraph(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read placement graph '" + path +
                                   "': " + buffer.getError().message());
  return parsePlacementGraph((*buffer)->getBuffer(), path);
}

} // namespace dlc::placement
