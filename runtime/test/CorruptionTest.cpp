//===- CorruptionTest.cpp - damaged artifacts fail cleanly, never crash ---===//
//
// Truncates the toy artifact at many lengths and flips bytes at many
// positions: each load either fails with a message or succeeds (a flip in
// padding, a name, ...); a model that loads also gets a session. Under the
// sanitizer build (tools/test.sh) any out-of-bounds read fails the test.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <random>

using namespace dlc::test;

namespace {

/// Loads; on success creates a session.
void loadAndMaybeRun(const std::string &bytes, int &failures) {
  dlc_model_t *model = nullptr;
  dlc_status_t s = loadBytes(bytes, &model, /*loadCode=*/1);
  if (s) {
    EXPECT_NE(std::string(dlc_status_message(s)), "");
    ++failures;
    dlc_status_free(s);
    return;
  }
  dlc_session_t *session = nullptr;
  if (dlc_status_t st = dlc_session_create(model, nullptr, &session)) {
    dlc_status_free(st);
  } else {
    // Not run: a kernel trusts its buffers' sizes, and a flip that swaps
    // two in-range buffer indices is valid to every check the format has.
    dlc_session_release(session);
  }
  dlc_model_release(model);
}

TEST(Corruption, TruncationAtManyLengths) {
  std::string good = buildArtifact(toy());
  int failures = 0, tries = 0;
  // Every length in the FlatBuffer, then strides through the segments.
  uint32_t prefix;
  std::memcpy(&prefix, good.data(), 4);
  for (size_t n = 0; n < good.size(); n += n < prefix + 4 ? 1 : 97) {
    loadAndMaybeRun(good.substr(0, n), failures);
    ++tries;
  }
  EXPECT_EQ(failures, tries); // The last segment ends the file.
}

TEST(Corruption, FlippedBytes) {
  std::string good = buildArtifact(toy());
  uint32_t prefix;
  std::memcpy(&prefix, good.data(), 4);
  std::mt19937 rng(7);
  int failures = 0;
  // Every byte of the FlatBuffer, three patterns each.
  for (size_t i = 0; i < prefix + 4; ++i)
    for (unsigned char mask : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = char(bad[i] ^ mask);
      loadAndMaybeRun(bad, failures);
    }
  // Random multi-byte damage anywhere, including the segments (CRC).
  for (int k = 0; k < 300; ++k) {
    std::string bad = good;
    for (int j = 0; j < 4; ++j)
      bad[rng() % bad.size()] = char(rng());
    loadAndMaybeRun(bad, failures);
  }
  EXPECT_GT(failures, 0);
}

} // namespace
