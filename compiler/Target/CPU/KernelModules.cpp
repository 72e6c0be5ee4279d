//===- KernelModules.cpp - each kernel in a module of its own, and back ---===//
//
// The conversions to the LLVM dialect that work on a whole module (vector,
// memref and func to LLVM, math to libm, control flow, the cast
// reconciliation: they add declarations such as malloc's) ran on one thread
// while the other core idled: ~3 s of DenseNet-201's 15 s compile, whose 300
// kernels are all different. Inside a module of its own each kernel, with
// its outlined parallel bodies and launch declarations, is converted on the
// context's threads like any nested op:
//
//   module {
//     memref.global "private" constant @w : memref<64xf32> = dense<...>
//     func.func @k0(...) { memref.get_global @w; call @k0_par0_launch ... }
//     func.func private @k0_par0_launch(...)
//     func.func @k0_par0(...) {...}
//   }
// becomes
//   module {
//     module { memref.global @w (a copy); func.func @k0; @k0_par0_launch; @k0_par0 }
//     module { ... the next kernel ... }
//   }
//
// Globals and declarations used by several kernels are copied into each;
// flattening keeps one (they convert alike). Functions with bodies belong to
// one kernel or the module is left as it is. What no kernel uses goes into a
// module of its own, so that it is converted too.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

bool hasBody(Operation *op) {
  auto function = dyn_cast<FunctionOpInterface>(op);
  return function && !function.isExternal();
}

/// The top-level symbols `root` uses, through the bodies of the functions it
/// uses in turn; `root` first.
llvm::SetVector<Operation *> usedSymbols(Operation *root, SymbolTable &table) {
  llvm::SetVector<Operation *> group;
  group.insert(root);
  for (size_t next = 0; next < group.size(); ++next) {
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(group[next]);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses)
      if (Operation *def = table.lookup(use.getSymbolRef().getRootReference()))
        group.insert(def);
  }
  return group;
}

ModuleOp newNestedModule(ModuleOp parent) {
  OpBuilder builder = OpBuilder::atBlockEnd(parent.getBody());
  auto nested = builder.create<ModuleOp>(parent.getLoc());
  // The data layout and target the conversions read.
  for (NamedAttribute attr : parent->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      nested->setAttr(attr.getName(), attr.getValue());
  return nested;
}

} // namespace

bool dlc::nestKernelModules(ModuleOp module) {
  SymbolTable table(module);
  SmallVector<Operation *> tops = llvm::to_vector(llvm::make_pointer_range(*module.getBody()));
  SmallVector<llvm::SetVector<Operation *>> groups;
  llvm::DenseMap<Operation *, unsigned> owner; // functions with bodies
  for (Operation *op : tops) {
    auto function = dyn_cast<func::FuncOp>(op);
    if (!function || function.isExternal() || !function.isPublic() || isParallelBody(function))
      continue;
    groups.push_back(usedSymbols(function, table));
    for (Operation *used : groups.back())
      if (hasBody(used) && !owner.try_emplace(used, groups.size() - 1).second)
        return false; // a body two kernels call: leave the module whole
  }
  llvm::DenseSet<Operation *> used;
  for (const auto &group : groups)
    used.insert(group.begin(), group.end());
  for (const auto &group : groups) {
    ModuleOp nested = newNestedModule(module);
    OpBuilder builder = OpBuilder::atBlockEnd(nested.getBody());
    for (Operation *op : group) {
      if (hasBody(op))
        op->moveBefore(nested.getBody(), nested.getBody()->end());
      else
        builder.clone(*op);
    }
  }
  // Copied into every group that uses them: the originals go. Unused ops
  // are still converted, in a module of their own.
  ModuleOp rest;
  for (Operation *op : tops) {
    if (op->getParentOp() != module || isa<ModuleOp>(op))
      continue;
    if (used.contains(op)) {
      op->erase();
      continue;
    }
    if (!rest)
      rest = newNestedModule(module);
    op->moveBefore(rest.getBody(), rest.getBody()->end());
  }
  return true;
}

LogicalResult dlc::flattenKernelModules(ModuleOp module) {
  SmallVector<ModuleOp> nested = llvm::to_vector(module.getOps<ModuleOp>());
  SymbolTable table(module);
  for (ModuleOp inner : nested) {
    for (Operation &op : llvm::make_early_inc_range(*inner.getBody())) {
      auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (name && table.lookup(name)) {
        // A copy of a global or declaration another kernel's module had.
        if (hasBody(&op))
          return op.emitError("two kernel modules define ") << name;
        op.erase();
        continue;
      }
      op.moveBefore(module.getBody(), module.getBody()->end());
      if (name)
        table.insert(&op);
    }
    inner.erase();
  }
  return success();
}
