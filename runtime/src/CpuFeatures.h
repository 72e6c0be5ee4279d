//===- CpuFeatures.h - which CPU features this machine has -------------===//
//
// Libraries list the features their code was compiled for, in LLVM's
// spelling ("avx2", "fma", "avx512f"). Loading one on a CPU that lacks a
// feature would end in SIGILL; the runtime refuses it instead, and refuses
// names it does not know (it cannot vouch for them).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_CPUFEATURES_H
#define DLC_RUNTIME_CPUFEATURES_H

#include <string>
#include <vector>

namespace dlc::rt {

/// Every feature name the runtime knows, in table order.
std::vector<std::string> knownCpuFeatures();
/// True when `name` is in the table.
bool isKnownCpuFeature(const std::string &name);
/// The known features this CPU (and OS: AVX state saved) supports.
const std::vector<std::string> &hostCpuFeatures();

/// Empty when every feature in `needed` is known and in `have`; otherwise a
/// message naming the first bad feature, e.g. "needs CPU feature 'avx512f',
/// which this CPU lacks".
std::string checkCpuFeatures(const std::vector<std::string> &needed,
                             const std::vector<std::string> &have);

} // namespace dlc::rt

#endif // DLC_RUNTIME_CPUFEATURES_H
