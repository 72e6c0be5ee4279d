//===- PaperLatency.cpp - the paper's latency model, its greedy, dlc's placer -===//
//
// Latency (the paper's "call" model, their latency-greedy/greedy.cpp and
// latency-ip/lip.py): an accelerator's contiguous piece P starts when every
// node outside P that feeds it is done, and takes
//     sum_{u outside P feeding P} outCost(u)        (inputs in)
//   + sum_{v in P} accTime(v)                        (compute)
//   + sum_{v in P feeding outside P} outCost(v)      (outputs out);
// every node of P finishes then. A CPU node takes cpuTime after its inputs;
// CPU-side transfers are paid by the accelerator. Latency = last finish.
//
//===----------------------------------------------------------------------===//

#include "PaperLatency.h"
#include "passes/PlacementCoreDetail.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <queue>
#include <unordered_map>

namespace dlc::placement {
using namespace detail;

double latency(const Graph &g, const Assignment &a, int cpuCores) {
  size_t n = g.nodes.size();
  // Contiguous pieces per accelerator (their reworkSplitIntoContiguous):
  // depth[v] = the number of times a path to v enters device d's set.
  std::vector<int> unit(n, -1);
  int units = 0;
  std::vector<int> unitDevice; // -1: a CPU node
  std::vector<int> depth(n);
  std::vector<char> used(g.accelerators + 1, 0);
  for (size_t v = 0; v < n; ++v)
    used[a[v]] = 1;
  std::vector<std::pair<int, int>> chain; // consecutive pieces of a device
  for (int d = 1; d <= g.accelerators; ++d) {
    if (!used[d])
      continue;
    int pieces = 0;
    for (int v : g.topo) {
      int p = a[v] == d ? 1 : 0;
      for (int u : g.pred[v])
        p = std::max(p, depth[u] + (a[v] == d && a[u] != d ? 1 : 0));
      depth[v] = p;
      if (a[v] == d)
        pieces = std::max(pieces, p);
    }
    int first = units;
    for (int p = 0; p < pieces; ++p)
      unitDevice.push_back(d);
    units += pieces;
    for (int p = 1; p < pieces; ++p)
      chain.push_back({first + p - 1, first + p});
    for (size_t v = 0; v < n; ++v)
      if (a[v] == d)
        unit[v] = first + depth[v] - 1;
  }
  for (size_t v = 0; v < n; ++v)
    if (a[v] == 0) {
      unit[v] = units++;
      unitDevice.push_back(-1);
    }

  std::vector<double> work(units, 0);
  std::vector<int> stamp(units, -1);
  std::vector<std::vector<int>> usucc(units);
  std::vector<int> waiting(units, 0);
  for (size_t v = 0; v < n; ++v)
    work[unit[v]] += a[v] == 0 ? g.nodes[v].cpuTime : g.nodes[v].accTime;
  for (size_t u = 0; u < n; ++u) {
    int from = unit[u];
    bool leaves = false;
    for (int v : g.succ[u]) {
      int to = unit[v];
      if (to == from)
        continue;
      leaves = true;
      usucc[from].push_back(to);
      if (unitDevice[to] >= 0 && stamp[to] != (int)u) { // inputs in, once per piece
        stamp[to] = u;
        work[to] += g.nodes[u].outCost;
      }
    }
    if (leaves && unitDevice[from] >= 0)
      work[from] += g.nodes[u].outCost; // outputs out
  }
  for (auto [p, q] : chain)
    usucc[p].push_back(q);
  for (auto &s : usucc) {
    dedupe(s);
    for (int t : s)
      ++waiting[t];
  }

  // Units in order of readiness (non-decreasing), CPU nodes on the earliest
  // free core when cores are counted.
  std::vector<double> ready(units, 0);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  std::priority_queue<double, std::vector<double>, std::greater<double>> cores;
  for (int c = 0; c < cpuCores; ++c)
    cores.push(0);
  for (int u = 0; u < units; ++u)
    if (!waiting[u])
      queue.push({0, u});
  double last = 0;
  int done = 0;
  while (!queue.empty()) {
    auto [r, u] = queue.top();
    queue.pop();
    double start = r;
    if (unitDevice[u] < 0 && cpuCores > 0) {
      start = std::max(r, cores.top());
      cores.pop();
    }
    double finish = start + work[u];
    if (unitDevice[u] < 0 && cpuCores > 0)
      cores.push(finish);
    last = std::max(last, finish);
    ++done;
    for (int t : usucc[u]) {
      ready[t] = std::max(ready[t], finish);
      if (--waiting[t] == 0)
        queue.push({ready[t], t});
    }
  }
  return done == units ? last : kInf;
}

namespace {
/// HEFT in the call model: blocks by upward rank; each to the device of
/// earliest finish where it fits. A transfer costs the producer's outCost; an
/// accelerator is busy while it receives.
std::vector<int> listSchedule(const Graph &g, const Blocks &b) {
  size_t m = b.members.size();
  int k = g.accelerators;
  std::vector<double> out(m, 0);
  for (size_t x = 0; x < m; ++x)
    for (int v : b.members[x])
      for (int s : g.succ[v])
        if (b.blockOf[s] != (int)x) {
          out[x] += g.nodes[v].outCost;
          break;
        }
  std::vector<int> order = topoOrder(b.succ, b.pred, false);
  std::vector<double> rank(m, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    int x = *it;
    double mean = fitsAcc(g, b, x) && k > 0 ? (b.cpuTime[x] + b.accTime[x]) / 2 : b.cpuTime[x];
    double tail = 0;
    for (int s : b.succ[x])
      tail = std::max(tail, out[x] + rank[s]);
    rank[x] = mean + tail;
  }
  std::vector<int> device(m, -1), waiting(m);
  std::vector<double> finish(m, 0), avail(k + 1, 0), memory(k + 1, 0);
  auto lower = [&](int x, int y) { return rank[x] != rank[y] ? rank[x] < rank[y] : x > y; };
  std::priority_queue<int, std::vector<int>, decltype(lower)> ready(lower);
  for (size_t x = 0; x < m; ++x)
    if (!(waiting[x] = b.pred[x].size()))
      ready.push(x);
  while (!ready.empty()) {
    int x = ready.top();
    ready.pop();
    int best = 0;
    double bestFinish = kInf;
    for (int d = 0; d <= k; ++d) {
      if (d > 0 && (!b.accOk[x] || memory[d] + b.size[x] > g.accMemory))
        continue;
      double arrive = 0, receive = 0;
      for (int p : b.pred[x]) {
        bool cross = device[p] != d;
        arrive = std::max(arrive, finish[p] + (cross && device[p] > 0 ? out[p] : 0));
        if (cross && d > 0)
          receive += out[p];
      }
      double f = d == 0 ? arrive + b.cpuTime[x]
                        : std::max(arrive, avail[d]) + receive + b.accTime[x];
      if (f < bestFinish) {
        bestFinish = f;
        best = d;
      }
    }
    device[x] = best;
    finish[x] = bestFinish;
    if (best > 0) {
      avail[best] = bestFinish;
      memory[best] += b.size[x];
    }
    for (int s : b.succ[x])
      if (--waiting[s] == 0)
        ready.push(s);
  }
  return device;
}

/// Latency seed: consecutive runs of a topological order on accelerators,
/// other blocks on the CPU, minimising the sum of the runs' call times and
/// the CPU blocks' times (a chain's latency).
std::vector<int> chainSplit(const Graph &g, const Blocks &b, const std::vector<int> &order) {
  size_t m = order.size();
  int k = g.accelerators;
  Intervals iv = intervalCosts(g, b, order);
  std::vector<double> f((k + 1) * (m + 1), kInf);
  std::vector<int> from(f.size(), -1);
  auto idx = [&](int j, size_t i) { return j * (m + 1) + i; };
  f[idx(0, 0)] = 0;
  for (size_t i = 0; i < m; ++i)
    for (int j = 0; j <= k; ++j) {
      double here = f[idx(j, i)];
      if (std::isinf(here))
        continue;
      double cpu = here + b.cpuTime[order[i]];
      if (cpu < f[idx(j, i + 1)]) {
        f[idx(j, i + 1)] = cpu;
        from[idx(j, i + 1)] = -1 - (int)i; // the CPU took block i
      }
      if (j == k)
        continue;
      for (size_t l = i; l < m; ++l) {
        double v = here + intervalAcc(iv, i, l);
        if (std::isinf(v))
          break;
        if (v < f[idx(j + 1, l + 1)]) {
          f[idx(j + 1, l + 1)] = v;
          from[idx(j + 1, l + 1)] = i;
        }
      }
    }
  int bj = 0;
  for (int j = 0; j <= k; ++j)
    if (f[idx(j, m)] < f[idx(bj, m)])
      bj = j;
  std::vector<int> device(m, 0);
  size_t i = m;
  int j = bj;
  while (i > 0) {
    int start = from[idx(j, i)];
    if (start < 0) {
      device[order[i - 1]] = 0;
      --i;
      continue;
    }
    for (size_t p = start; p < i; ++p)
      device[order[p]] = j;
    --j;
    i = start;
  }
  return device;
}

/// The order the paper's greedy visits blocks in: a depth-first Kahn
/// traversal (pop the most recently freed block) whose sources are seeded in
/// the order a std::unordered_map<int, ...> keyed by colour class, filled in
/// file order, iterates (their containedSubnodes), and whose successors are
/// freed in the file's edge order. Their figures depend on this order, so we
/// visit in the same one.
std::vector<int> greedyOrder(const Graph &g, const Blocks &b) {
  size_t m = b.members.size();
  std::unordered_map<int, int> blockOfKey;
  for (size_t v = 0; v < g.nodes.size(); ++v)
    blockOfKey.try_emplace((int)g.nodes[b.members[b.blockOf[v]].front()].colorClass,
                           b.blockOf[v]);
  std::vector<std::vector<int>> out(m); // successors per edge, in file order
  std::vector<int> waiting(m, 0), stack, order;
  for (auto [u, v] : g.edges)
    if (b.blockOf[u] != b.blockOf[v]) {
      out[b.blockOf[u]].push_back(b.blockOf[v]);
      ++waiting[b.blockOf[v]];
    }
  for (const auto &entry : blockOfKey)
    if (!waiting[entry.second])
      stack.push_back(entry.second);
  while (!stack.empty()) {
    int x = stack.back();
    stack.pop_back();
    order.push_back(x);
    for (int y : out[x])
      if (--waiting[y] == 0)
        stack.push_back(y);
  }
  return order;
}
} // namespace

Assignment greedyLatencyBaseline(const Graph &g, const Blocks &b) {
  std::vector<int> device(b.members.size(), 0);
  int acc = 0;
  double used = 0;
  bool open = false;
  for (int x : greedyOrder(g, b)) {
    if (!fitsAcc(g, b, x))
      continue; // too large for any accelerator (or unsupported): the CPU
    if (!open || used + b.size[x] > g.accMemory) {
      if (acc == g.accelerators) {
        open = false;
        continue; // every accelerator is taken: the CPU
      }
      ++acc;
      used = 0;
      open = true;
    }
    used += b.size[x];
    device[x] = acc;
  }
  return expand(b, device);
}

Assignment placeLatency(const Graph &g, const Blocks &b, Stats *stats) {
  auto objective = [&](const Assignment &a) { return latency(g, a, 0); };
  struct Seed {
    std::string name;
    std::vector<int> device;
  };
  std::vector<Seed> seeds{{"list schedule", listSchedule(g, b)}};
  for (const auto &order : candidateOrders(b, 0))
    seeds.push_back({"chain split", chainSplit(g, b, order)});
  double bestSeed = kInf, best = kInf;
  std::vector<int> result;
  for (Seed &seed : seeds) {
    double before = objective(expand(b, seed.device));
    bestSeed = std::min(bestSeed, before);
    int steps = refine(g, b, seed.device, objective, true, false, true,
                       std::chrono::milliseconds(1000));
    double after = objective(expand(b, seed.device));
    if (after < best) {
      best = after;
      result = seed.device;
      if (stats) {
        stats->seed = seed.name;
        stats->improvingSteps = steps;
      }
    }
  }
  if (stats)
    stats->seedObjective = bestSeed;
  return expand(b, result);
}

} // namespace dlc::placement
