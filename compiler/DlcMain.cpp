//===- DlcMain.cpp - the `dlc` command ------------------------------------===//
//
// The `dlc` command: each subcommand's flags, turned into the options of the
// code that does the work (compiler/Driver: the compile pipeline, the
// interpreter's inputs and outputs; compiler/Import/ONNX; runtime/tools).
// `dlc` alone prints the commands. Every error names the file (with
// line:col for IR problems) and exits non-zero.
//
//===----------------------------------------------------------------------===//

#include "compiler/Commands.h"
#include "compiler/CompareReference.h"
#include "compiler/Driver/ArtifactFile.h"
#include "compiler/Driver/CompilePipeline.h"
#include "compiler/Driver/InterpreterIO.h"
#include "compiler/Driver/MultiTarget.h"
#include "compiler/DlcOptMain.h"
#include "compiler/Registration.h"
#include "compiler/Target/CPU/CpuTarget.h"
#include "Interpreter/Interpreter.h"
#include "Interpreter/Npy.h"
#include "compiler/Import/ONNX/OnnxImporter.h"
#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/PlacementReport.h"

#include "dialects/dlc/DlcOps.h"
#include "RuntimeTools.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/Timing.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

constexpr const char *kUsage =
    "usage: dlc <command> [options]\n"
    "\n"
    "commands:\n"
    "  compile MODEL.mlir|MODEL.onnx  compile a model into an artifact (.dlcm)\n"
    "  run MODEL.dlcm         run an artifact (the same as dlc-run)\n"
    "  inspect MODEL.dlcm     show an artifact: variants, devices, signature, kernels, steps, memory\n"
    "  verify MODEL.mlir      parse and verify a model, print a summary\n"
    "  import MODEL.onnx      import an ONNX model into the dlc dialect (.mlir)\n"
    "  interpret MODEL.mlir   run a model with the reference interpreter\n"
    "  target [--cpu=CPU]     describe a target CPU and the kernel tiles made for it\n"
    "  probe-devices SPEC.json  measure this CPU running dlc's kernels; write a device spec\n"
    "\n"
    "`dlc <command> --help` lists a command's options.\n";

/// Parses and verifies `path`; diagnostics carry file:line:col.
OwningOpRef<ModuleOp> loadModule(MLIRContext &context, llvm::StringRef path) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(path, &error);
  if (!file) {
    llvm::errs() << "error: " << error << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  // parseSourceFile verifies the module too.
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// --input-shape=NAME=DIMS, --max-dim=NAME=N and --bind=NAME=FILE.npy into
/// import options.
bool parseImportFlags(llvm::ArrayRef<std::string> shapes, llvm::ArrayRef<std::string> maxDims,
                      llvm::ArrayRef<std::string> binds, bool raise,
                      ::dlc::OnnxImportOptions &options) {
  options.raisePatterns = raise;
  for (const std::string &spec : maxDims) {
    size_t eq = spec.rfind('=');
    long long bound = 0;
    if (eq == std::string::npos || eq == 0 ||
        llvm::StringRef(spec).substr(eq + 1).getAsInteger(10, bound) || bound < 1) {
      llvm::errs() << "error: --max-dim expects NAME=N (a dim_param and its largest value, "
                      "e.g. batch=64), got '"
                   << spec << "'\n";
      return false;
    }
    options.maxDims[spec.substr(0, eq)] = bound;
  }
  for (const std::string &spec : shapes) {
    size_t eq = spec.rfind('=');
    std::vector<int64_t> dims;
    // "?x3x224x224": dim 0 is the symbolic batch (-1), bounded by --max-dim.
    std::string text = eq == std::string::npos ? "" : spec.substr(eq + 1);
    bool symbolic = llvm::StringRef(text).starts_with("?x");
    if (symbolic)
      text = "1" + text.substr(1);
    if (eq == std::string::npos || eq == 0 || !::dlc::parseShapeSpec(text, dims)) {
      llvm::errs() << "error: --input-shape expects NAME=DIMS (e.g. x=1x3x224x224, or "
                      "x=?x3x224x224 with --max-dim=batch=N), got '"
                   << spec << "'\n";
      return false;
    }
    if (symbolic)
      dims[0] = -1;
    options.inputShapes[spec.substr(0, eq)] = dims;
  }
  for (const std::string &spec : binds) {
    size_t eq = spec.rfind('=');
    if (eq == std::string::npos || eq == 0) {
      llvm::errs() << "error: --bind expects NAME=FILE.npy, got '" << spec << "'\n";
      return false;
    }
    ::dlc::ref::Expected<::dlc::ref::Tensor> tensor = ::dlc::ref::readNpy(spec.substr(eq + 1));
    if (!tensor) {
      llvm::errs() << "error: --bind " << spec.substr(0, eq) << ": " << tensor.message() << "\n";
      return false;
    }
    options.bindings[spec.substr(0, eq)] = std::move(*tensor);
  }
  return true;
}

/// An ONNX model through the importer (errors: "error: PATH: message").
OwningOpRef<ModuleOp> importModel(MLIRContext &context, llvm::StringRef path,
                                  const ::dlc::OnnxImportOptions &options) {
  std::string error;
  OwningOpRef<ModuleOp> module = ::dlc::importOnnxFile(context, path, options, error);
  if (!module)
    llvm::errs() << "error: " << path << ": " << error << "\n";
  return module;
}

bool isOnnxPath(llvm::StringRef path) { return path.ends_with(".onnx"); }

void setUpContext(MLIRContext &context) {
  // A diagnostic names the op and its location; dumping the op adds only noise.
  context.printOpOnDiagnostic(false);
  DialectRegistry registry;
  ::dlc::registerAllDlcDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

func::FuncOp findEntry(ModuleOp module, llvm::StringRef path,
                       llvm::StringRef name) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func)
    llvm::errs() << "error: " << path << ": no function @" << name
                 << " in the model (choose one with --entry)\n";
  return func;
}

/// `dlc target`: the CPU target description (CpuTarget.h) and the tiles
/// derived from it, as `dlc compile --cpu=CPU` would use them.
int targetCommand(int argc, char **argv) {
  cl::OptionCategory category{"dlc target options"};
  cl::opt<std::string> cpu{"cpu",
                           cl::desc("native (this machine's, the default) or an LLVM CPU name"),
                           cl::init("native"), cl::cat(category)};
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv, "dlc target: describe a target CPU\n"))
    return 2;
  ::dlc::CpuTargetOptions options;
  options.cpu = cpu;
  const ::dlc::CpuTarget &target = ::dlc::describeCpuTarget(options);
  if (!target.known) {
    llvm::errs() << "error: " << ::dlc::unknownCpuMessage(target.cpu) << "\n";
    return 1;
  }
  ::dlc::cpu::KernelTiles tiles = ::dlc::cpuKernelTiles(options);
  llvm::outs() << "cpu: ";
  target.print(llvm::outs());
  llvm::outs() << "\ntiles: matmul " << tiles.matmul.rows << "x" << tiles.matmul.columns
               << ", pixel-row convolution " << tiles.pixelRow.pixels << "x"
               << tiles.pixelRow.filters << " (latency-bound below "
               << tiles.pixelRow.steadyPixels << " pixels), panel prefetch "
               << tiles.prefetchAheadBytes / 1024 << " KiB ahead, window taps shifted in "
               << "registers on rows up to " << tiles.shiftedRowFloats << " floats, blocked "
               << "matmuls pack B " << tiles.blockBytes / 1024 << " KiB at a time, tile K loops "
               << tiles.tileLoopUnroll << " steps a turn, strided 1x1 convolutions as im2col from "
               << tiles.stridedIm2colPixels << " output pixels\n";
  return 0;
}

int verifyCommand(int argc, char **argv) {
  cl::OptionCategory category("dlc verify options");
  cl::opt<std::string> model(cl::Positional, cl::Required,
                             cl::desc("<model.mlir>"), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "dlc verify: parse and verify a model\n");

  MLIRContext context;
  setUpContext(context);
  OwningOpRef<ModuleOp> module = loadModule(context, model);
  if (!module)
    return 1;
  llvm::StringMap<int> opCounts;
  int ops = 0, pinned = 0;
  module->walk([&](Operation *op) {
    if (!isa<dlc::DlcDialect>(op->getDialect()))
      return;
    ++ops;
    ++opCounts[op->getName().stripDialect()];
    if (dlc::getDevicePin(op) && !isa<dlc::CopyOp>(op))
      ++pinned;
  });
  int64_t flops = 0;
  module->walk([&](dlc::CostOpInterface op) { flops += op.getFlops(); });
  llvm::outs() << model << ": ok, " << ops << " dlc ops (" << pinned
               << " pinned), " << llvm::format("%.3f", flops / 1e9)
               << " GFLOP per run\n";
  std::vector<std::string> names;
  for (auto &entry : opCounts)
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  for (const std::string &name : names)
    llvm::outs() << "  " << name << " x" << opCounts[name] << "\n";
  return 0;
}

int interpretCommand(int argc, char **argv) {
  cl::OptionCategory category("dlc interpret options");
  cl::opt<std::string> model(cl::Positional, cl::Required,
                             cl::desc("<model.mlir>"), cl::cat(category));
  cl::list<std::string> inputFiles(
      "input", cl::desc("An input as NAME=FILE.npy (NAME: the argument's "
                        "dlc.name, or argN)"),
      cl::value_desc("NAME=FILE.npy"), cl::cat(category));
  cl::opt<bool> randomInputs(
      "random-inputs",
      cl::desc("Fill the inputs not given with --input with deterministic "
               "values in [-1, 1)"),
      cl::cat(category));
  cl::opt<uint64_t> seed("seed", cl::desc("Seed of --random-inputs"),
                         cl::init(1), cl::cat(category));
  cl::opt<std::string> outputDir(
      "output-dir", cl::desc("Write every output as NAME.npy into DIR"),
      cl::value_desc("DIR"), cl::cat(category));
  cl::opt<std::string> entry("entry", cl::desc("The function to run"),
                             cl::init("main"), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv, "dlc interpret: run a model with the reference interpreter\n");

  MLIRContext context;
  setUpContext(context);
  OwningOpRef<ModuleOp> module = loadModule(context, model);
  if (!module)
    return 1;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  func::FuncOp func = findEntry(*module, model, entry);
  if (!func)
    return 1;

  std::vector<::dlc::ref::Tensor> inputs;
  if (!::dlc::interpreterInputs(func, entry, std::vector<std::string>(inputFiles.begin(), inputFiles.end()),
                         randomInputs, seed, inputs))
    return 1;

  FailureOr<std::vector<::dlc::ref::Tensor>> outputs =
      ::dlc::interpretFunction(func, inputs);
  if (failed(outputs))
    return 1;
  return ::dlc::writeInterpretedOutputs(func, *outputs, outputDir) ? 0 : 1;
}

int importCommand(int argc, char **argv) {
  cl::OptionCategory category("dlc import options");
  cl::opt<std::string> model(cl::Positional, cl::Required, cl::desc("<model.onnx>"),
                             cl::cat(category));
  cl::opt<std::string> output("o", cl::desc("The .mlir file to write (default: stdout)"),
                              cl::value_desc("model.mlir"), cl::init("-"), cl::cat(category));
  cl::list<std::string> shapes(
      "input-shape", cl::desc("NAME=DIMS: the static shape of an input with dynamic "
                              "dimensions (e.g. x=1x3x224x224; repeatable)"),
      cl::value_desc("NAME=DIMS"), cl::cat(category));
  cl::list<std::string> binds(
      "bind", cl::desc("NAME=FILE.npy: make a graph input a constant (shapes, axes)"),
      cl::value_desc("NAME=FILE.npy"), cl::cat(category));
  cl::list<std::string> maxDims(
      "max-dim", cl::desc("NAME=N: a dim_param of the inputs' dim 0 as a symbolic batch of "
                          "at most N (the compiler's kernels are per unit of it; not "
                          "runnable yet)"),
      cl::value_desc("NAME=N"), cl::cat(category));
  cl::opt<bool> noRaise("no-raise",
                        cl::desc("Keep LayerNorm/GELU/Linear decompositions as exported"),
                        cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "dlc import: an ONNX model to the dlc dialect\n");
  ::dlc::OnnxImportOptions options;
  if (!parseImportFlags(shapes, maxDims, binds, !noRaise, options))
    return 1;
  MLIRContext context;
  setUpContext(context);
  OwningOpRef<ModuleOp> module = importModel(context, model, options);
  if (!module)
    return 1;
  std::string error;
  auto out = openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  // Locations are the ONNX node names: print them, they are what --pin matches.
  OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(out->os(), flags);
  out->os() << "\n";
  out->keep();
  return 0;
}

/// dlc compile's flags. cl::opt registers them while they live; LLD, linked
/// in-process, resets every registered option when it runs, so they are
/// copied into a CompileOptions before anything is compiled.
struct CompileFlags {
  cl::OptionCategory category{"dlc compile options"};
  cl::opt<std::string> model{cl::Positional, cl::Required,
                             cl::desc("<model.mlir>"), cl::cat(category)};
  cl::opt<std::string> output{"o", cl::desc("The artifact to write"),
                              cl::value_desc("model.dlcm"), cl::cat(category)};
  cl::opt<std::string> cpu{
      "cpu",
      cl::desc("Target CPU: native (this machine's, the default) or an LLVM "
               "CPU name such as x86-64-v3 or znver4; several, separated by commas, "
               "or portable (x86-64-v4,x86-64-v3,x86-64): one artifact with a "
               "variant per CPU, the runtime loads the best one the machine runs"),
      cl::init("native"), cl::cat(category)};
  cl::opt<std::string> kernelTiles{
      "kernel-tiles",
      cl::desc("Tuning experiments: the CPU register tile ROWSxCOLUMNS (matmul and "
               "pixel-row convolution) instead of the one derived from --cpu "
               "(`dlc target` shows it)"),
      cl::Hidden, cl::cat(category)};
  cl::opt<std::string> emit{
      "emit",
      cl::desc("Print an intermediate stage instead of writing an artifact: "
               "mlir (the outlined kernels), llvm (the optimised LLVM IR), "
               "cuda (the GPU kernels' CUDA C++) or ptx (NVRTC's PTX of them)"),
      cl::value_desc("mlir|llvm|cuda|ptx"), cl::cat(category)};
  // GPU code (compiler/Target/CUDA/README.md).
  cl::list<std::string> cudaArchs{
      "cuda-arch",
      cl::desc("GPU architectures the CUDA kernels are compiled for: a CUBIN each, "
               "PTX for the lowest (default sm_90; e.g. sm_80,sm_90)"),
      cl::CommaSeparated, cl::value_desc("sm_NN"), cl::cat(category)};
  cl::opt<bool> noCuda{
      "no-cuda",
      cl::desc("GPU kernels get host code only (simulated GPUs): no CUDA code, no NVRTC"),
      cl::cat(category)};
  cl::opt<std::string> gpuHostCode{
      "gpu-host-code",
      cl::desc("What simulated GPUs run: llvm (the CPU path's code of the same ops, the "
               "default) or emulated (the CUDA kernels in a host emulation of CUDA)"),
      cl::value_desc("llvm|emulated"), cl::init("llvm"), cl::cat(category)};
  cl::opt<std::string> entry{"entry", cl::desc("The function to compile"),
                             cl::init("main"), cl::cat(category)};
  // Placement (passes/README.md). Any of these runs dlc-place and
  // dlc-insert-copies first; --emit=mlir then prints the placed IR.
  cl::opt<std::string> devices{"devices", cl::desc("Logical devices: cpu,cuda:0,..."),
                               cl::value_desc("LIST"), cl::cat(category)};
  cl::opt<std::string> placement{
      "placement", cl::desc("cost (default) | cpu | gpu | pipeline:N | data-parallel:N"),
      cl::cat(category)};
  cl::list<std::string> pins{
      "pin", cl::desc("REGEX=DEVICE: ops whose name matches go to DEVICE (repeatable)"),
      cl::cat(category)};
  cl::opt<std::string> deviceSpec{"device-spec", cl::desc("A JSON device spec"),
                                  cl::value_desc("FILE.json"), cl::cat(category)};
  cl::opt<std::string> fallback{
      "fallback", cl::desc("An op its device cannot run: cpu (default) or error"),
      cl::cat(category)};
  cl::opt<std::string> dumpPlacement{
      "dump-placement", cl::desc("Write the placement to FILE.txt, .json or .dot"),
      cl::value_desc("FILE"), cl::cat(category)};
  cl::opt<bool> printPlacement{"print-placement",
                               cl::desc("Print the placement table on stderr"),
                               cl::cat(category)};
  cl::opt<std::string> placementFrom{
      "placement-from",
      cl::desc("Reuse a placement dump (JSON, possibly edited) as the placement"),
      cl::value_desc("DUMP.json"), cl::cat(category)};
  // Mixed precision (passes/README.md): after placement, before the copies.
  cl::opt<std::string> precisionFlag{
      "precision", cl::desc("fp32 (default) | mixed (GPU ops by fp16 policy) | fp16"),
      cl::cat(category)};
  cl::opt<std::string> ioPrecision{
      "io-precision", cl::desc("fp32 (default) | fp16: the inputs' and outputs' type"),
      cl::cat(category)};
  cl::list<std::string> fp16Allow{
      "fp16-allow", cl::desc("Op kinds to treat as fp16-allow (comma-separated)"),
      cl::CommaSeparated, cl::cat(category)};
  cl::list<std::string> fp16Deny{
      "fp16-deny", cl::desc("Op kinds to keep in fp32 (comma-separated)"),
      cl::CommaSeparated, cl::cat(category)};
  cl::list<std::string> calibrate{
      "calibrate",
      cl::desc("NAME=FILE.npy: run in fp32 first, keep ops fp16 cannot hold in fp32, "
               "report each op's error (repeatable)"),
      cl::value_desc("NAME=FILE.npy"), cl::cat(category)};
  cl::list<std::string> shapes{
      "input-shape", cl::desc("ONNX: NAME=DIMS for an input with dynamic dimensions"),
      cl::value_desc("NAME=DIMS"), cl::cat(category)};
  cl::list<std::string> maxDims{
      "max-dim", cl::desc("ONNX: NAME=N makes dim_param NAME (dim 0 of the inputs, or a dim "
                          "after dims of 1: a sequence) a size known at run time, at most N: "
                          "one artifact runs any size from 1 to N"),
      cl::value_desc("NAME=N"), cl::cat(category)};
  cl::list<std::string> binds{
      "bind", cl::desc("ONNX: NAME=FILE.npy makes a graph input a constant"),
      cl::value_desc("NAME=FILE.npy"), cl::cat(category)};
  cl::opt<int> testDropEventWait{
      "test-drop-event-wait", cl::Hidden, cl::init(-1),
      cl::desc("Test only: leave out the K-th WaitEvent of the schedule"),
      cl::cat(category)};
  cl::opt<bool> timeStages{
      "time-stages",
      cl::desc("Print where the compile's time went: each pass of the pipeline, and in the "
               "artifact stage the kernels' lowering, LLVM's optimisation, machine code and linking"),
      cl::cat(category)};
  cl::opt<std::string> progress{
      "progress", cl::init("auto"),
      cl::desc("Progress lines on stderr (kernels lowered, parts of machine code): auto (when "
               "stderr is a terminal), always or never"),
      cl::cat(category)};
  cl::opt<bool> testNoVerifySchedule{
      "test-no-verify-schedule", cl::Hidden,
      cl::desc("Test only: write the artifact without proving its schedule"),
      cl::cat(category)};
};

/// The flags' checks that need no model, each error naming its flag; the
/// CPUs of --cpu (one, or a list: a variant each) into `cpus`.
bool checkCompileFlags(const CompileFlags &f, std::vector<std::string> &cpus) {
  auto fail = [](const llvm::Twine &message) {
    llvm::errs() << "error: " << message << "\n";
    return false;
  };
  if (f.devices.getNumOccurrences() && f.devices.empty())
    return fail("--devices: no devices given (expected e.g. cpu,cuda:0)");
  llvm::StringRef emit = f.emit;
  if (!emit.empty() && emit != "mlir" && emit != "llvm" && emit != "cuda" && emit != "ptx")
    return fail("--emit expects mlir, llvm, cuda or ptx, got '" + emit + "'");
  if (f.progress != "auto" && f.progress != "always" && f.progress != "never")
    return fail("--progress expects auto, always or never, got '" + f.progress + "'");
  if (emit.empty() && f.output.empty())
    return fail("no output: pass -o model.dlcm (or --emit=mlir|llvm)");
  llvm::Expected<std::vector<std::string>> parsed = ::dlc::parseTargetCpus(f.cpu);
  if (!parsed)
    return fail(llvm::toString(parsed.takeError()));
  cpus = std::move(*parsed);
  if (cpus.size() > 1 && !emit.empty())
    return fail("--emit=" + emit + " prints one target's code: give --cpu one CPU, not '" +
                f.cpu + "'");
  if (cpus.size() > 1 && !f.kernelTiles.empty())
    return fail("--kernel-tiles is one target's tile: give --cpu one CPU, not '" + f.cpu + "'");
  return true;
}

/// The placement and precision flags as options (copied: see CompileFlags).
::dlc::CompileOptions placementOptionsFrom(const CompileFlags &f) {
  ::dlc::CompileOptions options;
  options.entry = f.entry;
  options.devices = f.devices;
  options.policy = f.placement;
  options.pins.assign(f.pins.begin(), f.pins.end());
  options.deviceSpecPath = f.deviceSpec;
  options.fallback = f.fallback;
  options.placementFrom = f.placementFrom;
  options.dumpPlacement = f.dumpPlacement;
  options.printPlacement = f.printPlacement;
  options.precision = f.precisionFlag;
  options.ioPrecision = f.ioPrecision;
  options.fp16Allow.assign(f.fp16Allow.begin(), f.fp16Allow.end());
  options.fp16Deny.assign(f.fp16Deny.begin(), f.fp16Deny.end());
  options.calibrate.assign(f.calibrate.begin(), f.calibrate.end());
  options.modelLabel = f.model;
  return options;
}

/// The flags as options (copied: see CompileFlags); --emit=llvm into `llvmIR`.
llvm::Expected<::dlc::CompileOptions> compileOptionsFrom(const CompileFlags &f,
                                                         llvm::StringRef cpu,
                                                         llvm::raw_ostream &llvmIR) {
  auto flagError = [](llvm::Error error) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--" + llvm::toString(std::move(error)));
  };
  ::dlc::CompileOptions options = placementOptionsFrom(f);
  ::dlc::CodegenOptions &codegen = options.codegen;
  codegen.entry = f.entry;
  // The first CPU; a list is compiled a variant at a time (runCompile).
  codegen.cpu.cpu = cpu.str();
  if (!f.kernelTiles.empty())
    if (llvm::Error error = options.setKernelTiles(f.kernelTiles))
      return flagError(std::move(error));
  if (llvm::Error error = options.setGpuHostCode(f.gpuHostCode))
    return flagError(std::move(error));
  codegen.cuda = !f.noCuda;
  // Asked for GPU code explicitly: no NVRTC is then an error, not a warning.
  codegen.cudaRequired = !f.cudaArchs.empty() || f.emit == "ptx";
  if (!f.cudaArchs.empty())
    codegen.cudaArchs.assign(f.cudaArchs.begin(), f.cudaArchs.end());
  codegen.testDropEventWait = f.testDropEventWait;
  codegen.testSkipScheduleVerification = f.testNoVerifySchedule;
  if (f.progress == "always" || (f.progress == "auto" && llvm::errs().is_displayed()))
    codegen.progress = &llvm::errs();
  // --emit=mlir prints the placed IR when placement ran, else the kernels;
  // the other --emit kinds print what the codegen stage makes, and stop.
  const bool placing = options.placementRequested() || options.precisionRequested();
  if (!f.emit.empty())
    options.stopAfter = ::dlc::CompileStage::Codegen;
  if (f.emit == "mlir" && placing)
    options.stopAfter = ::dlc::CompileStage::Copies;
  if (f.emit == "mlir" && !placing)
    codegen.emitKernels = &llvm::outs();
  if (f.emit == "llvm")
    codegen.emitLLVM = &llvmIR;
  if (f.emit == "cuda")
    codegen.emitCuda = &llvm::outs();
  if (f.emit == "ptx")
    codegen.emitPtx = &llvm::outs();
  return options;
}

/// Loads the model and runs the pipeline: prints the IR when it stops before
/// the artifact, prints what --emit asked for (`emitted`), or writes the
/// artifact to `outputPath`.
/// (The paths are copies: the flags they came from are reset by LLD.)
/// With `timing`, each stage's time goes into it (--time-stages).
int runCompile(::dlc::CompileOptions options, const std::vector<std::string> &cpus,
               const std::string modelPath, const ::dlc::OnnxImportOptions &importOptions,
               bool emitting, const std::string &emitted, const std::string outputPath,
               TimingScope *timing) {
  MLIRContext context;
  setUpContext(context);
  TimingScope loading = timing ? timing->nest("load the model") : TimingScope();
  OwningOpRef<ModuleOp> module = isOnnxPath(modelPath)
                                     ? importModel(context, modelPath, importOptions)
                                     : loadModule(context, modelPath);
  loading.stop();
  if (!module)
    return 1;
  options.codegen.timing = timing;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  FailureOr<std::string> artifact = cpus.size() > 1
                                        ? ::dlc::compileForTargets(*module, options, cpus)
                                        : ::dlc::compileModule(*module, options);
  if (failed(artifact))
    return 1;
  if (emitting && options.stopAfter == ::dlc::CompileStage::Codegen) {
    llvm::outs() << emitted;
    return 0;
  }
  if (options.stopAfter != ::dlc::CompileStage::Artifact) {
    module->print(llvm::outs());
    llvm::outs() << "\n";
    return 0;
  }
  TimingScope writing = timing ? timing->nest("write the artifact") : TimingScope();
  if (llvm::Error error = ::dlc::writeArtifactFile(outputPath, *artifact)) {
    llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}

int compileCommand(int argc, char **argv) {
  CompileFlags flags;
  cl::HideUnrelatedOptions(flags.category);
  cl::ParseCommandLineOptions(argc, argv, "dlc compile: a model to an artifact (.dlcm)\n");
  ::dlc::OnnxImportOptions importOptions;
  std::vector<std::string> cpus;
  if (!parseImportFlags(flags.shapes, flags.maxDims, flags.binds, /*raise=*/true, importOptions) ||
      !checkCompileFlags(flags, cpus))
    return 1;
  std::string llvmIR;
  llvm::raw_string_ostream llvmStream(llvmIR);
  llvm::Expected<::dlc::CompileOptions> parsed =
      compileOptionsFrom(flags, cpus.front(), llvmStream);
  if (!parsed) {
    llvm::errs() << "error: " << llvm::toString(parsed.takeError()) << "\n";
    return 1;
  }
  ::dlc::CompileOptions options = std::move(*parsed);
  if (llvm::Error error = options.check()) {
    llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  if (!flags.timeStages)
    return runCompile(options, cpus, flags.model, importOptions, !flags.emit.empty(), llvmIR,
                      flags.output, nullptr);
  // MLIR's timing report (a tree on stderr, printed as the manager goes).
  DefaultTimingManager timingManager;
  timingManager.setEnabled(true);
  timingManager.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
  TimingScope root = timingManager.getRootScope();
  return runCompile(options, cpus, flags.model, importOptions, !flags.emit.empty(), llvmIR,
                    flags.output, &root);
}

/// `dlc run A.dlcm --compare-reference=MODEL [--compare-tolerance=R]
/// [dlc-run options]`: runs the artifact with --dump-steps, then compares
/// every step's output with the reference interpreter on MODEL, with the
/// same inputs (CompareReference.h).
/// `dlc run --compare-reference=MODEL ...`: dlc-run's flags, with the
/// comparison's own taken out.
struct CompareRunFlags {
  std::string source, dumpDir, entry = "main";
  double tolerance = 0;
  std::vector<std::string> runArgs, inputFiles;
  uint64_t seed = 1;
};

/// 0, or the exit status of a bad flag (2, with its message printed).
int parseCompareRunFlags(int argc, char **argv, CompareRunFlags &f) {
  f.runArgs = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto value = [&](llvm::StringRef flag, std::string &out) {
      if (arg.consume_front(("--" + flag + "=").str())) {
        out = arg.str();
        return true;
      }
      if (arg == ("--" + flag).str() && i + 1 < argc) {
        out = argv[++i];
        return true;
      }
      return false;
    };
    std::string v;
    if (value("compare-reference", f.source) || value("compare-entry", f.entry))
      continue;
    if (value("compare-tolerance", v)) {
      if (llvm::StringRef(v).getAsDouble(f.tolerance) || !(f.tolerance > 0)) {
        llvm::errs() << "error: --compare-tolerance expects a positive number, got '" << v
                     << "'\n";
        return 2;
      }
      continue;
    }
    // Flags dlc-run shares: passed on, normalised to --flag=value.
    bool dump = value("dump-steps", f.dumpDir), input = !dump && value("input", v);
    bool seeded = !dump && !input && value("seed", v);
    if (input)
      f.inputFiles.push_back(v);
    if (seeded && llvm::StringRef(v).getAsInteger(10, f.seed)) {
      llvm::errs() << "error: --seed expects a number, got '" << v << "'\n";
      return 2;
    }
    if (dump || input || seeded)
      f.runArgs.push_back("--" + std::string(dump ? "dump-steps" : input ? "input" : "seed") +
                          "=" + (dump ? f.dumpDir : v));
    else
      f.runArgs.push_back(argv[i]);
  }
  if (f.source.empty()) {
    llvm::errs() << "error: --compare-reference expects the model the artifact was "
                    "compiled from (.mlir or .onnx)\n";
    return 2;
  }
  return 0;
}

/// Interprets the model the artifact was compiled from on the run's inputs
/// and compares every step dumped in `f.dumpDir` with it.
int compareDumpedSteps(const CompareRunFlags &f) {
  MLIRContext context;
  setUpContext(context);
  ::dlc::OnnxImportOptions onnx;
  onnx.raisePatterns = true;
  OwningOpRef<ModuleOp> module =
      isOnnxPath(f.source) ? importModel(context, f.source, onnx) : loadModule(context, f.source);
  if (!module)
    return 1;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  func::FuncOp func = findEntry(*module, f.source, f.entry);
  std::vector<::dlc::ref::Tensor> inputs;
  if (!func ||
      !::dlc::interpreterInputs(func, f.entry, f.inputFiles, /*randomInputs=*/true, f.seed, inputs))
    return 1;
  ::dlc::CompareReferenceOptions options;
  options.tolerance = f.tolerance;
  std::fflush(stdout);
  int rc = ::dlc::compareWithReference(func, inputs, f.dumpDir, options, llvm::outs(),
                                       llvm::errs());
  llvm::outs().flush();
  return rc;
}

int compareRunCommand(int argc, char **argv) {
  CompareRunFlags f;
  if (int rc = parseCompareRunFlags(argc, argv, f))
    return rc;
  llvm::SmallString<128> temp;
  if (f.dumpDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("dlc-compare", temp)) {
      llvm::errs() << "error: cannot create a temporary directory: " << ec.message() << "\n";
      return 1;
    }
    f.dumpDir = std::string(temp);
    f.runArgs.push_back("--dump-steps=" + f.dumpDir);
  }
  auto cleanUp = llvm::make_scope_exit([&] {
    if (!temp.empty())
      llvm::sys::fs::remove_directories(temp);
  });
  std::vector<char *> cargs;
  for (std::string &a : f.runArgs)
    cargs.push_back(a.data());
  int runRc = dlcRunMain(int(cargs.size()), cargs.data());
  if (runRc == 2)
    return 2;
  // Even after a failed run: what was dumped up to the failure is compared.
  int rc = compareDumpedSteps(f);
  return runRc ? runRc : rc;
}

} // namespace

int ::dlc::dlcMain(int argc, char **argv) {
  if (argc < 2 || llvm::StringRef(argv[1]) == "--help" ||
      llvm::StringRef(argv[1]) == "-h") {
    (argc < 2 ? llvm::errs() : llvm::outs()) << kUsage;
    return argc < 2 ? 2 : 0;
  }
  llvm::StringRef command = argv[1];
  // The subcommand sees its own name as argv[0], for its --help.
  std::string program = std::string(argv[0]) + " " + command.str();
  std::vector<char *> args(argv + 1, argv + argc);
  args[0] = program.data();
  int subArgc = static_cast<int>(args.size());
  // run and inspect are the runtime's own tools: dlc-run behaves the same.
  if (command == "run") {
    for (char *arg : args)
      if (llvm::StringRef(arg).starts_with("--compare-reference"))
        return compareRunCommand(subArgc, args.data());
    return dlcRunMain(subArgc, args.data());
  }
  if (command == "inspect")
    return dlcInspectMain(subArgc, args.data());
  if (command == "compile")
    return compileCommand(subArgc, args.data());
  if (command == "target")
    return targetCommand(subArgc, args.data());
  if (command == "probe-devices")
    return ::dlc::probeDevicesCommand(subArgc, args.data());
  if (command == "verify")
    return verifyCommand(subArgc, args.data());
  if (command == "import")
    return importCommand(subArgc, args.data());
  if (command == "interpret")
    return interpretCommand(subArgc, args.data());
  llvm::errs() << "error: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
