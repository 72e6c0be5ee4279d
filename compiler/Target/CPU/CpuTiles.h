//===- CpuTiles.h - the CPU kernels' register tiles, stated once ----------===//
//
// The graph rewrites that pack constant weights (LinearToMatmul.cpp,
// PackConvWeights.cpp via ConvStrategy.h) and the lowering that reads them
// (TileAndVectorize.cpp, ConvToMatmul.cpp) must agree on these shapes: a
// packed panel is exactly one register tile wide.
//
// The matmul tile depends on the target's vector registers
// (matmulTileFor): 8 rows x two 16-lane vectors on AVX-512 (16 of 32 zmm
// registers as accumulators); 6 rows x two 8-lane vectors on a 16-register
// AVX2 core (12 ymm accumulators, 2 for B, 1 for A's broadcast), where the
// AVX-512 tile is 32 ymm accumulators and spills. Measured on an AMD EPYC
// Zen 3 (AVX2 + FMA, one thread, dlc-bench-matmul, OpenBLAS in the same run):
// 512^3 22.5 -> 65.2 GFLOP/s (OpenBLAS 61.2), 32x784x1024 16.6 -> 50.4
// (58.4); 4x16 gave 61.8 / 35.8, 8x16 26.1 / 16.5 (it spills). The
// pixel-row convolution keeps its 8 x 32 tile on both (a follow-up).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CPU_CPUTILES_H
#define DLC_COMPILER_TARGET_CPU_CPUTILES_H

#include <cstdint>

namespace dlc::cpu {

/// The matmul micro-kernel's tile: rows of C by f32 columns; B (a packed
/// linear weight) is stored in panels of `columns` columns.
struct MatmulTile {
  int64_t rows = 8, columns = 32;
};
inline constexpr MatmulTile kAvx512MatmulTile{8, 32}, kAvx2MatmulTile{6, 16};

/// The tile for a target with (or without) AVX-512's 32 vector registers.
inline constexpr MatmulTile matmulTileFor(bool avx512) {
  return avx512 ? kAvx512MatmulTile : kAvx2MatmulTile;
}

/// The pixel-rows convolution's tile: output pixels of one row by filters;
/// its weight is packed in panels of kPixelRowTileFilters filters.
inline constexpr int64_t kPixelRowTilePixels = 8, kPixelRowTileFilters = 32;

} // namespace dlc::cpu

#endif // DLC_COMPILER_TARGET_CPU_CPUTILES_H
