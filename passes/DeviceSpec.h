//===- DeviceSpec.h - what each logical device can do ---------------------===//
//
// A device spec lists the logical devices placement may use (`cpu`,
// `cuda:N`, `KIND:N` of any registered backend), what each can do (memory, peak FLOP/s per dtype, memory
// bandwidth, launch overhead, the op kinds its backend runs) and the links
// between them (bandwidth, latency). The built-in profiles come from each
// kind's backend (passes/TargetBackend.h): a host CPU and H200-class GPUs
// joined by PCIe 5 (CPU <-> GPU) and NVLink (GPU <-> GPU);
// `--device-spec=FILE.json` describes any other machine. The figures, their
// sources and the JSON schema are in passes/README.md.
//
// No MLIR here: the spec is plain data, parsed with llvm::json.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_DEVICESPEC_H
#define DLC_PASSES_DEVICESPEC_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlc {

/// A logical device's name as `--devices` and the dumps spell it.
struct DeviceId {
  /// `cpu`, `cuda`, or another registered backend's kind.
  std::string kind = "cpu";
  int64_t index = 0;
  bool isCpu() const { return kind == "cpu"; }
  std::string str() const;
  bool operator==(const DeviceId &o) const {
    return kind == o.kind && index == o.index;
  }
};

class TargetBackend;

/// What the built-in profiles describe: the CPU code is compiled for (an
/// LLVM CPU name or "native"), from which the CPU backend derives its
/// profile (compiler/Target/CPU/CpuBackend.cpp).
struct BuiltinTarget {
  std::string cpu = "native";
  /// `--kernel-tiles=RxC` (checked), the CPU's register tile instead of the
  /// one its description gives; empty: that one.
  std::string kernelTiles;
};

/// Parses `cpu` or `KIND:N` for a registered backend's KIND (`cuda:0`).
llvm::Expected<DeviceId> parseDeviceId(llvm::StringRef text);

/// Parses `--devices=cpu,cuda:0,...`: no duplicates, at least one device.
llvm::Expected<std::vector<DeviceId>> parseDeviceList(llvm::StringRef text);

struct DeviceProfile {
  DeviceId id;
  int64_t memoryBytes = 0;
  /// Peak FLOP/s for f32, f16 and bf16 (integer ops run at the f32 rate).
  double flopsF32 = 0, flopsF16 = 0, flopsBF16 = 0;
  double bandwidthBytesPerS = 0;
  double launchOverheadUs = 0;
  /// The f32 FLOP/s this device's own kernels reach, per cost kind
  /// (costKind in CostModel.h: `matmul`, `conv2d`, `depthwise_conv2d`, ...),
  /// measured by `dlc probe-devices` or derived from the target; a kind
  /// without an entry runs at `flopsF32`. f16 and bf16 scale the entry by
  /// flopsF16 / flopsF32 and flopsBF16 / flopsF32.
  llvm::StringMap<double> kernelFlops;
  /// Where the figures come from (`built-in from the target znver4 ...`,
  /// `dlc probe-devices on ...`), and the spec file they were read from
  /// (empty: built in); describe() joins them for the placement dumps.
  std::string source, specFile;
  std::string describe() const {
    std::string text = specFile.empty() ? source : specFile + (source.empty() ? "" : ": " + source);
    return text.empty() ? "unnamed" : text;
  }
  /// The op kinds a device spec restricts this device to (`matmul`, no
  /// dialect prefix); nullopt: every op its backend runs.
  std::optional<llvm::StringSet<>> supportedOps;
  /// The backend of `id.kind` (passes/TargetBackend.h); `deviceRuns` asks it.
  const TargetBackend *backend = nullptr;

  bool supports(llvm::StringRef opKind) const {
    return !supportedOps || supportedOps->contains(opKind);
  }
};

struct LinkProfile {
  double bandwidthBytesPerS = 0;
  double latencyUs = 0;
};

struct DeviceSpec {
  std::vector<DeviceProfile> devices;
  /// links[i][j]: from devices[i] to devices[j]; the diagonal is unused.
  std::vector<std::vector<LinkProfile>> links;

  /// The position of `id` in `devices`, or -1.
  int find(const DeviceId &id) const;
  std::string names() const;

  /// Built-in profiles for `ids`, from their backends (the CPU is added first
  /// when missing: the function's arguments and results live there);
  /// `target` says what the backends describe (the CPU's: `--cpu`).
  static DeviceSpec builtin(const std::vector<DeviceId> &ids,
                            const BuiltinTarget &target = {});
  /// A spec from JSON text (`source` names it in errors).
  static llvm::Expected<DeviceSpec> parseJson(llvm::StringRef json,
                                              llvm::StringRef source);
  static llvm::Expected<DeviceSpec> loadJson(llvm::StringRef path);
  /// The spec in the JSON schema parseJson reads (`source` and
  /// `kernel_flops` included; parsing it back gives the same figures).
  std::string toJson() const;

  /// The spec restricted to `ids` (plus the CPU), in that order; an id the
  /// spec lacks is an error naming it.
  llvm::Expected<DeviceSpec> select(const std::vector<DeviceId> &ids,
                                    llvm::StringRef source) const;
};


} // namespace dlc

#endif // DLC_PASSES_DEVICESPEC_H
