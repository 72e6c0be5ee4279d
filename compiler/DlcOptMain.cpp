//===- DlcOptMain.cpp - the body of dlc-opt --------------------------------===//

#include "compiler/DlcOptMain.h"
#include "compiler/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int dlc::dlcOptMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registerAllDlcDialects(registry);
  registerAllDlcPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dlc optimizer driver\n", registry));
}
