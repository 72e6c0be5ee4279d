//===- CudaTest.cpp - the real-GPU path, on the fake driver ---------------===//
//
// This binary loads libdlc_fake_cuda.so as the CUDA driver (FakeCuda.cpp):
// every test here runs the runtime's CUDA device code (contexts, streams,
// arenas, module loading, launches, copies, events) without a GPU. 2 fake
// GPUs of compute capability 9.0. The driver is loaded once per process, so
// the no-driver paths are tested in dlc-runtime-tests instead.
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtil.h"
#include "RuntimeTools.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace dlc::test;

namespace {

/// The fake driver: where the build put it, or $DLC_TEST_FAKE_CUDA (for
/// carried test binaries, tools/gpu-check.sh).
const std::string kFakeCuda = [] {
  const char *env = std::getenv("DLC_TEST_FAKE_CUDA");
  return std::string(env && *env ? env : DLC_FAKE_CUDA);
}();

// Before any runtime call: the driver is chosen at its first use.
const bool kFakeDriver = [] {
  ::setenv("DLC_CUDA_DRIVER", kFakeCuda.c_str(), 1);
  ::setenv("DLC_FAKE_CUDA_DEVICES", "2", 1);
  ::setenv("DLC_FAKE_CUDA_CC", "9.0", 1);
  return true;
}();

/// Loads the driver (the runtime does on first use) and reads a counter.
long stat(const char *what) {
  int32_t n;
  dlc_status_free(dlc_cuda_device_count(&n));
  void *lib = ::dlopen(kFakeCuda.c_str(), RTLD_NOW | RTLD_NOLOAD);
  auto fn = reinterpret_cast<long (*)(const char *)>(
      lib ? ::dlsym(lib, "dlc_fake_cuda_stat") : nullptr);
  long v = fn ? fn(what) : -1;
  if (lib)
    ::dlclose(lib);
  return v;
}

void control(const char *what, int value) {
  int32_t n;
  dlc_status_free(dlc_cuda_device_count(&n));
  void *lib = ::dlopen(kFakeCuda.c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr);
  reinterpret_cast<void (*)(const char *, int)>(
      ::dlsym(lib, "dlc_fake_cuda_control"))(what, value);
  ::dlclose(lib);
}

std::string fakeModule(const std::string &image) {
  return "dlc-fake-cuda-module\nimage " + image + "\nlibrary " +
         kernelsPath() +
         "\nkernel add_kernel add6_f32 3\nkernel mul_kernel mul6_f32 3\n";
}

/// multiDeviceModel (cpu + cuda:0 + cuda:1) with 0.4 CUDA code for its GPU
/// kernels: a PTX and a CUBIN for sm_90 (fake modules, told apart by name).
ArtifactSpec cudaMulti() {
  ArtifactSpec s = multiDeviceModel(kernelsPath());
  s.versionMinor = 4;
  uint32_t ptx = uint32_t(s.segments.size());
  s.segments.push_back({fakeModule("ptx")});
  s.segments.push_back({fakeModule("cubin-sm_90")});
  s.cudaModules = {{-1, ptx, "compute_80", {{"sm_90", ptx + 1}}}};
  s.kernels[0].cuda = CudaLaunchSpec{0, "add_kernel", {1}, {6}};
  s.kernels[1].cuda = CudaLaunchSpec{0, "mul_kernel", {1}, {6}};
  return s;
}

TEST(Cuda, FakeDriverIsLoaded) {
  ASSERT_TRUE(kFakeDriver);
  int32_t n = -1;
  DLC_ASSERT_OK(dlc_cuda_device_count(&n));
  EXPECT_EQ(n, 2);
}

TEST(Cuda, TwoGpusMatchTheCpuAndRerunBitIdentically) {
  dlc::Model model = load(cudaMulti());
  long launches = stat("launches"), peer = stat("peer"),
       cubin = stat("loaded:cubin-sm_90"), waits = stat("stream_waits"),
       ptx = stat("loaded:ptx");
  {
    dlc::Session session;
    dlc_session_options_t o = options();
    ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
    // Each GPU loaded the CUBIN of its compute capability, not the PTX.
    EXPECT_EQ(stat("loaded:cubin-sm_90") - cubin, 2);
    EXPECT_EQ(stat("loaded:ptx") - ptx, 0);
    for (int run = 0; run < 3; ++run) {
      Outputs got;
      ASSERT_EQ(runOnce(session, run, got), "");
      EXPECT_TRUE(got == reference(run)) << "run " << run;
      EXPECT_EQ(got.out[1], (0.25f + float(run) - 2.5f) * 2.0f);
    }
  }
  // Per run: add on cuda:0, mul on cuda:1; sum0 -> sum1 is a peer copy on
  // cuda:1's stream after it waited (on the device) for cuda:0's event.
  EXPECT_EQ(stat("launches") - launches, 6);
  EXPECT_EQ(stat("peer") - peer, 3);
  EXPECT_EQ(stat("stream_waits") - waits, 3);
  EXPECT_GE(stat("peer_enabled"), 2);
  // Everything was given back.
  for (const char *live : {"live_allocations", "live_pinned", "live_streams",
                           "live_events", "live_modules", "primary_refs"})
    EXPECT_EQ(stat(live), 0) << live;
}

TEST(Cuda, SymbolicBatchLaunchesOncePerUnit) {
  // Format 0.8 on two GPUs: copies move the run's units, and each GPU kernel
  // (compiled for one unit) is launched once per unit with its batched
  // device pointers advanced.
  dlc::Model model = load(batchedMultiDevice(cudaMulti()));
  dlc::Session session;
  dlc_session_options_t o = options();
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  for (int64_t n : {3, 1, 4}) {
    std::vector<float> x, y;
    for (int64_t k = 0; k < n * 6; ++k) {
      x.push_back(float(k));
      y.push_back(0.5f * float(k) - 3);
    }
    std::vector<int32_t> idx{1, 2, 3, 4};
    ASSERT_TRUE(session.setInput(0, x).ok());
    ASSERT_TRUE(session.setInput(1, y).ok());
    ASSERT_TRUE(session.setInput(2, idx).ok());
    long launches = stat("launches");
    ASSERT_TRUE(session.run().ok());
    EXPECT_EQ(stat("launches") - launches, 2 * n);
    std::vector<float> out, sum;
    ASSERT_TRUE(session.output(0, out).ok());
    ASSERT_TRUE(session.output(1, sum).ok());
    ASSERT_EQ(out.size(), size_t(n) * 6);
    for (size_t k = 0; k < out.size(); ++k) {
      EXPECT_EQ(sum[k], x[k] + y[k]) << "batch " << n << " element " << k;
      EXPECT_EQ(out[k], (x[k] + y[k]) * float(k % 6 + 1)) << "batch " << n << " element " << k;
    }
  }
}

TEST(Cuda, TwoLogicalGpusOnOnePhysical) {
  dlc::Model model = load(cudaMulti());
  std::vector<int32_t> map = {1, 1};
  long dtod = stat("dtod"), peer = stat("peer");
  dlc::Session session;
  dlc_session_options_t o = options(&map);
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  for (int run = 0; run < 2; ++run) {
    Outputs got;
    ASSERT_EQ(runOnce(session, run, got), "");
    EXPECT_TRUE(got == reference(run));
  }
  EXPECT_EQ(stat("dtod") - dtod, 2); // Same GPU: no peer copy.
  EXPECT_EQ(stat("peer") - peer, 0);
  dlc_device_stats_t st;
  DLC_ASSERT_OK(dlc_session_device_stats(session.get(), 1, &st));
  EXPECT_STREQ(st.binding, "cuda");
}

TEST(Cuda, PipelinedRunsComeBackInOrder) {
  dlc::Model model = load(cudaMulti());
  dlc::Session session;
  dlc_session_options_t o = options(nullptr, 0);
  o.max_in_flight = 3;
  o.profile = 1;
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  std::vector<std::vector<float>> xs(6, std::vector<float>(6));
  std::vector<float> y = {10, -2.5f, 3, 1e-3f, 7, 1e6f};
  std::vector<std::vector<int32_t>> idx(6);
  std::vector<uint64_t> tickets;
  auto wait = [&](int run) {
    Outputs got;
    got.out.resize(6);
    got.sum.resize(6);
    got.total.resize(1);
    void *outs[] = {got.out.data(), got.sum.data(), got.total.data()};
    size_t bytes[] = {24, 24, 4};
    DLC_ASSERT_OK(dlc_session_wait(session.get(), tickets[size_t(run)], outs,
                                   bytes, 3));
    EXPECT_TRUE(got == reference(run)) << "run " << run;
  };
  for (int run = 0; run < 6; ++run) {
    for (int i = 0; i < 6; ++i)
      xs[size_t(run)][size_t(i)] = 0.25f * float(i) + float(run);
    idx[size_t(run)] = {1, 2, 3, run};
    const void *in[] = {xs[size_t(run)].data(), y.data(), idx[size_t(run)].data()};
    size_t bytes[] = {24, 24, 16};
    if (run >= 3)
      wait(run - 3);
    uint64_t t;
    DLC_ASSERT_OK(dlc_session_submit(session.get(), in, bytes, 3, &t));
    tickets.push_back(t);
  }
  for (int run = 3; run < 6; ++run)
    wait(run);
  dlc_device_stats_t st;
  DLC_ASSERT_OK(dlc_session_device_stats(session.get(), 2, &st));
  EXPECT_EQ(st.runs, 6u);
  EXPECT_GT(st.busy_ns, 0u);
  EXPECT_EQ(st.bytes_copied, 6u * 24);
}

TEST(Cuda, GpuToGpuThroughHostMemory) {
  // sum0 goes cuda:0 -> cpu on cuda:0's stream (copied out by a host
  // function), then cpu -> cuda:1 on cuda:1's stream after its event wait:
  // the host bytes exist only once cuda:0's stream got there.
  using K = fb::StepKind;
  ArtifactSpec s = cudaMulti();
  s.devices[0].arenaSize = 384;
  s.buffers.push_back({"sumh", fb::DType::F32, {2, 3}, 0, 320}); // 11
  s.schedules[1].steps = {{K::WaitEvent, 0, {}, 0},
                          {K::Call, 0, {5, 6, 7}, 0, 1},
                          {K::Copy, 0, {7, 11}},
                          {K::RecordEvent, 0, {}, 1}};
  s.schedules[2].steps[1] = {K::Copy, 0, {11, 8}};
  dlc::Model model = load(s);
  long hostFns = stat("host_functions");
  dlc::Session session;
  dlc_session_options_t o = options();
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  for (int run = 0; run < 5; ++run) {
    Outputs got;
    ASSERT_EQ(runOnce(session, run, got), "");
    EXPECT_TRUE(got == reference(run)) << "run " << run;
  }
  // Per run: x, y in (cpu stream: none), sum0 out and sumh in (2), prod out.
  EXPECT_EQ(stat("host_functions") - hostFns, 5 * 2);
}

/// A model on one GPU alone: inputs and output in GPU memory.
ArtifactSpec gpuOnly() {
  ArtifactSpec s = cudaMulti();
  s.devices = {{fb::DeviceKind::Cpu, 0, 0}, {fb::DeviceKind::Cuda, 0, 192}};
  s.buffers = {{"x", fb::DType::F32, {2, 3}, 1, 0},
               {"y", fb::DType::F32, {2, 3}, 1, 64},
               {"sum", fb::DType::F32, {2, 3}, 1, 128}};
  s.schedules = {{1, {{fb::StepKind::Call, 0, {0, 1, 2}, 0, 1}}}};
  s.eventCount = 0;
  s.inputs = {{"x", fb::DType::F32, {2, 3}, 0}, {"y", fb::DType::F32, {2, 3}, 1}};
  s.outputs = {{"sum", fb::DType::F32, {2, 3}, 2}};
  s.placement = {};
  return s;
}

TEST(Cuda, InputsAndOutputsInGpuMemory) {
  dlc::Model model = load(gpuOnly());
  dlc::Session session;
  dlc_session_options_t o = options();
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  std::vector<float> out;
  // Inputs not set start zeroed, as on the CPU.
  ASSERT_TRUE(session.run().ok());
  ASSERT_TRUE(session.output(0, out).ok());
  EXPECT_EQ(out, std::vector<float>(6, 0.0f));
  ASSERT_TRUE(session.setInput(0, std::vector<float>{1, 2, 3, 4, 5, 6}).ok());
  ASSERT_TRUE(session.setInput(1, std::vector<float>{10, 20, 30, 40, 50, 60}).ok());
  ASSERT_TRUE(session.run().ok());
  ASSERT_TRUE(session.output(0, out).ok());
  EXPECT_EQ(out, (std::vector<float>{11, 22, 33, 44, 55, 66}));
}

std::string createError(const ArtifactSpec &spec,
                        std::vector<int32_t> *map = nullptr) {
  dlc::Model model = load(spec);
  dlc::Session session;
  dlc_session_options_t o = options(map);
  return dlc::Session::create(model, session, &o).toString();
}

TEST(Cuda, BindingErrors) {
  ArtifactSpec three = cudaMulti();
  three.devices.push_back({fb::DeviceKind::Cuda, 2, 0});
  EXPECT_EQ(createError(three),
            "unavailable: model '<memory>' needs 3 GPUs (cuda:0, cuda:1, "
            "cuda:2) and this machine has 2 GPUs; remap them onto fewer with "
            "gpu_map (dlc-run --gpu-map=0,0) or simulate them with gpu_binding "
            "= DLC_GPU_BINDING_SIM (dlc-run --gpu=sim)");
  std::vector<int32_t> map = {0, 5};
  EXPECT_EQ(createError(cudaMulti(), &map),
            "unavailable: model '<memory>' needs 2 GPUs (cuda:0, cuda:1), "
            "mapped by gpu_map onto GPUs up to 5, and this machine has 2 GPUs; "
            "remap them onto fewer with gpu_map (dlc-run --gpu-map=0,0) or "
            "simulate them with gpu_binding = DLC_GPU_BINDING_SIM (dlc-run "
            "--gpu=sim)");
  map = {0};
  EXPECT_EQ(createError(cudaMulti(), &map),
            "invalid_argument: model '<memory>' uses cuda:1 but gpu_map has 1 "
            "entries (one per logical GPU cuda:0, cuda:1, ...)");
  // Every GPU of three on GPU 0: fine.
  map = {0, 0, 0};
  EXPECT_EQ(createError(three, &map), "ok");
}

TEST(Cuda, CodeErrors) {
  // No CUBIN for sm_90: the PTX is JIT-compiled, and when it is bad the
  // error carries the JIT log.
  ArtifactSpec s = cudaMulti();
  s.cudaModules[0].cubins[0].arch = "sm_80";
  long ptx = stat("loaded:ptx");
  EXPECT_EQ(createError(s), "ok");
  EXPECT_EQ(stat("loaded:ptx") - ptx, 2);
  s.segments[2].bytes = ".version 8.0\n.target sm_80\n";
  EXPECT_EQ(createError(s),
            "unavailable: cuda:0 (GPU 0, Fake GPU, sm_90): CUDA module 0: "
            "loading the PTX (compute_80, no CUBIN for sm_90): "
            "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (fake driver "
            "error); JIT log:\nfake ptxas: line 1: expected "
            "'dlc-fake-cuda-module', got '.version 8.0'");
  s = cudaMulti();
  s.kernels[1].cuda->entry = "no_such_entry";
  EXPECT_EQ(createError(s),
            "internal: cuda:1 (GPU 1, Fake GPU, sm_90): kernel 1 ('mul') entry "
            "'no_such_entry': cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND "
            "(fake driver error)");
  s = cudaMulti();
  s.kernels[0].cuda.reset();
  EXPECT_EQ(createError(s),
            "unavailable: cuda:0 (GPU 0, Fake GPU, sm_90): kernel 0 ('add') has "
            "no CUDA code (the artifact was compiled without it); run it on "
            "simulated GPUs (dlc-run --gpu=sim)");
  // GPU-only code cannot run on a simulated GPU.
  s = cudaMulti();
  s.kernels[0].symbol = "";
  dlc::Model model = load(s);
  dlc::Session session;
  dlc_session_options_t o = options();
  o.gpu_binding = DLC_GPU_BINDING_SIM;
  EXPECT_EQ(dlc::Session::create(model, session, &o).toString(),
            "unavailable: model '<memory>': kernel 0 ('add'), called by step 1 "
            "of cuda:0, has no host code: it runs on real GPUs only");
  for (const char *live : {"live_allocations", "live_pinned", "live_streams",
                           "live_events", "live_modules", "primary_refs"})
    EXPECT_EQ(stat(live), 0) << live;
}

TEST(Cuda, DriverFailuresNameTheCall) {
  dlc::Model model = load(cudaMulti());
  control("fail:cuMemAlloc", 2);
  dlc::Session session;
  dlc_session_options_t o = options();
  EXPECT_EQ(dlc::Session::create(model, session, &o).toString(),
            "out_of_memory: cuda:1 (GPU 1, Fake GPU, sm_90): cuMemAlloc failed: "
            "CUDA_ERROR_OUT_OF_MEMORY (fake driver error)");
  control("fail:cuMemAlloc", 0);
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  control("fail:cuLaunchKernel", 719);
  Outputs got;
  EXPECT_EQ(runOnce(session, 0, got),
            "internal: step 1 (call) of cuda:0: cuLaunchKernel failed: "
            "CUDA_ERROR_LAUNCH_FAILED (fake driver error)");
  control("fail:cuLaunchKernel", 0);
  // The other streams gave up; the session runs again.
  ASSERT_EQ(runOnce(session, 1, got), "");
  EXPECT_TRUE(got == reference(1));
}

TEST(Cuda, ProfiledKernelsAreTimedByTheGpu) {
  // Profiling times each kernel between two events on its stream: their
  // elapsed time is what the stats count, and a failing read names the call.
  dlc::Model model = load(cudaMulti());
  dlc::Session session;
  dlc_session_options_t o = options();
  o.profile = 1;
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  Outputs got;
  ASSERT_EQ(runOnce(session, 0, got), "");
  EXPECT_TRUE(got == reference(0));
  control("fail:cuEventElapsedTime", 600);
  EXPECT_NE(runOnce(session, 1, got).find("cuEventElapsedTime failed"), std::string::npos);
  control("fail:cuEventElapsedTime", 0);
  ASSERT_EQ(runOnce(session, 2, got), "");
  EXPECT_TRUE(got == reference(2));
}

/// dlc-run's flags over the fake driver.
struct Result {
  int code;
  std::string out, err;
};
Result runTool(std::vector<std::string> args,
               int (*main)(int, char **) = dlcRunMain) {
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int code = main(int(argv.size()), argv.data());
  std::fflush(stdout);
  return {code, testing::internal::GetCapturedStdout(),
          testing::internal::GetCapturedStderr()};
}

TEST(Cuda, DlcRunGpuFlags) {
  std::string path = testing::TempDir() + "cuda_multi_" +
                     std::to_string(getpid()) + ".dlcm";
  std::ofstream(path, std::ios::binary) << buildArtifact(cudaMulti());
  Result real = runTool({"dlc-run", path, "--seed=3", "--check-ordering"});
  ASSERT_EQ(real.code, 0) << real.err;
  Result remap = runTool({"dlc-run", path, "--seed=3", "--gpu-map=0,0"});
  ASSERT_EQ(remap.code, 0) << remap.err;
  Result sim = runTool({"dlc-run", path, "--seed=3", "--gpu=sim"});
  ASSERT_EQ(sim.code, 0) << sim.err;
  EXPECT_EQ(real.out, remap.out);
  EXPECT_EQ(real.out, sim.out);
  Result prof = runTool({"dlc-run", path, "--iterations=2", "--gpu-map=1,0"});
  ASSERT_EQ(prof.code, 0) << prof.err;
  EXPECT_NE(prof.out.find("  cuda:1 (cuda): busy "), std::string::npos)
      << prof.out;
  Result bad = runTool({"dlc-run", path, "--gpu-map=0,x"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err.substr(0, bad.err.find('\n')),
            "dlc-run: --gpu-map expects GPU numbers separated by commas (e.g. "
            "0,0), got '0,x'");
  bad = runTool({"dlc-run", path, "--gpu-map=0,3"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(bad.err,
            "dlc-run: model '" + path + "' needs 2 GPUs (cuda:0, cuda:1), "
            "mapped by gpu_map onto GPUs up to 3, and this machine has 2 GPUs; "
            "remap them onto fewer with gpu_map (dlc-run --gpu-map=0,0) or "
            "simulate them with gpu_binding = DLC_GPU_BINDING_SIM (dlc-run "
            "--gpu=sim)\n");
  bad = runTool({"dlc-run", path, "--gpu=sim", "--gpu-map=0,0"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(bad.err,
            "dlc-run: session options: gpu_map binds logical GPUs to real "
            "ones; it does not apply to simulated GPUs (gpu_binding = "
            "DLC_GPU_BINDING_SIM)\n");
  Result gpus = runTool({"dlc-run", "--list-gpus"}, dlcRunToolMain);
  EXPECT_EQ(gpus.code, 0);
  EXPECT_EQ(gpus.out, "2 CUDA GPUs\n");
  // --inspect shows the GPU code.
  Result inspect = runTool({"dlc-run", "--inspect", path}, dlcRunToolMain);
  ASSERT_EQ(inspect.code, 0) << inspect.err;
  EXPECT_NE(inspect.out.find("  0: 'add' = add6_f32 in library 0; ops: "
                             "/add/Add\n     cuda: add_kernel in module 0, "
                             "grid 1, block 6, 0 bytes shared\n"),
            std::string::npos)
      << inspect.out;
  EXPECT_NE(inspect.out.find(
                "cuda module 0: PTX compute_80 (" +
                std::to_string(fakeModule("ptx").size()) +
                " bytes), CUBIN sm_90 (" +
                std::to_string(fakeModule("cubin-sm_90").size()) +
                " bytes), source not kept\n"),
            std::string::npos)
      << inspect.out;
  std::remove(path.c_str());
}

} // namespace

namespace {
int32_t observeNothing(void *, const dlc_step_output_t *) { return 0; }

TEST(Cuda, StepObserverRefusesRealGpus) {
  dlc::Model model = load(cudaMulti());
  dlc::Session session;
  dlc_session_options_t o = options();
  o.step_observer = &observeNothing;
  dlc::Status s = dlc::Session::create(model, session, &o);
  EXPECT_EQ(s.toString(),
            "unimplemented: model '<memory>': a step observer reads every step's output "
            "in host memory, and cuda:0 is a real GPU; simulate them with gpu_binding = "
            "DLC_GPU_BINDING_SIM (dlc-run --gpu=sim)");
}

TEST(Cuda, CheckNumericsRefusesRealGpus) {
  dlc::Model model = load(cudaMulti());
  dlc::Session session;
  dlc_session_options_t o = options();
  o.check_numerics = 1;
  ASSERT_TRUE(dlc::Session::create(model, session, &o).ok());
  Outputs got;
  EXPECT_EQ(runOnce(session, 0, got),
            "unimplemented: check-numerics: step 1 (call) of cuda:0 runs on a real GPU, "
            "whose memory it does not scan; simulate the GPUs (dlc-run --gpu=sim)");
}
} // namespace
