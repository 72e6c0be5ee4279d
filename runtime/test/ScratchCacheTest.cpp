//===- ScratchCacheTest.cpp - kernels' scratch memory, reused ------------===//

#include "ScratchCache.h"
#include "ThreadPool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

using namespace dlc::rt;

namespace {

TEST(ScratchCache, ReusesAFreedBlockOfTheSameSize) {
  ScratchCache cache(1 << 24);
  void *a = cache.allocate(1000000);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 64, 0u);
  std::memset(a, 1, 1000000);
  cache.release(a);
  EXPECT_GE(cache.idleBytes(), 1000000u);
  void *b = cache.allocate(999000); // the same page granules
  EXPECT_EQ(a, b);
  EXPECT_EQ(cache.systemAllocations(), 1u);
  EXPECT_EQ(cache.idleBytes(), 0u);
  cache.release(b);
}

TEST(ScratchCache, TakesTheSmallestFitAndNeverMoreThanTwiceTheRequest) {
  ScratchCache cache(1 << 26);
  void *big = cache.allocate(8 << 20), *mid = cache.allocate(1 << 20);
  cache.release(big);
  cache.release(mid);
  EXPECT_EQ(cache.allocate(900000), mid);  // smallest that fits
  void *small = cache.allocate(4096);      // 8 MiB is too big to hand out
  EXPECT_NE(small, big);
  EXPECT_EQ(cache.systemAllocations(), 3u);
  EXPECT_EQ(cache.allocate(5 << 20), big); // within twice
}

// A padded 3x230x230 stem image then a padded 64x58x58 one: the second
// gets the block the first released (both in the 1 MiB class).
TEST(ScratchCache, NeighbouringLargeSizesShareABlock) {
  ScratchCache cache(1 << 26);
  void *stem = cache.allocate(3 * 230 * 230 * 4);
  cache.release(stem);
  EXPECT_EQ(cache.allocate(64 * 58 * 58 * 4), stem);
  EXPECT_EQ(cache.systemAllocations(), 1u);
  void *small = cache.allocate(100000); // below 256 KiB: page granules only
  cache.release(small);
  void *bigger = cache.allocate(110000); // two pages more: a block of its own
  EXPECT_NE(bigger, small);
  EXPECT_EQ(cache.systemAllocations(), 3u);
  cache.release(bigger);
}

TEST(ScratchCache, KeepsNoMoreThanItsLimitIdle) {
  ScratchCache cache(3 << 20);
  std::vector<void *> blocks;
  for (int i = 0; i < 4; ++i)
    blocks.push_back(cache.allocate(1 << 20));
  for (void *b : blocks)
    cache.release(b);
  EXPECT_LE(cache.idleBytes(), 3u << 20);
  void *huge = cache.allocate(8 << 20); // bigger than the limit: not kept
  cache.release(huge);
  EXPECT_LE(cache.idleBytes(), 3u << 20);
  cache.release(nullptr);
  int notOurs = 0;
  cache.release(&notOurs); // ignored
}

TEST(ScratchCache, SharedByThreads) {
  ScratchCache cache(1 << 26);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 200; ++i) {
        std::size_t bytes = 4096 * (1 + (i + t) % 5);
        auto *p = static_cast<unsigned char *>(cache.allocate(bytes));
        std::memset(p, t, bytes);
        for (std::size_t j = 0; j < bytes; j += 512)
          ASSERT_EQ(p[j], t);
        cache.release(p);
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_LE(cache.systemAllocations(), 4u * 5u);
}

TEST(ScratchCache, IsWhatTheKernelApiHandsOut) {
  const dlc_parallel_api *api = parallelApi();
  ASSERT_GE(api->version, 2u);
  void *a = api->scratch_alloc(300000);
  api->scratch_free(a);
  EXPECT_EQ(api->scratch_alloc(300000), a);
  api->scratch_free(a);
}

} // namespace
