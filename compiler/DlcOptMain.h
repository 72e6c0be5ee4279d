//===- DlcOptMain.h - the body of dlc-opt ----------------------------------===//
#ifndef DLC_COMPILER_DLCOPTMAIN_H
#define DLC_COMPILER_DLCOPTMAIN_H

namespace dlc {
/// mlir-opt with the dlc dialects and passes registered.
int dlcOptMain(int argc, char **argv);
/// `dlc`: verify, interpret (and, in later versions, compile, run, inspect).
int dlcMain(int argc, char **argv);
} // namespace dlc

#endif // DLC_COMPILER_DLCOPTMAIN_H
