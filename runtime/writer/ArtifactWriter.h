//===- ArtifactWriter.h - writes .dlcm artifacts --------------------------===//
//
// The one writer of runtime/schema/dlcm.fbs: a plain description of a
// compiled model, serialised as the size-prefixed FlatBuffer followed by the
// 64-byte-aligned segments, each with its CRC-32. The compiler fills it from
// the scheduled IR (compiler/Pipeline/WriteArtifact.cpp); the runtime's tests
// fill it by hand (runtime/test/ArtifactBuilder.h) and use the overrides to
// write what a correct producer never would (a wrong CRC, offset or size,
// an old version). No LLVM: it is part of the runtime's tree and links
// FlatBuffers and zlib only.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_RUNTIME_WRITER_ARTIFACTWRITER_H
#define DLC_RUNTIME_WRITER_ARTIFACTWRITER_H

#include "dlc/runtime.h"
#include "dlcm_generated.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlc::artifact_writer {

/// The schema's enums (runtime/schema/dlcm.fbs), the one definition of each.
using DType = ::dlc::artifact::DType;
using StepKind = ::dlc::artifact::StepKind;
using DeviceKind = ::dlc::artifact::DeviceKind;

/// Bytes per element (i1: one) and "f32", ...: the runtime's own tables.
int64_t dtypeSize(DType dtype);
const char *dtypeName(DType dtype);

struct Device {
  DeviceKind kind = DeviceKind::Cpu;
  int32_t index = 0;
  uint64_t arenaSize = 0;
  uint64_t peakLiveBytes = 0; // the liveness lower bound of arenaSize
};

/// A range of the file after the FlatBuffer. The writer places `bytes` at
/// the next multiple of 64; `offset`, `size` and `crc` override what the
/// FlatBuffer claims (tests of the loader's checks).
struct Segment {
  std::string bytes;
  std::optional<uint64_t> offset, size;
  std::optional<uint32_t> crc;
  /// When set, the contents instead of `bytes`, not copied: a constant's data
  /// owned by the caller until serialize() returns (hundreds of MB of
  /// weights, each copy of which costs).
  std::string_view borrowed;
  std::string_view contents() const {
    return borrowed.data() ? borrowed : std::string_view(bytes);
  }
};

struct Buffer {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  uint32_t device = 0;
  uint64_t offset = 0;
  /// Bytes; default product(shape) * dtypeSize(dtype).
  std::optional<uint64_t> size;
  int32_t constantSegment = -1;
  /// The buffer whose bytes these are (a view); -1: its own bytes.
  int32_t viewOf = -1;
  /// 0.6: state kept from one run to the next, starting as the bytes of
  /// `initialSegment` (-1: zeros).
  bool persistent = false;
  int32_t initialSegment = -1;
  /// 0.6: the largest shape when `shape` has a -1 (a dimension known only at
  /// run time); empty: static. The default size is for it.
  std::vector<int64_t> maxShape;
  /// 0.8: dim 0 is rowsPerUnit x the batch (Contents::symbols); 0: static.
  int64_t rowsPerUnit = 0;
  /// 0.8: with rowsPerUnit, the batch is off dim 0: `shape` is the bound's
  /// and unit u starts u x unitStride bytes in (a strided slice).
  uint64_t unitStride = 0;
  /// 0.9: dims of the symbol's extent (only sized kernels touch it).
  std::vector<int32_t> symbolDims;
};

/// 0.8: the symbolic batch and its bound.
struct Symbol {
  std::string name;
  int64_t bound = 0;
};

struct Library {
  uint32_t segment = 0;
  std::string triple = "x86_64-unknown-linux-gnu", cpu = "x86-64";
  std::vector<std::string> features;
};

/// 0.4: how a real GPU launches a kernel.
struct CudaLaunch {
  uint32_t module = 0;
  std::string entry;
  std::vector<uint32_t> grid{1}, block{1};
  uint32_t sharedBytes = 0;
};

struct Kernel {
  std::string name;
  uint32_t library = 0;
  std::string symbol;
  std::vector<std::string> ops;
  std::optional<CudaLaunch> cuda; // GPU kernels
  /// 0.8: the body for chunkUnits units of the batch at once; "" / 0: none.
  std::string chunkSymbol;
  uint32_t chunkUnits = 0;
  /// 0.8: a tail of at least this many units runs the chunk body; 0: never.
  uint32_t chunkMinUnits = 0;
  /// 0.9: called once per run with a pointer to the run's size last.
  bool sized = false;
};

struct CudaImage {
  std::string arch; // "sm_90"
  uint32_t segment = 0;
};

/// 0.4: one NVRTC compilation: PTX and a CUBIN per architecture.
struct CudaModule {
  int32_t sourceSegment = -1;
  uint32_t ptxSegment = 0;
  std::string ptxArch = "compute_80";
  std::vector<CudaImage> cubins;
};

struct Step {
  StepKind kind = StepKind::Call;
  uint32_t kernel = 0;
  std::vector<uint32_t> buffers;
  uint32_t event = 0;
  /// Call: the last `outputCount` buffers are the ones the kernel writes.
  uint32_t outputCount = 0;
};

struct Schedule {
  uint32_t device = 0;
  std::vector<Step> steps;
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  uint32_t buffer = 0;
  int64_t indexBound = 0;
  std::vector<int64_t> maxShape; // 0.6: as Buffer::maxShape
};

struct PlacementEntry {
  std::string op, kind;
  uint32_t device = 0;
  std::string reason;
  /// The cost model's time for the op on its device (µs); -1: not estimated.
  double estimatedUs = -1;
};

/// 0.3: a one-way link between two of the artifact's devices.
struct Link {
  uint32_t from = 0, to = 0;
  double bandwidth = 0, latencyUs = 0; // bytes per second, µs
};

/// 0.7: one variant of a multi-target artifact: a whole artifact in
/// `segment`, for `cpu`.
struct Variant {
  uint32_t segment = 0;
  std::string triple, cpu;
  std::vector<std::string> features;
};

struct Contents {
  /// The runtime's format version by default.
  uint16_t versionMajor = DLC_RUNTIME_VERSION_MAJOR, versionMinor = DLC_RUNTIME_VERSION_MINOR;
  std::string producer;
  std::vector<Device> devices;
  std::vector<Segment> segments;
  std::vector<Buffer> buffers;
  std::vector<Library> libraries;
  std::vector<Kernel> kernels;
  std::vector<Schedule> schedules;
  std::vector<TensorSpec> inputs, outputs;
  std::vector<TensorSpec> state; // 0.6: the persistent buffers, by name
  std::vector<PlacementEntry> placement;
  uint32_t eventCount = 0;
  std::vector<Link> links;
  std::vector<CudaModule> cudaModules; // absent from the file when empty
  std::vector<Variant> variants;       // 0.7; absent from the file when empty
  std::vector<Symbol> symbols;         // 0.8; absent from the file when empty
};

/// The lowest format minor (of the runtime's major) that expresses
/// `contents`: 8 with a symbolic batch, 6 with persistent state or run-time
/// dimensions, else 5.
/// Producers write it, so that older runtimes keep reading what they can.
uint16_t lowestMinorVersion(const Contents &contents);

/// The artifact's bytes. Fields of 0.6 are written only when used, so that
/// an artifact without them has the bytes of 0.5 (but its version).
std::string serialize(const Contents &contents);

/// A whole artifact compiled for one CPU, for serializeMultiTarget.
struct TargetArtifact {
  std::string_view bytes; // serialize()'s output; borrowed until it returns
  std::string cpu;        // "x86-64-v4"
};

/// 0.7: one file holding every artifact of `targets`, each a variant whose
/// triple and CPU features are read from its libraries (the union of their
/// features; none: it has no CPU code and runs anywhere). The runtime loads
/// the variant the machine runs that needs the most features. An empty
/// string when an artifact is not one serialize() wrote (`error` says why).
std::string serializeMultiTarget(const std::vector<TargetArtifact> &targets,
                                 const std::string &producer, std::string &error);

} // namespace dlc::artifact_writer

#endif // DLC_RUNTIME_WRITER_ARTIFACTWRITER_H
