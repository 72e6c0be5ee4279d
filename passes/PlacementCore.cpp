//===- PlacementCore.cpp - placement algorithms on a plain graph ----------===//
//
// Max load (their throughput-dp/dp.cpp): CPU = sum cpuTime; accelerator d =
// sum accTime + outCost(u) for every u on d whose output leaves d and every u
// elsewhere whose output enters d.
//
// No MLIR here. dlc-place uses all of it; the paper's latency scorer, its
// greedy baseline and dlc's latency placer for that model, reached only from
// the benchmark, live beside it (test/bench/placement/PaperLatency.cpp) and
// build on the parts PlacementCoreDetail.h exports.
//
//===----------------------------------------------------------------------===//

#include "passes/PlacementCore.h"
#include "passes/PlacementCoreDetail.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <unordered_map>

namespace dlc::placement {
namespace detail {

void dedupe(std::vector<int> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

/// Kahn's algorithm; `pickLast` pops the most recently freed node first (the
/// depth-first flavour of the paper's code), else the smallest index.
std::vector<int> topoOrder(const std::vector<std::vector<int>> &succ,
                           const std::vector<std::vector<int>> &pred, bool depthFirst) {
  size_t n = succ.size();
  std::vector<int> waiting(n), order;
  std::vector<int> stack;
  std::priority_queue<int, std::vector<int>, std::greater<int>> heap;
  for (size_t v = 0; v < n; ++v) {
    waiting[v] = pred[v].size();
    if (!waiting[v])
      depthFirst ? stack.push_back(v) : heap.push(v);
  }
  while (depthFirst ? !stack.empty() : !heap.empty()) {
    int v;
    if (depthFirst) {
      v = stack.back();
      stack.pop_back();
    } else {
      v = heap.top();
      heap.pop();
    }
    order.push_back(v);
    for (int s : succ[v])
      if (--waiting[s] == 0)
        depthFirst ? stack.push_back(s) : heap.push(s);
  }
  return order;
}

/// A topological order that takes, among the ready nodes, the one of highest
/// `priority` (ties: smallest index).
std::vector<int> topoOrderBy(const std::vector<std::vector<int>> &succ,
                             const std::vector<std::vector<int>> &pred,
                             const std::vector<double> &priority) {
  size_t n = succ.size();
  std::vector<int> waiting(n), order;
  auto lower = [&](int a, int b) {
    return priority[a] != priority[b] ? priority[a] < priority[b] : a > b;
  };
  std::priority_queue<int, std::vector<int>, decltype(lower)> heap(lower);
  for (size_t v = 0; v < n; ++v)
    if (!(waiting[v] = pred[v].size()))
      heap.push(v);
  while (!heap.empty()) {
    int v = heap.top();
    heap.pop();
    order.push_back(v);
    for (int s : succ[v])
      if (--waiting[s] == 0)
        heap.push(s);
  }
  return order;
}

} // namespace detail
using namespace detail;

bool Graph::finalize(std::string &error) {
  size_t n = nodes.size();
  succ.assign(n, {});
  pred.assign(n, {});
  for (auto [s, d] : edges) {
    if (s < 0 || d < 0 || s >= (int)n || d >= (int)n) {
      error = "an edge names a node that does not exist";
      return false;
    }
    if (s == d) {
      error = "node " + std::to_string(nodes[s].id) + " has an edge to itself";
      return false;
    }
    succ[s].push_back(d);
    pred[d].push_back(s);
  }
  for (size_t v = 0; v < n; ++v) {
    dedupe(succ[v]);
    dedupe(pred[v]);
  }
  topo = topoOrder(succ, pred, false);
  if (topo.size() != n) {
    error = "the edges form a cycle";
    return false;
  }
  return true;
}

std::string checkAssignment(const Graph &g, const Assignment &a) {
  if (a.size() != g.nodes.size())
    return "the assignment has " + std::to_string(a.size()) + " entries for " +
           std::to_string(g.nodes.size()) + " nodes";
  std::vector<double> used(g.accelerators + 1, 0);
  std::unordered_map<int64_t, int> deviceOfClass;
  for (size_t v = 0; v < a.size(); ++v) {
    const Node &node = g.nodes[v];
    std::string name = "node " + std::to_string(node.id);
    if (a[v] < 0 || a[v] > g.accelerators)
      return name + " is on device " + std::to_string(a[v]) + ", not 0..." +
             std::to_string(g.accelerators);
    if (a[v] > 0 && !node.accOk)
      return name + " is on accelerator " + std::to_string(a[v]) + ", which cannot run it";
    auto [it, fresh] = deviceOfClass.try_emplace(node.colorClass, a[v]);
    if (!fresh && it->second != a[v])
      return name + " is on device " + std::to_string(a[v]) + ", away from colour class " +
             std::to_string(node.colorClass) + " on device " + std::to_string(it->second);
    used[a[v]] += node.size;
  }
  for (int d = 1; d <= g.accelerators; ++d)
    if (used[d] > g.accMemory * (1 + 1e-12))
      return "accelerator " + std::to_string(d) + " holds " + std::to_string(used[d]) +
             " bytes, more than its " + std::to_string(g.accMemory);
  return "";
}

namespace {
std::vector<double> loads(const Graph &g, const Assignment &a) {
  std::vector<double> load(g.accelerators + 1, 0);
  std::vector<int> stamp(g.accelerators + 1, -1);
  for (size_t u = 0; u < g.nodes.size(); ++u) {
    load[a[u]] += a[u] == 0 ? g.nodes[u].cpuTime : g.nodes[u].accTime;
    bool leaves = false;
    for (int v : g.succ[u]) {
      int d = a[v];
      if (d == a[u])
        continue;
      leaves = true;
      if (d > 0 && stamp[d] != (int)u) {
        stamp[d] = u;
        load[d] += g.nodes[u].outCost;
      }
    }
    if (leaves && a[u] > 0)
      load[a[u]] += g.nodes[u].outCost;
  }
  return load;
}
} // namespace

double maxLoad(const Graph &g, const Assignment &a) {
  std::vector<double> load = loads(g, a);
  return *std::max_element(load.begin(), load.end());
}

bool isContiguousSplit(const Graph &g, const Assignment &a) {
  int k = g.accelerators + 1;
  std::vector<std::vector<int>> succ(k), pred(k);
  for (auto [u, v] : g.edges)
    if (a[u] != a[v])
      succ[a[u]].push_back(a[v]);
  for (int d = 0; d < k; ++d) {
    dedupe(succ[d]);
    for (int e : succ[d])
      pred[e].push_back(d);
  }
  return (int)topoOrder(succ, pred, false).size() == k;
}

Blocks makeBlocks(const Graph &g) {
  size_t n = g.nodes.size();
  // Colour classes, numbered by first appearance.
  std::unordered_map<int64_t, int> classIndex;
  std::vector<int> classOf(n);
  for (size_t v = 0; v < n; ++v)
    classOf[v] = classIndex.try_emplace(g.nodes[v].colorClass, classIndex.size())
                     .first->second;
  int classes = classIndex.size();
  std::vector<std::vector<int>> csucc(classes);
  for (auto [u, v] : g.edges)
    if (classOf[u] != classOf[v])
      csucc[classOf[u]].push_back(classOf[v]);
  for (auto &s : csucc)
    dedupe(s);

  // Strongly connected components of the class graph (iterative Tarjan),
  // renumbered by first appearance.
  std::vector<int> index(classes, -1), low(classes), comp(classes, -1), stack;
  std::vector<char> onStack(classes, 0);
  int counter = 0, comps = 0;
  for (int root = 0; root < classes; ++root) {
    if (index[root] >= 0)
      continue;
    std::vector<std::pair<int, size_t>> frames{{root, 0}};
    index[root] = low[root] = counter++;
    stack.push_back(root);
    onStack[root] = 1;
    while (!frames.empty()) {
      auto &[v, next] = frames.back();
      if (next < csucc[v].size()) {
        int w = csucc[v][next++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          onStack[w] = 1;
          frames.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        int w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[w] = 0;
          comp[w] = comps;
        } while (w != v);
        ++comps;
      }
      int done = v;
      frames.pop_back();
      if (!frames.empty())
        low[frames.back().first] = std::min(low[frames.back().first], low[done]);
    }
  }
  Blocks b;
  std::vector<int> renumber(comps, -1);
  int blocks = 0;
  b.blockOf.resize(n);
  for (size_t v = 0; v < n; ++v) {
    int c = comp[classOf[v]];
    if (renumber[c] < 0)
      renumber[c] = blocks++;
    b.blockOf[v] = renumber[c];
  }
  b.members.assign(blocks, {});
  b.cpuTime.assign(blocks, 0);
  b.accTime.assign(blocks, 0);
  b.size.assign(blocks, 0);
  b.accOk.assign(blocks, true);
  b.succ.assign(blocks, {});
  b.pred.assign(blocks, {});
  for (size_t v = 0; v < n; ++v) {
    int x = b.blockOf[v];
    b.members[x].push_back(v);
    b.cpuTime[x] += g.nodes[v].cpuTime;
    b.accTime[x] += g.nodes[v].accTime;
    b.size[x] += g.nodes[v].size;
    b.accOk[x] = b.accOk[x] && g.nodes[v].accOk;
  }
  for (auto [u, v] : g.edges)
    if (b.blockOf[u] != b.blockOf[v])
      b.succ[b.blockOf[u]].push_back(b.blockOf[v]);
  for (int x = 0; x < blocks; ++x) {
    dedupe(b.succ[x]);
    for (int y : b.succ[x])
      b.pred[y].push_back(x);
  }
  return b;
}

namespace detail {

Assignment expand(const Blocks &b, const std::vector<int> &blockDevice) {
  Assignment a(b.blockOf.size());
  for (size_t v = 0; v < a.size(); ++v)
    a[v] = blockDevice[b.blockOf[v]];
  return a;
}

bool fitsAcc(const Graph &g, const Blocks &b, int x) {
  return b.accOk[x] && b.size[x] <= g.accMemory;
}

Intervals intervalCosts(const Graph &g, const Blocks &b, const std::vector<int> &order) {
  size_t m = order.size(), n = g.nodes.size();
  Intervals iv;
  iv.cpuPrefix.assign(m + 1, 0);
  for (size_t i = 0; i < m; ++i)
    iv.cpuPrefix[i + 1] = iv.cpuPrefix[i] + b.cpuTime[order[i]];
  iv.acc.assign(m, {});
  std::vector<char> inside(n, 0);
  std::vector<int> succInside(n, 0);
  std::vector<char> counted(n, 0);
  for (size_t i = 0; i < m; ++i) {
    std::fill(inside.begin(), inside.end(), 0);
    std::fill(succInside.begin(), succInside.end(), 0);
    std::fill(counted.begin(), counted.end(), 0);
    double comm = 0, time = 0, size = 0;
    bool ok = true;
    // A node pays when its output crosses the set's boundary either way.
    auto update = [&](int u) {
      bool pays = inside[u] ? succInside[u] < (int)g.succ[u].size() : succInside[u] > 0;
      if (pays != (bool)counted[u]) {
        comm += pays ? g.nodes[u].outCost : -g.nodes[u].outCost;
        counted[u] = pays;
      }
    };
    for (size_t l = i; l < m; ++l) {
      int x = order[l];
      ok = ok && b.accOk[x];
      size += b.size[x];
      time += b.accTime[x];
      for (int v : b.members[x]) {
        inside[v] = 1;
        for (int u : g.pred[v]) {
          ++succInside[u];
          update(u);
        }
        update(v);
      }
      if (!ok || size > g.accMemory)
        break; // larger intervals only grow: intervalAcc says infinity

      iv.acc[i].push_back(time + std::max(0.0, comm));
    }
  }
  return iv;
}

double intervalAcc(const Intervals &iv, size_t i, size_t l) {
  return l - i < iv.acc[i].size() ? iv.acc[i][l - i] : kInf;
}

/// Min max-load split of `order` into consecutive runs: up to k on
/// accelerators, up to one on the CPU (the CPU is one device here).
std::vector<int> pipelineDp(const Graph &g, const Blocks &b, const std::vector<int> &order,
                            bool useCpu, double *value) {
  size_t m = order.size();
  int k = g.accelerators;
  Intervals iv = intervalCosts(g, b, order);
  // f[c][j][i]: best max-load covering order[0..i) with j accelerators and c
  // CPU runs used.
  auto idx = [&](int c, int j, size_t i) { return (c * (k + 1) + j) * (m + 1) + i; };
  std::vector<double> f(2 * (k + 1) * (m + 1), kInf);
  std::vector<int> from(f.size(), -1);
  std::vector<char> onCpu(f.size(), 0);
  f[idx(0, 0, 0)] = 0;
  for (size_t i = 0; i < m; ++i)
    for (int c = 0; c < 2; ++c)
      for (int j = 0; j <= k; ++j) {
        double here = f[idx(c, j, i)];
        if (std::isinf(here))
          continue;
        for (size_t l = i; l < m; ++l) {
          if (j < k) {
            double v = std::max(here, intervalAcc(iv, i, l));
            if (v < f[idx(c, j + 1, l + 1)]) {
              f[idx(c, j + 1, l + 1)] = v;
              from[idx(c, j + 1, l + 1)] = i;
              onCpu[idx(c, j + 1, l + 1)] = 0;
            }
          }
          if (c == 0 && useCpu) {
            double v = std::max(here, iv.cpuPrefix[l + 1] - iv.cpuPrefix[i]);
            if (v < f[idx(1, j, l + 1)]) {
              f[idx(1, j, l + 1)] = v;
              from[idx(1, j, l + 1)] = i;
              onCpu[idx(1, j, l + 1)] = 1;
            }
          }
        }
      }
  double best = kInf;
  int bc = 0, bj = 0;
  for (int c = 0; c < 2; ++c)
    for (int j = 0; j <= k; ++j)
      if (f[idx(c, j, m)] < best) {
        best = f[idx(c, j, m)];
        bc = c;
        bj = j;
      }
  *value = best;
  std::vector<int> device(b.members.size(), 0);
  if (std::isinf(best))
    return {};
  size_t i = m;
  int c = bc, j = bj;
  // Accelerators are numbered along the order (stage 1 first).
  std::vector<std::pair<std::pair<size_t, size_t>, bool>> runs;
  while (i > 0) {
    size_t at = idx(c, j, i);
    bool cpu = onCpu[at];
    int start = from[at];
    runs.push_back({{(size_t)start, i}, cpu});
    if (cpu)
      c = 0;
    else
      --j;
    i = start;
  }
  std::reverse(runs.begin(), runs.end());
  int acc = 0;
  for (auto &[range, cpu] : runs) {
    int d = cpu ? 0 : ++acc;
    for (size_t p = range.first; p < range.second; ++p)
      device[order[p]] = d;
  }
  return device;
}

/// Several topological orders of the blocks: depth-first, smallest index,
/// longest remaining path first, and random tie-breaks.
std::vector<std::vector<int>> candidateOrders(const Blocks &b, int randomOrders) {
  std::vector<std::vector<int>> orders;
  orders.push_back(topoOrder(b.succ, b.pred, true));
  orders.push_back(topoOrder(b.succ, b.pred, false));
  size_t m = b.members.size();
  std::vector<double> tail(m, 0);
  std::vector<int> rev = orders[1];
  for (auto it = rev.rbegin(); it != rev.rend(); ++it) {
    double t = 0;
    for (int s : b.succ[*it])
      t = std::max(t, tail[s]);
    tail[*it] = t + b.accTime[*it];
  }
  orders.push_back(topoOrderBy(b.succ, b.pred, tail));
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> uniform(0, 1);
  for (int r = 0; r < randomOrders; ++r) {
    std::vector<double> priority(m);
    for (double &p : priority)
      p = uniform(rng);
    orders.push_back(topoOrderBy(b.succ, b.pred, priority));
  }
  return orders;
}

using Clock = std::chrono::steady_clock;

/// First-improvement local search over block moves (and, for latency, swaps
/// of a block with a neighbour's) under `objective`, keeping every
/// constraint; stops at a local optimum or after `budget`.
int refine(const Graph &g, const Blocks &b, std::vector<int> &device,
           const std::function<double(const Assignment &)> &objective, bool swaps,
           bool contiguous, bool useCpu, std::chrono::milliseconds budget) {
  size_t m = b.members.size();
  int k = g.accelerators, steps = 0;
  std::vector<double> memory(k + 1, 0);
  for (size_t x = 0; x < m; ++x)
    memory[device[x]] += b.size[x];
  Assignment a = expand(b, device);
  double current = objective(a);
  auto deadline = Clock::now() + budget;
  auto set = [&](int x, int d) {
    memory[device[x]] -= b.size[x];
    memory[d] += b.size[x];
    device[x] = d;
    for (int v : b.members[x])
      a[v] = d;
  };
  auto allowed = [&](int x, int d) {
    return d == 0 ? useCpu : b.accOk[x] && memory[d] + b.size[x] <= g.accMemory;
  };
  auto accept = [&]() {
    if (contiguous && !isContiguousSplit(g, a))
      return false;
    double value = objective(a);
    if (value < current * (1 - 1e-12)) {
      current = value;
      return true;
    }
    return false;
  };
  bool improved = true;
  while (improved && Clock::now() < deadline) {
    improved = false;
    for (size_t x = 0; x < m && Clock::now() < deadline; ++x) {
      int from = device[x];
      for (int d = 0; d <= k; ++d) {
        if (d == from || !allowed(x, d))
          continue;
        set(x, d);
        if (accept()) {
          improved = true;
          ++steps;
          break;
        }
        set(x, from);
      }
      if (!swaps || device[x] != from)
        continue;
      // Swap with a neighbouring block on another device: moves that memory
      // alone forbids.
      std::vector<int> near(b.succ[x]);
      near.insert(near.end(), b.pred[x].begin(), b.pred[x].end());
      for (int y : near) {
        int dy = device[y];
        if (dy == from)
          continue;
        set(x, dy);
        set(y, from);
        bool fits = (dy == 0 || (b.accOk[x] && memory[dy] <= g.accMemory)) &&
                    (from == 0 || (b.accOk[y] && memory[from] <= g.accMemory));
        if (fits && accept()) {
          improved = true;
          ++steps;
          break;
        }
        set(y, dy);
        set(x, from);
      }
    }
  }
  return steps;
}

} // namespace detail
using namespace detail;

Assignment placePipeline(const Graph &g, const Blocks &b, Stats *stats, bool useCpu) {
  double best = kInf;
  std::vector<int> device;
  for (const auto &order : candidateOrders(b, 8)) {
    double value;
    std::vector<int> d = pipelineDp(g, b, order, useCpu, &value);
    if (!d.empty() && value < best) {
      best = value;
      device = std::move(d);
    }
  }
  if (device.empty())
    return {};
  if (stats) {
    stats->seed = "contiguous-split DP";
    stats->seedObjective = best;
  }
  // Lexicographic: the max load, then the sum of squared loads, so that
  // moves off a non-critical device count as progress.
  auto objective = [&](const Assignment &a) {
    std::vector<double> load = loads(g, a);
    double top = *std::max_element(load.begin(), load.end()), squares = 0;
    for (double l : load)
      squares += l * l;
    return top + (top > 0 ? 1e-7 * squares / top : 0);
  };
  int steps =
      refine(g, b, device, objective, false, true, useCpu, std::chrono::milliseconds(1000));
  if (stats)
    stats->improvingSteps = steps;
  return expand(b, device);
}

double makespan(const TimedGraph &g, const std::vector<int> &device) {
  std::vector<double> finish(g.time.size(), 0), avail(g.devices, 0);
  auto transfer = [&](int from, int to, double bytes) {
    return from == to ? 0 : g.latencyUs[from][to] + bytes * g.usPerByte[from][to];
  };
  double end = 0;
  for (int v : g.order) {
    int d = device[v];
    double ready = g.argumentBytes[v] > 0 ? transfer(0, d, g.argumentBytes[v]) : 0;
    for (int u : g.pred[v])
      ready = std::max(ready, finish[u] + transfer(device[u], d, g.bytes[u]));
    finish[v] = std::max(avail[d], ready) + g.time[v][d];
    avail[d] = finish[v];
    end = std::max(end, finish[v] + (g.returned[v] ? transfer(d, 0, g.bytes[v]) : 0));
  }
  return end;
}

int refineMakespan(const TimedGraph &g, const std::vector<std::vector<int>> &options,
                   std::vector<int> &device, double budgetMs) {
  auto deadline = Clock::now() + std::chrono::microseconds((int64_t)(budgetMs * 1000));
  double current = makespan(g, device);
  int steps = 0;
  bool improved = true;
  while (improved && Clock::now() < deadline) {
    improved = false;
    for (int v : g.order) {
      if (Clock::now() >= deadline)
        break;
      int from = device[v];
      for (int d : options[v]) {
        if (d == from || std::isinf(g.time[v][d]))
          continue;
        device[v] = d;
        double value = makespan(g, device);
        if (value < current * (1 - 1e-9)) {
          current = value;
          from = d;
          improved = true;
          ++steps;
        }
        device[v] = from;
      }
    }
  }
  return steps;
}

} // namespace dlc::placement
