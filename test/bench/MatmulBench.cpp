//===- MatmulBench.cpp - dlc's matmul next to OpenBLAS and the core's peak ===//
//
// dlc-bench-matmul [--quick] [--batches=N] [--batch-ms=T] MODEL.dlcm ...
//
// Each MODEL is a one-op `dlc.matmul` artifact with inputs a: MxK, b: KxN and
// output c: MxN (f32). For each, on one thread:
//  - dlc: the seconds of `dlc_session_run` alone (inputs set once before),
//  - OpenBLAS: `cblas_sgemm` row-major on the same a and b, one thread,
// timed in interleaved batches (dlc, BLAS, dlc, BLAS, ...) so that a noisy
// neighbour hits both alike; the figure is the median over batches. The
// core's peak is a register-only FMA loop measured in the same run. dlc's
// output is checked against OpenBLAS's: max |c - ref| / max |ref| must stay
// under 1e-4, or the program fails (a fast wrong kernel is no result).
//
// Prints a table, then one machine-readable `RESULT matmul ...` line per
// shape and a `RESULT peak ...` line, which test/bench/run.sh collects.
//===----------------------------------------------------------------------===//
#include "BenchUtil.h"
#include "CpuPeak.h"

#include <cblas.h>

// OpenBLAS's own entry points; declared again in case the cblas.h found is
// another implementation's (the program links libopenblas itself).
extern "C" {
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char *openblas_get_config(void);
char *openblas_get_corename(void);
}

#include <cmath>
#include <cstdint>

using namespace dlcbench;

namespace {

struct Shape {
  int64_t m = 0, k = 0, n = 0;
};

Shape matmulShape(const dlc_model_t *model, const char *path) {
  dlc_tensor_info_t a, b, c;
  if (dlc_model_input_count(model) != 2 || dlc_model_output_count(model) != 1) {
    std::fprintf(stderr, "error: %s: expected inputs a, b and output c\n", path);
    std::exit(2);
  }
  check(dlc_model_input_info(model, 0, &a), "input 0");
  check(dlc_model_input_info(model, 1, &b), "input 1");
  check(dlc_model_output_info(model, 0, &c), "output 0");
  bool ok = a.rank == 2 && b.rank == 2 && c.rank == 2 &&
            a.dtype == DLC_DTYPE_F32 && b.dtype == DLC_DTYPE_F32 &&
            c.dtype == DLC_DTYPE_F32 && a.shape[1] == b.shape[0] &&
            c.shape[0] == a.shape[0] && c.shape[1] == b.shape[1];
  if (!ok) {
    std::fprintf(stderr, "error: %s: not an f32 MxK * KxN -> MxN matmul\n", path);
    std::exit(2);
  }
  return {a.shape[0], a.shape[1], b.shape[1]};
}

// Uniform in [-1, 1), from a fixed seed: the same operands on every run.
void fillRandom(std::vector<float> &v, uint64_t seed) {
  for (float &x : v) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<float>((seed >> 40) * 0x1.0p-24 * 2.0 - 1.0);
  }
}

struct Row {
  std::string shape;
  double dlcGflops, blasGflops, maxRelErr;
};

} // namespace

int main(int argc, char **argv) {
  bool quick = false;
  int batches = 7;
  double batchSeconds = 0.25;
  std::vector<const char *> models;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (const char *v = optionValue(argv[i], "--batches"))
      batches = std::max(1, std::atoi(v));
    else if (const char *v = optionValue(argv[i], "--batch-ms"))
      batchSeconds = std::atof(v) / 1000.0;
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: %s [--quick] [--batches=N] [--batch-ms=T] MODEL.dlcm ...\n", argv[0]);
      return 2;
    } else
      models.push_back(argv[i]);
  }
  if (models.empty()) {
    std::fprintf(stderr, "usage: %s [--quick] [--batches=N] [--batch-ms=T] MODEL.dlcm ...\n", argv[0]);
    return 2;
  }
  if (quick) {
    batches = 1;
    batchSeconds = 0.001;
  }

  openblas_set_num_threads(1);
  std::printf("OpenBLAS: %s, core %s, threads %d\n", openblas_get_config(),
              openblas_get_corename(), openblas_get_num_threads());
  for (const char *var : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"})
    if (std::getenv(var))
      std::printf("warning: %s=%s is set: OpenBLAS may not use its best kernel\n",
                  var, std::getenv(var));

  CpuPeak measured = measureCpuPeak(quick ? 1 : batches, quick ? 0.002 : 0.1);
  struct {
    const char *isa;
    int accumulators;
    double gflops;
  } peak = {measured.isa, measured.accumulators, measured.flopsPerSecond * 1e-9};
  std::printf("peak: %s FMA loop, %d accumulators: %.1f GFLOP/s\n", peak.isa,
              peak.accumulators, peak.gflops);

  std::vector<Row> rows;
  bool allCorrect = true;
  for (const char *path : models) {
    dlc_model_t *model = nullptr;
    check(dlc_model_load_file(path, nullptr, &model), path);
    Shape s = matmulShape(model, path);
    dlc_session_options_t options;
    dlc_session_options_initialize(&options);
    options.thread_count = 1;
    dlc_session_t *session = nullptr;
    check(dlc_session_create(model, &options, &session), "session");

    std::vector<float> a(s.m * s.k), b(s.k * s.n), ref(s.m * s.n), got(s.m * s.n);
    fillRandom(a, 1);
    fillRandom(b, 2);
    check(dlc_session_set_input(session, 0, a.data(), a.size() * 4), "set a");
    check(dlc_session_set_input(session, 1, b.data(), b.size() * 4), "set b");

    auto runDlc = [&] { check(dlc_session_run(session), "run"); };
    auto runBlas = [&] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f,
                  a.data(), s.k, b.data(), s.n, 0.0f, ref.data(), s.n);
    };

    runDlc();
    check(dlc_session_copy_output(session, 0, got.data(), got.size() * 4), "output");
    runBlas();
    double maxDiff = 0, maxRef = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
      maxDiff = std::max(maxDiff, (double)std::fabs(got[i] - ref[i]));
      maxRef = std::max(maxRef, (double)std::fabs(ref[i]));
    }
    double relErr = maxDiff / std::max(maxRef, 1e-30);
    if (!(relErr < 1e-4))
      allCorrect = false;

    long dlcCalls = callsPerBatch(runDlc, batchSeconds);
    long blasCalls = callsPerBatch(runBlas, batchSeconds);
    std::vector<double> dlcTimes, blasTimes;
    for (int i = 0; i < batches; ++i) {
      dlcTimes.push_back(timeBatches(runDlc, dlcCalls, 1)[0]);
      blasTimes.push_back(timeBatches(runBlas, blasCalls, 1)[0]);
    }
    double flop = 2.0 * s.m * s.k * s.n;
    std::string shape = std::to_string(s.m) + "x" + std::to_string(s.k) + "x" +
                        std::to_string(s.n);
    rows.push_back({shape, flop / median(dlcTimes) * 1e-9,
                    flop / median(blasTimes) * 1e-9, relErr});
    dlc_session_release(session);
    dlc_model_release(model);
  }

  std::printf("\nf32 matmul, one thread, MxKxN, median of %d batches\n", batches);
  std::printf("%-16s %12s %12s %8s %10s %10s %12s\n", "shape", "dlc GFLOP/s",
              "BLAS GFLOP/s", "dlc/BLAS", "dlc %peak", "BLAS %peak", "max rel err");
  for (const Row &r : rows)
    std::printf("%-16s %12.2f %12.2f %7.1f%% %9.1f%% %9.1f%% %12.2e%s\n",
                r.shape.c_str(), r.dlcGflops, r.blasGflops,
                100 * r.dlcGflops / r.blasGflops, 100 * r.dlcGflops / peak.gflops,
                100 * r.blasGflops / peak.gflops, r.maxRelErr,
                r.maxRelErr < 1e-4 ? "" : "  WRONG");
  std::printf("\n");
  std::printf("RESULT peak isa=%s gflops=%.2f\n", peak.isa, peak.gflops);
  for (const Row &r : rows)
    std::printf("RESULT matmul shape=%s dlc_gflops=%.3f blas_gflops=%.3f "
                "max_rel_err=%.3e correct=%d\n",
                r.shape.c_str(), r.dlcGflops, r.blasGflops, r.maxRelErr,
                r.maxRelErr < 1e-4);
  if (!allCorrect) {
    std::fprintf(stderr, "error: dlc's matmul output differs from OpenBLAS's\n");
    return 1;
  }
  return 0;
}
