//===- ConvStrategy.h - which f32 convolutions skip im2col on the CPU -----===//
//
// Header-only: the graph pass that packs convolution weights
// (PackConvWeights.cpp) and the CPU lowering that consumes them
// (compiler/Lowering/ConvToMatmul.cpp) must agree on it.
//
// A stride-1, undilated, ungrouped KHxKW convolution runs as KH*KW
// accumulating matmuls on shifted views of the padded image. It needs enough
// channels for each tap's matmul to keep its register tile busy (C >= 16),
// whole 8-row register tiles of filters (F % 8 == 0), and a kernel of at most
// 5x5 (the taps' loop runs once per tap over the output).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_PASSES_CONVSTRATEGY_H
#define DLC_PASSES_CONVSTRATEGY_H

#include <cstdint>

namespace dlc {

inline bool convRunsAsShiftedMatmuls(int64_t channels, int64_t filters, int64_t kh,
                                     int64_t kw, bool unitStrides, bool unitDilations,
                                     int64_t groups) {
  return groups == 1 && unitStrides && unitDilations && kh * kw > 1 &&
         kh * kw <= 25 && channels >= 16 && filters % 8 == 0;
}

} // namespace dlc

#endif
