//===- CpuTiles.h - the CPU kernels' register tiles, stated once ----------===//
//
// The graph rewrites that pack constant weights (LinearToMatmul.cpp,
// PackConvWeights.cpp via ConvStrategy.h) and the lowering that reads them
// (TileAndVectorize.cpp, ConvToMatmul.cpp) must agree on these shapes: a
// packed panel is exactly one register tile wide.
//
// Today they are the AVX-512 tile (8 rows x two 16-lane vectors: 16 of 32
// zmm registers as accumulators). On a 16-register AVX2 core the same tile is
// 32 ymm accumulators and spills; the next issue derives them from a CPU
// target description instead, and these constants become its defaults.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CPU_CPUTILES_H
#define DLC_COMPILER_TARGET_CPU_CPUTILES_H

#include <cstdint>

namespace dlc::cpu {

/// The matmul micro-kernel's tile: rows of C by f32 columns; B (a packed
/// linear weight) is stored in panels of kMatmulTileColumns columns.
inline constexpr int64_t kMatmulTileRows = 8, kMatmulTileColumns = 32;

/// The pixel-rows convolution's tile: output pixels of one row by filters;
/// its weight is packed in panels of kPixelRowTileFilters filters.
inline constexpr int64_t kPixelRowTilePixels = 8, kPixelRowTileFilters = 32;

} // namespace dlc::cpu

#endif // DLC_COMPILER_TARGET_CPU_CPUTILES_H
