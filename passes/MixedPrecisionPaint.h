//===- MixedPrecisionPaint.h - which ops compute in fp16 -------------------===//
//
// The painting half of dlc-mixed-precision, on a plain graph so that it can
// be tested on its own: nodes in topological order, each with its fp16
// policy, whether it may be painted at all (a candidate: f32 values only, on
// a GPU unless pinned) and its pin; edges from producer to consumer.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_MIXEDPRECISIONPAINT_H
#define DLC_PASSES_MIXEDPRECISIONPAINT_H

#include "dialects/dlc/DlcEnums.h"

#include <vector>

namespace dlc {

enum class PaintMode { Fp32, Mixed, Fp16 };
enum class PrecisionPin { None, Fp16, Fp32 };

struct PaintNode {
  Fp16Policy policy = Fp16Policy::Infer;
  bool candidate = false;
  PrecisionPin pin = PrecisionPin::None;
  std::vector<int> producers; // indices of earlier nodes
};

/// Which nodes compute in fp16. fp32: the nodes pinned to fp16. fp16: every
/// candidate not denied (by policy or pin). mixed, as TensorFlow's
/// auto-mixed-precision: (1) allow candidates; (2) deny spreads forward
/// through infer nodes and through the clear nodes on the way to one; (3)
/// infer and clear nodes on a path between painted nodes; (4) clear nodes
/// connected to painted ones through clear nodes. Pinned nodes are painted
/// as pinned and spread nothing; non-candidates are never painted.
std::vector<bool> paintFp16(PaintMode mode, const std::vector<PaintNode> &nodes);

} // namespace dlc

#endif // DLC_PASSES_MIXEDPRECISIONPAINT_H
