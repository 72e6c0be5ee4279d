//===- PlacementCoreDetail.h - the parts the placers are built from -*- C++ -*-===//
//
// What PlacementCore.cpp's placers share, exported for the paper's latency
// algorithms that live beside the benchmark (test/bench/placement/): graph
// orders, block assignments, interval costs over an order, and the local
// search. Not an interface for dlc-place, which calls PlacementCore.h.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_PLACEMENTCOREDETAIL_H
#define DLC_PASSES_PLACEMENTCOREDETAIL_H

#include "passes/PlacementCore.h"

#include <chrono>
#include <functional>
#include <limits>

namespace dlc::placement::detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// Sorts `v` and drops repeats.
void dedupe(std::vector<int> &v);

/// Kahn's algorithm; `depthFirst` pops the most recently freed node first
/// (the depth-first flavour of the paper's code), else the smallest index.
std::vector<int> topoOrder(const std::vector<std::vector<int>> &succ,
                           const std::vector<std::vector<int>> &pred, bool depthFirst);

/// Several topological orders of the blocks: depth-first, smallest index,
/// longest remaining path first, and `randomOrders` random tie-breaks.
std::vector<std::vector<int>> candidateOrders(const Blocks &b, int randomOrders);

/// The node assignment of a block assignment.
Assignment expand(const Blocks &b, const std::vector<int> &blockDevice);

/// Whether block `x` may run on an accelerator: supported and within memory.
bool fitsAcc(const Graph &g, const Blocks &b, int x);

/// Interval costs over a linear order of the blocks: acc[i][l - i] is the
/// max-load (and latency-call) cost of blocks order[i..l] on one accelerator,
/// infinity when they do not fit or cannot run there.
struct Intervals {
  std::vector<std::vector<double>> acc; // [i][l - i]
  std::vector<double> cpuPrefix;
};
Intervals intervalCosts(const Graph &g, const Blocks &b, const std::vector<int> &order);
double intervalAcc(const Intervals &iv, size_t i, size_t l);

/// First-improvement local search over block moves (and, with `swaps`, swaps
/// of a block with a neighbour's) under `objective`, keeping every
/// constraint (`contiguous`: the split stays a pipeline; `useCpu`: blocks may
/// go to the CPU); stops at a local optimum or after `budget`. Returns the
/// number of steps taken.
int refine(const Graph &g, const Blocks &b, std::vector<int> &device,
           const std::function<double(const Assignment &)> &objective, bool swaps,
           bool contiguous, bool useCpu, std::chrono::milliseconds budget);

} // namespace dlc::placement::detail

#endif // DLC_PASSES_PLACEMENTCOREDETAIL_H
