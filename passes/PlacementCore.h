//===- PlacementCore.h - placement algorithms on a plain graph --*- C++ -*-===//
//
// An MLIR-free model of the placement problem of Tarnawski et al., "Efficient
// Algorithms for Device Placement of DNN Graph Operators" (NeurIPS 2020):
// k identical accelerators with a memory each, and a CPU. Every node has a
// time on the CPU and on an accelerator, a size (memory on an accelerator),
// whether an accelerator can run it, and a colocation class; moving a node's
// output between an accelerator and the CPU (or another accelerator) costs
// `outCost`, paid once per node whose output crosses.
//
// The objectives are the paper's (see PlacementCore.cpp for the formulas):
//   - latency of one sample: each accelerator's contiguous piece runs as one
//     call (inputs in, compute, outputs out); CPU nodes run as soon as their
//     inputs are ready, on unboundedly many cores as in the paper, or on
//     `cpuCores` cores when asked;
//   - max load (throughput): the busiest device, accelerators paying for
//     every node whose output crosses into or out of them.
//
// It holds what dlc-place runs: a DP over contiguous splits of topological
// orders plus refinement for throughput (`pipeline:k`), and the makespan
// model and refinement of the `cost` policy. The paper's latency scorer, its
// greedy latency baseline and dlc's latency placer for that model are
// reached only from the benchmark and live beside it
// (test/bench/placement/PaperLatency.h).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_PASSES_PLACEMENTCORE_H
#define DLC_PASSES_PLACEMENTCORE_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dlc::placement {

struct Node {
  int64_t id = 0;        // the input's id (for messages)
  double cpuTime = 0;    // on one CPU core
  double accTime = 0;    // on an accelerator
  double size = 0;       // bytes on an accelerator
  double outCost = 0;    // moving its output between devices
  bool accOk = true;     // an accelerator can run it
  int64_t colorClass = 0; // same class = same device
};

struct Graph {
  std::vector<Node> nodes;
  std::vector<std::pair<int, int>> edges; // node indices, source -> dest
  int accelerators = 0;
  double accMemory = 0;
  int cpuCores = 0; // 0: as many as needed

  /// Fills succ/pred and a topological order; false (with `error` set) when
  /// the edges name nodes out of range, loop, or form a cycle.
  bool finalize(std::string &error);
  std::vector<std::vector<int>> succ, pred; // deduplicated
  std::vector<int> topo;
};

/// device[v] for every node: 0 is the CPU, 1..k the accelerators.
using Assignment = std::vector<int>;

/// Why an assignment is not a placement of the model: a colour class split,
/// a node on an accelerator that cannot run it, memory exceeded, a device
/// index out of range. Empty when valid.
std::string checkAssignment(const Graph &g, const Assignment &a);

/// The paper's max load: CPU = sum of cpu times; accelerator = sum of
/// accelerator times + outCost of every node whose output crosses into or out
/// of it (once per node and device).
double maxLoad(const Graph &g, const Assignment &a);

/// True when the devices' sets form a chain of ideals: the graph of devices
/// (an edge where a node's output goes to another device) is acyclic, so the
/// split runs as a pipeline and each set is contiguous.
bool isContiguousSplit(const Graph &g, const Assignment &a);

/// Colour classes merged, and merged further where classes depend on each
/// other both ways, so that the blocks form a DAG: what every algorithm
/// below moves as one piece.
struct Blocks {
  std::vector<int> blockOf;               // per node
  std::vector<std::vector<int>> members;  // per block, nodes in input order
  std::vector<double> cpuTime, accTime, size;
  std::vector<bool> accOk;
  std::vector<std::vector<int>> succ, pred; // between blocks, deduplicated
};
Blocks makeBlocks(const Graph &g);

struct Stats {
  double seedObjective = 0;  // best seed before refinement
  int improvingSteps = 0;    // accepted moves and swaps
  std::string seed;          // which seed the result came from
};

/// dlc's pipeline placement over the k accelerators and, with `useCpu`, one
/// CPU stage: for several topological orders of the blocks, the exact DP over
/// their contiguous splits minimising the max load; the best then refined by
/// moves that keep the split contiguous. Empty when no split fits.
Assignment placePipeline(const Graph &g, const Blocks &b, Stats *stats = nullptr,
                         bool useCpu = true);

/// dlc-place's own model for `cost`: every op runs alone on its device,
/// devices run their ops in `order`, a value goes once to each other device
/// that reads it (link latency + bytes / bandwidth, links not contended),
/// function arguments start on device 0 and results end there.
struct TimedGraph {
  int devices = 0;
  std::vector<std::vector<double>> time;        // [node][device]; infinity: cannot
  std::vector<std::vector<int>> pred;           // producers among the nodes
  std::vector<double> bytes;                    // each node's results
  std::vector<double> argumentBytes;            // arguments each node reads
  std::vector<char> returned;                   // a result leaves the function
  std::vector<std::vector<double>> latencyUs, usPerByte; // [from][to]
  std::vector<int> order;                       // a topological order
};

/// The simulated end of one run (the last result back on device 0).
double makespan(const TimedGraph &g, const std::vector<int> &device);

/// First-improvement moves of single nodes to one of `options[v]` while the
/// makespan drops, within `budgetMs`. Returns the number of moves kept.
int refineMakespan(const TimedGraph &g, const std::vector<std::vector<int>> &options,
                   std::vector<int> &device, double budgetMs);

} // namespace dlc::placement

#endif // DLC_PASSES_PLACEMENTCORE_H
