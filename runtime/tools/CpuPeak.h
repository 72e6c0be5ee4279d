//===- CpuPeak.h - one thread's f32 FMA throughput, measured --------------===//
//
// Twelve independent accumulators, `acc = acc * a + b` each per iteration, in
// registers: enough chains to cover the FMA latency on two pipes, so the loop
// runs at the core's FMA throughput. FLOP/s = 2 * lanes * 12 * iterations /
// seconds; AVX-512 (16 lanes), else AVX2+FMA (8), else scalar. Used by
// `dlc-run --probe-devices` and by the matmul benchmark's "% of peak".
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_TOOLS_CPUPEAK_H
#define DLC_RUNTIME_TOOLS_CPUPEAK_H

constexpr int kCpuPeakAccumulators = 12;

struct CpuPeak {
  const char *isa; // "avx512", "avx2+fma" or "scalar"
  int accumulators;
  double flopsPerSecond;
};

/// Median over `batches` batches of about `batchSeconds` each.
CpuPeak measureCpuPeak(int batches, double batchSeconds);

#endif // DLC_RUNTIME_TOOLS_CPUPEAK_H
