//===- CpuTiles.h - the CPU kernels' register tiles, stated once ----------===//
//
// The graph rewrites that pack constant weights (LinearToMatmul.cpp,
// PackConvWeights.cpp via ConvStrategy.h) and the lowering that reads them
// (TileAndVectorize.cpp, ConvToMatmul.cpp) must agree on these shapes: a
// packed panel is exactly one register tile wide.
//
// Both tiles follow the target's vector registers (kernelTilesFor, from
// the target description of CpuTarget.h): each row of the tile is two
// vectors of f32 accumulators (so that each broadcast of A feeds two FMAs),
// and as many rows as the registers left after the two B vectors and A's
// broadcast hold, up to 8. AVX-512 (32 zmm): 8 x 32, 16 accumulators, which
// hide the FMA latency (4 cycles x 2 per cycle) with room to spare;
// AVX2 (16 ymm): 6 x 16, 12 accumulators, where the AVX-512 tile is 32 ymm
// accumulators and spills. Measured on an AMD EPYC Zen 3 (AVX2 + FMA, one
// thread, dlc-bench-matmul, OpenBLAS in the same run): 512^3 22.5 -> 65.2
// GFLOP/s (OpenBLAS 61.2), 32x784x1024 16.6 -> 50.4 (58.4); 4x16 gave 61.8 /
// 35.8, 8x16 26.1 / 16.5 (it spills). A core with a narrower FMA datapath
// takes fewer rows (kernelTilesFor: Zen 1, 5 x 16). The pixel-row
// convolution's tile is the same shape (pixels by filters): the same
// registers, the same loads. `dlc target --cpu=CPU` prints the tiles, and
// `dlc compile --kernel-tiles=RxC` overrides them for experiments
// (test/bench/models_bench.py --compile-flag).
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
  constexpr bool operator==(const MatmulTile &o) const {
    return rows == o.rows && columns == o.columns;
  }
};

/// The pixel-rows convolution's tile: output pixels of one row by filters;
/// its weight is packed in panels of `filters` filters.
struct PixelRowTile {
  int64_t pixels = 8, filters = 32;
  /// The fewest pixels whose accumulators keep the FMA units busy (FMA
  /// latency x FMAs per cycle, over the vectors per pixel): a shorter tile
  /// waits on its FMAs' latency, so it costs as much as one this long
  /// (splitRow). 1 where the FMA's timing is unknown.
  int64_t steadyPixels = 1;
  constexpr bool operator==(const PixelRowTile &o) const {
    return pixels == o.pixels && filters == o.filters && steadyPixels == o.steadyPixels;
  }
};

/// How a row of `width` output pixels is cut into register tiles: `full`
/// tiles of `tile` pixels, then up to two shorter ones (`tails`, 0 where
/// absent).
struct RowSplit {
  int64_t full = 0;
  int64_t tails[2] = {0, 0};
  constexpr bool operator==(const RowSplit &o) const {
    return full == o.full && tails[0] == o.tails[0] && tails[1] == o.tails[1];
  }
};

/// The FMA-latency-bound steps of `split` (splitRow's measure).
constexpr int64_t splitSteps(RowSplit split, int64_t tile, int64_t steady) {
  auto cost = [&](int64_t t) { return t == 0 ? 0 : (t > steady ? t : steady); };
  return split.full * cost(tile) + cost(split.tails[0]) + cost(split.tails[1]);
}

/// The split of a `width`-pixel row with the fewest FMA-latency-bound steps,
/// a tile of t pixels costing max(t, steady) steps. With 6-pixel tiles
/// (AVX2) and steady 4, a 7-pixel row (ResNet's last stage) runs as 4 + 3
/// (8 steps) instead of 6 + 1 (10), 14 as 6 + 4 + 4 instead of 6 + 6 + 2, 56
/// as 8 x 6 + 4 + 4 instead of 9 x 6 + 2. Ties keep the most full tiles.
constexpr RowSplit splitRow(int64_t width, int64_t tile, int64_t steady) {
  RowSplit best;
  int64_t bestCost = -1;
  auto consider = [&](RowSplit split) {
    int64_t c = splitSteps(split, tile, steady);
    if (bestCost < 0 || c < bestCost) {
      best = split;
      bestCost = c;
    }
  };
  for (int64_t full = width / tile; full >= 0; --full) {
    int64_t rest = width - full * tile;
    if (rest > 2 * tile)
      break;
    if (rest <= tile)
      consider(RowSplit{full, {rest, 0}});
    if (rest >= 2 && (rest + 1) / 2 <= tile)
      consider(RowSplit{full, {(rest + 1) / 2, rest / 2}});
  }
  return best;
}

static_assert(splitRow(7, 6, 4) == RowSplit{0, {4, 3}} && splitRow(14, 6, 4) == RowSplit{1, {4, 4}} &&
                  splitRow(56, 6, 4) == RowSplit{8, {4, 4}} && splitRow(56, 8, 2) == RowSplit{7, {0, 0}} &&
                  splitRow(28, 8, 2) == RowSplit{3, {4, 0}} && splitRow(7, 6, 1) == RowSplit{1, {1, 0}},
              "the splits the comment above names");

/// Whether an `height` x `width` output runs its last width % tile columns
/// as tiles down each column (`tile` pixels of one column, from as many
/// rows) rather than as short tiles at the end of each row: when that takes
/// fewer latency-bound steps. A 7x7 output with 6-pixel tiles (steady 4):
/// 7 x (4 + 3) = 56 steps by rows, 7 x 6 + (4 + 3) = 50 with a column
/// (ResNet's last stage). Ties keep the rows, whose tiles read contiguous
/// pixels: 14x14, 14 x (6 + 4 + 4) = 196 either way.
constexpr bool tailColumns(int64_t height, int64_t width, int64_t tile, int64_t steady) {
  int64_t byRows = height * splitSteps(splitRow(width, tile, steady), tile, steady);
  int64_t columns = width % tile;
  int64_t byColumns = height * (width / tile) * tile +
                      columns * splitSteps(splitRow(height, tile, steady), tile, steady);
  return columns > 0 && width >= tile && byColumns < byRows;
}

static_assert(tailColumns(7, 7, 6, 4) && !tailColumns(14, 14, 6, 4) && !tailColumns(56, 56, 6, 4) &&
                  !tailColumns(28, 28, 6, 4) && !tailColumns(7, 7, 8, 2) &&
                  !tailColumns(1, 49, 6, 4) && !tailColumns(4, 4, 6, 4),
              "the cases the comment above names, AVX-512's 8-pixel tiles, a flattened row");

/// The largest tile the vectorisation takes (TileAndVectorize.cpp): columns
/// a multiple of 16, at most 32; at most 8 rows.
inline constexpr int64_t kMaxTileRows = 8, kMaxTileColumns = 32, kTileColumnStep = 16;

/// Every shape of the CPU kernels that depends on the target.
/// KernelTiles::stridedIm2colPixels below AVX-512 (also the default of
/// dlc-pack-conv-weights' `strided-im2col-pixels`).
inline constexpr int64_t kStridedIm2colPixelsAvx2 = 784;

struct KernelTiles {
  MatmulTile matmul;
  PixelRowTile pixelRow;
  /// How far ahead of a packed panel's row its prefetch runs
  /// (PrefetchPanelRows.cpp): a quarter of L1d (8 KiB of 32), so that the
  /// prefetched rows are still there when the loop reaches them.
  int64_t prefetchAheadBytes = 8192;
  /// The longest unit-stride row whose window taps VectorizeRows shifts in
  /// registers (a depthwise convolution's rows, read from the unpadded
  /// image); longer ones read a padded copy. An eighth of the registers'
  /// floats: each row is read three times (3x3 taps) and shifted twice, with
  /// its accumulator beside. AVX-512 (32 zmm): 64 floats, measured there;
  /// AVX2 (16 ymm): 16, where 28-float rows spilled (MobileNetV2's 192ch
  /// 28x28 depthwise on Zen 3, one thread: 168 -> 109 us with the copy) and
  /// 14 and 7 ran as fast either way.
  int64_t shiftedRowFloats = 64;
  /// The bytes of B a blocked matmul packs per block of columns
  /// (TileAndVectorize.cpp, blockedPanels): an eighth of L2, so that the
  /// block stays there while every row of register tiles reads it.
  int64_t blockBytes = 64 << 10;
  /// The most bytes of a filter panel a pixel-row tile reads per block of
  /// channels (ConvToMatmul.cpp, channelBlock): half of L1d, so that the
  /// block stays there while every tile of a piece reads it.
  int64_t channelBlockBytes = 16 << 10;
  /// The steps per turn of a register tile's K loop (UnrollTileLoops.cpp):
  /// with one step a turn, the loop's bookkeeping took a sixth of the
  /// macro-ops, dispatch slots the FMAs lacked on a core shared with
  /// another thread (Zen 3, AVX2; 4 measured best there, 2 gained half as
  /// much). AVX-512's 8x32 tile has 32 FMAs a step: not measured there.
  int64_t tileLoopUnroll = 4;
  /// The fewest output pixels from which a strided 1x1 convolution over 64
  /// or more channels runs as an im2col and one matmul instead of on pixel
  /// rows (ConvStrategy.h, convRunsOnPixelRows). AVX2 (Zen 3): 784, below
  /// which the pixel rows won (512 -> 1024 channels to 14x14 3.55 -> 2.92
  /// ms). AVX-512 (Intel Xeon): im2col at every size; the pixel rows' serial
  /// subsampling and transpose left the second thread waiting (ResNet-18's
  /// 256 -> 512 to 7x7 with its residual add: 136 -> 123 us at one thread,
  /// 190 -> 86 at two).
  int64_t stridedIm2colPixels = kStridedIm2colPixelsAvx2;
  /// The vector width the tiles are made of: a row of the matmul tile is
  /// two vectors of f32.
  constexpr int64_t vectorBits() const { return matmul.columns / 2 * 32; }
  constexpr bool operator==(const KernelTiles &o) const {
    return matmul == o.matmul && pixelRow == o.pixelRow &&
           prefetchAheadBytes == o.prefetchAheadBytes && shiftedRowFloats == o.shiftedRowFloats &&
           blockBytes == o.blockBytes && channelBlockBytes == o.channelBlockBytes &&
           tileLoopUnroll == o.tileLoopUnroll && stridedIm2colPixels == o.stridedIm2colPixels;
  }
};

/// The FMA figures kernelTilesFor uses (CpuTarget.h: from LLVM's
/// scheduling model); zero where unknown.
struct FmaTiming {
  int latencyCycles = 0;
  double perCycle = 0;
};

/// The tiles for `vectorRegisters` registers of `vectorBits`, an FMA of
/// `fma`, and an L1d of `l1dBytes` (see the top of this file).
constexpr KernelTiles kernelTilesFor(int vectorBits, int vectorRegisters, int64_t l1dBytes,
                                     FmaTiming fma = {}) {
  int64_t lanes = vectorBits / 32 > 0 ? vectorBits / 32 : 1;
  int64_t columns = 2 * lanes;
  columns = columns < kTileColumnStep ? kTileColumnStep
                                      : (columns > kMaxTileColumns ? kMaxTileColumns : columns);
  columns -= columns % kTileColumnStep;
  int64_t perRow = (columns + lanes - 1) / lanes;
  int64_t rows = (vectorRegisters - perRow - 1) / perRow;
  // A core that issues fewer than 512 FMA bits a cycle (Zen 1: one 256-bit
  // FMA a cycle, in two halves) needs fewer accumulators to hide the FMA
  // latency; rows beyond twice that only add broadcast loads. On Zen 1
  // (latency 5): 5 x 16, where convolutions ran at 83.5% of peak against
  // 76.8% with 6 x 16 and 81.7% with 4 x 16 (ResNet-18's layers, one thread).
  if (fma.latencyCycles > 0 && fma.perCycle > 0 && fma.perCycle * vectorBits < 512) {
    double accumulators = 2.0 * fma.latencyCycles * fma.perCycle;
    int64_t latencyRows = static_cast<int64_t>((accumulators + perRow - 1) / perRow);
    rows = latencyRows < rows ? latencyRows : rows;
  }
  rows = rows < 1 ? 1 : (rows > kMaxTileRows ? kMaxTileRows : rows);
  int64_t steady = 1;
  if (fma.latencyCycles > 0 && fma.perCycle > 0) {
    double inFlight = fma.latencyCycles * fma.perCycle;
    steady = static_cast<int64_t>((inFlight + perRow - 1) / perRow);
    steady = steady < 1 ? 1 : (steady > rows ? rows : steady);
  }
  int64_t ahead = l1dBytes / 4 < 1024 ? 1024 : l1dBytes / 4;
  int64_t shifted = lanes * (vectorRegisters / 8 > 1 ? vectorRegisters / 8 : 1);
  return KernelTiles{MatmulTile{rows, columns},
                     PixelRowTile{rows, columns, steady},
                     ahead,
                     shifted,
                     64 << 10,
                     l1dBytes / 2,
                     /*tileLoopUnroll=*/4,
                     /*stridedIm2colPixels=*/vectorBits >= 512 ? 0 : kStridedIm2colPixelsAvx2};
}

inline constexpr KernelTiles kAvx512Tiles = kernelTilesFor(512, 32, 32 << 10, {4, 1}),
                             kAvx2Tiles = kernelTilesFor(256, 16, 32 << 10, {4, 2});
static_assert(kAvx512Tiles.shiftedRowFloats == 64 && kAvx2Tiles.shiftedRowFloats == 16,
              "the shifted rows measured on Zen 5 and Zen 3 (KernelTiles)");
static_assert(kAvx512Tiles.matmul == MatmulTile{8, 32} && kAvx2Tiles.matmul == MatmulTile{6, 16} &&
                  kernelTilesFor(256, 16, 32 << 10, {5, 1}).matmul == MatmulTile{5, 16},
              "the tiles measured on Zen 5, Zen 3 and Zen 1 (top of this file)");

} // namespace dlc::cpu

#endif // DLC_COMPILER_TARGET_CPU_CPUTILES_H
