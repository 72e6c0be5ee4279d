//===- ProbeDevicesCommand.cpp - dlc probe-devices: a measured CPU profile -===//
//
// `dlc probe-devices SPEC.json [--cpu=CPU] [--base=SPEC.json] [--quick]`
// writes the device spec placement reads with `dlc compile --device-spec`,
// its CPU profile measured on this machine rather than assumed:
//
//   flops.f32             one thread's FMA peak (CpuPeak.h, the probe's loop)
//   kernel_flops.KIND     what dlc's own kernel of each cost kind reaches
//                         (MeasureKernels.h), compiled for --cpu
//   bandwidth_bytes_per_s what dlc's streaming add reaches
//   launch_overhead_us    one run of a one-element model
//   source                the CPU (model, family, model number), the target
//                         and the date
//
// With --base, every other device and link comes from that spec (one
// `dlc-run --probe-devices --sim-gpus=N` or a GPU check wrote): only its cpu
// entry is replaced.
//
//===----------------------------------------------------------------------===//

#include "compiler/Commands.h"
#include "compiler/Driver/MeasureKernels.h"
#include "compiler/Registration.h"
#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/CpuTarget.h"
#include "passes/DeviceSpec.h"

#include "CpuPeak.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace llvm;

namespace {

/// "AMD EPYC (family 26, model 2)" from /proc/cpuinfo; "unknown CPU" elsewhere.
std::string hostCpuName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string name, family, model;
  for (std::string line; std::getline(cpuinfo, line) && line != "";) {
    StringRef key = StringRef(line).split(':').first.trim();
    std::string value = StringRef(line).split(':').second.trim().str();
    if (key == "model name")
      name = value;
    else if (key == "cpu family")
      family = value;
    else if (key == "model")
      model = value;
  }
  if (name.empty())
    return "unknown CPU";
  return family.empty() ? name : name + " (family " + family + ", model " + model + ")";
}

std::string today() {
  std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

/// The measured CPU profile.
dlc::DeviceProfile measuredCpuProfile(const CpuPeak &peak, const dlc::KernelMeasurements &m,
                                      const dlc::CpuTarget &target, const std::string &host) {
  dlc::DeviceProfile cpu;
  long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  cpu.memoryBytes = pages > 0 && pageSize > 0 ? int64_t(pages) * pageSize : int64_t(64) << 30;
  cpu.flopsF32 = peak.flopsPerSecond;
  cpu.flopsF16 = cpu.flopsBF16 = cpu.flopsF32 * dlc::kCpuHalfToF32Rate;
  cpu.launchOverheadUs = m.launchUs;
  for (const dlc::KernelMeasurement &k : m.kernels) {
    if (k.kind == "add")
      cpu.bandwidthBytesPerS = k.bytesPerSecond();
    else
      cpu.kernelFlops[k.kind] = k.flopsPerSecond();
  }
  cpu.source = "dlc probe-devices on " + host + ", target " + target.cpu + ", " +
               today() + ": " + peak.isa + " FMA loop, dlc's kernels timed on one thread";
  return cpu;
}

void printMeasurements(const CpuPeak &peak, const dlc::KernelMeasurements &m,
                       const dlc::DeviceProfile &cpu, const std::string &host, raw_ostream &os) {
  os << "cpu: " << host << "\n"
     << format("  peak    %8.1f GFLOP/s f32 (%s FMA loop, one thread)\n",
               peak.flopsPerSecond / 1e9, peak.isa)
     << format("  launch  %8.2f us per run (a one-element model)\n", m.launchUs);
  os << "  kind              median_us   GFLOP/s  of_peak    GB/s  model\n";
  for (const dlc::KernelMeasurement &k : m.kernels)
    os << format("  %-16s %10.1f %9.1f %7.1f%% %7.1f  ", k.kind.c_str(), k.medianUs,
                 k.flopsPerSecond() / 1e9, 100 * k.flopsPerSecond() / cpu.flopsF32,
                 k.bytesPerSecond() / 1e9)
       << k.shape << "\n";
  for (const dlc::KernelMeasurement &k : m.kernels)
    if (k.flopsPerSecond() > 1.05 * cpu.flopsF32) {
      os << "  note: " << k.kind << " ran faster than the probed peak: the machine was busy "
         << "while the peak was probed; run it again on a quiet machine\n";
      break;
    }
}

} // namespace

int dlc::probeDevicesCommand(int argc, char **argv) {
  cl::OptionCategory category{"dlc probe-devices options"};
  cl::opt<std::string> output{cl::Positional, cl::Required, cl::desc("<SPEC.json>"),
                              cl::cat(category)};
  cl::opt<std::string> cpuName{"cpu",
                               cl::desc("the CPU the kernels are compiled for: native (the "
                                        "default) or an LLVM CPU name this machine runs"),
                               cl::init("native"), cl::cat(category)};
  cl::opt<std::string> base{"base",
                            cl::desc("take every other device and the links from this spec "
                                     "and replace its cpu"),
                            cl::cat(category)};
  cl::opt<bool> quick{"quick", cl::desc("one short batch per kernel (for tests)"),
                      cl::cat(category)};
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "dlc probe-devices: measure this CPU running dlc's "
                                   "kernels, write a device spec\n"))
    return 2;
  // Copied out: compiling the calibration models parses pass options, which
  // may reset the command line's.
  std::string outputPath = output, basePath = base, targetCpu = cpuName;
  bool isQuick = quick;
  CpuTargetOptions targetOptions;
  targetOptions.cpu = targetCpu;
  const CpuTarget &target = describeCpuTarget(targetOptions);
  if (!target.known) {
    errs() << "error: " << unknownCpuMessage(target.cpu) << "\n";
    return 1;
  }
  // (Registers the device kinds' backends too, which a spec's kinds name.)
  mlir::MLIRContext context;
  mlir::DialectRegistry registry;
  registerAllDlcDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  std::optional<DeviceSpec> spec;
  if (!basePath.empty()) {
    Expected<DeviceSpec> loaded = DeviceSpec::loadJson(basePath);
    if (!loaded) {
      errs() << "error: --base: " << toString(loaded.takeError()) << "\n";
      return 1;
    }
    spec = std::move(*loaded);
  }

  KernelMeasureOptions options;
  options.cpu = targetCpu;
  if (isQuick)
    options.minRuns = 2, options.minSeconds = 0;
  // The peak before and after the kernels, the higher kept: a core that was
  // idle may not have reached its clock yet (seen: 163 before, 220 after).
  auto probePeak = [&] { return measureCpuPeak(isQuick ? 1 : 5, isQuick ? 0.005 : 0.02); };
  CpuPeak peak = probePeak();
  Expected<KernelMeasurements> measured = measureCpuKernels(context, options);
  if (!measured) {
    errs() << "error: " << toString(measured.takeError()) << "\n";
    return 1;
  }
  if (CpuPeak after = probePeak(); after.flopsPerSecond > peak.flopsPerSecond)
    peak = after;
  std::string host = hostCpuName();
  DeviceProfile cpu = measuredCpuProfile(peak, *measured, target, host);
  if (!spec) {
    spec.emplace();
    spec->devices.push_back(cpu);
    spec->links.assign(1, std::vector<LinkProfile>(1));
  } else {
    int at = spec->find(DeviceId{});
    if (at < 0) {
      errs() << "error: --base: " << basePath << " has no cpu device\n";
      return 1;
    }
    cpu.supportedOps = spec->devices[at].supportedOps;
    spec->devices[at] = cpu;
  }
  std::string error;
  auto file = mlir::openOutputFile(outputPath, &error);
  if (!file) {
    errs() << "error: " << error << "\n";
    return 1;
  }
  file->os() << spec->toJson();
  file->keep();
  printMeasurements(peak, *measured, cpu, host, outs());
  outs() << "wrote " << outputPath << " (`dlc compile --device-spec=" << outputPath
         << "` places with it)\n";
  return 0;
}
