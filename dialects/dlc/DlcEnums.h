//===- DlcEnums.h - plain enums shared by the dlc dialect's attributes ----===//
#ifndef DLC_DIALECT_DLCENUMS_H
#define DLC_DIALECT_DLCENUMS_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {}

namespace dlc {
// dlc's C++ lives in ::dlc (dialect, passes, compiler) and builds on MLIR
// throughout: MLIR's names are visible unqualified, as CIRCT does for circt::.
using namespace mlir;

/// The device kinds `#dlc.device` accepts: `cpu` and `cuda` (the kinds the
/// artifact has code for) always, and any a backend registered (a test's toy
/// backend, passes/TargetBackend.h). Thread-safe; registering twice is a no-op.
void registerDeviceKind(const std::string &kind);
bool isDeviceKind(const std::string &kind);
/// The registered kinds, `cpu` and `cuda` first, then in registration order.
std::vector<std::string> deviceKinds();
/// "'cpu', 'cuda:N' or 'toy:N'": the spellings an error message offers.
std::string expectedDeviceSpellings(const char *quote);

/// An op kind's treatment under mixed precision (see Fp16PolicyOpInterface).
enum class Fp16Policy : uint32_t { Allow, Deny, Infer, Clear };

const char *stringifyFp16Policy(Fp16Policy policy);

} // namespace dlc

#endif // DLC_DIALECT_DLCENUMS_H
