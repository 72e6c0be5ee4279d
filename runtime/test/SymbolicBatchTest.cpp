//===- SymbolicBatchTest.cpp - one artifact, any batch up to a bound (0.8) ===//
//
// A Call with a batched buffer runs once per unit of the run's batch with
// those buffers' pointers advanced; copies move the run's units; inputs set
// the batch and must agree; outputs report it; the loader refuses what the
// per-unit calls could not run right.

#include "TestUtil.h"
#include "dlc/runtime.hpp"

#include <cstring>

using namespace dlc::test;

namespace {

constexpr int64_t kBound = 4;

/// The toy model's computation per unit of a batch of at most 4:
///   x: f32 [n,6] (1 row per unit), y: f32 [2n,3] (2 rows per unit),
///   sum = add6(x, y) and prod = mul6(sum, c) per unit (c: 6 constants),
///   out = copy(prod) (n units); total = sum4(idx) once (no batch).
ArtifactSpec batchModel() {
  using fb::DType;
  ArtifactSpec s = toy();
  s.versionMinor = 8;
  s.symbols = {{"batch", kBound}};
  s.devices[0].arenaSize = 704;
  auto batched = [](const char *name, std::vector<int64_t> maxShape, int64_t rows,
                    uint64_t offset) {
    aw::Buffer b;
    b.name = name;
    b.dtype = DType::F32;
    b.shape = maxShape;
    b.shape[0] = -1;
    b.maxShape = maxShape;
    b.rowsPerUnit = rows;
    b.offset = offset;
    return b;
  };
  s.buffers[0] = batched("x", {4, 6}, 1, 0);
  s.buffers[1] = batched("y", {8, 3}, 2, 128);
  s.buffers[2] = batched("sum", {4, 6}, 1, 256);
  s.buffers[3].shape = {6};
  s.buffers[4] = batched("prod", {4, 6}, 1, 384);
  s.buffers[5] = batched("out", {4, 6}, 1, 512);
  s.buffers[6].offset = 640;
  for (aw::Step &step : s.schedules[0].steps)
    step.outputCount = step.kind == fb::StepKind::Call ? 1 : 0;
  s.buffers[7].offset = 672;
  s.inputs = {{"x", DType::F32, {-1, 6}, 0, 0, {4, 6}},
              {"y", DType::F32, {-1, 3}, 1, 0, {8, 3}},
              {"idx", DType::I32, {4}, 6, 10}};
  s.outputs = {{"out", DType::F32, {-1, 6}, 5, 0, {4, 6}},
               {"t/sum:0", DType::F32, {-1, 6}, 2, 0, {4, 6}},
               {"total", DType::I32, {1}, 7}};
  return s;
}

struct Loaded {
  dlc_model_t *model = nullptr;
  dlc_session_t *session = nullptr;
  explicit Loaded(const ArtifactSpec &spec, const dlc_session_options_t *options = nullptr) {
    DLC_EXPECT_OK(loadBytes(buildArtifact(spec), &model));
    if (model)
      DLC_EXPECT_OK(dlc_session_create(model, options, &session));
  }
  ~Loaded() {
    dlc_session_release(session);
    dlc_model_release(model);
  }
};

std::string message(dlc_status_t s) {
  std::string text = s ? dlc_status_message(s) : "ok";
  dlc_status_free(s);
  return text;
}

/// n units of x and y: element i of unit u is 10u + i (x) and 100u + i (y).
std::vector<float> unitsOf(int64_t n, float scale) {
  std::vector<float> v;
  for (int64_t u = 0; u < n; ++u)
    for (int i = 0; i < 6; ++i)
      v.push_back(scale * float(u) + float(i));
  return v;
}

/// (x + y) * c per unit, c = [1..6].
std::vector<float> expectedOut(int64_t n) {
  std::vector<float> x = unitsOf(n, 10), y = unitsOf(n, 100), out;
  for (size_t k = 0; k < x.size(); ++k)
    out.push_back((x[k] + y[k]) * float(k % 6 + 1));
  return out;
}

dlc_status_t setBatch(dlc_session_t *session, int64_t n) {
  std::vector<float> x = unitsOf(n, 10), y = unitsOf(n, 100);
  int32_t idx[4] = {1, 2, 3, 4};
  if (dlc_status_t s = dlc_session_set_input(session, 0, x.data(), x.size() * 4))
    return s;
  if (dlc_status_t s = dlc_session_set_input(session, 1, y.data(), y.size() * 4))
    return s;
  return dlc_session_set_input(session, 2, idx, sizeof idx);
}

TEST(SymbolicBatch, DescribesTheBatch) {
  Loaded l(batchModel());
  ASSERT_EQ(dlc_model_symbol_count(l.model), 1u);
  dlc_symbol_info_t sym;
  DLC_ASSERT_OK(dlc_model_symbol_info(l.model, 0, &sym));
  EXPECT_STREQ(sym.name, "batch");
  EXPECT_EQ(sym.bound, kBound);
  EXPECT_EQ(message(dlc_model_symbol_info(l.model, 1, &sym)),
            "model 'test.dlcm' has no symbol 1 (it has 1)");
  dlc_tensor_info_t info;
  DLC_ASSERT_OK(dlc_model_input_info(l.model, 1, &info));
  EXPECT_EQ(info.shape[0], -1);
  EXPECT_EQ(info.max_shape[0], 8);
  EXPECT_EQ(info.rows_per_unit, 2);
  EXPECT_EQ(info.byte_size, 96u);
  DLC_ASSERT_OK(dlc_model_input_info(l.model, 2, &info));
  EXPECT_EQ(info.rows_per_unit, 0);
  EXPECT_EQ(aw::lowestMinorVersion(batchModel()), 8);
}

TEST(SymbolicBatch, RunsEveryBatchUpToTheBound) {
  Loaded l(batchModel());
  ASSERT_NE(l.session, nullptr);
  // Before any run an output is described at the bound.
  dlc_tensor_info_t info;
  DLC_ASSERT_OK(dlc_session_output_info(l.session, 0, &info));
  EXPECT_EQ(info.shape[0], kBound);
  for (int64_t n : {4, 1, 3, 2, 4, 1}) {
    DLC_ASSERT_OK(setBatch(l.session, n));
    DLC_ASSERT_OK(dlc_session_run(l.session));
    DLC_ASSERT_OK(dlc_session_output_info(l.session, 0, &info));
    EXPECT_EQ(info.shape[0], n);
    EXPECT_EQ(info.shape[1], 6);
    EXPECT_EQ(info.byte_size, size_t(n) * 24);
    std::vector<float> out(size_t(n) * 6);
    DLC_ASSERT_OK(dlc_session_copy_output(l.session, 0, out.data(), out.size() * 4));
    EXPECT_EQ(out, expectedOut(n)) << "batch " << n;
    const void *data;
    size_t bytes;
    DLC_ASSERT_OK(dlc_session_output(l.session, 1, &data, &bytes));
    EXPECT_EQ(bytes, size_t(n) * 24);
    int32_t total = 0;
    DLC_ASSERT_OK(dlc_session_copy_output(l.session, 2, &total, 4));
    EXPECT_EQ(total, 10);
    EXPECT_EQ(message(dlc_session_copy_output(l.session, 0, out.data(), 96 + 24)),
              "dlc_session_copy_output: output 0 ('out') has " + std::to_string(n * 24) +
                  " bytes, got 120");
  }
  // The C++ wrapper sizes outputs by the last run.
  dlc::Model model;
  std::string bytes = buildArtifact(batchModel());
  DLC_ASSERT_OK(dlc::Model::loadMemory(bytes.data(), bytes.size(), model).release());
  dlc::Session wrapped;
  DLC_ASSERT_OK(dlc::Session::create(model, wrapped).release());
  DLC_ASSERT_OK(setBatch(wrapped.get(), 2));
  DLC_ASSERT_OK(wrapped.run().release());
  std::vector<float> out;
  DLC_ASSERT_OK(wrapped.output(0, out).release());
  EXPECT_EQ(out, expectedOut(2));
}

// Format 0.9: a kernel sized at run time runs once per run with the run's
// size (column sums of x's first n rows into an unbatched output); and the
// symbol's dim may follow dims of 1 (out as [1, n, 6]).
TEST(SymbolicBatch, SizedKernelRunsOncePerRunWithTheSize) {
  using fb::DType;
  ArtifactSpec spec = batchModel();
  spec.versionMinor = 9;
  spec.devices[0].arenaSize = 768;
  spec.buffers.push_back({"colsum", DType::F32, {6}, 0, 704});
  aw::Kernel colsum{"colsum", 0, "colsum_sized_f32", {"/colsum"}};
  colsum.sized = true;
  spec.kernels.push_back(colsum);
  aw::Step step{fb::StepKind::Call, uint32_t(spec.kernels.size() - 1), {0, 8}};
  step.outputCount = 1;
  spec.schedules[0].steps.push_back(step);
  spec.outputs.push_back({"colsum", DType::F32, {6}, 8});
  spec.buffers[5].shape = spec.outputs[0].shape = {1, -1, 6};
  spec.buffers[5].maxShape = spec.outputs[0].maxShape = {1, 4, 6};
  Loaded l(spec);
  ASSERT_NE(l.session, nullptr);
  for (int64_t n : {4, 1, 3}) {
    DLC_ASSERT_OK(setBatch(l.session, n));
    DLC_ASSERT_OK(dlc_session_run(l.session));
    std::vector<float> sums(6), expected(6, 0.0f), x = unitsOf(n, 10);
    for (size_t k = 0; k < x.size(); ++k)
      expected[k % 6] += x[k];
    DLC_ASSERT_OK(dlc_session_copy_output(l.session, 3, sums.data(), 24));
    EXPECT_EQ(sums, expected) << "batch " << n;
    dlc_tensor_info_t info;
    DLC_ASSERT_OK(dlc_session_output_info(l.session, 0, &info));
    ASSERT_EQ(info.rank, 3u);
    EXPECT_EQ(info.shape[0], 1);
    EXPECT_EQ(info.shape[1], n);
    std::vector<float> out(size_t(n) * 6);
    DLC_ASSERT_OK(dlc_session_copy_output(l.session, 0, out.data(), out.size() * 4));
    EXPECT_EQ(out, expectedOut(n)) << "batch " << n;
  }
}

TEST(SymbolicBatch, RefusesBatchesOutOfRangeOrInDisagreement) {
  Loaded l(batchModel());
  ASSERT_NE(l.session, nullptr);
  std::vector<float> v(6 * 5);
  const std::string units = "dlc_session_set_input: input 0 ('x') carries the batch 'batch' "
                            "(dim 0 is 1 x the batch): 1 to 4 units of 24 bytes, got ";
  EXPECT_EQ(message(dlc_session_set_input(l.session, 0, v.data(), 0)), units + "0 bytes");
  EXPECT_EQ(message(dlc_session_set_input(l.session, 0, v.data(), 120)), units + "120 bytes");
  EXPECT_EQ(message(dlc_session_set_input(l.session, 0, v.data(), 30)), units + "30 bytes");
  // An input without the batch keeps its one size.
  EXPECT_EQ(message(dlc_session_set_input(l.session, 2, v.data(), 32)),
            "dlc_session_set_input: input 2 ('idx') has 16 bytes, got 32");
  DLC_ASSERT_OK(dlc_session_set_input(l.session, 0, v.data(), 48));
  DLC_ASSERT_OK(dlc_session_set_input(l.session, 1, v.data(), 72));
  EXPECT_EQ(message(dlc_session_run(l.session)),
            "model 'test.dlcm': input 0 ('x') was set with a batch of 2 and input 1 ('y') "
            "with 3; every input carrying the batch takes the same");
  // An input not set keeps its batch: the bound in a new session.
  Loaded fresh(batchModel());
  DLC_ASSERT_OK(dlc_session_set_input(fresh.session, 0, v.data(), 48));
  EXPECT_EQ(message(dlc_session_run(fresh.session)),
            "model 'test.dlcm': input 0 ('x') was set with a batch of 2 and input 1 ('y') "
            "with 4; every input carrying the batch takes the same");
}

TEST(SymbolicBatch, PipelinedRunsEachWithItsBatch) {
  dlc_session_options_t options;
  dlc_session_options_initialize(&options);
  options.max_in_flight = 3;
  Loaded l(batchModel(), &options);
  ASSERT_NE(l.session, nullptr);
  const int64_t batches[] = {3, 1, 4};
  std::vector<std::vector<float>> xs, ys;
  int32_t idx[4] = {1, 2, 3, 4};
  uint64_t tickets[3];
  for (int k = 0; k < 3; ++k) {
    xs.push_back(unitsOf(batches[k], 10));
    ys.push_back(unitsOf(batches[k], 100));
    const void *inputs[] = {xs[k].data(), ys[k].data(), idx};
    size_t bytes[] = {xs[k].size() * 4, ys[k].size() * 4, sizeof idx};
    DLC_ASSERT_OK(dlc_session_submit(l.session, inputs, bytes, 3, &tickets[k]));
  }
  for (int k = 0; k < 3; ++k) {
    size_t n = size_t(batches[k]);
    std::vector<float> out(n * 6), sum(n * 6);
    int32_t total = 0;
    void *outputs[] = {out.data(), sum.data(), &total};
    size_t bytes[] = {n * 24, n * 24, 4};
    if (k == 1) {
      size_t wrong[] = {96, 96, 4};
      EXPECT_EQ(message(dlc_session_wait(l.session, tickets[k], outputs, wrong, 3)),
                "dlc_session_wait: output 0 ('out') has 24 bytes, got 96");
    }
    DLC_ASSERT_OK(dlc_session_wait(l.session, tickets[k], outputs, bytes, 3));
    EXPECT_EQ(out, expectedOut(batches[k])) << "run " << k;
    EXPECT_EQ(total, 10);
  }
  // Inputs that disagree are refused before the run is queued.
  std::vector<float> v(24);
  const void *inputs[] = {v.data(), v.data(), idx};
  size_t bytes[] = {24, 48, 16};
  uint64_t ticket;
  EXPECT_EQ(message(dlc_session_submit(l.session, inputs, bytes, 3, &ticket)),
            "model 'test.dlcm': input 0 ('x') was set with a batch of 1 and input 1 ('y') "
            "with 2; every input carrying the batch takes the same");
}

/// Which body computed each unit of `sum` in a run of batch n with the add
/// kernel's chunk body `symbol` (a multiply: "M") of `units` units, run for
/// tails from `minUnits`: "A" where the unit body (add) did.
std::string bodiesOf(const char *symbol, uint32_t units, uint32_t minUnits, int64_t n) {
  ArtifactSpec spec = batchModel();
  spec.kernels[0].chunkSymbol = symbol;
  spec.kernels[0].chunkUnits = units;
  spec.kernels[0].chunkMinUnits = minUnits;
  Loaded l(spec);
  if (!l.session)
    return "no session";
  dlc_status_t s = setBatch(l.session, n);
  if (!s)
    s = dlc_session_run(l.session);
  std::vector<float> sum(size_t(n) * 6), x = unitsOf(n, 10), y = unitsOf(n, 100);
  if (!s)
    s = dlc_session_copy_output(l.session, 1, sum.data(), sum.size() * 4);
  if (s)
    return message(s);
  std::string bodies;
  for (int64_t u = 0; u < n; ++u) {
    size_t k = size_t(u) * 6 + 5;
    bodies += sum[k] == x[k] * y[k] ? "M" : sum[k] == x[k] + y[k] ? "A" : "?";
  }
  return bodies;
}

TEST(SymbolicBatch, ChunkBodyRunsWhileAWholeChunkIsLeft) {
  // Chunks of 2, the tail unit by unit.
  EXPECT_EQ(bodiesOf("mul12_f32", 2, 0, 1), "A");
  EXPECT_EQ(bodiesOf("mul12_f32", 2, 0, 2), "MM");
  EXPECT_EQ(bodiesOf("mul12_f32", 2, 0, 3), "MMA");
  EXPECT_EQ(bodiesOf("mul12_f32", 2, 0, 4), "MMMM");
  // Chunks of 3, and a tail of 2 or more runs a whole chunk from its first
  // unit when that chunk fits the bound (4).
  EXPECT_EQ(bodiesOf("mul18_f32", 3, 2, 1), "A");
  EXPECT_EQ(bodiesOf("mul18_f32", 3, 2, 2), "MM");
  EXPECT_EQ(bodiesOf("mul18_f32", 3, 2, 3), "MMM");
  EXPECT_EQ(bodiesOf("mul18_f32", 3, 2, 4), "MMMA");
  // A tail of 1 at unit 3: a chunk of 3 from there would pass the bound.
  EXPECT_EQ(bodiesOf("mul18_f32", 3, 1, 1), "M");
  EXPECT_EQ(bodiesOf("mul18_f32", 3, 1, 4), "MMMA");
}

TEST(SymbolicBatch, AcrossSimulatedGpus) {
  // x, y copied to cuda:0 (add), sum copied to cuda:1 (mul), out back: each
  // copy moves the run's units, each kernel runs once per unit.
  dlc_session_options_t options;
  dlc_session_options_initialize(&options);
  options.gpu_binding = DLC_GPU_BINDING_SIM;
  options.check_ordering = 1;
  Loaded l(batchedMultiDevice(multiDeviceModel(kernelsPath())), &options);
  ASSERT_NE(l.session, nullptr);
  for (int64_t n : {4, 1, 3}) {
    DLC_ASSERT_OK(setBatch(l.session, n));
    DLC_ASSERT_OK(dlc_session_run(l.session));
    std::vector<float> out(size_t(n) * 6), sum(size_t(n) * 6);
    DLC_ASSERT_OK(dlc_session_copy_output(l.session, 0, out.data(), out.size() * 4));
    DLC_ASSERT_OK(dlc_session_copy_output(l.session, 1, sum.data(), sum.size() * 4));
    EXPECT_EQ(out, expectedOut(n)) << "batch " << n;
    std::vector<float> x = unitsOf(n, 10), y = unitsOf(n, 100);
    for (size_t k = 0; k < sum.size(); ++k)
      EXPECT_EQ(sum[k], x[k] + y[k]) << "batch " << n;
    dlc_device_stats_t stats;
    DLC_ASSERT_OK(dlc_session_reset_stats(l.session));
    DLC_ASSERT_OK(dlc_session_run(l.session));
    DLC_ASSERT_OK(dlc_session_device_stats(l.session, 2, &stats));
    EXPECT_EQ(stats.bytes_copied, uint64_t(n) * 24); // sum0 -> sum1
  }
}

struct Observed {
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
  std::vector<size_t> bytes;
};

int32_t observe(void *user, const dlc_step_output_t *out) {
  auto &o = *static_cast<Observed *>(user);
  o.shapes.emplace_back(out->tensor.name,
                        std::vector<int64_t>(out->tensor.shape, out->tensor.shape + out->tensor.rank));
  o.bytes.push_back(out->tensor.byte_size);
  return 0;
}

TEST(SymbolicBatch, ObserverSeesTheRunsBatch) {
  Observed seen;
  dlc_session_options_t options;
  dlc_session_options_initialize(&options);
  options.step_observer = observe;
  options.step_observer_user = &seen;
  options.check_numerics = 1;
  Loaded l(batchModel(), &options);
  ASSERT_NE(l.session, nullptr);
  DLC_ASSERT_OK(setBatch(l.session, 2));
  DLC_ASSERT_OK(dlc_session_run(l.session));
  ASSERT_EQ(seen.shapes.size(), 4u);
  EXPECT_EQ(seen.shapes[0].first, "sum");
  EXPECT_EQ(seen.shapes[0].second, (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(seen.bytes[0], 48u);
  EXPECT_EQ(seen.shapes[2].first, "out");
  EXPECT_EQ(seen.bytes[2], 48u);
  EXPECT_EQ(seen.shapes[3].second, (std::vector<int64_t>{1}));
}

TEST(SymbolicBatch, VerificationErrors) {
  struct Case {
    const char *what;
    void (*edit)(ArtifactSpec &);
    std::string error;
  };
  const Case cases[] = {
      {"no symbol", [](ArtifactSpec &s) { s.symbols.clear(); },
       "artifact 'test.dlcm': buffer 0 ('x') has rows_per_unit 1 but the artifact has no "
       "symbolic batch"},
      {"two symbols", [](ArtifactSpec &s) { s.symbols.push_back({"seq", 2}); },
       "artifact 'test.dlcm' has 2 symbols; one (the batch) is all format 0.8 has"},
      {"bound", [](ArtifactSpec &s) { s.symbols[0].bound = 0; },
       "artifact 'test.dlcm': symbol 0 ('batch') has bound 0 (expected a name and a bound >= 1)"},
      {"rows", [](ArtifactSpec &s) { s.buffers[1].rowsPerUnit = 3; },
       "artifact 'test.dlcm': buffer 1 ('y') has rows_per_unit 3 with shape [-1,3] and "
       "max_shape [8,3] (expected one dim -1, every dim before it 1, at most rows_per_unit x "
       "the bound 4)"},
      {"static dim 0", [](ArtifactSpec &s) {
         s.buffers[2].shape = s.outputs[1].shape = {4, 6};
         s.buffers[2].maxShape.clear();
         s.outputs[1].maxShape.clear();
       },
       "artifact 'test.dlcm': buffer 2 ('sum') has rows_per_unit 1 with shape [4,6] and "
       "max_shape [] (expected one dim -1, every dim before it 1, at most rows_per_unit x the "
       "bound 4)"},
      {"symbol after a dim of 2", [](ArtifactSpec &s) {
         s.buffers[4].shape = {2, -1, 3};
         s.buffers[4].maxShape = {2, 4, 3};
       },
       "artifact 'test.dlcm': buffer 4 ('prod') has rows_per_unit 1 with shape [2,-1,3] and "
       "max_shape [2,4,3] (expected one dim -1, every dim before it 1, at most rows_per_unit x "
       "the bound 4)"},
      {"symbol_dims on an input", [](ArtifactSpec &s) { s.buffers[0].symbolDims = {1}; },
       "artifact 'test.dlcm': input 0 ('x') has the symbol on several dims (symbol_dims), which "
       "only sized kernels touch"},
      {"symbol_dims off the bound", [](ArtifactSpec &s) {
         s.buffers[4].shape = {4, 6};
         s.buffers[4].maxShape.clear();
         s.buffers[4].rowsPerUnit = 0;
         s.buffers[4].symbolDims = {1};
       },
       "artifact 'test.dlcm': buffer 4 ('prod') has symbol_dims that are not increasing dims of "
       "the symbol's bound 4 in its static shape [4,6], or is batched, constant or persistent"},
      {"symbol_dims in a per-unit call", [](ArtifactSpec &s) {
         s.buffers[4].shape = {4, 6};
         s.buffers[4].maxShape.clear();
         s.buffers[4].rowsPerUnit = 0;
         s.buffers[4].symbolDims = {0};
       },
       "artifact 'test.dlcm': step 1 of device 0 touches buffer 4 ('prod'), which has the symbol "
       "on several dims, but is no sized kernel's Call nor a copy into a buffer alike"},
      {"sized with a chunk body", [](ArtifactSpec &s) {
         s.kernels[0].sized = true;
         s.kernels[0].chunkSymbol = s.kernels[0].symbol;
         s.kernels[0].chunkUnits = 2;
       },
       "artifact 'test.dlcm': kernel 0 ('add') is sized at run time, which needs a symbol, host "
       "code, no GPU launch and no chunk body"},
      {"constant", [](ArtifactSpec &s) {
         s.buffers[3].shape = {-1};
         s.buffers[3].maxShape = {4};
         s.buffers[3].size = 16;
         s.buffers[3].rowsPerUnit = 1;
         s.segments[1].bytes.resize(16);
       },
       "artifact 'test.dlcm': buffer 3 ('c') carries the batch but is a constant or persistent"},
      {"call writes unbatched", [](ArtifactSpec &s) { s.schedules[0].steps[0].buffers = {0, 1, 7}; },
       "artifact 'test.dlcm': step 0 of device 0 runs once per unit of the batch but writes "
       "buffer 7 ('total'), which does not carry the batch"},
      {"chunk units", [](ArtifactSpec &s) {
         s.kernels[0].chunkSymbol = "mul12_f32";
         s.kernels[0].chunkUnits = 5;
       },
       "artifact 'test.dlcm': kernel 0 ('add') has a chunk body 'mul12_f32' of 5 units, for "
       "tails from 0 (expected a symbol, host code, 2 to the symbolic batch's bound 4 units, "
       "tails from fewer)"},
      {"chunk symbol", [](ArtifactSpec &s) { s.kernels[0].chunkUnits = 2; },
       "artifact 'test.dlcm': kernel 0 ('add') has a chunk body '' of 2 units, for tails from 0 "
       "(expected a symbol, host code, 2 to the symbolic batch's bound 4 units, tails from "
       "fewer)"},
      {"chunk tail", [](ArtifactSpec &s) {
         s.kernels[0].chunkSymbol = "mul12_f32";
         s.kernels[0].chunkUnits = 2;
         s.kernels[0].chunkMinUnits = 2;
       },
       "artifact 'test.dlcm': kernel 0 ('add') has a chunk body 'mul12_f32' of 2 units, for "
       "tails from 2 (expected a symbol, host code, 2 to the symbolic batch's bound 4 units, "
       "tails from fewer)"},
      {"copy", [](ArtifactSpec &s) {
         s.buffers[5].shape = s.outputs[0].shape = {4, 6};
         s.buffers[5].maxShape.clear();
         s.outputs[0].maxShape.clear();
         s.buffers[5].rowsPerUnit = 0;
       },
       "artifact 'test.dlcm': step 2 of device 0 copies between a batched and an unbatched "
       "buffer, or two batched unlike"},
      // The batch off dim 0 (unit_stride): a static shape, never an input
      // or output, copied only to a buffer strided alike.
      {"unit stride shape", [](ArtifactSpec &s) { s.buffers[4].unitStride = 24; },
       "artifact 'test.dlcm': buffer 4 ('prod') has rows_per_unit 1 and unit_stride 24 with "
       "shape [-1,6], max_shape [4,6] and 96 bytes (expected a static shape and bound x "
       "unit_stride bytes at most; the bound is 4)"},
      {"unit stride too far", [](ArtifactSpec &s) {
         s.buffers[4].shape = {4, 6};
         s.buffers[4].maxShape.clear();
         s.buffers[4].unitStride = 48;
       },
       "artifact 'test.dlcm': buffer 4 ('prod') has rows_per_unit 1 and unit_stride 48 with "
       "shape [4,6], max_shape [] and 96 bytes (expected a static shape and bound x "
       "unit_stride bytes at most; the bound is 4)"},
      {"unit stride output", [](ArtifactSpec &s) {
         s.buffers[2].shape = s.outputs[1].shape = {4, 6};
         s.buffers[2].maxShape.clear();
         s.outputs[1].maxShape.clear();
         s.buffers[2].unitStride = 24;
       },
       "artifact 'test.dlcm': output 1 ('t/sum:0') carries the batch off dim 0 (unit_stride "
       "24); inputs and outputs take it on dim 0"},
      {"unit stride copy", [](ArtifactSpec &s) {
         s.buffers[4].shape = {4, 6};
         s.buffers[4].maxShape.clear();
         s.buffers[4].unitStride = 24;
       },
       "artifact 'test.dlcm': step 2 of device 0 copies between a batched and an unbatched "
       "buffer, or two batched unlike"},
  };
  for (const Case &c : cases) {
    ArtifactSpec s = batchModel();
    c.edit(s);
    EXPECT_EQ(loadError(buildArtifact(s)), "data_loss: " + c.error) << c.what;
  }
}

} // namespace
