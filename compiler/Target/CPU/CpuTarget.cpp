//===- CpuTarget.cpp - the CPU target description from LLVM and sysfs -----===//

#include "compiler/Target/CPU/CpuTarget.h"
#include "compiler/Target/CPU/CpuPipeline.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <fstream>
#include <map>
#include <memory>
#include <mutex>

using namespace dlc;

namespace {

/// The extensions a description lists, where the target has them.
constexpr const char *kX86Extensions[] = {"sse4.2",   "avx",        "avx2",      "fma",
                                          "f16c",     "avx512f",    "avx512bw",  "avx512vl",
                                          "avx512dq", "avx512vnni", "avx512bf16", "avx512fp16",
                                          "amx-tile", "amx-bf16"};

/// The triple a CPU cross-compiles for when the host's target does not know
/// it but AArch64's does (cortex-a72, neoverse-n1, apple-m1, ...).
constexpr const char *kAArch64Triple = "aarch64-unknown-linux-gnu";

/// Whether the target of `triple` knows the CPU `cpu`.
bool targetKnowsCpu(const std::string &triple, const std::string &cpu) {
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(target->createMCSubtargetInfo(triple, "", ""));
  return subtarget && subtarget->isCPUStringValid(cpu);
}

/// The host's features as an LLVM feature string ("+avx2,-avx512f,...").
std::string hostFeatureString() {
  std::string features;
  for (auto &feature : llvm::sys::getHostCPUFeatures())
    features += (feature.second ? "+" : "-") + feature.getKey().str() + ",";
  return features;
}

/// The opcode of the f32 vector FMA of `bits` on this architecture.
const char *fmaInstruction(const llvm::Triple &triple, int bits) {
  if (triple.isX86())
    return bits == 512 ? "VFMADD231PSZr" : bits == 256 ? "VFMADD231PSYr" : "VFMADD231PSr";
  if (triple.isAArch64())
    return "FMLAv4f32";
  return nullptr;
}

/// Latency and issue rate of the FMA per the CPU's scheduling model.
void readFmaTiming(const llvm::Target &target, const llvm::MCSubtargetInfo &subtarget,
                   const llvm::Triple &triple, CpuTarget &description) {
  const char *name = fmaInstruction(triple, description.vectorBits);
  std::unique_ptr<llvm::MCInstrInfo> instructions(target.createMCInstrInfo());
  if (!name || !instructions)
    return;
  for (unsigned opcode = 0; opcode < instructions->getNumOpcodes(); ++opcode) {
    if (instructions->getName(opcode) != name)
      continue;
    llvm::MCInst fma;
    fma.setOpcode(opcode);
    const llvm::MCSchedModel &model = subtarget.getSchedModel();
    if (!model.hasInstrSchedModel())
      return;
    int latency = model.computeInstrLatency(subtarget, *instructions, fma);
    double reciprocal = model.getReciprocalThroughput(subtarget, *instructions, fma);
    description.fmaLatencyCycles = latency > 0 ? latency : 0;
    description.fmasPerCycle = reciprocal > 0 ? 1.0 / reciprocal : 0;
    return;
  }
}

/// This machine's L1d, L2 and L3 sizes from sysfs (cpu0's caches).
bool readHostCaches(CpuTarget &description) {
  bool any = false;
  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    // (sysfs files claim 4096 bytes and hold fewer: read as streams.)
    auto read = [&](const char *file) -> std::string {
      std::ifstream in(dir + file);
      std::string line;
      std::getline(in, line);
      return llvm::StringRef(line).trim().str();
    };
    std::string level = read("level"), type = read("type"), size = read("size");
    if (level.empty() || size.empty())
      break;
    llvm::StringRef digits(size);
    int64_t scale = digits.consume_back("K") ? 1024 : digits.consume_back("M") ? 1 << 20 : 1;
    int64_t value = 0;
    if (digits.getAsInteger(10, value) || value <= 0)
      continue;
    value *= scale;
    if (level == "1" && type == "Data")
      description.l1dBytes = value, any = true;
    else if (level == "2" && type != "Instruction")
      description.l2Bytes = value, any = true;
    else if (level == "3" && type != "Instruction")
      description.l3Bytes = value, any = true;
  }
  return any;
}

/// This machine's core clock in GHz: cpufreq's maximum (kHz), else the
/// first "cpu MHz" of /proc/cpuinfo (virtual machines often have no
/// cpufreq); 0 when neither says.
double readHostClockGHz() {
  std::ifstream freq("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  double kHz = 0;
  if (freq >> kHz && kHz > 0)
    return kHz / 1e6;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    llvm::StringRef text(line);
    if (!text.starts_with("cpu MHz"))
      continue;
    double mHz = 0;
    if (!text.split(':').second.trim().getAsDouble(mHz) && mHz > 0)
      return mHz / 1e3;
    break;
  }
  return 0;
}

CpuTarget describe(const std::string &requested) {
  initializeTargets();
  CpuTarget description;
  bool native = requested == "native";
  description.cpu = native ? llvm::sys::getHostCPUName().str() : requested;
  description.triple = cpuTargetTriple(description.cpu);
  llvm::Triple triple(description.triple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(description.triple, error);
  if (native) {
    description.cachesMeasured = readHostCaches(description);
    if (double ghz = readHostClockGHz(); ghz > 0)
      description.clockGHz = ghz, description.clockMeasured = true;
  }
  if (!target)
    return description;
  // Asked of the baseline first: a subtarget made with a name LLVM does not
  // know prints a warning of its own.
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(description.triple, "", ""));
  description.known = subtarget && subtarget->isCPUStringValid(description.cpu);
  if (description.known)
    subtarget.reset(target->createMCSubtargetInfo(description.triple, description.cpu,
                                                  native ? hostFeatureString() : ""));
  if (!subtarget)
    return description;
  auto has = [&](const char *feature) {
    return subtarget->checkFeatures(std::string("+") + feature);
  };
  if (triple.isX86()) {
    for (const char *extension : kX86Extensions)
      if (has(extension))
        description.extensions.push_back(extension);
    description.vectorBits = has("avx512f") ? 512 : has("avx") ? 256 : 128;
    description.vectorRegisters = has("avx512f") ? 32 : 16;
  } else if (triple.isAArch64()) {
    for (const char *extension : kAArch64Extensions)
      if (has(extension))
        description.extensions.push_back(extension);
    // SVE's width is known only at run time; its code would be
    // vector-length agnostic. NEON's is 128 bits.
    description.vectorBits = 128;
    description.vectorRegisters = 32;
  }
  // (x86 without FMA3 has no fused multiply-add to time.)
  if (!triple.isX86() || has("fma"))
    readFmaTiming(*target, *subtarget, triple, description);
  return description;
}

std::string formatBytes(int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

} // namespace

bool CpuTarget::has(const std::string &extension) const {
  return llvm::is_contained(extensions, extension);
}

double CpuTarget::peakF32FlopsPerSecond() const {
  return f32Lanes() * 2.0 * (fmasPerCycle > 0 ? fmasPerCycle : 1.0) * clockGHz * 1e9;
}

void CpuTarget::print(llvm::raw_ostream &os) const {
  os << cpu << (known ? "" : " (not a CPU LLVM knows)") << " (" << llvm::Triple(triple).getArchName()
     << "): " << vectorRegisters << " x " << vectorBits << "-bit vector registers";
  for (auto [i, extension] : llvm::enumerate(extensions))
    os << (i ? " " : ", ") << extension;
  os << "; FMA ";
  if (fmaLatencyCycles > 0)
    os << "latency " << fmaLatencyCycles << ", " << llvm::format("%.3g", fmasPerCycle) << "/cycle";
  else
    os << "timing unknown (no FMA, or none in LLVM's model)";
  os << "; L1d " << formatBytes(l1dBytes) << ", L2 " << formatBytes(l2Bytes) << ", L3 "
     << formatBytes(l3Bytes) << (cachesMeasured ? " (this machine)" : " (assumed)");
  os << "; " << llvm::format("%.2f", clockGHz) << " GHz"
     << (clockMeasured ? " (this machine)" : " (assumed)") << ", f32 peak "
     << llvm::format("%.0f", peakF32FlopsPerSecond() / 1e9) << " GFLOP/s per core";
}

std::string dlc::unknownCpuMessage(llvm::StringRef cpu) {
  return ("unknown target CPU '" + cpu +
          "' (try an LLVM CPU name such as x86-64-v3, znver4 or native)")
      .str();
}

void dlc::initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Cross-compiling for AArch64 (--cpu=neoverse-n1); Debian's LLVM has it.
    LLVMInitializeAArch64TargetInfo();
    LLVMInitializeAArch64Target();
    LLVMInitializeAArch64TargetMC();
    LLVMInitializeAArch64AsmPrinter();
  });
}

std::string dlc::cpuTargetTriple(llvm::StringRef cpu) {
  initializeTargets();
  std::string host = llvm::sys::getDefaultTargetTriple();
  if (cpu == "native" || llvm::Triple(host).isAArch64() || targetKnowsCpu(host, cpu.str()))
    return host;
  return targetKnowsCpu(kAArch64Triple, cpu.str()) ? kAArch64Triple : host;
}

const CpuTarget &dlc::describeCpuTarget(const CpuTargetOptions &options) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<CpuTarget>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<CpuTarget> &entry = cache[options.cpu];
  if (!entry)
    entry = std::make_unique<CpuTarget>(describe(options.cpu));
  return *entry;
}

cpu::KernelTiles dlc::cpuKernelTiles(const CpuTargetOptions &options) {
  if (options.tiles)
    return *options.tiles;
  const CpuTarget &target = describeCpuTarget(options);
  cpu::KernelTiles tiles = cpu::kernelTilesFor(target.vectorBits, target.vectorRegisters,
                                               target.l1dBytes,
                                               {target.fmaLatencyCycles, target.fmasPerCycle});
  tiles.blockBytes = std::max<int64_t>(target.l2Bytes / 8, 16 << 10);
  return tiles;
}

std::optional<cpu::KernelTiles> dlc::parseKernelTiles(llvm::StringRef spec, cpu::KernelTiles base,
                                                      std::string &error) {
  auto [rowsText, columnsText] = spec.split('x');
  int64_t rows = 0, columns = 0;
  if (rowsText.getAsInteger(10, rows) || columnsText.getAsInteger(10, columns) ||
      rows < 1 || rows > cpu::kMaxTileRows || columns < cpu::kTileColumnStep ||
      columns > cpu::kMaxTileColumns || columns % cpu::kTileColumnStep != 0) {
    error = "expected ROWSxCOLUMNS with rows 1.." + std::to_string(cpu::kMaxTileRows) +
            " and columns a multiple of " + std::to_string(cpu::kTileColumnStep) + " up to " +
            std::to_string(cpu::kMaxTileColumns) + ", got '" + spec.str() + "'";
    return std::nullopt;
  }
  base.matmul = {rows, columns};
  base.pixelRow = {rows, columns, std::min(base.pixelRow.steadyPixels, rows)};
  return base;
}
