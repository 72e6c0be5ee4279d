//===- MeasureKernels.cpp - time one model per cost kind on this CPU ------===//

#include "compiler/Driver/MeasureKernels.h"

#include "compiler/Driver/CompilePipeline.h"
#include "dialects/dlc/DlcOps.h"
#include "passes/CostModel.h"

#include "dlc/runtime.hpp"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace mlir;

namespace {

/// A one-op model: `kind` names the op it times (the model's only op of
/// that cost kind), `body` its MLIR with the function's signature.
struct CalibrationModel {
  const char *kind;
  const char *shape;
  const char *body;
};

// Weights are constants, as in an imported model, so that the CPU path
// packs them at compile time; the splats written here are replaced by
// pseudo-random values before compiling (a splat may be folded into the
// code, which then loads no weights: faster than any real model).
const CalibrationModel kModels[] = {
    {"conv2d", "3x3, 64 -> 64 channels, 56x56 (ResNet-18's layer1)",
     R"(func.func @main(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %w = dlc.constant dense<0.01> : tensor<64x64x3x3xf32>
  %b = dlc.constant dense<0.1> : tensor<64xf32>
  %y = dlc.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
})"},
    {"depthwise_conv2d", "3x3 depthwise, 144 channels, 56x56 (MobileNetV2's)",
     R"(func.func @main(%x: tensor<1x144x56x56xf32>) -> tensor<1x144x56x56xf32> {
  %w = dlc.constant dense<0.01> : tensor<144x1x3x3xf32>
  %b = dlc.constant dense<0.1> : tensor<144xf32>
  %y = dlc.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, groups = 144 : i64} : (tensor<1x144x56x56xf32>, tensor<144x1x3x3xf32>, tensor<144xf32>) -> tensor<1x144x56x56xf32>
  return %y : tensor<1x144x56x56xf32>
})"},
    {"linear", "32 x 784 -> 1024 (the MLP's first layer)",
     R"(func.func @main(%x: tensor<32x784xf32>) -> tensor<32x1024xf32> {
  %w = dlc.constant dense<0.01> : tensor<1024x784xf32>
  %b = dlc.constant dense<0.1> : tensor<1024xf32>
  %y = dlc.linear %x, %w, %b : (tensor<32x784xf32>, tensor<1024x784xf32>, tensor<1024xf32>) -> tensor<32x1024xf32>
  return %y : tensor<32x1024xf32>
})"},
    {"matmul", "2x4 heads of 128x64 by 64x128 (the encoder's attention scores)",
     R"(func.func @main(%q: tensor<2x4x128x64xf32>, %k: tensor<2x4x64x128xf32>) -> tensor<2x4x128x128xf32> {
  %y = dlc.matmul %q, %k : (tensor<2x4x128x64xf32>, tensor<2x4x64x128xf32>) -> tensor<2x4x128x128xf32>
  return %y : tensor<2x4x128x128xf32>
})"},
    {"add", "two 4M-element tensors (streams 48 MiB: the bandwidth of dlc's code)",
     R"(func.func @main(%a: tensor<4194304xf32>, %b: tensor<4194304xf32>) -> tensor<4194304xf32> {
  %y = dlc.add %a, %b : tensor<4194304xf32>
  return %y : tensor<4194304xf32>
})"},
};

/// A model whose run is the runtime's fixed cost: one step on one element.
const char *kLaunchModel = R"(func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
  %y = dlc.relu %x : tensor<1xf32>
  return %y : tensor<1xf32>
})";

llvm::Error failure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The FLOPs and bytes of the model's op of cost kind `kind`.
void costOf(ModuleOp module, llvm::StringRef kind, dlc::KernelMeasurement &m) {
  module.walk([&](dlc::CostOpInterface op) {
    if (dlc::costKind(op) == kind) {
      m.flops = double(op.getFlops());
      m.bytes = double(op.getBytesAccessed());
    }
  });
}

/// Replaces every splat f32 constant by values in [-0.05, 0.05).
void randomizeSplatConstants(ModuleOp module) {
  uint32_t state = 12345;
  module.walk([&](dlc::ConstantOp constant) {
    auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
    auto type = splat ? dyn_cast<RankedTensorType>(splat.getType()) : RankedTensorType();
    if (!type || !type.getElementType().isF32())
      return;
    std::vector<float> values(type.getNumElements());
    for (float &v : values) {
      state = state * 1664525u + 1013904223u;
      v = (float(state >> 8) / float(1 << 24) - 0.5f) * 0.1f;
    }
    constant.setValueAttr(DenseElementsAttr::get(type, llvm::ArrayRef<float>(values)));
  });
}

/// Compiles `body` for the CPU alone into artifact bytes.
llvm::Expected<std::string> compileCalibrationModel(MLIRContext &context, const char *body,
                                                    const dlc::KernelMeasureOptions &options,
                                                    OwningOpRef<ModuleOp> &module) {
  std::string diagnostics;
  {
    ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(body, &context);
    if (!module)
      return failure("does not parse: " + diagnostics);
    randomizeSplatConstants(*module);
    dlc::CompileOptions compile;
    compile.codegen.cpu.cpu = options.cpu;
    if (llvm::Error error = compile.check())
      return std::move(error);
    OwningOpRef<ModuleOp> copy = module->clone();
    FailureOr<std::string> artifact = dlc::compileModule(*copy, std::move(compile));
    if (failed(artifact) || artifact->empty())
      return failure("does not compile: " + diagnostics);
    return std::move(*artifact);
  }
}

/// Median microseconds per run of `artifact` on one thread.
llvm::Expected<double> timeArtifact(const std::string &artifact,
                                    const dlc::KernelMeasureOptions &options) {
  dlc::Model model;
  if (dlc::Status s = dlc::Model::loadMemory(artifact.data(), artifact.size(), model); !s.ok())
    return failure("does not load: " + s.message());
  dlc_session_options_t sessionOptions;
  dlc_session_options_initialize(&sessionOptions);
  sessionOptions.thread_count = 1;
  dlc::Session session;
  if (dlc::Status s = dlc::Session::create(model, session, &sessionOptions); !s.ok())
    return failure("no session: " + s.message());
  for (size_t i = 0; i < model.inputCount(); ++i) {
    std::vector<float> values(model.input(i).byte_size / sizeof(float), 0.5f);
    if (dlc::Status s = session.setInput(i, values); !s.ok())
      return failure("input: " + s.message());
  }
  using Clock = std::chrono::steady_clock;
  std::vector<double> runs;
  auto start = Clock::now();
  for (int warm = 0; warm < 2; ++warm)
    if (dlc::Status s = session.run(); !s.ok())
      return failure("does not run: " + s.message());
  while (int(runs.size()) < options.minRuns ||
         std::chrono::duration<double>(Clock::now() - start).count() < options.minSeconds) {
    auto t0 = Clock::now();
    if (dlc::Status s = session.run(); !s.ok())
      return failure("does not run: " + s.message());
    runs.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (runs.size() >= 10000)
      break;
  }
  std::nth_element(runs.begin(), runs.begin() + runs.size() / 2, runs.end());
  return runs[runs.size() / 2];
}

} // namespace

llvm::Expected<dlc::KernelMeasurements>
dlc::measureCpuKernels(MLIRContext &context, const KernelMeasureOptions &options) {
  KernelMeasurements result;
  OwningOpRef<ModuleOp> module;
  llvm::Expected<std::string> launch =
      compileCalibrationModel(context, kLaunchModel, options, module);
  llvm::Expected<double> launchUs =
      launch ? timeArtifact(*launch, options) : llvm::Expected<double>(launch.takeError());
  if (!launchUs)
    return failure("calibration model 'relu of one element': " +
                   llvm::toString(launchUs.takeError()));
  result.launchUs = *launchUs;
  for (const CalibrationModel &calibration : kModels) {
    KernelMeasurement m;
    m.kind = calibration.kind;
    m.shape = calibration.shape;
    llvm::Expected<std::string> artifact =
        compileCalibrationModel(context, calibration.body, options, module);
    llvm::Expected<double> us =
        artifact ? timeArtifact(*artifact, options) : llvm::Expected<double>(artifact.takeError());
    if (!us)
      return failure(llvm::formatv("calibration model '{0}' ({1}): {2}", calibration.kind,
                                   calibration.shape, llvm::toString(us.takeError())));
    costOf(*module, m.kind, m);
    m.medianUs = std::max(*us - result.launchUs, 0.01 * *us);
    result.kernels.push_back(m);
  }
  return result;
}
