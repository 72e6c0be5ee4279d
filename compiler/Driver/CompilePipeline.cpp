//===- CompilePipeline.cpp - the one pipeline from a model to an artifact --===//

#include "compiler/Driver/CompilePipeline.h"
#include "compiler/Driver/ArtifactFile.h"
#include "compiler/Driver/CalibrationPasses.h"
#include "compiler/Pipeline/SchedulePasses.h"
#include "compiler/Target/CUDA/SplitCudaKernels.h"
#include "passes/Passes.h"
#include "passes/TargetBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace dlc;

namespace {

/// Options dlc-opt could not turn into a pipeline: the pipeline fails with
/// the message when it runs (pipeline builders cannot fail).
struct FailPass : PassWrapper<FailPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FailPass)
  explicit FailPass(std::string message) : message(std::move(message)) {}
  void runOnOperation() override {
    getOperation().emitError() << "dlc-compile-pipeline: " << message;
    signalPassFailure();
  }
  std::string message;
};

/// (The options' lists are views: `devices` holds what they show.)
PlaceDevicesOptions placeOptions(const CompileOptions &o, std::vector<std::string> &devices) {
  PlaceDevicesOptions options;
  if (!o.devices.empty())
    devices = {o.devices};
  options.devices = devices;
  if (!o.policy.empty())
    options.policy = o.policy;
  options.pins = o.pins;
  options.deviceSpec = o.deviceSpecPath;
  if (!o.fallback.empty())
    options.fallback = o.fallback;
  options.placementFrom = o.placementFrom;
  options.targetCpu = o.codegen.cpu.cpu;
  return options;
}

MixedPrecisionOptions precisionOptions(const CompileOptions &o) {
  MixedPrecisionOptions options;
  if (!o.precision.empty())
    options.precision = o.precision;
  if (!o.ioPrecision.empty())
    options.ioPrecision = o.ioPrecision;
  options.fp16Allow = o.fp16Allow;
  options.fp16Deny = o.fp16Deny;
  return options;
}

/// entry .. copies: naming, placement, precision, copies and their report.
void addPlacementStages(OpPassManager &pm, const CompileOptions &o) {
  if (o.runs(CompileStage::Entry))
    pm.addPass(createPrepareEntry(PrepareEntryOptions{o.entry}));
  if (!o.placementRequested() && !o.precisionRequested())
    return;
  std::vector<std::string> devices;
  std::shared_ptr<CalibrationState> calibration;
  // The calibration's fp32 run and its error report bracket placement: both
  // or neither run.
  if (!o.calibrate.empty() && o.runs(CompileStage::Place) && o.runs(CompileStage::Copies))
    calibration = std::make_shared<CalibrationState>(
        CalibrationState{o.calibrate, o.entry, o.modelLabel, {}});
  if (o.runs(CompileStage::Place)) {
    if (calibration)
      pm.addPass(createCalibrateFp16(calibration));
    pm.addPass(createPlaceDevices(placeOptions(o, devices), o.deviceSpec));
  }
  if (o.precisionRequested() && o.runs(CompileStage::Precision))
    pm.addNestedPass<func::FuncOp>(createMixedPrecision(precisionOptions(o)));
  if (!o.runs(CompileStage::Copies))
    return;
  pm.addNestedPass<func::FuncOp>(createInsertCopies());
  if (!o.dumpPlacement.empty() || o.printPlacement) {
    ReportPlacementOptions report;
    report.dump = o.dumpPlacement;
    report.print = o.printPlacement;
    pm.addPass(createReportPlacement(report));
  }
  if (calibration)
    pm.addPass(createReportCalibrationError(calibration));
}

/// rewrite .. artifact: the backends' graph rewrites, kernels, schedule, memory,
/// code and the artifact.
void addCodegenStages(OpPassManager &pm, const CompileOptions &o) {
  if (o.runs(CompileStage::Rewrite)) {
    // Each backend's weight layouts, in registration order (the CPU's:
    // CpuBackend.cpp; CUDA has none).
    BuiltinTarget target{o.codegen.cpu.cpu, o.kernelTiles};
    for (const std::string &kind : registeredTargetKinds())
      lookupTargetBackend(kind)->addGraphRewrites(pm, target);
  }
  if (o.runs(CompileStage::Kernels)) {
    pm.addNestedPass<func::FuncOp>(createPartitionKernels());
    const CodegenOptions &c = o.codegen;
    if (c.cuda || c.emitCuda || c.emulatedGpuHostCode)
      pm.addNestedPass<func::FuncOp>(cuda::createSplitCudaKernels());
  }
  if (o.runs(CompileStage::Schedule))
    pm.addPass(createSchedule(o.codegen.entry));
  if (o.runs(CompileStage::Memory))
    pm.addPass(createPlanMemory(o.codegen.entry));
  if (o.runs(CompileStage::Codegen))
    pm.addPass(createGenerateCode(o.codegen));
  if (o.runs(CompileStage::Artifact))
    pm.addPass(createWriteArtifact(o.codegen, o.artifactSink));
}

} // namespace

void dlc::buildCompilePipeline(OpPassManager &pm, const CompileOptions &options) {
  addPlacementStages(pm, options);
  addCodegenStages(pm, options);
}

namespace {
LogicalResult runPipeline(ModuleOp module, const CompileOptions &options, TimingScope *timing) {
  PassManager pm(module.getContext());
  buildCompilePipeline(pm, options);
  if (timing)
    pm.enableTiming(*timing);
  return pm.run(module);
}
} // namespace

FailureOr<std::string> dlc::compileModule(ModuleOp module, CompileOptions options) {
  if (llvm::Error error = options.check())
    return module.emitError() << llvm::toString(std::move(error));
  std::string bytes;
  options.artifactSink = [&](std::string &&artifact) {
    bytes = std::move(artifact);
    return llvm::Error::success();
  };
  TimingScope *timing = options.codegen.timing;
  if (!timing) {
    if (failed(runPipeline(module, options, nullptr)))
      return failure();
    return bytes;
  }
  // Timed (--time-stages): the graph stages pass by pass, then code
  // generation and the artifact each under a scope of its own holding its
  // parts (their passes are not timed as a whole beside them, which would
  // count them twice).
  struct Part {
    std::optional<CompileStage> after;
    CompileStage last;
    const char *scope;
  };
  const Part parts[] = {{std::nullopt, CompileStage::Memory, nullptr},
                        {CompileStage::Memory, CompileStage::Codegen, "code generation"},
                        {CompileStage::Codegen, CompileStage::Artifact, "artifact"}};
  for (const Part &part : parts) {
    CompileOptions some = options;
    if (part.after && (!some.startAfter || *some.startAfter < *part.after))
      some.startAfter = part.after;
    some.stopAfter = std::min(options.stopAfter, part.last);
    if (some.startAfter && *some.startAfter >= some.stopAfter)
      continue;
    TimingScope scope = part.scope ? timing->nest(part.scope) : TimingScope();
    if (part.scope)
      some.codegen.timing = &scope;
    if (failed(runPipeline(module, some, part.scope ? nullptr : timing)))
      return failure();
  }
  return bytes;
}

//===----------------------------------------------------------------------===//
// dlc-opt --dlc-compile-pipeline='...'
//===----------------------------------------------------------------------===//

namespace {

struct CompilePipelineOptions : PassPipelineOptions<CompilePipelineOptions> {
  Option<std::string> entry{*this, "entry", llvm::cl::desc("The function to compile"),
                            llvm::cl::init("main")};
  Option<std::string> devices{*this, "devices", llvm::cl::desc("cpu,cuda:0,...")};
  Option<std::string> placement{*this, "placement",
                                llvm::cl::desc("cost | cpu | gpu | pipeline:N | data-parallel:N")};
  ListOption<std::string> pins{*this, "pin", llvm::cl::desc("REGEX=DEVICE (repeatable)")};
  Option<std::string> deviceSpec{*this, "device-spec", llvm::cl::desc("A JSON device spec")};
  Option<std::string> fallback{*this, "fallback", llvm::cl::desc("cpu | error")};
  Option<std::string> placementFrom{*this, "placement-from",
                                    llvm::cl::desc("A placement dump to reuse")};
  Option<std::string> dumpPlacement{*this, "dump-placement",
                                    llvm::cl::desc("FILE.txt, .json or .dot")};
  Option<bool> printPlacement{*this, "print-placement",
                              llvm::cl::desc("The placement table on stderr")};
  Option<std::string> precision{*this, "precision", llvm::cl::desc("fp32 | mixed | fp16")};
  Option<std::string> ioPrecision{*this, "io-precision", llvm::cl::desc("fp32 | fp16")};
  ListOption<std::string> fp16Allow{*this, "fp16-allow", llvm::cl::desc("Op kinds")};
  ListOption<std::string> fp16Deny{*this, "fp16-deny", llvm::cl::desc("Op kinds")};
  Option<std::string> cpu{*this, "cpu", llvm::cl::desc("native or an LLVM CPU name"),
                          llvm::cl::init("native")};
  Option<std::string> kernelTiles{*this, "kernel-tiles",
                                  llvm::cl::desc("The CPU register tile ROWSxCOLUMNS instead of "
                                                 "the one derived from cpu")};
  Option<bool> cuda{*this, "cuda", llvm::cl::desc("CUDA code for GPU kernels (--no-cuda: false)"),
                    llvm::cl::init(true)};
  ListOption<std::string> cudaArchs{*this, "cuda-arch", llvm::cl::desc("sm_NN")};
  Option<std::string> gpuHostCode{*this, "gpu-host-code", llvm::cl::desc("llvm | emulated"),
                                  llvm::cl::init("llvm")};
  Option<std::string> startAfter{*this, "start-after",
                                 llvm::cl::desc("Resume from IR printed after this stage")};
  Option<std::string> stopAfter{*this, "stop-after", llvm::cl::desc("The last stage to run"),
                                llvm::cl::init("artifact")};
  Option<std::string> output{*this, "output", llvm::cl::desc("Write the artifact here")};
};

llvm::Expected<CompileOptions> toCompileOptions(const CompilePipelineOptions &p) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  CompileOptions o;
  o.entry = p.entry;
  o.devices = p.devices;
  o.policy = p.placement;
  o.pins.assign(p.pins.begin(), p.pins.end());
  o.deviceSpecPath = p.deviceSpec;
  o.fallback = p.fallback;
  o.placementFrom = p.placementFrom;
  o.dumpPlacement = p.dumpPlacement;
  o.printPlacement = p.printPlacement;
  o.precision = p.precision;
  o.ioPrecision = p.ioPrecision;
  o.fp16Allow.assign(p.fp16Allow.begin(), p.fp16Allow.end());
  o.fp16Deny.assign(p.fp16Deny.begin(), p.fp16Deny.end());
  o.modelLabel = "the model";
  o.codegen.entry = p.entry;
  o.codegen.cpu.cpu = p.cpu;
  o.codegen.cuda = p.cuda;
  o.codegen.cudaRequired = !p.cudaArchs.empty();
  if (!p.cudaArchs.empty())
    o.codegen.cudaArchs.assign(p.cudaArchs.begin(), p.cudaArchs.end());
  if (llvm::Error error = o.setGpuHostCode(p.gpuHostCode))
    return std::move(error);
  if (!p.kernelTiles.empty())
    if (llvm::Error error = o.setKernelTiles(p.kernelTiles))
      return std::move(error);
  auto stage = [&](const std::string &text) -> llvm::Expected<CompileStage> {
    if (std::optional<CompileStage> parsed = parseStage(text))
      return *parsed;
    return fail("unknown stage '" + text + "' (expected one of " + stageNames() + ")");
  };
  if (!p.startAfter.empty()) {
    llvm::Expected<CompileStage> start = stage(p.startAfter);
    if (!start)
      return start.takeError();
    o.startAfter = *start;
  }
  llvm::Expected<CompileStage> stop = stage(p.stopAfter);
  if (!stop)
    return stop.takeError();
  o.stopAfter = *stop;
  if (!p.output.empty()) {
    std::string path = p.output;
    o.artifactSink = [path](std::string &&bytes) { return writeArtifactFile(path, bytes); };
  }
  if (llvm::Error error = o.check())
    return std::move(error);
  return o;
}

} // namespace

void dlc::registerCompilePipeline() {
  PassPipelineRegistration<CompilePipelineOptions>(
      "dlc-compile-pipeline",
      "What `dlc compile` runs, stage by stage (compiler/Driver/CompilePipeline.h)",
      [](OpPassManager &pm, const CompilePipelineOptions &pipelineOptions) {
        llvm::Expected<CompileOptions> options = toCompileOptions(pipelineOptions);
        if (!options)
          return pm.addPass(std::make_unique<FailPass>(llvm::toString(options.takeError())));
        buildCompilePipeline(pm, *options);
      });
}
