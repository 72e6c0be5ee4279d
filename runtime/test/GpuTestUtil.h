//===- GpuTestUtil.h - what the real- and fake-GPU tests share ------------===//
//
// The toy model's runs (inputs per run number, outputs compared bitwise)
// against the CPU-only toy model, and session options with a GPU map: shared
// by the simulated-GPU, fake-driver and real-GPU tests.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_TEST_GPUTESTUTIL_H
#define DLC_RUNTIME_TEST_GPUTESTUTIL_H

#include "TestUtil.h"
#include "dlc/runtime.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace dlc::test {

inline dlc::Model load(const ArtifactSpec &spec) {
  dlc::Model model;
  std::string bytes = buildArtifact(spec);
  dlc::Status s = dlc::Model::loadMemory(bytes.data(), bytes.size(), model);
  EXPECT_TRUE(s.ok()) << s.toString();
  return model;
}

inline dlc_session_options_t options(std::vector<int32_t> *map = nullptr,
                                     int check = 1) {
  dlc_session_options_t o;
  dlc_session_options_initialize(&o);
  o.check_ordering = check;
  if (map) {
    o.gpu_map = map->data();
    o.gpu_map_count = int32_t(map->size());
  }
  return o;
}

struct Outputs {
  std::vector<float> out, sum;
  std::vector<int32_t> total;
  bool operator==(const Outputs &o) const {
    // Bitwise: NaNs compare by their bits.
    return std::memcmp(out.data(), o.out.data(), 24) == 0 &&
           std::memcmp(sum.data(), o.sum.data(), 24) == 0 && total == o.total;
  }
};

inline std::vector<float> inputX(int run) {
  std::vector<float> v(6);
  for (int i = 0; i < 6; ++i)
    v[i] = 0.25f * float(i) + float(run);
  return v;
}
inline std::vector<float> inputY() { return {10, -2.5f, 3, 1e-3f, 7, 1e6f}; }
inline std::vector<int32_t> inputIdx(int run) { return {1, 2, 3, run}; }

/// Sets the inputs of `run`, runs, and reads the outputs; "" or the error.
inline std::string runOnce(dlc::Session &session, int run, Outputs &out) {
  dlc::Status s = session.setInput(0, inputX(run));
  if (s.ok())
    s = session.setInput(1, inputY());
  if (s.ok())
    s = session.setInput(2, inputIdx(run));
  if (s.ok())
    s = session.run();
  if (s.ok())
    s = session.output(0, out.out);
  if (s.ok())
    s = session.output(1, out.sum);
  if (s.ok())
    s = session.output(2, out.total);
  return s.ok() ? "" : s.toString();
}

/// The outputs of the one-device toy model (the reference).
inline Outputs reference(int run) {
  dlc::Model one = load(toy());
  dlc::Session session;
  EXPECT_TRUE(dlc::Session::create(one, session).ok());
  Outputs out;
  EXPECT_EQ(runOnce(session, run, out), "");
  return out;
}

} // namespace dlc::test

#endif // DLC_RUNTIME_TEST_GPUTESTUTIL_H
