// dlc-run: the runtime alone (no LLVM/MLIR), for deployment and GPU machines.
#include "RuntimeTools.h"

int main(int argc, char **argv) { return dlcRunToolMain(argc, argv); }
