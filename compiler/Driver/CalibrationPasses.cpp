//===- CalibrationPasses.cpp - --calibrate as two passes of the pipeline ---===//

#include "compiler/Driver/CalibrationPasses.h"
#include "Interpreter/Npy.h"
#include "Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace dlc;

namespace {

/// --calibrate's NAME=FILE.npy pairs as one tensor per argument of `func`.
LogicalResult readCalibrationInputs(func::FuncOp func, const std::vector<std::string> &specs,
                                    std::vector<ref::Tensor> &inputs) {
  llvm::StringMap<std::string> given;
  for (const std::string &spec : specs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      llvm::errs() << "error: --calibrate expects NAME=FILE.npy, got '" << spec << "'\n";
      return failure();
    }
    given[spec.substr(0, eq)] = spec.substr(eq + 1);
  }
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    std::string name = argumentName(func, i);
    auto it = given.find(name);
    if (it == given.end())
      it = given.find("arg" + std::to_string(i));
    if (it == given.end()) {
      llvm::errs() << "error: --calibrate: no value for input '" << name
                   << "': pass --calibrate=" << name << "=FILE.npy\n";
      return failure();
    }
    ref::Expected<ref::Tensor> tensor = ref::readNpy(it->second);
    if (!tensor) {
      llvm::errs() << "error: --calibrate: input '" << name << "': " << tensor.message()
                   << "\n";
      return failure();
    }
    auto argType = cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (FailureOr<ref::DType> want = refDTypeOf(argType.getElementType()); succeeded(want))
      *tensor = ref::convertForInput(std::move(*tensor), *want);
    inputs.push_back(std::move(*tensor));
    given.erase(it);
  }
  if (!given.empty()) {
    llvm::errs() << "error: --calibrate: @" << func.getSymName() << " has no input named '"
                 << given.begin()->getKey() << "'\n";
    return failure();
  }
  return success();
}

struct CalibrateFp16Pass : PassWrapper<CalibrateFp16Pass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CalibrateFp16Pass)
  explicit CalibrateFp16Pass(std::shared_ptr<CalibrationState> state)
      : state(std::move(state)) {}
  StringRef getArgument() const override { return "dlc-calibrate-fp16"; }

  void runOnOperation() override {
    auto func = getOperation().lookupSymbol<func::FuncOp>(state->entry);
    if (!func) {
      llvm::errs() << "error: " << state->modelLabel << ": no function @" << state->entry
                   << " in the model (choose one with --entry)\n";
      return signalPassFailure();
    }
    if (failed(readCalibrationInputs(func, state->inputSpecs, state->calibration.inputs)) ||
        failed(calibrateFp16(func, state->calibration, llvm::errs())))
      signalPassFailure();
  }

  std::shared_ptr<CalibrationState> state;
};

struct ReportCalibrationErrorPass
    : PassWrapper<ReportCalibrationErrorPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReportCalibrationErrorPass)
  explicit ReportCalibrationErrorPass(std::shared_ptr<CalibrationState> state)
      : state(std::move(state)) {}
  StringRef getArgument() const override { return "dlc-report-calibration-error"; }

  void runOnOperation() override {
    auto func = getOperation().lookupSymbol<func::FuncOp>(state->entry);
    if (!func || failed(reportCalibrationError(func, state->calibration, llvm::errs())))
      signalPassFailure();
  }

  std::shared_ptr<CalibrationState> state;
};

} // namespace

std::unique_ptr<Pass> dlc::createCalibrateFp16(std::shared_ptr<CalibrationState> state) {
  return std::make_unique<CalibrateFp16Pass>(std::move(state));
}

std::unique_ptr<Pass>
dlc::createReportCalibrationError(std::shared_ptr<CalibrationState> state) {
  return std::make_unique<ReportCalibrationErrorPass>(std::move(state));
}
