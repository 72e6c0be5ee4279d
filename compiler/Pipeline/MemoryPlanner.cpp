//===- MemoryPlanner.cpp - one arena per device, reused by liveness --------===//

#include "compiler/Pipeline/MemoryPlanner.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>

using namespace dlc;

static uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

static bool overlapInTime(const LiveRange &a, const LiveRange &b) {
  return a.first <= b.last && b.first <= a.last;
}

MemoryPlan dlc::planMemory(const std::vector<LiveRange> &ranges,
                           uint64_t alignment) {
  MemoryPlan plan;
  plan.offsets.assign(ranges.size(), 0);

  std::vector<size_t> order(ranges.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return ranges[a].size > ranges[b].size;
  });

  std::vector<size_t> placed;
  for (size_t index : order) {
    const LiveRange &range = ranges[index];
    uint64_t size = alignUp(std::max<uint64_t>(range.size, 1), alignment);
    // Byte intervals taken by placed ranges live at the same time, by offset.
    std::vector<std::pair<uint64_t, uint64_t>> busy;
    for (size_t other : placed)
      if (overlapInTime(range, ranges[other]))
        busy.push_back({plan.offsets[other],
                        plan.offsets[other] +
                            alignUp(std::max<uint64_t>(ranges[other].size, 1),
                                    alignment)});
    std::sort(busy.begin(), busy.end());
    uint64_t offset = 0;
    for (auto [begin, end] : busy) {
      if (offset + size <= begin)
        break;
      offset = std::max(offset, end);
    }
    plan.offsets[index] = offset;
    plan.arenaSize = std::max(plan.arenaSize, offset + size);
    placed.push_back(index);
  }

  // Peak of live bytes over steps, for reporting how tight the plan is.
  // (A range live to the end, last = INT64_MAX, never ends.)
  std::map<int64_t, int64_t> delta;
  for (const LiveRange &range : ranges) {
    delta[range.first] += static_cast<int64_t>(range.size);
    if (range.last < INT64_MAX)
      delta[range.last + 1] -= static_cast<int64_t>(range.size);
  }
  int64_t live = 0, peak = 0;
  for (auto &[step, change] : delta) {
    live += change;
    peak = std::max(peak, live);
  }
  plan.peakLiveBytes = static_cast<uint64_t>(peak);
  return plan;
}
