//===- DlcDialect.cpp - the dlc dialect -----------------------------------===//

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dlc;

#include "dialects/dlc/DlcDialect.cpp.inc"

void DlcDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/dlc/DlcOps.cpp.inc"
      >();
}

Operation *DlcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, type, elements, DeviceAttr());
}

const char *dlc::stringifyFp16Policy(Fp16Policy policy) {
  switch (policy) {
  case Fp16Policy::Allow:
    return "allow";
  case Fp16Policy::Deny:
    return "deny";
  case Fp16Policy::Infer:
    return "infer";
  case Fp16Policy::Clear:
    return "clear";
  }
  return "unknown";
}

#include "dialects/dlc/DlcInterfaces.cpp.inc"
