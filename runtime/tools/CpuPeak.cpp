//===- CpuPeak.cpp - one thread's f32 FMA throughput, measured ------------===//

#include "CpuPeak.h"
#include "Timing.h"

#include <algorithm>
#include <chrono>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

using namespace dlc::tools;

// acc = acc * a + b converges to 1: no overflow, no denormals.
#define DLC_PROBE_LOOP(VEC, SET1, FMA, ADD, STORE, LANES)                      \
  VEC a = SET1(0.999f), b = SET1(0.001f);                                      \
  VEC c0 = SET1(0.0f), c1 = SET1(0.1f), c2 = SET1(0.2f), c3 = SET1(0.3f);      \
  VEC c4 = SET1(0.4f), c5 = SET1(0.5f), c6 = SET1(0.6f), c7 = SET1(0.7f);      \
  VEC c8 = SET1(0.8f), c9 = SET1(0.9f), c10 = SET1(1.0f), c11 = SET1(1.1f);    \
  for (long i = 0; i < iterations; ++i) {                                      \
    c0 = FMA(c0, a, b); c1 = FMA(c1, a, b); c2 = FMA(c2, a, b);               \
    c3 = FMA(c3, a, b); c4 = FMA(c4, a, b); c5 = FMA(c5, a, b);               \
    c6 = FMA(c6, a, b); c7 = FMA(c7, a, b); c8 = FMA(c8, a, b);               \
    c9 = FMA(c9, a, b); c10 = FMA(c10, a, b); c11 = FMA(c11, a, b);           \
  }                                                                            \
  VEC s = ADD(ADD(ADD(c0, c1), ADD(c2, c3)), ADD(ADD(c4, c5), ADD(c6, c7)));   \
  s = ADD(s, ADD(ADD(c8, c9), ADD(c10, c11)));                                 \
  alignas(64) float lanes[LANES];                                              \
  STORE(lanes, s);                                                             \
  float sum = 0;                                                               \
  for (float x : lanes)                                                        \
    sum += x;                                                                  \
  return sum;

#if defined(__x86_64__)
__attribute__((target("avx512f"), noinline)) float loopAvx512(long iterations) {
  DLC_PROBE_LOOP(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps,
                 _mm512_store_ps, 16)
}
__attribute__((target("avx2,fma"), noinline)) float loopAvx2(long iterations) {
  DLC_PROBE_LOOP(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps,
                 _mm256_store_ps, 8)
}
#endif

// Scalar fallback: 12 chains of a * x + b (two FLOPs each).
using Scalar = float;
inline Scalar set1(float x) { return x; }
inline Scalar fmaS(Scalar c, Scalar a, Scalar b) { return c * a + b; }
inline Scalar addS(Scalar x, Scalar y) { return x + y; }
inline void storeS(float *p, Scalar s) { *p = s; }
__attribute__((noinline)) float loopScalar(long iterations) {
  DLC_PROBE_LOOP(Scalar, set1, fmaS, addS, storeS, 1)
}
#undef DLC_PROBE_LOOP

volatile float gSink;

} // namespace

CpuPeak measureCpuPeak(int batches, double batchSeconds) {
  int lanes = 1;
  const char *isa = "scalar";
  float (*loop)(long) = loopScalar;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    lanes = 16, isa = "avx512", loop = loopAvx512;
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    lanes = 8, isa = "avx2+fma", loop = loopAvx2;
#endif
  // Calibrate: grow until a run takes >= 5 ms, then scale to batchSeconds.
  long iterations = 1 << 16;
  double once = 0;
  for (;;) {
    auto t0 = Clock::now();
    gSink = loop(iterations);
    once = seconds(t0, Clock::now());
    if (once >= 0.005 || iterations > (1L << 34))
      break;
    iterations *= 2;
  }
  iterations = std::max(1000L, static_cast<long>(iterations * batchSeconds /
                                                 std::max(once, 1e-9)));
  std::vector<double> rates;
  for (int b = 0; b < std::max(batches, 1); ++b) {
    auto t0 = Clock::now();
    gSink = loop(iterations);
    double s = seconds(t0, Clock::now());
    rates.push_back(2.0 * lanes * kCpuPeakAccumulators * double(iterations) / s);
  }
  return {isa, kCpuPeakAccumulators, median(rates)};
}

