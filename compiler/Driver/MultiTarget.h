//===- MultiTarget.h - one artifact with a variant per target CPU ----------===//
//
// `dlc compile --cpu=x86-64-v3,x86-64-v4` (or `--cpu=portable`) compiles the
// model once per CPU, each a whole artifact (the CPU target decides the
// placement's CPU profile, the weight packing, the tiles, the schedule and
// the memory plan, so variants differ in more than their code), and writes
// them into one multi-target artifact (format 0.7, runtime/schema/dlcm.fbs)
// from which the runtime loads the variant the machine runs best.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_DRIVER_MULTITARGET_H
#define DLC_COMPILER_DRIVER_MULTITARGET_H

#include "compiler/Driver/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace dlc {

/// What `--cpu=portable` stands for on a host of architecture `arch`
/// ("x86_64": x86-64-v4, x86-64-v3 and the x86-64 baseline, so that every
/// x86-64 machine runs one of them).
std::vector<std::string> portableCpus(llvm::StringRef arch);

/// The CPUs of a `--cpu` value: one name, a comma-separated list, or
/// "portable" (also as an item of a list); duplicates dropped. An error names
/// an empty item or a CPU LLVM does not know.
llvm::Expected<std::vector<std::string>> parseTargetCpus(llvm::StringRef value);

/// Compiles `module` (left as it is) once per CPU of `cpus` with `options`
/// (its placement reports written by the first CPU's compile only) and
/// returns the multi-target artifact's bytes. Diagnostics go to the
/// context's handler; each variant's stages are timed under "variant CPU".
mlir::FailureOr<std::string> compileForTargets(mlir::ModuleOp module, const CompileOptions &options,
                                               const std::vector<std::string> &cpus);

} // namespace dlc

#endif // DLC_COMPILER_DRIVER_MULTITARGET_H
