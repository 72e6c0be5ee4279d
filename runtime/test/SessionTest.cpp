//===- SessionTest.cpp - load, run, inputs/outputs, threads ---------------===//

#include "TestUtil.h"
#include "dlc/runtime.hpp"

#include <thread>
#include <vector>

using namespace dlc::test;

namespace {

std::vector<float> iota(float from) {
  std::vector<float> v(6);
  for (int i = 0; i < 6; ++i)
    v[i] = from + float(i);
  return v;
}

TEST(Session, RunsTheToyModel) {
  dlc::Model model;
  std::string bytes = buildArtifact(toy());
  DLC_ASSERT_OK(
      dlc::Model::loadMemory(bytes.data(), bytes.size(), model).release());
  bytes.assign(bytes.size(), '\0'); // The load copied them.
  ASSERT_EQ(model.inputCount(), 3u);
  ASSERT_EQ(model.outputCount(), 3u);
  dlc_tensor_info_t x = model.input(0);
  EXPECT_STREQ(x.name, "x");
  EXPECT_EQ(x.dtype, DLC_DTYPE_F32);
  EXPECT_EQ(model.shape(x), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(x.byte_size, 24u);
  EXPECT_EQ(model.input(2).index_bound, 10);
  EXPECT_STREQ(model.output(1).name, "t/sum:0");
  EXPECT_STREQ(dlc_model_producer(model.get()), "dlc runtime tests");
  EXPECT_STREQ(dlc_model_name(model.get()), "<memory>");
  ASSERT_EQ(dlc_model_device_count(model.get()), 1u);
  dlc_device_info_t dev;
  DLC_ASSERT_OK(dlc_model_device_info(model.get(), 0, &dev));
  EXPECT_STREQ(dev.name, "cpu");
  EXPECT_EQ(dev.arena_size, 384u);
  size_t index;
  DLC_ASSERT_OK(dlc_model_find_output(model.get(), "total", &index));
  EXPECT_EQ(index, 2u);

  dlc::Session session;
  DLC_ASSERT_OK(dlc::Session::create(model, session).release());
  DLC_ASSERT_OK(session.setInput(0, iota(1)).release());
  DLC_ASSERT_OK(session.setInput(1, iota(10)).release());
  DLC_ASSERT_OK(
      session.setInput(2, std::vector<int32_t>{1, 2, 3, 4}).release());
  DLC_ASSERT_OK(session.run().release());
  std::vector<float> out, sum;
  DLC_ASSERT_OK(session.output(0, out).release());
  DLC_ASSERT_OK(session.output(1, sum).release());
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(sum[i], float(11 + 2 * i));
    EXPECT_EQ(out[i], float(11 + 2 * i) * float(i + 1));
  }
  std::vector<int32_t> total;
  DLC_ASSERT_OK(session.output(2, total).release());
  EXPECT_EQ(total, std::vector<int32_t>{10});
  const void *data;
  size_t n;
  DLC_ASSERT_OK(session.output(0, data, n).release());
  EXPECT_EQ(n, 24u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 64, 0u);
}

TEST(Session, InputAndOutputErrors) {
  dlc::Model model;
  std::string bytes = buildArtifact(toy());
  DLC_ASSERT_OK(
      dlc::Model::loadMemory(bytes.data(), bytes.size(), model).release());
  dlc::Session session;
  DLC_ASSERT_OK(dlc::Session::create(model, session).release());
  float buf[6] = {};
  dlc::Status s(dlc_session_set_input(session.get(), 0, buf, 20));
  EXPECT_EQ(s.code(), DLC_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "dlc_session_set_input: input 0 ('x') has 24 bytes, got 20");
  s = dlc::Status(dlc_session_set_input(session.get(), 3, buf, 24));
  EXPECT_EQ(s.code(), DLC_STATUS_NOT_FOUND);
  EXPECT_EQ(s.message(), "model '<memory>' has no input 3 (it has 3)");
  s = session.setInput(2, std::vector<float>(4));
  EXPECT_EQ(s.message(), "input 'idx' is i32, not f32");
  s = dlc::Status(dlc_session_copy_output(session.get(), 0, buf, 4));
  EXPECT_EQ(s.message(),
            "dlc_session_copy_output: output 0 ('out') has 24 bytes, got 4");
  s = dlc::Status(dlc_session_output(session.get(), 7, nullptr, nullptr));
  EXPECT_EQ(s.code(), DLC_STATUS_INVALID_ARGUMENT);
  size_t index;
  s = dlc::Status(dlc_model_find_input(model.get(), "nope", &index));
  EXPECT_EQ(s.message(), "model '<memory>' has no input named 'nope'");
  dlc_tensor_info_t info;
  s = dlc::Status(dlc_model_output_info(model.get(), 3, &info));
  EXPECT_EQ(s.code(), DLC_STATUS_NOT_FOUND);
  dlc_session_options_t options;
  dlc_session_options_initialize(&options);
  options.thread_count = -1;
  dlc::Session other;
  s = dlc::Session::create(model, other, &options);
  EXPECT_EQ(s.message(), "session options: thread_count -1 is negative");
}

TEST(Session, ModelOutlivesItsHandleThroughSessions) {
  std::string bytes = buildArtifact(toy());
  dlc_model_t *model;
  DLC_ASSERT_OK(loadBytes(bytes, &model));
  dlc_session_t *session;
  DLC_ASSERT_OK(dlc_session_create(model, nullptr, &session));
  dlc_model_release(model); // The session keeps it alive.
  std::vector<float> x = iota(0);
  DLC_EXPECT_OK(dlc_session_set_input(session, 0, x.data(), 24));
  DLC_EXPECT_OK(dlc_session_run(session));
  EXPECT_EQ(dlc_session_model(session), model);
  dlc_session_release(session);
}

TEST(Session, LibrariesStayDistinctAcrossLoadsAndReleases) {
  // A closed memfd would let the next library reuse its path, and glibc
  // would return the first handle: keep loading and releasing.
  std::string bytes = buildArtifact(toy());
  dlc_model_t *a, *b, *c;
  DLC_ASSERT_OK(loadBytes(bytes, &a));
  DLC_ASSERT_OK(loadBytes(bytes, &b));
  dlc_model_release(a);
  DLC_ASSERT_OK(loadBytes(bytes, &c));
  for (dlc_model_t *m : {b, c}) {
    dlc_session_t *s;
    DLC_ASSERT_OK(dlc_session_create(m, nullptr, &s));
    DLC_EXPECT_OK(dlc_session_run(s));
    dlc_session_release(s);
    dlc_model_release(m);
  }
}

#ifdef DLC_TEST_KERNELS_NODELETE
/// The toy model's `total` output with `model`'s kernels, for 1 + 2 + 3 + 4.
int32_t toyTotal(dlc_model_t *model) {
  dlc_session_t *s;
  EXPECT_EQ(dlc_session_create(model, nullptr, &s), nullptr);
  std::vector<int32_t> idx{1, 2, 3, 4};
  EXPECT_EQ(dlc_session_set_input(s, 2, idx.data(), 16), nullptr);
  EXPECT_EQ(dlc_session_run(s), nullptr);
  const void *data = nullptr;
  size_t n = 0;
  EXPECT_EQ(dlc_session_output(s, 2, &data, &n), nullptr);
  int32_t total = data ? *static_cast<const int32_t *>(data) : -1;
  dlc_session_release(s);
  return total;
}

TEST(Session, ALibraryThatStaysLoadedKeepsItsPath) {
  // dlclose does not unload it, so its memfd's number must not go to the
  // next library: glibc would hand back this one's code for that path (the
  // conformance run on simulated GPUs got every test's kernels wrong).
  std::string sticky = buildArtifact(toyModel(nodeleteKernelsPath()));
  std::string plain = buildArtifact(toy());
  for (int round = 0; round < 2; ++round) {
    dlc_model_t *a, *b;
    DLC_ASSERT_OK(loadBytes(sticky, &a));
    EXPECT_EQ(toyTotal(a), 110);
    dlc_model_release(a);
    DLC_ASSERT_OK(loadBytes(plain, &b));
    EXPECT_EQ(toyTotal(b), 10);
    dlc_model_release(b);
  }
}
#endif

TEST(Session, ConcurrentSessionsOnOneModel) {
  dlc::Model model;
  std::string bytes = buildArtifact(toy());
  DLC_ASSERT_OK(
      dlc::Model::loadMemory(bytes.data(), bytes.size(), model).release());
  constexpr int kThreads = 8, kRuns = 200;
  std::vector<std::vector<float>> results(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      dlc::Session session;
      if (dlc::Status s = dlc::Session::create(model, session); !s.ok())
        return void(errors[t] = s.message());
      for (int r = 0; r < kRuns; ++r) {
        // Each thread its own inputs, then the common ones last.
        float base = r + 1 == kRuns ? 1.0f : float(t * 100 + r);
        std::vector<float> out;
        if (dlc::Status s = session.setInput(0, iota(base)); !s.ok())
          return void(errors[t] = s.message());
        session.setInput(1, iota(10));
        session.run();
        session.output(0, out);
        std::vector<float> expected(6);
        for (int i = 0; i < 6; ++i)
          expected[i] = (base + i + 10 + i) * float(i + 1);
        if (out != expected)
          return void(errors[t] = "wrong result in run " + std::to_string(r));
        results[t] = out;
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], "") << "thread " << t;
    EXPECT_EQ(results[t], results[0]);
  }
}

} // namespace
