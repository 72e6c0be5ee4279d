//===- CpuRelayouts.cpp - layout changes the CPU's kernels do in place -----===//

#include "compiler/Target/CPU/CpuRelayouts.h"
#include "dialects/dlc/DlcOps.h"

using namespace mlir;
using namespace dlc;

// A chain from a constant (PackConvWeights.cpp, LinearToMatmul.cpp), each op
// used only by the next, ending right before its user.
bool dlc::isPackedWeightView(Operation *op) {
  auto t = dyn_cast<TransposeOp>(op);
  auto r = dyn_cast<ReshapeOp>(op);
  if (r)
    t = r.getInput().getDefiningOp<TransposeOp>();
  if (!t || !t.getInput().getDefiningOp<ConstantOp>() || !t->hasOneUse())
    return false;
  Operation *last = t;
  if (auto view = dyn_cast<ReshapeOp>(*t->user_begin())) {
    if (view->getPrevNode() != t || !view->hasOneUse())
      return false;
    last = view;
  }
  if (r && last != op)
    return false;
  Operation *user = *last->user_begin();
  return user == last->getNextNode() && isa<Conv2dOp, MatmulOp>(user);
}

namespace {
bool runsOnCpu(DeviceAttr pin) { return !pin || pin.isCpu(); }

/// Whether `t` moves only batch and row dims (rank 3 or more, the last dim
/// kept: attention's heads) and runs on the CPU, like `matmul`.
bool movesBatchDimsBeside(TransposeOp t, MatmulOp matmul) {
  ArrayRef<int64_t> perm = t.getPerm();
  DeviceAttr device = getDevicePin(t);
  return matmul && perm.size() >= 3 && perm.back() == static_cast<int64_t>(perm.size()) - 1 &&
         runsOnCpu(device) && getDevicePin(matmul) == device;
}
} // namespace

bool dlc::isReadInPlaceByMatmul(Operation *op) {
  auto t = dyn_cast<TransposeOp>(op);
  if (!t || !t->hasOneUse() || t.getInput().getDefiningOp<ConstantOp>())
    return false;
  return movesBatchDimsBeside(t, dyn_cast<MatmulOp>(*t->user_begin()));
}

bool dlc::isWrittenInPlaceByMatmul(Operation *op) {
  auto t = dyn_cast<TransposeOp>(op);
  auto matmul = t ? t.getInput().getDefiningOp<MatmulOp>() : MatmulOp();
  return matmul && matmul->hasOneUse() && movesBatchDimsBeside(t, matmul);
}

