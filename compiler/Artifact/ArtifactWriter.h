//===- ArtifactWriter.h - writes .dlcm artifacts --------------------------===//
//
// The compiler's side of runtime/schema/dlcm.fbs: a plain description of a
// compiled model, serialised as the size-prefixed FlatBuffer followed by the
// 64-byte-aligned segments, each with its CRC-32.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_ARTIFACT_ARTIFACTWRITER_H
#define DLC_COMPILER_ARTIFACT_ARTIFACTWRITER_H

#include "dlcm_generated.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlc::artifact_writer {

/// The schema's enums (runtime/schema/dlcm.fbs), the one definition of each.
using DType = ::dlc::artifact::DType;
using StepKind = ::dlc::artifact::StepKind;

int64_t dtypeSize(DType dtype);
const char *dtypeName(DType dtype);

struct Device {
  bool isCuda = false;
  int32_t index = 0;
  uint64_t arenaSize = 0;
  uint64_t peakLiveBytes = 0; // the liveness lower bound of arenaSize
};

struct Buffer {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  uint32_t device = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  int32_t constantSegment = -1;
  /// The buffer whose bytes these are (a view); -1: its own bytes.
  int32_t viewOf = -1;
};

struct Library {
  uint32_t segment = 0;
  std::string targetTriple, targetCpu;
  std::vector<std::string> cpuFeatures;
};

/// 0.4: how a real GPU launches a kernel (runtime/schema/dlcm.fbs).
struct CudaLaunch {
  uint32_t module = 0;
  std::string entry;
  std::vector<uint32_t> grid, block;
  uint32_t sharedBytes = 0;
};

struct Kernel {
  std::string name, symbol;
  uint32_t library = 0;
  std::vector<std::string> ops;
  std::optional<CudaLaunch> cuda; // GPU kernels
};

/// 0.4: one NVRTC compilation: PTX and a CUBIN per architecture.
struct CudaModule {
  int32_t sourceSegment = -1;
  uint32_t ptxSegment = 0;
  std::string ptxArch;                                // "compute_80"
  std::vector<std::pair<std::string, uint32_t>> cubins; // ("sm_90", segment)
};

struct Step {
  StepKind kind = StepKind::Call;
  uint32_t kernel = 0;
  std::vector<uint32_t> buffers;
  uint32_t event = 0;
  /// Call: the last `outputCount` buffers are the ones the kernel writes.
  uint32_t outputCount = 0;
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  uint32_t buffer = 0;
  int64_t indexBound = 0;
};

struct PlacementEntry {
  std::string op, kind, reason;
  uint32_t device = 0;
  /// The cost model's time for the op on its device (µs); -1: not estimated.
  double estimatedUs = -1;
};

/// A one-way link between two of the artifact's devices (format 0.3).
struct Link {
  uint32_t from = 0, to = 0;
  double bandwidthBytesPerS = 0, latencyUs = 0;
};

struct Contents {
  std::string producer;
  std::vector<Device> devices;
  std::vector<std::string> segments; // raw bytes; offsets and CRCs computed
  std::vector<Buffer> buffers;
  std::vector<Library> libraries;
  std::vector<Kernel> kernels;
  std::vector<std::vector<Step>> schedules; // one list per device, in order
  std::vector<TensorSpec> inputs, outputs;
  std::vector<PlacementEntry> placement;
  uint32_t eventCount = 0;
  std::vector<Link> links;
  std::vector<CudaModule> cudaModules;
};

/// The artifact's bytes.
std::string serialize(const Contents &contents);

} // namespace dlc::artifact_writer

#endif // DLC_COMPILER_ARTIFACT_ARTIFACTWRITER_H
