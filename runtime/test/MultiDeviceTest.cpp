//===- MultiDeviceTest.cpp - streams, events, simulated GPUs, checking ----===//
//
// The multi-device toy model (ArtifactBuilder's multiDeviceModel: cpu and two
// simulated GPUs, copies and events) against the single-device one, broken
// schedules caught by verification or by check_ordering, pipelined runs,
// statistics and traces, and concurrency (this file also runs under TSan).
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtil.h"
#include "dlc/runtime.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

using namespace dlc::test;

namespace {

using K = fb::StepKind;

ArtifactSpec multi() { return multiDeviceModel(kernelsPath()); }

dlc_session_options_t simOptions(int check = 1) {
  dlc_session_options_t o;
  dlc_session_options_initialize(&o);
  o.gpu_binding = DLC_GPU_BINDING_SIM;
  o.check_ordering = check;
  return o;
}

dlc::Session create(const dlc::Model &model, dlc_session_options_t options) {
  dlc::Session session;
  dlc::Status s = dlc::Session::create(model, session, &options);
  EXPECT_TRUE(s.ok()) << s.toString();
  return session;
}

TEST(MultiDevice, SameOutputsAsOneDeviceAndBitIdenticalRuns) {
  dlc::Model one = load(toy()), three = load(multi());
  dlc::Session reference = create(one, simOptions(0));
  for (int check : {0, 1}) {
    dlc::Session session = create(three, simOptions(check));
    for (int run = 0; run < 20; ++run) {
      Outputs expected, got, again;
      ASSERT_EQ(runOnce(reference, run, expected), "");
      ASSERT_EQ(runOnce(session, run, got), "");
      EXPECT_TRUE(got == expected) << "run " << run << " check " << check;
      ASSERT_EQ(runOnce(session, run, again), "");
      EXPECT_TRUE(again == got) << "run " << run;
    }
  }
  // A GPU output is copied back into host memory, 64-byte aligned.
  dlc::Session session = create(three, simOptions(0));
  Outputs o;
  ASSERT_EQ(runOnce(session, 3, o), "");
  const void *data;
  size_t n;
  DLC_ASSERT_OK(session.output(1, data, n).release());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 64, 0u);
  EXPECT_EQ(std::memcmp(data, o.sum.data(), 24), 0);
}

TEST(MultiDevice, UnwrittenGpuMemoryIsPoisoned) {
  // Without the copy of y to cuda:0, add reads y0 as the arena was left:
  // 0xFF bytes, a NaN.
  ArtifactSpec s = multi();
  s.schedules[0].steps.erase(s.schedules[0].steps.begin() + 1);
  dlc::Model model = load(s);
  dlc::Session session = create(model, simOptions(0));
  Outputs o;
  ASSERT_EQ(runOnce(session, 0, o), "");
  for (float v : o.sum)
    EXPECT_TRUE(std::isnan(v));
  uint32_t bits;
  std::memcpy(&bits, &o.sum[0], 4);
  EXPECT_EQ(bits, 0xFFFFFFFFu);
  // The checking mode names the read.
  dlc::Session checked = create(model, simOptions(1));
  EXPECT_EQ(runOnce(checked, 0, o),
            "data_loss: model '<memory>': check-ordering: step 1 (call 'add') "
            "of cuda:0 reads buffer 6 ('y0', cuda:0) before any step wrote it "
            "in this run (a missing WaitEvent, or a step out of order)");
}

TEST(MultiDevice, MissingWaitIsCaughtAndReleasesTheOtherStreams) {
  // cuda:1 copies sum0 without waiting for event 1: a race that the
  // checking mode reports whichever stream runs first. cuda:1 then never
  // records event 2, which the cpu waits for: the failure must release it.
  ArtifactSpec s = multi();
  s.schedules[2].steps.erase(s.schedules[2].steps.begin());
  dlc::Model model = load(s);
  dlc::Session session = create(model, simOptions(1));
  for (int run = 0; run < 50; ++run) {
    Outputs o;
    std::string error = runOnce(session, run, o);
    std::string prefix =
        "data_loss: model '<memory>': check-ordering: step 0 (copy) of "
        "cuda:1 reads buffer 7 ('sum0', cuda:0)";
    ASSERT_EQ(error.substr(0, prefix.size()), prefix) << error;
    EXPECT_TRUE(
        error.find("before any step wrote it in this run") !=
            std::string::npos ||
        error.find("written by step 1 (call 'add') of cuda:0, but no event "
                   "orders the read after the write (a missing WaitEvent)") !=
            std::string::npos)
        << error;
  }
  // The good schedule still runs on a new session of the same runtime.
  dlc::Model good = load(multi());
  dlc::Session ok = create(good, simOptions(1));
  Outputs o;
  EXPECT_EQ(runOnce(ok, 0, o), "");
}

TEST(MultiDevice, WriteAfterReadIsCaught) {
  // cuda:1 writes prod1 again after recording event 2, while the cpu may
  // still be copying prod1 out: reported as the write after that read, or
  // as the read of an unordered write, whichever stream runs first.
  ArtifactSpec s = multi();
  s.schedules[2].steps.push_back({K::Copy, 0, {8, 9}});
  dlc::Model model = load(s);
  dlc::Session session = create(model, simOptions(1));
  Outputs o;
  std::string error = runOnce(session, 0, o);
  EXPECT_NE(error.find("check-ordering: "), std::string::npos) << error;
  EXPECT_TRUE(error.find("no event orders the write after that read") !=
                  std::string::npos ||
              error.find("no event orders the read after the write") !=
                  std::string::npos)
      << error;
}

TEST(MultiDevice, BindingErrors) {
  dlc::Model model = load(multi());
  dlc::Session session;
  dlc::Status s = dlc::Session::create(model, session);
  std::string noDriver =
      noDriverError("model '<memory>' needs 2 GPUs (cuda:0, cuda:1)");
  if (!noDriver.empty()) { // Else the machine has a driver: see CudaTest.
    EXPECT_EQ(s.code(), DLC_STATUS_UNAVAILABLE);
    EXPECT_EQ(s.message(), noDriver);
  }
  dlc_session_options_t o = simOptions();
  o.max_in_flight = 0;
  s = dlc::Session::create(model, session, &o);
  EXPECT_EQ(s.message(), "session options: max_in_flight 0 is not in [1, 64]");
}

TEST(MultiDevice, VerificationOfTheSchedule) {
  struct Case {
    const char *what;
    void (*edit)(ArtifactSpec &);
    const char *message;
  };
  const Case cases[] = {
      {"missing event",
       [](ArtifactSpec &s) { s.schedules[1].steps[0].event = 3; },
       "step 0 of device 1 names event 3 of 3"},
      {"event count",
       [](ArtifactSpec &s) { s.eventCount = 1000000; },
       "event_count 1000000 exceeds the number of steps (13): each event "
       "needs a step that records it"},
      {"unrecorded event",
       [](ArtifactSpec &s) {
         s.eventCount = 4;
         s.schedules[1].steps[0].event = 3;
       },
       "step 0 of device 1 waits for event 3, which no step records"},
      {"recorded twice",
       [](ArtifactSpec &s) { s.schedules[2].steps[3].event = 1; },
       "step 3 of device 2 records event 1, which step 2 of device 1 records "
       "too (an event is recorded once per run)"},
      {"cycle",
       [](ArtifactSpec &s) {
         // cuda:0 now waits for event 2, which needs event 1 from cuda:0.
         s.schedules[1].steps[0].event = 2;
       },
       "the schedule cannot finish: step 0 of device 2 waits for event 1, "
       "recorded by step 2 of device 1, which never runs (a cycle of waits, "
       "or a record after its wait)"},
      {"record after wait on one stream",
       [](ArtifactSpec &s) {
         s.schedules[1].steps.push_back({K::RecordEvent, 0, {}, 0});
         s.schedules[0].steps.erase(s.schedules[0].steps.begin() + 2);
       },
       "the schedule cannot finish: step 0 of device 1 waits for event 0, "
       "recorded by step 3 of device 1, which never runs (a cycle of waits, "
       "or a record after its wait)"},
      {"step on an unknown device",
       [](ArtifactSpec &s) { s.schedules[2].device = 3; },
       "schedule 2 is for device 3 of 3"},
      {"kernel on another device's memory",
       [](ArtifactSpec &s) { s.schedules[2].steps[2].buffers[0] = 7; },
       "step 2 of device 2 passes buffer 7 of device 1 to a kernel: a kernel "
       "sees only its own device"},
      {"copy on a third stream",
       [](ArtifactSpec &s) {
         s.schedules[0].steps.push_back({K::Copy, 0, {7, 8}});
       },
       "step 6 of device 0 copies from device 1 to device 2: a copy runs on "
       "the stream of its source or its destination"},
      {"output count",
       [](ArtifactSpec &s) { s.schedules[1].steps[1].outputCount = 4; },
       "step 1 of device 1 has output_count 4 but 3 buffers"},
      {"writes a constant",
       [](ArtifactSpec &s) { s.schedules[2].steps[2].buffers = {8, 9, 10}; },
       "step 2 of device 2 writes constant buffer 10"},
  };
  for (const Case &c : cases) {
    ArtifactSpec s = multi();
    c.edit(s);
    EXPECT_EQ(loadError(buildArtifact(s)),
              std::string("data_loss: artifact 'test.dlcm': ") + c.message)
        << c.what;
  }
}

TEST(MultiDevice, PipelinedRunsComeBackInOrder) {
  dlc::Model one = load(toy()), three = load(multi());
  dlc::Session reference = create(one, simOptions(0));
  dlc_session_options_t o = simOptions(1);
  o.max_in_flight = 3;
  dlc::Session session = create(three, o);
  constexpr int kRuns = 40;
  std::vector<std::vector<float>> xs(kRuns);
  std::vector<std::vector<int32_t>> idxs(kRuns);
  std::vector<float> y = inputY();
  std::vector<uint64_t> tickets;
  int waited = 0;
  auto waitOne = [&] {
    Outputs got, expected;
    got.out.resize(6);
    got.sum.resize(6);
    got.total.resize(1);
    void *outs[] = {got.out.data(), got.sum.data(), got.total.data()};
    size_t bytes[] = {24, 24, 4};
    DLC_ASSERT_OK(
        dlc_session_wait(session.get(), tickets[waited], outs, bytes, 3));
    ASSERT_EQ(runOnce(reference, waited, expected), "");
    EXPECT_TRUE(got == expected) << "run " << waited;
    ++waited;
  };
  for (int run = 0; run < kRuns; ++run) {
    if (run - waited == 3) {
      // A fourth run does not fit.
      uint64_t t;
      const void *in[] = {xs[run - 1].data(), y.data(), idxs[run - 1].data()};
      size_t bytes[] = {24, 24, 16};
      dlc::Status s(dlc_session_submit(session.get(), in, bytes, 3, &t));
      EXPECT_EQ(s.message(),
                "dlc_session_submit: 3 runs are in flight (max_in_flight 3); "
                "wait for run " + std::to_string(waited) + " first");
      waitOne();
    }
    xs[run] = inputX(run);
    idxs[run] = inputIdx(run);
    const void *in[] = {xs[run].data(), y.data(), idxs[run].data()};
    size_t bytes[] = {24, 24, 16};
    uint64_t ticket;
    DLC_ASSERT_OK(dlc_session_submit(session.get(), in, bytes, 3, &ticket));
    EXPECT_EQ(ticket, uint64_t(run));
    tickets.push_back(ticket);
    if (run == 5) {
      // Out of order, and the synchronous calls, are refused meanwhile.
      dlc::Status s(dlc_session_wait(session.get(), ticket, nullptr, nullptr, 3));
      EXPECT_NE(s.message().find("is not the oldest run in flight"),
                std::string::npos);
      EXPECT_NE(session.run().message().find("runs are in flight"),
                std::string::npos);
    }
  }
  while (waited < kRuns)
    waitOne();
  // Then synchronous runs work again.
  Outputs a, b;
  ASSERT_EQ(runOnce(session, 7, a), "");
  ASSERT_EQ(runOnce(reference, 7, b), "");
  EXPECT_TRUE(a == b);
}

TEST(MultiDevice, ReleasingWithRunsInFlight) {
  dlc::Model three = load(multi());
  dlc_session_options_t o = simOptions(0);
  o.max_in_flight = 4;
  dlc::Session session = create(three, o);
  std::vector<float> x = inputX(0), y = inputY();
  std::vector<int32_t> idx = inputIdx(0);
  const void *in[] = {x.data(), y.data(), idx.data()};
  size_t bytes[] = {24, 24, 16};
  uint64_t t;
  for (int i = 0; i < 3; ++i)
    DLC_ASSERT_OK(dlc_session_submit(session.get(), in, bytes, 3, &t));
  DLC_ASSERT_OK(session.submit({in[0], in[1], in[2]}, {24, 24, 16}, t)
                    .release()); // The C++ wrapper.
  EXPECT_EQ(t, 3u);
  // The session's release waits for them.
}

TEST(MultiDevice, StatsAndTrace) {
  dlc::Model model = load(multi());
  dlc_session_options_t o = simOptions(0);
  o.profile = 1;
  dlc::Session session = create(model, o);
  Outputs out;
  for (int run = 0; run < 3; ++run)
    ASSERT_EQ(runOnce(session, run, out), "");
  dlc_device_stats_t st;
  DLC_ASSERT_OK(dlc_session_device_stats(session.get(), 0, &st));
  EXPECT_STREQ(st.name, "cpu");
  EXPECT_STREQ(st.binding, "cpu");
  EXPECT_EQ(st.runs, 3u);
  EXPECT_EQ(st.steps, 18u);
  EXPECT_EQ(st.bytes_copied, 3u * 72u);
  EXPECT_GT(st.active_ns, 0u);
  EXPECT_LE(st.busy_ns, st.active_ns);
  DLC_ASSERT_OK(dlc_session_device_stats(session.get(), 2, &st));
  EXPECT_STREQ(st.name, "cuda:1");
  EXPECT_STREQ(st.binding, "sim");
  EXPECT_EQ(st.bytes_copied, 3u * 24u);
  dlc::Status s(dlc_session_device_stats(session.get(), 3, &st));
  EXPECT_EQ(s.code(), DLC_STATUS_NOT_FOUND);

  std::string path = testing::TempDir() + "dlc_trace_test.json";
  DLC_ASSERT_OK(dlc_session_write_trace(session.get(), path.c_str()));
  std::ifstream in(path);
  std::string json((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  for (const char *needle :
       {"{\"displayTimeUnit\": \"ms\", \"traceEvents\": [",
        "\"args\": {\"name\": \"cuda:1 (sim)\"}",
        "{\"name\": \"copy 'x' -> 'x0'\", \"cat\": \"copy\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": ",
        "\"bytes\": 24, \"GB/s\": ", "{\"name\": \"mul\", \"cat\": \"kernel\"",
        "{\"name\": \"wait event 1\", \"cat\": \"wait\"",
        "\"ph\": \"i\", \"s\": \"t\""})
    EXPECT_NE(json.find(needle), std::string::npos) << needle << "\n" << json;
  EXPECT_EQ(json.substr(json.size() - 4), "\n]}\n");

  dlc::Session plain = create(model, simOptions(0));
  s = dlc::Status(dlc_session_write_trace(plain.get(), path.c_str()));
  EXPECT_EQ(s.message(), "dlc_session_write_trace: the session was created "
                         "without profile = 1: there is no trace");
}

TEST(MultiDevice, ResetStatsStartsTheCountsAfresh) {
  dlc::Model model = load(multi());
  dlc_session_options_t o = simOptions(0);
  o.profile = 1;
  o.max_in_flight = 2;
  dlc::Session session = create(model, o);
  Outputs out;
  ASSERT_EQ(runOnce(session, 0, out), "");
  // Not while a run is in flight.
  std::vector<float> x(6, 1.0f), y(6, 2.0f);
  std::vector<int32_t> idx = {1, 2, 3, 0};
  const void *in[] = {x.data(), y.data(), idx.data()};
  size_t bytes[] = {24, 24, 16};
  uint64_t ticket;
  DLC_ASSERT_OK(dlc_session_submit(session.get(), in, bytes, 3, &ticket));
  dlc::Status busy(dlc_session_reset_stats(session.get()));
  EXPECT_EQ(busy.message(), "dlc_session_reset_stats: a run is in flight (wait for it first)");
  std::vector<float> o1(6), o2(6);
  std::vector<int32_t> o3(1);
  void *outs[] = {o1.data(), o2.data(), o3.data()};
  size_t outBytes[] = {24, 24, 4};
  DLC_ASSERT_OK(dlc_session_wait(session.get(), ticket, outs, outBytes, 3));
  DLC_ASSERT_OK(dlc_session_reset_stats(session.get()));
  dlc_device_stats_t st;
  DLC_ASSERT_OK(dlc_session_device_stats(session.get(), 0, &st));
  EXPECT_EQ(st.runs, 0u);
  EXPECT_EQ(st.steps, 0u);
  EXPECT_EQ(st.busy_ns, 0u);
  EXPECT_EQ(st.active_ns, 0u);
  dlc_kernel_stats_t k;
  DLC_ASSERT_OK(dlc_session_kernel_stats(session.get(), 0, &k));
  EXPECT_EQ(k.calls, 0u);
  ASSERT_EQ(runOnce(session, 1, out), "");
  DLC_ASSERT_OK(dlc_session_device_stats(session.get(), 0, &st));
  EXPECT_EQ(st.runs, 1u);
  EXPECT_EQ(st.steps, 6u);
  dlc::Status null(dlc_session_reset_stats(nullptr));
  EXPECT_EQ(null.message(), "dlc_session_reset_stats: null argument");
}

TEST(MultiDevice, SimLinksMakeCopiesTakeTheLinksTime) {
  // cuda:0 -> cuda:1 carries the 24-byte copy 'sum0' -> 'sum1': 5 ms of
  // latency + 24 B at 4800 B/s (5 ms) = at least 10 ms per run.
  ArtifactSpec spec = multi();
  spec.versionMinor = 3;
  spec.links = {{1, 2, 4800.0, 5000.0}, {0, 1, 1e12, 0.0}};
  spec.placement[0].estimatedUs = 1.5;
  dlc::Model model = load(spec);
  dlc_session_options_t o = simOptions(0);
  o.profile = 1;
  o.sim_links = 1;
  dlc::Session session = create(model, o);
  Outputs out;
  auto start = std::chrono::steady_clock::now();
  for (int run = 0; run < 2; ++run)
    ASSERT_EQ(runOnce(session, run, out), "");
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - start)
                .count();
  EXPECT_GE(ns, 2 * 10'000'000);
  dlc_device_stats_t st;
  DLC_ASSERT_OK(dlc_session_device_stats(session.get(), 2, &st));
  EXPECT_GE(st.copy_ns, 2u * 10'000'000u);
  // Per-kernel statistics: 'add' on cuda:0, once per run.
  dlc_kernel_stats_t k;
  DLC_ASSERT_OK(dlc_session_kernel_stats(session.get(), 0, &k));
  EXPECT_STREQ(k.name, "add");
  EXPECT_EQ(k.calls, 2u);
  dlc::Status s(dlc_session_kernel_stats(session.get(), 3, &k));
  EXPECT_EQ(s.code(), DLC_STATUS_NOT_FOUND);

  // A link must join two different devices of the artifact, once, with a
  // positive bandwidth.
  for (LinkSpec bad : {LinkSpec{1, 1, 1e9, 0}, LinkSpec{0, 3, 1e9, 0},
                       LinkSpec{0, 2, 0, 1}, LinkSpec{0, 2, 1e9, -1},
                       LinkSpec{0, 1, 1e9, 0}}) {
    ArtifactSpec broken = spec;
    broken.links.push_back(bad);
    std::string bytes = buildArtifact(broken);
    dlc::Model m;
    dlc::Status e = dlc::Model::loadMemory(bytes.data(), bytes.size(), m);
    EXPECT_EQ(e.code(), DLC_STATUS_DATA_LOSS);
    EXPECT_NE(e.message().find("link 2 (device "), std::string::npos)
        << e.message();
  }
}

TEST(MultiDevice, ConcurrentSessionsAndRuns) {
  dlc::Model one = load(toy()), three = load(multi());
  constexpr int kThreads = 4, kRuns = 60;
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      dlc::Session reference, session;
      dlc_session_options_t o = simOptions(t % 2);
      o.profile = t / 2;
      if (dlc::Status s = dlc::Session::create(one, reference, &o); !s.ok())
        return void(errors[t] = s.message());
      if (dlc::Status s = dlc::Session::create(three, session, &o); !s.ok())
        return void(errors[t] = s.message());
      for (int run = 0; run < kRuns; ++run) {
        Outputs expected, got;
        std::string e = runOnce(reference, run * kThreads + t, expected);
        if (e.empty())
          e = runOnce(session, run * kThreads + t, got);
        if (e.empty() && !(got == expected))
          e = "wrong outputs in run " + std::to_string(run);
        if (!e.empty())
          return void(errors[t] = e);
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(errors[t], "") << "thread " << t;
}

} // namespace

namespace {

/// What a step observer saw: one record per buffer written.
struct Observed {
  uint64_t sequence, run;
  std::string device, kernel, name, copiedFrom;
  uint32_t step, buffer;
  bool copy;
  std::vector<std::string> ops;
  std::vector<uint8_t> bytes;
};

struct Observer {
  std::vector<Observed> seen;
  uint32_t stopAtBuffer = UINT32_MAX;
  static int32_t observe(void *user, const dlc_step_output_t *o) {
    auto &self = *static_cast<Observer *>(user);
    Observed r{o->sequence, o->run, o->device_name, o->kernel, o->tensor.name,
               o->copied_from, o->step, o->buffer, o->is_copy != 0, {}, {}};
    for (size_t i = 0; i < o->op_count; ++i)
      r.ops.push_back(o->ops[i]);
    const uint8_t *p = static_cast<const uint8_t *>(o->data);
    r.bytes.assign(p, p + o->tensor.byte_size);
    self.seen.push_back(std::move(r));
    return o->buffer == self.stopAtBuffer ? 1 : 0;
  }
  const Observed *find(uint32_t buffer, uint64_t run) const {
    for (const Observed &r : seen)
      if (r.buffer == buffer && r.run == run)
        return &r;
    return nullptr;
  }
};

TEST(MultiDevice, StepObserverSeesEveryCallAndCopyInDataflowOrder) {
  dlc::Model model = load(multi());
  Observer observer;
  dlc_session_options_t o = simOptions(1);
  o.step_observer = &Observer::observe;
  o.step_observer_user = &observer;
  dlc::Session session = create(model, o);
  Outputs got;
  ASSERT_EQ(runOnce(session, 0, got), "");
  EXPECT_TRUE(got == reference(0));
  // cpu: 3 copies and a call; cuda:0 a call; cuda:1 a copy and a call.
  ASSERT_EQ(observer.seen.size(), 7u);
  for (size_t i = 0; i < observer.seen.size(); ++i) {
    EXPECT_EQ(observer.seen[i].sequence, i);
    EXPECT_EQ(observer.seen[i].run, 0u);
  }
  const Observed *sum0 = observer.find(7, 0), *sum1 = observer.find(8, 0),
                 *prod = observer.find(9, 0), *out = observer.find(4, 0),
                 *total = observer.find(3, 0);
  ASSERT_TRUE(sum0 && sum1 && prod && out && total);
  EXPECT_LT(sum0->sequence, sum1->sequence);
  EXPECT_LT(sum1->sequence, prod->sequence);
  EXPECT_LT(prod->sequence, out->sequence);
  EXPECT_EQ(sum0->device, "cuda:0");
  EXPECT_FALSE(sum0->copy);
  EXPECT_EQ(sum0->ops, std::vector<std::string>{"/add/Add"});
  EXPECT_EQ(sum0->name, "sum0");
  EXPECT_TRUE(sum1->copy);
  EXPECT_EQ(sum1->device, "cuda:1");
  EXPECT_EQ(sum1->copiedFrom, "sum0");
  EXPECT_EQ(sum1->kernel, "");
  EXPECT_EQ(std::memcmp(sum0->bytes.data(), got.sum.data(), 24), 0);
  EXPECT_EQ(std::memcmp(out->bytes.data(), got.out.data(), 24), 0);
  EXPECT_EQ(std::memcmp(total->bytes.data(), got.total.data(), 4), 0);
  // A second run is numbered 1; the sequence goes on.
  ASSERT_EQ(runOnce(session, 1, got), "");
  ASSERT_EQ(observer.seen.size(), 14u);
  EXPECT_EQ(observer.seen.back().run, 1u);
  EXPECT_EQ(observer.seen.back().sequence, 13u);
}

TEST(MultiDevice, StepObserverStopsTheRun) {
  dlc::Model model = load(multi());
  Observer observer;
  observer.stopAtBuffer = 9;
  dlc_session_options_t o = simOptions(0);
  o.step_observer = &Observer::observe;
  o.step_observer_user = &observer;
  dlc::Session session = create(model, o);
  Outputs got;
  EXPECT_EQ(runOnce(session, 0, got),
            "aborted: model '<memory>': the step observer stopped the run after step 2 (call) "
            "of cuda:1 wrote buffer 9 ('prod1')");
  // The out copy waits for prod1: it never ran.
  EXPECT_EQ(observer.find(4, 0), nullptr);
  // The session survives a stopped run.
  observer.stopAtBuffer = UINT32_MAX;
  ASSERT_EQ(runOnce(session, 1, got), "");
  EXPECT_TRUE(got == reference(1));
}

} // namespace
