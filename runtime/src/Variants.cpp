//===- Variants.cpp - which variant of a multi-target artifact to run -----===//

#include "Variants.h"
#include "CpuFeatures.h"

namespace dlc::rt {

const char *hostCpuArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "";
#endif
}

std::string whyVariantCannotRun(const VariantTarget &target, const std::string &arch,
                                const std::vector<std::string> &have) {
  std::string targetArch = target.triple.substr(0, target.triple.find('-'));
  if (!target.triple.empty() && targetArch != arch)
    return "is compiled for '" + target.triple + "', not for this machine (" +
           (arch.empty() ? "an unknown architecture" : arch) + ")";
  return checkCpuFeatures(target.features, have);
}

int chooseVariant(const std::vector<VariantTarget> &variants, const std::string &arch,
                  const std::vector<std::string> &have, std::string &why) {
  int best = -1;
  why.clear();
  for (size_t i = 0; i < variants.size(); ++i) {
    std::string reason = whyVariantCannotRun(variants[i], arch, have);
    if (!reason.empty()) {
      why += (why.empty() ? "" : "; ") + std::string("variant ") + std::to_string(i) +
             " (" + variants[i].cpu + ") " + reason;
      continue;
    }
    if (best < 0 || variants[i].features.size() > variants[best].features.size())
      best = static_cast<int>(i);
  }
  if (best >= 0)
    why.clear();
  return best;
}

std::vector<std::string> splitFeatureList(const std::string &list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos)
      end = list.size();
    if (end > start)
      out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

} // namespace dlc::rt
