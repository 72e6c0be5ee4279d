//===- Registration.cpp - every dlc dialect and pass in one place ----------===//

#include "compiler/Registration.h"

#include "dialects/dlc/DlcOps.h"
#include "compiler/Driver/CompilePipeline.h"
#include "compiler/Import/ONNX/OnnxImporter.h"
#include "compiler/Pipeline/SchedulePasses.h"
#include "compiler/Target/Backends.h"
#include "compiler/Target/CUDA/SplitCudaKernels.h"
#include "compiler/Target/CPU/CpuPipeline.h"
#include "compiler/Target/CPU/Passes.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

void dlc::registerAllDlcDialects(mlir::DialectRegistry &registry) {
  registry.insert<dlc::DlcDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
  registerCpuPipelineDialects(registry);
  // The backends of the device kinds the IR names (#dlc.device<cuda:0>):
  // every tool and embedder that builds a context for dlc IR gets them.
  dlc::registerBuiltinTargetBackends();
}

void dlc::registerAllDlcPasses() {
  dlc::registerDlcPasses();
  dlc::registerDlcLoweringPasses();
  dlc::registerSizedKernelPasses();
  dlc::registerOnnxImportPasses();
  dlc::cuda::registerSplitCudaKernels();
  dlc::registerSchedulePasses();
  dlc::registerCompilePipeline();
  // The generic simplifications the lit tests and pipelines use.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::registerLoopInvariantSubsetHoisting();
  // The upstream passes of the CPU path, to reproduce its stages in lit tests.
  mlir::registerLinalgPasses();
  mlir::bufferization::registerBufferizationPasses();
}
