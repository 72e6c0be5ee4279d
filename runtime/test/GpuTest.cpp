//===- GpuTest.cpp - the CUDA device on a real GPU (skipped without one) --===//
//
// Runs the toy model's GPU kernels as hand-written PTX (add_kernel and
// mul_kernel, 6 threads; .rn arithmetic, so bit-identical to the CPU's) on
// the machine's GPUs: JIT-compiled by the driver, launched with the
// contract's ABI, with copies, peer copies and events between the GPUs.
// Without a usable driver (this development machine) every test is skipped;
// tools/gpu-check.sh runs them on a GPU machine. DLC_CUDA_DRIVER pointing
// at the tests' fake driver also skips them (it cannot run PTX).
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtil.h"

#include <cstdlib>
#include <string>

using namespace dlc::test;

namespace {

/// A kernel c[i] = a[i] OP b[i] for i < 6, hand-written PTX (the driver JITs it).
std::string elementwisePtx(const char *entry, const char *instruction) {
  return std::string(".visible .entry ") + entry + R"((.param .u64 pa, .param .u64 pb, .param .u64 pc)
{
  .reg .pred p;
  .reg .b32 r<2>;
  .reg .f32 f<4>;
  .reg .b64 rd<8>;
  ld.param.u64 rd1, [pa];
  ld.param.u64 rd2, [pb];
  ld.param.u64 rd3, [pc];
  mov.u32 r1, %tid.x;
  setp.ge.u32 p, r1, 6;
  @p bra DONE;
  cvta.to.global.u64 rd1, rd1;
  cvta.to.global.u64 rd2, rd2;
  cvta.to.global.u64 rd3, rd3;
  mul.wide.u32 rd4, r1, 4;
  add.s64 rd5, rd1, rd4;
  add.s64 rd6, rd2, rd4;
  add.s64 rd7, rd3, rd4;
  ld.global.f32 f1, [rd5];
  ld.global.f32 f2, [rd6];
  )" + instruction + R"( f3, f1, f2;
  st.global.f32 [rd7], f3;
DONE:
  ret;
}
)";
}

const std::string kPtx = ".version 7.0\n.target sm_75\n.address_size 64\n" +
                         elementwisePtx("add_kernel", "add.rn.f32") +
                         elementwisePtx("mul_kernel", "mul.rn.f32");

/// The machine's GPU count, or 0 (and the reason) without a real driver.
int gpus(std::string &why) {
  const char *forced = std::getenv("DLC_CUDA_DRIVER");
  if (forced && std::string(forced).find("fake") != std::string::npos) {
    why = "DLC_CUDA_DRIVER is the fake driver";
    return 0;
  }
  int32_t n = 0;
  dlc_status_t s = dlc_cuda_device_count(&n);
  why = s ? dlc_status_message(s) : "the driver sees no GPU";
  dlc_status_free(s);
  return n;
}

#define REQUIRE_GPUS(n)                                                        \
  do {                                                                         \
    std::string why_;                                                          \
    int have_ = gpus(why_);                                                    \
    if (have_ < (n))                                                           \
      GTEST_SKIP() << "needs " << (n) << " GPU(s), has " << have_ << ": "      \
                   << why_;                                                    \
  } while (false)

/// multiDeviceModel with the PTX above as its only GPU code (no CUBIN: the
/// driver JIT-compiles it for whatever GPU this is).
ArtifactSpec ptxMulti() {
  ArtifactSpec s = multiDeviceModel(kernelsPath());
  s.versionMinor = 4;
  uint32_t ptx = uint32_t(s.segments.size());
  s.segments.push_back({kPtx});
  s.cudaModules = {{-1, ptx, "compute_75", {}}};
  s.kernels[0].cuda = CudaLaunchSpec{0, "add_kernel", {1}, {32}};
  s.kernels[1].cuda = CudaLaunchSpec{0, "mul_kernel", {1}, {32}};
  return s;
}

void runsLikeTheCpu(std::vector<int32_t> *map, int inFlight = 1) {
  dlc::Model model = load(ptxMulti());
  dlc::Session session;
  dlc_session_options_t o = options(map);
  o.max_in_flight = inFlight;
  dlc::Status created = dlc::Session::create(model, session, &o);
  ASSERT_TRUE(created.ok()) << created.toString();
  for (int run = 0; run < 4; ++run) {
    Outputs got;
    ASSERT_EQ(runOnce(session, run, got), "");
    EXPECT_TRUE(got == reference(run)) << "run " << run;
  }
}

TEST(Gpu, TwoLogicalGpusOnGpu0MatchTheCpu) {
  REQUIRE_GPUS(1);
  std::vector<int32_t> map = {0, 0};
  runsLikeTheCpu(&map);
}

TEST(Gpu, TwoGpusMatchTheCpu) {
  REQUIRE_GPUS(2);
  runsLikeTheCpu(nullptr);
}

TEST(Gpu, ProfiledAndPipelined) {
  REQUIRE_GPUS(1);
  dlc::Model model = load(ptxMulti());
  std::vector<int32_t> map = {0, 0};
  dlc::Session session;
  dlc_session_options_t o = options(&map, 0);
  o.profile = 1;
  o.max_in_flight = 2;
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  for (int run = 0; run < 3; ++run) {
    Outputs got;
    ASSERT_EQ(runOnce(session, run, got), "");
    EXPECT_TRUE(got == reference(run));
  }
  dlc_device_stats_t st;
  ASSERT_EQ(dlc_session_device_stats(session.get(), 1, &st), nullptr);
  EXPECT_STREQ(st.binding, "cuda");
  EXPECT_GT(st.busy_ns, 0u);
}

TEST(Gpu, BadPtxCarriesTheJitLog) {
  REQUIRE_GPUS(1);
  ArtifactSpec s = ptxMulti();
  s.segments.back().bytes = std::string(kPtx) + "\nthis is not ptx;\n";
  dlc::Model model = load(s);
  std::vector<int32_t> map = {0, 0};
  dlc::Session session;
  dlc_session_options_t o = options(&map);
  std::string error = dlc::Session::create(model, session, &o).toString();
  EXPECT_NE(error.find("CUDA module 0: loading the PTX (compute_75, no CUBIN "
                       "for sm_"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("; JIT log:\n"), std::string::npos) << error;
}

} // namespace
