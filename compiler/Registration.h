//===- Registration.h - every dlc dialect and pass in one place ------------===//
#ifndef DLC_COMPILER_REGISTRATION_H
#define DLC_COMPILER_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace dlc {
/// The dialects dlc's IR uses: dlc, func, arith, tensor.
void registerAllDlcDialects(mlir::DialectRegistry &registry);
/// Every dlc pass, for dlc-opt's --pass-pipeline and command-line flags.
void registerAllDlcPasses();
} // namespace dlc

#endif // DLC_COMPILER_REGISTRATION_H
