//===- CpuCodegen.cpp - LLVM dialect to an ELF shared object --------------===//
//
// The LLVM half of the CPU path: translate to LLVM IR, optimise at O3 for the
// target CPU, emit an object file, and link it into a shared object with LLD
// in-process (spawning ld.lld would cost 60-80 ms of start-up alone).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/CpuTarget.h"
#include "compiler/Target/CPU/LlvmPassTimes.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "lld/Common/Driver.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"
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
#include "llvm/TargetParser/Triple.h"

#include <atomic>
#include <cstdlib>
#include <optional>
#include <system_error>
#include <mutex>
#include <thread>
#include <unistd.h>

LLD_HAS_DRIVER(elf)

using namespace mlir;

namespace {

/// The features the runtime can check (runtime/src/CpuFeatures), per
/// architecture. An artifact records those its code was compiled with.
constexpr const char *kCheckedX86Features[] = {
    "sse4.2",   "avx",      "avx2",     "fma",       "f16c",
    "bmi",      "bmi2",     "avx512f",  "avx512bw",  "avx512cd",
    "avx512dq", "avx512vl", "avx512vnni", "avx512bf16", "avx512fp16"};
// AArch64's: every extension its target description lists (CpuTarget.h).

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

/// reparseOptionsAfterLinking's arguments (guarded by lldMutex).
std::vector<std::string> argumentsToReparse;

void restoreOptionsAfterLinking() {
  if (argumentsToReparse.empty())
    return;
  std::vector<const char *> argv;
  for (const std::string &arg : argumentsToReparse)
    argv.push_back(arg.c_str());
  llvm::cl::ResetAllOptionOccurrences();
  llvm::cl::ParseCommandLineOptions(argv.size(), argv.data(), "", &llvm::nulls());
}

} // namespace


namespace {
/// O3 as clang runs it, then machine code into `object`; with `times`,
/// LLVM's passes are timed into it (--time-stages).
LogicalResult optimizeAndEmit(llvm::Module &module, llvm::TargetMachine &machine,
                              llvm::raw_ostream *llvmIR, llvm::SmallVector<char, 0> &object,
                              dlc::cpu::LlvmPassTimes *times) {
  module.setDataLayout(machine.createDataLayout());
  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassInstrumentationCallbacks callbacks;
    if (times)
      times->instrument(callbacks);
    llvm::PassBuilder builder(&machine, llvm::PipelineTuningOptions(), std::nullopt, &callbacks);
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, mam);
  }
  if (llvmIR)
    module.print(*llvmIR, nullptr);
  llvm::raw_svector_ostream os(object);
  auto codegen = std::make_unique<llvm::legacy::PassManager>();
  if (machine.addPassesToEmitFile(*codegen, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    return failure();
  codegen->run(module);
  if (times)
    times->keep(std::move(codegen));
  return success();
}

/// The defined globals `gv` refers to (through constant expressions too).
void referencedGlobals(const llvm::GlobalValue &gv, llvm::SmallVectorImpl<const llvm::GlobalValue *> &out) {
  llvm::SmallVector<const llvm::Value *> work;
  llvm::SmallPtrSet<const llvm::Value *, 32> seen;
  if (auto *f = llvm::dyn_cast<llvm::Function>(&gv))
    for (const llvm::Instruction &inst : llvm::instructions(*f))
      for (const llvm::Value *operand : inst.operands())
        work.push_back(operand);
  if (auto *g = llvm::dyn_cast<llvm::GlobalVariable>(&gv); g && g->hasInitializer())
    work.push_back(g->getInitializer());
  while (!work.empty()) {
    const llvm::Value *v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto *global = llvm::dyn_cast<llvm::GlobalValue>(v)) {
      if (!global->isDeclaration())
        out.push_back(global);
    } else if (auto *constant = llvm::dyn_cast<llvm::Constant>(v)) {
      for (const llvm::Value *operand : constant->operands())
        work.push_back(operand);
    }
  }
}

/// A constant only this module sees (the bufferization's globals: one per
/// value, shared by the kernels that use it), or a small local function
/// that refers to no local definition (dlc_scratch_alloc, which every
/// kernel with a temporary calls): copied into each part rather than tying
/// those kernels together (a copy no one calls is dropped by O3).
bool isLocalConstant(const llvm::GlobalValue *gv) {
  if (!gv->hasLocalLinkage() || gv->isDeclaration())
    return false;
  if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(gv))
    return var->isConstant();
  auto *f = llvm::dyn_cast<llvm::Function>(gv);
  if (!f || f->getInstructionCount() > 64)
    return false;
  llvm::SmallVector<const llvm::GlobalValue *> refs;
  referencedGlobals(*f, refs);
  return llvm::none_of(refs, [](const llvm::GlobalValue *r) { return r->hasLocalLinkage(); });
}

/// `module` in at most `parts` modules of about equal size: a defined global
/// goes with every local global it refers to (a kernel with its parallel
/// bodies; local constants are copied), so each part links without renaming and
/// inlines as the whole module would; the groups are dealt largest first to
/// the smallest part. Other parts see a global as a declaration.
std::vector<std::unique_ptr<llvm::Module>> splitByKernel(llvm::Module &module, unsigned parts) {
  std::vector<const llvm::GlobalValue *> defined;
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> index;
  for (const llvm::GlobalValue &gv : module.global_values())
    if (!gv.isDeclaration()) {
      index[&gv] = defined.size();
      defined.push_back(&gv);
    }
  llvm::EquivalenceClasses<unsigned> groups;
  for (unsigned i = 0; i < defined.size(); ++i) {
    groups.insert(i);
    llvm::SmallVector<const llvm::GlobalValue *> refs;
    referencedGlobals(*defined[i], refs);
    for (const llvm::GlobalValue *ref : refs)
      if (ref->hasLocalLinkage() && index.count(ref) && !isLocalConstant(ref))
        groups.unionSets(i, index.lookup(ref));
  }
  // Each group's size, then largest first onto the smallest part.
  std::vector<std::pair<uint64_t, unsigned>> sizes; // (instructions, leader)
  llvm::DenseMap<unsigned, uint64_t> sizeOf;
  for (unsigned i = 0; i < defined.size(); ++i) {
    auto *f = llvm::dyn_cast<llvm::Function>(defined[i]);
    sizeOf[groups.getLeaderValue(i)] += f ? f->getInstructionCount() + 1 : 1;
  }
  for (auto [leader, size] : sizeOf)
    sizes.push_back({size, leader});
  llvm::sort(sizes, [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  parts = std::min<unsigned>(parts, sizes.size());
  std::vector<uint64_t> load(parts, 0);
  llvm::DenseMap<unsigned, unsigned> partOf; // leader -> part
  for (auto [size, leader] : sizes) {
    unsigned smallest = std::min_element(load.begin(), load.end()) - load.begin();
    partOf[leader] = smallest;
    load[smallest] += size;
  }
  std::vector<std::unique_ptr<llvm::Module>> result;
  for (unsigned p = 0; p < parts; ++p) {
    llvm::ValueToValueMapTy map;
    result.push_back(llvm::CloneModule(module, map, [&](const llvm::GlobalValue *gv) {
      if (isLocalConstant(gv))
        return true; // every part its copy (unused ones are dropped by O3)
      auto it = index.find(gv);
      return it != index.end() && partOf.lookup(groups.getLeaderValue(it->second)) == p;
    }));
  }
  return result;
}

/// How many parts the kernels' code is generated in (at most).
constexpr unsigned kCodegenParts = 8;
/// How many of LLVM's passes --time-stages lists (the slowest).
constexpr unsigned kLlvmPassesShown = 12;

/// The kernels' object code: the module split into parts (each kernel with
/// the internal functions it calls, so inlining is as in one module), each
/// optimised and emitted in a context of its own (LLVM's are not shared
/// between threads) by a pool of one thread per core. One part when the IR
/// is printed (--emit=llvm) or there is one kernel.
LogicalResult generateObjects(llvm::Module &module, llvm::TargetMachine &machine,
                              llvm::function_ref<std::unique_ptr<llvm::TargetMachine>()> newMachine,
                              llvm::raw_ostream *llvmIR, llvm::raw_ostream *progress,
                              dlc::cpu::LlvmPassTimes *times,
                              std::vector<llvm::SmallVector<char, 0>> &objects) {
  unsigned functions = 0;
  for (llvm::Function &f : module)
    functions += !f.isDeclaration() && !f.hasLocalLinkage();
  // A fixed number of parts, whatever the machine: the artifact's bytes do
  // not depend on the cores it was compiled on.
  unsigned parts = std::min(kCodegenParts, functions);
  if (llvmIR || parts <= 1) {
    objects.resize(1);
    return optimizeAndEmit(module, machine, llvmIR, objects[0], times);
  }
  std::vector<std::string> bitcode;
  for (std::unique_ptr<llvm::Module> &part : splitByKernel(module, parts)) {
    llvm::raw_string_ostream os(bitcode.emplace_back());
    llvm::WriteBitcodeToFile(*part, os);
  }
  objects.resize(bitcode.size());
  std::vector<std::unique_ptr<llvm::TargetMachine>> machines;
  for (size_t i = 0; i < bitcode.size(); ++i)
    machines.push_back(newMachine());
  std::atomic<bool> ok{true};
  std::atomic<size_t> next{0};
  std::atomic<unsigned> finished{0};
  auto work = [&] {
    for (size_t i; (i = next++) < bitcode.size();) {
      llvm::LLVMContext context;
      llvm::Expected<std::unique_ptr<llvm::Module>> part =
          llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode[i], "part"), context);
      if (!part) {
        llvm::consumeError(part.takeError());
        ok = false;
      } else if (!machines[i] || failed(optimizeAndEmit(**part, *machines[i], nullptr, objects[i], times))) {
        ok = false;
      }
      dlc::reportProgress(progress, "parts of machine code", ++finished, bitcode.size());
    }
  };
  // The caller works too; a thread that cannot start leaves its share to it.
  unsigned helpers = std::min(std::max(1u, std::thread::hardware_concurrency()), parts) - 1;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < helpers; ++t) {
    try {
      threads.emplace_back(work);
    } catch (const std::system_error &) {
      break;
    }
  }
  work();
  for (std::thread &thread : threads)
    thread.join();
  return success(ok.load());
}
/// What the kernels of `triple` link against: the C and math libraries of
/// that architecture (the host's, or Debian's cross libc for AArch64 from
/// g++-aarch64-linux-gnu, in $DLC_AARCH64_SYSROOT/lib, default
/// /usr/aarch64-linux-gnu) and its libgcc.a, which holds the calls LLVM's
/// code makes where the CPU lacks an instruction (f16 <-> f32 without F16C:
/// __extendhfsf2, __truncsfhf2). libgcc's paths are found when dlc is built.
FailureOr<std::vector<std::string>> linkLibraries(ModuleOp module, const llvm::Triple &triple) {
  std::vector<std::string> args;
  std::string libgcc;
  if (triple.isX86() && triple.isArch64Bit()) {
    args = {"-L/usr/lib/x86_64-linux-gnu", "-L/lib/x86_64-linux-gnu"};
    libgcc = DLC_LIBGCC_X86_64;
  } else if (triple.isAArch64()) {
    const char *sysroot = std::getenv("DLC_AARCH64_SYSROOT");
    std::string libDir = std::string(sysroot && *sysroot ? sysroot : "/usr/aarch64-linux-gnu") + "/lib";
    if (!llvm::sys::fs::is_directory(libDir))
      return emitError(module, "linking kernels for " + triple.str() + " needs the AArch64 C " +
                                   "library at " + libDir +
                                   " (Debian's libc6-dev-arm64-cross, which tools/setup.sh installs; "
                                   "or set DLC_AARCH64_SYSROOT)");
    args = {"-m", "aarch64linux", std::string("-L") + libDir};
    libgcc = DLC_LIBGCC_AARCH64;
  } else {
    return emitError(module, "dlc links kernels for x86_64 and aarch64 Linux, not " + triple.str());
  }
  if (!libgcc.empty() && llvm::sys::fs::exists(libgcc))
    args.push_back(libgcc);
  for (const char *arg : {"--as-needed", "-lm", "-lc"})
    args.push_back(arg);
  return args;
}

/// The objects linked by LLD into one shared object for `triple`.
FailureOr<std::string> linkSharedObject(ModuleOp module, const llvm::Triple &triple,
                                        const std::vector<llvm::SmallVector<char, 0>> &objects) {
  FailureOr<std::vector<std::string>> libraries = linkLibraries(module, triple);
  if (failed(libraries))
    return failure();
  std::vector<TempFile> objectFiles(objects.size());
  TempFile libraryFile;
  int fd;
  for (auto [file, object] : llvm::zip(objectFiles, objects)) {
    if (llvm::sys::fs::createTemporaryFile("dlc-kernels", "o", fd, file.path))
      return emitError(module, "cannot create temporary files for linking");
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
  }
  if (llvm::sys::fs::createTemporaryFile("dlc-kernels", "so", fd, libraryFile.path))
    return emitError(module, "cannot create temporary files for linking");
  ::close(fd);
  std::string linkLog;
  llvm::raw_string_ostream linkStream(linkLog);
  bool linked;
  {
    std::lock_guard<std::mutex> lock(lldMutex);
    std::vector<const char *> args = {"ld.lld", "-shared", "--no-undefined", "-o",
                                      libraryFile.path.c_str()};
    for (TempFile &file : objectFiles)
      args.push_back(file.path.c_str());
    for (const std::string &arg : *libraries)
      args.push_back(arg.c_str());
    lld::Result result =
        lld::lldMain(args, linkStream, linkStream, {{lld::Gnu, &lld::elf::link}});
    linked = result.retCode == 0 && result.canRunAgain;
    restoreOptionsAfterLinking();
  }
  if (!linked)
    return emitError(module, "linking the CPU kernels failed:\n" + linkLog);
  auto buffer = llvm::MemoryBuffer::getFile(libraryFile.path);
  if (!buffer)
    return emitError(module, "cannot read the linked shared object");
  return (*buffer)->getBuffer().str();
}
/// What makes a target machine for the kernels (one per thread).
struct TargetRecipe {
  const llvm::Target *target = nullptr;
  std::string triple, cpu, features;
  std::unique_ptr<llvm::TargetMachine> create() const {
    return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
        triple, cpu, features, llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt,
        llvm::CodeGenOptLevel::Aggressive));
  }
};

/// The target of `options.cpu` (native: the host's CPU and features; a CPU
/// only AArch64 knows: a cross-compile, cpuTargetTriple).
FailureOr<TargetRecipe> targetRecipe(ModuleOp module, const dlc::CpuTargetOptions &options) {
  TargetRecipe recipe;
  recipe.triple = dlc::cpuTargetTriple(options.cpu);
  std::string error;
  recipe.target = llvm::TargetRegistry::lookupTarget(recipe.triple, error);
  if (!recipe.target)
    return emitError(module, "no LLVM target for " + recipe.triple + ": " + error);
  recipe.cpu = options.cpu == "native" ? llvm::sys::getHostCPUName().str() : options.cpu;
  if (options.cpu == "native")
    for (auto &feature : llvm::sys::getHostCPUFeatures())
      recipe.features += (feature.second ? "+" : "-") + feature.getKey().str() + ",";
  return recipe;
}
} // namespace

FailureOr<dlc::CpuLibrary>
dlc::compileCpuLibrary(ModuleOp module, const CpuTargetOptions &options,
                       llvm::raw_ostream *llvmIR, TimingScope *timing,
                       llvm::raw_ostream *progress) {
  dlc::initializeTargets();
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
  FailureOr<TargetRecipe> recipe = targetRecipe(module, options);
  if (failed(recipe))
    return failure();
  std::unique_ptr<llvm::TargetMachine> machine = recipe->create();
  if (!machine || !machine->getMCSubtargetInfo()->isCPUStringValid(recipe->cpu)) {
    (void)emitError(module, unknownCpuMessage(recipe->cpu));
    return failure();
  }
  const std::string &triple = recipe->triple, &cpu = recipe->cpu;
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(triple);

  TimingScope generating = stage("CPU kernels: LLVM O3 and machine code");
  std::vector<llvm::SmallVector<char, 0>> objects;
  auto newMachine = [&] { return recipe->create(); };
  std::optional<cpu::LlvmPassTimes> passTimes;
  if (timing)
    passTimes.emplace();
  if (failed(generateObjects(*llvmModule, *machine, newMachine, llvmIR, progress,
                             passTimes ? &*passTimes : nullptr, objects)))
    return emitError(module, "the target cannot emit object files");
  generating.stop();
  if (passTimes)
    passTimes->print(llvm::errs(), kLlvmPassesShown);

  TimingScope linking = stage("CPU kernels: link");
  FailureOr<std::string> sharedObject =
      linkSharedObject(module, llvm::Triple(triple), objects);
  if (failed(sharedObject))
    return failure();
  linking.stop();

  CpuLibrary library;
  library.sharedObject = std::move(*sharedObject);
  library.targetTriple = triple;
  library.targetCpu = cpu;
  const llvm::MCSubtargetInfo *subtarget = machine->getMCSubtargetInfo();
  llvm::ArrayRef<const char *> checked = llvm::Triple(triple).isAArch64()
                                              ? llvm::ArrayRef(kAArch64Extensions)
                                              : llvm::ArrayRef(kCheckedX86Features);
  for (const char *feature : checked)
    if (subtarget->checkFeatures(std::string("+") + feature))
      library.cpuFeatures.push_back(feature);
  return library;
}

void dlc::reparseOptionsAfterLinking(int argc, char **argv) {
  std::lock_guard<std::mutex> lock(lldMutex);
  argumentsToReparse.assign(argv, argv + argc);
}
