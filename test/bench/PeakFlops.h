//===- PeakFlops.h - the core's f32 FMA peak, measured --------------------===//
//
// Twelve independent accumulators, each `acc = acc * a + b` per iteration, in
// registers: enough independent chains to cover the FMA latency on two pipes,
// so the loop runs at the core's FMA throughput. GFLOP/s = 2 * lanes *
// accumulators * iterations / seconds. AVX-512 (16 lanes) when the CPU has
// it, else AVX2+FMA (8 lanes), else 0 (no figure).
//===----------------------------------------------------------------------===//
#ifndef DLC_BENCH_PEAKFLOPS_H
#define DLC_BENCH_PEAKFLOPS_H

#include "BenchUtil.h"

#include <immintrin.h>

namespace dlcbench {

struct PeakResult {
  const char *isa;
  int accumulators;
  double gflops;
};

constexpr int kPeakAccumulators = 12;

// The accumulators converge to b / (1 - a) = 1: no overflow, no denormals.
#define DLC_PEAK_LOOP(VEC, SET1, FMA, ADD, REDUCE)                             \
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
  return REDUCE(s);

// Not _mm512_reduce_add_ps: GCC 12's header warns in it (-Wuninitialized).
__attribute__((target("avx512f"))) inline float reduce512(__m512 v) {
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, v);
  float s = 0;
  for (float x : lanes)
    s += x;
  return s;
}

__attribute__((target("avx512f"), noinline)) inline float
fmaLoopAvx512(long iterations) {
  DLC_PEAK_LOOP(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps,
                reduce512)
}

__attribute__((target("avx2,fma"))) inline float reduce256(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}

__attribute__((target("avx2,fma"), noinline)) inline float
fmaLoopAvx2(long iterations) {
  DLC_PEAK_LOOP(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps,
                reduce256)
}

#undef DLC_PEAK_LOOP

// Median over `batches` batches of about `batchSeconds` each.
inline PeakResult measurePeak(int batches, double batchSeconds) {
  __builtin_cpu_init();
  int lanes;
  const char *isa;
  float (*loop)(long);
  if (__builtin_cpu_supports("avx512f")) {
    lanes = 16, isa = "avx512", loop = fmaLoopAvx512;
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    lanes = 8, isa = "avx2", loop = fmaLoopAvx2;
  } else {
    return {"none", kPeakAccumulators, 0.0};
  }
  volatile float sink = 0;
  long iterations = 1 << 16;
  double t0 = nowSeconds();
  sink = sink + loop(iterations);
  double once = std::max(nowSeconds() - t0, 1e-9);
  iterations = std::max(1000L, static_cast<long>(iterations * batchSeconds / once));
  std::vector<double> gflops;
  for (int b = 0; b < batches; ++b) {
    double start = nowSeconds();
    sink = sink + loop(iterations);
    double seconds = nowSeconds() - start;
    gflops.push_back(2.0 * lanes * kPeakAccumulators * iterations / seconds * 1e-9);
  }
  return {isa, kPeakAccumulators, median(gflops)};
}

} // namespace dlcbench

#endif // DLC_BENCH_PEAKFLOPS_H
