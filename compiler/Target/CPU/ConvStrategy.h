//===- ConvStrategy.h - which f32 convolutions skip im2col on the CPU -----===//
//
// Header-only: the graph pass that packs convolution weights
// (PackConvWeights.cpp) and the CPU lowering that consumes them
// (compiler/Target/CPU/ConvToMatmul.cpp) must agree on it.
//
// A stride-1, undilated, ungrouped KHxKW convolution runs as KH*KW
// accumulating matmuls on shifted views of the padded image. It needs enough
// channels for each tap's matmul to keep its register tile busy (C >= 16),
// whole 8-row register tiles of filters (F % 8 == 0), and a kernel of at most
// 5x5 (the taps' loop runs once per tap over the output).
//
// A convolution with a multiple of P filters (P: the target's pixel-row
// tile's filters, CpuTiles.h: 32 with AVX-512, 16 with AVX2) and a window
// larger than 1x1 (or a 1x1 one that is strided or has a ragged output) runs
// on rows of output pixels instead, whatever its strides (ConvOnPixelRows in
// ConvToMatmul.cpp): each register tile is T pixels of one output row times
// P filters, accumulated over every tap and channel in registers, A
// broadcast from the image and B read from the weight packed as
// [F/P, KH, KW, C, P]. It computes no junk columns (the shifted matmuls
// compute KW - 1 per output row: 22% of a 7x7 layer's work), needs no im2col
// for strided convolutions, and reads C once per tile instead of once per
// tap. The shifted matmuls remain for filter counts that are not a multiple
// of P.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_COMPILER_TARGET_CPU_CONVSTRATEGY_H
#define DLC_COMPILER_TARGET_CPU_CONVSTRATEGY_H

#include "compiler/Target/CPU/CpuTiles.h"

#include <cstdint>

namespace dlc {

inline bool convRunsAsShiftedMatmuls(int64_t channels, int64_t filters, int64_t kh,
                                     int64_t kw, bool unitStrides, bool unitDilations,
                                     int64_t groups) {
  return groups == 1 && unitStrides && unitDilations && kh * kw > 1 &&
         kh * kw <= 25 && channels >= 16 && filters % 8 == 0;
}

/// `panelFilters`: the filters' panel width in the pixel-rows layout (the
/// register tile's N, cpu::PixelRowTile::filters); `stridedIm2colPixels`:
/// cpu::KernelTiles::stridedIm2colPixels.
inline bool convRunsOnPixelRows(int64_t channels, int64_t filters, int64_t kh, int64_t kw,
                                bool unitStrides, bool unitDilations, int64_t groups,
                                int64_t outPixels, int64_t panelFilters,
                                int64_t stridedIm2colPixels) {
  if (groups != 1 || !unitDilations || panelFilters < 1 || filters % panelFilters != 0)
    return false;
  // Measured against the shifted matmuls at stride 1 too: 3x3 64ch 56x56
  // 1.07 -> 0.95 ms, 256ch 14x14 1.08 -> 0.93, 512ch 7x7 1.29 -> 0.99.
  if (kh * kw > 1)
    return true;
  // A strided 1x1 convolution over 64 or more channels and 784 or more
  // output pixels on AVX2 (28x28: ResNet-18's first shortcut, ResNet-50's
  // first two), any number on AVX-512 (stridedIm2colPixels, CpuTiles.h),
  // runs faster as the subsampled image copied out (its im2col) and one
  // matmul. Measured on an AMD EPYC Zen 3 (AVX2), kernel minimums in the
  // models: 64->128 to 28x28 0.267 -> 0.225 ms (two threads 0.185 -> 0.163),
  // 256->512 to 28x28 as fast at one thread and 2.13 -> 1.72 ms at two. With
  // fewer pixels the pixel rows win since they read the subsampled image
  // pixel-major (ConvToMatmul.cpp): 512->1024 to 14x14 3.55 -> 2.92 ms (two
  // threads 2.13 -> 1.91), 128->256 to 14x14 0.294 -> 0.229. (Before that
  // transpose, an AVX-512 Xeon had im2col faster from 196 pixels and 256
  // channels: 512->1024 to 14x14 1.75 -> 1.42 ms; after it, im2col still at
  // every size there.)
  if (!unitStrides && channels >= 64 && outPixels >= stridedIm2colPixels)
    return false;
  // A 1x1 stride-1 convolution is a plain matmul on the image as stored,
  // unless its OH*OW columns are ragged (7x7, 14x14: widened with zeros to a
  // multiple of 16, copies both ways); strided ones need an im2col copy. With
  // few channels the tile's transposed write-back outweighs its C steps.
  return channels >= 32 && (!unitStrides || outPixels % 16 != 0);
}

} // namespace dlc

#endif
