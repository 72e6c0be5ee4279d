//===- DlcAttrs.cpp - #dlc.device<cpu>, <cuda:N>, <KIND:N>; the kind registry -===//

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstdint>
#include <mutex>

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

namespace {
/// The device kinds #dlc.device accepts; cpu and cuda are always there.
struct DeviceKindRegistry {
  std::mutex mutex;
  std::vector<std::string> kinds = {"cpu", "cuda"};
};
DeviceKindRegistry &deviceKindRegistry() {
  static DeviceKindRegistry registry;
  return registry;
}
} // namespace

void dlc::registerDeviceKind(const std::string &kind) {
  DeviceKindRegistry &r = deviceKindRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!llvm::is_contained(r.kinds, kind))
    r.kinds.push_back(kind);
}

bool dlc::isDeviceKind(const std::string &kind) {
  DeviceKindRegistry &r = deviceKindRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return llvm::is_contained(r.kinds, kind);
}

std::vector<std::string> dlc::deviceKinds() {
  DeviceKindRegistry &r = deviceKindRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.kinds;
}

std::string dlc::expectedDeviceSpellings(const char *quote) {
  std::vector<std::string> kinds = deviceKinds();
  std::string out;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (i)
      out += i + 1 == kinds.size() ? " or " : ", ";
    out += quote + kinds[i] + (kinds[i] == "cpu" ? "" : ":N") + quote;
  }
  return out;
}

std::string DeviceAttr::str() const {
  if (isCpu())
    return "cpu";
  return getKind().str() + ":" + std::to_string(getIndex());
}

LogicalResult BufferAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                                 int64_t device, int64_t viewOf, bool crossDevice,
                                 bool persistent, DenseI64ArrayAttr maxShape, int64_t offset) {
  if (device < 0 || viewOf < -1 || offset < -1)
    return emitError() << "buffer '" << name
                       << "': device, view_of and offset must be non-negative";
  if (maxShape && llvm::any_of(maxShape.asArrayRef(), [](int64_t d) { return d < 0; }))
    return emitError() << "buffer '" << name << "': max_shape must be non-negative";
  return success();
}

LogicalResult StepAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef kind,
                               int64_t kernel, DenseI64ArrayAttr buffers, int64_t outputs,
                               int64_t event) {
  if (!llvm::is_contained(attrs::kStepKinds, kind))
    return emitError() << "unknown step kind '" << kind << "': expected call, copy, record or wait";
  bool call = kind == attrs::kStepKinds[0], copy = kind == attrs::kStepKinds[1];
  bool sync = !call && !copy;
  if (call != (kernel >= 0) || call != (outputs >= 0) || (call || copy) != bool(buffers) ||
      sync != (event >= 0))
    return emitError() << "a " << kind << " step has "
                       << (call ? "a kernel, buffers and an output count"
                           : copy ? "buffers"
                                  : "an event")
                       << " and nothing else";
  if (copy && buffers.size() != 2)
    return emitError() << "a copy step has two buffers, got " << buffers.size();
  if (buffers && llvm::any_of(buffers.asArrayRef(), [](int64_t id) { return id < 0; }))
    return emitError() << "a " << kind << " step's buffers must be non-negative";
  if (call && outputs > buffers.size())
    return emitError() << "a call step has more outputs than buffers";
  return success();
}

namespace {
/// A blob of code: bytes (i8 elements) in a resource.
bool isByteBlob(DenseResourceElementsAttr blob) {
  return blob && blob.getType().getRank() == 1 && blob.getElementType().isInteger(8);
}
bool allStrings(ArrayAttr array) {
  return llvm::all_of(array, [](Attribute a) { return llvm::isa<StringAttr>(a); });
}
} // namespace

LogicalResult LibraryAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  DenseResourceElementsAttr code, StringRef triple, StringRef cpu,
                                  ArrayAttr features) {
  if (!isByteBlob(code))
    return emitError() << "a library's code is a 1-D i8 dense_resource";
  if (triple.empty() || cpu.empty())
    return emitError() << "a library names its target triple and CPU";
  if (features && !allStrings(features))
    return emitError() << "a library's features are strings";
  return success();
}

LogicalResult CudaModuleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                     StringRef ptxArch, DenseResourceElementsAttr source,
                                     DenseResourceElementsAttr ptx, ArrayAttr cubinArchs,
                                     ArrayAttr cubins) {
  if (!isByteBlob(source) || !isByteBlob(ptx) ||
      !llvm::all_of(cubins, [](Attribute a) {
        return isByteBlob(llvm::dyn_cast<DenseResourceElementsAttr>(a));
      }))
    return emitError() << "a CUDA module's source, PTX and CUBINs are 1-D i8 dense_resources";
  if (!allStrings(cubinArchs) || cubinArchs.size() != cubins.size())
    return emitError() << "a CUDA module has one architecture (a string) per CUBIN, got "
                       << cubinArchs.size() << " for " << cubins.size();
  if (ptxArch.empty())
    return emitError() << "a CUDA module names its PTX's architecture";
  return success();
}

LogicalResult KernelCodeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                     int64_t library, StringRef symbol, int64_t cudaModule,
                                     StringAttr cudaEntry, DenseI64ArrayAttr grid,
                                     DenseI64ArrayAttr block, int64_t sharedBytes) {
  if (library < 0 || symbol.empty())
    return emitError() << "a kernel's code names its library (non-negative) and symbol";
  bool launch = cudaModule >= 0;
  if (cudaModule < -1 || launch != bool(cudaEntry) || launch != bool(grid) ||
      launch != bool(block) || (!launch && sharedBytes != 0))
    return emitError() << "a kernel's CUDA launch has a module, an entry, a grid and a block, "
                          "or none of them";
  if (launch && (grid.size() != 3 || block.size() != 3 || sharedBytes < 0 ||
                 llvm::any_of(llvm::concat<const int64_t>(grid.asArrayRef(), block.asArrayRef()),
                              [](int64_t d) { return d < 1 || d > UINT32_MAX; })))
    return emitError() << "a kernel's CUDA grid and block are three positive sizes each";
  return success();
}

LogicalResult DeviceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef kind, int64_t index) {
  if (!isDeviceKind(kind.str()))
    return emitError() << "unknown device kind '" << kind << "': expected "
                       << expectedDeviceSpellings("'");
  if (kind == "cpu" && index != 0)
    return emitError() << "the cpu device takes no index, got " << index;
  if (index < 0)
    return emitError() << kind << " device index must be non-negative, got "
                       << index;
  return success();
}

// cpu | KIND:N, the body of #dlc.device<...> and the operand of `dlc.copy ... to`.
DeviceAttr dlc::parseDeviceBody(AsmParser &parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef kind;
  if (parser.parseOptionalKeyword(&kind)) {
    parser.emitError(loc, "expected a device: ") << expectedDeviceSpellings("'");
    return {};
  }
  if (!isDeviceKind(kind.str())) {
    parser.emitError(loc, "unknown device kind '")
        << kind << "': expected " << expectedDeviceSpellings("'");
    return {};
  }
  int64_t index = 0;
  if (kind != "cpu") {
    llvm::SMLoc indexLoc;
    if (parser.parseColon() ||
        (indexLoc = parser.getCurrentLocation(), parser.parseInteger(index)))
      return {};
    if (index < 0) {
      parser.emitError(indexLoc) << kind << " device index must be non-negative, got "
                                 << index;
      return {};
    }
  }
  return DeviceAttr::getChecked([&] { return parser.emitError(loc); },
                                parser.getContext(), kind, index);
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
