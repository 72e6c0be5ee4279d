#include "compiler/Pipeline/MemoryPlanner.h"

#include <gtest/gtest.h>
#include <random>

using namespace dlc;

// No two ranges live at the same step may share a byte.
static void expectDisjoint(const std::vector<LiveRange> &ranges,
                           const MemoryPlan &plan) {
  for (size_t a = 0; a < ranges.size(); ++a)
    for (size_t b = a + 1; b < ranges.size(); ++b) {
      bool timeOverlap = ranges[a].first <= ranges[b].last &&
                         ranges[b].first <= ranges[a].last;
      bool spaceOverlap = plan.offsets[a] < plan.offsets[b] + ranges[b].size &&
                          plan.offsets[b] < plan.offsets[a] + ranges[a].size;
      EXPECT_FALSE(timeOverlap && spaceOverlap) << "ranges " << a << " and " << b;
    }
  for (size_t a = 0; a < ranges.size(); ++a) {
    EXPECT_EQ(plan.offsets[a] % 64, 0u);
    EXPECT_LE(plan.offsets[a] + ranges[a].size, plan.arenaSize);
  }
}

TEST(MemoryPlanner, ChainReusesMemory) {
  // a -> b -> c -> d: each buffer dies when the next one is made.
  std::vector<LiveRange> ranges = {{1024, 0, 1}, {1024, 1, 2}, {1024, 2, 3}, {1024, 3, 4}};
  MemoryPlan plan = planMemory(ranges);
  expectDisjoint(ranges, plan);
  EXPECT_EQ(plan.arenaSize, 2048u);
  EXPECT_EQ(plan.peakLiveBytes, 2048u);
}

TEST(MemoryPlanner, AllLiveAtOnceAreStacked) {
  std::vector<LiveRange> ranges = {{100, 0, 5}, {200, 0, 5}, {64, 0, 5}};
  MemoryPlan plan = planMemory(ranges);
  expectDisjoint(ranges, plan);
  EXPECT_EQ(plan.arenaSize, 128u + 256u + 64u); // each rounded up to 64 bytes
}

TEST(MemoryPlanner, EmptyAndZeroSized) {
  EXPECT_EQ(planMemory({}).arenaSize, 0u);
  MemoryPlan plan = planMemory({{0, 0, 0}});
  EXPECT_EQ(plan.offsets.size(), 1u);
}

TEST(MemoryPlanner, RandomIntervalsNeverClashAndStayNearThePeak) {
  for (unsigned seed = 0; seed < 50; ++seed) {
    std::mt19937 rng(seed);
    std::vector<LiveRange> ranges;
    for (int i = 0; i < 60; ++i) {
      int64_t first = rng() % 100;
      ranges.push_back({64 * (1 + rng() % 64), first, first + int64_t(rng() % 20)});
    }
    MemoryPlan plan = planMemory(ranges);
    expectDisjoint(ranges, plan);
    EXPECT_GE(plan.arenaSize, plan.peakLiveBytes);
    EXPECT_LE(plan.arenaSize, plan.peakLiveBytes * 2) << "seed " << seed;
  }
}

TEST(MemoryPlanner, BuffersLiveToTheEndCountInThePeak) {
  // A buffer written by another device's stream is live throughout
  // (first -1, last INT64_MAX): it is in every step's live bytes, and the
  // bound must not wrap around.
  std::vector<LiveRange> ranges = {{4096, -1, INT64_MAX}, {1024, 0, 1}, {1024, 1, 2}};
  MemoryPlan plan = planMemory(ranges);
  expectDisjoint(ranges, plan);
  EXPECT_EQ(plan.peakLiveBytes, 4096u + 2048u);
  EXPECT_EQ(plan.arenaSize, 4096u + 2048u);
}
