//===- DlcAttrs.cpp - #dlc.device<cpu> and #dlc.device<cuda:N> ------------===//

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dlc;

#define GET_ATTRDEF_CLASSES
#include "dialects/dlc/DlcAttrs.cpp.inc"

void DlcDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/dlc/DlcAttrs.cpp.inc"
      >();
}

std::string DeviceAttr::str() const {
  if (isCpu())
    return "cpu";
  return "cuda:" + std::to_string(getIndex());
}

LogicalResult DeviceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 DeviceKind kind, int64_t index) {
  if (kind == DeviceKind::Cpu && index != 0)
    return emitError() << "the cpu device takes no index, got " << index;
  if (kind == DeviceKind::Cuda && index < 0)
    return emitError() << "cuda device index must be non-negative, got "
                       << index;
  return success();
}

// cpu | cuda:N, the body of #dlc.device<...> and the operand of `dlc.copy ... to`.
DeviceAttr dlc::parseDeviceBody(AsmParser &parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef kind;
  if (parser.parseOptionalKeyword(&kind)) {
    parser.emitError(loc, "expected a device: 'cpu' or 'cuda:N'");
    return {};
  }
  int64_t index = 0;
  DeviceKind deviceKind;
  if (kind == "cpu") {
    deviceKind = DeviceKind::Cpu;
  } else if (kind == "cuda") {
    deviceKind = DeviceKind::Cuda;
    llvm::SMLoc indexLoc;
    if (parser.parseColon() ||
        (indexLoc = parser.getCurrentLocation(), parser.parseInteger(index)))
      return {};
    if (index < 0) {
      parser.emitError(indexLoc, "cuda device index must be non-negative, got ")
          << index;
      return {};
    }
  } else {
    parser.emitError(loc, "unknown device kind '")
        << kind << "': expected 'cpu' or 'cuda:N'";
    return {};
  }
  return DeviceAttr::getChecked([&] { return parser.emitError(loc); },
                                parser.getContext(), deviceKind, index);
}

Attribute DeviceAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  DeviceAttr device = parseDeviceBody(parser);
  if (!device)
    return {};
  // `cpu:N` is a common slip; only here, inside <>, can `:` not start a type.
  if (device.isCpu() && succeeded(parser.parseOptionalColon())) {
    llvm::SMLoc indexLoc = parser.getCurrentLocation();
    int64_t index = 0;
    if (parser.parseInteger(index))
      return {};
    parser.emitError(indexLoc, "the cpu device takes no index, got ") << index;
    return {};
  }
  if (parser.parseGreater())
    return {};
  return device;
}

void DeviceAttr::print(AsmPrinter &printer) const {
  printer << '<' << str() << '>';
}

DenseResourceElementsAttr dlc::resourceConstant(ShapedType type, StringRef name,
                                                AsmResourceBlob blob) {
  std::string key;
  for (char c : name)
    key += (llvm::isAlnum(c) || c == '_' || c == '.') ? c : '_';
  if (key.empty() || !(llvm::isAlpha(key[0]) || key[0] == '_'))
    key = "w_" + key;
  return DenseResourceElementsAttr::get(type, key, std::move(blob));
}
