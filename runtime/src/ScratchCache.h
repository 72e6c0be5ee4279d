//===- ScratchCache.h - kernels' temporaries, kept between calls ---------===//
//
// The memory behind dlc_parallel_api's scratch_alloc/scratch_free (parallel.h).
// A compiled kernel allocates its temporaries (im2col columns, padded images)
// on every call and frees them at its end; from malloc, blocks of this size
// are handed back to the kernel on free and page-faulted in again on the next
// call. The cache keeps freed blocks and hands the smallest one that fits (up
// to twice the request) to the next caller, so a model in steady state
// allocates nothing. Blocks of 256 KiB and more come in powers of two, so
// that consecutive kernels' temporaries of neighbouring sizes share one
// block, warm from the kernel before. It keeps at most `limit` bytes of
// idle blocks.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_SCRATCHCACHE_H
#define DLC_RUNTIME_SCRATCHCACHE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>

namespace dlc::rt {

class ScratchCache {
public:
  explicit ScratchCache(std::size_t limit) : limit(limit) {}
  ~ScratchCache();
  ScratchCache(const ScratchCache &) = delete;
  ScratchCache &operator=(const ScratchCache &) = delete;

  /// 64-byte aligned, at least `bytes` long; nullptr only when out of memory.
  void *allocate(std::size_t bytes);
  /// Takes back a block from allocate(); null is ignored.
  void release(void *block);

  /// Idle bytes held, and blocks ever obtained from the system.
  std::size_t idleBytes() const;
  std::size_t systemAllocations() const;

  /// The process-wide cache the kernels' scratch_alloc uses.
  static ScratchCache &process();

private:
  mutable std::mutex mutex;
  std::multimap<std::size_t, void *> idle;        // size -> block
  std::unordered_map<void *, std::size_t> sizes;  // every live or idle block
  std::size_t idleTotal = 0, fromSystem = 0;
  const std::size_t limit;
};

} // namespace dlc::rt

#endif
