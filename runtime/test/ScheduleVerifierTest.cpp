//===- ScheduleVerifierTest.cpp - each violation the verifier claims ------===//
//
// The multi-device toy model (ArtifactBuilder's multiDeviceModel) is proved
// right; each test then breaks it in one way the verifier says it catches
// (runtime/src/ScheduleVerifier.h) and checks the message names the steps and
// the buffer. Buffers: 0 x, 1 y, 2 idx, 3 total, 4 out (cpu); 5 x0, 6 y0,
// 7 sum0 (cuda:0); 8 sum1, 9 prod1, 10 c (cuda:1, c a constant).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <gtest/gtest.h>

using namespace dlc::test;

namespace {

using K = fb::StepKind;

ArtifactSpec multi() {
  ArtifactSpec s = multiDeviceModel(kernelsPath());
  s.versionMinor = 5;
  return s;
}

/// The verdict of loading with verify_schedule (code not loaded).
std::string verdict(const ArtifactSpec &spec) {
  dlc_model_options_t options;
  dlc_model_options_initialize(&options);
  options.name = "test.dlcm";
  options.load_code = 0;
  options.verify_schedule = 1;
  std::string bytes = buildArtifact(spec);
  dlc_model_t *model = nullptr;
  dlc_status_t s = dlc_model_load_memory(bytes.data(), bytes.size(), &options, &model);
  dlc_model_release(model);
  std::string text = s ? std::string(dlc_status_code_name(dlc_status_code(s))) +
                             ": " + dlc_status_message(s)
                       : "ok";
  dlc_status_free(s);
  return text;
}

const std::string kAt = "data_loss: artifact 'test.dlcm': schedule: ";

TEST(ScheduleVerifier, ProvesTheToyModels) {
  EXPECT_EQ(verdict(multi()), "ok");
  ArtifactSpec one = toy();
  one.versionMinor = 5;
  for (StepSpec &step : one.schedules[0].steps)
    if (step.kind == K::Call)
      step.outputCount = 1;
  EXPECT_EQ(verdict(one), "ok");
}

TEST(ScheduleVerifier, OffByDefault) {
  ArtifactSpec s = multi();
  s.schedules[1].steps.erase(s.schedules[1].steps.begin()); // cuda:0's wait 0
  EXPECT_EQ(loadError(buildArtifact(s), /*loadCode=*/0), "ok");
}

TEST(ScheduleVerifier, MissingWaitBeforeAKernel) {
  ArtifactSpec s = multi();
  s.schedules[1].steps.erase(s.schedules[1].steps.begin());
  // cuda:0's kernel reads x0, which the cpu's copy writes; the verdict does
  // not depend on which stream the symbolic run took first.
  EXPECT_EQ(verdict(s),
            kAt + "step 0 (call 'add': /add/Add) of cuda:0 reads buffer 5 ('x0', "
                  "cuda:0) before any step writes it in the run (a missing WaitEvent, "
                  "a step out of order, or bytes left from an earlier run)");
}

TEST(ScheduleVerifier, MissingWaitBeforeACopy) {
  ArtifactSpec s = multi();
  s.schedules[2].steps.erase(s.schedules[2].steps.begin()); // cuda:1's wait 1
  s.eventCount = 3;
  EXPECT_EQ(verdict(s),
            kAt + "step 0 (copy) of cuda:1 reads buffer 7 ('sum0', cuda:0) before any "
                  "step writes it in the run (a missing WaitEvent, a step out of "
                  "order, or bytes left from an earlier run)");
}

TEST(ScheduleVerifier, ReadOfNeverWrittenBytes) {
  ArtifactSpec s = multi();
  // The cpu's last copy reads a buffer of its own that no step writes.
  s.devices[0].arenaSize = 384;
  s.buffers.push_back({"stale", fb::DType::F32, {2, 3}, 0, 320});
  s.schedules[0].steps.back().buffers = {11, 4};
  EXPECT_EQ(verdict(s),
            kAt + "step 5 (copy) of cpu reads buffer 11 ('stale', cpu) before any "
                  "step writes it in the run (a missing WaitEvent, a step out of "
                  "order, or bytes left from an earlier run)");
}

TEST(ScheduleVerifier, RangeReusedWhileStillRead) {
  ArtifactSpec s = multi();
  // total (cpu, written by the reduction) moves onto x's bytes, which the
  // cpu's copy to cuda:0 has read: fine. Moved onto out's instead, the
  // last copy overwrites it before the host reads the output.
  s.buffers[3].offset = 256;
  s.buffers[3].size = 4;
  EXPECT_EQ(verdict(s),
            kAt + "output 2 ('total', buffer 3 ('total', cpu)) is overwritten by "
                  "step 5 (copy) of cpu with buffer 4 ('out', cpu) before the run ends");
  // y0 reuses x0's bytes: the kernel reading x0 then reads y0's data.
  s = multi();
  s.buffers[6].offset = 0;
  EXPECT_EQ(verdict(s),
            kAt + "step 1 (call 'add': /add/Add) of cuda:0 reads buffer 5 ('x0', cuda:0), whose "
                  "bytes step 1 (copy) of cpu overwrote with buffer 6 ('y0', cuda:0) "
                  "(a range reused while still in use)");
}

TEST(ScheduleVerifier, WriteWhileAnotherDeviceMayRead) {
  ArtifactSpec s = multi();
  // cuda:0 recomputes sum0 after recording: cuda:1's copy may still read it.
  s.schedules[1].steps.push_back({K::Call, 0, {5, 6, 7}, 0, 1});
  EXPECT_EQ(verdict(s),
            kAt + "step 1 (copy) of cuda:1 reads buffer 7 ('sum0', cuda:0) but step 3 "
                  "(call 'add': /add/Add) of cuda:0 writes buffer 7 ('sum0', cuda:0) "
                  "there and no event orders the read after the write (a missing "
                  "WaitEvent)");
}

TEST(ScheduleVerifier, TwoUnorderedWrites) {
  ArtifactSpec s = multi();
  // cuda:0 also copies x into x0 before its wait: unordered with the cpu's.
  s.schedules[1].steps.insert(s.schedules[1].steps.begin(), {K::Copy, 0, {0, 5}});
  std::string v = verdict(s);
  EXPECT_NE(v.find("writes buffer 5 ('x0', cuda:0) while step"), std::string::npos) << v;
  EXPECT_NE(v.find("no event orders the two writes"), std::string::npos) << v;
}

TEST(ScheduleVerifier, OutputNeverWritten) {
  ArtifactSpec s = multi();
  s.schedules[0].steps.pop_back(); // the copy into out
  EXPECT_EQ(verdict(s), kAt + "output 0 ('out', buffer 4 ('out', cpu)) is never "
                              "written in the run");
}

TEST(ScheduleVerifier, ConstantsAreNeverWritten) {
  // Refused by the structural checks already (a kernel's output or a copy's
  // destination), before the verifier runs.
  ArtifactSpec s = multi();
  s.schedules[2].steps.push_back({K::Copy, 0, {9, 10}});
  EXPECT_NE(verdict(s).find("copies into constant buffer 10"), std::string::npos);
}

TEST(ScheduleVerifier, ViewsAreTold) {
  // sum1 and prod1 in the same range: prod1 = mul6(sum1, c) writes over its
  // own input. Without view_of (0.4) buffers of one range count as views, so
  // only the stated form is refused.
  ArtifactSpec s = multi();
  s.buffers[9].offset = 0;
  s.versionMinor = 4;
  EXPECT_EQ(verdict(s), "ok");
  s.versionMinor = 5;
  // The kernel reads sum1 before writing prod1: that is legal; the copy back
  // to the cpu then reads prod1, fine; but a read of sum1 after it is not.
  s.schedules[2].steps.push_back({K::Copy, 0, {8, 4}});
  EXPECT_EQ(verdict(s),
            kAt + "step 4 (copy) of cuda:1 reads buffer 8 ('sum1', cuda:1), whose "
                  "bytes step 2 (call 'mul': /mul/Mul) of cuda:1 overwrote with buffer 9 "
                  "('prod1', cuda:1) (a range reused while still in use)");
  // Stated as a view, the same read is of the same bytes.
  s = multi();
  s.buffers.push_back({"sum0/view", fb::DType::F32, {6}, 1, 128});
  s.buffers.back().viewOf = 7;
  s.schedules[2].steps[1].buffers = {11, 8};
  EXPECT_EQ(verdict(s), "ok");
}

TEST(ScheduleVerifier, ViewOfIsChecked) {
  ArtifactSpec s = multi();
  s.buffers.push_back({"bad", fb::DType::F32, {6}, 1, 64});
  s.buffers.back().viewOf = 7;
  EXPECT_EQ(verdict(s), "data_loss: artifact 'test.dlcm': buffer 11 ('bad') is a view "
                        "of buffer 7 but does not have its bytes (device, offset, size "
                        "or constant differ)");
  s.buffers.back().viewOf = 11;
  EXPECT_EQ(verdict(s), "data_loss: artifact 'test.dlcm': buffer 11 ('bad') is a view "
                        "of buffer 11 (expected -1 or an earlier buffer)");
}

TEST(ScheduleVerifier, UnstatedOutputsCannotBeProved) {
  ArtifactSpec s = multi();
  s.schedules[1].steps[1].outputCount = 0;
  EXPECT_EQ(verdict(s), kAt + "step 1 (call 'add': /add/Add) of cuda:0 does not state which "
                              "buffers it writes (Step.output_count, format 0.2): "
                              "the schedule cannot be verified");
}

} // namespace
