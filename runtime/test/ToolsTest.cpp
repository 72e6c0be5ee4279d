//===- ToolsTest.cpp - dlcRunMain and dlcInspectMain ----------------------===//

#include "NpyFormat.h"
#include "RuntimeTools.h"
#include "TestUtil.h"

#include <cstring>
#include <fstream>
#include <regex>
#include <sys/stat.h>
#include <unistd.h>

using namespace dlc::test;

namespace {

/// A temp directory holding the toy artifact, removed at scope exit.
class ToolDir {
public:
  ToolDir() {
    static int counter = 0;
    dir = testing::TempDir() + "dlc_tools_" + std::to_string(getpid()) + "_" +
          std::to_string(counter++);
    ::mkdir(dir.c_str(), 0777);
    model = dir + "/toy.dlcm";
    multi = dir + "/multi.dlcm";
    std::ofstream(model, std::ios::binary) << buildArtifact(toy());
    std::ofstream(multi, std::ios::binary)
        << buildArtifact(multiDeviceModel(kernelsPath()));
  }
  ~ToolDir() { std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string dir, model, multi;
};

struct Result {
  int code;
  std::string out, err;
};

Result run(int (*main)(int, char **), std::vector<std::string> args) {
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int code = main(static_cast<int>(argv.size()), argv.data());
  std::fflush(stdout);
  return {code, testing::internal::GetCapturedStdout(),
          testing::internal::GetCapturedStderr()};
}

dlc::npy::Array readNpy(const std::string &path, std::string &storage) {
  std::string error;
  dlc::npy::Array a;
  EXPECT_TRUE(dlc::npy::readFile(path, storage, error)) << error;
  EXPECT_TRUE(dlc::npy::parse(storage, path,
                              {{"<f4", 4}, {"<i4", 4}, {"<u2", 2}}, a, error))
      << error;
  return a;
}

TEST(Tools, RunWritesOutputsAsNpy) {
  ToolDir d;
  // x from a file, y and idx random.
  std::string x(24, '\0');
  for (int i = 0; i < 6; ++i) {
    float v = float(i);
    std::memcpy(&x[4 * i], &v, 4);
  }
  std::string err;
  ASSERT_TRUE(dlc::npy::writeFile(d.dir + "/x.npy",
                                  dlc::npy::encode("<f4", {2, 3}, x), err));
  Result r = run(dlcRunMain, {"dlc-run", d.model, "--input",
                              "x=" + d.dir + "/x.npy", "--output-dir",
                              d.dir + "/out", "--seed=3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("output 0 'out': f32 [2,3] = ["), std::string::npos);
  EXPECT_NE(r.out.find("output 1 't/sum:0': f32 [2,3] = ["), std::string::npos);
  EXPECT_NE(r.out.find("output 2 'total': i32 [1] = ["), std::string::npos);
  std::string bytes;
  dlc::npy::Array sum = readNpy(d.dir + "/out/t_sum_0.npy", bytes);
  EXPECT_EQ(sum.descr, "<f4");
  EXPECT_EQ(sum.shape, (std::vector<int64_t>{2, 3}));
  // y is random in [-1, 1): sum - x is within it.
  for (int i = 0; i < 6; ++i) {
    float s;
    std::memcpy(&s, sum.data.data() + 4 * i, 4);
    EXPECT_GE(s - float(i), -1.0f);
    EXPECT_LT(s - float(i), 1.0f);
  }
  std::string totalBytes;
  dlc::npy::Array total = readNpy(d.dir + "/out/total.npy", totalBytes);
  int32_t t;
  std::memcpy(&t, total.data.data(), 4);
  EXPECT_GE(t, 0);
  EXPECT_LE(t, 36); // Four indices in [0, 10).

  // Same seed, same numbers; the file input does not shift y's values.
  Result again = run(dlcRunMain, {"dlc-run", d.model, "--input",
                                  "x=" + d.dir + "/x.npy", "--seed=3"});
  EXPECT_EQ(again.out, r.out);
}

TEST(Tools, IterationsPrintLatencyLast) {
  ToolDir d;
  Result r = run(dlcRunMain, {"dlc-run", d.model, "--iterations=5",
                              "--warmup=2", "--threads=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  EXPECT_TRUE(std::regex_match(
      last, std::regex("latency: median [0-9]+\\.[0-9]{3} ms \\(min "
                       "[0-9]+\\.[0-9]{3} ms, max [0-9]+\\.[0-9]{3} ms, 5 "
                       "iterations\\)\n")))
      << last;
}

TEST(Tools, SimulatedGpusProfileAndPipelining) {
  ToolDir d;
  Result one = run(dlcRunMain, {"dlc-run", d.model, "--seed=4"});
  ASSERT_EQ(one.code, 0) << one.err;
  Result r = run(dlcRunMain, {"dlc-run", d.multi});
  std::string noDriver =
      noDriverError("model '" + d.multi + "' needs 2 GPUs (cuda:0, cuda:1)");
  if (!noDriver.empty()) {
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "dlc-run: " + noDriver + "\n");
    Result gpus = run(dlcRunToolMain, {"dlc-run", "--list-gpus"});
    EXPECT_EQ(gpus.code, 1);
    EXPECT_EQ(gpus.err.rfind("dlc-run: no CUDA driver: cannot load libcuda.so.1 (", 0), 0u)
        << gpus.err;
  }
  std::string trace = d.dir + "/trace.json";
  for (const char *inFlight : {"--in-flight=1", "--in-flight=3"}) {
    r = run(dlcRunMain, {"dlc-run", d.multi, "--gpu=sim", "--check-ordering",
                         "--seed=4", "--iterations=7", "--warmup=1",
                         "--profile=" + trace, inFlight, "--sim-links"});
    ASSERT_EQ(r.code, 0) << r.err;
    // The same outputs as the one-device model, then the summary, the
    // throughput and the latency last.
    EXPECT_EQ(r.out.substr(0, one.out.size()), one.out);
    std::string rest = r.out.substr(one.out.size());
    std::regex summary(
        "devices \\(7 runs, warmup excluded; idle = active - busy\\):\n"
        "  cpu \\(cpu\\): busy [0-9.]+ ms \\([0-9.]+%\\), idle [0-9.]+ ms, "
        "waits [0-9.]+ ms, 42 steps, 504 bytes copied \\([0-9.]+ GB/s\\)\n"
        "  cuda:0 \\(sim\\): busy .*, 21 steps, 0 bytes copied\n"
        "  cuda:1 \\(sim\\): busy .*, 28 steps, 168 bytes copied .*\n"
        "op kinds \\(per run; estimated: the cost model, "
        "measured: kernels split over their ops by estimate\\):\n"
        "  dlc.add: 1 ops, estimated -, measured [0-9.]+ us\n"
        "  dlc.mul: 1 ops, estimated -, measured [0-9.]+ us\n"
        "  dlc.reduce_sum: 1 ops, estimated -, measured [0-9.]+ us\n"
        "throughput: [0-9.]+ runs/s \\(7 runs in [0-9.]+ ms, [13] in "
        "flight\\)\n"
        "latency: median .*, 7 iterations\\)\n");
    EXPECT_TRUE(std::regex_match(rest, summary)) << rest;
    std::string json = readFileBytes(trace);
    EXPECT_NE(json.find("\"name\": \"cuda:0 (sim)\""), std::string::npos);
    EXPECT_NE(json.find("\"cat\": \"copy\""), std::string::npos);
  }
  r = run(dlcRunMain, {"dlc-run", d.multi, "--gpu=tpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "dlc-run: --gpu expects real or sim, got 'tpu'");
  r = run(dlcRunMain, {"dlc-run", d.multi, "--in-flight=0"});
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "dlc-run: --in-flight expects an integer >= 1, got '0'");
}

TEST(Tools, RunErrors) {
  ToolDir d;
  std::string err;
  ASSERT_TRUE(dlc::npy::writeFile(
      d.dir + "/i.npy", dlc::npy::encode("<i4", {2, 3}, std::string(24, '\0')),
      err));
  Result r = run(dlcRunMain, {"dlc-run", d.model, "--input=x=" + d.dir + "/i.npy"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "dlc-run: input 'x' is f32 [2,3] (<f4), but '" + d.dir +
                       "/i.npy' holds <i4 [2,3]\n");
  r = run(dlcRunMain, {"dlc-run", d.model, "--input=z=" + d.dir + "/i.npy"});
  EXPECT_EQ(r.err, "dlc-run: model '" + d.model +
                       "' has no input named 'z' (inputs: x, y, idx)\n");
  r = run(dlcRunMain, {"dlc-run", d.model, "--iterations=0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "dlc-run: --iterations expects an integer >= 1, got '0'");
  r = run(dlcRunMain, {"dlc-run", d.dir + "/missing.dlcm"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "dlc-run: artifact '" + d.dir +
                       "/missing.dlcm': cannot open: No such file or "
                       "directory\n");
  r = run(dlcRunToolMain, {"dlc-run", "--version"});
  EXPECT_EQ(r.out, "dlc-run 0.9\n");
}

TEST(Tools, Inspect) {
  ToolDir d;
  Result r = run(dlcRunToolMain, {"dlc-run", "--inspect", d.model});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char *line : {
           "format: 0.2 (this runtime reads 0.0 to 0.9)\n",
           "producer: dlc runtime tests\n",
           "  0: cpu\n",
           "  input  2 'idx': i32 [4], 16 bytes, indices in [0, 10)\n",
           "  output 1 't/sum:0': f32 [2,3], 24 bytes\n",
           "  1: 'mul' = mul6_f32 in library 0; ops: /mul/Mul\n",
           "steps of cpu (4):\n",
           "  1: call 'mul' (%2('sum'), %3('c'), %4('prod'))\n",
           "  2: copy %4('prod') -> %5('out')\n",
           "  cpu: arena 384 bytes; 7 buffers, 140 bytes if none shared memory\n",
           "  constants: 1 buffers, 24 bytes\n",
           "  cpu: 3 ops (default 2, pinned 1)\n",
       })
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  r = run(dlcInspectMain, {"dlc-inspect"});
  EXPECT_EQ(r.code, 2);
}

} // namespace
