//===- GpuTestUtil.h - what the real- and fake-GPU tests share ------------===//
//
// The toy model's runs (inputs per run number, outputs compared bitwise)
// against the CPU-only toy model, and session options with a GPU map.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_TEST_GPUTESTUTIL_H
#define DLC_RUNTIME_TEST_GPUTESTUTIL_H

#include "TestUtil.h"
#include "dlc/runtime.hpp"

#include <cstring>
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
    return std::memcmp(out.data(), o.out.data(), 24) == 0 &&
           std::memcmp(sum.data(), o.sum.data(), 24) == 0 && total == o.total;
  }
};

inline std::string runOnce(dlc::Session &session, int run, Outputs &out) {
  std::vector<float> x(6), y = {10, -2.5f, 3, 1e-3f, 7, 1e6f};
  for (int i = 0; i < 6; ++i)
    x[i] = 0.25f * float(i) + float(run);
  std::vector<int32_t> idx = {1, 2, 3, run};
  dlc::Status s = session.setInput(0, x);
  if (s.ok())
    s = session.setInput(1, y);
  if (s.ok())
    s = session.setInput(2, idx);
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
