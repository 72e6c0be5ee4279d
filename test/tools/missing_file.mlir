// A model file that does not exist: the message names the file, the exit
// status is 1 and nothing reaches stdout.
// RUN: rm -f %t.missing.mlir
// RUN: %python %S/Inputs/exit_code.py 1 dlc verify %t.missing.mlir 2>&1 | FileCheck %s -DFILE=%t.missing.mlir
// RUN: not dlc verify %t.missing.mlir 2>/dev/null | count 0
// RUN: not dlc-opt %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=OPT -DFILE=%t.missing.mlir

// CHECK: error: cannot open input file '[[FILE]]': No such file or directory
// OPT: cannot open input file '[[FILE]]': No such file or directory
