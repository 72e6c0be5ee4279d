//===- PlacementCoreTest.cpp - the objectives and placers dlc-place runs --===//
//
// Max load, the makespan model and the checks on graphs small enough to
// compute by hand, and the pipeline placer on random DAGs: every placement it
// returns keeps the constraints (colocation, support, memory, contiguous).
// The paper's latency model has its tests beside it, in test/bench/placement/.
//
//===----------------------------------------------------------------------===//

#include "passes/PlacementCore.h"
#include "passes/unittests/PlacementTestGraphs.h"

#include "gtest/gtest.h"

#include <random>

using namespace dlc::placement;
using namespace dlc::placement::testing;

namespace {

TEST(PlacementCore, MaxLoad) {
  Graph g = triangle();
  // Accelerator 1 holds a, b: compute 3 + a's output leaving (5) = 8;
  // accelerator 2 holds c: 3 + a's (5) and b's (7) outputs entering = 15.
  EXPECT_DOUBLE_EQ(maxLoad(g, {1, 1, 2}), 15);
  // The CPU pays nothing for transfers: a, b on the CPU = 30, c = 3 + 12.
  EXPECT_DOUBLE_EQ(maxLoad(g, {0, 0, 1}), 30);
}

TEST(PlacementCore, ContiguousSplit) {
  Graph g = triangle();
  EXPECT_TRUE(isContiguousSplit(g, {1, 1, 2}));
  EXPECT_FALSE(isContiguousSplit(g, {1, 2, 1})); // 1 -> 2 -> 1
}

TEST(PlacementCore, CheckAssignment) {
  Graph g = triangle();
  EXPECT_EQ(checkAssignment(g, {1, 1, 2}), "");
  g.accMemory = 1.5;
  EXPECT_EQ(checkAssignment(g, {1, 1, 2}),
            "accelerator 1 holds 2.000000 bytes, more than its 1.500000");
  g.nodes[2].colorClass = 0;
  EXPECT_EQ(checkAssignment(g, {1, 0, 2}),
            "node 2 is on device 2, away from colour class 0 on device 1");
  g.nodes[1].accOk = false;
  EXPECT_EQ(checkAssignment(g, {0, 1, 0}), "node 1 is on accelerator 1, which cannot run it");
  EXPECT_EQ(checkAssignment(g, {0, 3, 0}), "node 1 is on device 3, not 0...2");
}

TEST(PlacementCore, BlocksMergeClassesThatDependBothWays) {
  // Classes {a, c} and {b}: a -> b -> c makes them one block.
  Graph g = triangle();
  g.nodes[2].colorClass = 0;
  Blocks b = makeBlocks(g);
  EXPECT_EQ(b.members.size(), 1u);
  EXPECT_DOUBLE_EQ(b.accTime[0], 6);
}

TEST(PlacementCore, PipelineAvoidsExpensiveCuts) {
  // A chain of four unit ops; the middle cut would move an output costing 5
  // (load 2 + 5 on both sides), a cut next to it one costing 0.1 (3.1).
  Graph g;
  double out[] = {0.1, 5, 0.1, 0};
  for (int i = 0; i < 4; ++i) {
    Node n;
    n.id = i;
    n.accTime = 1;
    n.cpuTime = 100;
    n.outCost = out[i];
    n.colorClass = i;
    g.nodes.push_back(n);
    if (i)
      g.edges.push_back({i - 1, i});
  }
  g.accelerators = 2;
  g.accMemory = 10;
  std::string error;
  ASSERT_TRUE(g.finalize(error)) << error;
  Assignment a = placePipeline(g, makeBlocks(g), nullptr, /*useCpu=*/false);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_DOUBLE_EQ(maxLoad(g, a), 3.1);
  EXPECT_EQ(a[1], a[2]) << "the expensive edge stays inside a stage";
  for (int d : a)
    EXPECT_NE(d, 0) << "no CPU stage without useCpu";
}

/// a -> b, both returned; device 0 (the CPU) and 1; transfers 1 us + 1 us per
/// byte; a reads 2 bytes of arguments.
TimedGraph twoOps() {
  TimedGraph g;
  g.devices = 2;
  g.time = {{10, 2}, {3, 1}};
  g.pred = {{}, {0}};
  g.bytes = {4, 1};
  g.argumentBytes = {2, 0};
  g.returned = {0, 1};
  g.latencyUs = {{0, 1}, {1, 0}};
  g.usPerByte = {{0, 1}, {1, 0}};
  g.order = {0, 1};
  return g;
}

TEST(PlacementCore, Makespan) {
  TimedGraph g = twoOps();
  EXPECT_DOUBLE_EQ(makespan(g, {0, 0}), 13);
  // a on 1: arguments arrive at 3, a ends at 5; b on the CPU: a's 4 bytes
  // arrive at 10, b ends at 13.
  EXPECT_DOUBLE_EQ(makespan(g, {1, 0}), 13);
  // Both on 1: a ends at 5, b at 6, its result back on the CPU at 8.
  EXPECT_DOUBLE_EQ(makespan(g, {1, 1}), 8);
}

TEST(PlacementCore, RefineMakespanMovesOnlyWhereAllowed) {
  TimedGraph g = twoOps();
  std::vector<int> device{1, 0};
  EXPECT_EQ(refineMakespan(g, {{0, 1}, {0, 1}}, device, 1000), 1);
  EXPECT_EQ(device, (std::vector<int>{1, 1}));
  device = {1, 0};
  EXPECT_EQ(refineMakespan(g, {{0, 1}, {}}, device, 1000), 0); // b is pinned
  EXPECT_EQ(device, (std::vector<int>{1, 0}));
}

/// The pipeline placer returns valid, contiguous placements on random
/// graphs, and refinement never loses to the seed it started from.
TEST(PlacementCore, PipelineKeepsConstraintsOnRandomGraphs) {
  for (unsigned seed = 1; seed <= 30; ++seed) {
    Graph g = randomGraph(seed);
    Blocks b = makeBlocks(g);
    Stats pstats;
    Assignment pipe = placePipeline(g, b, &pstats);
    if (pipe.empty())
      continue; // nothing fits (a block larger than an accelerator is fine on the CPU)
    EXPECT_EQ(checkAssignment(g, pipe), "") << "seed " << seed;
    EXPECT_TRUE(isContiguousSplit(g, pipe)) << "seed " << seed;
    EXPECT_LE(maxLoad(g, pipe), pstats.seedObjective + 1e-9) << "seed " << seed;
  }
}

} // namespace
