//===- DeviceSpecTest.cpp - --devices, built-in profiles, JSON specs ------===//

#include "passes/DeviceSpec.h"

#include <gtest/gtest.h>

using namespace dlc;

namespace {

std::string errorOf(llvm::Error error) { return llvm::toString(std::move(error)); }

template <typename T> std::string errorOf(llvm::Expected<T> value) {
  EXPECT_FALSE(static_cast<bool>(value));
  return value ? std::string() : llvm::toString(value.takeError());
}

TEST(DeviceList, ParsesCpuAndGpus) {
  auto ids = parseDeviceList("cpu,cuda:0, cuda:3");
  ASSERT_TRUE(static_cast<bool>(ids)) << errorOf(ids.takeError());
  ASSERT_EQ(ids->size(), 3u);
  EXPECT_EQ((*ids)[0].str(), "cpu");
  EXPECT_EQ((*ids)[1].str(), "cuda:0");
  EXPECT_EQ((*ids)[2].str(), "cuda:3");
}

TEST(DeviceList, Errors) {
  EXPECT_NE(errorOf(parseDeviceList("cpu,tpu:0")).find("unknown device 'tpu:0'"),
            std::string::npos);
  EXPECT_NE(errorOf(parseDeviceList("cuda:-1")).find("unknown device 'cuda:-1'"),
            std::string::npos);
  EXPECT_NE(errorOf(parseDeviceList("cuda:x")).find("unknown device"), std::string::npos);
  EXPECT_NE(errorOf(parseDeviceList("cpu:1")).find("unknown device 'cpu:1'"),
            std::string::npos);
  EXPECT_NE(errorOf(parseDeviceList("cuda:0,cuda:0")).find("listed twice"),
            std::string::npos);
  EXPECT_NE(errorOf(parseDeviceList("")).find("no devices"), std::string::npos);
}

TEST(Builtin, H200AndLinks) {
  DeviceSpec spec = DeviceSpec::builtin({DeviceId{"cuda", 0}, DeviceId{"cuda", 1}});
  ASSERT_EQ(spec.devices.size(), 3u); // the CPU comes first, always
  EXPECT_EQ(spec.names(), "cpu, cuda:0, cuda:1");
  EXPECT_EQ(spec.devices[1].memoryBytes, 141'000'000'000);
  EXPECT_DOUBLE_EQ(spec.devices[1].flopsF16, 989e12);
  EXPECT_DOUBLE_EQ(spec.devices[1].bandwidthBytesPerS, 4.8e12);
  EXPECT_DOUBLE_EQ(spec.links[0][1].bandwidthBytesPerS, 55e9); // PCIe 5
  EXPECT_DOUBLE_EQ(spec.links[1][2].bandwidthBytesPerS, 450e9); // NVLink
  EXPECT_DOUBLE_EQ(spec.links[2][1].latencyUs, 2.0);
  EXPECT_TRUE(spec.devices[1].supports("softmax"));
}

constexpr const char *kSpec = R"({
  "devices": [
    {"kind": "cpu", "memory_bytes": 1000000, "flops": {"f32": 1e11, "f16": 5e10, "bf16": 1e11},
     "bandwidth_bytes_per_s": 5e10},
    {"kind": "cuda", "index": 0, "memory_bytes": 2000000,
     "flops": {"f32": 1e13, "f16": 1e14, "bf16": 1e14},
     "bandwidth_bytes_per_s": 1e12, "launch_overhead_us": 4,
     "supported_ops": ["matmul", "dlc.add"]},
    {"kind": "cuda", "index": 2, "memory_bytes": 3000000,
     "flops": {"f32": 1e13, "f16": 1e14, "bf16": 1e14}, "bandwidth_bytes_per_s": 1e12}
  ],
  "links": {
    "bandwidth_bytes_per_s": [[0, 2e10, 2e10], [2e10, 0, 1e11], [2e10, 1e11, 0]],
    "latency_us": [[0, 8, 8], [8, 0, 3], [8, 3, 0]]
  }
})";

TEST(Json, Parses) {
  auto spec = DeviceSpec::parseJson(kSpec, "spec.json");
  ASSERT_TRUE(static_cast<bool>(spec)) << errorOf(spec.takeError());
  ASSERT_EQ(spec->devices.size(), 3u);
  EXPECT_EQ(spec->devices[2].id.str(), "cuda:2");
  EXPECT_EQ(spec->devices[1].memoryBytes, 2000000);
  EXPECT_DOUBLE_EQ(spec->devices[1].launchOverheadUs, 4);
  EXPECT_TRUE(spec->devices[1].supports("matmul"));
  EXPECT_TRUE(spec->devices[1].supports("add"));
  EXPECT_FALSE(spec->devices[1].supports("softmax"));
  EXPECT_TRUE(spec->devices[2].supports("softmax"));
  EXPECT_DOUBLE_EQ(spec->links[1][2].bandwidthBytesPerS, 1e11);
  EXPECT_DOUBLE_EQ(spec->links[2][0].latencyUs, 8);

  auto selected = spec->select({DeviceId{"cuda", 2}}, "spec.json");
  ASSERT_TRUE(static_cast<bool>(selected));
  EXPECT_EQ(selected->names(), "cpu, cuda:2");
  EXPECT_DOUBLE_EQ(selected->links[0][1].bandwidthBytesPerS, 2e10);
  EXPECT_NE(errorOf(spec->select({DeviceId{"cuda", 1}}, "spec.json"))
                .find("unknown device 'cuda:1': spec.json has cpu, cuda:0, cuda:2"),
            std::string::npos);
}

/// kSpec with `from` replaced by `to`, parsed; the error message.
std::string errorWith(const std::string &from, const std::string &to) {
  std::string text = kSpec;
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  return errorOf(DeviceSpec::parseJson(text, "spec.json"));
}

TEST(Json, ErrorsNameTheField) {
  EXPECT_EQ(errorWith(R"("memory_bytes": 2000000)", R"("memory_bytes": -5)"),
            "spec.json: devices[1] (cuda:0).memory_bytes: must be non-negative, got -5.000000");
  EXPECT_EQ(errorWith(R"("memory_bytes": 2000000,)", ""),
            "spec.json: devices[1] (cuda:0).memory_bytes: missing field");
  EXPECT_EQ(errorWith(R"("kind": "cuda", "index": 0)", R"("kind": "tpu", "index": 0)"),
            "spec.json: devices[1].kind: unknown device kind 'tpu' (expected cpu or cuda)");
  EXPECT_EQ(errorWith(R"("kind": "cuda", "index": 0,)", R"("kind": "cuda",)"),
            "spec.json: devices[1].index: missing field");
  EXPECT_EQ(errorWith(R"("index": 2)", R"("index": 0)"),
            "spec.json: devices[2]: device 'cuda:0' is listed twice");
  EXPECT_EQ(errorWith(R"("f16": 5e10)", R"("f16": 0)"),
            "spec.json: devices[0] (cpu).flops.f16: must be positive, got 0.000000");
  EXPECT_EQ(errorWith(R"("f16": 5e10, )", R"("f8": 1, "f16": 5e10, )"),
            "spec.json: devices[0] (cpu).flops.f8: unknown dtype (expected f32, f16, bf16)");
  EXPECT_EQ(errorWith(R"("launch_overhead_us": 4,)", R"("launch_overhead_us": 4, "colour": 1,)"),
            "spec.json: devices[1].colour: unknown field");
  EXPECT_EQ(errorWith(R"([[0, 8, 8], [8, 0, 3], [8, 3, 0]])", R"([[0, 8, 8], [8, 0, 3]])"),
            "spec.json: links.latency_us: expected 3 rows (one per device), got 2");
  EXPECT_EQ(errorWith(R"([2e10, 0, 1e11])", R"([0, 0, 1e11])"),
            "spec.json: links.bandwidth_bytes_per_s[1][0] (cuda:0 -> cpu): bandwidth must be positive");
  EXPECT_EQ(errorWith(R"("supported_ops": ["matmul", "dlc.add"])", R"("supported_ops": "matmul")"),
            "spec.json: devices[1] (cuda:0).supported_ops: expected an array of op names");
  EXPECT_NE(errorOf(DeviceSpec::parseJson("{", "spec.json")).find("spec.json: invalid JSON"),
            std::string::npos);
  EXPECT_EQ(errorOf(DeviceSpec::parseJson(R"({"links": {}})", "spec.json")),
            "spec.json: devices: missing field");
  EXPECT_NE(errorOf(DeviceSpec::loadJson("/nonexistent/spec.json"))
                .find("cannot read device spec '/nonexistent/spec.json'"),
            std::string::npos);
}

TEST(Json, NeedsACpu) {
  std::string text = R"({"devices": [{"kind": "cuda", "index": 0, "memory_bytes": 1,
    "flops": {"f32": 1, "f16": 1, "bf16": 1}, "bandwidth_bytes_per_s": 1}]})";
  auto spec = DeviceSpec::parseJson(text, "gpu.json");
  ASSERT_TRUE(static_cast<bool>(spec)) << errorOf(spec.takeError());
  EXPECT_EQ(errorOf(spec->select({DeviceId{"cuda", 0}}, "gpu.json")),
            "gpu.json: no cpu device (the function's arguments and results live on it)");
}

TEST(Builtin, CpuFromTheTargetDescription) {
  DeviceSpec spec = DeviceSpec::builtin({});
  const DeviceProfile &cpu = spec.devices[0];
  // One core of this machine: lanes x FMAs x clock, not a fixed figure.
  EXPECT_GT(cpu.flopsF32, 1e9);
  EXPECT_NE(cpu.source.find("built-in from the target"), std::string::npos) << cpu.source;
  EXPECT_TRUE(cpu.specFile.empty());
  ASSERT_TRUE(cpu.kernelFlops.count("conv2d"));
  EXPECT_LT(cpu.kernelFlops.lookup("conv2d"), cpu.flopsF32);
  EXPECT_LT(cpu.kernelFlops.lookup("depthwise_conv2d"), cpu.kernelFlops.lookup("conv2d"));
  EXPECT_NE(spec.devices.size(), 0u);
  DeviceSpec gpus = DeviceSpec::builtin({DeviceId{"cuda", 0}});
  EXPECT_NE(gpus.devices[1].describe().find("datasheet"), std::string::npos);
}

TEST(Json, KernelFlopsAndSource) {
  std::string text = kSpec;
  std::string from = R"("bandwidth_bytes_per_s": 5e10})";
  text.replace(text.find(from), from.size(),
               R"("bandwidth_bytes_per_s": 5e10, "kernel_flops": {"conv2d": 6e10,
     "dlc.matmul": 8e10}, "source": "dlc probe-devices on a test CPU"})");
  auto spec = DeviceSpec::parseJson(text, "probed.json");
  ASSERT_TRUE(static_cast<bool>(spec)) << errorOf(spec.takeError());
  const DeviceProfile &cpu = spec->devices[0];
  EXPECT_DOUBLE_EQ(cpu.kernelFlops.lookup("conv2d"), 6e10);
  EXPECT_DOUBLE_EQ(cpu.kernelFlops.lookup("matmul"), 8e10);
  EXPECT_EQ(cpu.describe(), "probed.json: dlc probe-devices on a test CPU");
  EXPECT_EQ(spec->devices[1].describe(), "probed.json");

  // What toJson writes parses back to the same figures.
  auto again = DeviceSpec::parseJson(spec->toJson(), "again.json");
  ASSERT_TRUE(static_cast<bool>(again)) << errorOf(again.takeError()) << spec->toJson();
  ASSERT_EQ(again->devices.size(), 3u);
  EXPECT_DOUBLE_EQ(again->devices[0].kernelFlops.lookup("matmul"), 8e10);
  EXPECT_EQ(again->devices[0].source, "dlc probe-devices on a test CPU");
  EXPECT_EQ(again->devices[2].id.str(), "cuda:2");
  EXPECT_DOUBLE_EQ(again->devices[1].launchOverheadUs, 4);
  EXPECT_FALSE(again->devices[1].supports("softmax"));
  EXPECT_TRUE(again->devices[1].supports("add"));
  EXPECT_DOUBLE_EQ(again->links[1][2].bandwidthBytesPerS, 1e11);
  EXPECT_DOUBLE_EQ(again->links[2][0].latencyUs, 8);
}

TEST(Json, KernelFlopsErrors) {
  std::string from = R"("launch_overhead_us": 4,)";
  EXPECT_EQ(errorWith(from, R"("launch_overhead_us": 4, "kernel_flops": [1],)"),
            "spec.json: devices[1] (cuda:0).kernel_flops: expected an object {op kind: f32 "
            "FLOP/s}");
  EXPECT_EQ(errorWith(from, R"("launch_overhead_us": 4, "kernel_flops": {"conv2d": 0},)"),
            "spec.json: devices[1] (cuda:0).kernel_flops.conv2d: must be positive, got 0.000000");
  EXPECT_EQ(errorWith(from, R"("launch_overhead_us": 4, "kernel_flops": {"conv2d": "x"},)"),
            "spec.json: devices[1] (cuda:0).kernel_flops.conv2d: expected a number");
  EXPECT_EQ(errorWith(from, R"("launch_overhead_us": 4, "source": 3,)"),
            "spec.json: devices[1] (cuda:0).source: expected a string");
}

} // namespace
