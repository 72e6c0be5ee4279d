//===- DlcOps.h - the dlc dialect: dialect, attributes, interfaces, ops ---===//
//
// The one header users of the dialect include.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_DLCOPS_H
#define DLC_DIALECT_DLCOPS_H

#include "dialects/dlc/DlcEnums.h"
#include "dialects/dlc/DlcShapes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dlc::detail {
/// Default cost of an elementwise op: `perElement` operations per result element.
int64_t elementwiseFlops(Operation *op, int64_t perElement);
/// Bytes of every tensor operand and result, each counted once.
int64_t operandAndResultBytes(Operation *op);
} // namespace dlc::detail

namespace llvm {
inline hash_code hash_value(dlc::DeviceKind kind) {
  return hash_value(static_cast<uint32_t>(kind));
}
} // namespace llvm

#include "dialects/dlc/DlcDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/dlc/DlcAttrs.h.inc"

#include "dialects/dlc/DlcInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/dlc/DlcOps.h.inc"

namespace dlc {
/// For a value used as gather indices: the smallest dimension it indexes (so
/// that generated test inputs stay in range); 0 when no gather indexes it.
int64_t gatherIndexBound(Value value);

/// Parses `cpu` or `cuda:N` (no `#dlc.device<>` around it); null on error.
DeviceAttr parseDeviceBody(AsmParser &parser);

/// The device pin of `op` (its `device` attribute), or null when it has none.
inline DeviceAttr getDevicePin(Operation *op) {
  return op->getAttrOfType<DeviceAttr>("device");
}
} // namespace dlc

#endif // DLC_DIALECT_DLCOPS_H
