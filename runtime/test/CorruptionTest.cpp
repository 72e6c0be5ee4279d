//===- CorruptionTest.cpp - damaged artifacts fail cleanly, never crash ---===//
//
// Truncates the toy artifact at many lengths and flips bytes at many
// positions, in a single-target artifact and in a multi-target one: each load either fails with a message or succeeds (a flip in
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

/// A multi-target container (0.7) holding `variants` as its segments,
/// written by hand so that a damaged variant gets a valid CRC.
std::string containerOf(const std::vector<std::string> &variants) {
  ArtifactSpec spec;
  spec.versionMinor = 7;
  for (size_t i = 0; i < variants.size(); ++i) {
    SegmentSpec segment;
    segment.bytes = variants[i];
    spec.segments.push_back(segment);
    spec.variants.push_back({uint32_t(i), "x86_64-unknown-linux-gnu", "v" + std::to_string(i), {}});
  }
  return buildArtifact(spec);
}

// A multi-target artifact: damage to the container (caught by its own checks
// or its segments' CRCs), and damage inside a variant that the container's
// CRC vouches for (caught by the variant's own verification).
TEST(Corruption, MultiTargetContainer) {
  std::string variant = buildArtifact(toy());
  std::string good = containerOf({variant, variant});
  int failures = 0;
  loadAndMaybeRun(good, failures);
  EXPECT_EQ(failures, 0);
  uint32_t prefix;
  std::memcpy(&prefix, good.data(), 4);
  for (size_t i = 0; i < prefix + 4; ++i)
    for (unsigned char mask : {0x01, 0xff}) {
      std::string bad = good;
      bad[i] = char(bad[i] ^ mask);
      loadAndMaybeRun(bad, failures);
    }
  std::mt19937 rng(11);
  for (int k = 0; k < 200; ++k) {
    std::string bad = good;
    for (int j = 0; j < 4; ++j)
      bad[rng() % bad.size()] = char(rng());
    loadAndMaybeRun(bad, failures);
  }
  std::memcpy(&prefix, variant.data(), 4);
  int before = failures;
  for (size_t i = 0; i < prefix + 4; i += 3) {
    std::string inner = variant;
    inner[i] = char(inner[i] ^ 0xff);
    loadAndMaybeRun(containerOf({inner, inner}), failures);
  }
  EXPECT_GT(failures, before);
  for (size_t n = 0; n < variant.size(); n += 97) // truncated variants
    loadAndMaybeRun(containerOf({variant.substr(0, n)}), failures);
}

} // namespace
