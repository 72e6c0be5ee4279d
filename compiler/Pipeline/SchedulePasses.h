//===- SchedulePasses.h - the schedule and the memory plan as passes ------===//
//
//   dlc-schedule     buffers and each device's step list (Schedule.cpp)
//   dlc-plan-memory  one arena per device by liveness over it (PlanMemory.cpp)
//
// Both work on the entry function after dlc-partition-kernels and write
// their results onto it (ScheduleIR.h); the artifact stage reads them.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_COMPILER_PIPELINE_SCHEDULEPASSES_H
#define DLC_COMPILER_PIPELINE_SCHEDULEPASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace dlc {

std::unique_ptr<mlir::Pass> createSchedule(llvm::StringRef entry);
std::unique_ptr<mlir::Pass> createPlanMemory(llvm::StringRef entry);
void registerSchedulePasses();
void registerPlanMemory();

/// The function `entry` of `module` with a body, else an error on `module`
/// ("no function @main with a body in the model") and null.
mlir::func::FuncOp entryFunction(mlir::ModuleOp module, llvm::StringRef entry);

} // namespace dlc

#endif // DLC_COMPILER_PIPELINE_SCHEDULEPASSES_H
