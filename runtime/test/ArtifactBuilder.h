//===- ArtifactBuilder.h - test-only .dlcm writer -------------------------===//
//
// Describes an artifact as plain structs that tests mutate (bad indices,
// versions, sizes), then lays it out as the schema says: size-prefixed
// FlatBuffer, padding, 64-aligned segments with their CRC-32s. Overrides let
// tests write what a correct writer never would.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_TEST_ARTIFACTBUILDER_H
#define DLC_RUNTIME_TEST_ARTIFACTBUILDER_H

#include "dlcm_generated.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlc::test {

namespace fb = dlc::artifact;

struct DeviceSpec {
  fb::DeviceKind kind = fb::DeviceKind::Cpu;
  int32_t index = 0;
  uint64_t arenaSize = 0;
};

struct SegmentSpec {
  std::string bytes;
  std::optional<uint64_t> offset, size; // Default: laid out, bytes.size().
  std::optional<uint32_t> crc;          // Default: the real CRC-32.
};

struct BufferSpec {
  std::string name;
  fb::DType dtype = fb::DType::F32;
  std::vector<int64_t> shape;
  uint32_t device = 0;
  uint64_t offset = 0;
  std::optional<uint64_t> size; // Default: product(shape) * dtype size.
  int32_t constantSegment = -1;
  int32_t viewOf = -1; // 0.5
};

struct LibrarySpec {
  uint32_t segment = 0;
  std::string triple = "x86_64-unknown-linux-gnu", cpu = "x86-64";
  std::vector<std::string> features;
};

struct CudaLaunchSpec {
  uint32_t module = 0;
  std::string entry;
  std::vector<uint32_t> grid{1}, block{1};
  uint32_t sharedBytes = 0;
};

struct KernelSpec {
  std::string name;
  uint32_t library = 0;
  std::string symbol;
  std::vector<std::string> ops;
  std::optional<CudaLaunchSpec> cuda; // 0.4
};

struct CudaImageSpec {
  std::string arch;
  uint32_t segment = 0;
};

struct CudaModuleSpec { // 0.4
  int32_t sourceSegment = -1;
  uint32_t ptxSegment = 0;
  std::string ptxArch = "compute_80";
  std::vector<CudaImageSpec> cubins;
};

struct StepSpec {
  fb::StepKind kind = fb::StepKind::Call;
  uint32_t kernel = 0;
  std::vector<uint32_t> buffers;
  uint32_t event = 0;
  uint32_t outputCount = 0; // Call: the last outputCount buffers are written.
};

struct ScheduleSpec {
  uint32_t device = 0;
  std::vector<StepSpec> steps;
};

struct TensorSpecSpec {
  std::string name;
  fb::DType dtype = fb::DType::F32;
  std::vector<int64_t> shape;
  uint32_t buffer = 0;
  int64_t indexBound = 0;
};

struct PlacementSpec {
  std::string op, kind;
  uint32_t device = 0;
  std::string reason;
  double estimatedUs = -1;
};

struct LinkSpec {
  uint32_t from = 0, to = 0;
  double bandwidth = 0, latencyUs = 0;
};

struct ArtifactSpec {
  uint16_t versionMajor = 0, versionMinor = 2;
  std::string producer = "dlc runtime tests";
  std::vector<DeviceSpec> devices;
  std::vector<SegmentSpec> segments;
  std::vector<BufferSpec> buffers;
  std::vector<LibrarySpec> libraries;
  std::vector<KernelSpec> kernels;
  std::vector<ScheduleSpec> schedules;
  std::vector<TensorSpecSpec> inputs, outputs;
  std::vector<PlacementSpec> placement;
  uint32_t eventCount = 0;
  std::vector<LinkSpec> links;
  std::vector<CudaModuleSpec> cudaModules; // 0.4
};

/// The file bytes of `spec`.
std::string buildArtifact(const ArtifactSpec &spec);

/// The toy model, one CPU device:
///   inputs  x, y: f32 [2,3]; idx: i32 [4] (index_bound 10)
///   sum = add6(x, y); prod = mul6(sum, c) with c = [1..6] a constant;
///   out = copy(prod); total = sum4(idx)
///   outputs "out" f32 [2,3], "t/sum:0" (= sum) f32 [2,3], "total" i32 [1]
/// `kernels` is the test kernels' shared object (TestKernels.c).
ArtifactSpec toyModel(const std::string &kernels);

/// The toy model's computation over cpu + cuda:0 + cuda:1 (simulated),
/// with copies between the arenas and events between the streams:
///   cpu:    copy x -> x0, copy y -> y0 (cuda:0); record 0; total = sum4(idx);
///           wait 2; copy prod1 -> out
///   cuda:0: wait 0; sum0 = add6(x0, y0); record 1
///   cuda:1: wait 1; copy sum0 -> sum1; prod1 = mul6(sum1, c); record 2
/// c is a constant placed on cuda:1. Outputs as the toy model's: "out" and
/// "total" on the cpu, "t/sum:0" = sum0 on cuda:0 (copied back to the host).
/// Buffers: 0 x, 1 y, 2 idx, 3 total, 4 out (cpu); 5 x0, 6 y0, 7 sum0
/// (cuda:0); 8 sum1, 9 prod1, 10 c (cuda:1).
ArtifactSpec multiDeviceModel(const std::string &kernels);

/// Bytes of a file ("" when unreadable).
std::string readFileBytes(const std::string &path);

} // namespace dlc::test

#endif // DLC_RUNTIME_TEST_ARTIFACTBUILDER_H
