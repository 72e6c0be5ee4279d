//===- ArtifactBuilder.h - test-only .dlcm writer -------------------------===//
//
// Describes an artifact as plain structs that tests mutate (bad indices,
// versions, sizes), laid out by the runtime's one artifact writer
// (runtime/writer/, which the compiler uses too). Its overrides let tests
// write what a correct producer never would. Also: the toy models.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_TEST_ARTIFACTBUILDER_H
#define DLC_RUNTIME_TEST_ARTIFACTBUILDER_H

#include "ArtifactWriter.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlc::test {

namespace fb = dlc::artifact;
namespace aw = dlc::artifact_writer;

// The runtime's one artifact writer (runtime/writer/ArtifactWriter.h), under
// the names these tests have always used.
using DeviceSpec = aw::Device;
using SegmentSpec = aw::Segment;
using BufferSpec = aw::Buffer;
using LibrarySpec = aw::Library;
using CudaLaunchSpec = aw::CudaLaunch;
using KernelSpec = aw::Kernel;
using CudaImageSpec = aw::CudaImage;
using CudaModuleSpec = aw::CudaModule;
using StepSpec = aw::Step;
using ScheduleSpec = aw::Schedule;
using TensorSpecSpec = aw::TensorSpec;
using PlacementSpec = aw::PlacementEntry;
using LinkSpec = aw::Link;

/// A test's artifact: format 0.2 unless a test asks for a later one, so that
/// each test states the features it relies on.
struct ArtifactSpec : aw::Contents {
  ArtifactSpec() {
    versionMajor = 0;
    versionMinor = 2;
    producer = "dlc runtime tests";
  }
};

/// The file bytes of `spec`.
inline std::string buildArtifact(const ArtifactSpec &spec) { return aw::serialize(spec); }

/// The toy model, one CPU device:
///   inputs  x, y: f32 [2,3]; idx: i32 [4] (index_bound 10)
///   sum = add6(x, y); prod = mul6(sum, c) with c = [1..6] a constant;
///   out = copy(prod); total = sum4(idx)
///   outputs "out" f32 [2,3], "t/sum:0" (= sum) f32 [2,3], "total" i32 [1]
/// `kernels` is the test kernels' shared object (TestKernels.c).
ArtifactSpec toyModel(const std::string &kernels);

/// `multiDevice` (multiDeviceModel, with or without CUDA code) as a symbolic
/// batch of at most 4 (format 0.8): x, y, sum, prod and out are [2n,3] (2
/// rows per unit: one unit is what add6/mul6 compute), idx, total and the
/// constant c unbatched.
ArtifactSpec batchedMultiDevice(ArtifactSpec multiDevice);

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
