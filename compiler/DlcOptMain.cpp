//===- DlcOptMain.cpp - the body of dlc-opt --------------------------------===//

#include "compiler/DlcOptMain.h"
#include "compiler/Registration.h"
#include "compiler/Target/CPU/CpuPipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int dlc::dlcOptMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registerAllDlcDialects(registry);
  registerAllDlcPasses();
  // dlc-codegen links with LLD, which resets the options MlirOptMain parses
  // (the IR printed after it would lose -mlir-print-debuginfo).
  reparseOptionsAfterLinking(argc, argv);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dlc optimizer driver\n", registry));
}
