//===- CpuCodegen.cpp - LLVM dialect to an ELF shared object --------------===//
//
// The LLVM half of the CPU path: translate to LLVM IR, optimise at O3 for the
// target CPU, emit an object file, and link it into a shared object with LLD
// in-process (spawning ld.lld would cost 60-80 ms of start-up alone).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/CpuTarget.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "lld/Common/Driver.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace mlir;

namespace {

/// The x86 features the runtime can check (runtime/src/CpuFeatures). An
/// artifact records those its code was compiled with.
constexpr const char *kCheckedFeatures[] = {
    "sse4.2",   "avx",      "avx2",     "fma",       "f16c",
    "bmi",      "bmi2",     "avx512f",  "avx512bw",  "avx512cd",
    "avx512dq", "avx512vl", "avx512vnni", "avx512bf16", "avx512fp16"};

/// Removes a file when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

LogicalResult emitError(ModuleOp module, const llvm::Twine &message) {
  return module.emitError() << message;
}

/// LLD keeps global state: one link at a time per process.
std::mutex lldMutex;

} // namespace

static void initializeNativeTarget() {
  static std::once_flag initTargets;
  std::call_once(initTargets, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

FailureOr<dlc::CpuLibrary>
dlc::compileCpuLibrary(ModuleOp module, const CpuTargetOptions &options,
                       llvm::raw_ostream *llvmIR, TimingScope *timing) {
  initializeNativeTarget();
  auto stage = [&](StringRef name) { return timing ? timing->nest(name) : TimingScope(); };
  TimingScope translating = stage("CPU kernels: to LLVM IR");

  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "dlc_kernels");
  if (!llvmModule) {
    (void)emitError(module, "cannot translate the kernels to LLVM IR");
    return failure();
  }

  translating.stop();
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    (void)emitError(module, "no LLVM target for " + triple + ": " + error);
    return failure();
  }
  std::string cpu = options.cpu == "native" ? llvm::sys::getHostCPUName().str()
                                            : options.cpu;
  std::string features;
  if (options.cpu == "native") {
    llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
    for (auto &feature : hostFeatures)
      features += (feature.second ? "+" : "-") + feature.getKey().str() + ",";
  }
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine || !machine->getMCSubtargetInfo()->isCPUStringValid(cpu)) {
    (void)emitError(module, unknownCpuMessage(cpu));
    return failure();
  }
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(triple);

  // O3, as clang would run it.
  {
    TimingScope optimising = stage("CPU kernels: LLVM O3");
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder builder(machine.get());
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
        .run(*llvmModule, mam);
  }
  if (llvmIR)
    llvmModule->print(*llvmIR, nullptr);

  // Object code, in memory, then a file for LLD.
  llvm::SmallVector<char, 0> object;
  {
    TimingScope emitting = stage("CPU kernels: machine code");
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                     llvm::CodeGenFileType::ObjectFile)) {
      (void)emitError(module, "the target cannot emit object files");
      return failure();
    }
    codegen.run(*llvmModule);
  }

  TempFile objectFile, libraryFile;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("dlc-kernels", "o", fd, objectFile.path) ||
      llvm::sys::fs::createTemporaryFile("dlc-kernels", "so", libraryFile.path)) {
    (void)emitError(module, "cannot create temporary files for linking");
    return failure();
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
  }

  TimingScope linking = stage("CPU kernels: link");
  std::string linkLog;
  llvm::raw_string_ostream linkStream(linkLog);
  bool linked;
  {
    std::lock_guard<std::mutex> lock(lldMutex);
    // libm for what the math approximations leave as calls.
    std::vector<const char *> args = {
        "ld.lld", "-shared", "--no-undefined", "-o", libraryFile.path.c_str(),
        objectFile.path.c_str(), "-L/usr/lib/x86_64-linux-gnu",
        "-L/lib/x86_64-linux-gnu", "--as-needed", "-lm", "-lc"};
    lld::Result result =
        lld::lldMain(args, linkStream, linkStream, {{lld::Gnu, &lld::elf::link}});
    linked = result.retCode == 0 && result.canRunAgain;
  }
  if (!linked) {
    (void)emitError(module, "linking the CPU kernels failed:\n" + linkLog);
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getFile(libraryFile.path);
  if (!buffer) {
    (void)emitError(module, "cannot read the linked shared object");
    return failure();
  }

  CpuLibrary library;
  library.sharedObject = (*buffer)->getBuffer().str();
  library.targetTriple = triple;
  library.targetCpu = cpu;
  const llvm::MCSubtargetInfo *subtarget = machine->getMCSubtargetInfo();
  for (const char *feature : kCheckedFeatures)
    if (subtarget->checkFeatures(std::string("+") + feature))
      library.cpuFeatures.push_back(feature);
  return library;
}
