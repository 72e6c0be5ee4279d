//===- CpuTarget.h - what the CPU code generator knows of its target ------===//
//
// One description of the CPU the kernels are compiled for, made from
// `--cpu` (an LLVM CPU name, x86-64-v3, or "native"), from which the
// kernels' shapes are derived (kernelTilesFor, CpuTiles.h) instead of from
// constants that held on one machine:
//
//   - vector width and register count: from the target's features (LLVM's
//     subtarget: avx512f -> 32 x 512-bit, avx -> 16 x 256-bit, ...);
//   - vector FMA latency and issue rate: from LLVM's scheduling model of the
//     CPU (the instruction a register tile's inner step is made of);
//   - cache sizes and clock: this machine's (sysfs, /proc/cpuinfo) for
//     "native", else assumed defaults, marked as such.
//
// `dlc compile --describe-cpu` prints it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_TARGET_CPU_CPUTARGET_H
#define DLC_COMPILER_TARGET_CPU_CPUTARGET_H

#include "compiler/Target/CPU/CpuTiles.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlc {

struct CpuTargetOptions;

struct CpuTarget {
  std::string triple;
  /// The LLVM CPU name (the host's name for "native").
  std::string cpu;
  /// Whether `cpu` is one LLVM knows (an unknown name is an error when code
  /// is generated; the description then holds the baseline's figures).
  bool known = true;
  /// The vector extensions of interest the target has, LLVM's spelling
  /// (avx2, fma, avx512f, avx512bf16, avx512fp16, neon, sve, ...).
  std::vector<std::string> extensions;
  int vectorBits = 128;
  int vectorRegisters = 16;
  /// Of the f32 vector FMA at `vectorBits` (vfmadd231ps, fmla), per LLVM's
  /// scheduling model; 0 where the model has no figure.
  int fmaLatencyCycles = 0;
  double fmasPerCycle = 0;
  int64_t l1dBytes = 32 << 10, l2Bytes = 1 << 20, l3Bytes = 32 << 20;
  /// Whether the cache sizes were read from this machine (else assumed).
  bool cachesMeasured = false;
  /// The core clock: this machine's (cpufreq's maximum, else /proc/cpuinfo)
  /// for "native", else an assumed 3 GHz.
  double clockGHz = 3.0;
  bool clockMeasured = false;

  bool has(const std::string &extension) const;
  int f32Lanes() const { return vectorBits / 32; }
  /// One core's f32 FMA peak: lanes x 2 FLOPs x FMAs per cycle (1 where
  /// the scheduling model has no figure) x clock. An estimate: the probe
  /// (`dlc probe-devices`) measures it.
  double peakF32FlopsPerSecond() const;
  /// One line: "znver3 (x86_64): 16 x 256-bit vector registers, avx2 fma;
  /// FMA latency 4, 2/cycle; L1d 32 KiB, L2 512 KiB, L3 8 MiB (this machine)".
  void print(llvm::raw_ostream &os) const;
};

/// The AArch64 extensions a description lists and a library records (the
/// runtime's CpuFeatures.cpp knows each, from the kernel's hwcaps).
inline constexpr const char *kAArch64Extensions[] = {"neon", "fullfp16", "bf16", "dotprod",
                                                     "i8mm", "sve",      "sve2"};

/// f16 and bf16 run widened to f32 (F16C) on the CPU: about a third slower
/// than f32, the ratio every CPU profile (built-in or probed) uses.
constexpr double kCpuHalfToF32Rate = 2.0 / 3.0;

/// "unknown target CPU 'CPU' (try an LLVM CPU name such as ...)": what every
/// tool says of a CPU name LLVM does not know.
std::string unknownCpuMessage(llvm::StringRef cpu);

/// Registers the host's LLVM target and AArch64's (cross-compiling); once.
void initializeTargets();

/// The triple code for `cpu` is generated for: the host's for "native" and
/// for CPUs the host's target knows; "aarch64-unknown-linux-gnu" for a CPU
/// only AArch64 knows (cortex-a72, neoverse-n1: a cross-compile).
std::string cpuTargetTriple(llvm::StringRef cpu);

/// The description of `options.cpu`. Cached per CPU name (thread-safe).
const CpuTarget &describeCpuTarget(const CpuTargetOptions &options);

/// The kernels' shapes for `options.cpu`: kernelTilesFor(describeCpuTarget),
/// or `options.tiles` where set.
cpu::KernelTiles cpuKernelTiles(const CpuTargetOptions &options);

/// `spec` ("6x16": rows x columns) as the matmul and pixel-row tiles over
/// `base`; an error names what is wrong with it.
std::optional<cpu::KernelTiles> parseKernelTiles(llvm::StringRef spec, cpu::KernelTiles base,
                                                 std::string &error);

} // namespace dlc

#endif // DLC_COMPILER_TARGET_CPU_CPUTARGET_H
