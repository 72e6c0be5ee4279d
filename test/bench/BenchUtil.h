//===- BenchUtil.h - timing helpers shared by the benchmark programs ------===//
//
// The machine the benchmarks run on is shared and noisy: every figure is the
// median of several batches, and a batch repeats the timed call enough times
// to last a few milliseconds, so that the clock's resolution does not matter.
//===----------------------------------------------------------------------===//
#ifndef DLC_BENCH_BENCHUTIL_H
#define DLC_BENCH_BENCHUTIL_H

#include "dlc/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace dlcbench {

inline double nowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// How many calls of `fn` fill a batch of `batchSeconds`, from one timed call
// (plus one untimed, to warm caches and fault pages in).
template <typename Fn> long callsPerBatch(Fn &&fn, double batchSeconds) {
  fn();
  double t0 = nowSeconds();
  fn();
  double once = std::max(nowSeconds() - t0, 1e-9);
  return std::max(1L, static_cast<long>(batchSeconds / once));
}

// Seconds per call of `fn`: `calls` calls per batch, one median per batch.
template <typename Fn> std::vector<double> timeBatches(Fn &&fn, long calls,
                                                      int batches) {
  std::vector<double> perCall;
  for (int b = 0; b < batches; ++b) {
    double t0 = nowSeconds();
    for (long i = 0; i < calls; ++i)
      fn();
    perCall.push_back((nowSeconds() - t0) / calls);
  }
  return perCall;
}

// Prints a non-OK status with what was being done and exits: these are
// programs, not library code, and a failed call makes every figure after it
// meaningless.
inline void check(dlc_status_t status, const char *what) {
  if (!status)
    return;
  std::fprintf(stderr, "error: %s: %s: %s\n", what,
               dlc_status_code_name(dlc_status_code(status)),
               dlc_status_message(status));
  dlc_status_free(status);
  std::exit(2);
}

// "--name=value" -> value; nullptr when `arg` is not that option.
inline const char *optionValue(const char *arg, const char *name) {
  size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) == 0 && arg[n] == '=')
    return arg + n + 1;
  return nullptr;
}

} // namespace dlcbench

#endif // DLC_BENCH_BENCHUTIL_H
