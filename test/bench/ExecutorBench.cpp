//===- ExecutorBench.cpp - executor cost per step and per cross-device hop ===//
//
// dlc-bench-executor [--quick] [--batches=N] [--batch-ms=T] [--steps=N]
//                    [--hops=N] [--kernels=LIB.so]
//
// Issue 5's executor figures. The artifacts are built in memory with the
// runtime's test-only ArtifactBuilder (runtime/test) from the C kernels of
// runtime/test/TestKernels.c: every step is `add6_f32` (6 floats + a constant
// of ones, a few ns), so what is timed is the executor. Every figure is a
// median over batches of `dlc_session_run` calls (C API, synchronous).
//
//  1. step (cpu):   a chain of --steps (1,000) dependent calls on the CPU,
//                   ping-pong between two buffers: µs per run / steps.
//  2. step (sim):   the same chain on one simulated GPU (cuda:0): the CPU
//                   copies the input in, records an event, the GPU's stream
//                   runs the chain, the CPU waits and copies the result out.
//  3. hop:          a chain of --hops hops alternating between two simulated
//                   GPUs: each hop is WaitEvent + Copy (from the other GPU's
//                   arena) + Call + RecordEvent on the receiving GPU's stream.
//                   Reported per hop, and against the same copies and calls on
//                   one simulated GPU with no events ("one-device hop"); the
//                   difference is the cost of the cross-device event wait
//                   (a condition-variable hand-off between stream threads).
//
// Each artifact's output is checked (x + number of calls) and each is run
// once with check_ordering first. Prints `RESULT executor ...` lines for
// test/bench/run.sh.
//===----------------------------------------------------------------------===//
#include "ArtifactBuilder.h"
#include "BenchUtil.h"

#include <cmath>
#include <cstring>

using namespace dlcbench;
namespace T = dlc::test;
using K = dlc::artifact::StepKind;
using DType = dlc::artifact::DType;

#ifndef DLC_BENCH_TEST_KERNELS
#define DLC_BENCH_TEST_KERNELS ""
#endif

namespace {

// Devices, segments (kernels; a constant of six ones), the kernel, input x and
// output y (f32 [2,3] on the CPU) and the constant c. Buffers: 0 x, 1 y
// (cpu), 2 c (constant, cpu); callers add theirs from 3 on.
T::ArtifactSpec base(const std::string &kernels, int gpus, uint64_t gpuArena) {
  T::ArtifactSpec s;
  s.producer = "dlc-bench-executor";
  s.devices = {{dlc::artifact::DeviceKind::Cpu, 0, 256}};
  for (int g = 0; g < gpus; ++g)
    s.devices.push_back({dlc::artifact::DeviceKind::Cuda, g, gpuArena});
  std::string ones(24, '\0');
  for (int i = 0; i < 6; ++i) {
    float v = 1.0f;
    std::memcpy(&ones[4 * i], &v, 4);
  }
  s.segments = {{T::readFileBytes(kernels)}, {ones}};
  s.libraries = {{0}};
  s.kernels = {{"add", 0, "add6_f32", {"/add/Add"}}};
  s.buffers = {{"x", DType::F32, {2, 3}, 0, 0},
               {"y", DType::F32, {2, 3}, 0, 64},
               {"c", DType::F32, {2, 3}, 0, 0, {}, 1}};
  s.inputs = {{"x", DType::F32, {2, 3}, 0}};
  s.outputs = {{"y", DType::F32, {2, 3}, 1}};
  return s;
}

T::StepSpec call(uint32_t in, uint32_t out) { return {K::Call, 0, {in, 2, out}, 0, 1}; }
T::StepSpec copy(uint32_t from, uint32_t to) { return {K::Copy, 0, {from, to}}; }
T::StepSpec record(uint32_t e) { return {K::RecordEvent, 0, {}, e}; }
T::StepSpec wait(uint32_t e) { return {K::WaitEvent, 0, {}, e}; }

// `steps` dependent calls x -> a -> b -> a ... -> y, all on the CPU.
T::ArtifactSpec cpuChain(const std::string &kernels, int steps) {
  T::ArtifactSpec s = base(kernels, 0, 0);
  s.buffers.push_back({"a", DType::F32, {2, 3}, 0, 128}); // 3
  s.buffers.push_back({"b", DType::F32, {2, 3}, 0, 192}); // 4
  T::ScheduleSpec cpu{0, {}};
  uint32_t cur = 0;
  for (int i = 0; i < steps; ++i) {
    uint32_t next = i == steps - 1 ? 1 : (cur == 3 ? 4 : 3);
    cpu.steps.push_back(call(cur, next));
    cur = next;
  }
  s.schedules = {cpu};
  return s;
}

// The chain on cuda:0 (simulated). `withCopies`: every step after the first
// is Copy b -> a + Call a -> b (the one-device twin of the hop chain); else
// Call a -> b, Call b -> a, ...  Buffers 3 a, 4 b on cuda:0.
T::ArtifactSpec gpuChain(const std::string &kernels, int calls, bool withCopies) {
  T::ArtifactSpec s = base(kernels, 1, 128);
  s.buffers.push_back({"a0", DType::F32, {2, 3}, 1, 0});  // 3
  s.buffers.push_back({"b0", DType::F32, {2, 3}, 1, 64}); // 4
  T::ScheduleSpec gpu{1, {wait(0)}};
  uint32_t cur = 3;
  for (int i = 0; i < calls; ++i) {
    if (withCopies) {
      if (i > 0)
        gpu.steps.push_back(copy(4, 3));
      gpu.steps.push_back(call(3, 4));
      cur = 4;
    } else {
      uint32_t next = cur == 3 ? 4 : 3;
      gpu.steps.push_back(call(cur, next));
      cur = next;
    }
  }
  gpu.steps.push_back(record(1));
  s.schedules = {{0, {copy(0, 3), record(0), wait(1), copy(cur, 1)}}, gpu};
  s.eventCount = 2;
  return s;
}

// `hops` hops between cuda:0 and cuda:1 (simulated), hops + 1 calls:
//   cpu:    copy x -> a0; record E0; wait E(hops+1); copy b(last) -> y
//   cuda:0: wait E0; b0 = add(a0, c); record E1
//   hop k = 1..hops, on d = k % 2 (o the other GPU):
//           wait Ek; copy b_o -> a_d; b_d = add(a_d, c); record E(k+1)
// Buffers: 3 a0, 4 b0 (cuda:0), 5 a1, 6 b1 (cuda:1).
T::ArtifactSpec hopChain(const std::string &kernels, int hops) {
  T::ArtifactSpec s = base(kernels, 2, 128);
  s.buffers.push_back({"a0", DType::F32, {2, 3}, 1, 0});  // 3
  s.buffers.push_back({"b0", DType::F32, {2, 3}, 1, 64}); // 4
  s.buffers.push_back({"a1", DType::F32, {2, 3}, 2, 0});  // 5
  s.buffers.push_back({"b1", DType::F32, {2, 3}, 2, 64}); // 6
  const uint32_t a[2] = {3, 5}, b[2] = {4, 6};
  T::ScheduleSpec g0{1, {wait(0), call(3, 4), record(1)}}, g1{2, {}};
  for (int k = 1; k <= hops; ++k) {
    int d = k % 2, o = 1 - d;
    T::ScheduleSpec &g = d ? g1 : g0;
    g.steps.push_back(wait(k));
    g.steps.push_back(copy(b[o], a[d]));
    g.steps.push_back(call(a[d], b[d]));
    g.steps.push_back(record(k + 1));
  }
  s.schedules = {{0, {copy(0, 3), record(0), wait(hops + 1), copy(b[hops % 2], 1)}}, g0};
  if (!g1.steps.empty())
    s.schedules.push_back(g1);
  s.eventCount = hops + 2;
  return s;
}

struct Bench {
  int batches;
  double batchSeconds;
  std::string name;
  dlc_model_t *model = nullptr;
  dlc_session_t *session = nullptr;
  size_t steps = 0;

  Bench(const T::ArtifactSpec &spec, const std::string &name, int batches,
        double batchSeconds)
      : batches(batches), batchSeconds(batchSeconds), name(name) {
    for (const auto &sch : spec.schedules)
      steps += sch.steps.size();
    std::string bytes = T::buildArtifact(spec);
    dlc_model_options_t mo;
    dlc_model_options_initialize(&mo);
    mo.name = name.c_str();
    check(dlc_model_load_memory(bytes.data(), bytes.size(), &mo, &model), name.c_str());
  }
  ~Bench() {
    dlc_session_release(session);
    dlc_model_release(model);
  }

  dlc_session_t *create(bool checkOrdering) {
    dlc_session_options_t o;
    dlc_session_options_initialize(&o);
    o.thread_count = 1;
    o.gpu_binding = DLC_GPU_BINDING_SIM;
    o.check_ordering = checkOrdering;
    dlc_session_t *s = nullptr;
    check(dlc_session_create(model, &o, &s), name.c_str());
    return s;
  }

  // One checked run with check_ordering: y must be x + calls.
  void verify(int calls) {
    dlc_session_t *s = create(true);
    float x[6] = {0.5f, -1, 2, 3.25f, -4, 100}, y[6];
    check(dlc_session_set_input(s, 0, x, sizeof x), "set input");
    check(dlc_session_run(s), (name + ": run with check_ordering").c_str());
    check(dlc_session_copy_output(s, 0, y, sizeof y), "output");
    for (int i = 0; i < 6; ++i)
      if (std::fabs(y[i] - (x[i] + float(calls))) > 1e-3f) {
        std::fprintf(stderr, "error: %s: y[%d] = %g, want %g\n", name.c_str(), i,
                     y[i], x[i] + float(calls));
        std::exit(1);
      }
    dlc_session_release(s);
  }

  // Median seconds per dlc_session_run.
  double time() {
    session = create(false);
    float x[6] = {};
    check(dlc_session_set_input(session, 0, x, sizeof x), "set input");
    auto run = [&] { check(dlc_session_run(session), name.c_str()); };
    long calls = callsPerBatch(run, batchSeconds);
    std::vector<double> t = timeBatches(run, calls, batches);
    std::printf("  %-34s %zu steps, median of %d batches of %ld runs: %.3f us per run\n",
                name.c_str(), steps, batches, calls, median(t) * 1e6);
    return median(t);
  }
};

void usage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--quick] [--batches=N] [--batch-ms=T] [--steps=N] "
               "[--hops=N] [--kernels=LIB.so]\n",
               argv0);
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  bool quick = false;
  int batches = 11, steps = 1000, hops = 1000;
  double batchSeconds = 0.1;
  std::string kernels = DLC_BENCH_TEST_KERNELS;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (const char *v = optionValue(argv[i], "--batches"))
      batches = std::max(1, std::atoi(v));
    else if (const char *v = optionValue(argv[i], "--batch-ms"))
      batchSeconds = std::atof(v) / 1000.0;
    else if (const char *v = optionValue(argv[i], "--steps"))
      steps = std::max(1, std::atoi(v));
    else if (const char *v = optionValue(argv[i], "--hops"))
      hops = std::max(1, std::atoi(v));
    else if (const char *v = optionValue(argv[i], "--kernels"))
      kernels = v;
    else
      usage(argv[0]);
  }
  if (quick) {
    batches = 1;
    batchSeconds = 0.001;
    hops = std::min(hops, 50);
  }
  if (kernels.empty() || T::readFileBytes(kernels).empty()) {
    std::fprintf(stderr, "error: no test kernels library '%s' (--kernels=)\n", kernels.c_str());
    return 2;
  }

  std::printf("executor cost, kernels '%s' (add6_f32), synchronous dlc_session_run\n",
              kernels.c_str());
  Bench cpu(cpuChain(kernels, steps), "cpu chain", batches, batchSeconds);
  Bench sim(gpuChain(kernels, steps, false), "sim cuda:0 chain", batches, batchSeconds);
  Bench hop(hopChain(kernels, hops), "sim cuda:0 <-> cuda:1 hops", batches, batchSeconds);
  Bench one(gpuChain(kernels, hops + 1, true), "sim cuda:0 copy+call chain", batches,
            batchSeconds);
  cpu.verify(steps);
  sim.verify(steps);
  hop.verify(hops + 1);
  one.verify(hops + 1);

  double cpuUs = cpu.time() * 1e6 / steps;
  double simUs = sim.time() * 1e6 / steps;
  double hopRun = hop.time() * 1e6, oneRun = one.time() * 1e6;
  double hopUs = hopRun / hops, oneUs = oneRun / hops;
  double waitUs = hopUs - oneUs;
  std::printf("  step on the cpu (%d-call chain):        %8.3f us per step\n", steps, cpuUs);
  std::printf("  step on a simulated GPU (same chain):   %8.3f us per step\n", simUs);
  std::printf("  hop between 2 simulated GPUs:           %8.3f us per hop (wait + copy + call + record)\n", hopUs);
  std::printf("  the same copy + call on one sim GPU:    %8.3f us per hop\n", oneUs);
  std::printf("  cross-device event wait (difference):   %8.3f us per hop\n", waitUs);
  std::printf("RESULT executor cpu_step_us=%.4f sim_step_us=%.4f hop_us=%.4f "
              "onedev_hop_us=%.4f wait_us=%.4f steps=%d hops=%d\n",
              cpuUs, simUs, hopUs, oneUs, waitUs, steps, hops);
  return 0;
}
