//===- ScratchCache.cpp - kernels' temporaries, kept between calls -------===//

#include "ScratchCache.h"

#include <cstdlib>
#include <limits>

namespace dlc::rt {

namespace {
constexpr std::size_t kAlign = 64, kGranule = 4096, kSizeClassFrom = 256 * 1024;
} // namespace

ScratchCache::~ScratchCache() {
  for (auto &[block, size] : sizes)
    std::free(block);
}

void *ScratchCache::allocate(std::size_t bytes) {
  // Page granules: the same temporary asked for by kernels of slightly
  // different shapes shares blocks.
  std::size_t size = (std::max<std::size_t>(bytes, 1) + kGranule - 1) / kGranule * kGranule;
  // Large blocks in powers of two: neighbouring sizes (a 7x7 stem's padded
  // image, 635 KB, and the next convolution's, 861 KB) then share the block
  // the kernel before just released, still warm in L2/L3, instead of one
  // untouched since the last run (ResNet-18's first 56x56 convolution: 979
  // -> 937 us). At most twice the request, like the reuse below.
  if (size >= kSizeClassFrom && size <= std::numeric_limits<std::size_t>::max() / 2) {
    std::size_t power = kSizeClassFrom;
    while (power < size)
      power *= 2;
    size = power;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = idle.lower_bound(size);
    if (it != idle.end() && it->first <= 2 * size) {
      void *block = it->second;
      idleTotal -= it->first;
      idle.erase(it);
      return block;
    }
  }
  void *block = std::aligned_alloc(kAlign, size);
  if (!block)
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  sizes.emplace(block, size);
  ++fromSystem;
  return block;
}

void ScratchCache::release(void *block) {
  if (!block)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = sizes.find(block);
  if (it == sizes.end())
    return; // Not ours: nothing sane to do with it.
  std::size_t size = it->second;
  // Over the limit: drop the largest idle blocks until this one fits (or
  // give this one back when it alone is too big).
  while (idleTotal + size > limit && !idle.empty()) {
    auto largest = std::prev(idle.end());
    idleTotal -= largest->first;
    sizes.erase(largest->second);
    std::free(largest->second);
    idle.erase(largest);
  }
  if (size > limit) {
    sizes.erase(it);
    std::free(block);
    return;
  }
  idle.emplace(size, block);
  idleTotal += size;
}

std::size_t ScratchCache::idleBytes() const {
  std::lock_guard<std::mutex> lock(mutex);
  return idleTotal;
}

std::size_t ScratchCache::systemAllocations() const {
  std::lock_guard<std::mutex> lock(mutex);
  return fromSystem;
}

ScratchCache &ScratchCache::process() {
  // Never destroyed: kernels may run during static destruction of a caller.
  static ScratchCache *cache = new ScratchCache(std::size_t(1) << 30);
  return *cache;
}

} // namespace dlc::rt
