//===- ArtifactTest.cpp - every verification error, with its message ------===//

#include "CpuFeatures.h"
#include "TestUtil.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <fstream>
#include <unistd.h>

using namespace dlc::test;

namespace {

std::string build(void (*edit)(ArtifactSpec &)) {
  ArtifactSpec s = toy();
  edit(s);
  return buildArtifact(s);
}

TEST(Artifact, ToyModelLoads) { EXPECT_EQ(loadError(buildArtifact(toy())), "ok"); }

TEST(Artifact, FileErrors) {
  dlc_model_t *model = nullptr;
  dlc_status_t s = dlc_model_load_file("/nonexistent/m.dlcm", nullptr, &model);
  EXPECT_EQ(dlc_status_code(s), DLC_STATUS_NOT_FOUND);
  EXPECT_EQ(std::string(dlc_status_message(s)),
            "artifact '/nonexistent/m.dlcm': cannot open: No such file or "
            "directory");
  dlc_status_free(s);
  EXPECT_EQ(model, nullptr);
  std::string path = testing::TempDir() + "empty_" +
                     std::to_string(getpid()) + ".dlcm";
  std::ofstream(path).close();
  s = dlc_model_load_file(path.c_str(), nullptr, &model);
  EXPECT_EQ(std::string(dlc_status_message(s)),
            "artifact '" + path +
                "': file too small (0 bytes) to hold a size-prefixed "
                "FlatBuffer with an identifier");
  dlc_status_free(s);
  std::ofstream(path, std::ios::binary) << buildArtifact(toy());
  s = dlc_model_load_file(path.c_str(), nullptr, &model);
  EXPECT_EQ(s, nullptr) << dlc_status_message(s);
  EXPECT_EQ(std::string(dlc_model_name(model)), path);
  dlc_model_release(model);
  std::remove(path.c_str());
}

TEST(Artifact, HeaderErrors) {
  std::string good = buildArtifact(toy());
  EXPECT_EQ(loadError(""), "data_loss: artifact 'test.dlcm': file too small (0 "
                           "bytes) to hold a size-prefixed FlatBuffer with an "
                           "identifier");
  std::string bad = good;
  bad[8] = 'X';
  bad[11] = '\x01';
  EXPECT_EQ(loadError(bad), "data_loss: artifact 'test.dlcm': not a dlc "
                            "artifact: identifier 'XLC\\x01' (expected 'DLCM')");
  uint32_t prefix;
  std::memcpy(&prefix, good.data(), 4);
  std::string cut = good.substr(0, prefix); // One byte short of the FlatBuffer.
  EXPECT_EQ(loadError(cut),
            "data_loss: artifact 'test.dlcm': FlatBuffer size prefix (" +
                std::to_string(prefix) +
                " bytes) extends past the end of the file (" +
                std::to_string(prefix) + " bytes); the file is truncated");
}

TEST(Artifact, FlatBufferVerifierRejectsGarbage) {
  std::string bytes(256, '\xee');
  uint32_t prefix = 200;
  std::memcpy(&bytes[0], &prefix, 4);
  std::memcpy(&bytes[8], "DLCM", 4);
  EXPECT_EQ(loadError(bytes), "data_loss: artifact 'test.dlcm': the FlatBuffer "
                              "failed verification (corrupt or truncated)");
}

TEST(Artifact, Versions) {
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.versionMinor = 0; })),
            "ok");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.versionMinor = 5; })),
            "ok");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.versionMinor = 6; })),
            "ok");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.versionMinor = 7; })),
            "ok");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.versionMinor = 8; })),
            "ok");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.versionMinor = 9; })),
            "ok");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.versionMinor = 10; })),
            "unimplemented: artifact 'test.dlcm' has format version 0.10; this "
            "runtime (version 0.9) reads versions 0.0 to 0.9");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) {
              s.versionMajor = 1;
              s.versionMinor = 0;
            })),
            "unimplemented: artifact 'test.dlcm' has format version 1.0; this "
            "runtime (version 0.9) reads versions 0.0 to 0.9");
}

/// Loads `bytes` placed at `misalign` bytes past a 64-byte boundary, in
/// place (borrow_memory); "ok" or the error's "code: message".
std::string borrowedLoad(const std::string &bytes, size_t misalign, int32_t loadCode,
                         void (*corrupt)(uint8_t *, size_t) = nullptr) {
  std::unique_ptr<uint8_t, void (*)(void *)> storage(
      static_cast<uint8_t *>(std::aligned_alloc(64, (bytes.size() + 64 + 63) / 64 * 64)),
      std::free);
  uint8_t *at = storage.get() + misalign;
  std::memcpy(at, bytes.data(), bytes.size());
  if (corrupt)
    corrupt(at, bytes.size());
  dlc_model_options_t options;
  dlc_model_options_initialize(&options);
  options.name = "test.dlcm";
  options.load_code = loadCode;
  options.borrow_memory = 1;
  dlc_model_t *model = nullptr;
  dlc_status_t s = dlc_model_load_memory(at, bytes.size(), &options, &model);
  std::string text = s ? std::string(dlc_status_code_name(dlc_status_code(s))) + ": " +
                             dlc_status_message(s)
                       : "ok";
  dlc_status_free(s);
  dlc_model_release(model);
  return text;
}

TEST(Artifact, BorrowedMemory) {
  std::string bytes = buildArtifact(toy());
  EXPECT_EQ(borrowedLoad(bytes, 0, 1), "ok");
  // Verified in place all the same: a corrupt segment is found.
  EXPECT_NE(borrowedLoad(bytes, 0, 1, [](uint8_t *p, size_t n) { p[n - 1] ^= 0xff; })
                .find("data_loss: artifact 'test.dlcm': segment 1 "),
            std::string::npos);
  // Code needs its constants aligned; inspecting does not.
  std::string misaligned = borrowedLoad(bytes, 8, 1);
  EXPECT_EQ(misaligned.rfind("invalid_argument: artifact 'test.dlcm': borrowed memory at ", 0), 0u)
      << misaligned;
  EXPECT_NE(misaligned.find(" is not 64-byte aligned, as its constants must be to run; copy it "
                            "(borrow_memory = 0) or load it with load_code = 0"),
            std::string::npos)
      << misaligned;
  EXPECT_EQ(borrowedLoad(bytes, 8, 0), "ok");
}

TEST(Artifact, SegmentErrors) {
  std::string prefix = "data_loss: artifact 'test.dlcm': ";
  std::string bytes = buildArtifact(toy());
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.segments[1].offset = 100; })),
            prefix + "segment 1 (offset 100, 24 bytes) is not 64-byte aligned");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) { s.segments[1].offset = 0; })),
            prefix + "segment 1 (offset 0, 24 bytes) overlaps the FlatBuffer (" +
                std::to_string(4 + *reinterpret_cast<const uint32_t *>(
                                       bytes.data())) +
                " bytes)");
  std::string past = build([](ArtifactSpec &s) { s.segments[1].size = 4096; });
  uint64_t off = (bytes.size() - 24);
  EXPECT_EQ(loadError(past),
            prefix + "segment 1 (offset " + std::to_string(off) +
                ", 4096 bytes) extends past the end of the file (" +
                std::to_string(past.size()) + " bytes)");
  EXPECT_EQ(loadError(bytes.substr(0, bytes.size() - 1)),
            prefix + "segment 1 (offset " + std::to_string(off) +
                ", 24 bytes) extends past the end of the file (" +
                std::to_string(bytes.size() - 1) + " bytes)");
  // Segment 2 moved onto segment 1 (both 24 bytes, 64 apart, at the end).
  ArtifactSpec spec = toy();
  spec.segments.push_back(spec.segments[1]);
  spec.segments[2].offset = buildArtifact(spec).size() - 24 - 64;
  EXPECT_EQ(loadError(buildArtifact(spec)),
            prefix + "segments 1 and 2 overlap");
  std::string badCrc = bytes;
  badCrc.back() ^= 1;
  std::string got = loadError(badCrc);
  EXPECT_EQ(got.rfind(prefix + "segment 1 (offset " + std::to_string(off) +
                          ", 24 bytes) is corrupt: CRC-32 ",
                      0),
            0u)
      << got;
}

struct IndexCase {
  const char *what;
  void (*edit)(ArtifactSpec &);
  const char *message;
};

TEST(Artifact, IndicesAndSizes) {
  const IndexCase cases[] = {
      {"buffer device", [](ArtifactSpec &s) { s.buffers[0].device = 3; },
       "buffer 0 ('x') is on device 3 of 1"},
      {"buffer size", [](ArtifactSpec &s) { s.buffers[1].size = 25; },
       "buffer 1 ('y') has size 25 but its shape [2,3] of F32 needs 24"},
      {"negative dim", [](ArtifactSpec &s) { s.buffers[1].shape = {-2, 3}; },
       "buffer 1 ('y') has an invalid shape [-2,3] (a negative dim, or too "
       "many bytes)"},
      {"overflow",
       [](ArtifactSpec &s) {
         s.buffers[1].shape = {int64_t(1) << 40, int64_t(1) << 40};
       },
       "buffer 1 ('y') has an invalid shape [1099511627776,1099511627776] (a "
       "negative dim, or too many bytes)"},
      {"dtype", [](ArtifactSpec &s) { s.buffers[1].dtype = fb::DType(13); },
       "buffer 1 ('y') has an unknown dtype 13"},
      {"arena", [](ArtifactSpec &s) { s.buffers[7].offset = 381; },
       "buffer 7 ('total') at [381, 385) lies outside the arena of device 0 "
       "(384 bytes)"},
      {"constant segment",
       [](ArtifactSpec &s) { s.buffers[3].constantSegment = 2; },
       "buffer 3 ('c') names segment 2 of 2"},
      {"constant size",
       [](ArtifactSpec &s) {
         s.buffers[3].shape = {3};
         s.buffers[3].size = 12;
       },
       "buffer 3 ('c') is a constant of 12 bytes but segment 1 holds 24"},
      {"library segment", [](ArtifactSpec &s) { s.libraries[0].segment = 5; },
       "library 0 names segment 5 of 2"},
      {"kernel library", [](ArtifactSpec &s) { s.kernels[1].library = 1; },
       "kernel 1 ('mul') names library 1 of 1"},
      {"kernel symbol", [](ArtifactSpec &s) { s.kernels[1].symbol = ""; },
       "kernel 1 ('mul') has no symbol"},
      {"call kernel",
       [](ArtifactSpec &s) { s.schedules[0].steps[0].kernel = 3; },
       "step 0 of device 0 calls kernel 3 of 3"},
      {"step buffer",
       [](ArtifactSpec &s) { s.schedules[0].steps[1].buffers[2] = 8; },
       "step 1 of device 0 names buffer 8 of 8"},
      {"copy arity",
       [](ArtifactSpec &s) { s.schedules[0].steps[2].buffers = {4}; },
       "step 2 of device 0 is a copy with 1 buffers (expected source and "
       "destination)"},
      {"copy sizes",
       [](ArtifactSpec &s) { s.schedules[0].steps[2].buffers = {4, 7}; },
       "step 2 of device 0 copies 24 bytes into a buffer of 4"},
      {"event",
       [](ArtifactSpec &s) {
         s.schedules[0].steps.push_back({fb::StepKind::WaitEvent, 0, {}, 2});
         s.eventCount = 2;
       },
       "step 4 of device 0 names event 2 of 2"},
      {"step kind",
       [](ArtifactSpec &s) { s.schedules[0].steps[0].kind = fb::StepKind(7); },
       "step 0 of device 0 has an unknown kind 7"},
      {"schedule device", [](ArtifactSpec &s) { s.schedules[0].device = 1; },
       "schedule 0 is for device 1 of 1"},
      {"input buffer", [](ArtifactSpec &s) { s.inputs[1].buffer = 99; },
       "input 1 ('y') names buffer 99 of 8"},
      {"input type", [](ArtifactSpec &s) { s.inputs[1].shape = {6}; },
       "input 1 ('y') is declared [6] of dtype 0 but its buffer is [2,3] F32"},
      {"output index bound",
       [](ArtifactSpec &s) { s.outputs[2].indexBound = -1; },
       "output 2 ('total') has a negative index_bound -1"},
      {"constant input",
       [](ArtifactSpec &s) {
         s.inputs[0].buffer = 3;
       },
       "input 0 ('x') is a constant buffer"},
      {"duplicate name", [](ArtifactSpec &s) { s.inputs[1].name = "x"; },
       "input 1 ('x') has the same name as input 0"},
      {"device kind",
       [](ArtifactSpec &s) { s.devices[0].kind = fb::DeviceKind(4); },
       "device 0 has an unknown kind 4"},
      {"cpu index", [](ArtifactSpec &s) { s.devices[0].index = 1; },
       "device 0 has index 1 (cpu takes 0, cuda:N takes N >= 0)"},
      {"two cpus", [](ArtifactSpec &s) { s.devices.push_back(s.devices[0]); },
       "devices 0 and 1 are both cpu"},
      {"placement", [](ArtifactSpec &s) { s.placement[0].device = 2; },
       "placement entry 0 names device 2 of 1"},
  };
  for (const IndexCase &c : cases) {
    ArtifactSpec s = toy();
    c.edit(s);
    EXPECT_EQ(loadError(buildArtifact(s)),
              std::string("data_loss: artifact 'test.dlcm': ") + c.message)
        << c.what;
  }
}

TEST(Artifact, CodeErrors) {
  std::string msg = loadError(build(
      [](ArtifactSpec &s) { s.kernels[2].symbol = "no_such_kernel"; }));
  EXPECT_EQ(msg.rfind("not_found: artifact 'test.dlcm': library 0 (target_cpu "
                      "'x86-64'): symbol 'no_such_kernel' not found: ",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("undefined symbol: no_such_kernel"), std::string::npos);
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) {
              s.libraries[0].cpu = "future9";
              s.libraries[0].features = {"sse2", "avx9000"};
            })),
            "unavailable: artifact 'test.dlcm': library 0 (target_cpu "
            "'future9') needs CPU feature 'avx9000', which this runtime does "
            "not know");
  EXPECT_EQ(loadError(build([](ArtifactSpec &s) {
              s.libraries[0].triple = "aarch64-unknown-linux-gnu";
            })),
            "unavailable: artifact 'test.dlcm': library 0 (target_cpu "
            "'x86-64') is compiled for 'aarch64-unknown-linux-gnu', not for "
            "this machine (x86_64)");
  // Not an ELF file: dlopen's message is attached.
  ArtifactSpec s = toy();
  s.segments[0].bytes = "not an elf file";
  msg = loadError(buildArtifact(s));
  EXPECT_EQ(msg.rfind("data_loss: artifact 'test.dlcm': library 0 (target_cpu "
                      "'x86-64'): dlopen failed: /proc/self/fd/",
                      0),
            0u)
      << msg;
  // Without code: loads, introspects, but cannot run.
  EXPECT_EQ(loadError(buildArtifact(s), /*loadCode=*/0), "ok");
  dlc_model_t *model;
  DLC_ASSERT_OK(loadBytes(buildArtifact(s), &model, 0));
  dlc_session_t *session = nullptr;
  dlc_status_t st = dlc_session_create(model, nullptr, &session);
  EXPECT_EQ(std::string(dlc_status_message(st)),
            "model 'test.dlcm' was loaded without its code (load_code = 0): "
            "it cannot run");
  dlc_status_free(st);
  dlc_model_release(model);
}

/// The toy model with 0.4 CUDA code: one module (PTX, a CUBIN for sm_90,
/// source) and the "add" kernel launchable on a GPU.
ArtifactSpec toyWithCuda() {
  ArtifactSpec s = toy();
  s.versionMinor = 4;
  s.segments.push_back({".version 8.0\n.target sm_80\n"}); // 2: PTX
  s.segments.push_back({"\x7f" "ELF cubin"});               // 3: CUBIN
  s.segments.push_back({"extern \"C\" __global__ void k() {}"}); // 4
  s.cudaModules = {{4, 2, "compute_80", {{"sm_90", 3}}}};
  s.kernels[0].cuda = CudaLaunchSpec{0, "add_kernel", {1}, {6}, 0};
  return s;
}

std::string buildCuda(void (*edit)(ArtifactSpec &)) {
  ArtifactSpec s = toyWithCuda();
  edit(s);
  return buildArtifact(s);
}

TEST(Artifact, CudaFields) {
  std::string p = "data_loss: artifact 'test.dlcm': ";
  EXPECT_EQ(loadError(buildArtifact(toyWithCuda())), "ok");
  // A GPU-only kernel (no host code, no library) is fine off the CPU.
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) {
              s.kernels.push_back({"gpu_only", 7, "", {}, CudaLaunchSpec{0, "g"}});
            })),
            "ok");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) {
              s.kernels[0].symbol = "";
            })),
            p + "step 0 of device 0 calls kernel 0 ('add'), which has only "
                "GPU code, on the CPU");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[1].symbol = ""; })),
            p + "kernel 1 ('mul') has no symbol");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.cudaModules[0].sourceSegment = 9; })),
            p + "CUDA module 0 has source_segment 9 (expected -1 or a segment "
                "index below 5)");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.cudaModules[0].ptxSegment = 5; })),
            p + "CUDA module 0 names PTX segment 5 of 5");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.segments[2].bytes = ""; })),
            p + "CUDA module 0 has an empty PTX segment");
  for (const char *bad : {"sm_80", "compute_8", "compute_80x", "compute_080", ""})
    EXPECT_EQ(loadError(buildArtifact([&] {
                ArtifactSpec s = toyWithCuda();
                s.cudaModules[0].ptxArch = bad;
                return s;
              }())),
              p + "CUDA module 0 has ptx_arch '" + bad +
                  "' (expected compute_NN, e.g. compute_80)");
  for (const char *good : {"compute_90a", "compute_100f", "compute_75"})
    EXPECT_EQ(loadError(buildArtifact([&] {
                ArtifactSpec s = toyWithCuda();
                s.cudaModules[0].ptxArch = good;
                return s;
              }())),
              "ok");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.cudaModules[0].cubins[0].arch = "sm90"; })),
            p + "CUDA module 0 CUBIN 0 has arch 'sm90' (expected sm_NN, e.g. sm_90)");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.cudaModules[0].cubins[0].segment = 7; })),
            p + "CUDA module 0 CUBIN 0 (sm_90) names segment 7 of 5, or an empty one");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) {
              s.cudaModules[0].cubins.push_back({"sm_90", 3});
            })),
            p + "CUDA module 0 has two CUBINs for sm_90 (0 and 1)");
  std::string k0 = p + "kernel 0 ('add') ";
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->module = 1; })),
            k0 + "launches from CUDA module 1 of 1");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->entry = "add-1"; })),
            k0 + "has CUDA entry 'add-1' (expected a C identifier)");
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->entry = ""; })),
            k0 + "has CUDA entry '' (expected a C identifier)");
  std::string gridMsg = " (expected 1-3 dims, x in [1, 2^31), y and z in [1, 65535])";
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->grid = {}; })),
            k0 + "has CUDA grid []" + gridMsg);
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->grid = {4, 0}; })),
            k0 + "has CUDA grid [4,0]" + gridMsg);
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->grid = {1, 65536}; })),
            k0 + "has CUDA grid [1,65536]" + gridMsg);
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->grid = {1, 1, 1, 1}; })),
            k0 + "has CUDA grid [1,1,1,1]" + gridMsg);
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) {
              s.kernels[0].cuda->grid = {2147483647u, 65535, 65535};
            })),
            "ok");
  std::string blockMsg = " (expected 1-3 dims, x and y in [1, 1024], z in [1, 64], "
                         "at most 1024 threads)";
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->block = {1025}; })),
            k0 + "has CUDA block [1025]" + blockMsg);
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->block = {32, 33}; })),
            k0 + "has CUDA block [32,33]" + blockMsg);
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->block = {1, 1, 65}; })),
            k0 + "has CUDA block [1,1,65]" + blockMsg);
  EXPECT_EQ(loadError(buildCuda([](ArtifactSpec &s) { s.kernels[0].cuda->sharedBytes = 300000; })),
            k0 + "asks for 300000 bytes of shared memory (at most 232448 on any GPU)");
}

TEST(Artifact, HostFeaturesAreKnownAndCovered) {
  std::vector<std::string> host = dlc::rt::hostCpuFeatures();
#if defined(__x86_64__)
  EXPECT_EQ(dlc::rt::checkCpuFeatures({"sse2", "64bit"}, host), "");
#endif
  EXPECT_EQ(dlc::rt::checkCpuFeatures({"avx2", "avx512f"}, {"avx2"}),
            "needs CPU feature 'avx512f', which this CPU lacks");
  EXPECT_EQ(dlc::rt::checkCpuFeatures({"+avx2"}, {"avx2"}),
            "needs CPU feature '+avx2', which this runtime does not know");
  for (const std::string &f : host)
    EXPECT_TRUE(dlc::rt::isKnownCpuFeature(f)) << f;
  // A feature this CPU lacks (if any) is refused by the loader.
  for (const std::string &f : dlc::rt::knownCpuFeatures()) {
    if (std::find(host.begin(), host.end(), f) != host.end())
      continue;
    ArtifactSpec s = toy();
    s.libraries[0].features = {f};
    EXPECT_EQ(loadError(buildArtifact(s)),
              "unavailable: artifact 'test.dlcm': library 0 (target_cpu "
              "'x86-64') needs CPU feature '" + f + "', which this CPU lacks");
    break;
  }
}

TEST(Artifact, SessionRefusesGpusItCannotBind) {
  ArtifactSpec s = toy();
  s.devices.push_back({fb::DeviceKind::Cuda, 0, 64});
  s.devices.push_back({fb::DeviceKind::Cuda, 1, 64});
  dlc_model_t *model;
  DLC_ASSERT_OK(loadBytes(buildArtifact(s), &model));
  dlc_session_t *session = nullptr;
  dlc_status_t st = dlc_session_create(model, nullptr, &session);
  std::string noDriver =
      noDriverError("model 'test.dlcm' needs 2 GPUs (cuda:0, cuda:1)");
  if (!noDriver.empty()) { // A machine with a driver: see CudaTest.
    EXPECT_EQ(dlc_status_code(st), DLC_STATUS_UNAVAILABLE);
    EXPECT_EQ(dlc_status_message(st), noDriver);
    EXPECT_EQ(session, nullptr);
    int32_t n = -1;
    dlc_status_t c = dlc_cuda_device_count(&n);
    EXPECT_EQ(dlc_status_code(c), DLC_STATUS_UNAVAILABLE);
    EXPECT_EQ(std::string(dlc_status_message(c)).rfind(
                  "no CUDA driver: cannot load libcuda.so.1 (", 0),
              0u)
        << dlc_status_message(c);
    EXPECT_EQ(n, 0);
    dlc_status_free(c);
  }
  dlc_session_release(session);
  dlc_status_free(st);
  dlc_session_options_t options;
  dlc_session_options_initialize(&options);
  options.gpu_binding = DLC_GPU_BINDING_SIM;
  DLC_ASSERT_OK(dlc_session_create(model, &options, &session));
  DLC_EXPECT_OK(dlc_session_run(session));
  dlc_session_release(session);
  int32_t map[] = {0, 0};
  options.gpu_map = map;
  options.gpu_map_count = 2;
  st = dlc_session_create(model, &options, &session);
  EXPECT_STREQ(dlc_status_message(st),
               "session options: gpu_map binds logical GPUs to real ones; it "
               "does not apply to simulated GPUs (gpu_binding = "
               "DLC_GPU_BINDING_SIM)");
  dlc_status_free(st);
  options.gpu_binding = DLC_GPU_BINDING_REAL;
  map[1] = -1;
  st = dlc_session_create(model, &options, &session);
  EXPECT_STREQ(dlc_status_message(st),
               "session options: gpu_map[1] is -1 (a GPU number is >= 0)");
  dlc_status_free(st);
  options.gpu_map_count = 0;
  st = dlc_session_create(model, &options, &session);
  EXPECT_STREQ(dlc_status_message(st), "session options: gpu_map has 0 entries");
  dlc_status_free(st);
  options.gpu_map = nullptr;
  options.gpu_binding = 5;
  st = dlc_session_create(model, &options, &session);
  EXPECT_STREQ(dlc_status_message(st), "session options: gpu_binding 5 is "
                                       "not a dlc_gpu_binding_t (0 real, 1 sim)");
  dlc_status_free(st);
  dlc_model_release(model);
}

} // namespace
