//===- DlcEnums.h - plain enums shared by the dlc dialect's attributes ----===//
#ifndef DLC_DIALECT_DLCENUMS_H
#define DLC_DIALECT_DLCENUMS_H

#include <cstdint>

namespace mlir {}

namespace dlc {
// dlc's C++ lives in ::dlc (dialect, passes, compiler) and builds on MLIR
// throughout: MLIR's names are visible unqualified, as CIRCT does for circt::.
using namespace mlir;

/// The kinds of logical device an op can be placed on.
enum class DeviceKind : uint32_t { Cpu = 0, Cuda = 1 };

/// An op kind's treatment under mixed precision (see Fp16PolicyOpInterface).
enum class Fp16Policy : uint32_t { Allow, Deny, Infer, Clear };

const char *stringifyFp16Policy(Fp16Policy policy);

} // namespace dlc

#endif // DLC_DIALECT_DLCENUMS_H
