//===- RecordedDeviceSpec.cpp - the device spec placement used, in the IR -===//

#include "passes/RecordedDeviceSpec.h"

#include "dialects/dlc/DlcOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

void dlc::recordDeviceSpec(ModuleOp module, const DeviceSpec &spec) {
  Builder b(module.getContext());
  SmallVector<Attribute> files;
  for (const DeviceProfile &device : spec.devices)
    files.push_back(b.getStringAttr(device.specFile));
  module->setAttr(attrs::kDeviceSpec,
                  b.getDictionaryAttr({b.getNamedAttr("files", b.getArrayAttr(files)),
                                       b.getNamedAttr("json", b.getStringAttr(spec.toJson()))}));
}

FailureOr<std::optional<dlc::DeviceSpec>> dlc::recordedDeviceSpec(ModuleOp module) {
  Attribute attr = module->getAttr(attrs::kDeviceSpec);
  if (!attr)
    return std::optional<DeviceSpec>();
  auto record = dyn_cast<DictionaryAttr>(attr);
  auto json = record ? record.getAs<StringAttr>("json") : StringAttr();
  auto files = record ? record.getAs<ArrayAttr>("files") : ArrayAttr();
  if (!json || !files)
    return module.emitError() << attrs::kDeviceSpec
                              << ": expected {files = [strings], json = \"...\"}";
  llvm::Expected<DeviceSpec> spec =
      DeviceSpec::parseJson(json.getValue(), ("the module's " + attrs::kDeviceSpec).str());
  if (!spec)
    return module.emitError() << llvm::toString(spec.takeError());
  if (files.size() != spec->devices.size())
    return module.emitError() << attrs::kDeviceSpec << ": " << files.size()
                              << " files for " << spec->devices.size() << " devices";
  for (auto [device, file] : llvm::zip(spec->devices, files)) {
    auto name = dyn_cast<StringAttr>(file);
    if (!name)
      return module.emitError() << attrs::kDeviceSpec << ": files: expected strings";
    device.specFile = name.str();
  }
  return std::optional<DeviceSpec>(std::move(*spec));
}
