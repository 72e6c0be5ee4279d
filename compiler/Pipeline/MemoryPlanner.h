//===- MemoryPlanner.h - one arena per device, reused by liveness ----------===//
//
// Each storage is live over an interval of steps [first, last]; two storages
// may share bytes when their intervals do not overlap. Greedy by size, largest
// first, each at the lowest aligned offset that clashes with no placed storage
// live at the same time: the classic offset-assignment heuristic (TFLite's
// "greedy by size"), within a few percent of the peak live size in practice.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_PIPELINE_MEMORYPLANNER_H
#define DLC_COMPILER_PIPELINE_MEMORYPLANNER_H

#include <cstdint>
#include <vector>

namespace dlc {

struct LiveRange {
  uint64_t size = 0;
  int64_t first = 0; // first step that writes or reads it
  int64_t last = 0;  // last step that reads it
};

struct MemoryPlan {
  std::vector<uint64_t> offsets; // one per range, multiples of the alignment
  uint64_t arenaSize = 0;
  /// The largest sum of sizes live at one step: no plan can be smaller.
  uint64_t peakLiveBytes = 0;
};

MemoryPlan planMemory(const std::vector<LiveRange> &ranges,
                      uint64_t alignment = 64);

} // namespace dlc

#endif // DLC_COMPILER_PIPELINE_MEMORYPLANNER_H
