//===- ArtifactBuilder.cpp - the runtime tests' toy models -----------------===//

#include "ArtifactBuilder.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace dlc::test {

std::string readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  // A test library that is not there would make every load fail far from
  // the cause ("file too short"): stop here, naming it.
  if (!in) {
    std::fprintf(stderr, "runtime tests: cannot read '%s'\n", path.c_str());
    std::abort();
  }
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

ArtifactSpec batchedMultiDevice(ArtifactSpec s) {
  s.versionMinor = 8;
  s.symbols = {{"batch", 4}};
  s.devices[0].arenaSize = 448;
  s.devices[1].arenaSize = 384;
  s.devices[2].arenaSize = 256;
  // Buffer index: offset in its arena, for the batched ones.
  const std::pair<uint32_t, uint64_t> batched[] = {{0, 0},   {1, 128}, {4, 320}, {5, 0},
                                                   {6, 128}, {7, 256}, {8, 0},   {9, 128}};
  for (auto [b, offset] : batched) {
    s.buffers[b].shape = {-1, 3};
    s.buffers[b].maxShape = {8, 3};
    s.buffers[b].rowsPerUnit = 2;
    s.buffers[b].offset = offset;
  }
  s.buffers[2].offset = 256;
  s.buffers[3].offset = 288;
  for (auto *specs : {&s.inputs, &s.outputs})
    for (aw::TensorSpec &t : *specs)
      if (s.buffers[t.buffer].rowsPerUnit) {
        t.shape = {-1, 3};
        t.maxShape = {8, 3};
      }
  return s;
}

} // namespace dlc::test
