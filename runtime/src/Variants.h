//===- Variants.h - which variant of a multi-target artifact to run -------===//
//
// A multi-target artifact (format 0.7, `dlc compile --cpu=A,B` or
// `--cpu=portable`) holds one whole model per target CPU. The runtime runs
// the variant this machine can run that needs the most CPU features: the
// most specialised one (x86-64-v4 over x86-64-v3 over x86-64). A machine that
// runs none gets an error saying why each does not, never SIGILL.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_VARIANTS_H
#define DLC_RUNTIME_VARIANTS_H

#include <string>
#include <vector>

namespace dlc::rt {

struct VariantTarget {
  std::string triple;                // empty: no CPU code
  std::string cpu;                   // "x86-64-v4"
  std::vector<std::string> features; // what its code needs (LLVM spelling)
};

/// "x86_64" on x86-64 hosts, "aarch64" on AArch64 ones, "" elsewhere.
const char *hostCpuArch();

/// Why a machine of architecture `arch` with CPU features `have` cannot run
/// `target`; empty when it can.
std::string whyVariantCannotRun(const VariantTarget &target, const std::string &arch,
                                const std::vector<std::string> &have);

/// The index of the variant to run: of those whyVariantCannotRun accepts,
/// the one needing the most features (the first on a tie). -1 when none
/// fits; `why` then says, for each variant, why not.
int chooseVariant(const std::vector<VariantTarget> &variants, const std::string &arch,
                  const std::vector<std::string> &have, std::string &why);

/// "avx2,fma" -> {"avx2", "fma"} (empty items dropped).
std::vector<std::string> splitFeatureList(const std::string &list);

} // namespace dlc::rt

#endif // DLC_RUNTIME_VARIANTS_H
