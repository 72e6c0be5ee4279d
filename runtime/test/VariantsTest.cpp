//===- VariantsTest.cpp - multi-target artifacts (0.7); the portable CRC-32 ===//

#include "CpuFeatures.h"
#include "Crc32.h"
#include "TestUtil.h"
#include "Variants.h"

#include <algorithm>

using namespace dlc::test;
using dlc::rt::VariantTarget;

namespace {

const std::vector<VariantTarget> kX86{
    {"x86_64-unknown-linux-gnu", "x86-64-v4", {"avx2", "avx512f", "fma"}},
    {"x86_64-unknown-linux-gnu", "x86-64-v3", {"avx2", "fma"}},
    {"x86_64-unknown-linux-gnu", "x86-64", {}},
};

int choose(const std::vector<VariantTarget> &variants, const std::string &arch,
           const std::vector<std::string> &have, std::string *why = nullptr) {
  std::string reason;
  int chosen = dlc::rt::chooseVariant(variants, arch, have, reason);
  if (why)
    *why = reason;
  return chosen;
}

TEST(Variants, TheMostSpecialisedVariantThatRuns) {
  EXPECT_EQ(choose(kX86, "x86_64", {"avx2", "avx512f", "fma", "sse2"}), 0);
  EXPECT_EQ(choose(kX86, "x86_64", {"avx2", "fma", "sse2"}), 1);
  EXPECT_EQ(choose(kX86, "x86_64", {"avx2"}), 2);
  EXPECT_EQ(choose(kX86, "x86_64", {}), 2);
  // The order in the file does not matter, a tie goes to the first.
  std::vector<VariantTarget> reversed(kX86.rbegin(), kX86.rend());
  EXPECT_EQ(choose(reversed, "x86_64", {"avx2", "avx512f", "fma"}), 2);
  std::vector<VariantTarget> tie{kX86[1], kX86[1]};
  EXPECT_EQ(choose(tie, "x86_64", {"avx2", "fma"}), 0);
}

TEST(Variants, NoneRunsSaysWhyForEach) {
  std::vector<VariantTarget> variants{
      kX86[0], kX86[1], {"aarch64-unknown-linux-gnu", "neoverse-n1", {"neon"}}};
  std::string why;
  EXPECT_EQ(choose(variants, "x86_64", {"sse2"}, &why), -1);
  EXPECT_EQ(why, "variant 0 (x86-64-v4) needs CPU feature 'avx2', which this CPU lacks; "
                 "variant 1 (x86-64-v3) needs CPU feature 'avx2', which this CPU lacks; "
                 "variant 2 (neoverse-n1) is compiled for 'aarch64-unknown-linux-gnu', "
                 "not for this machine (x86_64)");
  // A variant without CPU code runs anywhere.
  EXPECT_EQ(choose({{"", "x86-64-v4", {}}}, "aarch64", {}), 0);
  // A feature the runtime does not know is never assumed present.
  EXPECT_EQ(choose({{"x86_64-unknown-linux-gnu", "future", {"avx1024"}}}, "x86_64",
                   {"avx1024"}, &why),
            -1);
  EXPECT_EQ(why, "variant 0 (future) needs CPU feature 'avx1024', which this runtime does not "
                 "know");
}

TEST(Variants, SplitFeatureList) {
  EXPECT_EQ(dlc::rt::splitFeatureList("avx2,fma"), (std::vector<std::string>{"avx2", "fma"}));
  EXPECT_EQ(dlc::rt::splitFeatureList(""), std::vector<std::string>{});
  EXPECT_EQ(dlc::rt::splitFeatureList(",sse2,,"), std::vector<std::string>{"sse2"});
}

/// The toy model as compiled for `cpu`, its library needing `features`.
std::string toyFor(const std::string &cpu, std::vector<std::string> features) {
  ArtifactSpec spec = toy();
  spec.libraries[0].cpu = cpu;
  spec.libraries[0].features = std::move(features);
  return buildArtifact(spec);
}

/// A container of the toy model for a baseline ("sse2"), a "v3" (sse2,
/// sse4.1) and, when `withAvx512`, a "v4" (sse2, sse4.1, avx512f) variant.
struct Container {
  std::vector<std::string> parts;
  std::string bytes;
  explicit Container(bool withAvx512 = true) {
    parts = {toyFor("base", {"sse2"}), toyFor("v3", {"sse2", "sse4.1"})};
    if (withAvx512)
      parts.push_back(toyFor("v4", {"sse2", "sse4.1", "avx512f"}));
    std::vector<dlc::artifact_writer::TargetArtifact> targets;
    for (size_t i = 0; i < parts.size(); ++i)
      targets.push_back({parts[i], i == 0 ? "base" : i == 1 ? "v3" : "v4"});
    std::string error;
    bytes = dlc::artifact_writer::serializeMultiTarget(targets, "test", error);
    EXPECT_EQ(error, "");
  }
};

/// Loads `bytes` with the features override and forced variant; "ok [CPU]"
/// naming the chosen variant's target_cpu, or the error's "code: message".
std::string loadVariant(const std::string &bytes, const char *features, int32_t variant = -1,
                        int32_t loadCode = 1) {
  dlc_model_options_t options;
  dlc_model_options_initialize(&options);
  options.name = "m.dlcm";
  options.cpu_features = features;
  options.variant = variant;
  options.load_code = loadCode;
  dlc_model_t *model = nullptr;
  dlc_status_t s = dlc_model_load_memory(bytes.data(), bytes.size(), &options, &model);
  if (s) {
    std::string text =
        std::string(dlc_status_code_name(dlc_status_code(s))) + ": " + dlc_status_message(s);
    dlc_status_free(s);
    return text;
  }
  std::string chosen = "?";
  for (size_t i = 0; i < dlc_model_variant_count(model); ++i) {
    dlc_variant_info_t info;
    DLC_EXPECT_OK(dlc_model_variant_info(model, i, &info));
    if (info.chosen)
      chosen = info.target_cpu;
  }
  std::string name = dlc_model_name(model);
  EXPECT_EQ(name, "m.dlcm [" + chosen + "]");
  EXPECT_EQ(dlc_model_output_count(model), 3u);
  dlc_model_release(model);
  return "ok [" + chosen + "]";
}

bool hostHas(const std::string &feature) {
  const auto &have = dlc::rt::hostCpuFeatures();
  return std::find(have.begin(), have.end(), feature) != have.end();
}

TEST(Variants, ChosenByOverriddenFeatures) {
  if (!hostHas("sse4.1"))
    GTEST_SKIP() << "the test's variants need sse4.1 to run";
  Container c;
  EXPECT_EQ(loadVariant(c.bytes, "sse2"), "ok [base]");
  EXPECT_EQ(loadVariant(c.bytes, "sse2,sse4.1"), "ok [v3]");
  // The override chooses; the chosen code is still checked on this CPU.
  EXPECT_EQ(loadVariant(c.bytes, "sse2,sse4.1,avx512f"),
            hostHas("avx512f")
                ? "ok [v4]"
                : "unavailable: artifact 'm.dlcm [v4]': library 0 (target_cpu 'v4') needs CPU "
                  "feature 'avx512f', which this CPU lacks");
  EXPECT_EQ(loadVariant(c.bytes, nullptr), hostHas("avx512f") ? "ok [v4]" : "ok [v3]");
  EXPECT_EQ(loadVariant(c.bytes, nullptr, 0), "ok [base]");
  EXPECT_EQ(loadVariant(c.bytes, nullptr, 3),
            "invalid_argument: artifact 'm.dlcm' has no variant 3 (it has 3)");
  EXPECT_EQ(loadVariant(buildArtifact(toy()), nullptr, 1),
            "invalid_argument: artifact 'm.dlcm' has no variant 1 (it is compiled for one "
            "target)");
}

TEST(Variants, NoVariantRunsIsAnErrorNotACrash) {
  Container c;
  EXPECT_EQ(loadVariant(c.bytes, ""),
            "unavailable: artifact 'm.dlcm' has no variant a CPU with features '' can run: "
            "variant 0 (base) needs CPU feature 'sse2', which this CPU lacks; variant 1 (v3) "
            "needs CPU feature 'sse2', which this CPU lacks; variant 2 (v4) needs CPU feature "
            "'avx512f', which this CPU lacks");
  // Inspecting (no code) shows the first variant instead.
  EXPECT_EQ(loadVariant(c.bytes, "", -1, /*loadCode=*/0), "ok [base]");
}

TEST(Variants, ContainerErrors) {
  Container c;
  std::vector<dlc::artifact_writer::TargetArtifact> nested{{c.bytes, "all"}};
  std::string error;
  EXPECT_EQ(dlc::artifact_writer::serializeMultiTarget(nested, "test", error), "");
  EXPECT_EQ(error, "the artifact for 'all' is itself a multi-target artifact");
  std::vector<dlc::artifact_writer::TargetArtifact> garbage{{"not an artifact", "x"}};
  EXPECT_EQ(dlc::artifact_writer::serializeMultiTarget(garbage, "test", error), "");
  EXPECT_EQ(error, "the artifact for 'x' is not a dlc artifact");

  // Hand-made containers: what a correct writer never writes.
  auto container = [&](void (*edit)(ArtifactSpec &)) {
    ArtifactSpec spec;
    spec.versionMinor = 7;
    SegmentSpec segment;
    segment.bytes = c.parts[0];
    spec.segments.push_back(segment);
    spec.variants.push_back({0, "x86_64-unknown-linux-gnu", "base", {"sse2"}});
    edit(spec);
    return buildArtifact(spec);
  };
  EXPECT_EQ(loadVariant(container([](ArtifactSpec &) {}), "sse2"), "ok [base]");
  EXPECT_EQ(loadError(container([](ArtifactSpec &s) { s.devices.push_back({}); })),
            "data_loss: artifact 'test.dlcm': a multi-target artifact (with variants) has "
            "devices of its own");
  EXPECT_EQ(loadError(container([](ArtifactSpec &s) { s.versionMinor = 6; })),
            "data_loss: artifact 'test.dlcm' has variants but format version 0.6 (variants "
            "are 0.7)");
  EXPECT_EQ(loadError(container([](ArtifactSpec &s) { s.variants[0].segment = 1; })),
            "data_loss: artifact 'test.dlcm': variant 0 names segment 1 of 1");
  EXPECT_EQ(loadError(container([](ArtifactSpec &s) { s.variants[0].cpu = ""; })),
            "data_loss: artifact 'test.dlcm': variant 0 has no target_cpu");
  EXPECT_EQ(loadError(container([](ArtifactSpec &s) { s.variants.push_back(s.variants[0]); })),
            "data_loss: artifact 'test.dlcm': variants 0 and 1 share segment 0");
  // A variant that is itself a container.
  EXPECT_EQ(loadError(container([](ArtifactSpec &s) {
              ArtifactSpec inner;
              inner.versionMinor = 7;
              inner.segments.push_back(s.segments[0]);
              inner.variants.push_back(s.variants[0]);
              s.segments[0].bytes = buildArtifact(inner);
            })),
            "data_loss: artifact 'test.dlcm': variant 0 is itself a multi-target artifact");
  // A variant's own corruption is reported with the variant's name.
  EXPECT_EQ(loadError(container([](ArtifactSpec &s) { s.segments[0].bytes.resize(40); }))
                .substr(0, 44),
            "data_loss: artifact 'test.dlcm [base]': Flat");
}

} // namespace

// The portable CRC-32 (the cross-built runtime's) is zlib's.
TEST(Crc32, PortableMatchesZlib) {
  const std::string check = "123456789";
  EXPECT_EQ(dlc::rt::crc32Portable(reinterpret_cast<const uint8_t *>(check.data()), 9),
            0xCBF43926u);
  std::vector<uint8_t> bytes(1 << 20);
  uint32_t state = 12345;
  for (uint8_t &b : bytes)
    b = uint8_t((state = state * 1103515245u + 12345u) >> 16);
  for (size_t offset : {0, 1, 3, 7})
    for (size_t size : {0, 1, 7, 8, 9, 63, 1000, (1 << 20) - 8})
      EXPECT_EQ(dlc::rt::crc32Portable(bytes.data() + offset, size),
                dlc::rt::crc32(bytes.data() + offset, size))
          << offset << " + " << size;
}
