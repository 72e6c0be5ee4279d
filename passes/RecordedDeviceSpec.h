//===- RecordedDeviceSpec.h - the device spec placement used, in the IR ---===//
//
// dlc-place resolves `--devices` and `--device-spec` once and records the
// spec it placed with on the module (`dlc.device_spec`); the passes after it
// (dlc-report-placement, the artifact stage's links and estimates) read that
// record instead of parsing the options again. A pipeline resumed from
// printed IR therefore sees the spec placement saw, with no flags.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_RECORDEDDEVICESPEC_H
#define DLC_PASSES_RECORDEDDEVICESPEC_H

#include "passes/DeviceSpec.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace dlc {

/// Records `spec` on `module` as `dlc.device_spec = {json = "...", files =
/// [...]}`: the spec in its JSON schema and, per device, the file its figures
/// were read from ("" for built-in profiles).
void recordDeviceSpec(mlir::ModuleOp module, const DeviceSpec &spec);

/// The spec dlc-place recorded on `module`; nullopt when none was (placement
/// did not run). A malformed record is an error on the module.
mlir::FailureOr<std::optional<DeviceSpec>> recordedDeviceSpec(mlir::ModuleOp module);

} // namespace dlc

#endif // DLC_PASSES_RECORDEDDEVICESPEC_H
