//===- CostModel.cpp - roofline op times and link transfer times ----------===//

#include "passes/CostModel.h"

#include "dialects/dlc/DlcOps.h"

#include <algorithm>

using namespace mlir;

std::string dlc::opName(Operation *op, unsigned ordinal) {
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (isa<NameLoc>(inner)) {
        loc = inner;
        break;
      }
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  return opKind(op).str() + "_" + std::to_string(ordinal);
}

void dlc::nameUnnamedOps(func::FuncOp func) {
  if (func.isExternal())
    return;
  unsigned ordinal = 0;
  for (Operation &op : func.getBody().front()) {
    unsigned index = ordinal++;
    Location loc = op.getLoc();
    bool named = isa<NameLoc>(loc);
    if (auto fused = dyn_cast<FusedLoc>(loc))
      named = llvm::any_of(fused.getLocations(),
                           [](Location l) { return isa<NameLoc>(l); });
    if (named || isa<func::ReturnOp>(op))
      continue;
    op.setLoc(NameLoc::get(StringAttr::get(op.getContext(), opName(&op, index)), loc));
  }
}

llvm::StringRef dlc::costKind(Operation *op) {
  if (auto conv = dyn_cast<Conv2dOp>(op)) {
    auto input = dyn_cast<RankedTensorType>(conv.getInput().getType());
    if (conv.getGroups() > 1 && input && input.getRank() == 4 &&
        input.getDimSize(1) == conv.getGroups())
      return "depthwise_conv2d";
  }
  return opKind(op);
}

int64_t dlc::valueBytes(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return 0;
  int64_t width = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  return type.getNumElements() * width;
}

double dlc::opTimeUs(Operation *op, const DeviceProfile &device) {
  auto cost = dyn_cast<CostOpInterface>(op);
  // Reshapes are views of their input's bytes: no launch, no work.
  if (!cost || isa<ConstantOp, CopyOp, ReshapeOp>(op))
    return 0;
  Type element;
  if (op->getNumResults())
    element = getElementTypeOrSelf(op->getResult(0).getType());
  double peak = device.flopsF32;
  if (element && element.isF16())
    peak = device.flopsF16;
  else if (element && element.isBF16())
    peak = device.flopsBF16;
  if (auto measured = device.kernelFlops.find(costKind(op));
      measured != device.kernelFlops.end())
    peak = measured->second * (peak / device.flopsF32);
  double compute = double(cost.getFlops()) / peak;
  double memory = double(cost.getBytesAccessed()) / device.bandwidthBytesPerS;
  return 1e6 * std::max(compute, memory) + device.launchOverheadUs;
}
