//===- OverheadBench.cpp - what one dlc_session_run costs beyond its kernel ===//
//
// dlc-bench-overhead [--quick] [--batches=N] [--batch-ms=T] [--label=KIND] MODEL.dlcm
//
// MODEL is a one-op artifact on a tiny tensor (test/bench/models/relu_4.mlir),
// so its kernel costs nanoseconds and what is timed is the runtime: the step
// loop, the buffer table, the call. Two figures, medians over batches, in µs
// per call:
//  - run: `dlc_session_run` alone;
//  - round trip: `dlc_session_set_input` of every input + `dlc_session_run` +
//    `dlc_session_output` of every output (and a read of its first byte).
// Prints them and a `RESULT overhead ...` line for test/bench/run.sh (`RESULT KIND`
// with --label=KIND: run.sh also times a 1,000-step chain, `chain_1000.mlir`).
//===----------------------------------------------------------------------===//
#include "BenchUtil.h"

using namespace dlcbench;

int main(int argc, char **argv) {
  bool quick = false;
  int batches = 15;
  double batchSeconds = 0.05;
  const char *path = nullptr;
  const char *label = "overhead";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (const char *v = optionValue(argv[i], "--batches"))
      batches = std::max(1, std::atoi(v));
    else if (const char *v = optionValue(argv[i], "--batch-ms"))
      batchSeconds = std::atof(v) / 1000.0;
    else if (const char *v = optionValue(argv[i], "--label"))
      label = v;
    else if (argv[i][0] != '-' && !path)
      path = argv[i];
    else {
      std::fprintf(stderr, "usage: %s [--quick] [--batches=N] [--batch-ms=T] [--label=KIND] MODEL.dlcm\n", argv[0]);
      return 2;
    }
  }
  if (!path) {
    std::fprintf(stderr, "usage: %s [--quick] [--batches=N] [--batch-ms=T] [--label=KIND] MODEL.dlcm\n", argv[0]);
    return 2;
  }
  if (quick) {
    batches = 1;
    batchSeconds = 0.001;
  }

  dlc_model_t *model = nullptr;
  check(dlc_model_load_file(path, nullptr, &model), path);
  dlc_session_options_t options;
  dlc_session_options_initialize(&options);
  options.thread_count = 1;
  dlc_session_t *session = nullptr;
  check(dlc_session_create(model, &options, &session), "session");

  size_t inputs = dlc_model_input_count(model);
  size_t outputs = dlc_model_output_count(model);
  std::vector<std::vector<unsigned char>> data(inputs);
  for (size_t i = 0; i < inputs; ++i) {
    dlc_tensor_info_t info;
    check(dlc_model_input_info(model, i, &info), "input info");
    data[i].assign(info.byte_size, 0);
  }

  auto run = [&] { check(dlc_session_run(session), "run"); };
  volatile unsigned char sink = 0;
  auto roundTrip = [&] {
    for (size_t i = 0; i < inputs; ++i)
      check(dlc_session_set_input(session, i, data[i].data(), data[i].size()), "set input");
    check(dlc_session_run(session), "run");
    for (size_t i = 0; i < outputs; ++i) {
      const void *out;
      size_t bytes;
      check(dlc_session_output(session, i, &out, &bytes), "output");
      if (bytes)
        sink = sink + *static_cast<const unsigned char *>(out);
    }
  };

  roundTrip();
  long runCalls = callsPerBatch(run, batchSeconds);
  long tripCalls = callsPerBatch(roundTrip, batchSeconds);
  std::vector<double> runTimes, tripTimes;
  for (int b = 0; b < batches; ++b) {
    runTimes.push_back(timeBatches(run, runCalls, 1)[0]);
    tripTimes.push_back(timeBatches(roundTrip, tripCalls, 1)[0]);
  }
  double runUs = median(runTimes) * 1e6, tripUs = median(tripTimes) * 1e6;
  std::printf("runtime overhead of '%s', median of %d batches of %ld / %ld calls\n",
              path, batches, runCalls, tripCalls);
  std::printf("  dlc_session_run:               %8.3f us per call (%.1f ns)\n", runUs, runUs * 1e3);
  std::printf("  set_input + run + output:      %8.3f us per call (%.1f ns)\n", tripUs, tripUs * 1e3);
  std::printf("RESULT %s run_us=%.4f roundtrip_us=%.4f\n", label, runUs, tripUs);
  dlc_session_release(session);
  dlc_model_release(model);
  return 0;
}
