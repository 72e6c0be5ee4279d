//===- ScheduleVerifierBench.cpp - what proving a schedule costs ----------===//
//
//   dlc-schedule-verifier-bench [--ops=N] [ARTIFACT.dlcm ...]
//
// Times loading an artifact (code not loaded) with and without
// verify_schedule, median of 5, for each file given and for a generated
// chain of N kernels (default 100,000) over cpu + 2 simulated GPUs: every
// 10th kernel hands its value to the next device by a copy and an event, and
// each device's arena reuses two ranges for its whole chain, as the memory
// planner does (so every range is written and read 10,000s of times).
//
//===----------------------------------------------------------------------===//

#include "ArtifactBuilder.h"
#include "dlc/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace dlc::test;

namespace {

ArtifactSpec chain(int ops) {
  using K = fb::StepKind;
  ArtifactSpec s;
  s.versionMinor = 5;
  const uint32_t devices = 3, bytes = 64;
  s.devices = {{fb::DeviceKind::Cpu, 0, 4 * bytes},
               {fb::DeviceKind::Cuda, 0, 4 * bytes},
               {fb::DeviceKind::Cuda, 1, 4 * bytes}};
  s.segments = {{std::string("code")}};
  s.libraries = {{0}};
  s.kernels = {{"k", 0, "k_entry", {"/op"}}};
  s.schedules = {{0, {}}, {1, {}}, {2, {}}};
  auto buffer = [&](uint32_t device, uint32_t slot) {
    s.buffers.push_back({"v" + std::to_string(s.buffers.size()), fb::DType::F32, {16},
                         device, uint64_t(slot) * bytes});
    return uint32_t(s.buffers.size() - 1);
  };
  // Per device: kernels write ranges 0 and 1 in turn, copies land in 2 and 3.
  std::vector<uint32_t> slot(devices, 0), landing(devices, 0);
  uint32_t current = buffer(0, 0), device = 0;
  s.inputs = {{"x", fb::DType::F32, {16}, current}};
  for (int i = 0; i < ops; ++i) {
    slot[device] ^= 1;
    uint32_t next = buffer(device, slot[device]);
    s.schedules[device].steps.push_back({K::Call, 0, {current, next}, 0, 1});
    current = next;
    if (i % 10 == 9 && i + 1 < ops) {
      uint32_t to = (device + 1) % devices, event = s.eventCount++;
      landing[to] ^= 1;
      uint32_t landed = buffer(to, 2 + landing[to]);
      s.schedules[device].steps.push_back({K::Copy, 0, {current, landed}});
      s.schedules[device].steps.push_back({K::RecordEvent, 0, {}, event});
      s.schedules[to].steps.push_back({K::WaitEvent, 0, {}, event});
      device = to;
      current = landed;
    }
  }
  if (device != 0) {
    landing[0] ^= 1;
    uint32_t out = buffer(0, 2 + landing[0]);
    s.schedules[device].steps.push_back({K::Copy, 0, {current, out}});
    current = out;
  }
  s.outputs = {{"y", fb::DType::F32, {16}, current}};
  return s;
}

double medianMs(const std::string &bytes, const std::string &name, int verify,
                std::string &error) {
  std::vector<double> times;
  for (int rep = 0; rep < 5; ++rep) {
    dlc_model_options_t o;
    dlc_model_options_initialize(&o);
    o.name = name.c_str();
    o.load_code = 0;
    o.verify_schedule = verify;
    dlc_model_t *model = nullptr;
    auto start = std::chrono::steady_clock::now();
    dlc_status_t status = dlc_model_load_memory(bytes.data(), bytes.size(), &o, &model);
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start).count());
    if (status) {
      error = dlc_status_message(status);
      dlc_status_free(status);
    }
    dlc_model_release(model);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void report(const std::string &name, const std::string &bytes) {
  std::string error;
  double plain = medianMs(bytes, name, 0, error);
  double verified = medianMs(bytes, name, 1, error);
  std::printf("%-40s load %9.3f ms, with verify_schedule %9.3f ms (+%.3f ms)%s%s\n",
              name.c_str(), plain, verified, verified - plain, error.empty() ? "" : ": ",
              error.c_str());
}

} // namespace

int main(int argc, char **argv) {
  int ops = 100000;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--ops=", 0) == 0) {
      ops = std::atoi(arg.c_str() + 6);
      continue;
    }
    report(arg, readFileBytes(arg));
  }
  report("chain of " + std::to_string(ops) + " kernels, 3 devices", buildArtifact(chain(ops)));
  return 0;
}
