//===- Timing.h - the clock and the median the measuring tools share ------===//
//
// dlc-run --probe-devices and the FMA-peak loop time batches with the steady
// clock and report the median batch (robust to a noisy, shared machine).
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_TOOLS_TIMING_H
#define DLC_RUNTIME_TOOLS_TIMING_H

#include <algorithm>
#include <chrono>
#include <vector>

namespace dlc::tools {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace dlc::tools

#endif // DLC_RUNTIME_TOOLS_TIMING_H
