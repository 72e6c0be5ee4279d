//===- PlacementTestGraphs.h - small placement graphs the tests share -----===//
//
// For passes/unittests/PlacementCoreTest.cpp and the paper's latency tests
// (test/bench/placement/PaperLatencyTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_UNITTESTS_PLACEMENTTESTGRAPHS_H
#define DLC_PASSES_UNITTESTS_PLACEMENTTESTGRAPHS_H

#include "passes/PlacementCore.h"

#include "gtest/gtest.h"

#include <random>

namespace dlc::placement::testing {

/// a -> b -> c, and a -> c. cpu 10, 20, 30; accelerator 1, 2, 3; outCost 5,
/// 7, 0; sizes 1 each; 2 accelerators of 2 bytes.
inline Graph triangle() {
  Graph g;
  for (int i = 0; i < 3; ++i) {
    Node n;
    n.id = i;
    n.cpuTime = 10.0 * (i + 1);
    n.accTime = i + 1;
    n.size = 1;
    n.colorClass = i;
    g.nodes.push_back(n);
  }
  g.nodes[0].outCost = 5;
  g.nodes[1].outCost = 7;
  g.edges = {{0, 1}, {1, 2}, {0, 2}};
  g.accelerators = 2;
  g.accMemory = 2;
  std::string error;
  EXPECT_TRUE(g.finalize(error)) << error;
  return g;
}

/// A random layered DAG with random colour classes, unsupported nodes and
/// tight memory.
inline Graph randomGraph(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  Graph g;
  int n = 20 + rng() % 60;
  for (int i = 0; i < n; ++i) {
    Node node;
    node.id = i;
    node.accTime = unit(rng);
    node.cpuTime = node.accTime * (2 + 10 * unit(rng));
    node.size = unit(rng);
    node.outCost = 0.3 * unit(rng);
    node.accOk = unit(rng) > 0.1;
    node.colorClass = unit(rng) < 0.2 ? (int)(rng() % 5) : 100 + i;
    g.nodes.push_back(node);
    for (int j = std::max(0, i - 6); j < i; ++j)
      if (unit(rng) < 0.3)
        g.edges.push_back({j, i});
  }
  g.accelerators = 1 + rng() % 4;
  g.accMemory = n * 0.5 / g.accelerators * (0.5 + unit(rng));
  std::string error;
  EXPECT_TRUE(g.finalize(error)) << error;
  return g;
}

} // namespace dlc::placement::testing

#endif // DLC_PASSES_UNITTESTS_PLACEMENTTESTGRAPHS_H
