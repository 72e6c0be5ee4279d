//===- ArtifactBuilder.cpp - test-only .dlcm writer -----------------------===//

#include "ArtifactBuilder.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <zlib.h>

namespace dlc::test {

namespace {

size_t elementSize(fb::DType t) {
  switch (t) {
  case fb::DType::F32: case fb::DType::I32: return 4;
  case fb::DType::F16: case fb::DType::BF16: return 2;
  case fb::DType::I64: return 8;
  default: return 1;
  }
}

/// The FlatBuffer with the given segment offsets.
std::string flatBuffer(const ArtifactSpec &s,
                       const std::vector<uint64_t> &offsets) {
  flatbuffers::FlatBufferBuilder b;
  b.ForceDefaults(true); // Fixed field set: offsets change no sizes.
  std::vector<flatbuffers::Offset<fb::Device>> devices;
  for (const DeviceSpec &d : s.devices)
    devices.push_back(fb::CreateDevice(b, d.kind, d.index, d.arenaSize));
  std::vector<flatbuffers::Offset<fb::Segment>> segments;
  for (size_t i = 0; i < s.segments.size(); ++i) {
    const SegmentSpec &seg = s.segments[i];
    uint32_t crc = seg.crc ? *seg.crc
                           : uint32_t(crc32_z(0, reinterpret_cast<const Bytef *>(
                                                     seg.bytes.data()),
                                              seg.bytes.size()));
    segments.push_back(fb::CreateSegment(
        b, seg.offset ? *seg.offset : offsets[i],
        seg.size ? *seg.size : seg.bytes.size(), crc));
  }
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  for (const BufferSpec &buf : s.buffers) {
    uint64_t size = elementSize(buf.dtype);
    for (int64_t d : buf.shape)
      size *= uint64_t(d);
    buffers.push_back(fb::CreateBufferDirect(
        b, buf.name.c_str(), buf.dtype, &buf.shape, buf.device, buf.offset,
        buf.size ? *buf.size : size, buf.constantSegment, buf.viewOf));
  }
  auto strings = [&](const std::vector<std::string> &v) {
    std::vector<flatbuffers::Offset<flatbuffers::String>> out;
    for (const std::string &x : v)
      out.push_back(b.CreateString(x));
    return b.CreateVector(out);
  };
  std::vector<flatbuffers::Offset<fb::Library>> libraries;
  for (const LibrarySpec &l : s.libraries)
    libraries.push_back(fb::CreateLibrary(
        b, fb::LibraryKind::CpuSharedObject, l.segment,
        b.CreateString(l.triple), b.CreateString(l.cpu), strings(l.features)));
  std::vector<flatbuffers::Offset<fb::Kernel>> kernels;
  for (const KernelSpec &k : s.kernels) {
    flatbuffers::Offset<fb::CudaLaunch> cuda = 0;
    if (k.cuda)
      cuda = fb::CreateCudaLaunchDirect(b, k.cuda->module, k.cuda->entry.c_str(),
                                        &k.cuda->grid, &k.cuda->block,
                                        k.cuda->sharedBytes);
    kernels.push_back(fb::CreateKernel(b, b.CreateString(k.name), k.library,
                                       b.CreateString(k.symbol),
                                       strings(k.ops), cuda));
  }
  std::vector<flatbuffers::Offset<fb::CudaModule>> cudaModules;
  for (const CudaModuleSpec &m : s.cudaModules) {
    std::vector<flatbuffers::Offset<fb::CudaImage>> cubins;
    for (const CudaImageSpec &c : m.cubins)
      cubins.push_back(fb::CreateCudaImageDirect(b, c.arch.c_str(), c.segment));
    cudaModules.push_back(fb::CreateCudaModuleDirect(
        b, m.sourceSegment, m.ptxSegment, m.ptxArch.c_str(), &cubins));
  }
  std::vector<flatbuffers::Offset<fb::DeviceSchedule>> schedules;
  for (const ScheduleSpec &sched : s.schedules) {
    std::vector<flatbuffers::Offset<fb::Step>> steps;
    for (const StepSpec &st : sched.steps)
      steps.push_back(fb::CreateStepDirect(b, st.kind, st.kernel, &st.buffers,
                                           st.event, st.outputCount));
    schedules.push_back(
        fb::CreateDeviceScheduleDirect(b, sched.device, &steps));
  }
  auto specs = [&](const std::vector<TensorSpecSpec> &v) {
    std::vector<flatbuffers::Offset<fb::TensorSpec>> out;
    for (const TensorSpecSpec &t : v)
      out.push_back(fb::CreateTensorSpecDirect(b, t.name.c_str(), t.dtype,
                                               &t.shape, t.buffer,
                                               t.indexBound));
    return b.CreateVector(out);
  };
  auto inputs = specs(s.inputs), outputs = specs(s.outputs);
  std::vector<flatbuffers::Offset<fb::PlacementEntry>> placement;
  for (const PlacementSpec &p : s.placement)
    placement.push_back(fb::CreatePlacementEntryDirect(
        b, p.op.c_str(), p.kind.c_str(), p.device, p.reason.c_str(),
        p.estimatedUs));
  std::vector<flatbuffers::Offset<fb::Link>> links;
  for (const LinkSpec &l : s.links)
    links.push_back(fb::CreateLink(b, l.from, l.to, l.bandwidth, l.latencyUs));
  auto model = fb::CreateModel(
      b, s.versionMajor, s.versionMinor, b.CreateString(s.producer),
      b.CreateVector(devices), b.CreateVector(segments),
      b.CreateVector(buffers), b.CreateVector(libraries),
      b.CreateVector(kernels), b.CreateVector(schedules), inputs, outputs,
      b.CreateVector(placement), s.eventCount,
      s.links.empty() ? 0 : b.CreateVector(links),
      s.cudaModules.empty() ? 0 : b.CreateVector(cudaModules));
  fb::FinishSizePrefixedModelBuffer(b, model);
  return std::string(reinterpret_cast<const char *>(b.GetBufferPointer()),
                     b.GetSize());
}

uint64_t align64(uint64_t x) { return (x + 63) / 64 * 64; }

} // namespace

std::string buildArtifact(const ArtifactSpec &spec) {
  std::vector<uint64_t> offsets(spec.segments.size(), 1ull << 40);
  std::string fbBytes;
  for (int round = 0; round < 3; ++round) {
    fbBytes = flatBuffer(spec, offsets);
    uint64_t at = align64(fbBytes.size());
    std::vector<uint64_t> next;
    for (const SegmentSpec &seg : spec.segments) {
      next.push_back(at);
      at = align64(at + seg.bytes.size());
    }
    if (next == offsets)
      break;
    offsets = next;
  }
  std::string out = fbBytes;
  for (size_t i = 0; i < spec.segments.size(); ++i) {
    out.resize(offsets[i], '\0');
    out += spec.segments[i].bytes;
  }
  return out;
}

std::string readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

ArtifactSpec toyModel(const std::string &kernels) {
  using fb::DType;
  ArtifactSpec s;
  s.devices = {{fb::DeviceKind::Cpu, 0, 384}};
  std::string constant(24, '\0');
  for (int i = 0; i < 6; ++i) {
    float v = float(i + 1);
    std::memcpy(&constant[4 * i], &v, 4);
  }
  s.segments = {{readFileBytes(kernels)}, {constant}};
  s.buffers = {
      {"x", DType::F32, {2, 3}, 0, 0},          // 0
      {"y", DType::F32, {2, 3}, 0, 64},         // 1
      {"sum", DType::F32, {2, 3}, 0, 128},      // 2
      {"c", DType::F32, {2, 3}, 0, 0, {}, 1},   // 3: constant, segment 1
      {"prod", DType::F32, {2, 3}, 0, 192},     // 4
      {"out", DType::F32, {2, 3}, 0, 256},      // 5
      {"idx", DType::I32, {4}, 0, 320},         // 6
      {"total", DType::I32, {1}, 0, 352},       // 7
  };
  s.libraries = {{0}};
  s.kernels = {{"add", 0, "add6_f32", {"/add/Add"}},
               {"mul", 0, "mul6_f32", {"/mul/Mul"}},
               {"sum", 0, "sum4_i32", {"/sum/ReduceSum"}}};
  s.schedules = {{0,
                  {{fb::StepKind::Call, 0, {0, 1, 2}},
                   {fb::StepKind::Call, 1, {2, 3, 4}},
                   {fb::StepKind::Copy, 0, {4, 5}},
                   {fb::StepKind::Call, 2, {6, 7}}}}};
  s.inputs = {{"x", DType::F32, {2, 3}, 0},
              {"y", DType::F32, {2, 3}, 1},
              {"idx", DType::I32, {4}, 6, 10}};
  s.outputs = {{"out", DType::F32, {2, 3}, 5},
               {"t/sum:0", DType::F32, {2, 3}, 2},
               {"total", DType::I32, {1}, 7}};
  s.placement = {{"/add/Add", "dlc.add", 0, "default"},
                 {"/mul/Mul", "dlc.mul", 0, "pinned"},
                 {"/sum/ReduceSum", "dlc.reduce_sum", 0, "default"}};
  return s;
}

ArtifactSpec multiDeviceModel(const std::string &kernels) {
  using fb::DType;
  using K = fb::StepKind;
  ArtifactSpec s = toyModel(kernels);
  s.devices = {{fb::DeviceKind::Cpu, 0, 320},
               {fb::DeviceKind::Cuda, 0, 192},
               {fb::DeviceKind::Cuda, 1, 128}};
  s.buffers = {
      {"x", DType::F32, {2, 3}, 0, 0},           // 0
      {"y", DType::F32, {2, 3}, 0, 64},          // 1
      {"idx", DType::I32, {4}, 0, 128},          // 2
      {"total", DType::I32, {1}, 0, 192},        // 3
      {"out", DType::F32, {2, 3}, 0, 256},       // 4
      {"x0", DType::F32, {2, 3}, 1, 0},          // 5
      {"y0", DType::F32, {2, 3}, 1, 64},         // 6
      {"sum0", DType::F32, {2, 3}, 1, 128},      // 7
      {"sum1", DType::F32, {2, 3}, 2, 0},        // 8
      {"prod1", DType::F32, {2, 3}, 2, 64},      // 9
      {"c", DType::F32, {2, 3}, 2, 0, {}, 1},    // 10: constant, segment 1
  };
  s.schedules = {
      {0,
       {{K::Copy, 0, {0, 5}},
        {K::Copy, 0, {1, 6}},
        {K::RecordEvent, 0, {}, 0},
        {K::Call, 2, {2, 3}, 0, 1},
        {K::WaitEvent, 0, {}, 2},
        {K::Copy, 0, {9, 4}}}},
      {1,
       {{K::WaitEvent, 0, {}, 0},
        {K::Call, 0, {5, 6, 7}, 0, 1},
        {K::RecordEvent, 0, {}, 1}}},
      {2,
       {{K::WaitEvent, 0, {}, 1},
        {K::Copy, 0, {7, 8}},
        {K::Call, 1, {8, 10, 9}, 0, 1},
        {K::RecordEvent, 0, {}, 2}}},
  };
  s.eventCount = 3;
  s.inputs = {{"x", DType::F32, {2, 3}, 0},
              {"y", DType::F32, {2, 3}, 1},
              {"idx", DType::I32, {4}, 2, 10}};
  s.outputs = {{"out", DType::F32, {2, 3}, 4},
               {"t/sum:0", DType::F32, {2, 3}, 7},
               {"total", DType::I32, {1}, 3}};
  s.placement = {{"/add/Add", "dlc.add", 1, "pinned"},
                 {"/mul/Mul", "dlc.mul", 2, "pinned"},
                 {"/sum/ReduceSum", "dlc.reduce_sum", 0, "default"}};
  return s;
}

} // namespace dlc::test
