//===- PlacementBench.cpp - dlc-place `cost` on synthetic layered DAGs ----===//
//
// Issue 4, benchmark item 1. A generator with fixed parameters builds layered
// DAGs of dlc ops in memory (no MLIR text is parsed), places them over
// cpu + 4 GPUs with `cost`, and reports:
//
//   - placement time: the dlc-place pass alone (ms, wall clock);
//   - the estimated makespan (PlacementReport: the simulation the placer's
//     --dump-placement uses) against the report's lower bound
//     max(critical path, total work / devices), each op at its fastest device;
//   - the same simulation for all-on-one-GPU (policy `gpu`), round-robin over
//     the 4 GPUs (op i pinned to cuda:(i mod 4) by its `device` attribute) and
//     classic HEFT without memory caps (policy `cost` with 1e18-byte memories).
//
// Generator (fixed; documented in test/bench/README.md):
//   - L layers x W ops; every op is `dlc.matmul(a, b)` of two
//     tensor<512x512xf32> (fan-in 2): a = the op in the same column of the
//     previous layer, b = a uniformly random one of the 9 columns j-4..j+4
//     (wrapping) of the previous layer; layer 0 reads the function's two
//     arguments; the function returns the last layer. Seed 1.
//   - 1k ops: 25 x 40; 10k: 100 x 100; 100k: 250 x 400.
//   - Devices: the built-in profiles (cpu: 175 GFLOP/s f32, 30 GB/s, 1 us;
//     cuda:N: 60 TFLOP/s f32, 4.8 TB/s, 5 us, 141 GB). One op takes
//     9.47 us on a GPU. Communication-to-computation ratio (CCR) c = one
//     value's GPU -> GPU transfer time / one op's GPU time; it is set by
//     scaling every link's time (latency x k, bandwidth / k, NVLink and PCIe
//     alike) so that the NVLink transfer of a 1 MiB value takes c x 9.47 us.
//     c = 0.1, 1, 10.
//
// `RESULT placement ...` lines go to test/bench/run.sh's table.
//
//   dlc-bench-placement [--quick] [--sizes=1000,10000,100000] [--repeat=N]
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Backends.h"
#include "passes/CostModel.h"
#include "passes/DeviceSpec.h"
#include "passes/Passes.h"
#include "passes/PlacementReport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace dlc;

namespace {

constexpr int64_t kSide = 512;
constexpr int kWindow = 4; // b from columns j-4..j+4 of the previous layer
constexpr int kGpus = 4;

struct GraphShape {
  int ops, layers, width;
};

OwningOpRef<ModuleOp> layeredGraph(MLIRContext &ctx, int layers, int width,
                                   uint64_t seed) {
  std::mt19937_64 rng(seed);
  OpBuilder b(&ctx);
  Location unknown = b.getUnknownLoc();
  auto module = ModuleOp::create(unknown);
  auto type = RankedTensorType::get({kSide, kSide}, b.getF32Type());
  std::vector<Type> results(width, type);
  auto func = b.create<func::FuncOp>(unknown, "main",
                                     b.getFunctionType({type, type}, results));
  module.push_back(func);
  Block *block = func.addEntryBlock();
  b.setInsertionPointToStart(block);
  std::vector<Value> prev, cur;
  for (int l = 0; l < layers; ++l) {
    cur.clear();
    for (int j = 0; j < width; ++j) {
      Location loc = NameLoc::get(
          b.getStringAttr("/l" + std::to_string(l) + "/n" + std::to_string(j)));
      Value lhs, rhs;
      if (l == 0) {
        lhs = block->getArgument(0);
        rhs = block->getArgument(1);
      } else {
        int k = (j + int(rng() % (2 * kWindow + 1)) - kWindow + width) % width;
        lhs = prev[j];
        rhs = prev[k];
      }
      cur.push_back(b.create<MatmulOp>(loc, type, lhs, rhs, DeviceAttr())->getResult(0));
    }
    std::swap(prev, cur);
  }
  b.create<func::ReturnOp>(unknown, ValueRange(prev));
  return module;
}

/// The built-in cpu + 4 H200 spec, every link's time scaled by k, memories
/// given.
std::string specJson(double k, double gpuMemory) {
  DeviceSpec builtin = DeviceSpec::builtin({DeviceId{"cuda", 0}, DeviceId{"cuda", 1}});
  const DeviceProfile &cpu = builtin.devices[0], &gpu = builtin.devices[1];
  LinkProfile pcie = builtin.links[0][1], nvlink = builtin.links[1][2];
  std::string s;
  llvm::raw_string_ostream os(s);
  auto device = [&](const DeviceProfile &p, const char *kind, int index, double memory) {
    os << "{\"kind\": \"" << kind << "\"";
    if (index >= 0)
      os << ", \"index\": " << index;
    os << ", \"memory_bytes\": " << llvm::format("%.17g", memory) << ", \"flops\": {\"f32\": "
       << llvm::format("%.17g", p.flopsF32) << ", \"f16\": " << llvm::format("%.17g", p.flopsF16)
       << ", \"bf16\": " << llvm::format("%.17g", p.flopsBF16)
       << "}, \"bandwidth_bytes_per_s\": " << llvm::format("%.17g", p.bandwidthBytesPerS)
       << ", \"launch_overhead_us\": " << llvm::format("%.17g", p.launchOverheadUs) << "}";
  };
  os << "{\"devices\": [";
  device(cpu, "cpu", -1, double(cpu.memoryBytes));
  for (int g = 0; g < kGpus; ++g) {
    os << ", ";
    device(gpu, "cuda", g, gpuMemory);
  }
  os << "], \"links\": {\"bandwidth_bytes_per_s\": [";
  for (int i = 0; i <= kGpus; ++i) {
    os << (i ? ", [" : "[");
    for (int j = 0; j <= kGpus; ++j) {
      const LinkProfile &l = (i && j) ? nvlink : pcie;
      os << (j ? ", " : "")
         << llvm::format("%.17g", i == j ? 0.0 : l.bandwidthBytesPerS / k);
    }
    os << "]";
  }
  os << "], \"latency_us\": [";
  for (int i = 0; i <= kGpus; ++i) {
    os << (i ? ", [" : "[");
    for (int j = 0; j <= kGpus; ++j) {
      const LinkProfile &l = (i && j) ? nvlink : pcie;
      os << (j ? ", " : "") << llvm::format("%.17g", i == j ? 0.0 : l.latencyUs * k);
    }
    os << "]";
  }
  os << "]}}";
  return s;
}

struct Spec {
  std::string path;
  DeviceSpec spec;
};

Spec writeSpec(const std::string &json) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("dlc-bench-spec", "json", path)) {
    llvm::errs() << "cannot create a temporary file\n";
    std::exit(1);
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << json;
  }
  auto spec = DeviceSpec::loadJson(path);
  if (!spec) {
    llvm::errs() << "spec: " << llvm::toString(spec.takeError()) << "\n" << json << "\n";
    std::exit(1);
  }
  return {std::string(path), std::move(*spec)};
}

struct Placed {
  double ms = 0, cpuMs = 0, makespanUs = 0, lowerBoundUs = 0;
};

/// Places a clone of `module`; with `roundRobin`, op i is pinned to
/// cuda:(i mod 4) first.
Placed place(ModuleOp module, const Spec &spec, const std::string &policy,
             bool roundRobin) {
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> copy = module.clone();
  auto func = *copy->getOps<func::FuncOp>().begin();
  if (roundRobin) {
    int i = 0;
    for (Operation &op : func.getBody().front().without_terminator())
      op.setAttr("device", DeviceAttr::get(ctx, "cuda", i++ % kGpus));
  }
  std::string errors;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      errors += diag.str() + "\n";
    return success();
  });
  PlaceDevicesOptions options;
  std::vector<std::string> devices{"cpu,cuda:0,cuda:1,cuda:2,cuda:3"};
  options.devices = devices; // an ArrayRef
  options.policy = policy;
  options.deviceSpec = spec.path;
  PassManager pm(ctx);
  pm.addPass(createPlaceDevices(options));
  auto start = std::chrono::steady_clock::now();
  timespec cpuStart, cpuEnd; // this thread's CPU time: less sensitive to a loaded machine
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuStart);
  bool ok = succeeded(pm.run(*copy));
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuEnd);
  auto end = std::chrono::steady_clock::now();
  if (!ok) {
    llvm::errs() << "placement (" << policy << ") failed:\n" << errors;
    std::exit(1);
  }
  FailureOr<PlacementReport> report = buildPlacementReport(func, spec.spec);
  if (failed(report)) {
    llvm::errs() << "no report:\n" << errors;
    std::exit(1);
  }
  Placed placed;
  placed.ms = std::chrono::duration<double, std::milli>(end - start).count();
  placed.cpuMs = (cpuEnd.tv_sec - cpuStart.tv_sec) * 1e3 + (cpuEnd.tv_nsec - cpuStart.tv_nsec) / 1e6;
  placed.makespanUs = report->makespanUs;
  placed.lowerBoundUs = report->lowerBoundUs;
  return placed;
}

} // namespace

int main(int argc, char **argv) {
  registerBuiltinTargetBackends();
  bool quick = false;
  std::vector<int> sizes = {1000, 10000, 100000};
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg.rfind("--sizes=", 0) == 0) {
      sizes.clear();
      for (llvm::StringRef s = llvm::StringRef(arg).drop_front(8); !s.empty();) {
        auto [head, rest] = s.split(',');
        sizes.push_back(std::stoi(head.str()));
        s = rest;
      }
    } else if (arg.rfind("--repeat=", 0) == 0) {
      repeat = std::max(1, std::stoi(arg.substr(9)));
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--sizes=1000,10000,100000] [--repeat=N]\n",
                   argv[0]);
      return arg == "--help" ? 0 : 2;
    }
  }
  if (quick) {
    sizes = {1000};
    repeat = 1;
  }
  const GraphShape shapes[] = {{1000, 25, 40}, {10000, 100, 100}, {100000, 250, 400}};
  const double ccrs[] = {0.1, 1, 10};

  MLIRContext ctx;
  ctx.loadDialect<DlcDialect, func::FuncDialect>();
  ctx.printOpOnDiagnostic(false);

  // One op's GPU time and one value's NVLink time under the built-in profiles.
  double opUs, moveUs;
  OwningOpRef<ModuleOp> tiny = layeredGraph(ctx, 1, 1, 1);
  Operation *probe = &(*tiny->getOps<func::FuncOp>().begin()).getBody().front().front();
  {
    Operation *op = probe;
    DeviceSpec builtin = DeviceSpec::builtin({DeviceId{"cuda", 0}, DeviceId{"cuda", 1}});
    opUs = opTimeUs(op, builtin.devices[1]);
    moveUs = transferUs(valueBytes(op->getResult(0)), builtin.links[1][2]);
  }
  std::printf("op: dlc.matmul %lldx%lld f32, %.2f us on a GPU; value %lld bytes, %.2f us "
              "over NVLink\n",
              (long long)kSide, (long long)kSide, opUs,
              (long long)(kSide * kSide * 4), moveUs);
  std::printf("%8s %9s %5s %9s %9s %12s %12s %7s %12s %7s %12s %12s %12s\n", "ops", "LxW",
              "ccr", "build_ms", "place_ms", "makespan_us", "bound_us", "/bound",
              "rate_bound", "/rate", "1gpu_us", "rr4_us", "heft_us");
  for (int n : sizes) {
    const GraphShape *shape = nullptr;
    for (const GraphShape &s : shapes)
      if (s.ops == n)
        shape = &s;
    GraphShape custom{n, std::max(1, n / 100), 100};
    if (!shape) {
      custom.ops = custom.layers * custom.width;
      shape = &custom;
    }
    auto t0 = std::chrono::steady_clock::now();
    OwningOpRef<ModuleOp> module = layeredGraph(ctx, shape->layers, shape->width, 1);
    double buildMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - t0).count();
    for (double ccr : ccrs) {
      if (quick && ccr != 1)
        continue;
      double k = ccr * opUs / moveUs;
      Spec capped = writeSpec(specJson(k, double(DeviceSpec::builtin({DeviceId{"cuda", 0}}).devices[1].memoryBytes)));
      Spec uncapped = writeSpec(specJson(k, 1e18));
      int reps = n >= 100000 ? 1 : repeat;
      std::vector<double> times, cpuTimes;
      Placed cost;
      for (int r = 0; r < reps; ++r) {
        cost = place(*module, capped, "cost", false);
        times.push_back(cost.ms);
        cpuTimes.push_back(cost.cpuMs);
      }
      std::sort(times.begin(), times.end());
      std::sort(cpuTimes.begin(), cpuTimes.end());
      double ms = times[times.size() / 2], cpuMs = cpuTimes[cpuTimes.size() / 2];
      Placed gpu = place(*module, capped, "gpu", false);
      Placed rr = place(*module, capped, "cost", true);
      Placed heft = place(*module, uncapped, "cost", false);
      llvm::sys::fs::remove(capped.path);
      llvm::sys::fs::remove(uncapped.path);
      // Every op is the same matmul: n ops cannot finish before
      // n / sum_d (1 / t_d), every device busy from 0 and no communication.
      double rate = 0, fastest = 1e300;
      for (const DeviceProfile &d : capped.spec.devices) {
        rate += 1 / opTimeUs(probe, d);
        fastest = std::min(fastest, opTimeUs(probe, d));
      }
      double rateBound = std::max(shape->layers * fastest, shape->ops / rate);
      std::string lxw = std::to_string(shape->layers) + "x" + std::to_string(shape->width);
      std::printf("%8d %9s %5g %9.1f %9.1f %12.1f %12.1f %7.3f %12.1f %7.3f %12.1f %12.1f "
                  "%12.1f\n",
                  shape->ops, lxw.c_str(), ccr, buildMs, ms, cost.makespanUs,
                  cost.lowerBoundUs, cost.makespanUs / cost.lowerBoundUs, rateBound,
                  cost.makespanUs / rateBound, gpu.makespanUs, rr.makespanUs,
                  heft.makespanUs);
      std::printf("RESULT placement ops=%d layers=%d width=%d ccr=%g build_ms=%.3f "
                  "place_ms=%.3f place_cpu_ms=%.3f makespan_us=%.3f bound_us=%.3f ratio=%.4f "
                  "rate_bound_us=%.3f rate_ratio=%.4f gpu_us=%.3f rr_us=%.3f heft_us=%.3f\n",
                  shape->ops, shape->layers, shape->width, ccr, buildMs, ms, cpuMs,
                  cost.makespanUs, cost.lowerBoundUs, cost.makespanUs / cost.lowerBoundUs,
                  rateBound, cost.makespanUs / rateBound,
                  gpu.makespanUs, rr.makespanUs, heft.makespanUs);
      std::fflush(stdout);
    }
  }
  return 0;
}
