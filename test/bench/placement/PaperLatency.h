//===- PaperLatency.h - the latency model of Tarnawski et al. and its placers -===//
//
// The paper's latency of one sample (its "call" model), its greedy latency
// baseline, and dlc's latency placer for that model: what
// dlc-bench-placement-graphs compares against the published figures. No
// policy of dlc-place uses them (its `cost` policy has its own makespan
// model, passes/PlacementCore.h), so they live here, beside the benchmark,
// built on the parts passes/PlacementCoreDetail.h exports.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TEST_BENCH_PLACEMENT_PAPERLATENCY_H
#define DLC_TEST_BENCH_PLACEMENT_PAPERLATENCY_H

#include "passes/PlacementCore.h"

namespace dlc::placement {

/// The paper's latency of one sample. Each accelerator's nodes are cut into
/// contiguous pieces (as their scorer does; a contiguous set stays whole),
/// pieces of one accelerator run one after another. `cpuCores` 0 means as
/// many cores as needed (the paper's model); otherwise CPU nodes are list
/// scheduled on that many cores in order of readiness. Infinity when the
/// pieces depend on each other in a cycle.
double latency(const Graph &g, const Assignment &a, int cpuCores = 0);

/// The paper's greedy latency baseline (their Appendix F): blocks in a
/// depth-first topological order fill accelerator 1 up to its memory, then
/// accelerator 2, ...; what is left (or larger than one accelerator) runs on
/// the CPU.
Assignment greedyLatencyBaseline(const Graph &g, const Blocks &b);

/// dlc's latency placement: a HEFT-family list schedule over the blocks (and
/// a DP over contiguous splits of a topological order as a second seed), each
/// refined by moves and swaps that lower `latency`; the better one. Respects
/// colocation, support and memory.
Assignment placeLatency(const Graph &g, const Blocks &b, Stats *stats = nullptr);

} // namespace dlc::placement

#endif // DLC_TEST_BENCH_PLACEMENT_PAPERLATENCY_H
