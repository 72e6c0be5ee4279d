//===- PlacementCore.cpp - placement algorithms on a plain graph ----------===//
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
// Max load (their throughput-dp/dp.cpp): CPU = sum cpuTime; accelerator d =
// sum accTime + outCost(u) for every u on d whose output leaves d and every u
// elsewhere whose output enters d.
//
// No MLIR here: dlc-place and test/bench/PlacementGraphsBench.cpp share it.
//
//===----------------------------------------------------------------------===//

#include "passes/PlacementCore.h"

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
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

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

} // namespace

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

namespace {

Assignment expand(const Blocks &b, const std::vector<int> &blockDevice) {
  Assignment a(b.blockOf.size());
  for (size_t v = 0; v < a.size(); ++v)
    a[v] = blockDevice[b.blockOf[v]];
  return a;
}

bool fitsAcc(const Graph &g, const Blocks &b, int x) {
  return b.accOk[x] && b.size[x] <= g.accMemory;
}

/// Interval costs over a linear order of the blocks: accLoad[i][l] is the
/// max-load (and latency-call) cost of blocks order[i..l] on one accelerator,
/// infinity when they do not fit or cannot run there.
struct Intervals {
  std::vector<std::vector<double>> acc; // [i][l - i]
  std::vector<double> cpuPrefix;
};

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

} // namespace

namespace {
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
