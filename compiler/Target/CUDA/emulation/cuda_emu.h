//===- cuda_emu.h - the CUDA execution model on the host, for tests -------===//
//
// Lets the CUDA C++ that compiler/Target/CUDA generates compile with a host
// C++ compiler and run here, so the kernels' logic is tested on machines
// without a GPU. Only what the generated kernels use:
//
//  - __global__/__device__/__shared__/__restrict__, threadIdx/blockIdx/
//    blockDim/gridDim;
//  - the threads of a block as fibers (ucontext) on the launching OS thread,
//    switched only at __syncthreads and warp collectives, so a block's
//    threads really interleave there; blocks run one after another (so a
//    thread_local static is enough for __shared__);
//  - __shfl_sync/__shfl_xor_sync/__shfl_down_sync: every lane of the warp
//    must take part (the generated code keeps warps converged);
//  - __half, __half2, __nv_bfloat16 with round-to-nearest-even conversions
//    and the __half2 arithmetic the kernels use;
//  - the tensor-core instruction mma.sync.m16n8k16.row.col.f32.{f16,bf16}
//    (DLC_MMA_* in the generated preamble) as a warp collective with the PTX
//    ISA's lane-to-fragment mapping (groupID = lane / 4, tig = lane % 4):
//      A (16x16, 4 regs of 2): reg r holds rows g + 8*(r&1), cols 2*tig + 8*(r>>1) + {0,1}
//      B (16x8, 2 regs of 2):  reg r holds rows 2*tig + 8*r + {0,1}, col g
//      C/D (16x8, 4 floats):   i holds row g + 8*(i>>1), col 2*tig + (i&1)
//    the lower-indexed element of a pair in the low 16 bits.
//
// Launch with dlc_emu::launch(grid, block, [&] { kernel(args...); }).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CUDA_EMU_H
#define DLC_CUDA_EMU_H

#define DLC_CUDA_EMULATION 1

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <ucontext.h>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
// Blocks of one launch run in turn on one OS thread; simulated GPUs launch
// from several threads at once, so per-thread statics.
#define __shared__ static thread_local
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};

struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }

namespace dlc_emu {

struct Fiber {
  ucontext_t context;
  dim3 tid;
  bool done = false;
};

struct Barrier {
  unsigned arrived = 0, generation = 0;
};

struct Block {
  dim3 blockIdx, blockDim, gridDim;
  std::vector<Fiber> fibers;
  char *stacks = nullptr;
  ucontext_t scheduler;
  unsigned current = 0, finished = 0, progress = 0;
  Barrier block;
  std::vector<Barrier> warps;
  std::vector<unsigned> warpFinished;
  // One slot per lane for warp collectives (an mma's A, B and C fragments).
  std::vector<unsigned char> slots;
  const std::function<void()> *body = nullptr;
};

static constexpr size_t kStackBytes = 96 * 1024;
static constexpr size_t kSlotBytes = 64;

inline Block *&block() {
  static thread_local Block *b = nullptr;
  return b;
}

/// Fiber stacks, kept between launches (no allocation per launch).
inline std::vector<char> &stackPool() {
  static thread_local std::vector<char> pool;
  return pool;
}

[[noreturn]] inline void fail(const char *what) {
  std::fprintf(stderr, "cuda_emu: %s\n", what);
  std::abort();
}

inline void yield() {
  Block *b = block();
  swapcontext(&b->fibers[b->current].context, &b->scheduler);
}

inline unsigned linearThread() {
  Block *b = block();
  const dim3 &t = b->fibers[b->current].tid;
  return t.x + b->blockDim.x * (t.y + b->blockDim.y * t.z);
}
inline unsigned lane() { return linearThread() % 32; }
inline unsigned warp() { return linearThread() / 32; }

inline void wait(Barrier &barrier, unsigned expected) {
  Block *b = block();
  unsigned generation = barrier.generation;
  ++b->progress;
  if (++barrier.arrived >= expected) {
    barrier.arrived = 0;
    ++barrier.generation;
    return;
  }
  while (barrier.generation == generation)
    yield();
}

inline void syncthreads() {
  Block *b = block();
  wait(b->block, b->fibers.size() - b->finished);
}

inline void syncwarp() {
  Block *b = block();
  unsigned w = warp();
  unsigned size = b->fibers.size() - w * 32 < 32 ? b->fibers.size() - w * 32 : 32;
  wait(b->warps[w], size - b->warpFinished[w]);
}

inline unsigned char *slot(unsigned laneIndex) {
  return &block()->slots[(warp() * 32 + laneIndex) * kSlotBytes];
}

/// Every lane publishes `value`, then reads lane `source(lane)`'s.
template <typename T, typename F> T exchange(T value, F source) {
  static_assert(sizeof(T) <= kSlotBytes, "value too large for a warp slot");
  std::memcpy(slot(lane()), &value, sizeof(T));
  syncwarp();
  T result;
  std::memcpy(&result, slot(source(lane())), sizeof(T));
  syncwarp();
  return result;
}

inline void fiberEntry() {
  Block *b = block();
  (*b->body)();
  b->fibers[b->current].done = true;
  ++b->finished;
  ++b->warpFinished[b->current / 32];
  ++b->progress;
}

/// Runs `body` once per thread of every block of the grid.
inline void launch(dim3 grid, dim3 blockDim, const std::function<void()> &body) {
  Block b;
  b.gridDim = grid;
  b.blockDim = blockDim;
  b.body = &body;
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  if (threads == 0 || threads > 1024)
    fail("block size must be 1..1024 threads");
  b.fibers.resize(threads);
  std::vector<char> &pool = stackPool();
  if (pool.size() < threads * kStackBytes)
    pool.resize(threads * kStackBytes);
  b.stacks = pool.data();
  b.warps.resize((threads + 31) / 32);
  b.warpFinished.resize(b.warps.size());
  b.slots.resize(b.warps.size() * 32 * kSlotBytes);
  Block *saved = block();
  block() = &b;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        b.blockIdx = dim3(bx, by, bz);
        b.finished = 0;
        b.block = Barrier();
        for (auto &w : b.warps) w = Barrier();
        for (auto &f : b.warpFinished) f = 0;
        for (unsigned t = 0; t < threads; ++t) {
          Fiber &f = b.fibers[t];
          f.done = false;
          f.tid = dim3(t % blockDim.x, t / blockDim.x % blockDim.y,
                       t / (blockDim.x * blockDim.y));
          getcontext(&f.context);
          f.context.uc_stack.ss_sp = &b.stacks[t * kStackBytes];
          f.context.uc_stack.ss_size = kStackBytes;
          f.context.uc_link = &b.scheduler;
          makecontext(&f.context, fiberEntry, 0);
        }
        // Round-robin until every thread has returned; a round in which no
        // thread arrives anywhere or finishes is a deadlock (a barrier some
        // thread never reaches).
        while (b.finished < threads) {
          unsigned before = b.progress;
          for (unsigned t = 0; t < threads; ++t) {
            if (b.fibers[t].done)
              continue;
            b.current = t;
            swapcontext(&b.scheduler, &b.fibers[t].context);
          }
          if (b.progress == before)
            fail("deadlock: a barrier or warp collective not reached by every thread");
        }
      }
  block() = saved;
}

//===----------------------------------------------------------------------===//
// Half precision: bit patterns with exact round-to-nearest-even conversions.
//===----------------------------------------------------------------------===//

inline uint16_t floatToHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // inf or nan
    return sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0);
  if (absx >= 0x477ff000u) // rounds to >= 65520: inf
    return sign | 0x7c00u;
  if (absx < 0x38800000u) { // subnormal half (or zero)
    // value = absx as float; half subnormal unit = 2^-24.
    float a;
    std::memcpy(&a, &absx, 4);
    float scaled = a * 16777216.0f; // exact: multiply by 2^24
    uint32_t q = static_cast<uint32_t>(std::nearbyint(scaled)); // RNE (default mode)
    return sign | q;
  }
  uint32_t mant = absx & 0x7fffffu;
  uint32_t exp = (absx >> 23) - 127 + 15;
  uint32_t half = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
    ++half;
  return sign | half;
}

inline float halfBitsToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  float f;
  if (exp == 0) {
    f = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -f : f;
  }
  uint32_t x = exp == 31 ? (sign | 0x7f800000u | (mant << 13))
                         : (sign | ((exp - 15 + 127) << 23) | (mant << 13));
  std::memcpy(&f, &x, 4);
  return f;
}

inline uint16_t floatToBf16Bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  uint32_t rounding = 0x7fffu + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

inline float bf16BitsToFloat(uint16_t b) {
  uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

} // namespace dlc_emu

#define threadIdx (::dlc_emu::block()->fibers[::dlc_emu::block()->current].tid)
#define blockIdx (::dlc_emu::block()->blockIdx)
#define blockDim (::dlc_emu::block()->blockDim)
#define gridDim (::dlc_emu::block()->gridDim)

inline void __syncthreads() { ::dlc_emu::syncthreads(); }
inline void __syncwarp(unsigned = 0xffffffffu) { ::dlc_emu::syncwarp(); }

template <typename T> T __shfl_sync(unsigned, T v, int src, int width = 32) {
  return ::dlc_emu::exchange(v, [&](unsigned l) {
    return (l & ~static_cast<unsigned>(width - 1)) + static_cast<unsigned>(src) % width;
  });
}
template <typename T> T __shfl_xor_sync(unsigned, T v, int mask, int width = 32) {
  return ::dlc_emu::exchange(v, [&](unsigned l) {
    unsigned s = l ^ static_cast<unsigned>(mask);
    return (s / width == l / width) ? s : l;
  });
}
template <typename T> T __shfl_down_sync(unsigned, T v, unsigned delta, int width = 32) {
  return ::dlc_emu::exchange(v, [&](unsigned l) {
    return (l % width) + delta < static_cast<unsigned>(width) ? l + delta : l;
  });
}

struct __half {
  uint16_t bits = 0;
};
struct alignas(4) __half2 {
  __half x, y;
};
struct __nv_bfloat16 {
  uint16_t bits = 0;
};

inline __half __float2half_rn(float f) { return __half{::dlc_emu::floatToHalfBits(f)}; }
inline __half __float2half(float f) { return __float2half_rn(f); }
inline float __half2float(__half h) { return ::dlc_emu::halfBitsToFloat(h.bits); }
inline unsigned short __half_as_ushort(__half h) { return h.bits; }
inline __half __ushort_as_half(unsigned short b) { return __half{b}; }
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  return __nv_bfloat16{::dlc_emu::floatToBf16Bits(f)};
}
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return ::dlc_emu::bf16BitsToFloat(b.bits); }

inline __half2 __floats2half2_rn(float a, float b) {
  return __half2{__float2half_rn(a), __float2half_rn(b)};
}
inline __half2 __float2half2_rn(float a) { return __floats2half2_rn(a, a); }
inline float __low2float(__half2 h) { return __half2float(h.x); }
inline float __high2float(__half2 h) { return __half2float(h.y); }
// Each lane's result is the exact result rounded once to f16, as the hardware does
// (sums and products of two halves are exact in float).
#define DLC_EMU_HALF2_BINARY(name, expr)                                       \
  inline __half2 name(__half2 p, __half2 q) {                                   \
    float a0 = __low2float(p), b0 = __low2float(q);                             \
    float a1 = __high2float(p), b1 = __high2float(q);                           \
    auto f = [](float a, float b) { return expr; };                             \
    return __floats2half2_rn(f(a0, b0), f(a1, b1));                            \
  }
DLC_EMU_HALF2_BINARY(__hadd2, a + b)
DLC_EMU_HALF2_BINARY(__hsub2, a - b)
DLC_EMU_HALF2_BINARY(__hmul2, a * b)
DLC_EMU_HALF2_BINARY(__hmax2, (a != a || b != b) ? NAN : (a > b ? a : b))
DLC_EMU_HALF2_BINARY(__hmin2, (a != a || b != b) ? NAN : (a < b ? a : b))
#undef DLC_EMU_HALF2_BINARY
inline __half2 __hneg2(__half2 p) {
  return __half2{__half{static_cast<uint16_t>(p.x.bits ^ 0x8000u)},
                 __half{static_cast<uint16_t>(p.y.bits ^ 0x8000u)}};
}

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
template <typename T> inline T __ldg(const T *p) { return *p; }

namespace dlc_emu {
/// ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16, one warp: lanes 8j..8j+7
/// give the row addresses of matrix j; lane l receives, of each matrix, row
/// l / 4, elements 2 (l % 4) and 2 (l % 4) + 1 (transposed: those rows of
/// column l / 4).
template <bool Trans>
inline void ldmatrixX4(unsigned &r0, unsigned &r1, unsigned &r2, unsigned &r3, const void *p) {
  const void *mine = p;
  unsigned self = lane();
  std::memcpy(slot(self), &mine, sizeof mine);
  syncwarp();
  auto element = [](unsigned laneIndex, unsigned column) {
    const uint16_t *row;
    std::memcpy(&row, slot(laneIndex), sizeof row);
    return static_cast<unsigned>(row[column]);
  };
  unsigned out[4];
  for (unsigned j = 0; j < 4; ++j) {
    unsigned pair = 2 * (self % 4);
    out[j] = Trans ? element(8 * j + pair, self / 4) | element(8 * j + pair + 1, self / 4) << 16
                   : element(8 * j + self / 4, pair) | element(8 * j + self / 4, pair + 1) << 16;
  }
  syncwarp();
  r0 = out[0], r1 = out[1], r2 = out[2], r3 = out[3];
}

/// cp.async of 16 bytes (here at once), zeros where !full.
inline void copy16(void *dst, const void *src, bool full) {
  if (full)
    std::memcpy(dst, src, 16);
  else
    std::memset(dst, 0, 16);
}

/// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32, one warp.
template <bool BF16>
inline void mma16816(float *d, const unsigned *a, const unsigned *b, const float *c) {
  struct Fragments {
    unsigned a[4], b[2];
    float c[4];
  } mine;
  static_assert(sizeof(Fragments) <= kSlotBytes, "fragments exceed a slot");
  std::memcpy(mine.a, a, sizeof mine.a);
  std::memcpy(mine.b, b, sizeof mine.b);
  std::memcpy(mine.c, c, sizeof mine.c);
  unsigned self = lane();
  std::memcpy(slot(self), &mine, sizeof mine);
  syncwarp();
  auto element = [](unsigned reg, unsigned high) -> float {
    uint16_t bits = static_cast<uint16_t>(high ? reg >> 16 : reg & 0xffffu);
    return BF16 ? bf16BitsToFloat(bits) : halfBitsToFloat(bits);
  };
  auto fragmentsOf = [](unsigned l) {
    Fragments f;
    std::memcpy(&f, slot(l), sizeof f);
    return f;
  };
  auto A = [&](unsigned row, unsigned k) {
    Fragments f = fragmentsOf((row % 8) * 4 + (k % 8) / 2);
    return element(f.a[(row / 8) + 2 * (k / 8)], k & 1);
  };
  auto B = [&](unsigned k, unsigned col) {
    Fragments f = fragmentsOf(col * 4 + (k % 8) / 2);
    return element(f.b[k / 8], k & 1);
  };
  unsigned g = self / 4, tig = self % 4;
  float result[4];
  for (unsigned i = 0; i < 4; ++i) {
    unsigned row = g + 8 * (i >> 1), col = 2 * tig + (i & 1);
    float acc = mine.c[i];
    for (unsigned k = 0; k < 16; ++k)
      acc = std::fma(A(row, k), B(k, col), acc);
    result[i] = acc;
  }
  syncwarp();
  std::memcpy(d, result, sizeof result);
}
} // namespace dlc_emu

#endif // DLC_CUDA_EMU_H
