//===- StateTest.cpp - persistent state and run-time dimensions (0.6) -----===//
//
// A persistent buffer starts as its initial value, each run updates it in
// place, and the next run starts from it; the loader refuses a persistent
// buffer that is not safely its own; an artifact with a dimension known only
// at run time loads and is described, and a session on it is refused.

#include "TestUtil.h"

#include <cstring>

using namespace dlc::test;

namespace {

/// The toy model plus an accumulator: acc_next = acc + x, copied into the
/// persistent `acc` at the end of each run (acc starts as the constant's
/// segment, [1..6]); output "acc_next".
ArtifactSpec stateModel() {
  ArtifactSpec s = toy();
  s.versionMinor = 6;
  s.devices[0].arenaSize = 512;
  BufferSpec acc{"acc", fb::DType::F32, {2, 3}, 0, 384};
  acc.persistent = true;
  acc.initialSegment = 1;
  s.buffers.push_back(acc);                                        // 8
  s.buffers.push_back({"acc_next", fb::DType::F32, {2, 3}, 0, 448}); // 9
  s.schedules[0].steps.push_back({fb::StepKind::Call, 0, {8, 0, 9}, 0, 1});
  s.schedules[0].steps.push_back({fb::StepKind::Copy, 0, {9, 8}});
  s.outputs.push_back({"acc_next", fb::DType::F32, {2, 3}, 9});
  s.state = {{"acc", fb::DType::F32, {2, 3}, 8}};
  return s;
}

struct Loaded {
  dlc_model_t *model = nullptr;
  dlc_session_t *session = nullptr;
  ~Loaded() {
    dlc_session_release(session);
    dlc_model_release(model);
  }
};

std::vector<float> readState(dlc_session_t *session) {
  std::vector<float> v(6);
  dlc_status_t s = dlc_session_read_state(session, 0, v.data(), 24);
  EXPECT_EQ(s, nullptr) << dlc_status_message(s);
  dlc_status_free(s);
  return v;
}

std::string sessionError(const ArtifactSpec &spec, int32_t inFlight) {
  dlc_model_t *model = nullptr;
  dlc_status_t s = loadBytes(buildArtifact(spec), &model);
  if (!s) {
    dlc_session_options_t options;
    dlc_session_options_initialize(&options);
    options.max_in_flight = inFlight;
    dlc_session_t *session = nullptr;
    s = dlc_session_create(model, &options, &session);
    dlc_session_release(session);
  }
  std::string text = s ? dlc_status_message(s) : "ok";
  dlc_status_free(s);
  dlc_model_release(model);
  return text;
}

TEST(State, CarriesOverFromRunToRun) {
  Loaded l;
  DLC_ASSERT_OK(loadBytes(buildArtifact(stateModel()), &l.model));
  ASSERT_EQ(dlc_model_state_count(l.model), 1u);
  dlc_tensor_info_t info;
  DLC_ASSERT_OK(dlc_model_state_info(l.model, 0, &info));
  EXPECT_STREQ(info.name, "acc");
  EXPECT_EQ(info.byte_size, 24u);
  size_t index = 9;
  DLC_EXPECT_OK(dlc_model_find_state(l.model, "acc", &index));
  EXPECT_EQ(index, 0u);
  DLC_ASSERT_OK(dlc_session_create(l.model, nullptr, &l.session));
  EXPECT_EQ(readState(l.session), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  float x[6] = {0.5f, 1, 2, -1, 0, 10};
  DLC_ASSERT_OK(dlc_session_set_input(l.session, 0, x, sizeof x));
  for (int run = 1; run <= 3; ++run) {
    DLC_ASSERT_OK(dlc_session_run(l.session));
    std::vector<float> expected(6), out(6);
    for (int i = 0; i < 6; ++i)
      expected[i] = float(i + 1) + run * x[i];
    DLC_ASSERT_OK(dlc_session_copy_output(l.session, 3, out.data(), 24));
    EXPECT_EQ(out, expected) << "run " << run;
    EXPECT_EQ(readState(l.session), expected) << "run " << run;
  }
  // A value written between runs is what the next one starts from.
  float zeros[6] = {};
  DLC_ASSERT_OK(dlc_session_write_state(l.session, 0, zeros, sizeof zeros));
  DLC_ASSERT_OK(dlc_session_run(l.session));
  EXPECT_EQ(readState(l.session), std::vector<float>(x, x + 6));
}

TEST(State, ZerosWithoutInitialValueAndAnotherSessionStartsAfresh) {
  ArtifactSpec spec = stateModel();
  spec.buffers[8].initialSegment = -1;
  Loaded l;
  DLC_ASSERT_OK(loadBytes(buildArtifact(spec), &l.model));
  DLC_ASSERT_OK(dlc_session_create(l.model, nullptr, &l.session));
  EXPECT_EQ(readState(l.session), std::vector<float>(6, 0.0f));
  DLC_ASSERT_OK(dlc_session_run(l.session));
  dlc_session_t *second = nullptr;
  DLC_ASSERT_OK(dlc_session_create(l.model, nullptr, &second));
  EXPECT_EQ(readState(second), std::vector<float>(6, 0.0f));
  dlc_session_release(second);
}

TEST(State, ApiErrors) {
  Loaded l;
  DLC_ASSERT_OK(loadBytes(buildArtifact(stateModel()), &l.model));
  DLC_ASSERT_OK(dlc_session_create(l.model, nullptr, &l.session));
  float v[6];
  auto message = [](dlc_status_t s) {
    std::string text = s ? dlc_status_message(s) : "ok";
    dlc_status_free(s);
    return text;
  };
  EXPECT_EQ(message(dlc_session_read_state(l.session, 1, v, 24)),
            "model 'test.dlcm' has no state 1 (it has 1)");
  EXPECT_EQ(message(dlc_session_write_state(l.session, 0, v, 20)),
            "dlc_session_write_state: state 0 ('acc') has 24 bytes, got 20");
  EXPECT_EQ(message(dlc_session_read_state(l.session, 0, nullptr, 24)),
            "dlc_session_read_state: null destination");
  size_t index;
  EXPECT_EQ(message(dlc_model_find_state(l.model, "w", &index)),
            "model 'test.dlcm' has no state named 'w'");
}

TEST(State, OverlappingRunsAreRefused) {
  EXPECT_EQ(sessionError(stateModel(), 2),
            "session options: max_in_flight 2, but model 'test.dlcm' has persistent state, which "
            "each run updates for the next: its runs cannot overlap (max_in_flight must be 1)");
  EXPECT_EQ(sessionError(toy(), 2), "ok");
}

TEST(State, ScheduleVerifierKnowsStateIsWrittenBeforeTheRun) {
  dlc_model_options_t options;
  dlc_model_options_initialize(&options);
  options.verify_schedule = 1;
  ArtifactSpec spec = stateModel();
  for (StepSpec &step : spec.schedules[0].steps)
    if (step.kind == fb::StepKind::Call)
      step.outputCount = 1;
  std::string bytes = buildArtifact(spec);
  dlc_model_t *model = nullptr;
  DLC_EXPECT_OK(dlc_model_load_memory(bytes.data(), bytes.size(), &options, &model));
  dlc_model_release(model);
}

struct Case {
  const char *what;
  void (*edit)(ArtifactSpec &);
  const char *error;
};

TEST(State, VerificationErrors) {
  const Case cases[] = {
      {"view", [](ArtifactSpec &s) { s.buffers[9].viewOf = -1, s.buffers[8].viewOf = 2,
                                     s.buffers[8].offset = 128; },
       "buffer 8 ('acc') is persistent but a constant or a view"},
      {"initial size", [](ArtifactSpec &s) { s.buffers[8].initialSegment = 0; },
       "buffer 8 ('acc') has initial_segment 0 (expected -1 or a segment of its 24 bytes)"},
      {"not persistent",
       [](ArtifactSpec &s) { s.buffers[9].initialSegment = 1; },
       "buffer 9 ('acc_next') has an initial value but is not persistent"},
      {"shared bytes", [](ArtifactSpec &s) { s.buffers[9].offset = 400; },
       "buffer 8 ('acc') is persistent but buffer 9 ('acc_next') shares its bytes"},
      {"unnamed", [](ArtifactSpec &s) { s.state.clear(); },
       "buffer 8 ('acc') is persistent but no state names it"},
      {"names a plain buffer", [](ArtifactSpec &s) { s.state[0].buffer = 9; },
       "state 0 ('acc') names buffer 9, which is no persistent buffer"},
      {"twice",
       [](ArtifactSpec &s) { s.state.push_back({"acc2", fb::DType::F32, {2, 3}, 8}); },
       "state 1 ('acc2') names the buffer of state 0"},
      {"type", [](ArtifactSpec &s) { s.state[0].shape = {6}; },
       "state 0 ('acc') is declared [6] F32 but its buffer is [2,3] F32"},
      {"an input", [](ArtifactSpec &s) { s.inputs[0].buffer = 8; },
       "input 0 ('x') is a persistent buffer (state is no input)"},
  };
  for (const Case &c : cases) {
    ArtifactSpec s = stateModel();
    c.edit(s);
    EXPECT_EQ(loadError(buildArtifact(s)),
              std::string("data_loss: artifact 'test.dlcm': ") + c.error)
        << c.what;
  }
}

/// The toy model with x (and its Call's view of it) of shape [?,3], at
/// most [2,3].
ArtifactSpec dynamicModel() {
  ArtifactSpec s = toy();
  s.versionMinor = 6;
  s.buffers[0].shape = {-1, 3};
  s.buffers[0].maxShape = {2, 3};
  s.inputs[0].shape = {-1, 3};
  s.inputs[0].maxShape = {2, 3};
  return s;
}

TEST(RunTimeDims, LoadDescribeAndRefuseToRun) {
  Loaded l;
  DLC_ASSERT_OK(loadBytes(buildArtifact(dynamicModel()), &l.model));
  dlc_tensor_info_t info;
  DLC_ASSERT_OK(dlc_model_input_info(l.model, 0, &info));
  EXPECT_EQ(info.shape[0], -1);
  EXPECT_EQ(info.max_shape[0], 2);
  EXPECT_EQ(info.max_shape[1], 3);
  EXPECT_EQ(info.byte_size, 24u);
  EXPECT_EQ(sessionError(dynamicModel(), 1),
            "model 'test.dlcm': buffer 0 ('x') has a dimension known only at run time that is "
            "not the symbolic batch; this runtime runs static shapes and the batch only");
}

TEST(RunTimeDims, VerificationErrors) {
  const Case cases[] = {
      {"no bound", [](ArtifactSpec &s) { s.buffers[0].maxShape.clear(), s.buffers[0].size = 24; },
       "buffer 0 ('x') has an invalid shape [-1,3] (a negative dim, or too many bytes)"},
      {"rank", [](ArtifactSpec &s) { s.buffers[0].maxShape = {6}; },
       "buffer 0 ('x') has max_shape [6] for shape [-1,3] (expected the same rank, each dim -1 "
       "or equal)"},
      {"static dim", [](ArtifactSpec &s) { s.buffers[0].maxShape = {2, 4}; },
       "buffer 0 ('x') has max_shape [2,4] for shape [-1,3] (expected the same rank, each dim "
       "-1 or equal)"},
      {"size", [](ArtifactSpec &s) { s.buffers[0].size = 12; },
       "buffer 0 ('x') has size 12 but its shape [2,3] of F32 needs 24"},
      {"spec", [](ArtifactSpec &s) { s.inputs[0].maxShape = {1, 3}; },
       "input 0 ('x') has max_shape [1,3] but its buffer [2,3]"},
  };
  for (const Case &c : cases) {
    ArtifactSpec s = dynamicModel();
    c.edit(s);
    EXPECT_EQ(loadError(buildArtifact(s)),
              std::string("data_loss: artifact 'test.dlcm': ") + c.error)
        << c.what;
  }
}

TEST(Writer, LowestVersionAndUnchangedBytesWithoutNewFields) {
  EXPECT_EQ(aw::lowestMinorVersion(toy()), 5);
  EXPECT_EQ(aw::lowestMinorVersion(stateModel()), 6);
  EXPECT_EQ(aw::lowestMinorVersion(dynamicModel()), 6);
  // A 0.6 field left at its default writes nothing: the bytes of 0.5.
  ArtifactSpec plain = toy(), defaulted = toy();
  defaulted.buffers[2].initialSegment = -1;
  defaulted.buffers[2].persistent = false;
  EXPECT_EQ(buildArtifact(plain), buildArtifact(defaulted));
}

} // namespace
