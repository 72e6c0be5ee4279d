//===- MixedPrecisionPaintTest.cpp - TF-AMP painting on small graphs ------===//
//
// Hand-checked graphs for each rule, then random DAGs: whatever the graph,
// deny and pinned-fp32 nodes and non-candidates stay fp32, allow candidates
// are fp16 (mixed), every painted infer node sits between painted nodes and
// every painted clear node touches a painted node.
//
//===----------------------------------------------------------------------===//

#include "passes/MixedPrecisionPaint.h"

#include "gtest/gtest.h"

#include <random>

using namespace dlc;

namespace {

constexpr Fp16Policy A = Fp16Policy::Allow, D = Fp16Policy::Deny, I = Fp16Policy::Infer,
                     C = Fp16Policy::Clear;

/// A chain of candidates with these policies, each reading the one before.
std::vector<PaintNode> chain(std::vector<Fp16Policy> policies) {
  std::vector<PaintNode> nodes;
  for (size_t i = 0; i < policies.size(); ++i) {
    PaintNode node;
    node.policy = policies[i];
    node.candidate = true;
    if (i)
      node.producers = {int(i) - 1};
    nodes.push_back(node);
  }
  return nodes;
}

std::vector<bool> mixed(const std::vector<PaintNode> &nodes) {
  return paintFp16(PaintMode::Mixed, nodes);
}

TEST(MixedPrecisionPaint, InferBetweenAllowIsPainted) {
  EXPECT_EQ(mixed(chain({A, I, C, I, A})), std::vector<bool>({1, 1, 1, 1, 1}));
}

TEST(MixedPrecisionPaint, InferAfterTheLastAllowIsNot) {
  // The clear node next to the allow one joins it; the infer node does not.
  EXPECT_EQ(mixed(chain({A, C, I, I})), std::vector<bool>({1, 1, 0, 0}));
}

TEST(MixedPrecisionPaint, DenySpreadsThroughInfer) {
  // softmax -> add -> matmul: the add is denied, so nothing grows into it.
  std::vector<PaintNode> nodes = chain({A, D, I, A});
  EXPECT_EQ(mixed(nodes), std::vector<bool>({1, 0, 0, 1}));
  // Were the add not after the softmax, it would be between allow nodes.
  nodes[2].producers = {0};
  EXPECT_EQ(mixed(nodes), std::vector<bool>({1, 0, 1, 1}));
}

TEST(MixedPrecisionPaint, ClearAfterDenyJoinsAllowUnlessItLeadsToInfer) {
  // deny -> clear -> allow: the clear node is not denied, it joins the allow.
  EXPECT_EQ(mixed(chain({D, C, A})), std::vector<bool>({0, 1, 1}));
  // deny -> clear -> infer: both denied; the allow after them stays alone.
  EXPECT_EQ(mixed(chain({D, C, I, A})), std::vector<bool>({0, 0, 0, 1}));
}

TEST(MixedPrecisionPaint, NonCandidatesAndPinsAreBarriers) {
  std::vector<PaintNode> nodes = chain({A, I, A});
  nodes[1].candidate = false; // e.g. on the CPU
  EXPECT_EQ(mixed(nodes), std::vector<bool>({1, 0, 1}));
  nodes = chain({A, I, A});
  nodes[2].pin = PrecisionPin::Fp32;
  EXPECT_EQ(mixed(nodes), std::vector<bool>({1, 0, 0}));
  nodes = chain({D, I, I});
  nodes[1].pin = PrecisionPin::Fp16;
  EXPECT_EQ(mixed(nodes), std::vector<bool>({0, 1, 0}));
}

TEST(MixedPrecisionPaint, Modes) {
  std::vector<PaintNode> nodes = chain({A, D, I, C});
  nodes[3].pin = PrecisionPin::Fp16;
  EXPECT_EQ(paintFp16(PaintMode::Fp16, nodes), std::vector<bool>({1, 0, 1, 1}));
  EXPECT_EQ(paintFp16(PaintMode::Fp32, nodes), std::vector<bool>({0, 0, 0, 1}));
}

TEST(MixedPrecisionPaint, RandomGraphsKeepTheRules) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    int n = 1 + rng() % 40;
    std::vector<PaintNode> nodes(n);
    for (int i = 0; i < n; ++i) {
      nodes[i].policy = Fp16Policy(rng() % 4);
      nodes[i].candidate = rng() % 5 != 0;
      int pin = rng() % 12;
      nodes[i].pin = pin == 0 ? PrecisionPin::Fp16
                     : pin == 1 ? PrecisionPin::Fp32
                                : PrecisionPin::None;
      if (nodes[i].pin == PrecisionPin::Fp16)
        nodes[i].candidate = true; // the pass refuses the other case
      for (int k = rng() % 3; k > 0 && i > 0; --k)
        nodes[i].producers.push_back(rng() % i);
    }
    std::vector<std::vector<int>> consumers(n);
    for (int i = 0; i < n; ++i)
      for (int p : nodes[i].producers)
        consumers[p].push_back(i);
    std::vector<bool> fp16 = mixed(nodes);
    for (int i = 0; i < n; ++i) {
      const PaintNode &node = nodes[i];
      SCOPED_TRACE("trial " + std::to_string(trial) + " node " + std::to_string(i));
      if (!node.candidate || node.pin == PrecisionPin::Fp32 ||
          (node.pin == PrecisionPin::None && node.policy == D))
        EXPECT_FALSE(fp16[i]);
      if (node.pin == PrecisionPin::Fp16 ||
          (node.candidate && node.pin == PrecisionPin::None && node.policy == A))
        EXPECT_TRUE(fp16[i]);
      if (!fp16[i] || node.pin != PrecisionPin::None)
        continue;
      auto painted = [&](int j) { return bool(fp16[j]); };
      bool up = std::any_of(node.producers.begin(), node.producers.end(), painted);
      bool down = std::any_of(consumers[i].begin(), consumers[i].end(), painted);
      if (node.policy == I)
        EXPECT_TRUE(up && down);
      if (node.policy == C)
        EXPECT_TRUE(up || down);
    }
    // fp16 mode paints exactly the candidates that are not denied.
    std::vector<bool> all = paintFp16(PaintMode::Fp16, nodes);
    for (int i = 0; i < n; ++i)
      EXPECT_EQ(all[i], nodes[i].pin == PrecisionPin::Fp16 ||
                            (nodes[i].candidate && nodes[i].pin == PrecisionPin::None &&
                             nodes[i].policy != D));
  }
}

} // namespace
