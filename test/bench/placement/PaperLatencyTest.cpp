//===- PaperLatencyTest.cpp - the paper's latency model, its reader ------===//
//
// The latency scorer on graphs small enough to compute by hand, the greedy
// baseline's order, the placement-graph reader's errors, and the latency
// placers on random DAGs: every placement they return keeps the constraints
// (colocation, support, memory), and refinement never loses to its seed.
//
//===----------------------------------------------------------------------===//

#include "PaperLatency.h"
#include "PlacementGraphs.h"
#include "passes/unittests/PlacementTestGraphs.h"

#include "gtest/gtest.h"

#include <random>

using namespace dlc::placement;
using namespace dlc::placement::testing;

namespace {

TEST(PaperLatency, LatencyAllOnCpu) {
  Graph g = triangle();
  EXPECT_DOUBLE_EQ(latency(g, {0, 0, 0}), 60);
}

TEST(PaperLatency, LatencyOneCall) {
  Graph g = triangle();
  // b alone on an accelerator: in 5 (a's output), compute 2, out 7 -> 14
  // after a (10); c at 24 + 30.
  EXPECT_DOUBLE_EQ(latency(g, {0, 1, 0}), 10 + 5 + 2 + 7 + 30);
  // Everything on one accelerator: no transfer at all.
  Graph roomy = triangle();
  roomy.accMemory = 3;
  EXPECT_DOUBLE_EQ(latency(roomy, {1, 1, 1}), 6);
}

TEST(PaperLatency, LatencySplitsNonContiguousSets) {
  Graph g = triangle();
  // a and c on accelerator 1 with b on the CPU between them: two pieces,
  // {a} (out 5) = 6, then b on the CPU (20) = 26, then {c}: in 5 + 7, 3 -> 41.
  EXPECT_DOUBLE_EQ(latency(g, {1, 0, 1}), 1 + 5 + 20 + 5 + 7 + 3);
}

TEST(PaperLatency, LatencyCountsCpuCores) {
  // Two independent CPU nodes of 10: in parallel on 2 cores, one after the
  // other on 1.
  Graph g;
  g.nodes.resize(2);
  for (auto &n : g.nodes)
    n.cpuTime = 10;
  g.nodes[1].id = 1;
  g.nodes[1].colorClass = 1;
  g.accelerators = 0;
  std::string error;
  ASSERT_TRUE(g.finalize(error));
  EXPECT_DOUBLE_EQ(latency(g, {0, 0}), 10);
  EXPECT_DOUBLE_EQ(latency(g, {0, 0}, 1), 20);
  EXPECT_DOUBLE_EQ(latency(g, {0, 0}, 2), 10);
}

TEST(PaperLatency, GreedyFillsInOrder) {
  Graph g = triangle();
  Blocks b = makeBlocks(g);
  // Sizes 1 each, 2 per accelerator: {a, b} on 1, {c} on 2.
  EXPECT_EQ(greedyLatencyBaseline(g, b), (Assignment{1, 1, 2}));
}

std::string readError(const std::string &text) {
  auto graph = parsePlacementGraph(text, "g.json");
  if (graph)
    return "";
  return llvm::toString(graph.takeError());
}

TEST(PlacementGraphs, Reads) {
  auto graph = parsePlacementGraph(
      R"({"maxSizePerFPGA": 8, "maxFPGAs": 2, "maxCPUs": 4,
          "nodes": [{"id": 7, "supportedOnFpga": 1, "cpuLatency": 3, "fpgaLatency": 1,
                     "isBackwardNode": false, "colorClass": 1, "size": 2},
                    {"id": 9, "supportedOnFpga": false, "cpuLatency": 4, "fpgaLatency": 2,
                     "isBackwardNode": 0}],
          "edges": [{"sourceId": 7, "destId": 9, "cost": 0.5}]})",
      "g.json");
  ASSERT_TRUE(!!graph) << llvm::toString(graph.takeError());
  EXPECT_EQ(graph->accelerators, 2);
  EXPECT_EQ(graph->cpuCores, 4);
  EXPECT_DOUBLE_EQ(graph->accMemory, 8);
  ASSERT_EQ(graph->nodes.size(), 2u);
  EXPECT_DOUBLE_EQ(graph->nodes[0].outCost, 0.5);
  EXPECT_FALSE(graph->nodes[1].accOk);
  EXPECT_NE(graph->nodes[1].colorClass, 1); // a class of its own
  EXPECT_EQ(graph->succ[0], std::vector<int>{1});
}

TEST(PlacementGraphs, Errors) {
  const std::string head = R"({"maxSizePerFPGA": 8, "maxFPGAs": 2, "maxCPUs": 1, )";
  const std::string node =
      R"({"id": 1, "supportedOnFpga": 1, "cpuLatency": 3, "fpgaLatency": 1, "size": 1})";
  const std::string node2 =
      R"({"id": 2, "supportedOnFpga": 1, "cpuLatency": 3, "fpgaLatency": 1})";
  EXPECT_EQ(readError("[1"), readError("[1")); // deterministic
  EXPECT_NE(readError("[1").find("g.json: invalid JSON"), std::string::npos);
  EXPECT_EQ(readError(R"({"maxFPGAs": 1, "maxCPUs": 1, "nodes": [], "edges": []})"),
            "g.json: maxSizePerFPGA: missing field");
  EXPECT_EQ(readError(R"({"maxSizePerFPGA": -1, "maxFPGAs": 1, "maxCPUs": 1})"),
            "g.json: maxSizePerFPGA: must be a non-negative number, got -1");
  EXPECT_EQ(readError(R"({"maxSizePerFPGA": 1, "maxFPGAs": 1.5, "maxCPUs": 1})"),
            "g.json: maxFPGAs: must be an integer, got 1.5");
  EXPECT_EQ(readError(head + R"("nodes": [{"id": 1, "supportedOnFpga": 1, "fpgaLatency": 1}], "edges": []})"),
            "g.json: nodes[0].cpuLatency: missing field");
  EXPECT_EQ(readError(head + R"("nodes": [)" + node + "," + node + R"(], "edges": []})"),
            "g.json: nodes[1].id: node 1 appears twice");
  EXPECT_EQ(readError(head + R"("nodes": [{"id": 1, "supportedOnFpga": 1, "cpuLatency": 1,
            "fpgaLatency": 1, "isBackwardNode": true}], "edges": []})"),
            "g.json: nodes[0].isBackwardNode: backward (training) nodes are not supported");
  EXPECT_EQ(readError(head + R"("nodes": [)" + node + R"(], "edges": [{"sourceId": 1, "destId": 5, "cost": 1}]})"),
            "g.json: edges[0].destId: no node has id 5");
  EXPECT_EQ(readError(head + R"("nodes": [)" + node + "," + node2 +
                      R"(], "edges": [{"sourceId": 1, "destId": 2, "cost": 1},
                                      {"sourceId": 2, "destId": 1, "cost": 1}]})"),
            "g.json: the edges form a cycle");
  EXPECT_EQ(readError(head + R"("nodes": [)" + node + "," + node2 +
                      R"(], "edges": [{"sourceId": 1, "destId": 2, "cost": 1},
                                      {"sourceId": 1, "destId": 2, "cost": 2}]})"),
            "g.json: edges[1].cost: node 1 has edges of different costs (1 and 2); the "
            "model needs one cost per source");
  EXPECT_EQ(readError(head + R"("nodes": [)" + node + R"(]})"),
            "g.json: edges: missing field (an array of edges)");
  auto missing = readPlacementGraph("/nonexistent/g.json");
  ASSERT_FALSE(!!missing);
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read placement graph"),
            std::string::npos);
}

TEST(PaperLatency, PlacersKeepConstraintsOnRandomGraphs) {
  for (unsigned seed = 1; seed <= 30; ++seed) {
    Graph g = randomGraph(seed);
    Blocks b = makeBlocks(g);
    Assignment greedy = greedyLatencyBaseline(g, b);
    EXPECT_EQ(checkAssignment(g, greedy), "") << "seed " << seed;
    Stats stats;
    Assignment placed = placeLatency(g, b, &stats);
    EXPECT_EQ(checkAssignment(g, placed), "") << "seed " << seed;
    EXPECT_LE(latency(g, placed), stats.seedObjective + 1e-9) << "seed " << seed;
  }
}

} // namespace
