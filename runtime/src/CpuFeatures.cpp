//===- CpuFeatures.cpp - cpuid against a table of LLVM feature names ------===//

#include "CpuFeatures.h"

#include <algorithm>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define DLC_X86 1
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#define DLC_AARCH64 1
#endif

namespace dlc::rt {

namespace {

enum Reg { EAX, EBX, ECX, EDX };
// OS state a feature needs besides its cpuid bit (XCR0 bits).
enum class OsState { None, Avx, Avx512, Amx };

struct Feature {
  const char *name; // LLVM's spelling.
  unsigned leaf, subleaf;
  Reg reg;
  unsigned bit;
  OsState os;
};

// Intel SDM vol. 2A, CPUID; AMD APM vol. 3 for the 0x80000001 leaf.
constexpr Feature kFeatures[] = {
    {"x87", 1, 0, EDX, 0, OsState::None},
    {"cx8", 1, 0, EDX, 8, OsState::None},
    {"cmov", 1, 0, EDX, 15, OsState::None},
    {"mmx", 1, 0, EDX, 23, OsState::None},
    {"fxsr", 1, 0, EDX, 24, OsState::None},
    {"sse", 1, 0, EDX, 25, OsState::None},
    {"sse2", 1, 0, EDX, 26, OsState::None},
    {"sse3", 1, 0, ECX, 0, OsState::None},
    {"pclmul", 1, 0, ECX, 1, OsState::None},
    {"ssse3", 1, 0, ECX, 9, OsState::None},
    {"fma", 1, 0, ECX, 12, OsState::Avx},
    {"cx16", 1, 0, ECX, 13, OsState::None},
    {"sse4.1", 1, 0, ECX, 19, OsState::None},
    {"sse4.2", 1, 0, ECX, 20, OsState::None},
    {"crc32", 1, 0, ECX, 20, OsState::None},
    {"movbe", 1, 0, ECX, 22, OsState::None},
    {"popcnt", 1, 0, ECX, 23, OsState::None},
    {"aes", 1, 0, ECX, 25, OsState::None},
    {"xsave", 1, 0, ECX, 26, OsState::None},
    {"avx", 1, 0, ECX, 28, OsState::Avx},
    {"f16c", 1, 0, ECX, 29, OsState::Avx},
    {"rdrnd", 1, 0, ECX, 30, OsState::None},
    {"fsgsbase", 7, 0, EBX, 0, OsState::None},
    {"bmi", 7, 0, EBX, 3, OsState::None},
    {"avx2", 7, 0, EBX, 5, OsState::Avx},
    {"bmi2", 7, 0, EBX, 8, OsState::None},
    {"invpcid", 7, 0, EBX, 10, OsState::None},
    {"avx512f", 7, 0, EBX, 16, OsState::Avx512},
    {"evex512", 7, 0, EBX, 16, OsState::Avx512}, // Implied by avx512f here.
    {"avx512dq", 7, 0, EBX, 17, OsState::Avx512},
    {"rdseed", 7, 0, EBX, 18, OsState::None},
    {"adx", 7, 0, EBX, 19, OsState::None},
    {"avx512ifma", 7, 0, EBX, 21, OsState::Avx512},
    {"clflushopt", 7, 0, EBX, 23, OsState::None},
    {"clwb", 7, 0, EBX, 24, OsState::None},
    {"avx512cd", 7, 0, EBX, 28, OsState::Avx512},
    {"sha", 7, 0, EBX, 29, OsState::None},
    {"avx512bw", 7, 0, EBX, 30, OsState::Avx512},
    {"avx512vl", 7, 0, EBX, 31, OsState::Avx512},
    {"avx512vbmi", 7, 0, ECX, 1, OsState::Avx512},
    {"pku", 7, 0, ECX, 3, OsState::None},
    {"avx512vbmi2", 7, 0, ECX, 6, OsState::Avx512},
    {"gfni", 7, 0, ECX, 8, OsState::None},
    {"vaes", 7, 0, ECX, 9, OsState::Avx},
    {"vpclmulqdq", 7, 0, ECX, 10, OsState::Avx},
    {"avx512vnni", 7, 0, ECX, 11, OsState::Avx512},
    {"avx512bitalg", 7, 0, ECX, 12, OsState::Avx512},
    {"avx512vpopcntdq", 7, 0, ECX, 14, OsState::Avx512},
    {"rdpid", 7, 0, ECX, 22, OsState::None},
    {"movdiri", 7, 0, ECX, 27, OsState::None},
    {"movdir64b", 7, 0, ECX, 28, OsState::None},
    {"avx512vp2intersect", 7, 0, EDX, 8, OsState::Avx512},
    {"serialize", 7, 0, EDX, 14, OsState::None},
    {"amx-bf16", 7, 0, EDX, 22, OsState::Amx},
    {"avx512fp16", 7, 0, EDX, 23, OsState::Avx512},
    {"amx-tile", 7, 0, EDX, 24, OsState::Amx},
    {"amx-int8", 7, 0, EDX, 25, OsState::Amx},
    {"avxvnni", 7, 1, EAX, 4, OsState::Avx},
    {"avx512bf16", 7, 1, EAX, 5, OsState::Avx512},
    {"xsaveopt", 0xd, 1, EAX, 0, OsState::None},
    {"xsavec", 0xd, 1, EAX, 1, OsState::None},
    {"xsaves", 0xd, 1, EAX, 3, OsState::None},
    {"sahf", 0x80000001, 0, ECX, 0, OsState::None},
    {"lzcnt", 0x80000001, 0, ECX, 5, OsState::None},
    {"sse4a", 0x80000001, 0, ECX, 6, OsState::None},
    {"prfchw", 0x80000001, 0, ECX, 8, OsState::None},
    {"xop", 0x80000001, 0, ECX, 11, OsState::Avx},
    {"fma4", 0x80000001, 0, ECX, 16, OsState::Avx},
    {"tbm", 0x80000001, 0, ECX, 21, OsState::None},
    {"64bit", 0x80000001, 0, EDX, 29, OsState::None},
};

// AArch64: the kernel's hwcaps (Linux arch/arm64/include/uapi/asm/hwcap.h),
// in LLVM's spelling. `word` 1 is AT_HWCAP, 2 is AT_HWCAP2.
struct AArch64Feature {
  const char *name;
  int word;
  unsigned bit;
};
constexpr AArch64Feature kAArch64Features[] = {
    {"neon", 1, 1},      // HWCAP_ASIMD
    {"fullfp16", 1, 10}, // HWCAP_ASIMDHP
    {"dotprod", 1, 20},  // HWCAP_ASIMDDP
    {"sve", 1, 22},      // HWCAP_SVE
    {"sve2", 2, 1},      // HWCAP2_SVE2
    {"i8mm", 2, 13},     // HWCAP2_I8MM
    {"bf16", 2, 14},     // HWCAP2_BF16
};

#ifdef DLC_X86
bool cpuidBit(unsigned leaf, unsigned subleaf, Reg reg, unsigned bit) {
  unsigned r[4] = {0, 0, 0, 0};
  unsigned maxLeaf = __get_cpuid_max(leaf & 0x80000000u, nullptr);
  if (maxLeaf < leaf)
    return false;
  __cpuid_count(leaf, subleaf, r[EAX], r[EBX], r[ECX], r[EDX]);
  return (r[reg] >> bit) & 1;
}

/// XCR0: which register state the OS saves (AVX: 0x6, AVX-512: 0xe6,
/// AMX: bits 17-18). Zero when XGETBV is not available (no OSXSAVE).
uint64_t xcr0() {
  if (!cpuidBit(1, 0, ECX, 27))
    return 0;
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t(hi) << 32) | lo;
}

std::vector<std::string> detect() {
  uint64_t x = xcr0();
  bool avx = (x & 0x6) == 0x6;
  bool avx512 = avx && (x & 0xe0) == 0xe0;
  bool amx = (x & 0x60000) == 0x60000;
  std::vector<std::string> out;
  for (const Feature &f : kFeatures) {
    bool osOk = f.os == OsState::None || (f.os == OsState::Avx && avx) ||
                (f.os == OsState::Avx512 && avx512) ||
                (f.os == OsState::Amx && amx);
    if (osOk && cpuidBit(f.leaf, f.subleaf, f.reg, f.bit))
      out.push_back(f.name);
  }
  return out;
}
#elif defined(DLC_AARCH64)
std::vector<std::string> detect() {
  unsigned long words[3] = {0, getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
  std::vector<std::string> out;
  for (const AArch64Feature &f : kAArch64Features)
    if ((words[f.word] >> f.bit) & 1)
      out.push_back(f.name);
  return out;
}
#else
std::vector<std::string> detect() { return {}; }
#endif

} // namespace

std::vector<std::string> knownCpuFeatures() {
  std::vector<std::string> out;
  for (const Feature &f : kFeatures)
    out.push_back(f.name);
  for (const AArch64Feature &f : kAArch64Features)
    out.push_back(f.name);
  return out;
}

bool isKnownCpuFeature(const std::string &name) {
  for (const Feature &f : kFeatures)
    if (name == f.name)
      return true;
  for (const AArch64Feature &f : kAArch64Features)
    if (name == f.name)
      return true;
  return false;
}

const std::vector<std::string> &hostCpuFeatures() {
  static const std::vector<std::string> features = detect();
  return features;
}

std::string checkCpuFeatures(const std::vector<std::string> &needed,
                             const std::vector<std::string> &have) {
  for (const std::string &name : needed) {
    if (!isKnownCpuFeature(name))
      return "needs CPU feature '" + name +
             "', which this runtime does not know";
    if (std::find(have.begin(), have.end(), name) == have.end())
      return "needs CPU feature '" + name + "', which this CPU lacks";
  }
  return "";
}

} // namespace dlc::rt
