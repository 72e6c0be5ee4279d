//===- PrepareEntry.cpp - name every op, keep the entry -------------------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_PREPAREENTRY
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct PrepareEntryPass : dlc::impl::PrepareEntryBase<PrepareEntryPass> {
  using PrepareEntryBase::PrepareEntryBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Names fixed now, before passes add ops: buffers, dumps and
    // `dlc run --compare-reference` then agree on every op's name.
    module.walk([](func::FuncOp f) { dlc::nameUnnamedOps(f); });
    // Only the entry is compiled: the other functions of the file must not be
    // placed (their errors are not this compile's, and the placement dump is
    // the entry's).
    if (!module.lookupSymbol<func::FuncOp>(entry))
      return;
    for (func::FuncOp f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (f.getSymName() != entry)
        f.erase();
  }
};

} // namespace
