//===- MultiTarget.cpp - one artifact with a variant per target CPU --------===//

#include "compiler/Driver/MultiTarget.h"
#include "compiler/Driver/CompilePipeline.h"
#include "compiler/Target/CPU/CpuTarget.h"

#include "ArtifactWriter.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace dlc;

std::vector<std::string> dlc::portableCpus(llvm::StringRef arch) {
  if (arch == "x86_64")
    return {"x86-64-v4", "x86-64-v3", "x86-64"};
  return {"generic"};
}

llvm::Expected<std::vector<std::string>> dlc::parseTargetCpus(llvm::StringRef value) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  llvm::SmallVector<llvm::StringRef> items;
  value.split(items, ',');
  std::vector<std::string> cpus;
  auto add = [&](const std::string &cpu) {
    if (llvm::find(cpus, cpu) == cpus.end())
      cpus.push_back(cpu);
  };
  for (llvm::StringRef item : items) {
    item = item.trim();
    if (item.empty())
      return fail("--cpu: an empty name in '" + value + "' (expected CPU names separated by commas)");
    if (item == "portable") {
      llvm::Triple host(llvm::sys::getDefaultTargetTriple());
      for (const std::string &cpu : portableCpus(host.getArchName()))
        add(cpu);
      continue;
    }
    CpuTargetOptions target;
    target.cpu = item.str();
    if (!describeCpuTarget(target).known)
      return fail(unknownCpuMessage(item));
    add(item.str());
  }
  return cpus;
}

mlir::FailureOr<std::string> dlc::compileForTargets(mlir::ModuleOp module,
                                                    const CompileOptions &options,
                                                    const std::vector<std::string> &cpus) {
  std::vector<std::string> artifacts;
  std::vector<artifact_writer::TargetArtifact> targets;
  artifacts.reserve(cpus.size());
  mlir::TimingScope *timing = options.codegen.timing;
  for (const std::string &cpu : cpus) {
    CompileOptions variant = options;
    variant.codegen.cpu.cpu = cpu;
    if (&cpu != &cpus.front()) { // The reports are the first variant's.
      variant.dumpPlacement.clear();
      variant.printPlacement = false;
    }
    mlir::TimingScope scope = timing ? timing->nest("variant " + cpu) : mlir::TimingScope();
    variant.codegen.timing = timing ? &scope : nullptr;
    mlir::OwningOpRef<mlir::ModuleOp> copy(module.clone());
    mlir::FailureOr<std::string> bytes = compileModule(*copy, variant);
    if (mlir::failed(bytes))
      return mlir::failure();
    artifacts.push_back(std::move(*bytes));
    targets.push_back({artifacts.back(), cpu});
  }
  std::string error;
  std::string bytes = artifact_writer::serializeMultiTarget(
      targets, kArtifactProducer, error);
  if (bytes.empty())
    return module.emitError() << "cannot write the multi-target artifact: " << error;
  return bytes;
}
