//===- PlanMemory.cpp - dlc-plan-memory: one arena per device -------------===//
//
// After dlc-schedule: each storage (a buffer that is no view) is live from
// its first to its last use in its device's step list (a Call uses all its
// buffers, a Copy its source, and its destination on the same device);
// inputs are live from the start, outputs to
// the end, and a buffer another device's copy writes never shares bytes (no
// cross-stream hazard), nor does a persistent one (state, kept from run to
// run); a buffer with a dimension known only at run time is sized for its
// max_shape. MemoryPlanner packs each device's storages into one
// arena; constants live in segments and get none. Writes each storage's
// `offset` and the arena sizes onto the function (ScheduleIR.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipeline/MemoryPlanner.h"
#include "compiler/Pipeline/SchedulePasses.h"
#include "compiler/Pipeline/ScheduleIR.h"

#include "mlir/Pass/Pass.h"

#include <climits>

using namespace mlir;
using namespace dlc::schedule;
namespace aw = dlc::artifact_writer;

namespace {

struct LiveRange {
  int64_t first = INT64_MAX, last = -1; // positions in its device's step list
};

std::vector<LiveRange> liveRanges(func::FuncOp func, const Schedule &s) {
  std::vector<LiveRange> live(s.buffers.size());
  auto use = [&](unsigned buffer, int64_t position) {
    LiveRange &range = live[s.owner(buffer)];
    range.first = std::min(range.first, position);
    range.last = std::max(range.last, position);
  };
  for (const auto &steps : s.steps)
    for (auto [position, step] : llvm::enumerate(steps)) {
      if (step.kind == aw::StepKind::Call)
        for (unsigned buffer : step.buffers)
          use(buffer, position);
      // (A copy's destination on another device never shares bytes; one on
      // this device, a state's old value kept for an output, is live from it.)
      if (step.kind == aw::StepKind::Copy) {
        use(step.buffers[0], position);
        if (s.buffers[step.buffers[1]].device == s.buffers[step.buffers[0]].device)
          use(step.buffers[1], position);
      }
    }
  llvm::DenseMap<Value, unsigned> bufferOf;
  for (auto [i, value] : llvm::enumerate(s.values))
    bufferOf[value] = i;
  // Outputs are read by the host once every stream has finished the run.
  for (Value v : func.getBody().front().getTerminator()->getOperands()) {
    unsigned owner = s.owner(bufferOf.lookup(v));
    live[owner].last = INT64_MAX;
    live[owner].first = std::min<int64_t>(live[owner].first,
                                          s.steps[s.buffers[owner].device].size());
  }
  // Inputs are written before the first step, also those no step reads (an
  // ONNX graph may have such inputs): they need bytes of their own.
  for (BlockArgument arg : func.getArguments()) {
    unsigned owner = s.owner(bufferOf.lookup(arg));
    live[owner].first = -1;
    live[owner].last = std::max<int64_t>(live[owner].last, 0);
  }
  return live;
}

LogicalResult planMemory(func::FuncOp func) {
  FailureOr<Schedule> read = readSchedule(func, /*needPlan=*/false);
  if (failed(read))
    return failure();
  Schedule &s = *read;
  std::vector<LiveRange> live = liveRanges(func, s);
  s.arenaBytes.assign(s.devices.size(), 0);
  s.peakLiveBytes.assign(s.devices.size(), 0);
  for (BufferInfo &buffer : s.buffers)
    buffer.offset = 0;
  for (unsigned device = 0; device < s.devices.size(); ++device) {
    std::vector<dlc::LiveRange> ranges;
    std::vector<unsigned> owners;
    for (auto [i, buffer] : llvm::enumerate(s.buffers)) {
      // Views share their owner's bytes; unused storages need none, unless
      // another stream writes them.
      if (buffer.viewOf >= 0 || buffer.device != device ||
          s.values[i].getDefiningOp<dlc::ConstantOp>() ||
          (live[i].last < 0 && !buffer.crossDevice && !buffer.persistent))
        continue;
      FailureOr<uint64_t> size = bufferBytes(s.values[i], buffer);
      if (failed(size))
        return failure();
      if (buffer.crossDevice || buffer.persistent)
        ranges.push_back({*size, -1, INT64_MAX});
      else
        ranges.push_back({*size, live[i].first, live[i].last});
      owners.push_back(i);
    }
    dlc::MemoryPlan plan = dlc::planMemory(ranges);
    for (auto [i, owner] : llvm::enumerate(owners))
      s.buffers[owner].offset = plan.offsets[i];
    s.arenaBytes[device] = plan.arenaSize;
    s.peakLiveBytes[device] = plan.peakLiveBytes;
  }
  // A view lives where its owner does.
  for (BufferInfo &buffer : s.buffers)
    if (buffer.viewOf >= 0)
      buffer.offset = s.buffers[buffer.viewOf].offset;
  writeSchedule(func, s);
  return success();
}

struct PlanMemoryPass : PassWrapper<PlanMemoryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PlanMemoryPass)
  PlanMemoryPass() = default;
  PlanMemoryPass(const PlanMemoryPass &other) : PassWrapper(other) {}
  explicit PlanMemoryPass(std::string entryName) { entry = entryName; }
  StringRef getArgument() const override { return "dlc-plan-memory"; }
  StringRef getDescription() const override {
    return "One arena per device, planned by liveness over the schedule";
  }
  void runOnOperation() override {
    func::FuncOp func = dlc::entryFunction(getOperation(), entry);
    if (!func || failed(planMemory(func)))
      signalPassFailure();
  }
  Option<std::string> entry{*this, "entry", llvm::cl::desc("The function to plan"),
                            llvm::cl::init("main")};
};

} // namespace

std::unique_ptr<Pass> dlc::createPlanMemory(StringRef entry) {
  return std::make_unique<PlanMemoryPass>(entry.str());
}

void dlc::registerPlanMemory() { PassRegistration<PlanMemoryPass>(); }
